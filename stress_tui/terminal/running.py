"""A screen running on a terminal endpoint, on one asyncio loop.

``Running`` is what every screen of the game has whatever it shows: the endpoint it draws
on and reads keys from (``terminal/endpoint.py``: the local terminal or an in-process one),
the loop's callbacks guarded so that a crash ends the program with its traceback, the end
with an exit status, frames drawn only after something changed (``terminal/frames.py``),
and the terminal put back on every way out: quit, Ctrl-C (exit 130), Ctrl-\\\\ (131),
SIGTERM (143), SIGHUP (129), SIGPIPE (141; not at a network table: ``LocalEndpoint``) and a
crash (the exception goes on to ``run``). ``terminal/screen.py``'s ``Screen`` is the round
on the table that runs so.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from stress_tui.core.settings import Settings
from stress_tui.terminal.draw.theme import asks_terminal
from stress_tui.terminal.endpoint import Endpoint, Listener
from stress_tui.terminal.frames import Frames
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.session import EXIT_SIGHUP, GONE


class Running:
    """A screen on an endpoint and a loop: drawing when asked, ending with a status."""

    def __init__(self, endpoint: Endpoint, settings: Settings, colour: bool = True) -> None:
        self.endpoint = endpoint
        """The terminal: keys in, frames out."""
        self.term = endpoint.term
        self.settings = settings
        self.frames = Frames(endpoint, settings, colour)
        """What the frames are drawn with, and what the terminal shows."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The event loop it runs on (``None``: not running yet)."""
        self.done: asyncio.Future[int] | None = None
        """Set with the exit status when it ends."""
        self.draw_pending = False
        """Whether a frame is asked for and not drawn yet."""
        self.in_key = False
        """Whether a key is being handled (``Screen.on_key``): a frame asked for meanwhile
        is drawn at the key's end, not by a turn of the loop."""
        self.resumed = False
        """Whether the program stopped itself (Ctrl-Z) and has just been brought back."""
        endpoint.on_drained = self.drained

    # ------------------------------------------------------------------ what it shows

    def view(self) -> Scene:
        """What a frame shows."""
        raise NotImplementedError

    def listener(self) -> Listener:
        """What it is told by the endpoint: keys, a resize, a stop, the end."""
        raise NotImplementedError

    def opened(self) -> None:
        """The terminal is taken and has answered: show the first frame."""

    def closing(self) -> None:
        """On the way out, before the terminal is let go: stop the timers."""

    def shut_down(self) -> None:
        """On the way out, whichever way (quit, signal, crash): let go of what is open."""

    # ------------------------------------------------------------------ the loop

    def loop_time(self) -> float:
        assert self.loop is not None
        return self.loop.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> None:
        assert self.loop is not None
        self.loop.call_later(delay, self.guarded, callback)

    def guarded(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run a loop callback; a crash in it ends the game (with the traceback)."""
        try:
            callback(*args)
        except Exception as error:
            self.fail(error)

    def finish(self, code: int) -> None:
        if self.done is not None and not self.done.done():
            self.done.set_result(code)

    def fail(self, error: BaseException) -> None:
        if isinstance(error, OSError) and error.errno in GONE:
            self.finish(EXIT_SIGHUP)  # the terminal has gone: a hangup, however noticed
            return
        if self.done is not None and not self.done.done():
            self.done.set_exception(error)

    # ------------------------------------------------------------------ drawing

    def request_draw(self) -> None:
        """Draw soon: once the keys that arrived together have all been applied (at the
        end of the key being handled, if one is: ``in_key``; else in the loop's next turn)."""
        if self.draw_pending or self.loop is None:
            return
        self.draw_pending = True
        if not self.in_key:
            self.draw_soon()

    def draw_soon(self) -> None:
        """Draw what is asked for in the loop's next turn."""
        assert self.loop is not None
        self.loop.call_soon(self.guarded, self.draw_if_pending)

    def draw_if_pending(self) -> None:
        if self.draw_pending:
            self.draw()

    def draw(self) -> None:
        """Render a frame and write what differs from the screen, in one write."""
        self.draw_pending = False
        if not self.frames.draw(self.view):
            self.finish(EXIT_SIGHUP)

    def redraw(self) -> None:
        """Draw everything again (Ctrl-L)."""
        self.frames.forget()
        self.request_draw()

    def drained(self) -> None:
        """The terminal has taken the last frame: draw the one that waited, if any."""
        if self.frames.drained():
            self.request_draw()

    def on_continue(self) -> None:
        """SIGCONT: after our own stop, already handled; after a stop from outside
        (``kill -STOP``), the screen may be anything: draw it all."""
        if self.resumed:
            self.resumed = False
            return
        self.redraw()

    # ------------------------------------------------------------------ running

    async def main(self) -> int:
        """Take the terminal, run until the end, put the terminal back; the exit status."""
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.done = loop.create_future()
        endpoint = self.endpoint
        endpoint.listen(loop, self.listener(), self.guarded)
        try:
            # The terminal is taken and asked its questions while the end (a signal) is
            # listened for: a terminal that answers slowly, or with junk, delays no exit.
            asking = asks_terminal(self.settings.theme, endpoint.environ)
            opening = asyncio.ensure_future(endpoint.open(asking))
            await asyncio.wait((opening, self.done), return_when=asyncio.FIRST_COMPLETED)
            if not opening.done():
                opening.cancel()
                return await self.done
            opening.result()
            self.frames.choose_colours()
            self.frames.measure()
            self.opened()
            return await self.done
        finally:
            self.closing()
            endpoint.stop()
            try:
                self.shut_down()
            finally:
                endpoint.close()
