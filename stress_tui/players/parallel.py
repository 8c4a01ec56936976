"""Work done in several processes at once, its results given back in order: the
simulator's rounds with ``--jobs``.

This process and its worker processes are given pieces of work by their index, a chunk
at a time; each worker sends its results back, and the results come out in the order of
the indices, however many processes did them. Ctrl-C is this process's to answer: the
workers ignore it and are ended with the run.

A run may be told to play on no more cores than are free (``when_busy``): it starts its
workers at once, measures over its first ``SAMPLE`` seconds how many cores are free for it
(``/proc/stat``'s idle time, and the CPU its own processes took meanwhile), and gives the
workers that are too many no more work; where ``/proc/stat`` cannot be read (not Linux),
the load average decides before the workers start.
"""

from __future__ import annotations

import gc
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, NamedTuple, TypeVar

if TYPE_CHECKING:  # multiprocessing loads when work is first shared (it loads socket)
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkContext, SpawnContext
    from multiprocessing.process import BaseProcess

T = TypeVar("T")

CHUNK = 8
"""Pieces of work (rounds of the simulator) a worker process does at a time: few enough
that no process waits long for the last ones, enough that passing them costs little."""


def available_cores() -> int:
    """The cores this process may run on (at least 1)."""
    count: Callable[[], int | None] | None = getattr(os, "process_cpu_count", None)
    if count is not None:  # Python 3.13 and later
        return count() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


SAMPLE = 0.1
"""Seconds over which a run that plays on the free cores only (``when_busy``) measures how
many are free, its processes playing meanwhile: about 20 clock ticks of two cores."""

STAT = "/proc/stat"
"""Where Linux says how much time every core has spent idle and busy."""

STAT_LIMIT = 65_536
"""The most of ``STAT`` read: its cores' lines come first, a few kB on a large machine."""

_NUMBER = re.compile(r"[0-9]{1,20}")
_CORE_LINE = re.compile(r"cpu[0-9]{1,9} ")


class Ticks(NamedTuple):
    """The time all the cores have spent since the machine started, in clock ticks."""

    idle: int
    """Idle, or waiting for input or output: free for work."""
    total: int
    """All of it."""
    cores: int
    """The cores counted."""


def read_ticks(text: str) -> Ticks | None:
    """The ticks of ``/proc/stat``'s ``text``: its first line (``cpu``, then the ticks
    spent in user, nice, system, idle, iowait, irq, softirq, steal, and guest time that is
    already in user and nice) and its lines of one core each (``cpu0``, ``cpu1``, ...).
    None where ``text`` is not that: it comes from outside, and a wrong figure would only
    make the simulator slower.

    >>> read_ticks("cpu  10 0 5 80 5 0 0 0 0 0\\ncpu0 5 0 2 40 3 0 0 0 0 0\\ncpu1 5 0 3 40 2")
    Ticks(idle=85, total=100, cores=2)
    >>> read_ticks("cpu  10 0 5 -80\\ncpu0 1 1 1 1"), read_ticks("intr 1 2 3 4")
    (None, None)
    """
    lines = text.split("\n")
    name, *fields = lines[0].split(" ")
    fields = [field for field in fields if field]  # the first line pads its name
    if name != "cpu" or len(fields) < 4 or not all(map(_NUMBER.fullmatch, fields)):
        return None
    ticks = [int(field) for field in fields[:8]]
    cores = sum(1 for line in lines[1:] if _CORE_LINE.match(line))
    if cores == 0:
        return None
    return Ticks(sum(ticks[3:5]), sum(ticks), cores)


def idle_cores(before: Ticks | None, after: Ticks | None) -> float | None:
    """The cores idle on average between two readings (two cores, one of them idle: 1.0).
    None where a reading is missing or the two do not fit together (no tick between them,
    another number of cores, a count that went back).

    >>> idle_cores(Ticks(85, 100, 2), Ticks(95, 120, 2))
    1.0
    >>> idle_cores(Ticks(85, 100, 2), Ticks(85, 100, 2)), idle_cores(None, Ticks(1, 2, 1))
    (None, None)
    """
    if before is None or after is None or before.cores != after.cores:
        return None
    idle, total = after.idle - before.idle, after.total - before.total
    if total <= 0 or not 0 <= idle <= total:
        return None
    return after.cores * idle / total


def stat_ticks() -> Ticks | None:
    """The ticks of ``STAT`` now; None where it cannot be read (not Linux) or makes no
    sense."""
    try:
        with open(STAT, "rb") as file:
            return read_ticks(file.read(STAT_LIMIT).decode("ascii", "replace"))
    except OSError:
        return None


