"""The real program in a pseudo-terminal, read back as a player would see it.

Every test starts ``python -m stress_tui --seed N`` (or a position through the
``STRESS_TUI_POSITION`` test hook) in an 80x24 pty and waits for what should appear, with a
deadline. Seeds were found with the same rules and ``random.Random(seed)`` as the app (the
default rules; the first flip comes 1.2 s after the start):

- 12: after the flip the piles are 10C | 4H; p1's row JS | 2D | 9D | 4C. ``q`` (p1 pile 1
  onto the left) is legal, ``w`` (the 2D onto the 10) is not.
- 5: piles 6C | AH; p1 has 7D at pile 2 (``w``), p2 has 5C at pile 3 (``o``): both fit the
  left pile, and whichever lands first makes the other too late.
- 6: piles KC | QD; p1's QS at pile 2 onto the left (``w``) makes stress (Q and Q).
- 8: the first flip (8H | 5D) leaves nobody a play: the round stalls and flips again.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stress_tui.core.engine import Match
from stress_tui.core.notation import format_position
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.terminal.layout import Layout, layout
from stress_tui.terminal.layout import flipped as turned
from tests.tty import (
    JOB_SHELL,
    TtySession,
    banner,
    card_label,
    draw_count,
    has_people,
    job_pid,
    notice,
    pile_top,
    restore_problems,
    restored,
    say_ready,
)

ROWS, COLS = 24, 80
LAY: Layout = layout(COLS, ROWS, 4)  # type: ignore[assignment]
assert LAY is not None

LEGAL_SEED = 12
RACE_SEED = 5
STRESS_SEED = 6
STALL_SEED = 8


def flipped(seed: int) -> dict[str, str | None]:
    """The environment that starts the game at ``seed``'s deal just after its first flip
    (the same table as ``--seed`` shows 1.2 s in, without waiting for the count)."""
    game = Match(Rules(), random.Random(seed)).new_round()
    table = Table(game)
    table.start(0.0)
    table.advance(table.countdown)
    return {"STRESS_TUI_POSITION": format_position(game.state)}


# No config file from the machine the tests run on.
NO_CONFIG = {"STRESS_TUI_CONFIG": "/nonexistent/stress-tui-tests/config.toml"}

# Replays and the record go to a directory of each test's own, never into the home of
# the machine the tests run on (set by the fixture below).
DATA_ENV: dict[str, str] = {}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path) -> Iterator[Path]:
    """The test's data directory (``STRESS_TUI_DATA_DIR`` for every program it starts)."""
    folder = tmp_path / "data"
    DATA_ENV["STRESS_TUI_DATA_DIR"] = str(folder)
    yield folder
    DATA_ENV.clear()


@contextmanager
def game(
    seed: int | None = LEGAL_SEED,
    env: dict[str, str | None] | None = None,
    rows: int = ROWS,
    cols: int = COLS,
    args: tuple[str, ...] = (),
    job: Path | None = None,
    ready: bool = True,
) -> Iterator[TtySession]:
    """The game in an 80x24 pty, after its first frame; with ``job`` (a file for its pid),
    as a job of a shell with job control (``tests/fixtures/jobshell.py``)."""
    argv = [*(["--seed", str(seed)] if seed is not None else []), *args]
    lay = layout(cols, rows, 4)
    assert lay is not None
    env = {**NO_CONFIG, **DATA_ENV, **(env or {})}
    command = None
    if job is not None:
        command = [*JOB_SHELL, sys.executable, "-m", "stress_tui"]
        env["JOBSHELL_PID_FILE"] = str(job)
    with TtySession(command, args=argv, rows=rows, cols=cols, env=env) as s:
        # A frame may arrive in several reads, and its runs are written grouped by style,
        # not top to bottom: wait for player 2's keys (or the computer's name where player
        # 2 has no keys) and for both players' names, the last runs of the first frame.
        s.wait_for(
            lambda: (
                "STRESS" in s.row(0)
                and (s.row(lay.hints_y[1]).strip() != "" or "computer" in s.row(lay.rows_y[1] + 2))
                and s.row(lay.rows_y[0])[1] != " "
                and s.row(lay.rows_y[1])[1] != " "
            ),
            timeout=10,
            what="the first frame",
        )
        if ready and has_people(args):
            say_ready(s)  # the round starts when the people at the table say so
        yield s


