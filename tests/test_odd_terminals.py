"""Terminals and players that misbehave: the real program in a pseudo-terminal.

``docs/reliability.md`` has a row for each.
"""

from __future__ import annotations

import fcntl
import re
import select
import signal
import struct
import sys
import termios
import time

import pytest

from tests.screen import restore_problems, restored, say_ready, settle
from tests.test_app_e2e import (  # noqa: F401 (data_dir: a fixture)
    DATA_ENV,
    LAY,
    NO_CONFIG,
    data_dir,
    game,
    wait_flip,
)
from tests.tty import TtySession

QUERIES = re.compile(rb"\x1b\[6n|\x1bP\+q|\x1b\[>q|\x1b\[\?u|\$p")
"""What blessed and the game ask a terminal: the cursor position, XTGETTCAP, XTVERSION,
the kitty keyboard flags, a DEC mode (synchronized output)."""


def test_a_terminal_that_answers_no_question_is_asked_little_and_starts_at_once() -> None:
    """An Emacs shell buffer, a serial console, a recorder: nothing ever answers. blessed's
    two start-up questions wait its query timeout (0.2 s here, 5 s by default); the game
    asks its own questions once, in one batch that waits once (``endpoint.ANSWER_SECONDS``),
    and asks nothing after it."""
    with TtySession(args=["--seed", "12"], env={**NO_CONFIG, **DATA_ENV}) as s:
        s.screen.reply = lambda data: None  # this terminal answers nothing
        s.wait_for(
            lambda: "STRESS" in s.row(0) and s.row(LAY.hints_y[1]).strip() != "",
            timeout=3,
            what="the first frame",
        )
        log = s.raw_log()
        games = QUERIES.findall(log[log.index(b"\x1b[?1049h") :])
        assert games == [b"\x1b[?u", b"$p", b"\x1b[6n"], games  # one batch, nothing after it
        s.send("\x03")
        assert s.wait_exit() == 130


def test_a_terminal_whose_type_says_it_cannot_draw_is_asked_nothing() -> None:
    """``TERM=dumb`` cannot move the cursor: one line, exit 2, and not one question sent to
    the terminal."""
    with TtySession(args=["--seed", "12"], env={**NO_CONFIG, **DATA_ENV, "TERM": "dumb"}) as s:
        assert s.wait_exit() == 2
        s.pump()
        log = s.raw_log()
    assert QUERIES.findall(log) == []
    assert b"\x1b" not in log
    assert log.count(b"\n") == 1
    assert log.startswith(b"stress-tui: TERM=dumb: this terminal cannot move its cursor")


@pytest.mark.parametrize("kind", ["linux", "vt100"])
def test_a_terminal_without_an_alternate_screen_is_left_blank(kind: str) -> None:
    """The Linux console and a VT100 have one screen: on the way out the table is wiped, so
    that the shell's prompt does not land in the middle of it."""
    with game(env={"TERM": kind}) as s:
        wait_flip(s, "10♣", "4♥")
        assert b"\x1b[?1049h" not in s.raw_log()  # no alternate screen was asked for
        s.send("\x03")
        assert s.wait_exit() == 130
        s.pump()
        assert [row for row in s.screen.display if row.strip()] == []
        assert (s.screen.cursor.y, s.screen.cursor.x) == (0, 0)
        assert s.tty_mode_restored()


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")  # pragma: no cover


def test_ctrl_z_with_nothing_to_bring_the_game_back_then_a_huge_window_and_play_goes_on() -> None:
    """Started with no shell with job control (here, as under ``kitty stress-tui``, ``tmux
    new stress-tui`` or ``ssh -t host stress-tui``, the game leads its own session): a stop
    would be for good. Ctrl-Z, the terminal's SIGTSTP (which ``kill -TSTP`` sends too), says
    so and the round plays on. (Ctrl-Z as a kitty keyboard key, in-process:
    ``tests/test_leaving.py``.)

    Then a 10000x10000 window: the table is drawn in the middle of at most 256x128 cells,
    so memory stays near what a normal window takes, frames keep coming, and back at 80x24
    the table is whole and a play still works. One run of the game, where each of the two
    started it."""
    with game() as s:
        wait_flip(s, "10♣", "4♥")
        s.send("\x1a")
        s.wait_text("Ctrl-Z does nothing here: no shell to bring the game back", timeout=2)

        normal = _rss_mb(s.pid)
        mark = len(s.log)
        s.child.setwinsize(10000, 10000)  # the pty only: the pyte screen stays 80x24
        drawn = re.compile(rb"\x1b\[[0-9]{4,5};[0-9]{4,5}H")  # a cell far from the top left
        s.wait_for(lambda: drawn.search(s.raw_log(mark)) is not None, 10, "a frame at the size")
        for _ in range(5):  # full redraws at that size, one after another
            redraw = len(s.log)
            s.send("\x0c")
            s.wait_for(lambda: drawn.search(s.raw_log(redraw)) is not None, 5, "a redraw")  # noqa: B023
        big = _rss_mb(s.pid)
        assert big < normal + 50, (normal, big)
        s.resize(24, 80)
        s.wait_for(
            lambda: "Player 1" in s.row(LAY.rows_y[0]) and "Player 2" in s.row(LAY.rows_y[1]),
            timeout=5,
            what="the table at 80x24",
        )
        s.send("q")  # the round goes on, and a play still works
        s.wait_for(lambda: "J♠" in s.row(LAY.piles_y), timeout=2, what="J♠ on the left pile")
        s.send("\x03")
        assert s.wait_exit() == 130


