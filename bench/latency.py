"""Key-to-screen latency: write a key into the pty, time until the screen shows its effect.

The clock starts just before the key's bytes are written to the pty master and stops when the
screen (pyte, fed with everything read so far) satisfies the caller's predicate, so a sample
covers the program's reading, handling and drawing plus our reading and parsing of its output.

Library use (the game's benchmark will do the same against ``python -m stress_tui``)::

    samples = measure_latency(
        [sys.executable, "-m", "stress_tui", "--some-mode"],
        next_key=lambda s, i: KEYS["left"] if i % 2 else KEYS["right"],
        ready=lambda s: "Stress" in s.text(),
        reflected=lambda s, i, key: cursor_column(s) == expected(i),
        n=300,
    )
    print(summarize(samples).format())

or, when the program needs to be brought into a state first, ``measure_keys(session, ...)`` on a
``TtySession`` already there.

As a script, measures the floor the game is compared with::

    python bench/latency.py [--n 300] [--warmup 20] [--only echo|bare]

``echo``: tests/fixtures/echo_app.py, a tiny blessed program reading keys with ``async_inkey``;
``bare``: a plain cbreak os.read/os.write loop, the cost of the pty and this harness alone.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import math
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `tests.tty` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.tty import TtySession

Key = str | bytes
#: ``(session, i) -> key to send``; ``i`` counts from 0 over the warm-up keys and then the
#: measured ones, so it also tells how many keys the program has had before this one.
NextKey = Callable[[TtySession, int], Key]
#: ``(session, i, key) -> True`` once the screen shows the effect of key number ``i`` (and False
#: before it is sent: that is checked). Called after every read, so keep it cheap: ``row(y)``
#: costs some microseconds, ``text()`` about a millisecond.
Reflected = Callable[[TtySession, int, Key], bool]
#: ``(session) -> True`` once the program is ready for the first key.
Ready = Callable[[TtySession], bool]

HUMAN_GAP = 0.1
"""Seconds from one key's effect on the screen to the next key's press, at least: a
person's pace. A person pressing one key twice needs about this long, and the game takes
the same key again within 80 ms for a held key's repeat (docs/keys.md, "held key"), so it
is also the pace the game reads as presses, however late a busy machine lets it read
them. A program idle between keys is what a player meets."""


def cpu_seconds(pid: int) -> float:
    """The CPU time every thread of process ``pid`` has had so far, as the scheduler counts
    it (``/proc/PID/task/*/schedstat``, in nanoseconds: the count that moves least with the
    machine's load)."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        with contextlib.suppress(OSError, ValueError, IndexError):  # a thread that ended
            total += int(stat.read_text().split()[0])
    return total / 1e9


class Usage:
    """What a program uses per key, block by block: ``meter(pid)`` (by default its CPU
    seconds, ``cpu_seconds``) read before a block's first measured key and after its last
    (``measure_keys``)."""

    def __init__(self, meter: Callable[[int], float] = cpu_seconds) -> None:
        self.meter = meter
        self.per_key: list[float] = []
        """Each block's figure per key."""
        self.started = 0.0

    def start(self, pid: int) -> None:
        self.started = self.meter(pid)

    def stop(self, pid: int, keys: int) -> None:
        self.per_key.append((self.meter(pid) - self.started) / keys)


def measure_keys(
    session: TtySession,
    next_key: NextKey,
    reflected: Reflected,
    n: int = 300,
    *,
    warmup: int = 20,
    timeout: float = 2.0,
    gap: float = HUMAN_GAP,
    usage: Sequence[Usage] = (),
    arrived: list[float] | None = None,
) -> list[float]:
    """Send ``warmup + n`` keys one at a time, each at least ``gap`` seconds after the
    previous one's effect showed on the screen (reading the screen meanwhile), so that the
    program, however late it read the last key, reads the next one at least ``gap`` after
    it, as a person's next press; return the latencies of the last ``n``, in seconds. AssertionError
    (with the screen) if a key's effect does not show within ``timeout`` seconds. Each of
    ``usage`` notes what the program used per measured key, once for the ``n`` keys: from
    the gap before the first until the gap after the last (so that whatever a key sets
    going is counted, and nothing the warm-up keys did). ``arrived``, if given, is given
    each of the ``n`` keys' time until the program's bytes that showed its effect were read
    (``TtySession.read_at``): the same keys with this side's filter, pyte's parse and the
    look left out, which cost this harness more the more bytes a key's answer has, where a
    terminal written in C parses a frame's hundred bytes in microseconds. After each key
    the screen is looked at only once the program has written something, as a terminal
    does nothing after a key until its answer comes: a look at once (a row read from pyte)
    ran while the program was being woken, and on a busy machine delayed its waking by the
    look's time (a play's row about 20 us more than the echo's)."""
    samples: list[float] = []
    shown = -math.inf
    gc_was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()  # our own collections would show up as latency
    try:
        for i in range(warmup + n):
            key = next_key(session, i)
            while (left := shown + gap - time.perf_counter()) > 0:
                session.pump(left)  # the rest of the previous frame, if any, is not this key's
            session.pump()
            if i == warmup:
                for use in usage:
                    use.start(session.pid)
            if reflected(session, i, key):
                raise AssertionError(f"reflected() is true for key {i} ({key!r}) before it is sent")
            start = time.perf_counter()
            session.send(key)
            # Nothing to look at until the program answers: a look now is this side's work
            # in the key's time, on a CPU the woken program may be waiting for.
            session.pump(timeout)
            left = max(start + timeout - time.perf_counter(), 0.0)
            session.wait_for(partial(reflected, session, i, key), left, f"key {i} ({key!r})")
            shown = time.perf_counter()
            elapsed = shown - start
            if i >= warmup:
                samples.append(elapsed)
                if arrived is not None:
                    arrived.append(session.read_at - start)
        if usage and n > 0:
            while (left := shown + gap - time.perf_counter()) > 0:
                session.pump(left)
            for use in usage:
                use.stop(session.pid, n)
    finally:
        if gc_was_enabled:
            gc.enable()
    return samples


def measure_latency(
    argv: Sequence[str],
    next_key: NextKey,
    ready: Ready,
    reflected: Reflected,
    n: int = 300,
    *,
    env: Mapping[str, str | None] | None = None,
    rows: int = 24,
    cols: int = 80,
    warmup: int = 20,
    timeout: float = 2.0,
    gap: float = HUMAN_GAP,
    startup_timeout: float = 10.0,
    quit_key: Key | None = None,
    usage: Sequence[Usage] = (),
    arrived: list[float] | None = None,
) -> list[float]:
    """Start ``argv`` in a ``rows`` x ``cols`` pty, wait until ``ready``, then
    ``measure_keys`` (``usage`` and ``arrived`` as there). Afterwards sends ``quit_key``
    and waits for the exit, if given; the program is ended in any case. Returns the ``n``
    latencies in seconds."""
    with TtySession(argv, rows=rows, cols=cols, env=env) as session:
        session.wait_for(lambda: ready(session), startup_timeout, "the program to be ready")
        samples = measure_keys(
            session,
            next_key,
            reflected,
            n,
            warmup=warmup,
            timeout=timeout,
            gap=gap,
            usage=usage,
            arrived=arrived,
        )
        if quit_key is not None:
            session.send(quit_key)
            session.wait_exit(startup_timeout)
    return samples


@dataclass(frozen=True)
class Stats:
    """Summary of latency samples, in seconds."""

    n: int
    median: float
    p90: float
    p99: float
    mean: float
    min: float
    max: float

    def format(self) -> str:
        ms = 1000.0
        return (
            f"n={self.n} median {self.median * ms:.3f} ms, p90 {self.p90 * ms:.3f} ms, "
            f"p99 {self.p99 * ms:.3f} ms (mean {self.mean * ms:.3f}, "
            f"min {self.min * ms:.3f}, max {self.max * ms:.3f})"
        )


def alternate(
    first: Callable[[int], list[float]], second: Callable[[int], list[float]], n: int, block: int
) -> tuple[list[float], list[float]]:
    """Samples of two measures taken in turns, up to ``block`` of each at a time, until
    ``second`` has ``n``: both meet the machine as it is at the time."""
    one: list[float] = []
    two: list[float] = []
    while len(two) < n:
        count = min(block, n - len(two))
        one += first(count)
        two += second(count)
    return one, two


def percentile(samples: Sequence[float], p: float) -> float:
    """Nearest-rank percentile: the smallest sample with at least ``p`` % of them at or below."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return ordered[rank - 1]


def summarize(samples: Sequence[float]) -> Stats:
    return Stats(
        n=len(samples),
        median=statistics.median(samples),
        p90=percentile(samples, 90),
        p99=percentile(samples, 99),
        mean=statistics.fmean(samples),
        min=min(samples),
        max=max(samples),
    )


# -- the baselines -----------------------------------------------------------------------------

ECHO_APP = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "echo_app.py"

#: The floor under any program: cbreak mode, one os.read and one os.write per key, drawn in the
#: echo app's format (``key=<k> n=<count>`` on row 0). ``-I``: no cwd on sys.path, so that no
#: local module shadows ``tty``.
BARE_ECHO = r"""
import os, termios, tty
old = termios.tcgetattr(0)
tty.setcbreak(0)
os.write(1, b"\x1b[H\x1b[2Jkey=- n=0")
n = 0
try:
    while True:
        data = os.read(0, 64)
        if not data or data == b"q":
            break
        n += 1
        os.write(1, b"\x1b[1;1Hkey=" + data + b" n=%d\x1b[K" % n)
finally:
    termios.tcsetattr(0, termios.TCSADRAIN, old)
"""

#: Keys for the baselines: letters, never the quitting ``q``.
LETTERS = "abcdefghijklmnoprstuvwxyz"


def letter(_session: TtySession, i: int) -> Key:
    return LETTERS[i % len(LETTERS)]


def echo_ready(session: TtySession) -> bool:
    return session.row(0).startswith("key=- n=0 ")


def echo_reflected(session: TtySession, i: int, key: Key) -> bool:
    text = key.decode() if isinstance(key, bytes) else key
    return session.row(0).startswith(f"key={text} n={i + 1} ")


BASELINES: dict[str, list[str]] = {
    "echo": [sys.executable, str(ECHO_APP)],
    "bare": [sys.executable, "-I", "-c", BARE_ECHO],
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=300, help="measured keys (default 300)")
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured keys first")
    parser.add_argument("--only", choices=sorted(BASELINES), help="one baseline only")
    args = parser.parse_args(argv)
    names = [args.only] if args.only else ["echo", "bare"]
    for name in names:
        samples = measure_latency(
            BASELINES[name],
            letter,
            echo_ready,
            echo_reflected,
            args.n,
            warmup=args.warmup,
            quit_key="q",
        )
        print(f"{name:5} {summarize(samples).format()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