def row_card(s: TtySession, player: int, pile: int, lay: Layout = LAY) -> str:
    x = lay.row_x + pile * (lay.card_w + lay.gap)
    return card_label(s, lay.rows_y[player], x, lay)


def wait_count_over(s: TtySession) -> None:
    """After a pause, the help, a suspension or a window too small: the count before play
    goes on shows, then goes."""
    s.wait_text("Play goes on in", timeout=2)
    s.wait_for(lambda: "Play goes on in" not in s.text(), timeout=3, what="the count over")


def wait_flip(s: TtySession, left: str, right: str) -> None:
    s.wait_for(
        lambda: pile_top(s, 0) == left and pile_top(s, 1) == right,
        timeout=3,
        what=f"the flip {left} | {right}",
    )


def countdown(s: TtySession) -> str:
    x0 = LAY.pile_x[0] + LAY.card_w
    return s.row(LAY.piles_y + LAY.card_h // 2)[x0 : LAY.pile_x[1]].strip()


def quit_cleanly(s: TtySession) -> None:
    s.send("\x03")
    assert s.wait_exit() == 130
    assert restored(s.raw_log()), restore_problems(s.raw_log())
    assert s.tty_mode_restored()


# ----------------------------------------------------------------------------- the table


def test_the_table_appears_with_three_rows() -> None:
    with game() as s:
        assert "Player 1" in s.row(LAY.rows_y[0])
        assert "Player 2" in s.row(LAY.rows_y[1])
        assert [row_card(s, 0, i) for i in range(4)] == ["J♠", "2♦", "9♦", "4♣"]
        assert all(row_card(s, 1, i) for i in range(4))
        # The keys under every pile: onto the left pile, onto the right pile.
        assert s.row(LAY.hints_y[0]).split() == ["<q", "a>", "<w", "s>", "<e", "d>", "<r", "f>"]
        assert s.row(LAY.hints_y[1]).split() == ["<u", "j>", "<i", "k>", "<o", "l>", "<p", ";>"]
        assert "New cards on three" in banner(s)
        # The middle row fills at the flip, after "1 2 3".
        assert pile_top(s, 0) == "" and pile_top(s, 1) == ""
        wait_flip(s, "10♣", "4♥")
        quit_cleanly(s)


def test_a_legal_play_moves_the_card() -> None:
    with game() as s:
        wait_flip(s, "10♣", "4♥")
        before = draw_count(s, 0)
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        assert row_card(s, 0, 0) != "J♠"  # refilled from the draw pile
        assert draw_count(s, 0) == before - 1
        assert pile_top(s, 1) == "4♥"
        assert notice(s, 0).strip() == ""
        quit_cleanly(s)


def test_an_illegal_play_is_rejected_visibly_and_nothing_moves() -> None:
    with game() as s:
        wait_flip(s, "10♣", "4♥")
        s.send("w")  # the 2♦ onto the 10♣
        s.wait_for(
            lambda: "2 on 10: not one rank above or below; locked out 0." in notice(s, 0),
            timeout=2,
            what="the rejection next to player 1",
        )
        assert pile_top(s, 0) == "10♣" and pile_top(s, 1) == "4♥"
        assert [row_card(s, 0, i) for i in range(4)] == ["J♠", "2♦", "9♦", "4♣"]
        quit_cleanly(s)


@pytest.mark.parametrize(
    ("burst", "winner", "card"), [("wo", 0, "7♦"), ("ow", 1, "5♣")], ids=["p1-first", "p2-first"]
)
def test_two_keys_in_one_burst_the_earlier_wins(burst: str, winner: int, card: str) -> None:
    with game(RACE_SEED) as s:
        wait_flip(s, "6♣", "A♥")
        s.send(burst)  # one write: both keys arrive in the same read
        loser = 1 - winner
        s.wait_for(
            lambda: (
                "too late: the other player was faster" in notice(s, loser)
                and pile_top(s, 0) == card
            ),
            timeout=2,
            what="the faster play on the pile, the slower rejected",
        )
        assert notice(s, winner).strip() == ""
        quit_cleanly(s)


def test_stress_is_opened_called_and_the_slower_takes_the_piles() -> None:
    with game(STRESS_SEED) as s:
        wait_flip(s, "K♣", "Q♦")
        s.send("w")  # Q♠ onto the K♣: Q and Q
        s.wait_for(lambda: "STRESS!" in banner(s), timeout=2, what="STRESS!")
        assert pile_top(s, 0) == "Q♠"
        before = draw_count(s, 0)
        s.send("m")  # player 2 calls first
        s.wait_for(
            lambda: (
                "Player 2 called stress first: Player 1 takes 3 cards" in banner(s)
                and "stress won" in notice(s, 1)
            ),
            timeout=2,
            what="who won the stress",
        )
        assert draw_count(s, 0) == before + 3
        assert pile_top(s, 0) == "" and pile_top(s, 1) == ""
        quit_cleanly(s)


def test_a_stall_counts_down_and_flips_new_cards() -> None:
    with game(STALL_SEED) as s:
        wait_flip(s, "8♥", "5♦")
        s.wait_for(
            lambda: "Nobody can play: new cards on three" in banner(s),
            timeout=1,
            what="the stall",
        )
        s.wait_for(lambda: countdown(s) == "1", timeout=1, what="the count")
        s.wait_for(lambda: countdown(s) == "1  2  3", timeout=1.5, what="three")
        s.wait_for(
            lambda: pile_top(s, 0) not in ("8♥", "") and pile_top(s, 1) not in ("5♦", ""),
            timeout=1.5,
            what="new cards on the piles",
        )
        quit_cleanly(s)


# A round one card from its end: p1's last card, the 5♥, fits the 4♣. One win takes the match.
LAST_CARD = (
    "rules: standard wins=1; phase: playing; p1 row: 5H | - | - | -; p1 draw: -;"
    " piles: 4C | 9D; p2 row: 2C | 3C | 8D | KS; p2 draw: 7S 7H"
)


def test_a_round_ends_and_the_result_screen_offers_a_rematch(data_dir: Path) -> None:
    with game(env={"STRESS_TUI_POSITION": LAST_CARD}) as s:
        assert pile_top(s, 0) == "4♣"
        s.send("q")
        s.wait_text("Player 1 wins the match!", timeout=2)
        s.wait_text("Player 1 1 : 0 Player 2", timeout=2)
        s.wait_text("Enter: rematch    q: quit", timeout=2)
        # The round's statistics; a position from the test hook has no seed to record.
        assert "cards played     1" in s.text()
        assert "not recorded: a round set up from a position has no seed" in s.text()
        assert not (data_dir / "replays").exists() and not (data_dir / "record.sqlite").exists()
        s.send("\r")
        s.wait_for(
            lambda: "wins 0/1" in s.row(LAY.rows_y[0] + 1) and "press c" in notice(s, 0),
            timeout=2,
            what="a new deal, waiting for both players",
        )
        say_ready(s)
        s.wait_for(lambda: "New cards" in banner(s), timeout=2, what="the count")
        assert all(row_card(s, 0, i) for i in range(4))
        quit_cleanly(s)


# Two sevens side by side and the rule to lay them together (001's Stapel): both fit the 8.
TOGETHER = (
    "rules: standard stacking=off together=on; phase: playing; p1 row: 7H | 7S | KD | 2C;"
    " p1 draw: 9C 9D; piles: 8C | JD; p2 row: AH | QS | TC | 4D; p2 draw: 5S"
)


def test_the_together_key_then_a_pile_key_lays_both_sevens_at_once() -> None:
    """Key presses only, no chord: the together key (z) arms player 1's next pile key; q
    then lays the 7 of hearts and the 7 of spades onto the left pile in one move."""
    with game(env={"STRESS_TUI_POSITION": TOGETHER}) as s:
        assert "equals z" in s.text()
        s.send("z")
        s.wait_for(
            lambda: "together: the next pile goes with its equals" in notice(s, 0),
            timeout=2,
            what="the together key noted next to player 1",
        )
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "7♠", timeout=2, what="both sevens on the 8")
        s.wait_for(lambda: draw_count(s, 0) == 0, timeout=2, what="both places refilled")
        assert {row_card(s, 0, 0), row_card(s, 0, 1)} == {"9♣", "9♦"}
        assert "together" not in notice(s, 0)
        quit_cleanly(s)


