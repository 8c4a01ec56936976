"""A legal play's cost in counts that do not move with the machine's load: the calls (Python
functions and built-ins) and, under callgrind, the instructions of each play's key, from
its bytes into the game to its frame written.

    python bench/play_count.py [--plays 40]            # calls per play
    python bench/play_count.py --instructions           # instructions per play (valgrind)

The game runs in-process (``tests/pilot.py``: the game of ``--seed 12`` on an 80x24
in-memory terminal, on a virtual clock) from ``bench/bench_table.py``'s position, where
``q`` plays player 1's pile 1 onto the left pile again and again. Each play is one key fed
to the endpoint, a person's gap (0.12 s of the virtual clock) after the last, its timers
run in between and not counted; what the in-memory terminal does with the frame (a pyte
screen) is left out too. Where ``bench/calls.py`` counts a whole process's keys in a pty,
reading the tty and the loop's turns included, this counts the game's own work for a key,
and its instructions: callgrind counts only inside ``functools.reduce``, which each key is
fed through for it (the program calls it nowhere else on this path), with the hash seed
fixed, so that two runs count alike. Needs valgrind for ``--instructions``.
"""

from __future__ import annotations

import argparse
import functools
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_table import LAY, label, run_position
from tests.pilot import Pilot, game
from tests.screen import say_ready

WARMUP = 3
"""Plays before the counted ones (the first draws a card never drawn at that place)."""

GAP = 0.12
"""Virtual seconds between two plays, as a person's."""


def left_top(s: Pilot) -> str:
    x = LAY.pile_x[0]
    return s.row(LAY.piles_y)[x + 1 : x + LAY.card_w - 1].strip()


def play(plays: int, each: Any) -> None:
    """``WARMUP + plays`` plays, the last ``plays`` of them each fed through ``each(feed)``;
    checks that every one landed."""
    position, run = run_position()
    assert WARMUP + plays <= len(run) - 1, f"the position has {len(run) - 1 - WARMUP} plays"
    with (
        tempfile.TemporaryDirectory(prefix="play-count-") as folder,
        game(Path(folder), env={"STRESS_TUI_POSITION": position}) as s,
    ):
        say_ready(s)
        s.wait_for(lambda: left_top(s) == "2♠", 10, "the position")
        for _ in range(WARMUP):
            s.send("q")
            s.pump(GAP)
        s.pump(2.0)
        shown = s.endpoint.on_output
        written: list[bytes] = []
        s.endpoint.on_output = written.append  # the pyte screen is the test's, not the game's
        for _ in range(plays):
            each(lambda: s.endpoint.feed(b"q"))
            s.pump(GAP)
        s.endpoint.on_output = shown
        for data in written:
            s.stream.feed(data)
        assert left_top(s) == label(run[WARMUP + plays - 1]), "a play did not land"


def count_calls(plays: int) -> tuple[float, float]:
    """Calls per play: Python functions and built-ins."""
    counts = [0, 0]

    def hook(_frame: FrameType, event: str, _arg: object) -> None:
        if event == "call":
            counts[0] += 1
        elif event == "c_call":
            counts[1] += 1

    def each(key: Any) -> None:
        sys.setprofile(hook)
        try:
            key()
        finally:
            sys.setprofile(None)

    play(plays, each)
    return counts[0] / plays, counts[1] / plays


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--plays", type=int, default=40, help="plays counted (default 40)")
    parser.add_argument("--instructions", action="store_true", help="count under callgrind")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inside:  # under callgrind: each key inside functools.reduce, which is counted
        play(args.plays, lambda key: functools.reduce(lambda _a, _b: key(), [0, 0]))
        return 0
    if args.instructions:
        with tempfile.TemporaryDirectory(prefix="play-count-") as folder:
            out = Path(folder) / "callgrind.out"
            grind = [
                "valgrind",
                "--tool=callgrind",
                "--toggle-collect=functools_reduce",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--inside",
                "--plays",
                str(args.plays),
            ]
            env = {**os.environ, "PYTHONHASHSEED": "0"}
            subprocess.run(grind, check=True, capture_output=True, env=env)
            total = next(
                int(line.split()[1])
                for line in out.read_text(encoding="utf-8").splitlines()
                if line.startswith(("summary:", "totals:"))
            )
        print(f"instructions per play, in-process (callgrind): {total / args.plays:,.0f}")
        return 0
    python, builtin = count_calls(args.plays)
    print(f"calls per play, in-process: {python + builtin:.1f} (Python functions {python:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
