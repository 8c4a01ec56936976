"""``stress-tui serve`` in-process: the SSH channel's endpoint under a client that stops
reading, and the command without its extra. (The real server with the real ``ssh`` client:
``tests/test_serve.py``.)"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from stress_tui.cli.main import main
from stress_tui.core.choices import COMPUTER
from stress_tui.core.settings import Settings
from stress_tui.terminal.channel import UNSAID_LOCALE, ChannelEndpoint
from stress_tui.terminal.endpoint import ASK_POSITION


class Channel:
    """A channel that keeps what the server wrote to its client."""

    def __init__(self) -> None:
        self.sent = bytearray()

    def write(self, data: bytes) -> None:
        self.sent += data

    def get_extra_info(self, name: str, default: object = None) -> object:
        return default  # no socket: a channel in memory


async def until(check: object, what: str) -> None:
    for _ in range(500):
        if callable(check) and check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"no {what}")


def test_a_client_that_stops_reading_costs_frames_not_memory() -> None:
    from stress_tui.terminal.app import App

    async def play() -> int:
        channel = Channel()
        endpoint = ChannelEndpoint(channel, 80, 24)
        app = App(endpoint, Settings(players=("human", "bot:expert"), names=("zed", COMPUTER)))
        game = asyncio.ensure_future(app.main())
        await until(lambda: ASK_POSITION.encode() in channel.sent, "start-up questions")
        endpoint.data(b"\x1b[1;1R")
        await until(lambda: b"zed" in channel.sent, "first frame")
        endpoint.pause()  # the client stops reading: the channel is full
        held = len(channel.sent)
        for width in range(40, 120):  # the window changes size again and again
            endpoint.resize(width, 30)
            await asyncio.sleep(0)
        endpoint.data(b"?")  # the help, asked for meanwhile
        await asyncio.sleep(0.1)
        assert len(channel.sent) == held  # not a byte more held for the client
        endpoint.drained()  # it reads again: the screen as it now is, drawn once
        await until(lambda: b"help" in channel.sent[held:].lower(), "the help drawn")
        assert len(channel.sent) - held < 64 * 1024
        endpoint.hang_up()
        return await game

    assert asyncio.run(play()) == 129


@pytest.mark.parametrize(
    ("sent", "letters"),
    [({}, False), ({"LANG": "de_DE.UTF-8"}, False), ({"LC_ALL": "C"}, True), ({"LANG": "C"}, True)],
)
def test_a_sessions_suits_follow_the_locale_its_client_sent_not_the_servers(
    sent: dict[str, str], letters: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client whose ``ssh`` sends a locale without UTF-8 (``LC_ALL=C``: a terminal that
    would show the suits' bytes as other letters) is drawn the suits as letters and told
    why, whatever the server's own locale; one that sends none, or a UTF-8 one, the
    symbols."""
    from stress_tui.terminal.app import App

    monkeypatch.setenv("LANG", "C.UTF-8")  # the server's own
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_CTYPE", raising=False)

    async def first_frame() -> str:
        channel = Channel()
        endpoint = ChannelEndpoint(channel, 80, 24)
        endpoint.environ = {**UNSAID_LOCALE, **sent}  # as the server hands it over
        app = App(endpoint, Settings(players=("human", "bot:expert"), names=("una", COMPUTER)))
        game = asyncio.ensure_future(app.main())
        await until(lambda: b"una" in channel.sent, "first frame")
        endpoint.data(b"\x03")
        await game
        return channel.sent.decode()

    frame = asyncio.run(first_frame())
    assert ("suits as letters" in frame) is letters
    assert any(suit in frame for suit in "\u2660\u2663\u2665\u2666") is not letters


def test_serve_without_asyncssh_says_how_to_install_it_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "asyncssh", None)  # as if not installed
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err == "stress-tui: serve needs asyncssh: pip install 'stress-tui[serve]'\n"


def test_a_key_keeps_the_name_it_was_first_given_and_a_taken_name_gets_a_number(
    tmp_path: Path,
) -> None:
    from stress_tui.storage.keys import name_for

    path = tmp_path / "keys.sqlite"
    assert name_for("SHA256:one", "alice", path) == "alice"
    assert name_for("SHA256:two", "alice", path) == "alice-2"  # another key, its own name
    assert name_for("SHA256:one", "mallory", path) == "alice"  # the key's, whatever user
    assert name_for("SHA256:three", "\x1b[2J", path) == "player"  # not a name: the fallback
    assert name_for("SHA256:four", "a-very-long-name", path) == "a-very-long-name"
    assert name_for("SHA256:five", "a-very-long-name", path) == "a-very-long-na-2"