# A dead table: both draw piles empty, nothing fits, and the twelfth flip in a row without a
# card played is done; the next flip ends the round, drawn, as each holds one card.
DEAD_TABLE = (
    "rules: standard; phase: waiting; flips: 12; p1 row: 5H | - | - | -;"
    " piles: KS | 2D; p2 row: 9C | - | - | -"
)


def test_a_dead_table_ends_the_round_drawn() -> None:
    with game(env={"STRESS_TUI_POSITION": DEAD_TABLE}) as s:
        s.wait_text("Drawn, for nobody: 12 flips and no card played", timeout=3)
        s.wait_text("Player 1 0 : 0 Player 2", timeout=2)
        s.wait_text("Enter: next round", timeout=2)
        quit_cleanly(s)


def test_the_help_overlay_pauses_the_round() -> None:
    with game() as s:
        s.wait_for(lambda: countdown(s) == "1", timeout=1, what="the count")
        s.send("?")
        s.wait_text("The rules in play", timeout=2)
        assert "piles 1-4 onto the left pile:  q w e r" in s.text()
        assert "piles 1-4 onto the right pile: j k l ;" in s.text()
        # Unpaused, the count would be at three by now and flip 0.3 s later.
        deadline = time.monotonic() + 0.9
        while time.monotonic() < deadline:
            s.pump(deadline - time.monotonic())
        s.send("?")
        s.wait_for(lambda: "The rules in play" not in s.text(), timeout=2, what="help closed")
        wait_count_over(s)
        assert countdown(s) in ("1", "1  2")  # where it stood when help opened
        assert pile_top(s, 0) == ""
        quit_cleanly(s)


