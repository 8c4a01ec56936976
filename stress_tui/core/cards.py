"""Cards, suits, ranks and the four decks Stress is played with.

A card is a rank and a suit; jokers have rank ``JOKER`` and no suit. The ranks and the
decks' facts are ``core/decks.py``'s; a ``Deck`` here is made from each. Cards compare by
value: the two copies of a card in a Doppelkopf deck are equal, and card bookkeeping
counts them as a multiset.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from dataclasses import dataclass

from stress_tui.core.decks import DECK_FACTS, JOKER, RANK_LETTERS
from stress_tui.core.text import N_, Problem


class CardError(Problem, ValueError):
    """Text that is not a card in notation: a ``core.text.Problem``, said in the player's
    language where a position is shown to be wrong (English as ``str``)."""


class Suit(enum.Enum):
    """The four French suits. Suits never matter for play; they are drawn on screen."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    __hash__ = object.__hash__
    """Hashed as any object is, by identity (each suit is one object, equal only to itself),
    in C: ``Enum``'s own hash is a Python function, and a card is hashed for each look-up
    by value (its drawing on screen, a count of cards) at every play."""

    @property
    def symbol(self) -> str:
        """The suit's glyph."""
        return _SUIT_SYMBOLS[self]


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card."""

    rank: int
    """2..14 (ace high in the cycle's order), or ``JOKER``."""
    suit: Suit | None
    """The suit; ``None`` for a joker."""

    @property
    def is_joker(self) -> bool:
        """Whether this card is a wild joker."""
        return self.rank == JOKER

    def __str__(self) -> str:
        """The card in notation: rank letter and suit letter, ``**`` for a joker.

        >>> str(Card(10, Suit.HEARTS)), str(JOKER_CARD)
        ('TH', '**')
        """
        if self.suit is None:
            return "**"
        return RANK_LETTERS[self.rank] + self.suit.value

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card in notation (``7S``, ``TH``, ``AC``, ``**``); case does not matter.

        >>> Card.parse("qd")
        Card(rank=12, suit=<Suit.DIAMONDS: 'D'>)
        """
        text = text.strip().upper()
        if text == "**":
            return JOKER_CARD
        if text.startswith("10"):
            text = "T" + text[2:]
        if len(text) != 2 or text[0] not in _RANK_BY_LETTER:
            raise CardError(N_("not a card: {text}"), text=repr(text))
        try:
            suit = Suit(text[1])
        except ValueError:
            raise CardError(
                N_("not a card: {text} (suits are C, D, H, S)"), text=repr(text)
            ) from None
        return _card(_RANK_BY_LETTER[text[0]], suit)


_RANK_BY_LETTER = {letter: rank for rank, letter in RANK_LETTERS.items()}

JOKER_CARD = Card(JOKER, None)
"""The joker (all jokers are alike)."""


@functools.cache
def _card(rank: int, suit: Suit) -> Card:
    """The one card of each value that the decks deal and notation reads, so that two
    cards of a value met in a round (a card drawn on screen and the one it was drawn for,
    kept by value) are mostly the same object, which Python compares without a call of
    ``Card.__eq__``."""
    return Card(rank, suit)


@functools.cache
def _deck_cards(ranks: tuple[int, ...], copies: int) -> tuple[Card, ...]:
    """A deck's cards, made once: every round deals copies of the same card values."""
    return tuple(_card(rank, suit) for suit in Suit for rank in ranks for _ in range(copies))


@dataclass(frozen=True, slots=True, eq=False)
class Deck:
    """A kind of deck and the defaults the seed documents give for playing with it."""

    name: str
    """The name used by ``--deck`` and the notation."""
    ranks: tuple[int, ...]
    """The deck's ranks in cycle order, lowest first; the highest wraps to the lowest."""
    copies: int
    """How many copies of every card one deck holds (2 for Doppelkopf)."""
    source: str
    """Where the deck and its default rules come from (``houserules.HOUSE_RULES`` keeps
    each rule's default with it)."""

    def cards(self, jokers: int = 0) -> list[Card]:
        """One full deck in a fixed order (suits, then ranks, then copies), plus jokers."""
        return list(_deck_cards(self.ranks, self.copies)) + [JOKER_CARD] * jokers

    def __len__(self) -> int:
        return len(self.ranks) * 4 * self.copies


DECKS: dict[str, Deck] = {
    name: Deck(name, ranks, copies, source) for name, (ranks, copies, source) in DECK_FACTS.items()
}
"""The decks by name."""


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by spaces."""
    return " ".join(str(card) for card in cards)


def parse_cards(text: str) -> list[Card]:
    """Cards in notation, separated by white space."""
    return [Card.parse(token) for token in text.split()]