def test_a_client_that_answers_no_question_is_played_on_all_the_same() -> None:
    from stress_tui.terminal.app import App

    async def play() -> int:
        channel = Channel()
        endpoint = ChannelEndpoint(channel, 80, 24)
        app = App(endpoint, Settings(players=("human", "bot:expert"), names=("una", COMPUTER)))
        game = asyncio.ensure_future(app.main())
        await until(lambda: b"una" in channel.sent, "first frame")  # after the deadline
        assert not endpoint.answers_questions
        endpoint.data(b"\x03")  # Ctrl-C quits, as at a local terminal
        return await game

    assert asyncio.run(play()) == 130


class Closing(Channel):
    """A channel its client may close: asyncssh's refuses a write then
    (``BrokenPipeError``), before the server hears that the client has gone."""

    def __init__(self) -> None:
        super().__init__()
        self.open = True

    def write(self, data: bytes) -> None:
        if not self.open:
            raise BrokenPipeError("Channel not open for sending")
        super().write(data)


def test_a_frame_drawn_after_the_client_closed_its_channel_is_no_crash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from stress_tui.terminal.app import App

    async def play() -> int:
        channel = Closing()
        endpoint = ChannelEndpoint(channel, 80, 24)
        app = App(endpoint, Settings(players=("human", "bot:expert"), names=("ines", COMPUTER)))
        game = asyncio.ensure_future(app.main())
        await until(lambda: b"ines" in channel.sent, "first frame")
        channel.open = False  # the client left; the server is told on the loop's next turn
        endpoint.resize(100, 30)  # a frame to draw meanwhile
        await asyncio.sleep(0.1)
        endpoint.hang_up()
        return await game

    assert asyncio.run(play()) == 129  # a hangup, as the client went: no crash (1)
    assert "Traceback" not in capsys.readouterr().err


def test_a_crash_in_a_key_over_the_channel_ends_that_game_as_a_crash() -> None:
    """As at a local terminal: a key whose handling crashes ends the game with the crash
    (the server ends that session alone, ``Session.run``), rather than the crash going to
    the loop's handler and the game going on half-done."""
    from stress_tui.terminal.app import App

    async def play() -> int:
        channel = Channel()
        endpoint = ChannelEndpoint(channel, 80, 24)
        app = App(endpoint, Settings(players=("human", "bot:expert"), names=("ola", COMPUTER)))
        game = asyncio.ensure_future(app.main())
        await until(lambda: b"ola" in channel.sent, "first frame")
        app.crash_on_key = True  # the game's own way to crash on a key, for tests
        asyncio.get_running_loop().call_soon(endpoint.data, b"?")  # as the server hands it
        return await asyncio.wait_for(game, 10)

    with pytest.raises(RuntimeError, match="a crash on the first key"):
        asyncio.run(play())


