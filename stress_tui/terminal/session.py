"""The terminal session: the terminal's modes, its signals, the keys read from it and the
frames written to it.

A ``Session`` takes the terminal (full screen, cbreak, hidden cursor, the kitty keyboard
protocol, flow control off) and gives it back on every way out, as far as a terminal that
has gone allows. One task reads the keyboard (``read_keys``); a flood of input larger than
any typing is discarded. A frame is written in one go (inside a synchronized update where
the terminal has them), through the terminal opened again, non-blocking, for the game
alone: what the terminal cannot take yet waits for it, and no frame is drawn meanwhile, so
the loop (keys, the clock, signals, quit) never waits for a terminal that stops reading.
Ctrl-Z gives the terminal back, stops, and takes it again on ``fg``, where something can
``fg`` it (``can_stop``: a shell with job control).

The game asks a terminal where its cursor is before anything else, and asks nothing more
of one that does not answer (``answers_questions``); a terminal type that cannot move the
cursor (``TERM=dumb``) is asked nothing at all and not played on (``unfit_terminal``). A
terminal without an alternate screen is left blank on the way out.

The exit statuses are the shell's: 128 plus the signal that ended the game.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import errno
import os
import select
import signal
import sys
import termios
from collections.abc import Callable

from blessed import Terminal
from blessed.keyboard import Keystroke

from stress_tui.terminal.lang import _

EXIT_QUIT = 0
EXIT_CRASH = 1
EXIT_NOT_A_TERMINAL = 2
EXIT_SIGHUP = 128 + signal.SIGHUP
EXIT_SIGINT = 128 + signal.SIGINT
EXIT_SIGTERM = 128 + signal.SIGTERM
EXIT_SIGQUIT = 128 + signal.SIGQUIT
EXIT_SIGPIPE = 128 + signal.SIGPIPE

ESC_DELAY = 0.03
"""Seconds to wait after Esc for the rest of a sequence. blessed's 0.35 s also holds up
every key behind a sequence it does not know (a paste, a mouse report); a terminal sends
a whole sequence at once, and 30 ms covers a slow link."""

FLOOD = 512
"""Characters read ahead past which the input is a flood (a paste, a stuck key repeating
into a slow terminal), not typing: it is discarded, since blessed reads a burst in time
that grows with the square of its length."""

QUERY_TIMEOUT = 0.5
"""Seconds to wait for the terminal to answer a question (kitty keyboard, sync output)."""

PROBE_TIMEOUT = 0.2
"""Seconds to wait for the first question, where the cursor is: a terminal that does not
answer it is asked nothing more, so that it starts within a second."""

CANNOT_DRAW = frozenset({"dumb"})
"""Terminal types that say they cannot move the cursor (nor answer a question)."""

GONE = (errno.EIO, errno.EPIPE, errno.ENXIO, errno.EBADF)
"""Errors that mean the terminal is no longer there."""

CANCEL = b"\x18"
"""CAN: ends an escape sequence cut short (the rest of a frame thrown away)."""

_SYNC_BEGIN = "\x1b[?2026h"
_SYNC_END = "\x1b[?2026l"


class KeyboardClosedError(OSError):
    """The keyboard's end was read: the terminal has gone (a hangup)."""


class GameTerminal(Terminal):
    """blessed's ``Terminal``, with the keyboard's end reported as the terminal gone.

    When the terminal closes, a read of the keyboard finds its end: blessed's ``getch``
    raises ``EOFError``, which ``flushinp`` (run at the start of every ``async_inkey``)
    swallows, after which ``async_inkey`` waits for a byte that never comes in a loop that
    never sleeps: a game whose SIGHUP did not arrive spun at 100% of a core, and one whose
    read came before its SIGHUP exited with 1 as if it had crashed. Raised as an
    ``OSError`` with ``EIO`` instead, the end leaves ``async_inkey`` and the game ends as on
    a hangup (129)."""

    def getch(self, decode_latin1: bool = False) -> str:
        try:
            return super().getch(decode_latin1=decode_latin1)
        except EOFError:
            raise KeyboardClosedError(errno.EIO, "the keyboard has closed") from None


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


def make_terminal() -> tuple[Terminal, bool]:
    """A ``Terminal`` for the game, and whether colour may be used.

    ``NO_COLOR`` makes blessed drop every sequence, cursor moves included, which would leave
    a full-screen table unable to draw. So the terminal is made without it in sight and the
    game honours it itself: no colours, only bold and reverse video.
    """
    no_color = bool(os.environ.get("NO_COLOR"))
    if not no_color:
        return _lenient(GameTerminal()), True
    saved = os.environ.pop("NO_COLOR")
    try:
        return _lenient(GameTerminal()), False
    finally:
        os.environ["NO_COLOR"] = saved


def _lenient(term: Terminal) -> Terminal:
    """Keyboard bytes that are not valid in the terminal's encoding become U+FFFD (a key
    nobody has) instead of an exception out of blessed's strict decoder."""
    encoding = getattr(term, "_encoding", None)
    if encoding and hasattr(term, "_keyboard_decoder"):
        term._keyboard_decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    return term


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


def answers_questions(term: Terminal) -> bool:
    """Whether the terminal answers a question: asked once, where the cursor is (what every
    VT100-like terminal answers), and only if its type says it can."""
    if not term.u7:
        return False  # its terminfo has no cursor position request
    return term.get_location(timeout=PROBE_TIMEOUT) != (-1, -1)


