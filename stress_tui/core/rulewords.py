"""Each house rule's words: its sentences for ``--rules`` and the help screen, its part of
the rule line, the decks' summary for ``--help``. They read ``Rules`` only, and are plain
ASCII-safe text, said with ``_`` (a ``Say``: the English as written unless the edge that
shows them gives a translation). ``core/houserules.py`` names each rule's words in its
table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stress_tui.core.decks import DECK_FACTS, deck_size
from stress_tui.core.rulevalues import DEAD_FLIPS, Deal, FalseStress, FlipReady, StressPenalty
from stress_tui.core.words import N_, Say, decimal, rank_word, seconds
from stress_tui.core.words import with_article as a

if TYPE_CHECKING:
    from stress_tui.core.rules import Rules

_LOCKOUT = 0.75
_RACE_WINDOW = 0.3
"""The lockout's and the race window's defaults (``houserules.DEFAULTS``), which the rule
line leaves unsaid; ``tests/test_houserules.py`` holds them to the table's."""


def deck_summary(_: Say = N_) -> str:
    """Each deck with its cards: ``skat 32 (7..A)``, ``doppelkopf 48 (9..A twice)``."""
    parts = []
    for name, (ranks, copies, _source) in DECK_FACTS.items():
        low, high = ranks[0], ranks[-1]
        text = _("{deck} {cards} ({low}..{high} twice)") if copies == 2 else None
        text = text or _("{deck} {cards} ({low}..{high})")
        parts.append(
            text.format(deck=name, cards=deck_size(name), low=low, high="A" if high == 14 else high)
        )
    return ", ".join(parts)


DECK_WORDS = (N_("standard"), N_("jass"), N_("skat"), N_("doppelkopf"), N_("german"))
"""The decks' names as the rule texts say them (``_(rules.deck)``: Jass, Skat and
Doppelkopf in the languages whose card games they are)."""


def _jokers(n: int, _: Say) -> str:
    return (_("{n} joker") if n == 1 else _("{n} jokers")).format(n=n)


def deck_short(rules: Rules, _: Say = N_) -> tuple[str, str]:
    deck, jokers = _(rules.deck), rules.jokers
    if jokers:
        return f"{deck} +{_jokers(jokers, _)}", f"{deck}+{jokers}J"
    return deck, deck


def deck_sentences(rules: Rules, _: Say = N_) -> list[str]:
    spec = rules.spec
    low, high = rank_word(spec.ranks[0], _), rank_word(spec.ranks[-1], _)
    twice = _(", every card twice") if spec.copies == 2 else ""
    jokers = (
        _("with {jokers}").format(jokers=_jokers(rules.jokers, _))
        if rules.jokers
        else _("no jokers")
    )
    text = _("A {deck} deck: {cards} cards, {low} up to {high}{twice}, {jokers}.")
    if rules.deck == "german":
        text = _(
            "The German game (001), a standard deck: {cards} cards, {low} up to {high}, {jokers}."
        )
    return [
        text.format(
            deck=_(rules.deck), cards=len(spec), low=low, high=high, twice=twice, jokers=jokers
        )
    ]


def joker_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if not rules.jokers:
        return []
    return [
        _(
            "A joker is wild: it goes on any card, any card goes on it, and a joker played is "
            "stress (one flipped is not)."
        )
    ]


def deal_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.deal is Deal.EACH:
        text = _("Each player plays from a deck of their own: {cards} cards each.")
        return [text.format(cards=rules.cards_per_deck)]
    total = rules.cards_per_deck
    first, second = (total + 1) // 2, total // 2
    share = (
        _("{first} cards each") if first == second else _("{first} and {second} cards")
    ).format(first=first, second=second)
    return [_("One deck is shuffled and split between the players: {share}.").format(share=share)]


