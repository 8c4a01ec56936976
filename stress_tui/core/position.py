"""A position of Stress: each player's cards and standing, the play piles, the phase of the
round, and the check that a position is one the rules can come to. What the notation
writes and reads (``core/notation.py``) and the engine (``core/engine.py``) changes.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections import Counter
from dataclasses import dataclass, field

from stress_tui.core.cards import Card, format_cards
from stress_tui.core.houserules import Deal
from stress_tui.core.rules import Rules
from stress_tui.core.text import Problem
from stress_tui.core.words import N_

PLAYERS = (0, 1)
"""The two players' numbers."""

UNCOUNTED = 1 << 62
"""``PlayerState.fewest`` of a position that has not counted it: the next play is progress."""


class Phase(enum.Enum):
    """Where a round stands."""

    WAITING_FLIP = "waiting"
    """The play piles wait for both players to flip a card (start, stall, after stress)."""
    PLAYING = "playing"
    """Anyone may play."""
    STRESS = "stress"
    """Stress is open: no card may be played, the first call wins."""
    ROUND_OVER = "over"
    """Someone has no card left; nothing more can happen."""


_WAITING_FLIP = Phase.WAITING_FLIP
_PLAYING = Phase.PLAYING
_STRESS = Phase.STRESS
_ROUND_OVER = Phase.ROUND_OVER
"""The phases under plain names: on Python 3.11 reading a member off its enum class takes
about 0.2 µs, and the engine reads them at every action."""


class InvalidPositionError(Problem, ValueError):
    """A position the rules cannot come to: a card too many, a row of the wrong size...
    A ``core.text.Problem``: said in the player's language where a position is shown to
    be wrong (the notation's words, ``p1 row``, ``covers``, stay as written)."""


# --------------------------------------------------------------------------- position


@dataclass(slots=True)
class PlayerState:
    """One player's cards and standing."""

    draw_pile: list[Card]
    """Face down, bottom first: the next card drawn is the last."""
    row: list[list[Card]]
    """The face-up piles, ``row_size`` places; an empty list is an empty place."""
    ready: bool = False
    """Said ready to flip since the last change to the play piles."""
    locked_until: float = 0.0
    """No play is accepted before this time."""
    stop: tuple[int, ...] = ()
    """The places of the opponent's row this player's stress stop points at (empty: no
    stop): the cards that would have made stress when it was declared. The opponent's
    next play ends it; one of these cards played makes no stress."""
    fewest: int = UNCOUNTED
    """The fewest cards (draw pile and row) this player has held so far in the round
    (never more than they hold now)."""
    shown: list[Card | None] = field(init=False, repr=False, compare=False)
    """The card each place of the row shows, its pile's last (``None``: an empty place):
    what the rules (``Game.legal_plays``, the stall check) and the view read of a row,
    made with the state and kept with ``row`` where a pile changes, so that no query
    makes it again. The engine keeps it as it lays and draws; code that changes a pile
    of ``row`` otherwise says so with ``show``."""

    def __post_init__(self) -> None:
        self.shown = [pile[-1] if pile else None for pile in self.row]

    def show(self, place: int) -> None:
        """Keep ``shown`` for a place of the row whose pile has changed."""
        pile = self.row[place]
        self.shown[place] = pile[-1] if pile else None

    def card_total(self) -> int:
        """Cards in draw pile and row."""
        return len(self.draw_pile) + sum(len(pile) for pile in self.row)

    def copy(self) -> PlayerState:
        """A copy whose piles can change without changing these (the cards are values;
        every other field is a plain value, copied as it is)."""
        return dataclasses.replace(
            self, draw_pile=list(self.draw_pile), row=[list(pile) for pile in self.row]
        )


Cover = tuple[int, float, int]
"""A play onto a play pile: who made it, when, and the rank it covered, ``(player, time,
under)``, the order the notation and the wire write them in. A plain tuple: a play makes
one, and a tuple costs a sixth of what a class's instance does to make and free (no
class call, no ``__init__`` frame)."""


