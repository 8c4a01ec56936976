"""The house rules a game is played by: deck, deal, row, stress and penalty variants.

``Rules.for_deck(name, **overrides)`` starts from the deck's own defaults (from the seed
documents) and overrides them one by one; every combination is checked when it is made, and
a bad one raises ``RulesError`` naming the setting.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, field, fields, replace
from typing import Any

from stress_tui.core.cards import DECKS, JOKER, Deck


class RulesError(ValueError):
    """A setting, or a combination of settings, that cannot be played."""


class Deal(str, enum.Enum):
    """How the cards reach the players."""

    SPLIT = "split"
    """One shuffled deck is halved (000, Swedish)."""
    EACH = "each"
    """Every player shuffles a full deck of their own (001, German)."""


class StressPenalty(str, enum.Enum):
    """What the slower player gets when stress is won."""

    BOTH = "both"
    """The slower takes both play piles (000 and 001: the common rule)."""
    ONE = "one"
    """The slower takes only one pile, the smaller (000, documented variant)."""
    GIVE = "give"
    """The faster hands one pile to the slower, the larger (000, documented variant)."""


class FalseStress(str, enum.Enum):
    """What calling stress costs when there is no stress."""

    TAKE = "take"
    """The caller takes both play piles (001, Strafen)."""
    IGNORE = "ignore"
    """Nothing happens (001, Swiss variant)."""
    LOCKOUT = "lockout"
    """The caller may not play for the lockout time (our choice, a milder penalty)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule a round is played by. Make one with ``Rules.for_deck``."""

    deck: str = "standard"
    """The deck's name, one of ``DECKS``."""
    jokers: int = 0
    """Jokers added to every deck."""
    deal: Deal = Deal.SPLIT
    """How the cards are dealt."""
    row_size: int = 4
    """Piles in each player's row."""
    stacking: bool = True
    """Equal ranks in a row are stacked into one pile, played as a whole."""
    wrap: bool = True
    """The rank cycle wraps: the highest rank and the lowest are neighbours."""
    stress_penalty: StressPenalty = StressPenalty.BOTH
    """What the slower player takes when stress is won."""
    false_stress: FalseStress = FalseStress.TAKE
    """What a call of stress costs when there is none."""
    stress_stop: bool = False
    """The Swiss stress stop: a player may stop the stress the opponent's next play makes."""
    lockout: float = 0.75
    """Seconds a player may not play after a misplay (and after a false call, with lockout)."""
    race_window: float = 0.3
    """Seconds within which a play that fit the card just covered by the opponent counts
    as a lost race (rejected without lockout) rather than a misplay."""
    wins: int = 3
    """Round wins that take the match."""
    fits: tuple[frozenset[int], ...] = field(init=False, repr=False, compare=False)
    """For each rank on top of a play pile, the ranks that may be played on it."""

    def __post_init__(self) -> None:
        self._check()
        object.__setattr__(self, "fits", _fits(DECKS[self.deck].ranks, self.wrap))

    @classmethod
    def for_deck(cls, deck: str = "standard", **overrides: Any) -> Rules:
        """The deck's default rules, with some settings overridden by name.

        >>> Rules.for_deck("skat").row_size
        3
        """
        if deck not in DECKS:
            raise RulesError(f"unknown deck {deck!r} (choose from {', '.join(DECKS)})")
        spec = DECKS[deck]
        base: dict[str, Any] = {
            "deck": deck,
            "row_size": spec.row_size,
            "wins": spec.wins,
            "deal": Deal(spec.deal),
            "false_stress": FalseStress(spec.false_stress),
            "stress_stop": spec.stress_stop,
        }
        names = {f.name for f in fields(cls) if f.init}
        for name in overrides:
            if name not in names:
                raise RulesError(f"unknown rule {name!r}")
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
    def smallest_share(self) -> int:
        """The fewest cards a player is dealt."""
        if self.deal is Deal.EACH:
            return self.cards_per_deck
        return self.cards_per_deck // 2

    def defaults(self) -> Rules:
        """The deck's default rules (what ``for_deck`` starts from)."""
        return Rules.for_deck(self.deck)

    def changes(self) -> dict[str, object]:
        """The settings that differ from the deck's defaults, by name."""
        base = self.defaults()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.init and f.name != "deck" and getattr(self, f.name) != getattr(base, f.name)
        }

    def with_changes(self, **changes: Any) -> Rules:
        """A copy with some settings changed (checked like any other)."""
        return replace(self, **_coerced(changes))

    def can_play_on(self, top: int, rank: int) -> bool:
        """Whether a card of ``rank`` may go on a play pile showing ``top``.

        >>> r = Rules.for_deck("standard")
        >>> [r.can_play_on(4, k) for k in (5, 3, 7, 4)]
        [True, True, False, False]
        """
        return rank in self.fits[top]

    def _check(self) -> None:
        if self.deck not in DECKS:
            raise RulesError(f"unknown deck {self.deck!r} (choose from {', '.join(DECKS)})")
        for name, value in (
            ("jokers", self.jokers),
            ("row_size", self.row_size),
            ("wins", self.wins),
        ):
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"{name} must be a whole number, not {value!r}")
        if self.jokers < 0 or self.jokers > 16:
            raise RulesError(f"jokers must be between 0 and 16, not {self.jokers}")
        if self.row_size < 1:
            raise RulesError(f"row_size must be at least 1, not {self.row_size}")
        if self.wins < 1 or self.wins > 99:
            raise RulesError(f"wins must be between 1 and 99, not {self.wins}")
        for name, seconds in (("lockout", self.lockout), ("race_window", self.race_window)):
            if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
                raise RulesError(f"{name} must be a number of seconds, not {seconds!r}")
            if not 0 <= seconds <= 60:
                raise RulesError(f"{name} must be between 0 and 60 seconds, not {seconds}")
        share = self.smallest_share
        if self.row_size + 1 > share:
            raise RulesError(
                f"row_size {self.row_size} is too large for the {self.deck} deck dealt "
                f"{self.deal.value}: a player's {share} cards must fill the row and leave "
                f"one to flip (row_size at most {share - 1})"
            )


_ENUMS: dict[str, type[enum.Enum]] = {
    "deal": Deal,
    "stress_penalty": StressPenalty,
    "false_stress": FalseStress,
}


def _coerced(settings: dict[str, Any]) -> dict[str, Any]:
    """Settings with enum values given as their strings turned into the enums."""
    out = dict(settings)
    for name, kind in _ENUMS.items():
        if name in out and not isinstance(out[name], kind):
            try:
                out[name] = kind(out[name])
            except ValueError:
                choices = ", ".join(str(m.value) for m in kind)
                raise RulesError(f"{name} must be one of {choices}, not {out[name]!r}") from None
    for name in ("lockout", "race_window"):
        if isinstance(out.get(name), int) and not isinstance(out.get(name), bool):
            out[name] = float(out[name])
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
