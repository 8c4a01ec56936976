"""Which plays the rules allow on a table as it shows, and which of them make stress: the
one copy of these two rules, asked by the engine of a position (``Game.legal_plays``,
``Game.stress_threats``; a card played through the table of ``makes_stress``'s answers
for each pair of ranks that ``core/round.py`` makes once per adjacency table) and by a
player of what they see
(``TableView.legal_plays``), and so by the computer players.

A row and the play piles are given as the cards they show: the card on top of each pile
(``None``: an empty place, an empty pile). Suits never matter; ranks do, by the rules'
adjacency table (``Rules.fits``).

>>> from stress_tui.core.cards import Card
>>> from stress_tui.core.rules import Rules
>>> row = [Card.parse(text) for text in ("5H", "9C", "3S")] + [None]
>>> legal_plays(Rules.for_deck("standard"), row, (Card.parse("4D"), Card.parse("TD")))
[(0, 0), (1, 1), (2, 0)]
>>> makes_stress(Card.parse("9C"), Card.parse("9H")), makes_stress(Card.parse("9C"), None)
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

from stress_tui.core.cards import Card
from stress_tui.core.decks import JOKER
from stress_tui.core.rules import Rules


def legal_plays(
    rules: Rules, row: Sequence[Card | None], tops: Sequence[Card | None]
) -> list[tuple[int, int]]:
    """Every (row pile, play pile) that a row showing ``row`` may play onto the two play
    piles showing ``tops`` while the round is being played, lockouts aside: in the order
    of the row, the left pile before the right."""
    fits = rules.fits
    left, right = tops
    on_left = fits[left.rank] if left is not None else ()
    on_right = fits[right.rank] if right is not None else ()
    plays = []
    # The place counted by hand: on Python 3.11 ``enumerate`` (or a ``range``) costs some
    # 600 instructions a call more, and the legal plays are asked at nearly every action.
    pile = 0
    for card in row:
        if card is not None:
            rank = card.rank
            if rank in on_left:
                plays.append((pile, 0))
            if rank in on_right:
                plays.append((pile, 1))
        pile += 1  # noqa: SIM113
    return plays


def makes_stress(card: Card, other: Card | None) -> bool:
    """Whether ``card``, played onto one play pile, opens stress beside ``other``, the
    top of the other pile: a joker always, any other card beside one of its rank."""
    rank = card.rank
    return rank == JOKER or (other is not None and other.rank == rank)
