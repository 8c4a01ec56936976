"""The round's clock: game time, read from an outside clock, that stops while paused.

Game time is seconds since the round began, not counting the time spent paused (help,
pause, a window too small, a suspended game), times ``speed`` (a replay runs faster or
slower). It never runs back. The outside clock is a function (the event loop's
``time``), so a test can drive the clock by hand.
"""

from __future__ import annotations

from collections.abc import Callable

INTERRUPTIONS = frozenset({"help", "pause", "suspend", "small"})
"""The reasons to stop the clock after which play resumes with a count (``on_resume``)."""


class Clock:
    """A round's clock on an outside clock; several reasons to pause may hold at once."""

    def __init__(
        self,
        time: Callable[[], float],
        speed: float = 1.0,
        on_change: Callable[[], None] | None = None,
        on_resume: Callable[[], bool] | None = None,
    ) -> None:
        self.time = time
        """The outside clock (seconds; only its differences count)."""
        self.speed = speed
        """Seconds of game time per second of the outside clock (a replay's ``--speed``)."""
        self.on_change = on_change
        """Called when the clock stops or goes again (to set the timer anew)."""
        self.on_resume = on_resume
        """Asked when the clock would go again after an interruption (``INTERRUPTIONS``):
        ``True`` holds it, paused for ``resume``, until that reason is dropped (a count)."""
        self.origin = 0.0
        """What the clock showed at ``start``."""
        self.start = 0.0
        """When (on the outside clock) the clock last showed ``origin``."""
        self.paused_total = 0.0
        """Outside seconds spent paused since ``start``."""
        self.paused_since = 0.0
        """When the current pause began (on the outside clock)."""
        self.paused: set[str] = set()
        """Why the clock is stopped: ``help``, ``pause``, ``small``, ``suspend``; ``start``
        (a round waiting for its players), ``resume`` (the count after an interruption)."""
        self.last = 0.0
        """The latest game time shown (the clock never runs back)."""

    def now(self) -> float:
        """The game time now."""
        now = self.time()
        paused = self.paused_total + (now - self.paused_since if self.paused else 0.0)
        shown = self.origin + (now - self.start - paused) * self.speed
        self.last = max(self.last, shown)
        return self.last

    def reach(self, game_time: float) -> float:
        """The game time now, or ``game_time`` if the clock is just short of it (a timer
        set for it may fire a hair early); what it shows from then on."""
        self.last = max(self.now(), game_time)
        return self.last

    def when(self, game_time: float) -> float:
        """When (on the outside clock) the clock shows ``game_time``, if it is not paused
        meanwhile."""
        return self.start + self.paused_total + (game_time - self.origin) / self.speed

    def set(self, game_time: float) -> None:
        """Make the clock show ``game_time`` now (stopped still if paused)."""
        now = self.time()
        self.origin = game_time
        self.start = now
        self.paused_total = 0.0
        self.paused_since = now
        self.last = game_time

    def pause(self, reason: str) -> None:
        """Stop the clock for ``reason``."""
        if not self.paused:
            self.paused_since = self.time()
        self.paused.add(reason)
        if self.on_change is not None:
            self.on_change()

    def unpause(self, reason: str) -> None:
        """Drop one reason to pause; the clock goes again when none is left."""
        if reason not in self.paused:
            return
        self.paused.discard(reason)
        if (
            not self.paused
            and reason in INTERRUPTIONS
            and self.on_resume is not None
            and self.on_resume()
        ):
            self.paused.add("resume")
        if not self.paused:
            self.paused_total += self.time() - self.paused_since
        if self.on_change is not None:
            self.on_change()