def test_play_keys_do_nothing_while_paused() -> None:
    with game(env=flipped(LEGAL_SEED)) as s:
        wait_flip(s, "10♣", "4♥")
        s.send("\x1b")  # Esc: pause (after blessed's escape delay)
        s.wait_text("Paused", timeout=2)
        s.send("e?")  # e would put the 9♦ on the 10♣; ? shows it has been read
        s.wait_text("The rules in play", timeout=2)
        s.send("?")  # back to the pause screen
        s.wait_for(lambda: "The rules in play" not in s.text(), timeout=2, what="help closed")
        assert "Paused" in s.text()
        # Enter works once the pause box takes its keys, a moment after it opened.
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        s.send("\r")  # play on, after a count
        s.wait_for(lambda: "Paused" not in s.text(), timeout=2, what="resumed")
        s.wait_text("Play goes on in", timeout=1)
        s.send("e")  # during the count: nothing yet
        wait_count_over(s)
        assert pile_top(s, 0) == "10♣"
        s.send("e")
        s.wait_for(lambda: pile_top(s, 0) == "9♦", timeout=2, what="9♦ on the left pile")
        quit_cleanly(s)


def test_quit_from_the_pause_screen() -> None:
    with game() as s:
        s.send("\x1b")
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        s.send("q")  # a match in play: asked once
        s.wait_text("Quit this match?  y: quit   any other key: no", timeout=2)
        s.send("y")
        assert s.wait_exit() == 0
        assert restored(s.raw_log()), restore_problems(s.raw_log())
        assert s.tty_mode_restored()


def test_resize_too_small_pauses_and_back_resumes() -> None:
    with game(env=flipped(LEGAL_SEED)) as s:
        wait_flip(s, "10♣", "4♥")
        s.resize(12, 50)
        s.wait_text("Make the window larger", timeout=2)
        s.wait_text("this is 50x12", timeout=2)
        mark = len(s.log)
        s.send("q\x0c")  # no play while too small; Ctrl-L redraws, so q has been read
        s.wait_for(lambda: b"\x1b[2J" in s.raw_log(mark), timeout=2, what="the redraw")
        s.resize(ROWS, COLS)
        s.wait_for(
            lambda: "Player 1" in s.row(LAY.rows_y[0]) and pile_top(s, 0) == "10♣",
            timeout=2,
            what="the table",
        )
        wait_count_over(s)  # large enough again: a count, then play
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)


