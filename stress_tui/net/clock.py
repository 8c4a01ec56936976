"""The round's clock at a network table: the loop's clock less the time it was stopped.

The host's clock is the one the round is played on; it stops while the match is paused,
while a player is away and between rounds, for both players at once. Its source is given
(the event loop's ``time``), so that tests can run it by hand.
"""

from __future__ import annotations

from collections.abc import Callable


class MatchClock:
    """Seconds of play: runs while ``running``, stands still otherwise, never runs back."""

    def __init__(self, source: Callable[[], float]) -> None:
        self.source = source
        """The clock it follows (the event loop's)."""
        self.shown = 0.0
        """What it showed when it last stopped or started."""
        self.since: float | None = None
        """The source's time when it last started (``None``: stopped)."""

    @property
    def running(self) -> bool:
        """Whether time passes."""
        return self.since is not None

    def time(self) -> float:
        """The round's clock now."""
        if self.since is None:
            return self.shown
        return self.shown + max(0.0, self.source() - self.since)

    def go(self) -> None:
        """Let time pass (from what it shows now)."""
        if self.since is None:
            self.since = self.source()

    def stop(self) -> None:
        """Stand still."""
        if self.since is not None:
            self.shown = self.time()
            self.since = None

    def set(self, shown: float) -> None:
        """Show ``shown`` from now on (running or not, as it was)."""
        self.shown = shown
        if self.since is not None:
            self.since = self.source()

    def source_time_at(self, shown: float) -> float | None:
        """When, on the source's clock, it will show ``shown`` (``None``: stopped)."""
        if self.since is None:
            return None
        return self.since + max(0.0, shown - self.shown)
