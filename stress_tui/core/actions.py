"""The actions: what a player (or the table, for its flip) asks of a round, and the errors
for an action that cannot even be judged (no such player or pile, time running back).

Actions are values: never change one once made. They are plain slotted dataclasses rather
than frozen ones because a frozen dataclass takes four times as long to build, and the
simulator builds several per action. They compare by their fields; nothing hashes them, so
they are not hashable.
"""

from __future__ import annotations

from dataclasses import dataclass

from stress_tui.core.text import Problem


@dataclass(slots=True)
class Play:
    """Move row pile ``pile`` of ``player`` onto play pile ``target`` (0 left, 1 right)."""

    player: int
    """Who plays."""
    pile: int
    """Which pile of their row (0 is leftmost)."""
    target: int
    """Which play pile: 0 left, 1 right."""
    time: float
    """When the key arrived, in seconds."""


@dataclass(slots=True)
class PlayTogether(Play):
    """Move row pile ``pile`` onto play pile ``target`` together with every other pile of
    the row that shows its rank, all at once (001's *Stapel*, the ``together`` rule). A
    joker goes alone."""


@dataclass(slots=True)
class CallStress:
    """Call stress (and slap the piles)."""

    player: int
    """Who calls."""
    time: float
    """When the key arrived, in seconds."""


@dataclass(slots=True)
class ReadyToFlip:
    """Say one has nothing one wants to play: when both say so, new cards are flipped."""

    player: int
    """Who is ready."""
    time: float
    """When the key arrived, in seconds."""


@dataclass(slots=True)
class StopStress:
    """The Swiss stress stop: if the opponent's next play makes stress, it is no stress."""

    player: int
    """Who stops."""
    time: float
    """When the key arrived, in seconds."""


@dataclass(slots=True)
class Flip:
    """Both players flip a card onto the play piles (sent by the table after its count)."""

    time: float
    """When the count reached three, in seconds."""


Action = Play | PlayTogether | CallStress | ReadyToFlip | StopStress | Flip
"""Anything a player or the table can do."""


class MalformedActionError(Problem, ValueError):
    """An action that cannot even be judged: no such player or pile, or time running back.
    A ``core.text.Problem``: said in the player's language where a replay's action cannot
    be applied."""


class NoSuchPlayerError(MalformedActionError):
    """The action names a player other than 0 and 1."""


class NoSuchPileError(MalformedActionError):
    """The action names a row pile or play pile that does not exist."""
