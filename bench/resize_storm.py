"""Resize storms against the real program: a thousand size changes, then the table whole.

The terminal is resized to random sizes from one row or one column up to 60x200, with 1x1,
1xN, Nx1 and 0x0 among them, each a real ``TIOCSWINSZ`` on the pty (so a real SIGWINCH)
with the pyte screen resized to match: every other size as soon as the one before was
sent (a flood of signals the program may fold into one), the others each waited for until
the program has redrawn at that very size (so every size is drawn, 1x1 included). It is
done in each phase of a round:

- ``countdown``: from the first frame of ``--seed 12``, while "1 2 3" counts to the first
  flip (sizes too small pause the count, so the flip falls somewhere in the storm);
- ``playing``: a table after its first flip (the ``STRESS_TUI_POSITION`` hook), no keys;
- ``stress``: after a play that opens stress (seed 6, player 1's ``w``), nobody calling;
- ``result``: on the result screen, its keys live (a position one card from the end).

Afterwards, at a final size different from the first, the program must: still run; answer
Ctrl-L; show the whole table at that size (title, both rows and their keys, the phase's
mark: the count or the new cards, ``STRESS!``, the result); show on screen exactly what a
full redraw (Ctrl-L) shows, so no cell is left over from a size before; hold every card
(counted from the screen where no overlay covers the table, and from the inside,
``bench.fuzz.audited_main``); and leave the terminal restored when quit with Ctrl-C.

    python bench/resize_storm.py [--resizes 1000] [--phase all] [--seed 1]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `tests.tty` and `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fuzz import (
    CLEAR,
    COLS,
    REDRAW,
    ROWS,
    Audit,
    audited_game,
    count_on_screen,
    redraw_latency,
    redrawn_since,
    table_whole,
)
from tests.screen import restore_problems, settle
from tests.tty import TtySession

LAST_CARD = (
    "rules: standard wins=1; phase: playing; p1 row: 5H | - | - | -; p1 draw: -;"
    " piles: 4C | 9D; p2 row: 2C | 3C | 8D | KS; p2 draw: 7S 7H"
)
"""Player 1's last card, the 5♥, fits the 4♣: ``q`` ends the round and the match."""

PHASES = ("countdown", "playing", "stress", "result")

FINAL = (30, 100)
"""The size the storm ends at (rows, columns): not the size the program started at."""

EXTREMES = [(1, 1), (1, 80), (24, 1), (1, 200), (60, 1), (2, 2), (0, 0), (3, 10), (12, 50)]


def after_first_flip(seed: int) -> str:
    """``seed``'s first round (the default rules) just after its first flip, in notation:
    the table ``--seed SEED`` shows 1.2 s in, without waiting for the count."""
    from stress_tui.core.engine import Match
    from stress_tui.core.notation import format_position
    from stress_tui.core.rules import Rules
    from stress_tui.core.table import Table

    game = Match(Rules(), random.Random(seed)).new_round()
    table = Table(game)
    table.start(0.0)
    table.advance(table.countdown)
    return format_position(game.state)


def sizes(n: int, seed: int) -> list[tuple[int, int]]:
    """``n`` sizes (rows, columns): a tenth of them extremes, the rest random."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        if rng.random() < 0.1:
            out.append(rng.choice(EXTREMES))
        else:
            out.append((rng.randint(1, 60), rng.randint(1, 200)))
    return out


def resize(s: TtySession, rows: int, cols: int) -> None:
    """Resize the pty (SIGWINCH to the program) and the screen; a 0x0 pty (which some
    terminals report) keeps a 1x1 screen."""
    s.screen.resize(lines=max(rows, 1), columns=max(cols, 1))
    s.child.setwinsize(rows, cols)


def phase_mark(phase: str, text: str) -> bool:
    """Whether the screen shows what the phase looks like."""
    if phase in ("countdown", "playing"):
        return "1 card" in text  # the flip has come (during the storm, for countdown)
    if phase == "stress":
        return "STRESS!" in text
    return "wins the match!" in text and "Enter: rematch" in text


@dataclass
class StormResult:
    """What a storm came to."""

    phase: str
    resizes: int
    seconds: float = 0.0
    """From the first resize to the last."""
    redraw_ms: float | None = None
    """Ctrl-L answered this long after the storm (``None``: not answered)."""
    whole: bool = False
    """The table and the phase's mark on screen at the final size."""
    same_as_redraw: bool = False
    """The screen after the storm equals a full redraw at the same moment."""
    screen_cards: int | None = None
    deck_cards: int | None = None
    rounds: list[dict[str, Any]] = field(default_factory=list)
    exit_code: int | None = None
    restore_problems: list[str] = field(default_factory=list)
    tty_mode_restored: bool = False
    failure: str | None = None
    diff: list[str] = field(default_factory=list)
    """Rows that differ from the full redraw (after, redraw)."""

    @property
    def held(self) -> bool:
        cards_ok = self.screen_cards == self.deck_cards and all(r["same"] for r in self.rounds)
        return (
            self.failure is None
            and self.redraw_ms is not None
            and self.whole
            and self.same_as_redraw
            and cards_ok
            and bool(self.rounds)
            and self.exit_code == 130
            and not self.restore_problems
            and self.tty_mode_restored
        )

    def summary(self) -> str:
        text = (
            f"{self.phase}: {self.resizes} resizes in {self.seconds:.1f} s; Ctrl-L after: "
            f"{'never' if self.redraw_ms is None else f'{self.redraw_ms:.1f} ms'}; whole at "
            f"{FINAL[1]}x{FINAL[0]}: {self.whole}; same as a full redraw: "
            f"{self.same_as_redraw}; cards {self.screen_cards} of {self.deck_cards}, rounds "
            f"counted inside {len(self.rounds)} (adding up: "
            f"{all(r['same'] for r in self.rounds)}); exit {self.exit_code}; restored: "
            f"{not self.restore_problems and self.tty_mode_restored}"
        )
        if self.failure:
            text += f"\n  FAILED: {self.failure}"
        for line in self.diff[:6]:
            text += f"\n  differs: {line}"
        return text


