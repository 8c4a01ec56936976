"""The table: a round, its flip countdowns and its computer players, on a clock from outside.

Every driver feeds the same table. Keys arrive through ``submit`` stamped with the time they
came in; the table's own doings (the flip at the end of a countdown, a computer player's
move at the end of its reaction) are due at times that ``next_deadline`` tells and
``advance`` carries out. A computer player is shown its player's view of the table
(``core/view.py``), made once for all of them after each change, never the game itself;
after a key, once the table is next asked what is due (the person's frame first).
The app runs it on the event loop's clock, the simulator on a virtual one, and a replay
feeds back the logged actions: the game's events are the same.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

from stress_tui.core.actions import Action, Flip
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import Event
from stress_tui.core.view import PlayerView, table_view

_new = tuple.__new__
"""Makes a named tuple (a player's view) from its fields in one call (``core/view.py``)."""

_WAITING_FLIP = Phase.WAITING_FLIP
_ROUND_OVER = Phase.ROUND_OVER

COUNTDOWN = 1.2
"""Seconds from "1" to the flip: one, two, three, as players count at a real table."""


class Driver(Protocol):
    """A computer player: decides what to do from what its player can see."""

    player: int
    """The side it plays."""

    def decide(self, view: PlayerView) -> Action | None:
        """What to do next, stamped with the time it lands (not before the view's time),
        from what its player sees (``view``); ``None`` to wait until the table changes."""
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
        self.pending: list[Action | None] = [None, None]
        """Each player's computer move under way, stamped with the time it lands
        (``None``: none)."""
        self.on_action = on_action
        """Called with every action applied and its events (for replays)."""
        self.actions = 0
        """Actions applied so far."""
        self.unseen: float | None = None
        """The time of an action from outside that the idle computer players have not
        looked at yet (``look``; ``None``: they have seen the table as it is)."""

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
        if self.unseen is not None:
            self.look()
        best = self.flip_at
        for action in self.pending:
            if action is not None and (best is None or action.time < best):
                best = action.time
        return best

    def submit(self, action: Action) -> list[Event]:
        """Apply an action that arrived from outside (a key, a replay). The idle computer
        players look at the table it leaves later (``look``): a person's frame does not
        wait for their decisions, which are the same whenever they are made, as long as
        nothing has changed the table meanwhile."""
        if self.unseen is not None:
            self.look()
        happened = self.game.apply(action)
        self.actions += 1
        # Read once, then called: a bound method kept on the instance is a name Python 3.11
        # does not specialise as a method call (``self.on_action(...)`` would look it up
        # on the class first at every play, and miss there).
        on_action = self.on_action
        if on_action is not None:
            on_action(action, happened)
        self._settle(action.time, later=True)
        return happened

    def advance(self, now: float) -> list[Event]:
        """Carry out everything due by ``now``, in the order it falls due, each at its own
        time (a tie goes to the flip, then to player 1)."""
        # ``submit``'s apply and ``_settle`` in one loop: the simulator spends a good part of its
        # time here, once per action (bench/bench_sim.py --profile).
        happened: list[Event] = []
        game = self.game
        apply = game.apply
        state = game.state
        pending = self.pending
        drivers = self.drivers
        on_action = self.on_action
        if self.unseen is not None:
            self.look()
        # Due by ``now`` means earlier than the next float after it.
        beyond = math.nextafter(now, math.inf)
        while True:
            # The next action due: the flip first, then player 1, then player 2.
            flip_at = self.flip_at
            due = flip_at if flip_at is not None and flip_at < beyond else beyond
            action: Action | None = None
            first, second = pending
            if first is not None and first.time < due:
                due = first.time
                action = first
            if second is not None and second.time < due:
                due = second.time
                action = second
            if action is not None:
                pending[0 if action is first else 1] = None
            elif due < beyond:
                self.flip_at = None
                action = Flip(due)
            else:
                return happened
            applied = apply(action)
            self.actions += 1
            if on_action is not None:
                on_action(action, applied)
            happened += applied
            # Settle (``_settle``): a count if the piles wait for a flip, and a look for
            # every idle computer player, at one view of the table made for all of them.
            phase = state.phase
            if phase is _WAITING_FLIP:
                if self.flip_at is None:
                    self.flip_at = due + self.countdown
            else:
                self.flip_at = None
                if phase is _ROUND_OVER:
                    pending[0] = pending[1] = None
                    continue
            seen = None
            for driver in drivers:
                player = driver.player
                if pending[player] is None:
                    if seen is None:
                        seen = table_view(state, due)
                    planned = driver.decide(_new(PlayerView, (player, seen)))
                    if planned is not None:
                        if planned.time < due:
                            raise ValueError(f"a driver planned into the past: {planned}")
                        pending[player] = planned

    def _settle(self, now: float, later: bool = False) -> None:
        """After a change: start a count if the piles wait for a flip, and let idle
        computer players look at the table (``look``), now or, ``later``, once it is asked
        what is due next (``next_deadline``) or changed again (``submit``, ``advance``)."""
        phase = self.game.state.phase
        if phase is _WAITING_FLIP:
            if self.flip_at is None:
                self.flip_at = now + self.countdown
        else:
            self.flip_at = None
        if phase is _ROUND_OVER:
            self.pending[0] = self.pending[1] = None
            return
        if self.drivers:
            self.unseen = now
            if not later:
                self.look()

    def look(self) -> None:
        """Let the idle computer players look at the table as the last action from outside
        left it, at that action's time (one view of it for all of them)."""
        now = self.unseen
        if now is None:
            return
        self.unseen = None
        seen = None
        for driver in self.drivers:
            if self.pending[driver.player] is None:
                if seen is None:
                    seen = table_view(self.game.state, now)
                action = driver.decide(_new(PlayerView, (driver.player, seen)))
                if action is not None:
                    if action.time < now:
                        raise ValueError(f"a driver planned into the past: {action}")
                    self.pending[driver.player] = action
