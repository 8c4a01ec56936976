"""What every command says the same way: a complaint is one line on stderr,
``stress-tui: WHERE: problem``, and a bad flag, combination or config entry leaves with
status 2; the player's language it is said in."""

from __future__ import annotations

import contextlib
import sys

PROG = "stress-tui"
"""The program's name, at the start of every error line."""

EXIT_USAGE = 2
"""The exit status for any bad flag, combination or config entry (and no terminal)."""

EXIT_OUTPUT = 1
"""Standard output (or a file a command reads) could not be used otherwise (a full disk, a
lock held past the wait): one line says why."""

MAX_LINE = 1000
"""The longest an error line may be, in characters, whatever it echoes."""

CONFIG_VAR = "STRESS_TUI_CONFIG"
"""The environment variable that names another config file (``config.ENV_VAR``)."""

DATA_VAR = "STRESS_TUI_DATA_DIR"
"""The environment variable that names another data folder (``storage.files``)."""


class UsageError(ValueError):
    """A bad flag or combination; the text is the whole complaint (``--row: ...``)."""


def _(text: str) -> str:
    """``text`` in the player's language (``terminal.lang``, loaded when first asked)."""
    from stress_tui.terminal.lang import _ as translated

    return translated(text)


def said(error: BaseException) -> str:
    """An error's text in the player's language (a ``core.text.Problem`` is said so)."""
    from stress_tui.core.text import said as said_in

    return said_in(error, _)


def say(message: str) -> None:
    """One error line on stderr: ``stress-tui: MESSAGE``, harmless to the terminal and
    cut to ``MAX_LINE`` characters, whatever it echoes."""
    from stress_tui.core.text import harmless

    with contextlib.suppress(OSError):  # stderr itself gone: nothing left to tell
        print(f"{PROG}: {harmless(message, MAX_LINE)}", file=sys.stderr)


def not_with_command(flag: str, command: str) -> UsageError:
    """``flag`` given to ``command``, which has no use for it."""
    return UsageError(
        _("{flag}: not with the {command} command").format(flag=flag, command=command)
    )
