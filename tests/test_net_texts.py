"""What the host says travels by key: each side reads it in its own language, and nothing
the other end sends reaches the terminal raw."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from stress_tui.core.choices import GUEST, OPEN_SEAT
from stress_tui.core.rules import Rules
from stress_tui.core.words import Say, shown_name
from stress_tui.net import client as client_module
from stress_tui.net.client import Client, JoinError
from stress_tui.net.host import Host, describe
from stress_tui.net.protocol import HOST_MESSAGES, VERSION, ProtocolError, decode, encode
from stress_tui.net.texts import (
    TEXTS,
    UNVERSIONED,
    Said,
    fields,
    recognize,
    said,
    said_from_json,
)
from stress_tui.terminal.lang import translation
from tests.test_net import SEED, run, seated, until


def language(code: str) -> Say:
    """The translation of one language, apart from the program's chosen one (a host and a
    joiner in one process speak two)."""
    return translation(code).gettext


SV, DE = language("sv"), language("de")


@pytest.fixture(autouse=True)
def _data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(client_module, "RETRY_EVERY", 0.05)
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(tmp_path))


def test_a_said_line_is_said_in_each_readers_language() -> None:
    left = said("left", name="Bo")
    assert left.tell() == "Bo left"
    assert left.tell(SV) == "Bo gick"
    assert left.tell(DE) == "Bo ist gegangen"
    wait = said("wrong-code-wait", s=4.0)
    assert wait.tell(DE) == "falscher Beitrittscode (nächster Versuch von deiner Adresse in 4 s)"
    assert said_from_json(json.loads(json.dumps(wait.to_json()))) == wait


def test_every_key_is_translated_with_its_placeholders() -> None:
    for key, english in TEXTS.items():
        if key == "error":
            continue  # a protocol error's details: technical, English
        for say in (SV, DE):
            assert say(english) != english, (key, english)
            assert fields(say(english)) == fields(english), key


@pytest.mark.parametrize(
    "value",
    [
        "left",
        ["left", {}],
        {"key": "left"},
        {"key": "left", "args": {}, "text": "raw text"},
        {"key": "Left\x1b[2J", "args": {}},
        {"key": "", "args": {}},
        {"key": "x" * 33, "args": {}},
        {"key": "left", "args": []},
        {"key": "left", "args": {"name": {"nested": 1}}},
        {"key": "left", "args": {"name": ["Bo"]}},
        {"key": "left", "args": {"name": True}},
        {"key": "left", "args": {"name": 1e300}},
        {"key": "left", "args": {"name": "x" * 201}},
        {"key": "left", "args": {"Name": "Bo"}},
        {"key": "left", "args": {f"a{'b' * i}": 1 for i in range(5)}},
    ],
)
def test_a_hostile_said_line_is_refused(value: Any) -> None:
    with pytest.raises(ValueError):
        said_from_json(value)
    line = encode({"t": "bye", "reason": value})
    with pytest.raises(ProtocolError):
        decode(line, HOST_MESSAGES)


def test_a_key_this_version_does_not_know_is_said_as_our_own_line_never_theirs() -> None:
    newer = said_from_json({"key": "dragons-ahead", "args": {"why": "\x1b]52;c;ZXZpbA==\x07"}})
    assert newer.tell() == "the other side said something this version cannot show (dragons-ahead)"
    assert "\x1b" not in newer.tell(DE) and "dragons-ahead" in newer.tell(DE)
    # A key we know with other arguments than its text has: the same, not a KeyError.
    odd = said_from_json({"key": "left", "args": {"who": "Bo"}})
    assert "cannot show (left)" in odd.tell()


def test_texts_from_the_other_end_are_made_harmless() -> None:
    evil = said_from_json({"key": "lost-error", "args": {"name": "Bo", "why": "x\x1b[2Jy\x9b"}})
    shown = evil.tell(SV)
    assert shown.startswith("förbindelsen med Bo bröts (")
    assert shown.isprintable() and "\\u001B[2J" in shown


def test_the_english_of_a_refusal_before_the_hello_is_known_again() -> None:
    for key in UNVERSIONED:
        template = TEXTS[key]
        args = {name: 7 for name in fields(template)}
        english = Said(key, args).tell()
        assert recognize(english) == Said(key, args)
    assert recognize("wrong join code") is None  # sent by key: never guessed
    assert recognize("busy: too many connections at once, or not") is None


def test_the_host_and_the_joiner_each_read_the_match_in_their_own_language() -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", countdown=0.05, record=False, seed=SEED, say=SV)
        joiner = await seated(host, record=False, say=DE)
        third = Client("127.0.0.1", host.port, host.code, "Cy", record=False, say=DE)
        with pytest.raises(JoinError) as refused:
            await third.connect()
        assert str(refused.value) == (
            f"127.0.0.1:{host.port} lehnt ab: der Tisch ist voll: Bo spielt "
            "(stress-tui watch zum Zuschauen)"
        )
        assert refused.value.refused
        await joiner.leave()
        await until(lambda: host.status == "over", "the host to hear")
        assert host.status_line(SV) == "Bo gick"
        await host.close()

    run(test)


def test_the_host_leaving_is_said_in_the_joiners_language() -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", countdown=0.05, record=False, seed=SEED, say=SV)
        joiner = await seated(host, record=False, say=DE)
        await host.leave()
        assert joiner.done is not None
        assert await asyncio.wait_for(joiner.done, 3) == "Ann ist gegangen"

    run(test)


def test_the_names_the_network_gives_are_said_in_each_readers_language() -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", countdown=0.05, record=False, seed=SEED, say=SV)
        _, port = await host.start()
        watcher = Client("127.0.0.1", port, host.code, role="watch", record=False, say=DE)
        await watcher.connect()
        await until(lambda: watcher.names[1] == "Ann", "the spectator's welcome")
        assert watcher.names[0] == OPEN_SEAT  # the key on the wire, as ever
        assert [shown_name(name, DE) for name in watcher.names] == ["(freier Platz)", "Ann"]
        joiner = Client("127.0.0.1", port, host.code, record=False, say=DE)  # nobody named
        await joiner.connect()
        await until(lambda: host.names[0] == GUEST, "the guest seated")
        await joiner.leave()
        await until(lambda: host.status == "over", "the host to hear")
        assert host.status_line(SV) == "Gäst gick"
        assert said("left", name=GUEST).tell(DE) == "Gast ist gegangen"
        assert describe("dropped", GUEST, None, None, 3.0, DE) == (
            "warte, bis Gast zurückkommt, 3 s"
        )
        await watcher.leave()
        await host.close()

    run(test)


async def _refusing_host(answer: dict[str, Any]) -> tuple[asyncio.Server, int]:
    """A host that answers every hello with ``answer`` (an older or newer program)."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(encode(answer))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def test_another_versions_refusal_is_one_clear_line_in_the_joiners_language() -> None:
    """Another version's host refuses in the one shape every version reads: a reason in
    English and its version; the joiner says it in its own language."""

    async def test() -> None:
        older = VERSION - 1
        english = (
            f"protocol version {VERSION} meets version {older}: "
            "both players need the same stress-tui version"
        )
        server, port = await _refusing_host({"t": "refused", "reason": english, "v": older})
        async with server:
            with pytest.raises(JoinError) as refused:
                await Client("127.0.0.1", port, "a-b-c-d", "Bo", say=DE).connect()
        assert str(refused.value) == (
            f"127.0.0.1:{port} lehnt ab: Protokollversion {VERSION} trifft Version {older}: "
            "beide brauchen dieselbe stress-tui-Version"
        )

    run(test)


def test_a_refusal_before_the_hello_is_said_in_the_joiners_language_too() -> None:
    async def test() -> None:
        busy = {"t": "refused", "reason": "busy: too many connections at once"}
        server, port = await _refusing_host(busy)
        async with server:
            with pytest.raises(JoinError, match="upptaget: för många anslutningar på en gång"):
                await Client("127.0.0.1", port, "a-b-c-d", "Bo", say=SV).connect()

    run(test)


def test_an_unknown_refusal_text_is_shown_harmless() -> None:
    async def test() -> None:
        odd = {"t": "refused", "reason": "go away\x1b[2J"}
        server, port = await _refusing_host(odd)
        async with server:
            with pytest.raises(JoinError) as refused:
                await Client("127.0.0.1", port, "a-b-c-d", "Bo", say=DE).connect()
        assert str(refused.value).endswith("lehnt ab: go away\\u001B[2J")

    run(test)
