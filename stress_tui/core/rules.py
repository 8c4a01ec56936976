"""The ``Rules`` a round is played by: one value holding every house rule of the table
(``core/houserules.py``, which declares each rule once, its defaults per deck included).

``Rules.for_deck(name, **overrides)`` starts from the deck's own defaults (from the seed
documents) and overrides them one by one; every combination is checked when it is made, and
a bad one raises ``RulesError`` carrying the rule it is about and the value refused.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields
from typing import Any

from stress_tui.core.cards import DECKS, Deck
from stress_tui.core.decks import JOKER
from stress_tui.core.houserules import (
    BY_FIELD,
    DECK_RULE,
    DEFAULTS,
    HOUSE_RULES,
    STALE_PLAYS_PER_CARD,
    Deal,
    FalseStress,
    FlipReady,
    RulesError,
    StressPenalty,
    Taken,
)
from stress_tui.core.text import N_, Term


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule a round is played by. Make one with ``Rules.for_deck``.

    Each field but ``fits`` and ``stamp`` is a house rule of ``HOUSE_RULES``; its default is
    the table's for the standard deck (``DEFAULTS``), and the table says where another
    deck's differs.
    """

    deck: str = DEFAULTS["deck"]
    """The deck's name, one of ``DECKS``."""
    jokers: int = DEFAULTS["jokers"]
    """Jokers added to every deck."""
    deal: Deal = DEFAULTS["deal"]
    """How the cards are dealt."""
    row_size: int = DEFAULTS["row_size"]
    """Piles in each player's row."""
    stacking: bool = DEFAULTS["stacking"]
    """Equal ranks in a row are stacked into one pile, played as a whole (off by default
    with Jass, which lays one card at a time)."""
    together: bool = DEFAULTS["together"]
    """001's Stapel: a player may lay every ready card of one rank at once, from piles of
    the row side by side (on by default with Skat and Doppelkopf, from 001)."""
    wrap: bool = DEFAULTS["wrap"]
    """The rank cycle wraps: the highest rank and the lowest are neighbours."""
    flip_ready: FlipReady = DEFAULTS["flip_ready"]
    """Who must say ready to flip while a card could be played: both, or one (001)."""
    stress_penalty: StressPenalty = DEFAULTS["stress_penalty"]
    """What the slower player takes when stress is won."""
    taken: Taken = DEFAULTS["taken"]
    """Where taken cards go: shuffled under the draw pile, or shuffled into all of it."""
    false_stress: FalseStress = DEFAULTS["false_stress"]
    """What a call of stress costs when there is none."""
    stress_stop: bool = DEFAULTS["stress_stop"]
    """The Swiss stress stop: a player may stop the stress the opponent's next play makes."""
    lockout: float = DEFAULTS["lockout"]
    """Seconds a player may not play after a misplay (and after a false call, with lockout)."""
    race_window: float = DEFAULTS["race_window"]
    """Seconds within which a play that fit the card just covered by the opponent counts
    as a lost race (rejected without lockout) rather than a misplay."""
    wins: int = DEFAULTS["wins"]
    """Round wins that take the match."""
    fits: tuple[frozenset[int], ...] = field(init=False, repr=False, compare=False)
    """For each rank on top of a play pile, the ranks that may be played on it."""
    stamp: str = field(init=False, repr=False, compare=False)
    """The rules in one string, equal for equal rules (their ``repr``): what a screen
    keeps drawn for them is looked up by it, a string keeping its hash, where the rules'
    own hash is a Python function hashing all sixteen fields (two floats among them)."""

    def __post_init__(self) -> None:
        self._check()
        object.__setattr__(self, "fits", _fits(DECKS[self.deck].ranks, self.wrap))
        object.__setattr__(self, "stamp", repr(self))

    @classmethod
    def for_deck(cls, deck: str = "standard", **overrides: Any) -> Rules:
        """The deck's default rules, with some settings overridden by field name.

        >>> Rules.for_deck("skat").row_size
        3
        """
        problem = DECK_RULE.kind.problem(deck)
        if problem is not None:
            raise RulesError(DECK_RULE.name, deck, problem)
        base: dict[str, Any] = {"deck": deck}
        for rule in HOUSE_RULES:
            if deck in rule.per_deck:
                base[rule.field] = rule.per_deck[deck]
        for name in overrides:
            if name not in BY_FIELD:
                raise RulesError(name, overrides[name], N_("is not a house rule"))
        base.update(overrides)
        return cls(**_coerced(base))

    @property
    def spec(self) -> Deck:
        """The deck this game uses."""
        return DECKS[self.deck]

    @property
    def cards_per_deck(self) -> int:
        """Cards in one deck, jokers included."""
        return len(self.spec) + self.jokers

    @property
    def cards_dealt(self) -> int:
        """Cards in the round: one deck split, or a deck each."""
        return self.cards_per_deck * (2 if self.deal is Deal.EACH else 1)

    @property
    def stale_limit(self) -> int:
        """Plays in a row without progress after which the round is drawn.

        >>> Rules.for_deck("standard").stale_limit, Rules.for_deck("jass", deal="each").stale_limit
        (520, 720)
        """
        return STALE_PLAYS_PER_CARD * self.cards_dealt

    @property
    def smallest_share(self) -> int:
        """The fewest cards a player is dealt."""
        if self.deal is Deal.EACH:
            return self.cards_per_deck
        return self.cards_per_deck // 2

    def defaults(self) -> Rules:
        """The deck's default rules (what ``for_deck`` starts from)."""
        return Rules.for_deck(self.deck)

    def changes(self) -> dict[str, object]:
        """The settings that differ from the deck's defaults, by field name."""
        base = self.defaults()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.init and f.name != "deck" and getattr(self, f.name) != getattr(base, f.name)
        }

    def can_play_on(self, top: int, rank: int) -> bool:
        """Whether a card of ``rank`` may go on a play pile showing ``top``.

        >>> r = Rules.for_deck("standard")
        >>> [r.can_play_on(4, k) for k in (5, 3, 7, 4)]
        [True, True, False, False]
        """
        return rank in self.fits[top]

    def _check(self) -> None:
        for rule in HOUSE_RULES:
            value = getattr(self, rule.field)
            problem = rule.kind.problem(value)
            if problem is not None:
                raise RulesError(rule.name, value, problem)
        share = self.smallest_share
        if self.row_size + 1 > share:
            raise RulesError(
                "row",
                self.row_size,
                N_(
                    "{value} is too large for the {deck} deck dealt {deal}: a player's {share} "
                    "cards must fill the row and leave one to flip ({rule} at most {most})"
                ),
                value=self.row_size,
                deck=Term(self.deck),
                deal=self.deal.value,
                share=share,
                most=share - 1,
            )


def _coerced(settings: dict[str, Any]) -> dict[str, Any]:
    """Settings by field name with values given loosely (an enum as its string, seconds
    as a whole number) made the rule's own."""
    out = dict(settings)
    for name, value in settings.items():
        rule = BY_FIELD.get(name)
        if rule is not None:
            out[name] = rule.coerce(value)
    return out


@functools.cache
def _fits(ranks: tuple[int, ...], wrap: bool) -> tuple[frozenset[int], ...]:
    """The adjacency table: index a top rank, get the ranks that may be played on it."""
    table: list[frozenset[int]] = []
    everything = frozenset((*ranks, JOKER))
    for top in range(15):
        if top == JOKER:
            table.append(everything)
            continue
        if top not in ranks:
            table.append(frozenset({JOKER}))
            continue
        i = ranks.index(top)
        near = set()
        if i > 0 or wrap:
            near.add(ranks[i - 1])
        if i < len(ranks) - 1 or wrap:
            near.add(ranks[(i + 1) % len(ranks)])
        near.discard(top)
        near.add(JOKER)
        table.append(frozenset(near))
    return tuple(table)