class Session:
    """The game's hold on one terminal."""

    def __init__(self, term: Terminal) -> None:
        self.term = term
        self.out_fd, self.own_fd = _output_fd()
        """Where frames are written: the terminal opened again, non-blocking, for this
        session alone (``own_fd``), or standard output if that cannot be done."""
        self.backlog: memoryview | None = None
        """The rest of a frame the terminal has not taken yet (``None``: all taken)."""
        self.on_drained: Callable[[], None] | None = None
        """Called once the terminal has taken the backlog."""
        self.guard: Callable[..., None] | None = None
        """Runs the loop's callbacks for the session (a crash in one ends the game)."""
        self.sync = False
        """Whether the terminal draws a frame at once (synchronized output)."""
        self.modes: contextlib.ExitStack | None = None
        """The terminal modes taken (``None``: the terminal is not ours now)."""
        self.answers: bool | None = None
        """Whether the terminal answers questions (``None``: not asked yet)."""
        self.caught: list[signal.Signals] = []
        """The signals handled on the loop."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.encoding = "utf-8"
        """The terminal's character set: text it cannot show is written as ``?``."""
        self.bytes_written = 0
        self.frames_written = 0

    @property
    def is_open(self) -> bool:
        """Whether the terminal is ours to draw on."""
        return self.modes is not None

    def size(self) -> tuple[int, int]:
        """The terminal's width and height (asked of the kernel)."""
        return self.term.width, self.term.height

    # ------------------------------------------------------------------ modes

    def enter(self) -> None:
        """Full screen, cbreak, hidden cursor, kitty keys: all undone by ``leave``."""
        term = self.term
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(term.fullscreen())
            if not term.enter_fullscreen:  # no alternate screen (TERM=linux, vt100)
                stack.callback(self.clean_screen)  # the table must not stay behind
            stack.enter_context(term.cbreak())
            _no_flow_control()
            stack.enter_context(term.hidden_cursor())
            if self.answers is None:
                self.answers = answers_questions(term)
            if self.answers:
                stack.enter_context(
                    term.enable_kitty_keyboard(
                        report_events=True,
                        report_all_keys=True,
                        report_text=True,
                        timeout=QUERY_TIMEOUT,
                    )
                )
                self.sync = term.does_synchronized_output(timeout=QUERY_TIMEOUT)
        except BaseException:
            stack.close()
            raise
        self.modes = stack

    def leave(self) -> None:
        """Put the terminal back as it was (as far as a terminal that has gone allows).

        A terminal that has stopped reading gets its untaken output thrown away first, a
        sequence cut short ended (CAN), so that putting it back neither blocks nor is
        garbled; one whose output cannot be written even so is left as it is, but its
        modes (termios) are put back all the same."""
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

    def close(self) -> None:
        """Let go of the terminal opened for output."""
        self.drop_backlog()
        if self.own_fd:
            with contextlib.suppress(OSError):
                os.close(self.out_fd)
            self.own_fd = False

    def clean_screen(self) -> None:
        """Leave a blank screen, the cursor at its top (where the table was drawn on the
        terminal's only screen, the shell's prompt would land in the middle of it)."""
        stream = self.term.stream
        stream.write(self.term.normal + self.term.clear)
        stream.flush()

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
            if os.tcgetpgrp(sys.stdin.fileno()) != group:
                return False
            parent = os.getppid()
            return os.getsid(parent) == os.getsid(0) and os.getpgid(parent) != group
        except OSError:
            return False

    def suspend(self) -> None:
        """Give the terminal back and stop; here again after SIGCONT, with it taken back."""
        self.leave()
        os.kill(os.getpid(), signal.SIGSTOP)
        self.enter()

    # ------------------------------------------------------------------ signals

    def catch(
        self,
        loop: asyncio.AbstractEventLoop,
        handlers: dict[signal.Signals, Callable[[], None]],
        guard: Callable[..., None],
    ) -> None:
        """Handle these signals on the loop, each callback run through ``guard``."""
        self.loop = loop
        self.guard = guard
        for sig, callback in handlers.items():
            loop.add_signal_handler(sig, guard, callback)
            self.caught.append(sig)

    def release(self) -> None:
        """Stop handling the signals ``catch`` took."""
        if self.loop is not None:
            for sig in self.caught:
                self.loop.remove_signal_handler(sig)
        self.caught = []

    # ------------------------------------------------------------------ keys

    async def read_keys(
        self, on_key: Callable[[Keystroke], None], on_burst_end: Callable[[], None]
    ) -> None:
        """Read the keyboard for ever (the one task that does): each key to ``on_key``;
        ``on_burst_end`` once the keys that came together are read (or thrown away as a
        flood)."""
        while True:
            keystroke = await self.term.async_inkey(esc_delay=ESC_DELAY)
            on_key(keystroke)
            if self.buffered() > FLOOD:
                self.term.flushinp()
                on_burst_end()
            elif not self.input_pending():
                on_burst_end()

    def buffered(self) -> int:
        """Characters blessed has read ahead (the rest of a burst), if it says."""
        return len(getattr(self.term, "_keyboard_buf", ()))

    def input_pending(self) -> bool:
        """Whether more keys have already arrived: read ahead by blessed (it buffers the
        rest of a burst) or waiting in the terminal."""
        return self.buffered() > 0 or self.term.kbhit(timeout=0)

    # ------------------------------------------------------------------ frames

    @property
    def busy(self) -> bool:
        """Whether the last frame is still on its way (a new one would have to wait)."""
        return self.backlog is not None

    def write_frame(self, text: str) -> bool:
        """Write a frame's text in one go; ``False`` if the terminal has gone. What the
        terminal cannot take yet is kept and written as it takes it (``busy`` meanwhile):
        the loop never waits for the terminal."""
        return self.write(_SYNC_BEGIN + text + _SYNC_END if self.sync else text)

    def write(self, text: str) -> bool:
        """Write ``text`` to the terminal without waiting for it; ``False`` if the terminal
        has gone."""
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
            assert self.loop is not None and self.guard is not None
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
