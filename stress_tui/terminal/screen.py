"""The screen: a round on the table in a terminal, on one asyncio loop.

A ``Screen`` is a ``Running`` (``terminal/running.py``: the endpoint it draws on and reads
keys from, the loop, the end, the terminal put back on every way out) that joins the
match's lifecycle and its ``Clock`` (``terminal/clock.py``) and a ``Controller``
(``terminal/controller.py``: which screens cover the table, what a key does). It owns the
table's timer.

The endpoint tells every key as it arrives; each is stamped with the round's clock and
applied at once, in the order the keys arrived, so two keys in one burst are settled by
their order.
The table's own doings (the flip after "1 2 3", a computer player's move) and the
countdown's ticks are carried out by one timer set for the next of them; with nothing due,
nothing runs; the lifecycle's own moves (the count's end, the result taking keys) by its
timer (``frames.LifeTimer``). A frame is drawn only after something changed, and only the
cells that changed are written, in one write (``frames.Frames``).

Ctrl-Z suspends with the terminal restored and draws everything again on ``fg`` (where a
shell with job control can ``fg`` it; elsewhere it says so and plays on).

Subclasses say what a round is (``begin_round``), what is due when (``due_times``,
``advance``), which controller takes the keys (``make_controller``) and what a frame shows
(``view``): the game (``terminal/app.py``) and the replay viewer (``terminal/playback.py``).

Test hook (an environment variable, not for players): ``STRESS_TUI_TEST_CRASH=1`` makes
the first key raise, to check the crash path.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING

from blessed.keyboard import Keystroke

from stress_tui.core.lifecycle import Lifecycle, Stage
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.core.table import Table
from stress_tui.terminal.clock import Clock
from stress_tui.terminal.controller import Controller, TogetherKey
from stress_tui.terminal.draw.theme import suits_encodable
from stress_tui.terminal.endpoint import Endpoint, Listener
from stress_tui.terminal.frames import Banner, LifeTimer
from stress_tui.terminal.keys import KeyMap
from stress_tui.terminal.lang import N_, addressed, shown_names
from stress_tui.terminal.layout import Layout, layout
from stress_tui.terminal.notices import LATE_SECONDS, Notices
from stress_tui.terminal.pieces import countdown_ticks, lockout_ticks, resume_count
from stress_tui.terminal.running import Running
from stress_tui.terminal.scene import Scene, person_at_bottom

if TYPE_CHECKING:  # made once a round has ended (the result screen draws it)
    from stress_tui.terminal.screens.result import Result

ASCII_NOTE = N_("suits as letters")
"""Said on the rule line when the terminal's character set has no suits."""

CRASH_ENV = "STRESS_TUI_TEST_CRASH"

NO_SUSPEND = "Ctrl-Z does nothing here: no shell to bring the game back"
"""Said instead of stopping where nothing could resume the game."""


