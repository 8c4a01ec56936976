"""The reference that no code of ours is in: a bare Python loop, timed in the same run.

A figure in microseconds or rounds per second says as much about the machine as about
the code (this one ran twice as fast one day as another). Said as a number of iterations
of ``for _ in range(n): pass`` timed by the same process in the same run, it holds on
another machine and another day, as long as the interpreter is the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable


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
    return said(seconds / loop)


def against_loop(run: Callable[[], float], repeat: int) -> tuple[float, float]:
    """Run ``run`` (it returns the seconds a unit of its work took) ``repeat`` times, each
    between two short timings of the bare loop; return the best seconds, and the best
    ratio of a run's seconds to a loop iteration timed beside it (the faster of the two),
    so that a load that comes and goes meets the work and its reference alike."""
    best, ratio = float("inf"), float("inf")
    for _ in range(repeat):
        before = loop_seconds(200_000, 2)
        seconds = run()
        after = loop_seconds(200_000, 2)
        best = min(best, seconds)
        ratio = min(ratio, seconds / min(before, after))
    return best, ratio


def said(count: float) -> str:
    """A number of loop iterations, for a figure: ``41,000 loop iterations``."""
    shown = f"{count:,.0f}" if count >= 100 else f"{count:.1f}"
    return f"{shown} loop iterations"
