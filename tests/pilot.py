"""Run a screen in-process and read what it draws, as a player would: no pty, no sleeping.

As Textual's ``run_test()`` and ``Pilot`` do for its apps, ``Pilot`` drives one of our
screens (the game, the replay viewer) through a ``MemoryEndpoint``
(``stress_tui/terminal/endpoint.py``): keys go in as the bytes a terminal sends, and what
the screen writes goes onto a pyte screen, read back as rows, text and cells with their
colours. Time is the event loop's, and it is virtual: when nothing is ready, the loop's
clock jumps to the next timer, so a 3 s lockout or a count to the flip takes no wall time
and nothing a test reads moves unless the test lets time pass (``pump``, ``wait_for``).

A ``Pilot`` is read as ``tests.tty.TtySession`` is, through ``tests/screen.py``'s
``Screenful``, so that the helpers there (``say_ready``, ``settle``, ``table_layout``,
``pile_top``...) serve both::

    with game(tmp_path, "--seed", "12") as s:    # the game of ``stress-tui --seed 12``
        say_ready(s)
        s.wait_for(lambda: pile_top(s, 0) == "10♣", what="the flip")
        s.send("q")

What only a real terminal shows (its modes restored, signals, a resize from the kernel,
the first frame of a real start) stays with the pty tests.
"""

from __future__ import annotations

import asyncio
import os
import selectors
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyte

from stress_tui.terminal.endpoint import MemoryEndpoint
from stress_tui.terminal.running import Running
from stress_tui.terminal.screen import Screen
from tests.command import environment
from tests.screen import BASE_ENV, STRIPPED_ENV, Screenful

STEP = 0.01
"""Virtual seconds between two looks at the screen while waiting for something."""

TURN = 1e-6
"""Virtual seconds a turn of the loop takes."""

START = 1000.0
"""Where the virtual clock starts."""


class _JumpingSelector(selectors.DefaultSelector):
    """A selector that never waits: where the loop would wait for its next timer, the
    loop's virtual clock jumps there instead. Each turn of the loop takes a microsecond,
    as a real one takes some time: a timer that finds itself a hair early and sets itself
    again for the same moment is then due on a later turn, not never."""

    def __init__(self, clock: list[float]) -> None:
        super().__init__()
        self.clock = clock

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        events = super().select(0)
        self.clock[0] += TURN
        if not events and timeout is not None and timeout > TURN:
            self.clock[0] += timeout - TURN
        return events


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on a virtual clock (see ``_JumpingSelector``)."""

    def __init__(self) -> None:
        self.clock = [START]
        super().__init__(_JumpingSelector(self.clock))

    def time(self) -> float:
        return self.clock[0]


def background_reply(background: tuple[int, int, int] | None) -> Callable[[str], bytes]:
    """A terminal's answers to the start-up questions: its cursor position, and its
    background colour if it has one to say."""

    def reply(asked: str) -> bytes:
        said = b""
        if background is not None and "\x1b]11;?" in asked:
            r, g, b = (f"{channel * 257:04x}" for channel in background)
            said += f"\x1b]11;rgb:{r}/{g}/{b}\x1b\\".encode()
        return said + b"\x1b[1;1R"

    return reply


class Pilot(Screenful):
    """A screen running in-process on a virtual clock, its output on a pyte screen."""

    def __init__(
        self,
        make: Callable[[MemoryEndpoint], Running],
        rows: int = 24,
        cols: int = 80,
        kind: str = "xterm-256color",
        background: tuple[int, int, int] | None = None,
        loop: VirtualTimeLoop | None = None,
    ) -> None:
        self.shared = loop is not None
        """Whether the loop is another's too (``loop``: several screens on one clock, such
        as a network table's two ends), closed by whoever made it."""
        self.loop = loop if loop is not None else VirtualTimeLoop()
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.log = bytearray()
        self.endpoint = MemoryEndpoint(
            cols, rows, kind=kind, on_output=self._output, reply=background_reply(background)
        )
        self.running = make(self.endpoint)
        """What runs (a screen of a round, or the SSH server's lobby)."""
        self.task = self.loop.create_task(self.running.main())
        self.written = 0

    @property
    def app(self) -> Screen:
        """The screen of a round that runs (the game, the replay viewer)."""
        assert isinstance(self.running, Screen)
        return self.running

    def _output(self, data: bytes) -> None:
        self.log += data
        self.written += len(data)
        self.stream.feed(data)

    # -- time --------------------------------------------------------------------------------

    def now(self) -> float:
        """The loop's virtual clock."""
        return self.loop.time()

    def pump(self, timeout: float = 0.0) -> int:
        """Let ``timeout`` virtual seconds pass (at least one turn of the loop); the bytes
        written meanwhile."""
        before = self.written
        self.loop.run_until_complete(asyncio.sleep(max(timeout, 0.0)))
        return self.written - before

    def pump_to(self, at: float) -> None:
        """Let virtual time pass to the loop time ``at`` exactly (the timers due before it
        have fired), so that a key sent next comes at ``at``: a hair before something due,
        if the test says so."""
        if at - self.now() > 3 * TURN:  # (a pump ends a turn or two past its time)
            self.pump(at - self.now() - 3 * TURN)
        assert self.now() <= at, f"{self.now()} is past {at}"
        self.loop.clock[0] = at

    @property
    def eof(self) -> bool:
        """Whether the screen has ended."""
        return self.task.done()

    def ended(self) -> bool:
        return self.task.done()

    def await_output(self, until: float, seen: int) -> None:
        """Let time pass in steps until more is drawn (reading the screen costs more than a
        turn of the loop), ``until``, or a second on."""
        look = min(until, self.now() + 1.0)
        while self.written <= seen and self.now() < look and not self.task.done():
            self.pump(STEP)

    def describe(self) -> str:
        status = "running"
        if self.task.done():
            status = f"ended: {self.task.result() if not self.task.exception() else 'crash'}"
        return f"in-process screen ({status}, at {self.now():.2f} s)"

    # -- the keyboard, the window ------------------------------------------------------------

    def send(self, data: str | bytes) -> None:
        """Keys typed, as a terminal sends them; the loop takes them at once."""
        self.endpoint.feed(data)
        self.pump()

    def resize(self, rows: int, cols: int) -> None:
        self.screen.resize(lines=rows, columns=cols)
        self.endpoint.resize(cols, rows)
        self.pump()

    # -- the end -----------------------------------------------------------------------------

    @property
    def exit_code(self) -> int | None:
        if not self.task.done():
            return None
        return int(self.task.result())

    def wait_exit(self, timeout: float = 5.0) -> int:
        """Let time pass until the screen ends; its exit status (its crash raised)."""
        self.wait_for(self.task.done, timeout, "the end")
        return int(self.task.result())

    def close(self) -> None:
        """End the screen (as a hangup would, if it still runs) and its loop."""
        try:
            if not self.task.done():
                self.endpoint.end(129)
                self.loop.run_until_complete(self.task)
        finally:
            if not self.shared:
                self.loop.close()


