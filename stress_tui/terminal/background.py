"""Work that may block on files, done off the event loop: the record's.

The record is a SQLite file that another program may hold locked for as long as it
likes (the ``sqlite3`` shell, a backup, a second game), and a long one takes a while to
read. ``Worker`` runs such jobs on a thread of its own, one at a time and in order (each
opens its own connection to the record, as SQLite asks of threads), and hands what each
returned back to the event loop, so the table goes on drawing and answering keys
whatever the record does. The thread is a daemon: quitting never waits for it (a round
not counted yet is counted at the next start: ``storage.pending``). Once the screen
closes it is told to stop (``stop``), and it ends when the jobs it was given are done, so
that a process that runs many games (the tests, a server) keeps no idle thread for each.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any

Job = tuple[Callable[[], Any], Callable[[Any], None]]


class Worker:
    """A thread that runs jobs in order and hands their results to the event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, guarded: Callable[..., None]) -> None:
        self.loop = loop
        """The event loop the results go to."""
        self.guarded = guarded
        """How a result is handed over on the loop (a crash in it ends the game)."""
        self.jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None

    def __call__(self, job: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run ``job`` on the thread; then ``done(result)`` on the loop."""
        if self.thread is None:
            self.thread = threading.Thread(
                target=self.run, args=(self.loop,), name="stress-tui record", daemon=True
            )
            self.thread.start()
        self.jobs.put((job, done))

    def stop(self) -> None:
        """No more jobs: the thread ends once those given are done."""
        if self.thread is not None:
            self.jobs.put(None)

    def run(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            item = self.jobs.get()
            if item is None:
                return
            job, done = item
            try:
                handover: tuple[Callable[[Any], None], Any] = (done, job())
            except Exception as error:  # a bug: the game ends with it, on its loop
                handover = (_raise, error)
            try:
                loop.call_soon_threadsafe(self.guarded, *handover)
            except RuntimeError:  # the loop has closed: the game is over
                return


def _raise(error: BaseException) -> None:
    raise error