def replay_file(folder: Path, stem: str, names: list[str], kinds: list[str], end: str) -> Path:
    """A replay file as the recorder leaves it: its header, an action, its end line."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.jsonl"
    header = {
        "format": "stress-tui-replay",
        "names": names,
        "players": kinds,
        "started": "2026-12-02T01:10:44+00:00",
    }
    path.write_text(json.dumps(header) + '\n{"t": 1.5, "a": "ready", "p": 0}\n' + end)
    return path


def test_a_keys_replays_are_the_rounds_its_name_played_as_a_person_and_no_other_file(
    tmp_path: Path,
) -> None:
    from stress_tui.storage.keyreplays import key_replay, key_replays

    folder = tmp_path / "replays"
    won = replay_file(
        folder,
        "20261202-011044-000001",
        ["alice", COMPUTER],
        ["human", "bot:hard"],
        '{"end": true, "winner": 0, "t": 30.0}\n',
    )
    cut = replay_file(folder, "20261202-011544-000002", ["bob", "alice"], ["human", "human"], "")
    bobs = replay_file(
        folder,
        "20261202-012044-000003",
        ["bob", COMPUTER],
        ["human", "bot:easy"],
        '{"end": true, "winner": 1, "t": 30.0}\n',
    )
    replay_file(  # a computer named alice is not the key alice
        folder,
        "20261202-012544-000004",
        ["bob", "alice"],
        ["human", "bot:easy"],
        '{"end": true, "winner": 1, "t": 30.0}\n',
    )
    (folder / "20261202-013044-000005.jsonl.part").write_text("")  # being played
    (tmp_path / "keys.sqlite").write_text("secret")
    listed = key_replays("alice", folder)
    assert [(r.name, r.opponent, r.won, r.ended) for r in listed] == [
        (cut.name, "bob", None, False),
        (won.name, COMPUTER, True, True),
    ]
    assert listed[1].opponent_kind == "bot:hard"
    assert key_replay("alice", won.name, folder) == won
    for name in (bobs.name, "../keys.sqlite", str(won), f"../replays/{won.name}", "", "."):
        assert key_replay("alice", name, folder) is None, name


def test_a_key_named_as_the_game_names_a_guest_or_the_computer_is_named_player(
    tmp_path: Path,
) -> None:
    from stress_tui.storage.keys import name_for

    path = tmp_path / "keys.sqlite"
    assert name_for("SHA256:one", "Guest", path) == "player"
    assert name_for("SHA256:two", "Computer", path) == "player-2"


def test_the_systemd_unit_in_the_docs_starts_a_serve_the_parser_takes() -> None:
    import re

    from stress_tui.cli.parser import build

    doc = (Path(__file__).resolve().parents[1] / "docs" / "serve.md").read_text()
    unit = re.search(r"```ini\n(# /etc/systemd/system/stress-tui\.service\n.*?)```", doc, re.S)
    assert unit is not None
    lines = dict(
        line.split("=", 1) for line in unit.group(1).splitlines() if "=" in line and line[0] != "#"
    )
    assert lines["KillSignal"] == "SIGTERM"  # what ends every game cleanly
    program, *argv = lines["ExecStart"].split()
    assert program.endswith("/bin/stress-tui") and argv[0] == "serve"
    args = build(argv)[0].parse_args(argv)
    assert (args.port, args.data_dir) == (2222, "/var/lib/stress-tui")


def test_a_session_places_the_keys_for_the_keyboard_of_the_language_it_speaks() -> None:
    pytest.importorskip("asyncssh", reason="the serve extra (asyncssh) is not installed")
    import contextvars
    import dataclasses

    from stress_tui.terminal.keys import settings_keymap
    from stress_tui.terminal.lang import speak_here
    from stress_tui.terminal.screens.lobby import keys_lines
    from stress_tui.terminal.server import here

    def keys_in(code: str) -> tuple[str, list[str]]:
        speak_here(code)  # in this context alone, as each SSH session's
        settings = dataclasses.replace(here(), players=("human", "bot:normal"))
        return settings.keyboard, keys_lines(settings_keymap(settings), 4)

    german, lines = contextvars.copy_context().run(keys_in, "de")
    assert german == "de" and lines[1].endswith("j k l ö")
    english, lines = contextvars.copy_context().run(keys_in, "en")
    assert english == "us" and lines[1].endswith("j k l ;")


def test_serve_leaves_the_signals_as_it_found_them_when_it_stops(tmp_path: Path) -> None:
    """SIGTERM ends a serve, and the loop it ran on handles SIGTERM and SIGINT as before:
    a second serve on the same loop starts and stops as the first did. What it froze for
    the garbage collector while it served is given back to it."""
    import gc
    import os
    import signal

    import asyncssh

    from stress_tui.net.addresses import listening_socket
    from stress_tui.terminal.server import Limits, serve

    signals = (signal.SIGTERM, signal.SIGINT)

    def stop(port: int) -> None:
        os.kill(os.getpid(), signal.SIGTERM)

    async def twice() -> None:
        key = asyncssh.generate_private_key("ssh-ed25519")
        before = [signal.getsignal(sig) for sig in signals]
        for _ in range(2):
            sock = listening_socket("127.0.0.1", 0)
            assert await serve(sock, key, Limits(), tmp_path, stop) == 0
            assert [signal.getsignal(sig) for sig in signals] == before
            assert gc.get_freeze_count() == 0

    asyncio.run(twice())
