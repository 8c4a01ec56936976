"""The program's edge: ``stress-tui ARGS`` runs the command they name and gives its exit
status; standard output guarded for the commands; anything wrong one line.

``stress-tui [flags]`` plays; each named command (``sim``, ``replay``, ``stats``,
``daily``, ``host``, ``join``, ``watch``) is a module of ``cli/commands/``, listed in
``cli.commands.COMMANDS``, loaded only when asked for. Every setting comes from a flag if
one is given, else from the config file, else from the deck's defaults
(``cli.settings``). Anything wrong (a flag, a combination, a config entry) is reported as
one line, ``stress-tui: WHERE: problem``, with exit status 2 (``cli.errors``).

``--version`` loads nothing but this module; ``--help`` only what its text is made from
(the house-rule table). ``tests/test_startup.py`` checks what each loads;
``bench/startup.py`` times them against ``python -c pass``.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import gc
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from stress_tui import __version__

VERSION = f"stress-tui {__version__}"
"""What ``--version`` prints."""

EXIT_SIGINT = 130
"""A command stopped by Ctrl-C (128 + SIGINT's 2, as a shell reports it)."""

EXIT_PIPE = 141
"""Standard output was a pipe closed by its reader (128 + SIGPIPE's 13, what a shell
reports for a program that SIGPIPE ended, as git and the coreutils are): nothing more is
said."""

EXIT_HANGUP = 129
"""Standard output was a terminal that has gone (128 + SIGHUP's 1, as a hangup): nobody is
left to read a line, so none is written."""

_GONE = (errno.EIO, errno.ENXIO)
"""What writing to a terminal that has closed fails with."""


# --------------------------------------------------------------------------- output


def _escaped(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: the characters an encoding lacks as escapes that TOML and
    JSON read back (``\\u00EB``), so that ``--print-config`` stays a config file."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    from stress_tui.core.text import escape

    return "".join(escape(c) for c in error.object[error.start : error.end]), error.end


codecs.register_error("stress-tui-escape", _escaped)


class _OutputFailed(Exception):
    """Standard output could not be written; ``error`` says why."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class _Output:
    """Standard output for the commands (not the game, which owns the terminal): a
    character its encoding lacks (an ASCII-only locale) is written as an escape
    (``\\u00EB``) instead of failing, and a write that fails raises ``_OutputFailed``,
    told apart from every other error."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            try:
                return self.stream.write(text)
            except UnicodeEncodeError:
                encoding = getattr(self.stream, "encoding", None) or "ascii"
                safe = text.encode(encoding, "stress-tui-escape").decode(encoding)
                return self.stream.write(safe)
        except OSError as error:
            raise _OutputFailed(error) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as error:
            raise _OutputFailed(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextlib.contextmanager
def terminal_output() -> Iterator[None]:
    """Standard output as it is, for the game and the replay viewer, which own it."""
    guarded = sys.stdout
    if isinstance(guarded, _Output):
        sys.stdout = guarded.stream
    try:
        yield
    finally:
        sys.stdout = guarded


def _output_failed(error: OSError, stream: TextIO) -> int:
    """Say (unless it is a pipe closed by its reader) that standard output could not be
    written; point it at the null device, so that nothing tries again at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    if error.errno == errno.EPIPE:
        return EXIT_PIPE
    if error.errno in _GONE:  # the game's last bytes after its window closed, say
        return EXIT_HANGUP
    from stress_tui.cli.errors import EXIT_OUTPUT, _, say

    words = (error.strerror or str(error)).lower()
    say(_("cannot write the output: {why}").format(why=words))
    return EXIT_OUTPUT


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    """Run ``stress-tui`` with ``argv`` (default: the process's arguments); return the exit
    status. Never raises for bad input: that is one line on stderr and status 2. Output
    that cannot be written is one line and status 1 (a closed pipe: no line, 141); Ctrl-C
    is status 130.

    Run as the program (``argv`` not given), it leaves every object there is to the
    interpreter's exit as it is: frozen (``gc.freeze``), so that the collections at exit
    do not walk them all again, the better part of what a Ctrl-C once answered still
    cost (``bench/input_bounds.py``)."""
    stream = sys.stdout
    sys.stdout = _Output(stream)
    try:
        status = _answer(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()
        return status
    except _OutputFailed as failed:
        return _output_failed(failed.error, stream)
    except KeyboardInterrupt:
        return EXIT_SIGINT
    finally:
        sys.stdout = stream
        if argv is None:
            gc.freeze()


def _answer(argv: list[str]) -> int:
    """What ``main`` does, its output aside."""
    if argv in (["--version"], ["-V"]):  # answered without making the flags (the rule table)
        print(VERSION)
        return 0
    from stress_tui.cli.errors import EXIT_USAGE, UsageError, say
    from stress_tui.cli.parser import Answered

    try:
        return _run(argv)
    except Answered as done:
        return done.status
    except (UsageError, _config_error()) as error:  # looked up only when one is raised
        say(str(error))
        return EXIT_USAGE


def _run(argv: list[str]) -> int:
    """Parse ``argv`` and run the command it names (the game if none)."""
    from stress_tui.cli.commands import PLAY, command
    from stress_tui.cli.parser import build, check_options, played, speak

    flagged = speak(argv)
    parser, commands = build(argv)
    argv = list(played(argv))
    check_options(parser, commands, argv)
    args = parser.parse_args(argv)
    chosen = command(args.command or PLAY)
    run: Callable[[Any, bool], int] = chosen.run
    return run(args, flagged)


def _config_error() -> type[Exception]:
    from stress_tui.cli.config import ConfigError

    return ConfigError


if __name__ == "__main__":
    sys.exit(main())
