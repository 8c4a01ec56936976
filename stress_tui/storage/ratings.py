"""Ratings from the record's rounds: who is rated in a round and against what, each
person's rating after every round, and the tables ``stats`` prints of them.

Every finished round is a Glicko-2 rating period of its own (``stress_tui.core.rating``).
A person is rated against a person of another name, or against a computer level, whose
rating is a fixed anchor (``LEVEL_RATINGS``): a computer's rating never moves, and a round
between two computers, or between two sides of the same name, rates nobody. Both sides of
a round are rated from their ratings before it.

The record keeps each person's rating after every round in the round's own row
(``stress_tui.storage.record``); this module holds the arithmetic over rows and the
reading of them, and has no database of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from stress_tui.core.daily import Streak, streaks
from stress_tui.core.rating import LEVEL_RATINGS, Game, Rating, rate

HUMAN = "human"
"""The kind of a side a person played."""

CHANGE_MATCHES = 5
"""``stats`` shows how much each rating moved over this many of the player's last
matches."""


def anchor(kind: str) -> Rating | None:
    """The fixed rating of a computer side (``bot:LEVEL``), if its level is known."""
    if kind.startswith("bot:"):
        return LEVEL_RATINGS.get(kind[4:])
    return None


def rate_round(
    names: tuple[str, str],
    kinds: tuple[str, str],
    winner: int,
    current: Callable[[str], Rating],
) -> tuple[Rating | None, Rating | None]:
    """Each side's rating after a round ``winner`` won (``None``: that side is not rated,
    being a computer, or having nobody to be rated against); ``current(name)`` is a
    person's rating before it."""
    before: list[Rating | None] = []
    for side in (0, 1):
        kind = kinds[side]
        if kind == HUMAN:
            before.append(current(names[side]) if names[0] != names[1] else None)
        else:
            before.append(anchor(kind))
    after: list[Rating | None] = [None, None]
    for side in (0, 1):
        mine, theirs = before[side], before[1 - side]
        if kinds[side] == HUMAN and mine is not None and theirs is not None:
            after[side] = rate(mine, [Game(theirs, 1.0 if winner == side else 0.0)])
    return after[0], after[1]


@dataclass(frozen=True, slots=True)
class Point:
    """A person's standing after one rated round."""

    rating: Rating
    """The rating after the round."""
    median: float | None
    """The player's median play reaction in the round, in seconds (``None``: no play, or
    a round counted before medians were kept)."""
    won: bool
    """Whether the player won the round."""
    match_over: bool
    """Whether the round ended a match."""


@dataclass
class PlayerRating:
    """A person's rating and how it came about."""

    history: list[Point] = field(default_factory=list)
    """The rating after each rated round, oldest first (or only the last of them, as many
    as ``change`` needs, where the record was read for its standings: ``rounds`` then
    says how many there are)."""
    rounds: int | None = None
    """How many rounds rated the person, where ``history`` holds only the last of them."""
    dailies: list[tuple[str, bool]] = field(default_factory=list)
    """Every daily deal played: its day and whether it was won (left: not won)."""

    @property
    def rated_rounds(self) -> int:
        """How many rounds rated the person."""
        return self.rounds if self.rounds is not None else len(self.history)

    @property
    def rating(self) -> Rating:
        """The rating now (a new player's if no round is rated yet)."""
        return self.history[-1].rating if self.history else Rating()

    def change(self, matches: int = CHANGE_MATCHES) -> float | None:
        """How much the rating moved over the last ``matches`` matches (the one under way
        counting as one), ``None`` before any rated round."""
        if not self.history:
            return None
        starts = [0] + [i + 1 for i, p in enumerate(self.history[:-1]) if p.match_over]
        first = starts[-matches] if len(starts) >= matches else 0
        before = self.history[first - 1].rating.rating if first else Rating().rating
        return self.rating.rating - before

    def streak(self, today: str) -> Streak:
        """The daily streaks, as of ``today``."""
        return streaks(self.dailies, today)


def fold(
    rows: Iterable[tuple[Any, ...]], ratings: dict[str, PlayerRating] | None = None
) -> dict[str, PlayerRating]:
    """Every person's ratings from the record's rounds, oldest first, as ``(names, kinds,
    winner, match_over, medians, stored)`` where ``stored`` is the two ratings kept in the
    row, or ``None`` for a round not rated yet (counted by an earlier version: rated here
    from the ratings before it, as the next write will rate it)."""
    people = ratings if ratings is not None else {}

    def current(name: str) -> Rating:
        found = people.get(name)
        return found.rating if found is not None else Rating()

    for names, kinds, winner, match_over, medians, stored in rows:
        after = stored if stored is not None else rate_round(names, kinds, winner, current)
        for side in (0, 1):
            rating = after[side]
            if rating is not None:
                point = Point(rating, medians[side], winner == side, bool(match_over))
                people.setdefault(names[side], PlayerRating()).history.append(point)
    return people


def nearest_level(rating: Rating) -> str:
    """The computer level whose anchor is nearest ``rating``: whom the player plays like."""
    return min(LEVEL_RATINGS, key=lambda level: abs(LEVEL_RATINGS[level].rating - rating.rating))
