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

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from stress_tui.core.daily import Streak, streaks
from stress_tui.core.rating import LEVEL_RATINGS, Game, Rating, rate
from stress_tui.core.words import N_, Say, shown_name

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


def rating_text(rating: Rating, plus_minus: str = "±") -> str:
    """``1623 ± 92``: a rating and its deviation, to the point (``plus_minus``: ``+-``
    for an output that cannot show the sign)."""
    return f"{rating.rating:.0f} {plus_minus} {rating.deviation:.0f}"


def change_text(change: float | None) -> str:
    """``+41``, ``-7``, ``0`` (``-`` when nothing is known)."""
    return "-" if change is None else f"{change:+.0f}" if round(change) else "0"


def rating_notes(
    names: tuple[str, str],
    before: tuple[Rating | None, Rating | None],
    after: tuple[Rating | None, Rating | None],
    _: Say = N_,
    *,
    own: bool = False,
) -> list[str]:
    """The result screen's line about the ratings a round moved:
    ``rating: Ann 1532 ± 84 (+18), Bo 1468 ± 84 (-18)`` (nothing if it rated nobody).
    ``own``: a round across a network, which each side counts in its own record, so that
    the two screens may show the same people's ratings differently: the line says they
    are this side's record's (``your record's rating: ...``)."""
    moved = [
        f"{shown_name(name, _)} {rating_text(now)} ({change_text(now.rating - then.rating)})"
        for name, then, now in zip(names, before, after, strict=True)
        if then is not None and now is not None
    ]
    if not moved:
        return []
    line = _("your record's rating: {moved}") if own else _("rating: {moved}")
    return [line.format(moved=", ".join(moved))]


# --------------------------------------------------------------------------- printing


def ratings_table(
    ratings: Mapping[str, PlayerRating],
    today: str,
    measure: Callable[[str], int] = len,
    plus_minus: str = "±",
    _: Say = N_,
) -> str:
    """The people's ratings (rating ± deviation, the change over the last matches, rated
    rounds, the level they play like, the daily streak), then the computer levels' fixed
    ratings for comparison. Columns are padded to the width ``measure`` gives a text on
    screen (``Terminal.length``: a CJK character is two columns); ``plus_minus`` is how
    the sign is written (``+-`` for an output that cannot show it)."""
    people = [
        (
            shown_name(name, _),
            rating_text(player.rating, plus_minus) if player.history else "-",
            change_text(player.change()),
            str(player.rated_rounds),
            _(nearest_level(player.rating)) if player.history else "-",
            _streak_text(player.streak(today), _) if player.dailies else "-",
        )
        for name, player in sorted(ratings.items())
    ]
    head = (
        _("player"),
        _("rating {pm} RD").format(pm=plus_minus),
        _("change, last {n} matches").format(n=CHANGE_MATCHES),
        _("rated rounds"),
        _("plays like"),
        _("daily streak"),
    )
    parts = []
    if people:
        parts.append(_columns([head, *people], measure))
    levels = [
        (_(level), f"{anchor.rating:.0f}", _("fixed (measured: docs/ratings.md)"))
        for level, anchor in LEVEL_RATINGS.items()
    ]
    parts.append(_columns([(_("computer"), _("rating"), ""), *levels], measure))
    return "\n\n".join(parts)


def _streak_text(streak: Streak, _: Say = N_) -> str:
    return _("{current} (best {best})").format(current=streak.current, best=streak.best)


def _columns(rows: list[tuple[str, ...]], measure: Callable[[str], int]) -> str:
    widths = [max(measure(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell + " " * (width - measure(cell)) for cell, width in zip(row, widths, strict=True)
        )
        for row in rows
    ]
    return "\n".join(line.rstrip() for line in lines)


def ratings_json(ratings: Mapping[str, PlayerRating], today: str) -> dict[str, Any]:
    """The ratings for scripts: ``ratings`` (a person each: ``name``, ``rating``,
    ``deviation``, ``volatility``, ``rounds``, ``change``, ``plays_like``, ``streak``,
    ``best_streak``; rating fields ``null`` before any rated round) and ``levels`` (each
    computer level's fixed ``rating`` and ``deviation``)."""
    people = []
    for name, player in sorted(ratings.items()):
        rated = bool(player.history)
        streak = player.streak(today)
        people.append(
            {
                "name": name,
                "rating": player.rating.rating if rated else None,
                "deviation": player.rating.deviation if rated else None,
                "volatility": player.rating.volatility if rated else None,
                "rounds": player.rated_rounds,
                "change": player.change(),
                "plays_like": nearest_level(player.rating) if rated else None,
                "streak": streak.current,
                "best_streak": streak.best,
            }
        )
    return {
        "ratings": people,
        "levels": [
            {"level": level, "rating": anchor.rating, "deviation": anchor.deviation}
            for level, anchor in LEVEL_RATINGS.items()
        ],
    }
