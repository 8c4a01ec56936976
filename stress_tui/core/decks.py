"""The ranks and the decks Stress is played with, as plain facts: what the help, the
rule table and the rule texts say of them without a card in hand.

Ranks are small integers (2..10, then 11 jack, 12 queen, 13 king, 14 ace) so that the rules
can look up adjacency in a table. The cards and the ``Deck`` values made from these facts
are ``core/cards.py``'s.
"""

from __future__ import annotations

JOKER = 0
"""The rank of a joker: wild, it goes on any card and any card goes on it."""

JACK, QUEEN, KING, ACE = 11, 12, 13, 14

RANK_LETTERS = {
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "T",
    JACK: "J",
    QUEEN: "Q",
    KING: "K",
    ACE: "A",
}
"""One letter per rank, as used by the position notation (``T`` is the ten)."""

RANK_NAMES = {**{r: str(r) for r in range(2, 11)}, JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
"""How a rank is shown to a player (``10`` rather than ``T``)."""

DECK_FACTS: dict[str, tuple[tuple[int, ...], int, str]] = {
    "standard": (
        tuple(range(2, 15)),
        1,
        "000 (Swedish): 52 cards split 26/26, rows of four",
    ),
    "jass": (
        tuple(range(6, 15)),
        1,
        "001 (German), Einfacher Kartensatz: Jass 36 cards 6..A, to 5 wins, stress stop, a "
        "false call costs nothing, four open cards and never more than one card at once into "
        "the middle (so no stacking)",
    ),
    "skat": (
        tuple(range(7, 15)),
        1,
        "001 (German), Variante für Skat-Spieler: 32 cards 7..A, three open cards",
    ),
    "doppelkopf": (
        tuple(range(9, 15)),
        2,
        "001 (German), Verändertes Kartenblatt: 9..A, every card twice",
    ),
    "german": (
        tuple(range(2, 15)),
        1,
        "001 (German), Grundsätzliche Spielvorbereitung: the German game, a full 52-card "
        "deck for each player, four open cards, taken cards mixed in, Stapel, a flip when "
        "one player declines to play",
    ),
}
"""Every deck by its name (``--deck``, the notation; ``german`` is 001's own game, a
standard deck for each player by 001's rules): its ranks in cycle order, lowest first
(the highest wraps to the lowest); how many copies of every card one deck holds (2 for
Doppelkopf); where the deck and its default rules come from. ``cards.DECKS`` makes a
``Deck`` of each; the house-rule table (``houserules.HOUSE_RULES``) keeps each rule's
default with each deck."""


def deck_size(name: str) -> int:
    """The cards in one deck of that name, jokers aside.

    >>> deck_size("standard"), deck_size("doppelkopf")
    (52, 48)
    """
    ranks, copies, _source = DECK_FACTS[name]
    return len(ranks) * 4 * copies


MAX_CARDS = 1000
"""More cards than any deck and its jokers have: a count or a list beyond it is a lie (a
replay file's, a network peer's)."""
