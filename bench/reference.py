"""The reference that no code of ours is in: a bare Python loop, timed in the same run.

A figure in microseconds or rounds per second says as much about the machine as about
the code (this one ran twice as fast one day as another). Said as a number of iterations
of ``for _ in range(n): pass`` timed by the same process in the same run, it holds on
another machine and another day, as long as the interpreter is the same.
"""

from __future__ import annotations

import time


def loop_seconds(n: int = 1_000_000, repeat: int = 5) -> float:
    """Seconds per iteration of a bare loop, the best of ``repeat`` runs of ``n``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(n):
            pass
        best = min(best, time.perf_counter() - start)
    return best / n


def iterations(seconds: float, loop: float) -> str:
    """``seconds`` said as bare-loop iterations: ``41,000 loop iterations``."""
    count = seconds / loop
    shown = f"{count:,.0f}" if count >= 100 else f"{count:.1f}"
    return f"{shown} loop iterations"