@dataclass(slots=True)
class State:
    """A complete position: what the notation writes and reads."""

    rules: Rules
    """The rules in play."""
    players: tuple[PlayerState, PlayerState]
    """Player 0 (``p1``) and player 1 (``p2``)."""
    play_piles: tuple[list[Card], list[Card]]
    """Left and right play pile, bottom first."""
    phase: Phase = Phase.WAITING_FLIP
    """Where the round stands."""
    time: float = 0.0
    """The time of the last action."""
    covers: list[list[Cover]] = field(default_factory=lambda: [[], []])
    """For each play pile, the plays onto it at most the race window before the latest,
    oldest first (none after a flip): what a late play may have been aimed at."""
    winner: int | None = None
    """Who won the round, once it is over (``None`` after a drawn round)."""
    flips: int = 0
    """Flips since a card was last played (the table dies at ``DEAD_FLIPS``)."""
    stale: int = 0
    """Plays since a player last came down to fewer cards than they had ever held (the
    round is drawn at ``Rules.stale_limit``)."""
    tops: list[Card | None] = field(init=False, repr=False, compare=False)
    """The card on top of the left and the right play pile (``None``: an empty pile), as
    ``PlayerState.shown`` is a row's: made with the state and kept with ``play_piles``
    where a card is laid, flipped or taken, for the rules' queries and the view to read."""

    def __post_init__(self) -> None:
        self.tops = [pile[-1] if pile else None for pile in self.play_piles]

    def cards(self) -> Counter[Card]:
        """Every card in the position, counted."""
        counts: Counter[Card] = Counter()
        for player in self.players:
            counts.update(player.draw_pile)
            for pile in player.row:
                counts.update(pile)
        for pile in self.play_piles:
            counts.update(pile)
        return counts

    def copy(self) -> State:
        """A copy that actions can change without changing this one (the rules and the
        cards, which never change, are shared; every field that is not a list or a
        player's state is a plain value, copied as it is: ``tests/test_position.py``
        fails when one is not)."""
        one, two = self.players
        left, right = self.play_piles
        return dataclasses.replace(
            self,
            players=(one.copy(), two.copy()),
            play_piles=(list(left), list(right)),
            covers=[list(covers) for covers in self.covers],
        )

    def check(self, complete: bool = False) -> None:
        """Raise ``InvalidPositionError`` naming what is wrong unless this is a position
        the rules allow: rows of the rules' size, stacks only of one rank and only with
        stacking, no card the deck as dealt does not hold (nor more of it), a winner only
        once the round is over, two play piles, covers only on a pile with cards, times
        that are finite. ``complete``: also every card dealt is here, and no row has a gap
        while its draw pile holds a card (as in every position a dealt round comes to).

        >>> from stress_tui.core.notation import parse_position
        >>> state = parse_position("rules: skat stacking=on; p1 row: 7H | - | AS; piles: 8D | -;"
        ...                        " p2 row: - | - | -")
        >>> state.check()
        >>> state.players[0].row[0].append(Card.parse("8H"))
        >>> def show(complete: bool = False) -> None:
        ...     try:
        ...         state.check(complete)
        ...     except InvalidPositionError as error:
        ...         print(error)
        >>> show()
        p1 row: a stacked pile must hold one rank: 7H 8H
        >>> _ = state.players[0].row[0].pop()
        >>> show(complete=True)
        cards: 3 in the position, 32 dealt
        """
        rules = self.rules
        if len(self.players) != 2:
            raise InvalidPositionError(N_("players: two, not {n}"), n=len(self.players))
        if len(self.play_piles) != 2:
            raise InvalidPositionError(N_("piles: two play piles, not {n}"), n=len(self.play_piles))
        if not math.isfinite(self.time) or self.time < 0:
            raise InvalidPositionError(N_("time: not a time: {time}"), time=repr(self.time))
        for name, player in zip(("p1", "p2"), self.players, strict=True):
            where = f"{name} row"
            if len(player.row) != rules.row_size:
                raise InvalidPositionError(
                    N_("{where}: {n} piles, but the rules have rows of {size}"),
                    where=where,
                    n=len(player.row),
                    size=rules.row_size,
                )
            for pile in player.row:
                if len(pile) < 2:
                    continue
                if not rules.stacking:
                    raise InvalidPositionError(
                        N_("{where}: a stacked pile, but stacking is off"), where=where
                    )
                if pile[0].is_joker or any(card.rank != pile[0].rank for card in pile):
                    raise InvalidPositionError(
                        N_("{where}: a stacked pile must hold one rank: {cards}"),
                        where=where,
                        cards=format_cards(pile),
                    )
            if complete and player.draw_pile and not all(player.row):
                raise InvalidPositionError(
                    N_("{where}: a gap, with cards in the draw pile"), where=where
                )
            if any(not 0 <= place < rules.row_size for place in player.stop):
                raise InvalidPositionError(
                    N_("{name} state: a stop on no place of a row"), name=name
                )
            if not math.isfinite(player.locked_until):
                raise InvalidPositionError(N_("{name} state: locked out until no time"), name=name)
        decks = 2 if rules.deal is Deal.EACH else 1
        allowed = Counter(rules.spec.cards(rules.jokers) * decks)
        counts = self.cards()
        for card, count in counts.items():
            if count > allowed[card]:
                what = (
                    N_("{card}: no such card in the {deck} deck as dealt")
                    if not allowed[card]
                    else N_("{card}: too many of this card for the {deck} deck as dealt")
                )
                raise InvalidPositionError(what, card=str(card), deck=rules.deck)
        if complete and counts != allowed:
            raise InvalidPositionError(
                N_("cards: {n} in the position, {dealt} dealt"),
                n=counts.total(),
                dealt=allowed.total(),
            )
        if len(self.covers) != 2:
            raise InvalidPositionError(N_("covers: one per play pile"))
        for pile, covers in zip(self.play_piles, self.covers, strict=True):
            if covers and not pile:
                raise InvalidPositionError(N_("covers: a play onto a pile that is empty"))
            if any(player not in PLAYERS for player, _, _ in covers):
                raise InvalidPositionError(N_("covers: a play by no player"))
        if self.winner not in (None, *PLAYERS):
            raise InvalidPositionError(
                N_("winner: p1, p2 or none, not {winner}"), winner=repr(self.winner)
            )
        if self.winner is not None and self.phase is not Phase.ROUND_OVER:
            raise InvalidPositionError(
                N_("winner: a winner, but the phase is {phase}"), phase=self.phase.value
            )
        if self.flips < 0:
            raise InvalidPositionError(N_("flips: a whole number, not {n}"), n=self.flips)
