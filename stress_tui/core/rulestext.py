"""The rules in effect in plain words: one short line for the table, sentences for --rules.

Both are plain ASCII-safe text (no symbols of ambiguous width), made from the house rules'
own words in ``rules.HOUSE_RULES``; this module only puts them together.
"""

from __future__ import annotations

from stress_tui.core.houserules import HOUSE_RULES, Section
from stress_tui.core.rules import Rules
from stress_tui.core.words import N_, Say

SHORT_WIDTH = 60
"""The columns ``short_line`` fits in unless told otherwise."""

_INTROS = {
    Section.PLAY: N_("Play a card one rank above or below a pile's top card, whatever the suit."),
    Section.STRESS: N_("Stress is both piles showing the same rank: the first to call it wins."),
}
"""The sentences that open a section whatever the rules."""

_CLOSINGS = {
    Section.PLAY: (
        N_(
            "A player whose draw pile is empty flips the top card of the other's; with both "
            "empty and nobody able to play, each takes up a play pile as a new draw pile."
        ),
    ),
}
"""The sentences that close a section whatever the rules: when cards are flipped."""


def _parts(rules: Rules, _: Say) -> tuple[list[tuple[str, str]], list[int]]:
    """The short line's parts, most important first, each in a long and a short form; and
    the parts kept on a line too narrow for all of them."""
    parts: list[tuple[str, str]] = []
    kept: list[int] = []
    for rule in HOUSE_RULES:
        said = rule.short(rules, _)
        if said is not None:
            if rule.keep_short:
                kept.append(len(parts))
            parts.append(said)
    return parts, kept


MORE_IN_HELP = N_("{n} more in help")
"""What ends a rule line too long for its room: how many rules it leaves out, which the
help lists (``plain_words``)."""

MORE = N_("+{n}")
"""The same, short, where the whole would leave no room for the deck and the match length
(the title line's keys on its right say where help is)."""


def short_line(rules: Rules, width: int = SHORT_WIDTH, _: Say = N_) -> str:
    """One line for the table, at most ``width`` columns: the deck, the row, the match
    length and whatever differs from the common rules (said with ``_``: English unless the
    edge gives its translation).

    >>> short_line(Rules.for_deck("standard"))
    'standard, row 4, to 3 wins'
    >>> short_line(Rules.for_deck("jass"))
    'jass, row 4, no stack, 1 ready, taken: mixed, stop, 5 wins'
    """
    parts, first = _parts(rules, _)
    for form in (0, 1):
        line = ", ".join(part[form] for part in parts)
        if len(line) <= width:
            return line
    # Still too long: keep the deck, the match length and the row, then as many of the
    # others as fit, and say how many more the help lists (a part that does not fit is
    # left out, not cut, and a shorter one after it may still fit).
    shorts = [part[1] for part in parts]
    first = [*first[:1], *first[-1:], *first[1:-1]] if len(first) > 1 else first
    order = first + [i for i in range(len(shorts)) if i not in first]

    def fitting(marker: str) -> list[int]:
        kept: list[int] = []
        for i in order:
            trial = sorted({*kept, i})
            left_out = marker.format(n=len(shorts) - len(trial))
            if len(", ".join([*(shorts[j] for j in trial), left_out])) <= width:
                kept = trial
        return kept

    # "3 more in help" where it leaves the deck and the match length room, else "+3".
    need = min(2, len(order))
    marker = _(MORE_IN_HELP)
    kept = fitting(marker)
    if not all(i in kept for i in order[:need]):
        marker = _(MORE)
        kept = fitting(marker)
    if not kept:  # the deck alone, or nothing: a word is never cut
        return shorts[0] if len(shorts[0]) <= width else ""
    return ", ".join([*(shorts[j] for j in kept), marker.format(n=len(shorts) - len(kept))])


def plain_words(rules: Rules, _: Say = N_) -> list[str]:
    """The rules in effect, one short sentence a line, every setting in a card player's
    words (for ``--rules`` and the help overlay), said with ``_``.

    >>> for sentence in plain_words(Rules.for_deck("skat"))[:3]:
    ...     print(sentence)
    A skat deck: 32 cards, 7 up to ace, no jokers.
    One deck is shuffled and split between the players: 16 cards each.
    Each player has a row of 3 cards face up, the rest face down as a draw pile.
    """
    lines = []
    for section in Section:
        if section in _INTROS:
            lines.append(_(_INTROS[section]))
        for rule in HOUSE_RULES:
            if rule.section is section:
                lines += rule.sentences(rules, _)
        lines += [_(text) for text in _CLOSINGS.get(section, ())]
    return lines
