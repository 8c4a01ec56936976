"""What the host says travels by key: each side reads it in its own language, and nothing
the other end sends reaches the terminal raw."""

from __future__ import annotations

import asyncio
import functools
import json
from pathlib import Path
from typing import Any

import pytest

from stress_tui.core.choices import GUEST, OPEN_SEAT
from stress_tui.core.lifecycle import Hold, Holder, Stage
from stress_tui.core.notation import format_rules
from stress_tui.core.rules import Rules
from stress_tui.core.words import Say, shown_name
from stress_tui.net import client as client_module
from stress_tui.net.client import Client, JoinError
from stress_tui.net.host import Host
from stress_tui.net.protocol import HOST_MESSAGES, VERSION, ProtocolError, decode, encode
from stress_tui.net.standing import JOINER_SEAT, describe
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
        await until(lambda: host.life.stage is Stage.GONE, "the host to hear")
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
        await until(lambda: host.life.stage is Stage.GONE, "the host to hear")
        assert host.status_line(SV) == "Gäst gick"
        assert said("left", name=GUEST).tell(DE) == "Gast ist gegangen"
        dropped = {Holder(Hold.DROPPED, JOINER_SEAT)}
        assert describe(Stage.PAUSED, dropped, (GUEST, "Ann"), None, 3.0, DE) == (
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


# ------------------------------------------------------------------ every string a host sends


def _strings(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Where ``value`` (a message as JSON) holds a string: the path of each, and of each
    object key (ending in ``KEY``)."""
    found: list[tuple[Any, ...]] = []
    if isinstance(value, str):
        found.append(path)
    elif isinstance(value, dict):
        for name, item in value.items():
            found.append((*path, name, _KEY))
            found.extend(_strings(item, (*path, name)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_strings(item, (*path, index)))
    return found


_KEY = object()
"""The end of a path that names an object's key rather than its value."""


def _poisoned(value: Any, path: tuple[Any, ...], text: str) -> Any:
    """``value`` with the string (or key) at ``path`` replaced by ``text``."""
    if not path:
        return text
    if len(path) == 2 and path[1] is _KEY:
        return {(text if name == path[0] else name): item for name, item in value.items()}
    if isinstance(value, dict):
        return {**value, path[0]: _poisoned(value[path[0]], path[1:], text)}
    changed = list(value)
    changed[path[0]] = _poisoned(value[path[0]], path[1:], text)
    return changed


async def _scripted_host(code: str, script: list[dict[str, Any]]) -> tuple[asyncio.Server, int]:
    """A host that lets a joiner in with ``code`` as every host does (challenge, proof), then
    sends ``script``: the first message is the welcome (its proof filled in), the rest as
    they are, then holds the line open until the joiner closes it."""
    from stress_tui.net.protocol import code_key, nonce, proof

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        salt, ours = bytes.fromhex(nonce()), nonce()
        writer.write(encode({"t": "challenge", "salt": salt.hex(), "nonce": ours}))
        auth = json.loads(await reader.readline())
        key = await asyncio.to_thread(code_key, code, salt)
        welcome = {**script[0], "proof": proof(key, "host", ours, auth["nonce"])}
        for message in [welcome, *script[1:]]:
            writer.write(encode(message))
        await writer.drain()
        await reader.read()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def _a_match_as_sent() -> list[dict[str, Any]]:
    """What a host sends its joiner from the welcome to the first round's flip, as sent,
    then the round's actions and its whole table again, as to a joiner back mid-round."""
    from tests.test_net import table

    sent: list[dict[str, Any]] = []

    async def test() -> None:
        host, joiner = await table()
        sent.append(
            {"t": "welcome", "proof": "", "seat": joiner.seat, "names": list(host.names),
             "rules": format_rules(host.rules)}
        )  # fmt: skip
        await host.close()
        await joiner.leave()

    real = Client._on_message

    def keep(self: Client, message: dict[str, Any]) -> None:
        sent.append(json.loads(json.dumps(message)))
        real(self, message)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Client, "_on_message", keep)
        run(test)
    match = [sent[-1], *sent[:-1]]
    # What a joiner back mid-round is sent before its whole table: the actions so far.
    moved = next(message for message in reversed(match) if message["t"] == "moved")
    state = next(message for message in reversed(match) if message["t"] == "state")
    acts = {"t": "acts", "round": state["round"], "from": 0, "actions": moved["actions"]}
    return [*match, acts, {**state, "events": []}]


def test_no_string_a_host_sends_reaches_the_joiners_screen_raw() -> None:
    """Every string of every message a host sends a joiner (the welcome's names and rules,
    each field of a state, its view and events, a deal, a ping, a refusal, a bye, and every
    object key), each in turn set to text that would drive a terminal: what the joiner
    shows (the names, the line under the table, who paused, why the match is over, why it
    could not join) holds none of it raw. Each is read against its shape where it is read:
    a name is a name (``clean_name``), a line a said key with harmless arguments, a view
    and events what ``codec`` decodes; anything else ends the match in one harmless line."""
    from tests.test_hostile_text import POISON, RAW, raw_from_file

    match = _a_match_as_sent()
    bye = {"t": "bye", "reason": said("left", name="Ann").to_json()}
    last = {message["t"]: index for index, message in enumerate(match)}
    state = match[last["state"]]
    cases: list[list[dict[str, Any]]] = []
    for index in sorted({0, *last.values()}):
        for path in _strings(match[index]):
            if path != ("t",):
                changed = _poisoned(match[index], path, POISON)
                cases.append([*match[:index], changed, *match[index + 1 :], bye])
    for name in ("stage", "holds", "message", "result", "seq", "waiting"):
        cases.append([*match, {**state, name: POISON}, bye])
    for short in ("A\x1b]0;X\x07", "\u202eAnn", "A\u200bB", "A\u009b2J"):
        cases.append([*match, {**state, "holds": [["pause", 0], ["away", 1]]}, bye])
        cases.append([{**match[0], "names": [short, "Bo"]}, *match[1:], bye])
    for args in ({"name": POISON}, {"why": POISON}):
        key = "left" if "name" in args else "error"
        cases.append([*match, {**state, "message": {"key": key, "args": args}}, bye])
        cases.append([*match, {"t": "bye", "reason": {"key": key, "args": args}}])
    cases.append([*match, {"t": "bye", "reason": {"key": POISON[:32], "args": {}}}])
    cases.append([{"t": "refused", "reason": POISON}])
    cases.append([{"t": "refused", "reason": POISON, "v": POISON}])
    cases.append(
        [{"t": "refused", "reason": "no", "said": {"key": "error", "args": {"why": POISON}}}]
    )
    assert len(cases) > 40

    async def joined(script: list[dict[str, Any]]) -> str:
        server, port = await _scripted_host("a-b-c-d", script)
        shown: list[str] = []
        async with server:
            joiner = Client("127.0.0.1", port, "a-b-c-d", "Bo", record=False)

            def seen(_events: object = None) -> None:
                line = describe(joiner.stage, joiner.holds, joiner.names, joiner.message, None)
                shown.extend(str(v) for v in (*joiner.names, joiner.message, line))

            joiner.on_change = seen
            try:
                await joiner.connect()
            except JoinError as error:
                return str(error)
            await until(lambda: joiner.stage is Stage.GONE, "the match to end", timeout=5)
            seen()
            await joiner.leave()
        return "\n".join(shown)

    for script in cases:
        text = run_for(joined, script)
        out = text.encode()
        assert raw_from_file(out) == [] and not RAW.search(out), (script[-2:], text)


def run_for(test: Any, script: list[dict[str, Any]]) -> str:
    """``test(script)`` run to its end in a loop of its own; what it returned."""
    result: list[str] = []

    async def once() -> None:
        result.append(await test(script))

    run(once)
    return result[0]


def test_a_deal_whose_commitment_is_not_one_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    """A deal's ``commit`` is read as what it is, a SHA-256 commitment
    (``sha256:`` and 64 hex digits): a host that sends anything else ends the match in one
    harmless line, and the joiner writes no replay whose header its own reader refuses."""
    from tests.test_hostile_text import POISON, RAW

    match = _a_match_as_sent()
    deal = next(index for index, message in enumerate(match) if message["t"] == "deal")

    async def dealt(script: list[dict[str, Any]]) -> None:
        server, port = await _scripted_host("a-b-c-d", script)
        async with server:
            joiner = Client("127.0.0.1", port, "a-b-c-d", "Bo", record=True)
            await joiner.connect()
            await until(lambda: joiner.stage is Stage.GONE, "the match to end")
            assert joiner.message is not None
            assert "the host broke the protocol (deal: 'commit'" in joiner.message
            assert not RAW.search(joiner.message.encode())
            await joiner.leave()

    for commit in (POISON, "sha256:" + "x" * 64, "sha256:" + "ab" * 20):
        run(functools.partial(dealt, [*match[:deal], {**match[deal], "commit": commit}]))
        assert not list(tmp_path.rglob("*.jsonl*")), commit
