"""Terminals and players that misbehave (issue 14): the real program in a pseudo-terminal.

Each test here failed before its fix; ``docs/reliability.md`` has a row for each.
"""

from __future__ import annotations

import re

import pytest

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


def test_a_stray_play_key_right_after_pause_opens_mid_match_does_not_quit() -> None:
    """Player 2 pauses; player 1's next key is their own play key ``q``, which is also the
    menu's quit. It must not end the match (issue 14, point 3)."""
    with game() as s:
        wait_flip(s, "10♣", "4♥")
        s.send("\x1b")  # player 2: pause
        s.wait_text("Paused", timeout=2)
        s.send("q")  # player 1, still playing
        # A moment later the pause box takes its keys; the q asked nothing and quit nothing.
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        assert "Quit this match?" not in s.text()
        s.send("q")  # now it asks once
        s.wait_text("Quit this match?  y: quit   any other key: no", timeout=2)
        s.send("q")  # any other key: no (a second stray q does not quit either)
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        s.send("\x1b")  # back to the table
        s.wait_for(lambda: "Paused" not in s.text(), timeout=2, what="the table")
        s.send("?")  # the same with help
        s.wait_text("Paused.  ? or Esc: back to the game", timeout=2)
        s.send("q")
        s.wait_text("? or Esc: back to the game   q: quit", timeout=2)
        assert "Quit this match?" not in s.text()
        s.send("q")
        s.wait_text("Quit this match?  y: quit   any other key: no", timeout=2)
        s.send("y")
        assert s.wait_exit() == 0


def test_a_terminal_that_answers_no_question_is_asked_little_and_starts_at_once() -> None:
    """An Emacs shell buffer, a serial console, a recorder: nothing ever answers. blessed's
    two start-up questions wait its query timeout (0.2 s here, 5 s by default), the game asks
    one more, where the cursor is, and with no answer asks nothing else (issue 14, point 9;
    before: 11.7 s to the first frame)."""
    with TtySession(args=["--seed", "12"], env={**NO_CONFIG, **DATA_ENV}) as s:
        s.screen.reply = lambda data: None  # this terminal answers nothing
        s.wait_for(
            lambda: "STRESS" in s.row(0) and s.row(LAY.hints_y[1]).strip() != "",
            timeout=3,
            what="the first frame",
        )
        asked = QUERIES.findall(s.raw_log())
        assert b"\x1b[?u" not in asked and b"$p" not in asked, asked  # nothing after the probe
        s.send("\x03")
        assert s.wait_exit() == 130


def test_a_terminal_whose_type_says_it_cannot_draw_is_asked_nothing() -> None:
    """``TERM=dumb`` cannot move the cursor: one line, exit 2, and not one question sent to
    the terminal (issue 14, point 9)."""
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
    that the shell's prompt does not land in the middle of it (issue 14, point 10)."""
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


def test_a_window_of_ten_thousand_by_ten_thousand_costs_no_more_than_the_table() -> None:
    """A 10000x10000 window (issue 14, point 11; before: 1.6 GB and 0.4 s a frame): the
    table is drawn in the middle of at most 256x128 cells, so memory stays near what a
    normal window takes, frames keep coming, and back at 80x24 the table is whole."""
    with game() as s:
        wait_flip(s, "10♣", "4♥")
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
        s.send("q")  # a play still works
        s.wait_for(lambda: "J♠" in s.row(LAY.piles_y), timeout=2, what="J♠ on the left pile")
        s.send("\x03")
        assert s.wait_exit() == 130