def test_a_larger_terminal_gets_larger_cards() -> None:
    big = layout(120, 40, 4)
    assert big is not None and big.card_h > LAY.card_h
    with game(rows=40, cols=120) as s:
        x = big.row_x
        assert s.row(big.rows_y[0])[x + 1 : x + 4].strip() == "J♠"
        quit_cleanly(s)


def test_a_held_key_plays_once() -> None:
    """With the kitty keyboard protocol a held key repeats as "repeated" events: ignored."""
    with game(env=flipped(LEGAL_SEED)) as s:
        wait_flip(s, "10♣", "4♥")
        s.send("\x1b[113;1:2u?")  # q auto-repeated, then ? to know it has been read
        s.wait_text("The rules in play", timeout=2)
        s.send("?")
        s.wait_for(lambda: "The rules in play" not in s.text(), timeout=2, what="help closed")
        wait_count_over(s)
        assert pile_top(s, 0) == "10♣"
        s.send("\x1b[113u")  # q pressed, in the kitty protocol
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)


def test_no_color_draws_a_monochrome_table_that_works() -> None:
    with game(env={"NO_COLOR": "1", **flipped(LEGAL_SEED)}) as s:
        wait_flip(s, "10♣", "4♥")
        colours = {
            (cell.fg, cell.bg) for y in range(ROWS) for x in range(COLS) for cell in [s.cell(y, x)]
        }
        assert colours == {("default", "default")}
        assert s.cell(LAY.piles_y, LAY.pile_x[0]).reverse  # cards in reverse video
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)


def test_ascii_and_four_colours() -> None:
    with game(env=flipped(LEGAL_SEED), args=("--ascii", "--four-colour")) as s:
        wait_flip(s, "10C", "4H")
        assert [row_card(s, 0, i) for i in range(4)] == ["JS", "2D", "9D", "4C"]
        assert "♠" not in s.text() and "♣" not in s.text()

        def colour(pile: int) -> str:
            x = LAY.row_x + pile * (LAY.card_w + LAY.gap) + 1
            return str(s.cell(LAY.rows_y[0], x).fg)

        spades, diamonds, clubs = colour(0), colour(1), colour(3)
        assert len({spades, diamonds, clubs}) == 3
        quit_cleanly(s)


def test_against_the_computer() -> None:
    seated = turned(LAY)  # the person at the bottom
    with game(args=("--p2", "bot:expert")) as s:
        # The one human gets the home-row layout and sits at the bottom; the computer's
        # row, at the top, has no keys.
        s.wait_for(lambda: row_card(s, 1, 3, seated) != "", timeout=2, what="the computer's row")
        assert seated.rows_y[0] > seated.rows_y[1]
        assert s.row(seated.hints_y[0]).split()[:2] == ["<a", "j>"]
        assert s.row(seated.hints_y[1]).strip() == ""
        assert "computer, expert" in s.row(seated.rows_y[1] + 2)
        wait_flip(s, "10♣", "4♥")
        s.wait_for(
            lambda: (pile_top(s, 0), pile_top(s, 1)) != ("10♣", "4♥"),
            timeout=3,
            what="the computer to play",
        )
        assert [row_card(s, 0, i, seated) for i in range(4)] == ["J♠", "2♦", "9♦", "4♣"]
        quit_cleanly(s)


