"""The SSH server's lobby in-process (``terminal/lobby.py``, ``screens/lobby.py``): what a
player sees there and what its keys choose, and one SSH channel's endpoint taken again for
each screen a session runs. (The lobby with the real ``ssh`` client:
``tests/test_serve.py``.)"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import pyte
import pytest

from stress_tui.core.choices import COMPUTER
from stress_tui.core.settings import Settings
from stress_tui.storage.recent import RecentRound
from stress_tui.terminal.channel import ChannelEndpoint
from stress_tui.terminal.endpoint import ASK_POSITION
from stress_tui.terminal.lobby import Lobby
from stress_tui.terminal.screens.lobby import LobbyView
from tests.pilot import Pilot
from tests.screen import ScreenFilter


@contextmanager
def lobby(view: LobbyView, rows: int = 24, cols: int = 80) -> Iterator[tuple[Pilot, Lobby]]:
    """The lobby showing ``view``, in-process, once its first frame is up."""
    pilot = Pilot(lambda endpoint: Lobby(endpoint, Settings(), view), rows=rows, cols=cols)
    try:
        pilot.wait_text("STRESS-TUI", timeout=5)
        assert isinstance(pilot.running, Lobby)
        yield pilot, pilot.running
    finally:
        pilot.close()


def alice() -> LobbyView:
    """What the lobby shows alice: her record, her rating, her last two rounds."""
    return LobbyView(
        "alice",
        guest=False,
        rounds=(3, 2),
        rating=1612,
        recent=[
            RecentRound("2026-12-02T01:10:44+00:00", COMPUTER, "bot:expert", False),
            RecentRound("2026-12-02T01:02:09+00:00", "bob", "human", True),
        ],
    )


def test_the_lobby_shows_the_player_their_record_the_menu_and_their_last_rounds() -> None:
    with lobby(alice()) as (s, _):
        text = s.text()
        assert "alice" in s.row(0)
        assert "rounds: 5, won 3, lost 2" in text and "rating: 1612" in text
        for line in (
            "1  play the computer, easy",
            "4  play the computer, expert",
            "n  open a table for two, with a code to read aloud",
            "j  join a table by its code",
            "w  watch a table by its code",
            "q  quit",
        ):
            assert line in text, s.dump()
        assert "2026-12-02 01:10  lost against Computer (expert)" in text
        assert "2026-12-02 01:02  won against bob" in text
        assert "q: quit" in s.row(s.rows - 1)


def test_a_guest_is_told_it_is_unrated_in_the_lobby() -> None:
    with lobby(LobbyView("Guest", guest=True)) as (s, _):
        assert "Guest: a guest (no key): unrated, no record" in s.text()
        assert "rating" not in s.text()


def test_a_number_chooses_the_computers_level_and_q_leaves() -> None:
    with lobby(alice()) as (s, made):
        s.send("3")
        assert s.wait_exit() == 0 and made.chosen == ("play", "hard")
    with lobby(alice()) as (s, made):
        s.send("x")  # nothing
        s.send("q")
        assert s.wait_exit() == 0 and made.chosen is None
    with lobby(alice()) as (s, made):
        s.send("\x03")  # Ctrl-C leaves, as everywhere
        assert s.wait_exit() == 130 and made.chosen is None


def test_n_opens_a_table_and_j_or_w_take_a_tables_code_typed_in_the_lobby() -> None:
    with lobby(alice()) as (s, made):
        s.send("n")
        assert s.wait_exit() == 0 and made.chosen == ("new", "")
    with lobby(alice()) as (s, made):
        s.send("w")
        s.wait_text("The code of the table to watch: _")
        s.send("otter")
        s.send("\r")  # not a code: said why, and the code can be typed on
        s.wait_text("a join code is 4 words")
        s.send("\x1b")  # Esc: back to the menu
        s.wait_for(lambda: "The code of the table" not in s.text(), what="the menu")
        s.send("j")
        s.wait_text("The code of the table to join: _")
        s.send("Otter maple-drum\x7fm velvet\r")  # Backspace takes one back
        assert s.wait_exit() == 0 and made.chosen == ("join", "otter-maple-drum-velvet")


class Channel:
    """A channel that keeps what the server wrote to its client, and shows it on a pyte
    screen as the client's terminal would."""

    def __init__(self) -> None:
        self.sent = bytearray()
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.filter = ScreenFilter()

    def write(self, data: bytes) -> None:
        self.sent += data
        self.stream.feed(self.filter.feed(data))

    def get_extra_info(self, name: str, default: object = None) -> object:
        return default  # no socket: a channel in memory

    def shows(self, text: str) -> bool:
        return text in "\n".join(self.screen.display)


