"""The local terminal: the endpoint (``terminal/endpoint.py``) for the terminal the game
runs in, the only code that touches its file descriptors, termios and the process's
signals.

A ``LocalEndpoint`` takes the terminal (full screen, cbreak, hidden cursor, bracketed paste,
the kitty keyboard protocol where the terminal has it, flow control off) and gives it back
on every way out, as far as a terminal that has gone allows. It reads the keyboard itself,
``READ_SIZE`` bytes at a time as the loop finds them waiting, and hands them to the
endpoint's decoder (bounded work whatever arrives; blessed never reads the keyboard:
``GameTerminal``). A frame is written in one go, through the terminal opened again,
non-blocking, for the game alone: what the terminal cannot take yet waits for it, and no
frame is drawn meanwhile, so the loop (keys, the clock, signals, quit) never waits for a
terminal that stops reading. Ctrl-Z gives the terminal back, stops, and takes it again on
``fg``, where something can ``fg`` it (``can_stop``: a shell with job control). Signals
become the listener's: the end with the shell's status (128 plus the signal), a resize, a
stop, a continue.

A terminal type that cannot move the cursor (``TERM=dumb``) is asked nothing at all and not
played on (``unfit_terminal``). A terminal without an alternate screen is left blank on the
way out.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import os
import select
import signal
import sys
import termios
from collections.abc import Callable
from types import FrameType
from typing import Any

from blessed import Terminal

from stress_tui.terminal.draw.theme import terminal_encoding
from stress_tui.terminal.endpoint import (
    KITTY_FLAGS,
    Endpoint,
    Listener,
    no_color_hidden,
    questions,
)
from stress_tui.terminal.keyinput import READ_SIZE
from stress_tui.terminal.lang import _

EXIT_QUIT = 0
EXIT_CRASH = 1
EXIT_NOT_A_TERMINAL = 2
EXIT_SIGHUP = 128 + signal.SIGHUP
EXIT_SIGINT = 128 + signal.SIGINT
EXIT_SIGTERM = 128 + signal.SIGTERM
EXIT_SIGQUIT = 128 + signal.SIGQUIT
EXIT_SIGPIPE = 128 + signal.SIGPIPE

CANNOT_DRAW = frozenset({"dumb"})
"""Terminal types that say they cannot move the cursor (nor answer a question)."""

GONE = (errno.EIO, errno.EPIPE, errno.ENXIO, errno.EBADF)
"""Errors that mean the terminal is no longer there."""

CANCEL = b"\x18"
"""CAN: ends an escape sequence cut short (the rest of a frame thrown away)."""

BRACKETED_PASTE_ON = "\x1b[?2004h"
BRACKETED_PASTE_OFF = "\x1b[?2004l"


class GameTerminal(Terminal):
    """blessed's ``Terminal``, whose keyboard the game reads itself.

    blessed reads the keyboard only while it is made (its own questions, bounded); after
    that, ``kbhit`` says no key is waiting, so that ``inkey(timeout=0)`` resolves only the
    text the endpoint hands it (``ungetch``) and never reads a byte past the endpoint's
    bounds (blessed's own reading costs time growing with the square of a burst)."""

    made = False
    """Whether blessed is done making it (and so done reading the keyboard)."""

    def kbhit(self, timeout: float | None = None) -> bool:
        if self.made:
            return False
        return super().kbhit(timeout)


def unfit_terminal() -> str | None:
    """Why the terminal ``TERM`` names cannot show the table (``None``: it can), told
    without asking the terminal anything."""
    kind = os.environ.get("TERM", "")
    if kind in CANNOT_DRAW:
        return _(
            "TERM={kind}: this terminal cannot move its cursor, and the table needs to "
            "(play in a terminal emulator, or set TERM to the terminal's type)"
        ).format(kind=kind)
    return None


def make_terminal() -> tuple[GameTerminal, bool]:
    """A ``Terminal`` for the game, and whether colour may be used (not with ``NO_COLOR``,
    which the game honours itself: ``endpoint.no_color_hidden``)."""
    with no_color_hidden() as colour:
        term = GameTerminal()
    term.made = True
    return term, colour


def on_a_terminal() -> bool:
    """Whether standard input and output are both a terminal (one to play on)."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def local_endpoint(pipe_ends: bool = True) -> tuple[LocalEndpoint, bool]:
    """The endpoint for the terminal the game runs in (``LocalEndpoint``), and whether
    colour may be used."""
    term, colour = make_terminal()
    return LocalEndpoint(term, pipe_ends), colour


def _no_flow_control() -> None:
    """Turn off XON/XOFF in the keyboard's terminal (cbreak leaves it on), so that Ctrl-S,
    next to player 1's S, cannot stop the screen, and keep input on a signal key (NOFLSH);
    the mode cbreak saved puts both back."""
    fd = sys.stdin.fileno()
    attrs = termios.tcgetattr(fd)
    attrs[0] &= ~(termios.IXON | termios.IXOFF)
    # Keep unread input when Ctrl-C, Ctrl-\ or Ctrl-Z raise their signal: flushing it can
    # leave blessed blocked reading a byte it saw waiting, with the signal never handled.
    attrs[3] |= termios.NOFLSH
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


def _output_fd() -> tuple[int, bool]:
    """The terminal opened again for writing frames, non-blocking, a file description of
    the game's own (standard output's flags, shared with the shell and maybe left
    non-blocking by another program, are not touched); standard output itself, and
    ``False``, where that cannot be done."""
    out = sys.stdout.fileno()
    try:
        flags = os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC
        return os.open(os.ttyname(out), flags), True
    except OSError:
        return out, False


def _writable(fd: int) -> bool:
    """Whether the terminal would take output now."""
    try:
        return bool(select.select([], [fd], [], 0)[1])
    except (OSError, ValueError):
        return True


class LocalEndpoint(Endpoint):
    """The game's hold on the terminal it runs in."""

    def __init__(self, term: Terminal, pipe_ends: bool = True) -> None:
        super().__init__(term, terminal_encoding())
        self.pipe_ends = pipe_ends
        """Whether SIGPIPE ends the game (141). At one keyboard the game writes only to its
        terminal, so a SIGPIPE can only come from outside (``kill -PIPE``), a request to
        stop. At a network table it stays ignored, as Python starts it: there it means a
        write to a connection whose other end has gone, which ends that connection alone
        (its write fails with ``EPIPE``), never the program."""
        self.in_fd = sys.stdin.fileno()
        """Where keys are read."""
        self.out_fd, self.own_fd = _output_fd()
        """Where frames are written: the terminal opened again, non-blocking, for this
        endpoint alone (``own_fd``), or standard output if that cannot be done."""
        self.backlog: memoryview | None = None
        """The rest of a frame the terminal has not taken yet (``None``: all taken)."""
        self.modes: contextlib.ExitStack | None = None
        """The terminal modes taken (``None``: the terminal is not ours now)."""
        self.asked = False
        """Whether the start-up questions have been asked (once a run)."""
        self.caught: list[signal.Signals] = []
        """The signals handled on the loop."""
        self.previous: dict[signal.Signals, Callable[[int, FrameType | None], Any] | int | None]
        self.previous = {}
        """What each of them did before (put back by ``stop``)."""
        self.reading = False

    @property
    def is_open(self) -> bool:
        return self.modes is not None

    def size(self) -> tuple[int, int]:
        """The terminal's width and height (asked of the kernel)."""
        return self.term.width, self.term.height

    # ------------------------------------------------------------------ modes

    async def open(self, ask_background: bool) -> None:
        """Full screen, cbreak, hidden cursor, bracketed paste, kitty keys (all undone by
        ``close``); the start-up questions asked the first time."""
        self.take_modes()
        self.start_reading()
        if not self.asked:
            self.asked = True
            await self.ask(questions(ask_background))
        if self.answers.kitty is not None:
            self.enter_kitty()

    def take_modes(self) -> None:
        term = self.term
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(term.fullscreen())
            if not term.enter_fullscreen:  # no alternate screen (TERM=linux, vt100)
                stack.callback(self.clean_screen)  # the table must not stay behind
            stack.enter_context(term.cbreak())
            _no_flow_control()
            stack.enter_context(term.hidden_cursor())
            self.put(BRACKETED_PASTE_ON)
            stack.callback(self.put, BRACKETED_PASTE_OFF)
        except BaseException:
            stack.close()
            raise
        self.modes = stack

    def enter_kitty(self) -> None:
        """The kitty keyboard protocol's flags set, the terminal's own put back on leaving."""
        assert self.modes is not None and self.answers.kitty is not None
        self.put(f"\x1b[={KITTY_FLAGS};1u")
        self.modes.callback(self.put, f"\x1b[={self.answers.kitty};1u")

    def put(self, text: str) -> None:
        """Write a mode's sequence through blessed's stream (as its own modes are)."""
        self.term.stream.write(text)
        self.term.stream.flush()

    def send_questions(self, asked: str) -> bool:
        """Ask (where the terminal's type can take escape sequences)."""
        if not self.term.does_styling:
            return False
        self.put(asked)
        return True

    def close(self) -> None:
        """Put the terminal back as it was (as far as a terminal that has gone allows),
        and let go of the terminal opened for output.

        A terminal that has stopped reading gets its untaken output thrown away first, a
        sequence cut short ended (CAN), so that putting it back neither blocks nor is
        garbled; one whose output cannot be written even so is left as it is, but its
        modes (termios) are put back all the same."""
        try:
            self.leave()
        finally:
            self.drop_backlog()
            if self.own_fd:
                with contextlib.suppress(OSError):
                    os.close(self.out_fd)
                self.own_fd = False

    def leave(self) -> None:
        """Give the terminal's modes back (it may be taken again: ``open``)."""
        self.stop_reading()
        stack, self.modes = self.modes, None
        if stack is None:
            return
        if self.backlog is not None or not _writable(self.out_fd):
            self.drop_backlog()
            # termios.error is not an OSError: a window closed meanwhile made this flush
            # fail with EIO, and the game exit 1 as if by a bug (1 closing in 25 under load).
            with contextlib.suppress(OSError, termios.error):
                termios.tcflush(self.out_fd, termios.TCOFLUSH)
                os.write(self.out_fd, CANCEL)
        try:
            stack.close()
        except (OSError, termios.error) as error:  # termios.error's first arg: the errno
            if (error.args or (None,))[0] not in (*GONE, errno.EAGAIN):
                raise

    def clean_screen(self) -> None:
        """Leave a blank screen, the cursor at its top (where the table was drawn on the
        terminal's only screen, the shell's prompt would land in the middle of it)."""
        self.put(self.term.normal + self.term.clear)

    def can_stop(self) -> bool:
        """Whether a stopped game would be brought back: it is the terminal's foreground
        job, started by a shell with job control. Such a shell puts the game in a process
        group of its own and stays, in another group of the same session, to ``fg`` it;
        where nothing of the session is outside the game's group (``kitty stress-tui``,
        ``tmux new stress-tui``, ``ssh -t host stress-tui``: the game leads its session, or
        its shell has no job control), the group is orphaned (POSIX) and nothing would
        ever send it SIGCONT."""
        try:
            group = os.getpgrp()
            if os.tcgetpgrp(self.in_fd) != group:
                return False
            parent = os.getppid()
            return os.getsid(parent) == os.getsid(0) and os.getpgid(parent) != group
        except OSError:
            return False

    def suspend(self) -> None:
        """Give the terminal back and stop; here again after SIGCONT, with it taken back."""
        self.leave()
        os.kill(os.getpid(), signal.SIGSTOP)
        self.take_modes()
        if self.answers.kitty is not None:
            self.enter_kitty()
        self.start_reading()

    # ------------------------------------------------------------------ signals, keys

    def listen(
        self, loop: asyncio.AbstractEventLoop, listener: Listener, guard: Callable[..., None]
    ) -> None:
        """Tell ``listener`` of the signals from now on, and of the keys once the terminal
        is taken (``open``)."""
        super().listen(loop, listener, guard)
        handlers: dict[signal.Signals, Callable[[], None]] = {
            signal.SIGINT: functools.partial(self.ended, EXIT_SIGINT),
            signal.SIGTERM: functools.partial(self.ended, EXIT_SIGTERM),
            signal.SIGHUP: functools.partial(self.ended, EXIT_SIGHUP),
            signal.SIGQUIT: functools.partial(self.ended, EXIT_SIGQUIT),
            signal.SIGWINCH: listener.resize,
            signal.SIGTSTP: listener.suspend,
            signal.SIGCONT: listener.resume,
        }
        if self.pipe_ends:
            handlers[signal.SIGPIPE] = functools.partial(self.ended, EXIT_SIGPIPE)
        for sig, callback in handlers.items():
            self.previous[sig] = signal.getsignal(sig)
            loop.add_signal_handler(sig, guard, callback)
            self.caught.append(sig)

    def ended(self, code: int) -> None:
        if self.listener is not None:
            self.listener.end(code)

    def stop(self) -> None:
        """Stop handling the signals and reading the keyboard."""
        self.stop_reading()
        if self.loop is not None:
            for sig in self.caught:
                self.loop.remove_signal_handler(sig)  # which leaves it at SIG_DFL
                previous = self.previous.pop(sig, None)
                if previous is not None:
                    signal.signal(sig, previous)  # as it was (SIGPIPE ignored, as Python has it)
        self.caught = []
        super().stop()

    def start_reading(self) -> None:
        if self.loop is not None and not self.reading:
            self.reading = True
            self.loop.add_reader(self.in_fd, self.guard, self.read)
            if self.decoder.ready:
                self.loop.call_soon(self.guard, self.turn)

    def stop_reading(self) -> None:
        if self.loop is not None and self.reading:
            self.reading = False
            self.loop.remove_reader(self.in_fd)

    def read(self) -> None:
        """The keyboard has bytes: read one block (the loop comes back for the rest)."""
        try:
            data = os.read(self.in_fd, READ_SIZE)
        except BlockingIOError:
            return
        except OSError as error:
            if error.errno not in GONE:
                raise
            data = b""
        if not data:  # the keyboard's end: the terminal has gone, as on a hangup
            self.stop_reading()
            self.ended(EXIT_SIGHUP)
            return
        self.received(data)

    # ------------------------------------------------------------------ frames

    @property
    def busy(self) -> bool:
        return self.backlog is not None

    def write(self, text: str) -> bool:
        """Write ``text`` to the terminal without waiting for it; ``False`` if the terminal
        has gone. What the terminal cannot take yet is kept and written as it takes it
        (``busy`` meanwhile)."""
        data = text.encode(self.encoding, "replace")
        try:
            written = os.write(self.out_fd, data)
        except BlockingIOError:
            written = 0
        except OSError as error:
            if error.errno in GONE:  # the terminal has gone away: as good as a hangup
                return False
            raise
        if written < len(data):
            self.backlog = memoryview(data)[written:]
            assert self.loop is not None
            self.loop.add_writer(self.out_fd, self.guard, self.drain)
        self.bytes_written += len(data)
        self.frames_written += 1
        return True

    def drain(self) -> None:
        """The terminal takes output again: write it what is left of the frame."""
        backlog = self.backlog
        if backlog is None:
            return
        try:
            written = os.write(self.out_fd, backlog)
        except BlockingIOError:
            return
        if written < len(backlog):
            self.backlog = backlog[written:]
            return
        self.drop_backlog()
        if self.on_drained is not None:
            self.on_drained()

    def drop_backlog(self) -> None:
        """Forget what is left of a frame (the terminal is left, or has stopped reading)."""
        if self.backlog is not None:
            self.backlog = None
            if self.loop is not None:
                self.loop.remove_writer(self.out_fd)