def play_marks_gone(s: TtySession) -> bool:
    """Whether what a play shows for a moment has run out (on the game's clock, which a
    size too small stops): the highlight down a play pile's sides, the name of who played
    beside it, and ``new`` (or ``+1``) in the keys under the row pile it was refilled.
    Where no table fits, nothing is shown."""
    from stress_tui.terminal.layout import layout

    lay = layout(s.cols, s.rows, 4)
    if lay is None:
        return True
    piles = [s.row(lay.piles_y + dy) for dy in range(lay.card_h)]
    keys = [s.row(y).split() for y in lay.hints_y]
    return not any("\u2590" in row or "Player" in row for row in piles) and not any(
        "new" in words or "+1" in words for words in keys
    )


def whole_for(s: TtySession, phase: str) -> bool:
    """Whether the screen is whole for the phase: the table, or over the result (which has
    the screen to itself) the title line."""
    if phase == "result":
        return "STRESS" in s.row(0)
    return table_whole(s)


def run_storm(phase: str, n: int, folder: Path, seed: int = 1) -> StormResult:
    """A storm of ``n`` resizes in ``phase``; never raises for what the program does."""
    env: dict[str, str | None] = {}
    args = ["--seed", "12"]
    if phase == "playing":
        env["STRESS_TUI_POSITION"] = after_first_flip(12)
    elif phase == "stress":
        env["STRESS_TUI_POSITION"] = after_first_flip(6)
    elif phase == "result":
        env["STRESS_TUI_POSITION"] = LAST_CARD
    result = StormResult(phase, n)
    with audited_game(folder, args, env) as (s, audit):
        try:
            if phase == "stress":
                s.send("w")
                s.wait_text("STRESS!", timeout=3)
            elif phase == "result":
                s.send("q")
                s.wait_text("Enter: rematch", timeout=3)
            start = time.perf_counter()
            previous = (ROWS, COLS)
            for index, (rows, cols) in enumerate(sizes(n, seed)):
                mark = len(s.log)
                resize(s, rows, cols)
                # The kernel sends no SIGWINCH when the size does not change.
                if index % 2 or (rows, cols) == previous:
                    s.pump(0)  # a flood: the next size before this one is drawn
                else:  # paced: drawn at this very size before the next
                    s.wait_for(
                        functools.partial(redrawn_since, s, mark),
                        timeout=2,
                        what=f"the redraw at {cols}x{rows}",
                    )
                previous = (rows, cols)
            resize(s, *FINAL)
            result.seconds = time.perf_counter() - start
            result.redraw_ms = 1000 * redraw_latency(s, timeout=10)
            s.wait_for(
                lambda: whole_for(s, phase) and phase_mark(phase, s.text()),
                timeout=5,
                what=f"the whole table at {FINAL[1]}x{FINAL[0]}",
            )
            result.whole = True
            # Large enough again after a size too small: play goes on after a count.
            s.wait_for(lambda: "Play goes on" not in s.text(), timeout=3, what="the count")
            # Compared when nothing on the screen is still running out, which a full
            # redraw a moment later would no longer show.
            s.wait_for(lambda: play_marks_gone(s), timeout=5, what="the play's marks gone")
            settle(s)
            after = s.screen.display[:]
            mark = len(s.log)
            s.send(REDRAW)
            s.wait_for(
                lambda: CLEAR in s.log[mark:] and whole_for(s, phase),
                timeout=5,
                what="the full redraw",
            )
            settle(s)
            redrawn = s.screen.display[:]
            result.diff = [
                f"row {y}: {a.rstrip()!r} / {b.rstrip()!r}"
                for y, (a, b) in enumerate(zip(after, redrawn, strict=True))
                if a != b
            ]
            result.same_as_redraw = not result.diff
            if phase == "result":
                result.screen_cards = result.deck_cards = None  # covered by the result
            else:
                result.deck_cards = 52
                result.screen_cards = count_on_screen(s)
            s.send(b"\x03")
            result.exit_code = s.wait_exit(timeout=5)
        except (AssertionError, OSError) as error:
            result.failure = " | ".join(str(error).splitlines()[:3])
            with contextlib.suppress(AssertionError):
                s.wait_exit(timeout=1)
            result.exit_code = s.exit_code
        result.restore_problems = restore_problems(s.raw_log())
        result.tty_mode_restored = s.tty_mode_restored()
    if audit.exists():
        result.rounds = Audit.read(audit).rounds
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resizes", type=int, default=1000, help="size changes per phase")
    parser.add_argument("--phase", choices=(*PHASES, "all"), default="all")
    parser.add_argument("--seed", type=int, default=1, help="the sizes' seed")
    args = parser.parse_args(argv)
    phases = PHASES if args.phase == "all" else (args.phase,)
    failed = 0
    for phase in phases:
        with tempfile.TemporaryDirectory() as tmp:
            result = run_storm(phase, args.resizes, Path(tmp), args.seed)
        failed += not result.held
        print(result.summary())
        print(f"  => {'held' if result.held else 'FAILED'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