def test_one_channel_shows_the_lobby_then_a_game_then_the_lobby_again() -> None:
    from stress_tui.terminal.app import App

    async def until(check: object, what: str) -> None:
        for _ in range(500):
            if callable(check) and check():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"no {what}")

    async def session() -> list[int]:
        channel = Channel()
        endpoint = ChannelEndpoint(channel, 80, 24)
        codes = []
        first = Lobby(endpoint, Settings(), alice())
        running = asyncio.ensure_future(first.main())
        await until(lambda: ASK_POSITION.encode() in channel.sent, "start-up questions")
        endpoint.data(b"\x1b[1;1R")
        await until(lambda: b"play the computer" in channel.sent, "the lobby")
        endpoint.data(b"4")
        codes.append(await asyncio.wait_for(running, 5))
        mark = len(channel.sent)
        settings = Settings(players=("human", "bot:expert"), names=("alice", COMPUTER))
        running = asyncio.ensure_future(App(endpoint, settings).main())
        await until(lambda: b"computer, expert" in channel.sent[mark:], "the game's table")
        endpoint.data(b"\x1b")  # pause, then quit the match: the question, yes
        await until(lambda: channel.shows("q: quit"), "the pause's keys")
        endpoint.data(b"q")
        await until(lambda: channel.shows("Quit this match?"), "the question")
        endpoint.data(b"y")
        codes.append(await asyncio.wait_for(running, 5))
        mark = len(channel.sent)
        again = Lobby(endpoint, Settings(), alice())
        running = asyncio.ensure_future(again.main())
        await until(lambda: channel.shows("play the computer"), "the lobby again")
        endpoint.data(b"q")
        codes.append(await asyncio.wait_for(running, 5))
        # The questions were asked once; each screen took the client's screen and gave it
        # back.
        assert channel.sent.count(ASK_POSITION.encode()) == 1
        assert channel.sent.count(b"\x1b[?1049h") == 3 == channel.sent.count(b"\x1b[?1049l")
        return codes

    assert asyncio.run(session()) == [0, 0, 0]


def test_the_lobby_fits_a_small_window_and_draws_again_at_a_new_size() -> None:
    with lobby(alice(), rows=12, cols=40) as (s, made):
        assert "alice" in s.row(0)
        assert "1  play the computer, easy" in s.text()
        assert "q: quit" in s.row(11)
        s.resize(30, 100)
        s.wait_for(lambda: "q: quit" in s.row(29), what="the keys at the new bottom")
        assert "lost against Computer (expert)" in s.text()
        s.send("2")
        assert s.wait_exit() == 0 and made.chosen == ("play", "normal")


def test_each_ssh_session_takes_the_theme_of_its_own_terminals_background(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stress_tui.terminal.endpoint import ASK_BACKGROUND

    monkeypatch.setenv("COLORFGBG", "0;15")  # the server's own terminal: black on white

    async def light_theme(answer: bytes) -> bool:
        channel = Channel()
        endpoint = ChannelEndpoint(channel, 80, 24)
        shown = Lobby(endpoint, Settings(), alice())
        running = asyncio.ensure_future(shown.main())
        for _ in range(500):
            if ASK_POSITION.encode() in channel.sent:
                break
            await asyncio.sleep(0.01)
        assert ASK_BACKGROUND.encode() in channel.sent  # asked of the client's terminal
        endpoint.data(answer + b"\x1b[1;1R")
        for _ in range(500):
            if channel.shows("play the computer"):
                break
            await asyncio.sleep(0.01)
        light = shown.frames.palette.theme.light
        endpoint.data(b"q")
        assert await asyncio.wait_for(running, 5) == 0
        return light

    assert asyncio.run(light_theme(b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\")) is True
    assert asyncio.run(light_theme(b"\x1b]11;rgb:0000/0000/0000\x1b\\")) is False


def test_the_help_key_shows_the_players_keys_at_a_table_in_place_of_the_last_rounds() -> None:
    with lobby(alice()) as (s, _):
        assert "?: keys" in s.row(s.rows - 1)
        s.send("?")
        s.wait_text("Your keys at a table")
        text = s.text()
        assert "piles 1-4 onto the left pile:  a s d f" in text, s.dump()
        assert "piles 1-4 onto the right pile: j k l ;" in text
        assert "stress Spc   ready to flip g" in text
        assert "Your last rounds" not in text
        s.send("?")
        s.wait_text("Your last rounds")


def test_f_asks_before_the_player_is_forgotten_and_only_y_says_yes() -> None:
    with lobby(alice()) as (s, made):
        assert "f  forget me: erase my key, name and replays here (asks first)" in s.text()
        s.send("f")
        s.wait_text("Forget alice for good: your key, your name and your replays here?")
        assert "played by (forgotten)" in s.text() and "y: yes, forget me" in s.text()
        s.send("n")  # any other key: no, and the menu again
        s.wait_for(lambda: "Forget alice" not in s.text(), what="the menu again")
        s.send("f")
        s.wait_text("Forget alice for good")
        s.send("y")
        assert s.wait_exit() == 0 and made.chosen == ("forget", "")


def test_a_guest_is_told_in_the_lobby_it_has_nothing_to_forget() -> None:
    with lobby(LobbyView("Guest", guest=True)) as (s, made):
        s.send("f")
        s.wait_text("a guest (no key): nothing kept here is tied to you; nothing to forget")
        assert "Forget" not in s.text()
        s.send("y")  # not a yes to anything
        s.send("q")
        assert s.wait_exit() == 0 and made.chosen is None
