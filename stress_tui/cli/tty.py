"""The terminal a command reads and writes: whether there is one (a game needs one), how
wide its output is, and how many columns a text takes on it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from stress_tui.cli.errors import _, say


def is_terminal() -> bool:
    """Whether stdin and stdout are a terminal the game can drive (a Unix one)."""
    if not has_termios():
        return False
    try:
        return all(stream is not None and stream.isatty() for stream in (sys.stdin, sys.stdout))
    except ValueError:  # a closed stream
        return False


def no_terminal() -> bool:
    """Whether a full-screen command must give up, there being no Unix terminal on this
    system or its input or output redirected; if so, the one line that says why has been
    said (the command then exits with status 2)."""
    if is_terminal():
        return False
    if not has_termios():
        say(
            _(
                "needs a Unix terminal: Linux, macOS or a BSD (on Windows, WSL works); the "
                "other commands (sim, stats, replay --list and --verify) work here"
            )
        )
    else:
        say(_("not a terminal (stdin and stdout must be a terminal to play; try --help)"))
    return True


def has_termios() -> bool:
    """Whether this system has the terminal control the game drives the screen with (not
    Windows outside WSL)."""
    try:
        import termios  # noqa: F401
    except ImportError:
        return False
    return True


def output_width() -> int | None:
    """The columns of the terminal the output goes to (``COLUMNS`` if set); ``None`` when
    it goes to a file or a pipe and nobody said."""
    import shutil

    if os.environ.get("COLUMNS", "").strip().isdigit():
        return max(20, int(os.environ["COLUMNS"]))
    try:
        if sys.stdout is not None and sys.stdout.isatty():
            return shutil.get_terminal_size().columns
    except ValueError:
        pass
    return None


def display_width() -> Callable[[str], int]:
    """How many columns a text takes on a terminal (blessed's ``length``: a CJK character
    two), without asking the terminal anything."""
    import io

    from blessed import Terminal

    return Terminal(kind="dumb", stream=io.StringIO(), force_styling=False).length
