"""Calls a key costs, counted inside the program: the game's legal play and a key it ignores,
beside the minimal blessed echo program's key.

    python bench/calls.py [--n 40]

Each program runs in an 80x24 pty, as in ``bench/bench_table.py`` (the same legal play, the
same ignored key, keys ``HUMAN_GAP`` apart), started under a profile hook
(``sys.setprofile`` and ``threading.setprofile``) that counts every call into a small file
the bench maps too: the calls of Python functions, and the calls of built-in ones. The
count from the gap before a block's first measured key to the gap after its last, divided
by its keys, is the figure: unlike a time, it hardly moves with the machine's load (a timer
that fires meanwhile counts, as it costs a player's game too). The hook makes each call
slower, so the programs' times under it mean nothing.
"""

from __future__ import annotations

import argparse
import mmap
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_table import (
    BLOCK,
    COLS,
    GAME,
    IGNORED,
    ROWS,
    label,
    left_top,
    quiet,
    run_position,
)
from bench.latency import (
    BASELINES,
    HUMAN_GAP,
    Usage,
    alternate,
    echo_ready,
    echo_reflected,
    letter,
    measure_keys,
)
from stress_tui.terminal.notices import MARK_SECONDS
from tests.screen import say_ready
from tests.tty import TtySession

COUNTING = r"""
import mmap, runpy, sys, threading
with open(sys.argv.pop(1), "r+b") as file:
    counts = memoryview(mmap.mmap(file.fileno(), 16)).cast("q")
def hook(frame, event, arg):
    if event == "call":
        counts[0] += 1
    elif event == "c_call":
        counts[1] += 1
threading.setprofile(hook)
sys.setprofile(hook)
del sys.argv[0]
if sys.argv[0] == "-m":
    del sys.argv[0]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
else:
    runpy.run_path(sys.argv[0], run_name="__main__")
"""
"""Runs ``python -c COUNTING FILE ARGV...``: ``ARGV`` (a script, or ``-m MODULE``) with
every call counted into ``FILE``'s first 16 bytes (Python functions, built-ins)."""


class Counter:
    """The file a counted program writes its calls into, mapped here to read them."""

    def __init__(self) -> None:
        self.file = tempfile.NamedTemporaryFile(prefix="calls-", suffix=".bin")  # noqa: SIM115
        self.file.write(bytes(16))
        self.file.flush()
        self.counts = memoryview(mmap.mmap(self.file.fileno(), 16)).cast("q")

    def argv(self, argv: list[str]) -> list[str]:
        """``argv`` (``python SCRIPT ...`` or ``python -m MODULE ...``) run with its calls
        counted here."""
        return [argv[0], "-c", COUNTING, self.file.name, *argv[1:]]

    def meter(self, slot: int) -> Callable[[int], float]:
        return lambda _pid: float(self.counts[slot])


def echo_block(counter: Counter, usage: list[Usage], n: int) -> list[float]:
    with TtySession(counter.argv(BASELINES["echo"]), rows=ROWS, cols=COLS) as s:
        s.wait_for(lambda: echo_ready(s), 20, "the echo")
        measure_keys(s, letter, echo_reflected, n, warmup=5, timeout=5.0, usage=usage)
        s.send("q")
        s.wait_exit(10)
    return [0.0] * n


def game_block(
    counter: Counter, usage: list[Usage], ignored: list[Usage], n: int, warmup: int = 3
) -> list[float]:
    position, run = run_position()
    n = min(n, len(run) - warmup - 1)
    env: dict[str, str | None] = {"STRESS_TUI_POSITION": position}
    args = ["--seed", "12"]
    with TtySession(counter.argv(GAME), args=args, rows=ROWS, cols=COLS, env=env) as s:
        s.wait_for(lambda: "STRESS" in s.row(0), 30, "the first frame")
        say_ready(s)
        s.wait_for(lambda: left_top(s) == "2♠", 10, "the position")
        measure_keys(
            s,
            lambda _s, _i: "q",
            lambda s, i, _k: left_top(s) == label(run[i]),
            n,
            warmup=warmup,
            timeout=5.0,
            usage=usage,
        )
        quiet(s, MARK_SECONDS + 0.5)
        for use in ignored:
            use.start(s.pid)
        for _ in range(n):
            s.send(IGNORED)
            end = time.perf_counter() + HUMAN_GAP
            while (left := end - time.perf_counter()) > 0:
                s.pump(left)
        for use in ignored:
            use.stop(s.pid, n)
    return [0.0] * n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=40, help="keys counted (default 40)")
    args = parser.parse_args(argv)
    counter = Counter()
    echo = [Usage(counter.meter(0)), Usage(counter.meter(1))]
    play = [Usage(counter.meter(0)), Usage(counter.meter(1))]
    ignored = [Usage(counter.meter(0)), Usage(counter.meter(1))]
    alternate(
        lambda count: echo_block(counter, echo, count),
        lambda count: game_block(counter, play, ignored, count),
        args.n,
        BLOCK,
    )
    print("calls per key: Python functions + built-ins = all, median of the blocks")
    totals = {}
    for name, (python, builtin) in (("echo", echo), ("play", play), ("ignored", ignored)):
        functions, builtins = statistics.median(python.per_key), statistics.median(builtin.per_key)
        totals[name] = functions + builtins
        print(f"  {name:8} {functions:6.0f} + {builtins:6.0f} = {totals[name]:6.0f}")
    print(f"  play/echo: {totals['play'] / totals['echo']:.2f}x")
    print(f"  ignored/echo: {totals['ignored'] / totals['echo']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
