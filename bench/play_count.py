"""A legal play's cost in counts that do not move with the machine's load: the calls (Python
functions and built-ins) and, under callgrind, the instructions of each play's key, from
its bytes into the game to its frame written.

    python bench/play_count.py [--plays 40]            # calls per play
    python bench/play_count.py --instructions           # instructions per play (valgrind)
    python bench/play_count.py --cold                   # cache misses per play, caches swept
    python bench/play_count.py --replay [--instructions]  # with the round's replay written

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

At a person's pace a key finds the caches cold: the 100 ms since the last one have
filled them with everything else the machine did, and a play takes four times as long
as the same play warm (in-process, timed with 32 MB swept before each key: about 560 us
against 150 us). ``--cold`` counts what that costs, where ``--instructions`` does not see
it: callgrind simulates the caches (32 KB first-level caches, a 4 MB last-level one), and
``SWEEP`` bytes are read and written before each play, outside what is counted, so that
each play starts with none of its lines in them; the figure is the play's misses in the
last-level cache (each a trip to memory), its instructions' and its data's. It grows with
how much a key touches (code, objects), not only with what it runs. Two runs of one tree
count within a few misses of each other, but where things lie in memory moves the count
too: a list of 100 objects made at import, and nothing else, moved it by 42 (of 6,700),
so a change shows in it only beyond that.

A real game writes each action to its round's replay; the position, which has no seed,
writes none. ``--replay`` writes one as a dealt round's is written (the round given the
match's seed, so that the game opens its replay at the round's first action; the file is
no replay of the position, only written as one is), and the calls say how many come before
the frame is handed to the terminal.
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
from stress_tui.terminal.app import App
from tests.pilot import Pilot, game
from tests.screen import say_ready

WARMUP = 3
"""Plays before the counted ones (the first draws a card never drawn at that place)."""

GAP = 0.12
"""Virtual seconds between two plays, as a person's."""

SWEEP = 16 << 20
"""Bytes read and written before each play with ``--cold``: four times the simulated
last-level cache."""

CACHES = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=4194304,16,64"]
"""The caches callgrind simulates with ``--cold``: fixed, so that the count is the same on
any machine."""


def left_top(s: Pilot) -> str:
    x = LAY.pile_x[0]
    return s.row(LAY.piles_y)[x + 1 : x + LAY.card_w - 1].strip()


def play(plays: int, each: Any, replay: bool = False, written: list[bytes] | None = None) -> None:
    """``WARMUP + plays`` plays, the last ``plays`` of them each fed through ``each(feed)``,
    their frames handed to ``written.append``; checks that every one landed. ``replay``: the
    round's replay written (``--replay``)."""
    position, run = run_position()
    assert WARMUP + plays <= len(run) - 1, f"the position has {len(run) - 1 - WARMUP} plays"
    with (
        tempfile.TemporaryDirectory(prefix="play-count-") as folder,
        game(Path(folder), env={"STRESS_TUI_POSITION": position}) as s,
    ):
        app = s.app
        assert isinstance(app, App)
        if replay:  # before the round's first action, which opens its replay
            app.log.round_seed = app.seed
        say_ready(s)
        s.wait_for(lambda: left_top(s) == "2♠", 10, "the position")
        for _ in range(WARMUP):
            s.send("q")
            s.pump(GAP)
        s.pump(2.0)
        shown = s.endpoint.on_output
        written = [] if written is None else written
        s.endpoint.on_output = written.append  # the pyte screen is the test's, not the game's
        for _ in range(plays):
            # The bytes handed over as the terminal's reader does (the test's ``feed`` first
            # asks whether it was given text).
            each(lambda: s.endpoint.received(b"q"))
            s.pump(GAP)
        s.endpoint.on_output = shown
        for data in written:
            s.stream.feed(data)
        assert left_top(s) == label(run[WARMUP + plays - 1]), "a play did not land"
        replays = list(Path(folder, "data", "replays").glob("*.jsonl.part"))
        assert len(replays) == replay, "a replay written only with --replay"


def count_calls(plays: int, replay: bool = False) -> tuple[float, float, float]:
    """Calls per play: Python functions and built-ins, and all of them before the frame is
    handed to the terminal."""
    counts = [0, 0]
    before = [0]
    written: list[bytes] = []

    def hook(_frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            counts[0] += 1
        elif event == "c_call":
            counts[1] += 1
            if getattr(arg, "__self__", None) is written:  # a frame handed to the terminal
                before[0] += counts[0] + counts[1]

    def each(key: Any) -> None:
        sys.setprofile(hook)
        try:
            key()
        finally:
            sys.setprofile(None)

    def each_framed(key: Any) -> None:
        before[0] -= counts[0] + counts[1]
        each(key)

    play(plays, each_framed, replay, written)
    return counts[0] / plays, counts[1] / plays, before[0] / plays


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--plays", type=int, default=40, help="plays counted (default 40)")
    parser.add_argument("--instructions", action="store_true", help="count under callgrind")
    parser.add_argument(
        "--cold", action="store_true", help="cache misses, caches swept before each play"
    )
    parser.add_argument(
        "--replay", action="store_true", help="the round's replay written, as in a real game"
    )
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inside:  # under callgrind: each key inside functools.reduce, which is counted
        swept, zeros = bytearray(SWEEP if args.cold else 0), bytes(SWEEP if args.cold else 0)

        def each(key: Any) -> None:
            swept[:] = zeros  # (not counted: outside functools.reduce)
            functools.reduce(lambda _a, _b: key(), [0, 0])

        play(args.plays, each, args.replay)
        return 0
    if args.instructions or args.cold:
        counts = grind(args.plays, args.cold, args.replay)
        plays = args.plays
        print(f"instructions per play, in-process (callgrind): {counts['Ir'] / plays:,.0f}")
        if args.cold:
            code, read, written = counts["ILmr"], counts["DLmr"], counts["DLmw"]
            print(
                "last-level cache misses per play, caches swept before each (callgrind):"
                f" {(code + read + written) / plays:,.0f} (code {code / plays:,.0f},"
                f" data read {read / plays:,.0f}, written {written / plays:,.0f})"
            )
        return 0
    python, builtin, framed = count_calls(args.plays, args.replay)
    print(
        f"calls per play, in-process: {python + builtin:.1f} (Python functions {python:.1f});"
        f" before the frame is handed over: {framed:.1f}"
    )
    return 0


def grind(plays: int, cold: bool, replay: bool = False) -> dict[str, int]:
    """The counts callgrind gives the plays (``cold``: with the caches simulated, and swept
    before each play; ``replay``: the round's replay written)."""
    with tempfile.TemporaryDirectory(prefix="play-count-") as folder:
        out = Path(folder) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--toggle-collect=functools_reduce",
            f"--callgrind-out-file={out}",
            *(["--cache-sim=yes", *CACHES] if cold else []),
            sys.executable,
            __file__,
            "--inside",
            "--plays",
            str(plays),
            *(["--cold"] if cold else []),
            *(["--replay"] if replay else []),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        subprocess.run(command, check=True, capture_output=True, env=env)
        lines = out.read_text(encoding="utf-8").splitlines()
    names = next(line.split()[1:] for line in lines if line.startswith("events:"))
    totals = next(line.split()[1:] for line in lines if line.startswith(("summary:", "totals:")))
    return dict(zip(names, map(int, totals), strict=True))


if __name__ == "__main__":
    sys.exit(main())