def free_cores(cores: int, free: float) -> int:
    """``free`` cores, measured, as the processes to play on: rounded, at least 1 and at
    most ``cores`` (those this process may run on).

    >>> free_cores(2, 1.7), free_cores(2, 0.4), free_cores(2, 3.2), free_cores(8, 5.4)
    (2, 1, 2, 5)
    """
    return max(1, min(cores, round(free)))


def free_by_load(cores: int) -> int:
    """The ``cores`` less the load average over the last minute (the processes running or
    waiting to; it lags that minute behind), as ``free_cores``; where the machine has no
    load average (Windows), every core."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return cores
    return free_cores(cores, cores - load)


class _Sample:
    """The cores free for a run, measured from its start (``start``) to ``free``: those
    idle meanwhile, and those its own processes used (this one's CPU time, and each
    worker's, which it sends with each chunk)."""

    def __init__(self, start: Ticks) -> None:
        self.start = start
        self.wall = time.perf_counter()
        self.cpu = time.process_time()
        self.workers: dict[Connection, tuple[float, float]] = {}
        """Each worker's CPU seconds since it started, and when it said so."""

    def done(self, workers: int) -> bool:
        """Whether ``SAMPLE`` seconds have passed and each of the ``workers`` has said
        what it took (a worker that has not would count as idle)."""
        return len(self.workers) == workers and time.perf_counter() - self.wall >= SAMPLE

    def free(self) -> float | None:
        """The free cores, on average; None where ``STAT`` cannot be read again."""
        idle = idle_cores(self.start, stat_ticks())
        if idle is None:
            return None
        ours = (time.process_time() - self.cpu) / (time.perf_counter() - self.wall)
        return idle + ours + sum(cpu / (when - self.wall) for cpu, when in self.workers.values())


def _work(work: Callable[[int], T], count: int, conn: Connection, parents: list[int]) -> None:
    """A worker process: do the chunks of work the parent sends (their first index), send
    each chunk's results back with the CPU time this process has taken, until told to stop
    (``None``) or the parent is gone.
    ``parents``: the parent's ends of the pipes, this worker's and the earlier workers',
    where a forked worker holds copies of them; it closes them, so that a parent that
    ends without a word (kill -9) ends every pipe and each worker with it."""
    # Ctrl-C is the parent's to answer (it ends the workers): a worker never sees it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for fd in parents:
        os.close(fd)
    try:
        while (start := conn.recv()) is not None:
            try:
                results: list[T] | Exception = [
                    work(index) for index in range(start, min(start + CHUNK, count))
                ]
            except Exception as error:  # sent to the parent, which raises it
                results = error
            conn.send((start, results, time.process_time()))
    except (EOFError, OSError):  # the parent is gone: nobody is left to tell
        return


def in_order(
    work: Callable[[int], T],
    count: int,
    jobs: int,
    when_busy: Callable[[int], None] | None = None,
) -> Iterator[T]:
    """``work(0) .. work(count - 1)`` in their order, done by ``jobs`` processes: this one
    and ``jobs - 1`` worker processes, in chunks of ``CHUNK``. Each worker is given the
    next chunk as it sends one back (and one ahead, so that it never waits for this
    process); this process plays a chunk itself whenever no worker has one to send back.
    ``work`` must pickle where the workers are started afresh (not Linux). The workers
    are ended when the iterator is closed or dropped, at the end or on Ctrl-C.

    With ``when_busy``, no more processes play than there are cores free: after
    ``SAMPLE`` seconds, once each worker has sent a chunk back, the workers that are too
    many are given no more chunks (they wait for the end of the run); where
    ``/proc/stat`` cannot be read, fewer workers are started, as the load average says.
    ``when_busy`` is told the free cores when they are fewer than ``jobs``. The workers
    start at once rather than after the measure, so that on free cores the measure costs
    nothing, and on busy ones a worker's start and a tenth of a second shared with it.

    This process works too, rather than only hand out chunks, because a worker costs
    more than its start: on Linux a forked worker copies each page of this process it
    writes to (reference counts, at every object it touches), about 10 ms of CPU for
    the simulator's first rounds in each; and where the kernel shares the CPU between
    sessions rather than processes (``sched_autogroup``, on by default on many desktops),
    a machine whose every core is busy gives the processes of one command no more time
    together than it gives one, so that only what the workers cost is left to decide.
    """
    import multiprocessing
    from multiprocessing.connection import Connection, wait

    # Forked workers start at once with everything imported; elsewhere (macOS, Windows)
    # fork is unsafe or missing and each worker starts a fresh interpreter.
    if sys.platform.startswith("linux"):
        context: ForkContext | SpawnContext = multiprocessing.get_context("fork")
    else:
        context = multiprocessing.get_context("spawn")
    for stream in (sys.stdout, sys.stderr):  # a forked worker must not write them again
        if stream is not None:
            stream.flush()
    workers: list[tuple[BaseProcess, Connection]] = []
    finished = False
    sample = None
    if when_busy is not None:
        ticks = stat_ticks()
        if ticks is not None:
            sample = _Sample(ticks)
        elif (free := free_by_load(available_cores())) < jobs:
            when_busy(free)
            jobs = free
    try:
        # The workers are started with Ctrl-C ignored, so that one pressed before a
        # worker has set its own gives no traceback from it either; meanwhile it is held
        # back and reaches this process just after.
        # Everything made so far is frozen for the forked workers: their garbage
        # collector then never walks (and writes to) the pages they share with this
        # process, which would copy each page it touches into the worker.
        gc.freeze()
        try:
            with _CtrlCHeld():
                for _ in range(jobs - 1):
                    ours, theirs = context.Pipe()
                    parents = [conn.fileno() for _, conn in workers] + [ours.fileno()]
                    if context.get_start_method() != "fork":  # a fresh process holds none
                        parents = []
                    worker = context.Process(
                        target=_work, args=(work, count, theirs, parents), daemon=True
                    )
                    worker.start()
                    theirs.close()
                    workers.append((worker, ours))
        finally:
            gc.unfreeze()
        conns = [conn for _, conn in workers]
        playing = set(conns)  # the workers that are given chunks
        starts = iter(range(0, count, CHUNK))
        for conn in conns * 2:
            _give(conn, starts)
        done: dict[int, list[T]] = {}
        given = 0
        while given < count:
            # Chunks the workers have sent back; if none has, one played here (or, when
            # none is left to play, a wait for the workers').
            ready = wait(conns, 0) if conns else []
            if not ready:
                start = next(starts, None)
                if start is not None:
                    done[start] = [work(index) for index in range(start, min(start + CHUNK, count))]
                else:
                    ready = wait(conns)
            for sent in ready:
                assert isinstance(sent, Connection)
                try:
                    start, results, cpu = sent.recv()
                except EOFError:
                    raise RuntimeError("a worker process ended") from None
                if isinstance(results, Exception):
                    raise results
                done[start] = results
                if sample is not None and when_busy is not None:
                    sample.workers[sent] = (cpu, time.perf_counter())
                    if sample.done(len(conns)):  # before the worker is given more
                        measured = sample.free()
                        if measured is not None:
                            free = free_cores(available_cores(), measured)
                            if free < jobs:
                                when_busy(free)
                                playing.difference_update(conns[free - 1 :])
                        sample = None
                if sent in playing:
                    _give(sent, starts)
            while given in done:
                chunk = done.pop(given)
                given += len(chunk)
                yield from chunk
        for conn in conns:
            conn.send(None)  # done: each worker leaves on its own
        finished = True
    finally:
        with _CtrlCHeld(deliver=False):  # a second Ctrl-C must not stop the cleaning up
            for process, conn in workers:
                process.join(None if finished else 0)
                if process.is_alive():  # stopped early: ended from here
                    process.terminate()
                    process.join()
                conn.close()


def _give(conn: Connection, starts: Iterator[int]) -> None:
    """Send a worker the next chunk to play, if any is left."""
    start = next(starts, None)
    if start is not None:
        conn.send(start)


class _CtrlCHeld:
    """Within: SIGINT is ignored by this process and by the processes it starts; with
    ``deliver``, one that arrives meanwhile is held back (where the platform can) and
    delivered on leaving, else it is lost. Does nothing outside the main thread, where
    signals cannot be handled."""

    def __init__(self, deliver: bool = True) -> None:
        self.active = threading.current_thread() is threading.main_thread()
        self.mask = deliver and self.active and hasattr(signal, "pthread_sigmask")
        self.previous: Callable[..., object] | int | None = None

    def __enter__(self) -> None:
        if self.mask:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        if self.active:
            self.previous = signal.signal(signal.SIGINT, signal.SIG_IGN)

    def __exit__(self, *exc: object) -> None:
        if self.active:
            signal.signal(signal.SIGINT, self.previous)
        if self.mask:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
