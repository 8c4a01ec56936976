"""What a screen draws with, what its banner says of things outside the game, and the
lifecycle's timer: the parts of a ``Screen`` (``terminal/screen.py``) that own a state of
their own.

``Frames`` is the drawing: the palette, the canvas kept from frame to frame, what the
terminal shows, the area the table is drawn in, and the cards and counts drawn ahead of
time. A frame is rendered from a ``Scene`` and only what differs from the last is written,
in one write.

``LifeTimer`` carries out the match's lifecycle's moves by itself on the event loop (the
count's end, the result taking keys), and wakes the screen at each figure of the count.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from stress_tui.core.lifecycle import Lifecycle
from stress_tui.core.settings import Settings
from stress_tui.terminal.counts import warm_counts
from stress_tui.terminal.draw.canvas import Canvas, Frame, FrameCanvas, RenderCache
from stress_tui.terminal.draw.encode import encode
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.draw.theme import choose_theme
from stress_tui.terminal.endpoint import Endpoint
from stress_tui.terminal.keynotes import stray_key_note
from stress_tui.terminal.layout import Layout, drawn_area
from stress_tui.terminal.notices import Notice, Notices
from stress_tui.terminal.pieces import warm_cards
from stress_tui.terminal.render import render
from stress_tui.terminal.scene import Scene

WARNING_SECONDS = 5.0
"""How long a warning (replays off, a broken record file) stays on the banner line."""

STRAY_SECONDS = 4.0
"""How long the banner says what a key that plays nothing is not (seconds, on the loop's
clock: it goes also before a round starts, while the game's clock stands still)."""


class Banner:
    """What the banner line says of things outside the game: a warning (replays off, a
    broken record file), a key that plays nothing on the table."""

    def __init__(self, notices: Notices, settings: Settings, redraw: Callable[[], None]):
        self.notices = notices
        self.settings = settings
        self.redraw = redraw
        """Asks for a frame (the banner changed by itself)."""
        self.strays: set[str] = set()
        """The keys that played nothing and have been said so (each is said once)."""

    def stray_key(self, name: str, later: Callable[[float, Callable[[], None]], None]) -> bool:
        """A key that plays nothing: say once, for a while (``later``), what it is not and
        how to get it (``keynotes.stray_key_note``); whether the banner changed (the same key
        again says nothing more)."""
        if name in self.strays:
            return False
        self.strays.add(name)
        whole, short = stray_key_note(name, self.settings)
        notice = Notice(whole, "warn", short=short)
        self.notices.headline = notice
        later(STRAY_SECONDS, lambda: self.stray_gone(notice))
        return True

    def stray_gone(self, notice: Notice) -> None:
        if self.notices.headline is notice:
            self.notices.headline = None
            self.redraw()

    def warn(self, text: str, now: float) -> None:
        """A warning at game time ``now``, on the banner line for a while; with another
        still up, both."""
        shown = self.notices.headline
        if shown is not None and shown.kind == "warn" and (shown.until or 0.0) > now:
            text = f"{shown.text}; {text}"
        self.notices.headline = Notice(text, "warn", now + WARNING_SECONDS)


class Frames:
    """A screen's frames on its endpoint: each drawn from a scene, only the cells that
    changed written."""

    def __init__(self, endpoint: Endpoint, settings: Settings, colour: bool) -> None:
        self.endpoint = endpoint
        """The terminal the frames go to."""
        self.term = endpoint.term
        self.settings = settings
        self.colour = colour
        """Whether colours may be used (not with ``NO_COLOR``)."""
        self.palette = Palette(self.term, colour=colour, four_colour=settings.four_colour)
        """The styles (made again once the terminal has said its background)."""
        self.cache = RenderCache()
        """Glyph widths, styled text and cards, kept from frame to frame."""
        self.frame: Frame | None = None
        """What the screen shows now (``None``: unknown, draw everything)."""
        self.canvas: FrameCanvas | None = None
        """Where frames are drawn, kept from one to the next (for the screen's size)."""
        self.size = (0, 0)
        """The size of the area the table is drawn in (the window's, up to a bound)."""
        self.origin = (0, 0)
        """Where that area's top left corner is in the window (row, column)."""
        self.skipped = False
        """Whether a frame waited for the terminal to take the last one."""
        self.warm: tuple[int, int] | None = None
        """The window's size whose table is drawn ahead of time (``needs_warming``)."""

    def draw(self, scene: Callable[[], Scene]) -> bool:
        """Render the frame ``scene()`` makes and write what differs from the screen, in one
        write (or nothing yet, if the terminal has not taken the last frame: ``drained``
        says when it has). Whether the terminal is still there."""
        return self.paint(lambda palette, canvas: render(scene(), palette, canvas))

    def paint(self, painter: Callable[[Palette, FrameCanvas], Frame]) -> bool:
        """``draw`` for a frame ``painter`` draws on a blank canvas of the drawn area's
        size and returns the rows of (the table's ``render``; the SSH server's lobby)."""
        endpoint = self.endpoint
        if not endpoint.is_open:
            return True
        if endpoint.busy:  # the terminal has not taken the last frame yet
            self.skipped = True  # this one is drawn once it has, as it is then
            return True
        width, height = self.size
        self.cache.trim()
        canvas = self.canvas
        if canvas is None or (canvas.width, canvas.height) != (width, height):
            canvas = self.canvas = FrameCanvas(width, height, self.term.length, self.cache)
        rows = painter(self.palette, canvas)
        known = self.frame is canvas.before  # (else the screen shows another frame, or none)
        text = encode(
            self.frame,
            rows,
            self.term,
            clear=True,
            cache=self.cache,
            origin=self.origin,
            changed=canvas.changed if known else None,
        )
        self.frame = rows
        return not text or endpoint.write_frame(text)

    def drained(self) -> bool:
        """The terminal has taken the last frame: whether a frame waited for it."""
        waited, self.skipped = self.skipped, False
        return waited

    def forget(self) -> None:
        """Draw everything next time, as if the screen showed nothing."""
        self.frame = None

    def choose_colours(self) -> None:
        """With the terminal ours: the theme asked for, or the one for the terminal's
        background as it answered (``Endpoint.ask``)."""
        endpoint = self.endpoint
        theme, _ = choose_theme(self.settings.theme, endpoint.background(), endpoint.environ)
        self.palette = Palette(
            self.term, colour=self.colour, four_colour=self.settings.four_colour, theme=theme
        )

    def measure(self) -> None:
        """Ask the window's size; set the area the table is drawn in."""
        width, height, top, left = drawn_area(*self.endpoint.size())
        self.size, self.origin = (width, height), (top, left)

    def new_round(self) -> None:
        """Forget what only the last round showed (``RenderCache.new_round``): the cards and
        counts are drawn ahead again (``needs_warming``)."""
        self.cache.new_round()
        self.warm = None

    def needs_warming(self, lay: Layout) -> bool:
        """Whether the cards and counts of ``lay`` are still to be drawn ahead (noted as
        done): its cards' size, and where its counts go, are those of the window's size."""
        if self.warm == (lay.width, lay.height):
            return False
        self.warm = (lay.width, lay.height)
        return True

    def warm_up(self, lay: Layout, view: Scene) -> None:
        """Draw every card of ``view``'s rules once at ``lay``'s size, and the counts its
        round comes to, so that no key waits for them."""
        rules = view.rules
        cards = rules.spec.cards(rules.jokers)
        flashing = [player for player in (0, 1) if not view.you[player]]
        warm_cards(self.cache, self.term.length, self.palette, lay, cards, view.ascii, flashing)
        warm_counts(view, self.palette, Canvas(0, 0, self.term.length, self.cache), lay)


class LifeTimer:
    """The lifecycle's timer on the event loop: set for its next move by itself (the
    count's end, the result taking keys) or, while the count runs, its next figure."""

    def __init__(
        self,
        life: Lifecycle,
        guarded: Callable[..., Any],
        on_due: Callable[[bool], None],
    ) -> None:
        self.life = life
        self.guarded = guarded
        """Runs a loop callback, a crash in it ending the game."""
        self.on_due = on_due
        """Told, at each time due, whether the lifecycle moved."""
        self.handle: asyncio.TimerHandle | None = None

    def set(self, loop: asyncio.AbstractEventLoop) -> None:
        """Set the timer anew for what the lifecycle has due next (nothing: none)."""
        self.cancel()
        life = self.life
        due = life.next_deadline()
        at = loop.time()
        left = life.count_left(at)
        if left is not None and left > 0:
            third = life.count / 3
            step = left % third or third
            due = at + step if due is None else min(due, at + step)
        if due is not None:
            self.handle = loop.call_at(due, self.guarded, self._due, loop, due)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def _due(self, loop: asyncio.AbstractEventLoop, due: float) -> None:
        self.handle = None
        self.on_due(self.life.advance(max(due, loop.time())))
        self.set(loop)