def game_settings(*argv: str) -> Any:
    """The settings ``stress-tui ARGV`` plays by (the config file as the environment says)."""
    from stress_tui.cli.parser import build
    from stress_tui.cli.settings import load_config, settings_from_args

    args = build(list(argv))[0].parse_args(list(argv))
    return settings_from_args(args, load_config(False))


@contextmanager
def game(
    tmp_path: Path,
    *args: str,
    rows: int = 24,
    cols: int = 80,
    env: dict[str, str | None] | None = None,
    background: tuple[int, int, int] | None = None,
    offer: bool = False,
) -> Iterator[Pilot]:
    """The game of ``stress-tui --seed 12 ARGS`` in-process, once its first frame is up (the
    practice offered under the table if ``offer``, as to a newcomer); the
    config file none, replays and the record in ``tmp_path``; the environment as a pty
    test's child gets it (``tests/tty.py``: ``LANG=C.UTF-8``, none of the variables that
    change what the game shows), with ``env`` (``TERM`` is the terminal's type;
    ``STRESS_TUI_POSITION`` a position; ``LANG`` the language)."""
    from stress_tui.cli.parser import speak
    from stress_tui.terminal.app import App
    from stress_tui.terminal.lang import choose

    full: dict[str, str | None] = {
        **{name: None for name in STRIPPED_ENV},
        **BASE_ENV,
        "STRESS_TUI_CONFIG": str(tmp_path / "none.toml"),
        "STRESS_TUI_DATA_DIR": str(tmp_path / "data"),
        **(env or {}),
    }
    kind = full.pop("TERM", None) or "xterm-256color"
    with environment(full):
        choose(None)  # the environment's language, or the one --lang names
        speak(args)
        settings = game_settings("--seed", "12", *args)
        colour = not os.environ.get("NO_COLOR")
        pilot = Pilot(
            lambda endpoint: App(endpoint, settings=settings, colour=colour, offer=offer),
            rows=rows,
            cols=cols,
            kind=kind,
            background=background,
        )
        try:
            pilot.wait_for(lambda: "STRESS" in pilot.row(0), timeout=10, what="the first frame")
            yield pilot
        finally:
            pilot.close()
            choose(None)


@contextmanager
def viewer(path: Path, speed: float = 1.0, rows: int = 24, cols: int = 80) -> Iterator[Pilot]:
    """The replay viewer of ``stress-tui replay PATH --speed SPEED``, in-process, on a
    terminal of ``rows`` and ``cols``."""
    from stress_tui.storage.replay import load
    from stress_tui.terminal.playback import ReplayApp

    replay = load(path)
    s = Pilot(
        lambda endpoint: ReplayApp(endpoint, replay=replay, speed=speed), rows=rows, cols=cols
    )
    try:
        yield s
    finally:
        s.close()
