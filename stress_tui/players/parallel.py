"""Work done in several processes at once, its results given back in order: the
simulator's rounds with ``--jobs``.

This process and its worker processes are given pieces of work by their index, a chunk
at a time; each worker sends its results back, and the results come out in the order of
the indices, however many processes did them. Ctrl-C is this process's to answer: the
workers ignore it and are ended with the run.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, TypeVar

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


def free_cores(cores: int | None = None, load: float | None = None) -> int:
    """The cores no other work is using: ``cores`` (default: those this process may run
    on) less ``load`` (default: the load average over the last minute, the processes
    running or waiting to), rounded, and at least 1. Where the load average is not known,
    every core counts as free.

    >>> free_cores(2, 0.3), free_cores(2, 1.0), free_cores(2, 6.5), free_cores(8, 2.6)
    (2, 1, 1, 5)
    """
    if cores is None:
        cores = available_cores()
    if load is None:
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):  # no load average here (Windows)
            return cores
    return max(1, min(cores, round(cores - load)))


def _work(work: Callable[[int], T], count: int, conn: Connection, parents: list[int]) -> None:
    """A worker process: do the chunks of work the parent sends (their first index), send
    each chunk's results back, until told to stop (``None``) or the parent is gone.
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
            conn.send((start, results))
    except (EOFError, OSError):  # the parent is gone: nobody is left to tell
        return


def in_order(work: Callable[[int], T], count: int, jobs: int) -> Iterator[T]:
    """``work(0) .. work(count - 1)`` in their order, done by ``jobs`` processes: this one
    and ``jobs - 1`` worker processes, in chunks of ``CHUNK``. Each worker is given the
    next chunk as it sends one back (and one ahead, so that it never waits for this
    process); this process plays a chunk itself whenever no worker has one to send back.
    ``work`` must pickle where the workers are started afresh (not Linux). The workers
    are ended when the iterator is closed or dropped, at the end or on Ctrl-C.

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
                    start, results = sent.recv()
                except EOFError:
                    raise RuntimeError("a worker process ended") from None
                if isinstance(results, Exception):
                    raise results
                done[start] = results
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
