"""Ratings from the record's rounds: who is rated in a round and against what, and each
person's rating after every round, read back from the record (all of it, or as much as
``stats`` shows: ``recent_ratings``).

Every finished round is a Glicko-2 rating period of its own (``stress_tui.core.rating``).
A person is rated against a person of another name, or against a computer level, whose
rating is a fixed anchor (``LEVEL_RATINGS``): a computer's rating never moves, and a round
between two computers, or between two sides of the same name, rates nobody. Both sides of
a round are rated from their ratings before it.

The record keeps each person's rating after every round in the round's own row
(``stress_tui.storage.record`` writes it); this module holds the arithmetic over rows and
the reading of them back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stress_tui.core.daily import BadDate, Streak, check_date, streaks
from stress_tui.core.rating import LEVEL_RATINGS, Game, Rating, rate
from stress_tui.storage.database import (
    KINDS_VERSION,
    RATED_COLUMNS,
    RATINGS_VERSION,
    opened,
    os_error,
    present,
    query,
    record_path,
)
from stress_tui.storage.files import (
    StorageError,
)
from stress_tui.storage.standings import DAMAGED, number, seconds_value

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


ROUNDS = """
    SELECT name1, name2, {kinds}, winner, match_over, {rated} FROM rounds ORDER BY id
"""
"""Every round, oldest first, for the ratings (``{kinds}``, ``{rated}``: the columns, or
what a record written before they were added stands for)."""


def player_history(name: str, limit: int, path: Path | None = None) -> list[Point]:
    """A person's last ``limit`` rated rounds, oldest first (for the result screen's
    chart): read from the record without writing (``[]`` if there is none yet)."""
    path = path if path is not None else record_path()
    if not present(path):
        return []
    with opened(path, create=False) as (db, version):
        if version < RATINGS_VERSION:
            return []
        rows = query(
            db,
            path,
            "SELECT * FROM ("
            " SELECT id, rating1, deviation1, volatility1, median1, winner = 0, match_over"
            " FROM rounds WHERE name1 = ? AND rating1 IS NOT NULL"
            " UNION ALL"
            " SELECT id, rating2, deviation2, volatility2, median2, winner = 1, match_over"
            " FROM rounds WHERE name2 = ? AND rating2 IS NOT NULL"
            ") ORDER BY id DESC LIMIT ?",
            (name, name, limit),
        )
    points = []
    for _, rating, deviation, volatility, median, won, over in reversed(rows):
        points.append(
            Point(
                sound_rating(rating, deviation, volatility, path),
                sound_median(median, path),
                bool(won),
                bool(over),
            )
        )
    return points


def unrated(db: sqlite3.Connection, path: Path, version: int) -> bool:
    """Whether the record holds rounds not rated yet (counted before ratings were kept, or
    by an earlier version since): their ratings are then worked out from every round
    (``read_ratings``), as the next write will."""
    return version < RATINGS_VERSION or bool(
        query(db, path, "SELECT 1 FROM rounds WHERE rated = 0 LIMIT 1")
    )


def last_rating(db: sqlite3.Connection, path: Path, name: str) -> Rating | None:
    """A person's rating after the last rated round they played, as kept in its row
    (``None``: no rated round), found by the names' indexes."""
    best: tuple[int, Rating] | None = None
    for side in ("1", "2"):
        rows = query(
            db,
            path,
            f"SELECT id, rating{side}, deviation{side}, volatility{side} FROM rounds "
            f"WHERE name{side} = ? AND rating{side} IS NOT NULL ORDER BY id DESC LIMIT 1",
            (name,),
        )
        if rows and (best is None or rows[0][0] > best[0]):
            row_id, rating, deviation, volatility = rows[0]
            best = (row_id, sound_rating(rating, deviation, volatility, path))
    return best[1] if best is not None else None


def read_ratings(
    db: sqlite3.Connection, path: Path, version: int, histories: bool = True
) -> dict[str, PlayerRating]:
    """Every person's ratings and dailies, from the rounds oldest first (the rounds not
    rated yet rated here, as the next write will rate them); without ``histories``, and
    every round rated, only each person's last rounds (``recent_ratings``)."""
    if not histories and not unrated(db, path, version):
        return recent_ratings(db, path)
    kinds = "kind1, kind2" if version >= KINDS_VERSION else "'human', 'human'"
    rated = RATED_COLUMNS if version >= RATINGS_VERSION else "0" + ", NULL" * 8
    rows = query(db, path, ROUNDS.format(kinds=kinds, rated=rated))

    def rounds() -> Iterator[tuple[Any, ...]]:
        for name1, name2, kind1, kind2, winner, match_over, done, *values in rows:
            if winner not in (0, 1):
                raise StorageError(DAMAGED, path=path)
            stored = None
            if done:
                stored = (
                    None
                    if values[0] is None
                    else sound_rating(values[0], values[1], values[2], path),
                    None
                    if values[3] is None
                    else sound_rating(values[3], values[4], values[5], path),
                )
            medians = (sound_median(values[6], path), sound_median(values[7], path))
            yield (
                (str(name1), str(name2)),
                (str(kind1), str(kind2)),
                winner,
                match_over,
                medians,
                stored,
            )

    ratings = fold(rounds())
    if version >= RATINGS_VERSION:
        for day, name, won in query(db, path, "SELECT day, name, won FROM dailies ORDER BY day"):
            try:
                check_date(str(day))
            except BadDate:
                raise StorageError(DAMAGED, path=path) from None
            ratings.setdefault(str(name), PlayerRating()).dailies.append((str(day), won == 1))
    return ratings


