"""``stress-tui serve`` in-process: the SSH channel's endpoint under a client that stops
reading, and the command without its extra. (The real server with the real ``ssh`` client:
``tests/test_serve.py``.)"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from stress_tui.cli.main import main
from stress_tui.core.choices import COMPUTER
from stress_tui.core.settings import Settings
from stress_tui.terminal.channel import ChannelEndpoint
from stress_tui.terminal.endpoint import ASK_POSITION


class Channel:
    """A channel that keeps what the server wrote to its client."""

    def __init__(self) -> None:
        self.sent = bytearray()

    def write(self, data: bytes) -> None:
        self.sent += data


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