def test_keys_from_a_file(tmp_path: Path) -> None:
    keys = tmp_path / "keys.toml"
    keys.write_text(
        "[keys.p1]\n"
        + "".join(
            f'{action} = "{key}"\n'
            for action, key in (
                ("left1", "1"),
                ("left2", "2"),
                ("left3", "3"),
                ("left4", "4"),
                ("right1", "q"),
                ("right2", "w"),
                ("right3", "e"),
                ("right4", "r"),
                ("stress", "space"),
                ("ready", "a"),
                ("stop", "s"),
            )
        )
    )
    with game(env=flipped(LEGAL_SEED), args=("--keys", str(keys))) as s:
        assert s.row(LAY.hints_y[0]).split() == ["<1", "q>", "<2", "w>", "<3", "e>", "<4", "r>"]
        assert "stress Spc" in s.row(LAY.rows_y[0] + 2)
        wait_flip(s, "10♣", "4♥")
        s.send("1")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)


# ----------------------------------------------------------------------------- leaving


def test_ctrl_c_leaves_the_terminal_restored() -> None:
    with game() as s:
        quit_cleanly(s)


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["SIGTERM", "SIGHUP"]
)
def test_a_signal_leaves_the_terminal_restored(sig: signal.Signals, code: int) -> None:
    with game() as s:
        s.child.kill(sig)
        assert s.wait_exit() == code
        assert restored(s.raw_log()), restore_problems(s.raw_log())
        assert s.tty_mode_restored()


def test_a_crash_restores_the_terminal_then_shows_the_traceback() -> None:
    with game(env={"STRESS_TUI_TEST_CRASH": "1"}, ready=False) as s:
        s.send("x")
        assert s.wait_exit() == 1
        log = s.raw_log()
        assert restored(log), restore_problems(log)
        assert s.tty_mode_restored()
        assert log.rfind(b"\x1b[?1049l") < log.rfind(b"Traceback") < log.rfind(b"a crash on")