_PERSON = (
    "SELECT id, rating1, deviation1, volatility1, median1, winner = 0, match_over"
    " FROM rounds WHERE name1 = :name AND rating1 IS NOT NULL"
    " UNION ALL"
    " SELECT id, rating2, deviation2, volatility2, median2, winner = 1, match_over"
    " FROM rounds WHERE name2 = :name AND rating2 IS NOT NULL"
)
"""A person's rated rounds: their side's rating, median, won, and whether it ended a match."""


_UNSOUND = """
    SELECT 1 FROM rounds WHERE winner NOT IN (0, 1) OR (rated = 1 AND (
        (rating1 IS NOT NULL AND NOT (
            typeof(rating1) IN ('real', 'integer') AND rating1 BETWEEN -1e300 AND 1e300
            AND typeof(deviation1) IN ('real', 'integer') AND deviation1 BETWEEN 0 AND 1e300
            AND typeof(volatility1) IN ('real', 'integer') AND volatility1 BETWEEN 0 AND 1e300))
        OR (rating2 IS NOT NULL AND NOT (
            typeof(rating2) IN ('real', 'integer') AND rating2 BETWEEN -1e300 AND 1e300
            AND typeof(deviation2) IN ('real', 'integer') AND deviation2 BETWEEN 0 AND 1e300
            AND typeof(volatility2) IN ('real', 'integer') AND volatility2 BETWEEN 0 AND 1e300))
        OR (median1 IS NOT NULL AND NOT (
            typeof(median1) IN ('real', 'integer') AND median1 BETWEEN 0 AND 1e300))
        OR (median2 IS NOT NULL AND NOT (
            typeof(median2) IN ('real', 'integer') AND median2 BETWEEN 0 AND 1e300))
    )) LIMIT 1
"""
"""A round that holds what no version wrote: a winner that is no side, a rating or a
median that is not a number in its range (checked by SQLite, row by row, at its speed)."""


def recent_ratings(db: sqlite3.Connection, path: Path) -> dict[str, PlayerRating]:
    """Every person's rating, from their last rated rounds (as many as it takes to see
    how it moved over their last ``CHANGE_MATCHES`` matches) and how many rounds rated
    them, with their dailies: what ``stats`` shows, read in about the same time however
    long the record is (the rounds of each person found by its indexes; the ratings kept
    in each round's row as they were worked out)."""
    if query(db, path, _UNSOUND):
        raise StorageError(DAMAGED, path=path)
    names = query(
        db,
        path,
        "SELECT name1 FROM rounds WHERE rating1 IS NOT NULL"
        " UNION SELECT name2 FROM rounds WHERE rating2 IS NOT NULL",
    )
    ratings: dict[str, PlayerRating] = {}
    for (name,) in names:
        counted = query(
            db,
            path,
            "SELECT (SELECT count(*) FROM rounds WHERE name1 = :name AND rating1 IS NOT NULL)"
            " + (SELECT count(*) FROM rounds WHERE name2 = :name AND rating2 IS NOT NULL)",
            {"name": name},
        )[0][0]
        tail: list[Point] = []
        over = 0
        try:
            rows = db.execute(f"SELECT * FROM ({_PERSON}) ORDER BY id DESC", {"name": name})
            for _, rating, deviation, volatility, median, won, ended in rows:
                if tail and ended:  # a match ended before the last round: one more back
                    over += 1
                tail.append(
                    Point(
                        sound_rating(rating, deviation, volatility, path),
                        sound_median(median, path),
                        bool(won),
                        bool(ended),
                    )
                )
                if over >= CHANGE_MATCHES:
                    break
        except sqlite3.Error as error:
            raise os_error(error, path) from None
        tail.reverse()
        ratings[str(name)] = PlayerRating(tail, rounds=int(counted))
    for day, name, won in query(db, path, "SELECT day, name, won FROM dailies ORDER BY day"):
        try:
            check_date(str(day))
        except BadDate:
            raise StorageError(DAMAGED, path=path) from None
        ratings.setdefault(str(name), PlayerRating(rounds=0)).dailies.append((str(day), won == 1))
    return ratings


def sound_rating(rating: Any, deviation: Any, volatility: Any, path: Path) -> Rating:
    """A rating read from the record, checked to be one (finite, the deviation and the
    volatility not negative)."""
    if not (number(rating) and seconds_value(deviation) and seconds_value(volatility)):
        raise StorageError(DAMAGED, path=path)
    return Rating(float(rating), float(deviation), float(volatility))


def sound_median(value: Any, path: Path) -> float | None:
    if value is None:
        return None
    if not seconds_value(value):
        raise StorageError(DAMAGED, path=path)
    return float(value)
