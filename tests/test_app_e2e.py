"""The real program in a pseudo-terminal, read back as a player would see it: the first
frame (of the game, of the replay viewer and of the daily), Ctrl-C and a crash leaving
the terminal restored (the crash's traceback after it). What the screen does with keys
and sizes is played in-process, in ``tests/test_app_screens.py``; the files a round
leaves in ``tests/test_app_files.py``; the signals, Ctrl-Z, resizes from the kernel and
more ways of leaving, in a pseudo-terminal, in ``tests/test_reliability.py``.

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

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stress_tui.core.engine import Match
from stress_tui.core.notation import format_position
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.terminal.layout import Layout, layout
from tests.screen import (
    Screenful,
    banner,
    card_label,
    has_people,
    pile_top,
    restore_problems,
    restored,
    say_ready,
)
from tests.tty import TtySession

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
    ready: bool = True,
) -> Iterator[TtySession]:
    """The game in an 80x24 pty, after its first frame."""
    argv = [*(["--seed", str(seed)] if seed is not None else []), *args]
    lay = layout(cols, rows, 4)
    assert lay is not None
    env = {**NO_CONFIG, **DATA_ENV, **(env or {})}
    with TtySession(args=argv, rows=rows, cols=cols, env=env) as s:
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


def row_card(s: Screenful, player: int, pile: int, lay: Layout = LAY) -> str:
    x = lay.row_x + pile * (lay.card_w + lay.gap)
    return card_label(s, lay.rows_y[player], x, lay)


def wait_count_over(s: Screenful) -> None:
    """After a pause, the help, a suspension or a window too small: the count before play
    goes on shows, then goes."""
    s.wait_text("Play goes on", timeout=2)
    s.wait_for(lambda: "Play goes on" not in s.text(), timeout=3, what="the count over")


def wait_flip(s: Screenful, left: str, right: str) -> None:
    s.wait_for(
        lambda: pile_top(s, 0) == left and pile_top(s, 1) == right,
        timeout=3,
        what=f"the flip {left} | {right}",
    )


def countdown(s: Screenful) -> str:
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


# ----------------------------------------------------------------------------- leaving


def test_a_crash_restores_the_terminal_then_shows_the_traceback() -> None:
    with game(env={"STRESS_TUI_TEST_CRASH": "1"}, ready=False) as s:
        s.send("x")
        assert s.wait_exit() == 1
        log = s.raw_log()
        assert restored(log), restore_problems(log)
        assert s.tty_mode_restored()
        assert log.rfind(b"\x1b[?1049l") < log.rfind(b"Traceback") < log.rfind(b"a crash on")


def test_the_replay_viewer_starts_on_a_real_terminal_and_leaves_it_restored(
    data_dir: Path,
) -> None:
    """``stress-tui replay FILE``: its first frame, and q leaves the terminal as it was (the
    viewer itself, in-process: ``tests/test_replay_viewer.py``, ``tests/test_app_files.py``)."""
    from tests.test_replay_cli import play_round

    path, _ = play_round(Rules.for_deck("jass"), 1, data_dir / "replays")
    with TtySession(args=["replay", str(path)], env={**NO_CONFIG, **DATA_ENV}) as s:
        s.wait_for(lambda: "REPLAY" in s.row(0), timeout=10, what="the replay's title")
        s.wait_text("Ann", row=LAY.rows_y[0])
        s.send("q")
        assert s.wait_exit() == 0
        assert restored(s.raw_log()), restore_problems(s.raw_log())
        assert s.tty_mode_restored()


def test_daily_reaches_the_table_with_the_days_cards(tmp_path: Path) -> None:
    """``stress-tui daily`` on a real terminal: the first frame has the day's cards (the
    daily itself, and that one left before its first card is not taken, in-process:
    ``tests/test_daily.py``)."""
    from stress_tui.core.daily import BOT_SIDE, daily_rules, daily_seed
    from stress_tui.core.engine import Game
    from stress_tui.terminal.lang import rank_name
    from tests.test_daily import _today

    env = {
        "STRESS_TUI_DATA_DIR": str(tmp_path / "data"),
        "STRESS_TUI_CONFIG": "/nonexistent/stress-tui-tests/config.toml",
    }
    days = list(_today())
    rows = {
        day: [
            rank_name(pile[-1].rank) + (pile[-1].suit.symbol if pile[-1].suit else "")
            for pile in Game.deal(daily_rules(), random.Random(daily_seed(day)))
            .state.players[1 - BOT_SIDE]
            .row
        ]
        for day in days
    }
    with TtySession(args=("daily", "--name", "Ann"), rows=24, cols=80, env=env) as s:
        s.wait_for(
            lambda: "Ann" in s.text() and any(all(c in s.text() for c in r) for r in rows.values()),
            timeout=10,
            what="the table with the day's cards",
        )
        assert "STRESS" in s.row(0)
        assert any(f"daily deal of {day}" in s.row(0) for day in days), s.row(0)
        assert "Computer" in s.text()
        s.send("\x03")
        assert s.wait_exit() == 130
