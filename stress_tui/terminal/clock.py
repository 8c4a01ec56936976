"""The round's clock in a terminal: the match's lifecycle (``core/lifecycle.py``) read on an
outside clock (the event loop's ``time``), so that a test can drive it by hand.

Game time is the lifecycle's: seconds since the round began, not counting the time it
stood still (the start gate, a hold: help, pause, a window too small, a suspended game;
the count after one), times ``speed``. It never runs back.
"""

from __future__ import annotations

from collections.abc import Callable

from stress_tui.core.lifecycle import Hold, Lifecycle, Stage


class Clock:
    """A match's lifecycle on an outside clock: its game time, and its holds by name."""

    def __init__(
        self,
        time: Callable[[], float],
        life: Lifecycle | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.time = time
        """The outside clock (seconds; only its differences count)."""
        self.life = life if life is not None else Lifecycle()
        """The match's lifecycle, whose clock this reads."""
        self.on_change = on_change
        """Called when the clock stops or goes again (to set the timers anew)."""

    @property
    def speed(self) -> float:
        """Seconds of game time per second of the outside clock (a replay's ``--speed``)."""
        return self.life.speed

    @speed.setter
    def speed(self, speed: float) -> None:
        self.life.set_speed(speed, self.time())

    @property
    def last(self) -> float:
        """The latest game time shown (the clock never runs back)."""
        return self.life.last

    @property
    def paused(self) -> set[str]:
        """Why the clock stands still, by name: the holds (``help``, ``pause``, ``small``,
        ``suspend``...), ``start`` (a round waiting for its players) and ``resume`` (the
        count after a hold)."""
        life = self.life
        why = {h.hold.value for h in life.holds}
        if life.base in (Stage.WAITING, Stage.READY):
            why.add("start")
        if life.stage is Stage.COUNT:
            why.add("resume")
        return why

    def now(self) -> float:
        """The game time now."""
        time = self.time  # (read, then called: see ``Endpoint.received``)
        return self.life.time(time())

    def reach(self, game_time: float) -> float:
        """The game time now, or ``game_time`` if the clock is just short of it (a timer
        set for it may fire a hair early); what it shows from then on."""
        return self.life.reach(game_time, self.time())

    def when(self, game_time: float) -> float:
        """When (on the outside clock) the clock shows ``game_time``, if it is not paused
        meanwhile."""
        return self.life.when(game_time)

    def set(self, game_time: float) -> None:
        """Make the clock show ``game_time`` now (stopped still if paused)."""
        self.life.set_time(game_time, self.time())

    def pause(self, reason: str) -> None:
        """Hold the clock for ``reason`` (a ``Hold``'s name)."""
        if self.life.hold(Hold(reason), self.time()) and self.on_change is not None:
            self.on_change()

    def unpause(self, reason: str) -> None:
        """Drop one hold; the clock goes again when none is left (after the count, in a
        round under way)."""
        if self.life.release(Hold(reason), self.time()) and self.on_change is not None:
            self.on_change()
