"""The events: what happened when an action was applied (a card played, a move rejected
and why, stress won by, a round over). Only events reach the screen, replays and
statistics.

Events are values: never change one once made. They are plain slotted dataclasses rather
than frozen ones because a frozen dataclass takes four times as long to build, and the
simulator builds several per action. They compare by their fields; nothing hashes them, so
they are not hashable. No event's class has subclasses: what a play's key runs tells them
apart by their class alone (``type(event) is Played``), without a call of ``isinstance``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from stress_tui.core.actions import Action
from stress_tui.core.cards import Card
from stress_tui.core.houserules import FalseStress
from stress_tui.core.words import N_


class RejectReason(enum.Enum):
    """Why an action changed nothing. The value says it in a player's words (in English,
    marked by ``N_`` for the catalogues; the screen says it in the player's language)."""

    NOT_ADJACENT = N_("not one rank above or below")
    EMPTY_PILE = N_("that place in the row is empty")
    LOST_RACE = N_("too late: the other player was faster")
    LOCKED_OUT = N_("locked out")
    STRESS_OPEN = N_("stress is open")
    NOT_PLAYING = N_("wait for the flip")
    ROUND_OVER = N_("the round is over")
    TOO_LATE = N_("too late: the stress is settled")
    ALREADY = N_("already said")
    NO_STRESS_THREAT = N_("no card of the opponent's would make stress")
    RULE_OFF = N_("that rule is not in play")
    NOTHING_TO_FLIP = N_("the flip is not due")
    NO_CARD_TO_FLIP = N_("no card left to flip while a card can be played")


@dataclass(slots=True)
class Played:
    """A row pile went onto a play pile. Several piles laid together (``PlayTogether``) are
    one ``Played`` each, in the order they were laid, before any other event."""

    player: int
    """Who played."""
    pile: int
    """The row pile it came from."""
    target: int
    """The play pile it went on."""
    cards: tuple[Card, ...]
    """The cards moved (more than one for a stacked pile); the last is the new top."""
    time: float
    """When."""


@dataclass(slots=True)
class Drawn:
    """A card came from the draw pile into the row."""

    player: int
    """Whose row."""
    pile: int
    """The row pile it went to."""
    card: Card
    """The card."""
    stacked: bool
    """Whether it was stacked onto a pile of its own rank rather than filling a gap."""


@dataclass(slots=True)
class Rejected:
    """An action that changed nothing."""

    player: int | None
    """Whose action (``None`` for the table's flip)."""
    action: Action
    """The action."""
    reason: RejectReason
    """Why."""


@dataclass(slots=True)
class LockedOut:
    """A player may not play until ``until``."""

    player: int
    """Who."""
    until: float
    """Until when, in seconds."""


@dataclass(slots=True)
class ReadyNoted:
    """A player said they are ready to flip."""

    player: int
    """Who."""


@dataclass(slots=True)
class StopDeclared:
    """A player declared a stress stop against the opponent's next play."""

    player: int
    """Who."""


@dataclass(slots=True)
class StressStopped:
    """A stress was made, but the player who declared a stop cancelled it."""

    by: int
    """Who had declared the stop."""


@dataclass(slots=True)
class StressOpened:
    """Both play piles show the same rank (or a joker came up): the first call wins."""

    time: float
    """When it opened."""


@dataclass(slots=True)
class StressWon:
    """The first call of an open stress."""

    winner: int
    """Who called first."""
    loser: int
    """Who was slower."""
    time: float
    """When."""


@dataclass(slots=True)
class FalseStressCalled:
    """A call of stress when there was none."""

    player: int
    """Who called."""
    penalty: FalseStress
    """What it cost."""


@dataclass(slots=True)
class PilesTaken:
    """Play piles went, shuffled, into a player's draw pile (under it, or mixed into all
    of it: ``Rules.taken``)."""

    player: int
    """Who took them."""
    piles: tuple[int, ...]
    """Which play piles (0 left, 1 right)."""
    count: int
    """How many cards."""


@dataclass(slots=True)
class Stalled:
    """Nobody can play: new cards will be flipped."""


@dataclass(slots=True)
class FlipAgreed:
    """Both players said they are ready: new cards will be flipped."""


@dataclass(slots=True)
class PilesRecycled:
    """Both draw piles were empty: each player took a play pile as a new draw pile."""

    counts: tuple[int, int]
    """How many cards each player took."""


@dataclass(slots=True)
class Flipped:
    """New cards on the play piles."""

    cards: tuple[Card | None, Card | None]
    """The card flipped onto each play pile (``None``: there was no card to flip)."""
    sources: tuple[int | None, int | None]
    """Whose draw pile each came from."""
    time: float
    """When."""


@dataclass(slots=True)
class TableDead:
    """``DEAD_FLIPS`` flips in a row and no card played: the round is drawn (a
    ``RoundDrawn`` follows)."""

    counts: tuple[int, int]
    """Cards each player still holds (draw pile and row)."""


@dataclass(slots=True)
class NoProgress:
    """``Rules.stale_limit`` plays in a row and nobody came down to fewer cards than
    before: the round is drawn (a ``RoundDrawn`` follows)."""

    counts: tuple[int, int]
    """Cards each player still holds (draw pile and row)."""


@dataclass(slots=True)
class RoundDrawn:
    """The round ended without a last card laid (a dead table, no progress): nobody wins
    it, and the match deals the next."""

    time: float
    """When."""


@dataclass(slots=True)
class RoundWon:
    """A player has no card left in draw pile or row."""

    player: int
    """The winner."""
    time: float
    """When."""


Event = (
    Played
    | Drawn
    | Rejected
    | LockedOut
    | ReadyNoted
    | StopDeclared
    | StressStopped
    | StressOpened
    | StressWon
    | FalseStressCalled
    | PilesTaken
    | Stalled
    | FlipAgreed
    | PilesRecycled
    | Flipped
    | TableDead
    | NoProgress
    | RoundDrawn
    | RoundWon
)
"""Everything that can happen; only events reach the screen, replays and statistics."""