def _unread(s: TtySession) -> int:
    """Bytes the program has written that the terminal (we) has not read."""
    got = fcntl.ioctl(s.child.child_fd, termios.FIONREAD, b"\0\0\0\0")
    return int(struct.unpack("i", got)[0])


PTY_HOLDS = 4000
"""About what a pty holds unread here (4,095 bytes on Linux) before a write waits."""


def stop_reading(s: TtySession, resizes: int = 30) -> None:
    """Be a terminal that has stopped reading: read nothing more, while the program tries to
    write a full redraw for each of ``resizes`` resizes, many times what the pty holds."""
    grow = s.rows
    for _ in range(resizes):
        before = _unread(s)
        grow = s.rows + 1 if grow == s.rows else s.rows
        s.child.setwinsize(grow, s.cols)
        deadline = time.monotonic() + 0.05  # its redraw, if the pty takes any of it
        while _unread(s) == before and time.monotonic() < deadline:
            select.select([], [], [], 0.002)
    assert _unread(s) >= PTY_HOLDS, f"the pty holds only {_unread(s)} bytes unread"


@pytest.mark.parametrize(("how", "code"), [("SIGTERM", 143), ("Ctrl-C", 130)])
def test_a_terminal_that_stops_reading_does_not_freeze_the_game(how: str, code: int) -> None:
    """The terminal stops reading (a stalled link, a frozen emulator): the game must not
    wait for it. A signal and the quit key act at once, while the terminal still reads
    nothing, SIGTERM and all."""
    with game() as s:
        stop_reading(s)
        if how == "SIGTERM":
            s.child.kill(signal.SIGTERM)
        else:
            s.send("\x03")
        deadline = time.monotonic() + 3
        while s.exit_code is None:  # nothing read meanwhile
            assert time.monotonic() < deadline, "the game did not end"
            select.select([], [], [], 0.01)
        assert s.exit_code == code
        s.pump()
        assert restored(s.raw_log()), restore_problems(s.raw_log())


def test_a_terminal_left_non_blocking_that_stops_reading_plays_on() -> None:
    """Another program left the terminal non-blocking, and the terminal stops reading for
    a while: no ``BlockingIOError``; once it reads again, what it shows is the table as it
    stands."""
    wrapper = (
        "import fcntl, os, runpy, sys;"
        " fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK);"
        " sys.argv = ['stress_tui', '--seed', '12'];"
        " runpy.run_module('stress_tui', run_name='__main__', alter_sys=True)"
    )
    env = {**NO_CONFIG, **DATA_ENV}
    with TtySession([sys.executable, "-c", wrapper], env=env) as s:
        s.wait_for(lambda: "STRESS" in s.row(0), timeout=5, what="the first frame")
        stop_reading(s)
        for _ in range(20):  # more frames while it reads nothing: each replaces the last
            s.child.setwinsize(s.rows + 1, s.cols)
            s.child.setwinsize(s.rows, s.cols)
        assert s.exit_code is None, "the game ended"
        settle(s)  # reading again: the frame that waited comes
        say_ready(s)  # the round starts when both players say so
        s.wait_for(lambda: "10♣" in s.text(), timeout=3, what="the flip, on time")
        settle(s)
        shown = s.screen.display[:]
        s.send("\x0c")
        settle(s)
        assert s.screen.display == shown  # the same as a full redraw
        s.send("\x03")
        assert s.wait_exit() == 130
        assert restored(s.raw_log()), restore_problems(s.raw_log())
        assert s.tty_mode_restored()
