"""Leaving a round and coming back to it, in every phase (the count, play, stress, the
help, the result), played in-process (``tests/pilot.py``): the end a terminal gives the
game (a signal, a hangup) ends it with that exit status; ``kill -TSTP`` (what Ctrl-Z
sends), then ``fg``, brings the table back paused where a round was under way (Enter plays
on after a count) and as it was elsewhere; after a stop the game could not see (``kill
-STOP``, then ``-CONT``) it draws everything again; Ctrl-Z as a kitty keyboard key where
nothing could bring the game back says so and plays on.

That the real signals reach the game and the real terminal is given back as it was is
tried in a pseudo-terminal in ``tests/test_reliability.py``, for each signal and a few of
these phases.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.fuzz import CLEAR, table_whole
from bench.resize_storm import LAST_CARD, after_first_flip
from tests import pilot
from tests.screen import Screenful, pile_top, say_ready, settle

PHASES = ("countdown", "playing", "stress", "help", "result")


def phase_env(phase: str) -> dict[str, str | None]:
    """The position a phase is reached from (``STRESS_TUI_POSITION``): the count from the
    deal of ``--seed 12``; the table just after its first flip; a play away from stress; a
    card away from the result."""
    if phase in ("playing", "help"):
        return {"STRESS_TUI_POSITION": after_first_flip(12)}
    if phase == "stress":
        return {"STRESS_TUI_POSITION": after_first_flip(6)}
    if phase == "result":
        return {"STRESS_TUI_POSITION": LAST_CARD}
    return {}


def enter_phase(s: Screenful, phase: str) -> None:
    """Bring a game started with ``phase_env(phase)`` to ``phase``; wait until it shows."""
    if phase == "countdown":
        s.wait_text("New cards on three", timeout=1)
    elif phase == "playing":
        s.wait_for(lambda: "10♣" in s.text(), timeout=2, what="the table after the flip")
    elif phase == "stress":
        s.send("w")
        s.wait_text("STRESS!", timeout=2)
    elif phase == "help":
        s.send("?")
        s.wait_text("The rules in play", timeout=2)
        s.wait_text("more   q: quit", timeout=2)  # its keys live (q after the hint of more)
    elif phase == "result":
        s.send("q")
        s.wait_text("Enter: rematch", timeout=3)
    else:  # pragma: no cover
        raise ValueError(phase)


def shows(s: Screenful, phase: str) -> bool:
    """Whether the screen is whole for ``phase``: the table, or the help or the result
    instead of it."""
    if phase == "help":
        return "The rules in play" in s.text() and "STRESS" in s.row(0)
    if phase == "result":
        return "Enter: rematch" in s.text() and "STRESS" in s.row(0)
    return table_whole(s)


@contextmanager
def game(tmp_path: Path, phase: str) -> Iterator[pilot.Pilot]:
    """``stress-tui --seed 12`` in-process from ``phase``'s position, the people at the
    table ready."""
    with pilot.game(tmp_path, env=phase_env(phase)) as s:
        say_ready(s)
        yield s


@pytest.mark.parametrize(
    ("phase", "code"), list(zip(PHASES, (130, 143, 129, 141, 143), strict=True)), ids=PHASES
)
def test_the_end_a_terminal_gives_ends_the_game_in_any_phase_with_its_status(
    tmp_path: Path, phase: str, code: int
) -> None:
    """SIGINT in the count, SIGTERM in play and on the result, a hangup in stress, SIGPIPE
    in the help: the game ends with 128 plus the signal's number, as a shell reports it."""
    with game(tmp_path, phase) as s:
        enter_phase(s, phase)
        s.endpoint.end(code)
        assert s.wait_exit(timeout=1) == code


@pytest.mark.parametrize("phase", PHASES)
def test_a_stop_then_fg_brings_the_table_back_whole(tmp_path: Path, phase: str) -> None:
    """``kill -TSTP`` in every phase, the game a job it may stop: it stops; on ``fg`` the
    whole screen comes back as it was (during a round, paused: Enter plays on after a
    count; the count goes on where it stood, to the flip)."""
    with game(tmp_path, phase) as s:
        s.endpoint.stoppable = True
        enter_phase(s, phase)
        if phase != "countdown":
            settle(s)
        before = s.screen.display[:]
        s.endpoint.stop_signal()
        s.endpoint.continue_signal()  # fg
        assert s.endpoint.stops == 1
        if phase in ("countdown", "playing", "stress"):
            s.wait_text("Enter: play on", timeout=3)
            s.send("\r")
            s.wait_text("Play goes on", timeout=2)
            s.wait_for(lambda: "Play goes on" not in s.text(), timeout=3, what="the count")
        s.wait_for(lambda: shows(s, phase), timeout=3, what="the table again")
        if phase == "countdown":
            s.wait_for(lambda: "1 card" in s.text(), timeout=3, what="the flip")
        else:
            settle(s)
            assert s.screen.display == before
        s.send(b"\x03")
        assert s.wait_exit() == 130


def test_a_stop_the_game_could_not_see_then_a_continue_draws_everything_again(
    tmp_path: Path,
) -> None:
    """``kill -STOP`` cannot be caught; on SIGCONT the screen may hold anything, so the game
    draws it all again."""
    with game(tmp_path, "playing") as s:
        settle(s)
        before = s.screen.display[:]
        s.screen.reset()  # what another program may have left on the screen
        mark = len(s.log)
        s.endpoint.continue_signal()
        s.wait_for(
            lambda: CLEAR in s.raw_log(mark) and table_whole(s), timeout=3, what="a full redraw"
        )
        settle(s)
        assert s.screen.display == before
        s.send(b"\x03")
        assert s.wait_exit() == 130


def test_ctrl_z_as_a_kitty_key_with_nothing_to_bring_the_game_back_says_so_and_plays_on(
    tmp_path: Path,
) -> None:
    """Ctrl-Z as the kitty keyboard protocol's key (no signal sent) where nothing could
    bring the game back (no shell with job control): the banner says so, the game does
    not stop, and the round plays on. (The terminal's own Ctrl-Z, a signal, in a
    pseudo-terminal: ``tests/test_odd_terminals.py``.)"""
    with game(tmp_path, "playing") as s:
        enter_phase(s, "playing")
        s.send("\x1b[122;5u")
        s.wait_text("Ctrl-Z does nothing here: no shell to bring the game back", timeout=2)
        assert s.endpoint.stops == 0
        s.send("q")  # the round goes on
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        s.send(b"\x03")
        assert s.wait_exit() == 130