def wrap_sentences(rules: Rules, _: Say = N_) -> list[str]:
    ranks = rules.spec.ranks
    low, high = rank_word(ranks[0], _), rank_word(ranks[-1], _)
    if rules.wrap:
        text = _("The ranks go round: the {high} and the {low} are neighbours.")
        return [text.format(high=high, low=low)]
    below = a(rank_word(ranks[-2], _), _, rank_word(ranks[-2]))
    above = a(rank_word(ranks[1], _), _, rank_word(ranks[1]))
    text = _(
        "The ranks do not go round: only {below} goes on the {high}, only {above} on the {low}."
    )
    return [text.format(below=below, high=high, above=above, low=low)]


def lockout_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.lockout > 0:
        text = _(
            "A card that does not fit locks you out for {lockout}; one that lost a race by "
            "up to {race} does not."
        )
        return [text.format(lockout=seconds(rules.lockout, _), race=seconds(rules.race_window, _))]
    return [_("A card that does not fit costs nothing: there is no lockout.")]


def lockout_short(rules: Rules, _: Say = N_) -> tuple[str, str] | None:
    if rules.lockout == _LOCKOUT:
        return None
    said = decimal(rules.lockout, None, _)
    return _("lockout {n}s").format(n=said), _("lock {n}s").format(n=said)


def race_short(rules: Rules, _: Say = N_) -> tuple[str, str] | None:
    if rules.race_window == _RACE_WINDOW:
        return None
    said = decimal(rules.race_window, None, _)
    return _("race {n}s").format(n=said), _("race {n}s").format(n=said)


PENALTY_SENTENCES = {
    StressPenalty.BOTH: N_("The slower player takes both piles."),
    StressPenalty.ONE: N_(
        "The slower player takes only the smaller pile; both, when it is a single card "
        "and the slower's draw pile is empty."
    ),
    StressPenalty.GIVE: N_(
        "The faster player hands the slower the larger pile; both, when it is a single card "
        "and the slower's draw pile is empty."
    ),
}
PENALTY_SHORTS = {
    StressPenalty.ONE: (N_("stress: smaller pile"), N_("stress: 1 pile")),
    StressPenalty.GIVE: (N_("stress: larger pile given"), N_("stress: give")),
}
FALSE_SHORTS = {
    FalseStress.IGNORE: (N_("false stress free"), N_("false: free")),
    FalseStress.LOCKOUT: (N_("false stress locks out"), N_("false: lock")),
}


def said_pair(pair: tuple[str, str] | None, _: Say) -> tuple[str, str] | None:
    return None if pair is None else (_(pair[0]), _(pair[1]))


def false_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.false_stress is FalseStress.TAKE:
        return [_("Calling stress when there is none costs the caller both piles.")]
    if rules.false_stress is FalseStress.IGNORE or rules.lockout == 0:
        return [_("Calling stress when there is none costs nothing.")]
    text = _("Calling stress when there is none locks the caller out for {lockout}.")
    return [text.format(lockout=seconds(rules.lockout, _))]


def flip_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.flip_ready is FlipReady.ONE:
        return [
            _(
                "New cards are flipped, one from each draw pile onto each play pile, at the "
                "start, after stress, when nobody can play, and when one player says ready."
            )
        ]
    return [
        _(
            "New cards are flipped, one from each draw pile onto each play pile, at the start, "
            "after stress, when nobody can play, and when both players say they are ready."
        )
    ]


def wins_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.wins == 1:
        won = _("Play out all your cards to win a round; 1 round win takes the match.")
    else:
        text = _("Play out all your cards to win a round; {wins} round wins take the match.")
        won = text.format(wins=rules.wins)
    drawn = _(
        "A round nobody can finish is drawn, for nobody, and the next is dealt: after "
        "{flips} flips in a row with no card played, or after {plays} plays in a row in "
        "which nobody came down to fewer cards than before."
    )
    return [won, drawn.format(flips=DEAD_FLIPS, plays=rules.stale_limit)]


def on_and_off(rules: Rules) -> tuple[object, ...]:
    return (True, False)
