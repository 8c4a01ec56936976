"""Races settled by when a key was pressed, not by when it arrived.

The host dates the joiner's actions at their arrival less the connection's one-way delay
(capped at ``MAX_DELAY``), so an action can arrive dated earlier than one already
applied. ``FairTable`` keeps the round's actions from players in date order and, when one
arrives out of order, plays the round again from its deal with that action in its place:
the engine is deterministic, so the same deal and the same dated actions give the same
events, and whatever the later action had done is taken back ("der Langsamere muss seine
Karte zuruecknehmen"). Pure: no clock, no network; time comes with every call.
"""

from __future__ import annotations

import bisect
import dataclasses
from dataclasses import dataclass, field

from stress_tui.core.actions import Action, Flip
from stress_tui.core.engine import Game
from stress_tui.core.events import Event, Rejected
from stress_tui.core.table import COUNTDOWN, Table

MAX_DELAY = 0.15
"""The most a joiner's action is dated back: a slow or lying client buys no more."""


@dataclass
class Outcome:
    """What an action did, once every action is in date order."""

    events: list[Event]
    """What to show: the action's events, or, when the round was played again, every
    event from the first one that changed."""
    rebuilt: bool = False
    """Whether the round was played again to put the action in its place."""
    taken_back: list[Action] = field(default_factory=list)
    """Actions that had gone through and, in date order, did not."""
    kept: int | None = None
    """After a rebuild: how many of the actions applied before are still the first ones
    (those after were taken back or moved); ``None``: all of them are."""


class FairTable:
    """A ``Table`` that takes actions in any order within a round and applies them in the
    order of their dates."""

    def __init__(self, game: Game, countdown: float = COUNTDOWN) -> None:
        self.dealt = game.copy()
        """The round as dealt (never played on: each rebuild plays a copy)."""
        self.countdown = countdown
        """Seconds from the start of a count to its flip."""
        self.inputs: list[Action] = []
        """Every player's action so far, in date order (ties in arrival order)."""
        self.applied: list[tuple[Action, list[Event]]] = []
        """What the table applied, flips included, in order, with its events."""
        self.table = self._new_table(game)
        """The round as it now stands (a new object after a rebuild)."""
        self.started: float | None = None
        """When the round began (``start``)."""
        self.reached = 0.0
        """The latest time the table was carried to."""
        self.floor = 0.0
        """No action is dated before this (the round's start, the end of a pause)."""
        self.rebuilds = 0
        """Times the round was played again."""

    def _new_table(self, game: Game) -> Table:
        applied = self.applied = []

        def note(action: Action, events: list[Event]) -> None:
            applied.append((action, events))

        return Table(game, countdown=self.countdown, on_action=note)

    @property
    def game(self) -> Game:
        """The round as it now stands."""
        return self.table.game

    @property
    def flip_at(self) -> float | None:
        """When the pending flip is due."""
        return self.table.flip_at

    def start(self, now: float) -> None:
        """Begin the round: its first count starts now."""
        self.started = self.reached = self.floor = now
        self.table.start(now)

    def count_left(self, now: float) -> float | None:
        """Seconds until the pending flip, if a count is running."""
        return self.table.count_left(now)

    def next_deadline(self) -> float | None:
        """When the table next has something to do by itself."""
        return self.table.next_deadline()

    def advance(self, now: float) -> list[Event]:
        """Carry out what is due by ``now``."""
        self.reached = max(self.reached, now)
        return self.table.advance(now)

    def hold(self, now: float) -> None:
        """Nothing may be dated before ``now`` (a pause ended: what was settled stays)."""
        self.floor = max(self.floor, now)

    def submit(self, action: Action) -> Outcome:
        """Apply a player's action at its date (never before ``floor``)."""
        if action.time < self.floor:
            action = dataclasses.replace(action, time=self.floor)
        if action.time >= self.game.state.time:
            # Nothing applied after its date: apply it as it comes.
            events = self.advance(action.time)
            events += self.table.submit(action)
            self.inputs.append(action)
            self.reached = max(self.reached, action.time)
            return Outcome(events)
        return self._rebuild(action)

    def _rebuild(self, action: Action) -> Outcome:
        """Play the round again from its deal with ``action`` in its place."""
        old = self.applied
        where = bisect.bisect_right([a.time for a in self.inputs], action.time)
        self.inputs.insert(where, action)
        table = self._new_table(self.dealt.copy())
        assert self.started is not None
        table.start(self.started)
        for earlier in self.inputs:
            table.advance(earlier.time)
            table.submit(earlier)
        table.advance(self.reached)
        self.table = table
        self.rebuilds += 1
        new = self.applied
        first = 0
        while first < min(len(old), len(new)) and old[first] == new[first]:
            first += 1
        events = [e for _, applied in new[first:] for e in applied]
        taken_back: list[Action] = []
        for was, evs in old[first:]:
            if isinstance(was, Flip) or _refused(was, evs):
                continue
            now_events = next((e for a, e in new if a == was), None)
            if now_events is None or _refused(was, now_events):
                taken_back.append(was)
        return Outcome(events, rebuilt=True, taken_back=taken_back, kept=first)

    def actions(self) -> list[Action]:
        """Every action applied, flips included, in order (what a replay records)."""
        return [a for a, _ in self.applied]


def _refused(action: Action, events: list[Event]) -> bool:
    """Whether ``events`` (the events of ``action``) say it changed nothing."""
    return any(isinstance(e, Rejected) and e.action == action for e in events)
