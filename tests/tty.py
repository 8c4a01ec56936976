"""Run a terminal program in a pseudo-terminal and read its screen back as text.

The harness behind the end-to-end tests and the benchmarks in ``bench/``::

    with TtySession(rows=24, cols=80) as s:      # python -m stress_tui
        s.wait_text("Stress")                    # first frame is up
        s.send(KEYS["left"])
        s.wait_for(lambda: "▶" in s.row(3), what="cursor on row 3")
        s.send("q")
        assert s.wait_exit() == 0
        assert restored(s.raw_log()), restore_problems(s.raw_log())
        assert s.tty_mode_restored()

Everything the child writes goes into a pyte screen, whose answers to terminal queries (cursor
position, device attributes) go back to the child, so ``blessed.Terminal()`` starts in
milliseconds instead of waiting 5 s per unanswered query. The raw bytes are kept too, to check
what the program leaves the terminal in. The screen is read, and waited on, as
``tests/screen.py``'s ``Screenful`` reads any screen (``KEYS``, ``restored`` and the
stress-tui helpers are there too). See /work/shared/TESTING.md for the background.

Note: this module is ``tests.tty``; ``tests/`` must stay a package (``tests/__init__.py``) so that
it never shadows the standard library's ``tty`` module, which ``pexpect`` and ``pty`` import.
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import signal
import sys
import termios
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import pexpect  # type: ignore[import-untyped]  # no stubs in the test extras
import pyte

from tests.screen import BASE_ENV, STRIPPED_ENV, ScreenFilter, Screenful

DEFAULT_ROWS = 24
DEFAULT_COLS = 80


def child_env(extra: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """The child's environment: the outer one minus ``STRIPPED_ENV``, plus ``BASE_ENV``, plus
    ``extra`` (where a value of ``None`` removes that variable)."""
    env = {k: v for k, v in os.environ.items() if k not in STRIPPED_ENV}
    env.update(BASE_ENV)
    for key, value in (extra or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


TERMINAL_SIGNALS = (
    signal.SIGINT,
    signal.SIGQUIT,
    signal.SIGHUP,
    signal.SIGTERM,
    signal.SIGTSTP,
    signal.SIGTTIN,
    signal.SIGTTOU,
    signal.SIGPIPE,
)
"""The signals a shell in a terminal leaves at their defaults for the programs it starts."""


def as_from_a_terminal() -> None:
    """In the child, before it runs the program: every signal of ``TERMINAL_SIGNALS`` at
    its default and none blocked, as a shell in a terminal starts a program, whatever the
    tests were started from: a script's ``&`` ignores SIGINT and SIGQUIT, ``nohup`` SIGHUP,
    and a program inherits what is ignored (Python then never turns Ctrl-C into
    KeyboardInterrupt)."""
    for sig in TERMINAL_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


JOB_SHELL = [sys.executable, str(Path(__file__).resolve().parent / "fixtures" / "jobshell.py")]
"""Prefix to a command to run it as a job of a shell with job control (it can stop and be
brought back); ``$JOBSHELL_PID_FILE`` names where its pid goes (``job_pid``)."""


def job_pid(pid_file: Path, timeout: float = 5.0) -> int:
    """The pid of a job ``JOB_SHELL`` started, once it has said it."""
    deadline = time.monotonic() + timeout
    while not (pid_file.exists() and pid_file.read_text().strip()):
        if time.monotonic() > deadline:
            raise AssertionError("the job shell never said its job's pid")
        time.sleep(0.005)
    return int(pid_file.read_text())


class AnsweringScreen(pyte.Screen):
    """A pyte screen that sends its answers to queries (``CSI 6 n``, ``CSI c``) to the child."""

    def __init__(self, columns: int, lines: int, reply: Callable[[bytes], None]) -> None:
        super().__init__(columns, lines)
        self.reply = reply
        self.replies = 0

    def write_process_input(self, data: str) -> None:
        self.replies += 1
        self.reply(data.encode())


class TtySession(Screenful):
    """A program running in a pseudo-terminal, its output rendered by pyte.

    ``argv`` defaults to ``[sys.executable, "-m", "stress_tui", *args]``. The session keeps
    reading only when asked (``pump``, ``wait_for``, ...): call one of them regularly, or a
    chatty child blocks once the pty buffer fills.
    """

    ended_as = "program closed the terminal"
    screen: AnsweringScreen

    def __init__(
        self,
        argv: Sequence[str] | None = None,
        *,
        args: Sequence[str] = (),
        rows: int = DEFAULT_ROWS,
        cols: int = DEFAULT_COLS,
        env: Mapping[str, str | None] | None = None,
        cwd: str | Path | None = None,
        background: tuple[int, int, int] | None = None,
    ) -> None:
        if argv is None:
            argv = [sys.executable, "-m", "stress_tui", *args]
        elif args:
            argv = [*argv, *args]
        if not argv:
            raise ValueError("empty argv")
        self.argv: list[str] = list(argv)
        self.log = bytearray()
        self.read_at = -math.inf
        """When bytes were last read from the program (``time.perf_counter``), before this
        side's filter and pyte looked at them: what a benchmark times a key to, leaving its
        own reading of the bytes out."""
        self.eof = False
        self._closed = False
        self._filter = ScreenFilter()
        self.background = background
        """The terminal's background colour as it answers the OSC 11 query (``None``: it
        does not answer, like pyte; the cursor position query still is)."""
        self.screen = AnsweringScreen(cols, rows, self._reply)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(
            self.argv[0],
            self.argv[1:],
            env=child_env(env),
            cwd=None if cwd is None else str(cwd),
            dimensions=(rows, cols),
            timeout=None,
            preexec_fn=as_from_a_terminal,
        )
        self.child.delaybeforesend = None
        # The tty modes before the program touches them (spawn returns after exec).
        self.initial_tty_mode = self.tty_mode()

    # -- context manager -------------------------------------------------------------------------

    def __enter__(self) -> TtySession:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------------

    def now(self) -> float:
        """The session's clock: the wall's."""
        return time.monotonic()

    def pump(self, timeout: float = 0.0) -> int:
        """Read what the child has written, waiting up to ``timeout`` seconds for the first
        byte, then everything immediately available; feed it to the screen. Returns the number
        of bytes read (0 on timeout, or once the child's side of the pty is closed)."""
        total = 0
        wait = max(timeout, 0.0)
        while not (self.eof or self._closed):
            try:
                data: bytes = self.child.read_nonblocking(65536, timeout=wait)
            except pexpect.TIMEOUT:
                break
            except pexpect.EOF:
                self.eof = True
                break
            self.read_at = time.perf_counter()
            self.log += data
            shown = self._filter.feed(data)
            self._answer_background()
            self.stream.feed(shown)
            total += len(data)
            # Drain what is there already; the select spares read_nonblocking's slower no-data
            # path (a waitpid and an exception) on the way from the key to the screen.
            if not select.select([self.child.child_fd], [], [], 0)[0]:
                break
            wait = 0.0
        return total

    def ended(self) -> bool:
        return self.eof

    def await_output(self, until: float, seen: int) -> None:
        self.pump(min(max(until - time.monotonic(), 0.0), 0.05))

    def describe(self) -> str:
        status = "running"
        if not self.child.isalive():
            status = f"exited, code {self.exit_code}"
        tail = bytes(self.log[-400:])
        return (
            f"program: {' '.join(self.argv)} ({status})\n"
            f"--- last {len(tail)} of {len(self.log)} bytes received ---\n{tail!r}"
        )

    # -- writing ---------------------------------------------------------------------------------

    def send(self, data: str | bytes) -> None:
        """Write keys to the program, as typed on its keyboard."""
        raw = data.encode() if isinstance(data, str) else data
        view = memoryview(raw)
        while view:
            written = os.write(self.child.child_fd, view)
            view = view[written:]

    def _answer_background(self) -> None:
        """Answer the background queries seen, before pyte answers the cursor position
        query that follows them (as a terminal answers in order)."""
        asked, self._filter.background_queries = self._filter.background_queries, 0
        if self.background is None:
            return
        r, g, b = (f"{channel * 257:04x}" for channel in self.background)
        for _ in range(asked):
            self._reply(f"\x1b]11;rgb:{r}/{g}/{b}\x1b\\".encode())

    def _reply(self, data: bytes) -> None:
        with contextlib.suppress(OSError):  # the program is gone: nobody awaits the answer
            self.send(data)

    def resize(self, rows: int, cols: int) -> None:
        """Resize the terminal: the screen, then the pty, which sends SIGWINCH to the child."""
        self.screen.resize(lines=rows, columns=cols)
        self.child.setwinsize(rows, cols)

    # -- the tty mode ----------------------------------------------------------------------------

    def tty_mode(self) -> list[Any]:
        """The terminal's termios attributes now (read through the pty master, which on Linux
        reports the child's side; still readable after the child exits)."""
        return termios.tcgetattr(self.child.child_fd)

    def tty_mode_restored(self) -> bool:
        """Whether the tty mode (echo, canonical input, control characters, ...) is back to what
        it was when the program started: true after a clean exit, false after a crash in cbreak.
        """
        return self.tty_mode() == self.initial_tty_mode

    # -- the process -----------------------------------------------------------------------------

    @property
    def pid(self) -> int:
        return int(self.child.pid)

    def alive(self) -> bool:
        return bool(self.child.isalive())

    @property
    def exit_code(self) -> int | None:
        """The exit status, or minus the signal number that ended the program, or None while it
        runs (same convention as ``subprocess.Popen.returncode``)."""
        if self.child.isalive():
            return None
        if self.child.exitstatus is not None:
            return int(self.child.exitstatus)
        return -int(self.child.signalstatus)

    def wait_exit(self, timeout: float = 5.0) -> int:
        """Read until the program exits; return ``exit_code``. AssertionError after
        ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while not self.eof:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.fail(f"program still running after {timeout} s")
            self.pump(min(remaining, 0.05))
        # The pty closes when the process exits; reaping it follows within a moment.
        while (code := self.exit_code) is None:
            if time.monotonic() > deadline:
                self.fail(f"program closed the terminal but did not exit within {timeout} s")
            time.sleep(0.001)
        return code

    def close(self, grace: float = 1.0) -> int | None:
        """End the session. A program still running gets SIGHUP, as when a terminal window is
        closed, then SIGKILL after ``grace`` seconds. Returns ``exit_code``. Idempotent."""
        if self._closed:
            return self.exit_code
        if self.child.isalive():
            self.child.kill(signal.SIGHUP)
            deadline = time.monotonic() + grace
            while self.child.isalive() and time.monotonic() < deadline:
                self.pump(0.01)
            if self.child.isalive():
                self.child.kill(signal.SIGKILL)
                self.child.wait()
        self.pump()
        self.child.ptyproc.delayafterclose = 0.0  # it is dead already: no need to wait
        self.child.close(force=True)
        self._closed = True
        return self.exit_code