def test_ctrl_z_suspends_and_fg_redraws(tmp_path: Path) -> None:
    with game(env=flipped(LEGAL_SEED), job=tmp_path / "pid") as s:  # from a job-control shell
        pid = job_pid(tmp_path / "pid")
        wait_flip(s, "10♣", "4♥")
        mark = len(s.log)
        s.send("\x1a")  # Ctrl-Z: SIGTSTP from the terminal
        s.wait_for(lambda: b"\x1b[?1049l" in s.raw_log(mark), timeout=2, what="screen left")
        s.wait_for(lambda: s.tty_mode_restored(), timeout=2, what="the tty mode restored")
        deadline = time.monotonic() + 2
        while _state(pid) != "T":
            assert time.monotonic() < deadline, "the program did not stop"
            s.pump(0.01)
        mark = len(s.log)
        os.kill(pid, signal.SIGCONT)  # what fg does
        s.wait_for(lambda: b"\x1b[?1049h" in s.raw_log(mark), timeout=2, what="screen again")
        # fg comes back to a paused table; Enter plays on, after a count.
        s.wait_text("Esc or Enter: play on", timeout=2)
        s.send("\r")
        s.wait_for(lambda: pile_top(s, 0) == "10♣", timeout=2, what="the table redrawn")
        wait_count_over(s)
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def test_not_a_terminal_is_one_line_and_exit_2() -> None:
    code = (
        "import sys; from stress_tui.terminal.app import run;"
        " from stress_tui.core.settings import Settings;"
        " sys.exit(run(Settings()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "not a terminal" in done.stderr


# ----------------------------------------------------------------------------- replays


# Two expert computers play a skat round to one win: with seed 215 it takes them about 6 s
# (the bots decide how long; slower bots would make these tests slower, not wrong).
BOTS_SEED = 215
BOTS = ("--deck", "skat", "--wins", "1", "--p1", "bot:expert", "--p2", "bot:expert")
STATS_LABELS = (
    "cards played",
    "longest chain",
    "median reaction",
    "stresses won",
    "stresses lost",
    "false calls",
    "misplays",
    "lockouts",
)


def stress_tui(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    """``stress-tui ARGS`` without a terminal, on the data directory ``data``."""
    return subprocess.run(
        [sys.executable, "-m", "stress_tui", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, **NO_CONFIG, "STRESS_TUI_DATA_DIR": str(data)},
    )


def test_a_played_round_leaves_a_replay_that_verifies_and_counts_in_the_record(
    data_dir: Path,
) -> None:
    from stress_tui.core.stats import round_stats
    from stress_tui.storage.replay import load
    from stress_tui.terminal.screens.result import stats_lines

    with game(BOTS_SEED, args=BOTS) as s:
        s.wait_text("Player 2 wins the match!", timeout=60)
        s.wait_text("Enter: rematch    q: quit", timeout=2)
        shown = s.text()
        files = sorted((data_dir / "replays").iterdir())
        assert [path.suffix for path in files] == [".jsonl"]
        assert f"replay: {files[0].name}" in shown
        # The statistics on the screen are those of the recorded round.
        replay = load(files[0])
        stats = round_stats(replay.new_game(), replay.actions)
        for line in stats_lines(stats, ("Player 1", "Player 2"), COLS - 8):
            assert line in shown, line
        s.send("q")
        assert s.wait_exit() == 0
    verified = stress_tui("replay", "--verify", str(files[0]), data=data_dir)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    actions = len(replay.actions)
    assert verified.stdout == f"{files[0]}: verified, {actions} actions, winner Player 2\n"
    listed = stress_tui("replay", "--list", data=data_dir)
    assert (listed.returncode, listed.stderr) == (0, "")
    (line,) = listed.stdout.splitlines()
    assert "Player 1 (bot:expert) vs Player 2 (bot:expert)  skat wins=1  Player 2" in line
    assert line.endswith(files[0].name)
    record = stress_tui("stats", data=data_dir)
    assert record.returncode == 0
    # Computers are counted apart from people, by level: both sides were the expert.
    standings = record.stdout.split("\n\n")[0]
    head, *rows = [row.split() for row in standings.splitlines()]
    assert head[0] == "computer"
    assert [row[:5] for row in rows] == [["expert", "skat", "wins=1", "1-1", "1-1"]]
    assert rows[0][-1] == f"{stats.seconds:.2f}s"  # the round won is the expert's best
    as_json = json.loads(stress_tui("stats", "--json", data=data_dir).stdout)
    assert as_json["players"] == []
    assert as_json["computers"][0]["rounds_won"] == 1


def record_bots_round(folder: Path) -> Path:
    """The same round as above (the computers seeded as the app seeds them), recorded in
    this process."""
    from stress_tui.core.engine import Phase
    from stress_tui.players.bot import make_bot
    from stress_tui.storage.replay import Recorder

    match = Match(Rules.for_deck("skat", wins=1), random.Random(BOTS_SEED))
    game = match.new_round()
    assert match.round_seed is not None
    recorder = Recorder.start(
        game, match.round_seed, ("bot:expert", "bot:expert"), ("Ann", "Bo"), 1, (0, 0), folder
    )
    drivers = tuple(
        make_bot(player=i, level="expert", rng=random.Random(f"{BOTS_SEED}/0/{i}")) for i in (0, 1)
    )
    table = Table(game, drivers, on_action=recorder.record)
    table.start(0.0)
    while game.state.phase is not Phase.ROUND_OVER and table.actions < 3000:
        deadline = table.next_deadline()
        assert deadline is not None
        table.advance(deadline)
    return recorder.finish(game)


def progress(s: TtySession) -> tuple[int, int]:
    """``done/total`` from a replay's title line."""
    for word in s.row(0).split():
        if "/" in word and word.replace("/", "").isdigit():
            done, total = word.split("/")
            return int(done), int(total)
    raise AssertionError(f"no progress on the title line: {s.row(0)!r}")


def test_a_replay_plays_on_the_table_pauses_steps_and_ends_with_the_statistics(
    data_dir: Path,
) -> None:
    path = record_bots_round(data_dir / "replays")
    argv = ["replay", str(path), "--speed", "2"]
    env = {**NO_CONFIG, **DATA_ENV}
    with TtySession(args=argv, rows=ROWS, cols=COLS, env=env) as s:
        s.wait_for(
            lambda: "REPLAY" in s.row(0) and "x2" in s.row(0), timeout=10, what="the replay's title"
        )
        assert "Ann v Bo" in s.row(0) and "skat" in s.row(0)
        s.wait_text("Ann", row=LAY.rows_y[0])
        s.send(" ")
        s.wait_text("PAUSED", row=0, timeout=2)
        done, total = progress(s)
        s.send(".")
        s.wait_for(lambda: progress(s)[0] == done + 1, timeout=2, what="one step")
        s.send("\x1b[C")  # Right
        s.wait_for(lambda: progress(s)[0] == done + 2, timeout=2, what="another step")
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:  # paused: nothing moves
            s.pump(deadline - time.monotonic())
        assert progress(s)[0] == done + 2 and "PAUSED" in s.row(0)
        s.send(" ")
        s.wait_text("the same events as when it was played", timeout=10)
        s.wait_text("Enter: watch again    q: quit", timeout=2)
        assert progress(s) == (total, total)
        for label in STATS_LABELS:
            assert label in s.text()
        s.send("\r")  # once more, from the start
        s.wait_for(
            lambda: "watch again" not in s.text() and progress(s)[0] < total,
            timeout=2,
            what="the replay again",
        )
        s.send("q")
        assert s.wait_exit() == 0
        assert restored(s.raw_log()), restore_problems(s.raw_log())
        assert s.tty_mode_restored()
    assert path.exists() and sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_a_tampered_replay_is_caught_by_verify(data_dir: Path) -> None:
    path = record_bots_round(data_dir / "replays")
    assert stress_tui("replay", "--verify", path.name, data=data_dir).returncode == 0
    lines = path.read_text().splitlines()
    flip = next(i for i, line in enumerate(lines) if '"a":"flip"' in line)
    lines[flip] = lines[flip].replace('"t":1.2', '"t":1.3')
    path.write_text("\n".join(lines) + "\n")
    done = stress_tui("replay", "--verify", path.name, data=data_dir)
    assert done.returncode == 1 and "differ" in done.stdout and done.stderr == ""


def test_quitting_mid_round_keeps_a_readable_part_file(data_dir: Path) -> None:
    from stress_tui.core.actions import Flip, Play
    from stress_tui.storage.replay import load

    with game() as s:
        wait_flip(s, "10♣", "4♥")
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)
    (part,) = (data_dir / "replays").iterdir()
    assert part.name.endswith(".jsonl.part")
    replay = load(part)
    assert replay.end is None
    assert replay.seed == random.Random(LEGAL_SEED).getrandbits(63)  # the match's first round
    assert [type(action) for action in replay.actions] == [Flip, Play]
    assert replay.actions[1] == Play(0, 0, 0, replay.actions[1].time)
    done = stress_tui("replay", "--verify", str(part), data=data_dir)
    assert done.returncode == 1 and "cut short" in done.stdout
    listed = stress_tui("replay", "--list", data=data_dir)
    assert "(cut short)" in listed.stdout


def test_a_round_left_before_anything_happened_leaves_no_replay(data_dir: Path) -> None:
    with game() as s:
        assert pile_top(s, 0) == ""  # still counting to the first flip
        quit_cleanly(s)
    assert list((data_dir / "replays").glob("*")) == []  # (the folder is not even made)


def test_a_broken_record_file_is_reported_once_and_never_written(data_dir: Path) -> None:
    data_dir.mkdir()
    record = data_dir / "record.json"
    record.write_text('{"format": "somebody else\'s"}\n')
    before = record.read_bytes(), os.stat(record).st_mtime_ns
    with game(BOTS_SEED, args=BOTS) as s:
        s.wait_text("The record file cannot be read", timeout=3)
        s.wait_text("Enter: rematch    q: quit", timeout=60)
        assert "record not updated" not in s.text()  # said once, at the start
        s.send("q")
        assert s.wait_exit() == 0
    assert (record.read_bytes(), os.stat(record).st_mtime_ns) == before
    assert len(list((data_dir / "replays").iterdir())) == 1  # replays go on regardless
    done = stress_tui("stats", data=data_dir)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"stress-tui: {record}: not a stress-tui record; left as it is\n"


def test_an_unwritable_data_directory_says_so_and_plays_on(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    with game(env={"STRESS_TUI_DATA_DIR": str(blocker / "data")}) as s:
        s.wait_text("Not recording replays", timeout=2)
        wait_flip(s, "10♣", "4♥")
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)
    assert blocker.read_text() == "not a directory\n"
