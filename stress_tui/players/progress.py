"""What a run of the simulator (``players/sim.py``) says on the terminal while it plays:
its progress bar, and the line that says it plays on fewer cores than ``--jobs`` asked for
because fewer are free."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from stress_tui.core.text import N_, Say


class ProgressBar:
    """A progress bar drawn on one line of ``stream`` (a terminal), wiped when done."""

    def __init__(self, stream: TextIO, _: Say = N_) -> None:
        self.stream = stream
        """Where it is drawn."""
        self.say = _
        """How its words are said."""
        self.drawn = 0
        """How many characters wide the line drawn last is (0: nothing on it)."""

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // total if total else width
        _ = self.say
        rounds = _("{done}/{total} rounds").format(done=done, total=total)
        text = f"[{'#' * filled}{'.' * (width - filled)}] {rounds}"
        if done >= total:
            self.wipe()
            return
        self.stream.write("\r" + text)
        self.stream.flush()
        self.drawn = len(text)

    def wipe(self) -> None:
        """Leave the line empty."""
        if self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()
            self.drawn = 0


def progress_bar(stream: TextIO, _: Say = N_) -> ProgressBar:
    """A progress bar drawn on one line of ``stream`` (a terminal), wiped when done."""
    return ProgressBar(stream, _)


def fewer_cores_said(
    jobs: int | None, _: Say = N_, progress: ProgressBar | None = None
) -> Callable[[int], None]:
    """What a command asked for ``--jobs`` (``jobs``; None: not given) says when fewer
    cores are free (``simulate``'s ``when_busy``): one line on stderr, once for each number
    of free cores (``--rate-levels`` plays many runs), its words said with ``_``; without
    ``--jobs``, nothing."""
    said: set[int] = set()

    def say(free: int) -> None:
        if jobs is None or free in said:
            return
        said.add(free)
        if progress is not None:
            progress.wipe()
        line = _("--jobs {jobs}: {free} of the cores free now, playing on {free}")
        print(line.format(jobs=jobs, free=free), file=sys.stderr)

    return say
