"""The table: a round, its flip countdowns and its computer players, on a clock from outside.

Every driver feeds the same table. Keys arrive through ``submit`` stamped with the time they
came in; the table's own doings (the flip at the end of a countdown, a computer player's
move at the end of its reaction) are due at times that ``next_deadline`` tells and
``advance`` carries out. The app runs it on the event loop's clock, the simulator on a
virtual one, and a replay feeds back the logged actions: the game's events are the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .engine import Action, Event, Flip, Game, Phase

COUNTDOWN = 1.2
"""Seconds from "1" to the flip: one, two, three, as players count at a real table."""


class Driver(Protocol):
    """A computer player: decides what to do from what its player can see."""

    player: int
    """The side it plays."""

    def plan(self, game: Game, now: float) -> Action | None:
        """What to do next, stamped with the time it lands (not before ``now``), looking
        only at what ``player`` can see of ``game``; ``None`` to wait until the table
        changes."""
        ...


class Table:
    """One round on the table, with its countdowns and computer players."""

    def __init__(
        self,
        game: Game,
        drivers: tuple[Driver, ...] = (),
        countdown: float = COUNTDOWN,
        on_action: Callable[[Action, list[Event]], None] | None = None,
    ) -> None:
        self.game = game
        """The round."""
        self.drivers = drivers
        """The computer players."""
        self.countdown = countdown
        """Seconds from the start of a count to its flip."""
        self.flip_at: float | None = None
        """When the pending flip is due (``None``: no count running)."""
        self.pending: dict[int, Action] = {}
        """Each computer player's move under way, stamped with the time it lands."""
        self.on_action = on_action
        """Called with every action applied and its events (for replays)."""
        self.actions = 0
        """Actions applied so far."""

    def start(self, now: float) -> None:
        """Begin the round: the first count starts now."""
        self._settle(now)

    def count_left(self, now: float) -> float | None:
        """Seconds until the pending flip, if a count is running."""
        if self.flip_at is None:
            return None
        return max(0.0, self.flip_at - now)

    def next_deadline(self) -> float | None:
        """When the table next has something to do by itself (``None``: only keys can
        change anything)."""
        best = self.flip_at
        for action in self.pending.values():
            if best is None or action.time < best:
                best = action.time
        return best

    def submit(self, action: Action) -> list[Event]:
        """Apply an action that arrived from outside (a key, a replay)."""
        events = self._apply(action)
        self._settle(action.time)
        return events

    def advance(self, now: float) -> list[Event]:
        """Carry out everything due by ``now``, in the order it falls due, each at its own
        time (a tie goes to the flip, then to player 1)."""
        events: list[Event] = []
        while True:
            action = self._next_due(now)
            if action is None:
                return events
            events += self._apply(action)
            self._settle(action.time)

    def _next_due(self, now: float) -> Action | None:
        best: Action | None = None
        if self.flip_at is not None and self.flip_at <= now:
            best = Flip(self.flip_at)
        pending = self.pending
        for player in (0, 1):
            action = pending.get(player)
            if action is not None and action.time <= now and (
                best is None or action.time < best.time
            ):
                best = action
        if isinstance(best, Flip):
            self.flip_at = None
        elif best is not None:
            del self.pending[best.player]
        return best

    def _apply(self, action: Action) -> list[Event]:
        events = self.game.apply(action)
        self.actions += 1
        if self.on_action is not None:
            self.on_action(action, events)
        return events

    def _settle(self, now: float) -> None:
        """After a change: start a count if the piles wait for a flip, and let idle
        computer players look at the table."""
        phase = self.game.state.phase
        if phase is Phase.WAITING_FLIP:
            if self.flip_at is None:
                self.flip_at = now + self.countdown
        else:
            self.flip_at = None
        if phase is Phase.ROUND_OVER:
            self.pending.clear()
            return
        for driver in self.drivers:
            if driver.player not in self.pending:
                action = driver.plan(self.game, now)
                if action is not None:
                    if action.time < now:
                        raise ValueError(f"a driver planned into the past: {action}")
                    self.pending[driver.player] = action