class Screen(Running):
    """A round on the table in a terminal (``Running``): the table's timer, joining the
    lifecycle's clock, the controller and the drawing."""

    def __init__(self, endpoint: Endpoint, settings: Settings, colour: bool = True) -> None:
        super().__init__(endpoint, settings, colour)
        self.rules: Rules = settings.rules
        """The rules of the round on the table."""
        shown = suits_encodable(endpoint.environ)
        self.ascii = settings.ascii if settings.ascii is not None else not shown
        """Suits as letters: asked for, or chosen because the terminal has no suits (its
        locale says so: this process's, or the one an SSH client sent)."""
        self.ascii_note = ASCII_NOTE if settings.ascii is None and self.ascii else None
        """Why the suits are letters, when the game chose it (said on the rule line)."""
        self.notices = Notices(shown_names(settings.names), you=addressed(settings.names))
        """What happened lately, and the players' names as the screen shows them (worked out
        once, for every notice and frame)."""
        self.bottom = person_at_bottom(settings.players)
        """The player whose row is drawn at the bottom."""
        kinds = settings.players
        self.own_rows = (kinds[0] == "human", kinds[1] == "human")
        """The rows whose lockout's time left this screen counts down (``Scene.own_rows``):
        at one keyboard, each person's."""
        self.banner = Banner(self.notices, settings, self.request_draw)
        """What the banner says of things outside the game."""
        self.crash_on_key = os.environ.get(CRASH_ENV) == "1"
        self.table: Table
        """The round on the table (set by the subclass)."""
        self.life = self.make_lifecycle()
        """The match's life: its stage, what holds it, the start gate, the count."""
        self.clock = Clock(self.loop_time, self.life, on_change=self.life_changed)
        """The round's clock (the lifecycle's, on the loop's)."""
        self.life_timer = LifeTimer(self.life, self.guarded, self.life_due)
        """Set for the lifecycle's next move by itself, or the count's next figure."""
        self.controller = self.make_controller()
        """What the keys do; what covers the table."""
        self.together = TogetherKey()
        """Whose together key is pressed (their next pile key lays with its equals)."""
        self.timer: asyncio.TimerHandle | None = None
        self.timer_due = 0.0
        self.schedule_after_key = False  # (asked during a key: on_key does it after its frame)

    @property
    def keymap(self) -> KeyMap:
        """Who presses what."""
        return self.controller.keymap

    def stray_key(self, name: str) -> None:
        """A key that plays nothing on the table: the banner says so once (``Banner``)."""
        if self.banner.stray_key(name, self.call_later):
            self.request_draw()

    def warn(self, text: str) -> None:
        """Say something went wrong outside the game (on the banner line, for a while)."""
        self.banner.warn(text, self.clock.now() if self.loop is not None else self.clock.last)
        self.schedule()
        self.request_draw()

    # ------------------------------------------------------------------ the round

    def make_lifecycle(self) -> Lifecycle:
        """The match's lifecycle (a replay's has no count after a pause)."""
        return Lifecycle()

    def make_controller(self) -> Controller:
        """The controller that takes this screen's keys."""
        raise NotImplementedError

    def begin_round(self) -> None:
        """Start the round's clock and draw it."""
        raise NotImplementedError

    def due_times(self) -> list[float | None]:
        """When the round next has something to do by itself."""
        raise NotImplementedError

    def advance(self, now: float) -> None:
        """Carry out what is due by ``now``."""
        raise NotImplementedError

    def view(self) -> Scene:
        """What a frame shows."""
        raise NotImplementedError

    def frame_view(self) -> Scene:
        """A frame's ``Scene`` with what every screen shows the same way filled in; ``view``
        sets on it what the screen shows its own way (score, result, seed...)."""
        controller = self.controller
        notices = self.notices
        # The table, the time (the clock's ``draw`` read for this frame), the keys and the
        # notices; the rest set one by one: a class called with keywords is handed them in
        # a dict made for the call and unpacked again (a third of what the scene cost).
        scene = Scene(self.table, self.life.last, controller.keymap, notices)
        scene.names = notices.names
        scene.you = notices.you
        scene.kinds = self.settings.players
        overlay = scene.overlay = controller.top
        if overlay is not None:
            scene.beneath = controller.stack.beneath
        scene.ascii = self.ascii
        scene.ascii_note = self.ascii_note
        scene.keyboard = self.settings.keyboard
        scene.resume_count = resume_count(self.life, None if self.loop is None else self.loop.time)
        scene.together = self.together.shown()
        scene.own_rows = self.own_rows
        scene.bottom = self.bottom
        return scene

    def listener(self) -> Listener:
        return Listener(
            key=self.on_key,
            burst_over=self.controller.burst_over,
            resize=self.on_resize,
            end=self.finish,
            suspend=self.suspend,
            resume=self.on_continue,
        )

    def opened(self) -> None:
        """The round begins, laid out for the window's size; its clock reads the loop's
        time itself from now on (``Running.loop_time`` asks first whether it runs)."""
        assert self.loop is not None
        self.clock.time = self.loop.time
        self.begin_round()
        self.on_resize()

    def closing(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.life_timer.cancel()

    # ------------------------------------------------------------------ the timer

    def schedule(self) -> None:
        """Set the one timer for the next thing due: a flip, a computer's move, a tick of
        the count, a notice or a lockout running out. None while paused or idle. A timer
        that fires no later is kept (a play moves the next due time later, mostly): if it
        fires early, ``on_timer`` sets it for the time due then, drawing nothing. That
        skips nothing: what is due a hair after any moment stays due (``countdown_ticks``,
        ``lockout_ticks``). Asked during a key, done once the key's frame is written."""
        if self.in_key:
            self.schedule_after_key = True
            return
        due = self.next_due()
        if due is None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            return
        assert self.loop is not None
        self.timer_due = due
        when = self.clock.when(due)
        if self.timer is not None:
            if self.timer.when() <= when:
                return
            self.timer.cancel()
        self.timer = self.loop.call_at(when, self.guarded, self.on_timer, due)

    def next_due(self) -> float | None:
        """The game time of the next thing due (``None``: nothing, or paused)."""
        if self.loop is None or self.life.stopped or self.controller.result is not None:
            return None  # (the clock stands still: held, waiting, counting; or the result)
        now = self.clock.now()
        expiry = self.notices.next_expiry()  # (gone with an earlier frame, if one is drawn)
        times = [
            *self.due_times(),
            countdown_ticks(self.table, now),
            None if expiry is None else expiry + LATE_SECONDS,
            lockout_ticks(self.table, now, self.own_rows),
        ]
        due = None
        for t in times:
            if t is not None and (due is None or t < due):
                due = t
        for player in self.table.game.state.players:  # a lockout's end, if one is to come
            t = player.locked_until
            if t > now and (due is None or t < due):
                due = t
        return due

    def on_timer(self, set_for: float) -> None:
        """The timer set for the game time ``set_for`` fired."""
        self.timer = None
        if set_for != self.timer_due:  # kept while what is due moved: nothing is due now
            self.schedule()
            return
        now = self.clock.reach(self.timer_due)
        self.advance(now)
        self.notices.expire(now)
        # A tick of the count, a notice or a lockout running out: the screen changes.
        self.request_draw()
        self.schedule()

    def draw(self) -> None:
        """Draw (``Running.draw``) at the time read here (``frame_view`` takes it), the
        notices and marks whose time is up gone with the frame (the timer then set anew)."""
        if self.notices.expire(self.clock.now()):
            self.schedule()
        # The base named, not ``super()``: a frame's only ``super()`` (with App.draw's) was
        # C code nothing else on a play runs, cold at a person's pace.
        Running.draw(self)

    # ------------------------------------------------------------------ keys

    def on_key(self, keystroke: Keystroke) -> None:
        """One key, as it arrived."""
        if self.crash_on_key:
            raise RuntimeError(f"{CRASH_ENV}: a crash on the first key, as asked")
        asked = self.draw_pending  # before this key: the loop's next turn draws it
        self.in_key = True
        try:
            self.controller.key(keystroke)
        finally:
            self.in_key = False
        # The last key of a burst is drawn at once, without waiting for the loop to come
        # round; earlier keys of the burst leave the drawing to it.
        if self.draw_pending and not self.endpoint.input_pending():
            self.draw()
        elif self.draw_pending and not asked:
            self.draw_soon()
        if self.schedule_after_key:  # the timer after the frame: its effect shows sooner
            self.schedule_after_key = False
            self.schedule()

    # ------------------------------------------------------------------ drawing

    def on_resize(self) -> None:
        """Lay the table out again for the terminal's size, pausing if it is too small."""
        frames = self.frames
        frames.measure()
        lay = layout(frames.size[0], frames.size[1], self.rules.row_size)
        if lay is None:
            self.clock.pause("small")
        else:
            self.clock.unpause("small")
        frames.forget()
        self.request_draw()
        if lay is not None and self.loop is not None and frames.needs_warming(lay):
            self.loop.call_soon(self.guarded, self.warm_up, lay)

    def warm_up(self, lay: Layout) -> None:
        """After a frame is up: draw every card once, so that no key waits for it."""
        self.frames.warm_up(lay, self.view())

    # ------------------------------------------------------------------ the terminal

    def suspend(self) -> None:
        """Ctrl-Z: restore the terminal, stop; on ``fg`` take it again and draw it all,
        paused: play goes on when a player says so (with a count)."""
        if not self.endpoint.can_stop():
            self.warn(NO_SUSPEND)
            return
        self.clock.pause("suspend")
        self.endpoint.suspend()
        # Here again after SIGCONT.
        self.resumed = True
        self.back_from_suspend()
        self.clock.unpause("suspend")
        self.on_resize()

    def back_from_suspend(self) -> None:
        """After ``fg``, before the clock would go on: what the screen shows (the game: its
        pause box)."""

    # ------------------------------------------------------------------ the lifecycle

    def life_changed(self) -> None:
        """The lifecycle moved (a hold came or went, a round started or ended): set both
        timers anew and draw."""
        self.schedule_life()
        self.schedule()
        self.request_draw()

    def schedule_life(self) -> None:
        """Set the lifecycle's timer: for its next move by itself (the count's end, the
        result taking keys) or, while the count runs, its next figure (1, 2, 3)."""
        if self.loop is not None:
            self.life_timer.set(self.loop)

    def life_due(self, moved: bool) -> None:
        """The lifecycle's timer came: the count's figure changed, or the lifecycle moved
        by itself."""
        if moved:
            self.life_moved()
            self.schedule()
        self.request_draw()

    def show_result(self, result: Result) -> None:
        """The round has ended: the lifecycle says so, and its result covers the table
        (taking keys a moment later)."""
        self.life.round_over(self.loop_time(), result.match_over)
        self.controller.show_result(result)
        self.schedule_life()

    def life_moved(self) -> None:
        """The lifecycle moved by itself (the count ended, the result takes keys)."""
        result = self.controller.result
        if result is not None and self.life.stage is Stage.RESULT:
            result.keys_live = True
