"""The SSH server lobby's read of a player's own record, on a long record against a short
one, measured in the same run.

    python bench/lobby_scale.py [--short 1000] [--long 100000] [--repeat 51] [--whole 3]

Two records are made in a temporary folder as ``bench/stats_scale.py`` makes them (four
people playing each other and the hard computer, every round rated; 100,000 rounds take
a minute or so to make). On each, what the lobby reads of a player every time it is shown
(``storage.recent.own_record``: their standings, rating and last rounds, what ``ssh HOST
stats`` reads too) is read for Ann, who played in about 43 rounds of 100, in-process
(as the server's executor runs it), the two records taking turns ``--repeat`` times after
one read each to warm the caches; the figure is the ratio of the medians. Beside it, the
whole record read as a reference (``Record.load(histories=False)``, ``--whole`` times
each): what the lobby read before it read by the name.

Goal: the long record at most 2x the short one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `stress_tui` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats_scale import make_record
from stress_tui.storage.recent import own_record
from stress_tui.storage.record import Record
from stress_tui.terminal.screens.lobby import RECENT


def taking_turns(read: Callable[[Path], object], paths: list[Path], repeat: int) -> list[float]:
    """The median seconds of ``read`` on each of ``paths``, the paths taking turns
    ``repeat`` times (the order turned round every other time), after one read each."""
    times: dict[Path, list[float]] = {path: [] for path in paths}
    for path in paths:
        read(path)
    for turn in range(repeat):
        for path in paths if turn % 2 == 0 else paths[::-1]:
            start = time.perf_counter()
            read(path)
            times[path].append(time.perf_counter() - start)
    return [statistics.median(times[path]) for path in paths]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", type=int, default=1_000)
    parser.add_argument("--long", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=51)
    parser.add_argument("--whole", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        short, long = Path(folder, "short.sqlite"), Path(folder, "long.sqlite")
        for path, rounds in ((short, args.short), (long, args.long)):
            make_record(path, rounds)
        load = os.getloadavg()[0]
        lobby = taking_turns(
            lambda path: own_record("Ann", RECENT, path), [short, long], args.repeat
        )
        whole = taking_turns(
            lambda path: Record.load(path, histories=False), [short, long], args.whole
        )
        load = max(load, os.getloadavg()[0])
    print(
        f"the lobby's read on {args.long:,} rounds: {lobby[1] * 1000:.2f} ms, on "
        f"{args.short:,}: {lobby[0] * 1000:.2f} ms (medians of {args.repeat}): "
        f"{lobby[1] / lobby[0]:.2f}x (goal: at most 2x); the whole record read: "
        f"{whole[1] * 1000:.0f} ms against {whole[0] * 1000:.0f} ms (medians of {args.whole}): "
        f"{whole[1] / whole[0]:.0f}x; the lobby's read {lobby[1] / whole[1]:.4f}x the whole "
        f"record's on {args.long:,} rounds; load average {load:.2f}"
    )


if __name__ == "__main__":
    main()
