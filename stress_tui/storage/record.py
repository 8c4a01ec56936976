"""The record kept across matches: every finished round, per player name and rule set.

The record is a SQLite database, ``record.sqlite`` in the data folder, through the
standard library's ``sqlite3``. Each finished round is one row of ``rounds``, added in a
transaction of its own (``count_round``); a player's standing (matches and rounds won and
lost, best reaction, shortest round won) is summed from the rows when it is read
(``Record.load``). Two games that share a data folder never lose each other's rounds:
SQLite locks the file for the few milliseconds of a write and the other waits for it
(``BUSY_SECONDS``). Why SQLite and not a JSON file with a lock: ``docs/replays.md``.

Each round's row also keeps the ratings of the people who played it, as they stand after
it (``stress_tui.storage.ratings``: Glicko-2, a computer level a fixed anchor), worked out
in the same transaction from their ratings in the rows before it, so that two games
counting rounds at once never rate a round from a rating the other has since changed. A
daily deal is taken in the ``dailies`` table when its first card is played
(``claim_daily``), once a day per name, and its result written there with the round.

A record written by earlier versions (``record.json``, standings only) is carried over:
read as long as there is no database, copied into its ``carried`` table in the same
transaction that makes the database, then left as it was (never written again).

Changing what is stored: append a step to ``MIGRATIONS``; never change a step that has
shipped. Each step runs once, in a write transaction, when a game of this version first
writes to a record of an earlier version (``PRAGMA user_version`` counts the steps run),
so two games starting at once cannot both run it. Steps only add (a table, a column with
a default, an index): a game of an earlier version goes on reading and adding rounds to a
record that a later one has changed.
"""

from __future__ import annotations

import contextlib
import errno
import math
import sqlite3
import urllib.parse
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeGuard

from stress_tui.core.daily import BadDate, Streak, check_date, streaks
from stress_tui.core.notation import NotationError, format_rules, parse_rules
from stress_tui.core.rating import Rating
from stress_tui.core.stats import RoundStats
from stress_tui.core.text import MAX_NAME, Term, harmless
from stress_tui.core.words import N_
from stress_tui.storage.files import (
    MiB,
    Missing,
    StorageError,
    data_dir,
    ensure_folder,
    open_regular,
    read_json,
)
from stress_tui.storage.ratings import (
    CHANGE_MATCHES,
    HUMAN,
    PlayerRating,
    Point,
    fold,
    rate_round,
)

A_RECORD = Term(N_("a record"))
"""The record, as a complaint about a file names it."""

DAMAGED = N_("{path}: the record is damaged; left as it is")
"""A record whose rows hold what no version wrote."""


@dataclass
class Standing:
    """One player's record under one rule set."""

    matches_won: int = 0
    matches_lost: int = 0
    rounds_won: int = 0
    rounds_lost: int = 0
    best_reaction: float | None = None
    """The fastest play reaction ever, in seconds."""
    best_round: float | None = None
    """The shortest round won, in seconds."""


APPLICATION_ID = 0x53545455
"""``PRAGMA application_id`` of a stress-tui record ("STTU"): another program's SQLite
file is never taken for one."""

MIGRATIONS: tuple[str, ...] = (
    # 1: the rounds, and the standings carried over from record.json.
    """
    CREATE TABLE rounds (
        id INTEGER PRIMARY KEY,
        finished TEXT NOT NULL,          -- when the round ended, ISO 8601 in UTC
        rules TEXT NOT NULL,             -- the house rules in notation
        name1 TEXT NOT NULL,             -- player 1 (top)
        name2 TEXT NOT NULL,             -- player 2 (bottom)
        winner INTEGER NOT NULL CHECK (winner IN (0, 1)),
        seconds REAL NOT NULL,           -- from the deal to the last action
        reaction1 REAL,                  -- each player's fastest play reaction
        reaction2 REAL,
        match_over INTEGER NOT NULL DEFAULT 0  -- 1: this round won the match
    );
    CREATE TABLE carried (
        name TEXT NOT NULL,
        rules TEXT NOT NULL,
        matches_won INTEGER NOT NULL,
        matches_lost INTEGER NOT NULL,
        rounds_won INTEGER NOT NULL,
        rounds_lost INTEGER NOT NULL,
        best_reaction REAL,
        best_round REAL,
        PRIMARY KEY (name, rules)
    );
    """,
    # 2: who played each side (human, bot:LEVEL), so that people and computers are counted
    # apart; rounds counted before say nothing and are taken for people's.
    """
    ALTER TABLE rounds ADD COLUMN kind1 TEXT NOT NULL DEFAULT 'human';
    ALTER TABLE rounds ADD COLUMN kind2 TEXT NOT NULL DEFAULT 'human';
    """,
    # 3: each person's rating after every round, each player's median reaction, and the
    # daily deal. Rounds counted before (and by earlier versions since) have rated = 0 and
    # are rated, oldest first, by the next round this version counts.
    """
    ALTER TABLE rounds ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;  -- 1: ratings worked out
    ALTER TABLE rounds ADD COLUMN rating1 REAL;      -- player 1's rating after the round
    ALTER TABLE rounds ADD COLUMN deviation1 REAL;   -- (NULL: a computer, or not rated)
    ALTER TABLE rounds ADD COLUMN volatility1 REAL;
    ALTER TABLE rounds ADD COLUMN rating2 REAL;
    ALTER TABLE rounds ADD COLUMN deviation2 REAL;
    ALTER TABLE rounds ADD COLUMN volatility2 REAL;
    ALTER TABLE rounds ADD COLUMN median1 REAL;      -- each player's median play reaction
    ALTER TABLE rounds ADD COLUMN median2 REAL;
    ALTER TABLE rounds ADD COLUMN daily TEXT;        -- the day of a daily deal, YYYY-MM-DD
    CREATE INDEX rounds_by_name1 ON rounds (name1, id);
    CREATE INDEX rounds_by_name2 ON rounds (name2, id);
    CREATE INDEX rounds_unrated ON rounds (id) WHERE rated = 0;
    CREATE TABLE dailies (
        day TEXT NOT NULL,                 -- the local date it was dealt on, YYYY-MM-DD
        name TEXT NOT NULL,                -- the person who played it
        started TEXT NOT NULL,             -- when it was dealt, ISO 8601 in UTC
        won INTEGER CHECK (won IN (0, 1)), -- NULL: left before the end (or being played)
        PRIMARY KEY (day, name)
    );
    """,
    # 4: the round's own key (its replay's id), so that a round is counted once however
    # often it is offered (storage.pending); rounds counted before have none.
    """
    ALTER TABLE rounds ADD COLUMN replay TEXT;
    CREATE UNIQUE INDEX rounds_by_replay ON rounds (replay);
    """,
)
"""The schema, as the steps that build it; ``PRAGMA user_version`` is how many have run."""

BUSY_SECONDS = 10.0
"""How long a game waits for another to finish writing the record before giving up on
counting a round (a write takes milliseconds)."""

MAX_LEGACY = 16 * MiB
"""The largest ``record.json`` that is read."""

MAX_DATABASE = 1024 * MiB
"""The largest ``record.sqlite`` that is opened (millions of rounds)."""

_STANDINGS = """
    SELECT name, kind, rules, SUM(mw), SUM(ml), SUM(rw), SUM(rl), MIN(br), MIN(bd) FROM (
        SELECT name, 'human' AS kind, rules, matches_won AS mw, matches_lost AS ml,
               rounds_won AS rw, rounds_lost AS rl, best_reaction AS br, best_round AS bd
        FROM carried
        UNION ALL
        SELECT name1, {kind1}, rules, match_over AND winner = 0, match_over AND winner = 1,
               winner = 0, winner = 1, reaction1, CASE WHEN winner = 0 THEN seconds END
        FROM rounds
        UNION ALL
        SELECT name2, {kind2}, rules, match_over AND winner = 1, match_over AND winner = 0,
               winner = 1, winner = 0, reaction2, CASE WHEN winner = 1 THEN seconds END
        FROM rounds
    ) GROUP BY name, kind, rules
"""
"""Every standing, summed from the carried standings and both sides of every round, by
name, kind of player and rules (``{kind1}``, ``{kind2}``: the columns, or ``'human'`` in a
record written before they were added)."""

KINDS_VERSION = 2
"""The schema version from which rounds say who played each side."""

RATINGS_VERSION = 3
"""The schema version from which rounds keep ratings and medians, and dailies are kept."""

_RATED_COLUMNS = (
    "rated, rating1, deviation1, volatility1, rating2, deviation2, volatility2, median1, median2"
)

_ROUNDS = """
    SELECT name1, name2, {kinds}, winner, match_over, {rated} FROM rounds ORDER BY id
"""
"""Every round, oldest first, for the ratings (``{kinds}``, ``{rated}``: the columns, or
what a record written before they were added stands for)."""


def record_path() -> Path:
    """Where the record is kept."""
    return data_dir() / "record.sqlite"


def legacy_path(path: Path) -> Path:
    """Where an earlier version kept the record that belongs beside ``path``."""
    return path.with_name("record.json")


class Record:
    """Standings by player name and rule set, as read from the record."""

    def __init__(
        self,
        standings: dict[str, dict[str, Standing]] | None = None,
        ratings: dict[str, PlayerRating] | None = None,
        computers: dict[str, dict[str, Standing]] | None = None,
    ) -> None:
        self.standings = standings if standings is not None else {}
        """Person's name -> rule set (as in the notation) -> standing."""
        self.computers = computers if computers is not None else {}
        """Computer player's level -> rule set -> standing (whatever its name was)."""
        self.ratings = ratings if ratings is not None else {}
        """Person's name -> rating, its history and the dailies played."""

    @classmethod
    def load(cls, path: Path | None = None, *, histories: bool = True) -> Record:
        """Read the record (``record_path()`` unless given): the database, or while there
        is none, the ``record.json`` of an earlier version beside it; nothing there is an
        empty record. Never writes. ``histories=False``: each person's ratings only as far
        back as their standing needs (``PlayerRating.rounds`` says how many there are),
        which costs about the same however long the record is. A record that cannot be
        read or is not one raises ``StorageError`` in one line, and is left as it is."""
        path = path if path is not None else record_path()
        rows: list[Any] = []
        ratings: dict[str, PlayerRating] = {}
        made = False
        if _present(path):
            with _open(path, create=False) as (db, version):
                made = version > 0
                if made:
                    kinds = ("kind1", "kind2") if version >= KINDS_VERSION else ("'human'",) * 2
                    rows = _query(db, path, _STANDINGS.format(kind1=kinds[0], kind2=kinds[1]))
                    ratings = _ratings(db, path, version, histories)
        if not made:  # no database yet: an earlier version's record, if there is one
            try:
                return cls(_read_legacy(legacy_path(path)))
            except Missing:
                return cls()
        record = cls(ratings={_shown_name(name): rating for name, rating in ratings.items()})
        for name, kind, rules, *values in rows:
            kind = str(kind)
            if kind.startswith("bot:"):
                by_rules = record.computers.setdefault(_shown_name(kind[4:]), {})
                shown = by_rules.setdefault(_shown_rules(rules), Standing())
            else:
                shown = record.standing(_shown_name(name), _shown_rules(rules))
            _add(shown, Standing(*values), path)
        return record

    def standing(self, name: str, rules: str) -> Standing:
        """A player's standing under a rule set (an empty one if new)."""
        return self.standings.setdefault(name, {}).setdefault(rules, Standing())

    def rows(self) -> list[tuple[str, str, Standing]]:
        """Every person's standing, by name then rule set."""
        return _rows(self.standings)

    def computer_rows(self) -> list[tuple[str, str, Standing]]:
        """Every computer player's standing, by level then rule set."""
        return _rows(self.computers)


def _rows(table: dict[str, dict[str, Standing]]) -> list[tuple[str, str, Standing]]:
    return [
        (who, rules, standing)
        for who in sorted(table)
        for rules, standing in sorted(table[who].items())
    ]


@dataclass(frozen=True)
class Counted:
    """What counting a round did to the ratings and the daily streak."""

    before: tuple[Rating | None, Rating | None]
    """Each side's rating before the round (``None``: not rated: a computer, or nobody to
    be rated against)."""
    after: tuple[Rating | None, Rating | None]
    """Each side's rating after it."""
    daily: bool | None = None
    """For a daily deal: whether it was counted as the day's (``False``: that person's
    daily of the day was already over, so the round is not counted at all)."""
    streak: Streak | None = None
    """After a daily deal counted: the person's daily streak and best streak."""
    again: bool = False
    """Whether the record held the round already (by its key): nothing was changed."""


class DailyTaken(Exception):
    """The day's daily deal has been taken by this name already."""

    def __init__(self, day: str, name: str, won: bool | None) -> None:
        super().__init__(day, name, won)
        self.day = day
        self.name = name
        self.won = won
        """How it went: won, lost, or ``None``: left before its end (or being played)."""


def count_round(
    names: tuple[str, str],
    rules: str,
    result: RoundStats,
    match_over: bool,
    path: Path | None = None,
    when: datetime | None = None,
    kinds: tuple[str, str] = (HUMAN, HUMAN),
    daily: str | None = None,
    key: str | None = None,
    busy: float = BUSY_SECONDS,
) -> Counted | None:
    """Add a finished round (and whether it won the match), with who played each side
    (``human`` or ``bot:LEVEL``) and the people's ratings after it, to the record, in one
    transaction: it is counted whole or not at all, whatever other games write beside
    it. A round without a winner is not counted (a daily's is, as not won). ``daily``: the
    day of the daily deal the round was (its person: the human side), whose result is
    written in the same transaction; a daily whose day is already over for that name is
    not counted at all. ``key``: the round's own key (its replay's id): a round whose key the
    record holds already is not counted again (``Counted.again``); ``busy``: how long to
    wait for another program holding the record. Returns what it did to the ratings and
    the streak (``None``: not counted). ``StorageError`` if the record cannot be read or
    is not one (it is then left alone); ``OSError`` if it cannot be written (a file where
    the data folder should be, a full disk, another program holding it: ``EBUSY``)."""
    if result.winner is None and daily is None:
        return None
    path = path if path is not None else record_path()
    finished = (when or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    reactions = [player.best_reaction for player in result.players]
    medians = [player.median_reaction for player in result.players]
    if not _present(path):
        with contextlib.suppress(Missing):
            _read_legacy(legacy_path(path))  # broken: say so before making a database
    with _open(path, create=True, busy=busy) as (db, _), _writing(db, path):
        if key is not None and _query(db, path, "SELECT 1 FROM rounds WHERE replay = ?", (key,)):
            return Counted((None, None), (None, None), again=True)
        counted: bool | None = None
        streak: Streak | None = None
        if daily is not None:
            side = kinds.index(HUMAN) if HUMAN in kinds else 0
            counted = _end_daily(db, path, daily, names[side], result.winner == side)
            if counted:
                streak = streaks(_dailies(db, path, names[side]), daily)
        if result.winner is None or counted is False:
            return Counted((None, None), (None, None), counted, streak)
        _catch_up(db, path)
        current = {
            name: _current(db, path, name)
            for name, kind in zip(names, kinds, strict=True)
            if kind == HUMAN
        }
        after = rate_round(names, kinds, result.winner, current.__getitem__)
        _execute(
            db,
            path,
            "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds, reaction1, "
            f"reaction2, match_over, kind1, kind2, daily, replay, {_RATED_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                finished,
                rules,
                *names,
                result.winner,
                result.seconds,
                *reactions,
                match_over,
                *kinds,
                daily,
                key,
                *_rating_values(after[0]),
                *_rating_values(after[1]),
                *medians,
            ),
        )
        before = [
            current[name] if rating is not None else None
            for name, rating in zip(names, after, strict=True)
        ]
        return Counted((before[0], before[1]), after, counted, streak)


def claim_daily(
    name: str, day: str, path: Path | None = None, when: datetime | None = None
) -> None:
    """Take the daily deal of ``day`` for ``name`` as its first card is played: from now on
    it is played (a round left before its end counts as not won, since its play has been
    seen). ``DailyTaken`` if it was taken already; ``StorageError`` and ``OSError`` as
    for ``count_round``."""
    started = (when or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    _daily(name, day, path, started)


def check_daily(name: str, day: str, path: Path | None = None) -> None:
    """What ``claim_daily`` checks before the deal is shown, taking nothing: ``DailyTaken``
    if the daily deal of ``day`` was taken by ``name`` already; ``StorageError`` and
    ``OSError`` if the record could not keep it."""
    _daily(name, day, path, None)


def _daily(name: str, day: str, path: Path | None, started: str | None) -> None:
    """``DailyTaken`` if ``name`` has taken the daily of ``day``; else, with ``started``,
    take it, in the same transaction."""
    path = path if path is not None else record_path()
    if not _present(path):
        with contextlib.suppress(Missing):
            _read_legacy(legacy_path(path))
    with _open(path, create=True) as (db, _), _writing(db, path):
        rows = _query(db, path, "SELECT won FROM dailies WHERE day = ? AND name = ?", (day, name))
        if rows:
            won = rows[0][0]
            raise DailyTaken(day, name, None if won is None else bool(won))
        if started is not None:
            _execute(
                db,
                path,
                "INSERT INTO dailies (day, name, started) VALUES (?, ?, ?)",
                (day, name, started),
            )


def player_history(name: str, limit: int, path: Path | None = None) -> list[Point]:
    """A person's last ``limit`` rated rounds, oldest first (for the result screen's
    chart): read from the record without writing (``[]`` if there is none yet)."""
    path = path if path is not None else record_path()
    if not _present(path):
        return []
    with _open(path, create=False) as (db, version):
        if version < RATINGS_VERSION:
            return []
        rows = _query(
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
                _sound_rating(rating, deviation, volatility, path),
                _median(median, path),
                bool(won),
                bool(over),
            )
        )
    return points


# --------------------------------------------------------------------------- ratings


def _rating_values(rating: Rating | None) -> tuple[float | None, float | None, float | None]:
    if rating is None:
        return (None, None, None)
    return (rating.rating, rating.deviation, rating.volatility)


def _current(db: sqlite3.Connection, path: Path, name: str) -> Rating:
    """A person's rating after the last rated round they played (a new player's if none)."""
    best: tuple[int, Rating] | None = None
    for side in ("1", "2"):
        rows = _query(
            db,
            path,
            f"SELECT id, rating{side}, deviation{side}, volatility{side} FROM rounds "
            f"WHERE name{side} = ? AND rating{side} IS NOT NULL ORDER BY id DESC LIMIT 1",
            (name,),
        )
        if rows and (best is None or rows[0][0] > best[0]):
            row_id, rating, deviation, volatility = rows[0]
            best = (row_id, _sound_rating(rating, deviation, volatility, path))
    return best[1] if best is not None else Rating()


def _catch_up(db: sqlite3.Connection, path: Path) -> None:
    """Rate the rounds not rated yet (counted before ratings were kept, or by an earlier
    version since), oldest first, each from the ratings before it."""
    rows = _query(
        db,
        path,
        "SELECT id, name1, name2, kind1, kind2, winner FROM rounds WHERE rated = 0 ORDER BY id",
    )
    for row_id, name1, name2, kind1, kind2, winner in rows:
        names, kinds = (str(name1), str(name2)), (str(kind1), str(kind2))
        after = rate_round(names, kinds, int(winner), lambda name: _current(db, path, name))
        _execute(
            db,
            path,
            "UPDATE rounds SET rated = 1, rating1 = ?, deviation1 = ?, volatility1 = ?, "
            "rating2 = ?, deviation2 = ?, volatility2 = ? WHERE id = ?",
            (*_rating_values(after[0]), *_rating_values(after[1]), row_id),
        )


def _ratings(
    db: sqlite3.Connection, path: Path, version: int, histories: bool = True
) -> dict[str, PlayerRating]:
    """Every person's ratings and dailies, from the rounds oldest first (the rounds not
    rated yet rated here, as the next write will rate them); without ``histories``, and
    every round rated, only each person's last rounds (``_recent``)."""
    if (
        not histories
        and version >= RATINGS_VERSION
        and not _query(db, path, "SELECT 1 FROM rounds WHERE rated = 0 LIMIT 1")
    ):
        return _recent(db, path)
    kinds = "kind1, kind2" if version >= KINDS_VERSION else "'human', 'human'"
    rated = _RATED_COLUMNS if version >= RATINGS_VERSION else "0" + ", NULL" * 8
    rows = _query(db, path, _ROUNDS.format(kinds=kinds, rated=rated))

    def rounds() -> Iterator[tuple[Any, ...]]:
        for name1, name2, kind1, kind2, winner, match_over, done, *values in rows:
            if winner not in (0, 1):
                raise StorageError(DAMAGED, path=path)
            stored = None
            if done:
                stored = (
                    None
                    if values[0] is None
                    else _sound_rating(values[0], values[1], values[2], path),
                    None
                    if values[3] is None
                    else _sound_rating(values[3], values[4], values[5], path),
                )
            medians = (_median(values[6], path), _median(values[7], path))
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
        for day, name, won in _query(db, path, "SELECT day, name, won FROM dailies ORDER BY day"):
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


def _recent(db: sqlite3.Connection, path: Path) -> dict[str, PlayerRating]:
    """Every person's rating, from their last rated rounds (as many as it takes to see
    how it moved over their last ``CHANGE_MATCHES`` matches) and how many rounds rated
    them, with their dailies: what ``stats`` shows, read in about the same time however
    long the record is (the rounds of each person found by its indexes; the ratings kept
    in each round's row as they were worked out)."""
    if _query(db, path, _UNSOUND):
        raise StorageError(DAMAGED, path=path)
    names = _query(
        db,
        path,
        "SELECT name1 FROM rounds WHERE rating1 IS NOT NULL"
        " UNION SELECT name2 FROM rounds WHERE rating2 IS NOT NULL",
    )
    ratings: dict[str, PlayerRating] = {}
    for (name,) in names:
        counted = _query(
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
                        _sound_rating(rating, deviation, volatility, path),
                        _median(median, path),
                        bool(won),
                        bool(ended),
                    )
                )
                if over >= CHANGE_MATCHES:
                    break
        except sqlite3.Error as error:
            raise _os_error(error, path) from None
        tail.reverse()
        ratings[str(name)] = PlayerRating(tail, rounds=int(counted))
    for day, name, won in _query(db, path, "SELECT day, name, won FROM dailies ORDER BY day"):
        try:
            check_date(str(day))
        except BadDate:
            raise StorageError(DAMAGED, path=path) from None
        ratings.setdefault(str(name), PlayerRating(rounds=0)).dailies.append((str(day), won == 1))
    return ratings


def _end_daily(db: sqlite3.Connection, path: Path, day: str, name: str, won: bool) -> bool:
    """Write how the daily of ``day`` went for ``name``; ``False`` if it was not under way
    (already over, or never dealt to that name)."""
    try:
        changed = db.execute(
            "UPDATE dailies SET won = ? WHERE day = ? AND name = ? AND won IS NULL",
            (int(won), day, name),
        ).rowcount
    except sqlite3.Error as error:
        raise _os_error(error, path) from None
    return changed == 1


def _dailies(db: sqlite3.Connection, path: Path, name: str) -> list[tuple[str, bool]]:
    rows = _query(db, path, "SELECT day, won FROM dailies WHERE name = ?", (name,))
    return [(str(day), won == 1) for day, won in rows]


def _sound_rating(rating: Any, deviation: Any, volatility: Any, path: Path) -> Rating:
    """A rating read from the record, checked to be one (finite, the deviation and the
    volatility not negative)."""
    if not (_number(rating) and _seconds_value(deviation) and _seconds_value(volatility)):
        raise StorageError(DAMAGED, path=path)
    return Rating(float(rating), float(deviation), float(volatility))


def _median(value: Any, path: Path) -> float | None:
    if value is None:
        return None
    if not _seconds_value(value):
        raise StorageError(DAMAGED, path=path)
    return float(value)


def _number(value: object) -> TypeGuard[int | float]:
    """Whether a value read from the record is a finite number (not a flag, not text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # a whole number too large for a float
        return False


# --------------------------------------------------------------------------- the database


def _present(path: Path) -> bool:
    """Whether there is a record database at ``path``: a regular file (checked without
    blocking, so a FIFO or a device there is refused in one line instead of hanging)."""
    try:
        open_regular(path, MAX_DATABASE, A_RECORD).close()
    except Missing:
        return False
    return True


@contextlib.contextmanager
def _open(
    path: Path, *, create: bool, busy: float = BUSY_SECONDS
) -> Iterator[tuple[sqlite3.Connection, int]]:
    """The record's database and its schema version (0: new and empty), checked to be a
    record (and made, with its folder, if ``create``); closed on leaving."""
    if create:
        ensure_folder(path.parent)
    _present(path)  # a FIFO or a device is refused before SQLite would block on it
    uri = "file:" + urllib.parse.quote(str(path)) + ("?mode=rwc" if create else "?mode=rw")
    try:
        db = sqlite3.connect(uri, uri=True, timeout=busy, isolation_level=None)
    except sqlite3.Error as error:
        raise _os_error(error, path) from None
    try:
        yield db, _version(db, path)
    finally:
        db.close()


def _version(db: sqlite3.Connection, path: Path) -> int:
    """The schema version of a stress-tui record (0 for a new, empty file);
    ``StorageError`` for another program's database."""
    # One statement, so one snapshot: read apart, another game's first write could come
    # between them (the id still 0, the version already 1).
    application, version, tables = _query(
        db,
        path,
        "SELECT a.application_id, v.user_version, (SELECT count(*) FROM sqlite_master) "
        "FROM pragma_application_id() AS a, pragma_user_version() AS v",
    )[0]
    if application == 0 and version == 0:
        if tables:
            raise StorageError(N_("{path}: not a stress-tui record; left as it is"), path=path)
    elif application != APPLICATION_ID:
        raise StorageError(N_("{path}: not a stress-tui record; left as it is"), path=path)
    return int(version)


@contextlib.contextmanager
def _writing(db: sqlite3.Connection, path: Path) -> Iterator[None]:
    """One write transaction, taken at once (``BEGIN IMMEDIATE``: a second game waits
    here, instead of failing later on a lock it cannot upgrade), with the schema brought
    up to date first; committed on leaving, rolled back on an error."""
    _execute(db, path, "BEGIN IMMEDIATE")
    try:
        version = _query(db, path, "PRAGMA user_version")[0][0]
        if version == 0:
            _execute(db, path, f"PRAGMA application_id = {APPLICATION_ID}")
        for step in range(version, len(MIGRATIONS)):
            for statement in MIGRATIONS[step].split(";"):
                if statement.strip():
                    _execute(db, path, statement)
            if step == 0:
                _carry_over(db, path)
        if version < len(MIGRATIONS):
            _execute(db, path, f"PRAGMA user_version = {len(MIGRATIONS)}")
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    _execute(db, path, "COMMIT")


def _carry_over(db: sqlite3.Connection, path: Path) -> None:
    """Copy the standings of an earlier version's ``record.json`` into a new database
    (nothing if there is none; ``StorageError``, and no database, if it is broken)."""
    try:
        standings = _read_legacy(legacy_path(path))
    except Missing:
        return
    for name, by_rules in standings.items():
        for rules, standing in by_rules.items():
            values = asdict(standing)
            _execute(
                db,
                path,
                f"INSERT INTO carried (name, rules, {', '.join(values)}) "
                f"VALUES (?, ?, {', '.join('?' * len(values))})",
                (name, rules, *values.values()),
            )


def _query(
    db: sqlite3.Connection, path: Path, sql: str, values: tuple[Any, ...] | dict[str, Any] = ()
) -> list[Any]:
    try:
        return db.execute(sql, values).fetchall()
    except sqlite3.Error as error:
        raise _os_error(error, path) from None


def _execute(db: sqlite3.Connection, path: Path, sql: str, values: tuple[Any, ...] = ()) -> None:
    try:
        db.execute(sql, values)
    except sqlite3.Error as error:
        raise _os_error(error, path) from None


_BROKEN = {"SQLITE_NOTADB", "SQLITE_CORRUPT", "SQLITE_ERROR", "SQLITE_MISMATCH"}
"""SQLite's errors that mean the file is not (or no longer) a record we can read."""

_MESSAGES = {
    "database is locked": "SQLITE_BUSY",
    "database table is locked": "SQLITE_LOCKED",
    "attempt to write a readonly database": "SQLITE_READONLY",
    "database or disk is full": "SQLITE_FULL",
    "unable to open database file": "SQLITE_CANTOPEN",
    "file is not a database": "SQLITE_NOTADB",
    "database disk image is malformed": "SQLITE_CORRUPT",
    "datatype mismatch": "SQLITE_MISMATCH",
    "disk I/O error": "SQLITE_IOERR",
}
"""SQLite's own words for its errors (``sqlite3_errstr``, the same in every version), by
the name of the error: what Python before 3.11 gives of an error, which has no
``sqlite_errorname``."""


def error_name(error: sqlite3.Error) -> str:
    """The name of SQLite's error (``SQLITE_BUSY``...), on every Python: its
    ``sqlite_errorname`` (from 3.11), else told from its message, which is SQLite's own
    words for it; an ``OperationalError`` in other words is a statement SQLite could not
    run (``SQLITE_ERROR``: ``no such table: rounds``)."""
    name = getattr(error, "sqlite_errorname", None)
    if isinstance(name, str):
        return name
    text = str(error)
    if text in _MESSAGES:
        return _MESSAGES[text]
    if text.startswith("database is locked"):  # "... (some detail)" in some builds
        return "SQLITE_BUSY"
    return "SQLITE_ERROR" if isinstance(error, sqlite3.OperationalError) else ""


def _os_error(error: sqlite3.Error, path: Path) -> Exception:
    """An error of SQLite's as ours: ``StorageError`` for a file that is not a readable
    record, ``OSError`` for what stops a write (locked, read-only, a full disk)."""
    name = error_name(error)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return OSError(errno.EBUSY, "another program keeps the record locked")
    if name.startswith("SQLITE_READONLY"):
        return OSError(errno.EROFS, "the record cannot be written")
    if name.startswith("SQLITE_FULL"):
        return OSError(errno.ENOSPC, "no space left on device")
    if name.startswith("SQLITE_CANTOPEN"):
        return OSError(errno.EACCES, "the record cannot be opened")
    if name.startswith(tuple(_BROKEN)):
        return StorageError(
            N_("{path}: not a stress-tui record, or a damaged one; left as it is"), path=path
        )
    return OSError(errno.EIO, f"SQLite: {str(error).splitlines()[0] if str(error) else name}")


# --------------------------------------------------------------------------- reading back


def _shown_name(name: object) -> str:
    """A name as read from the record, harmless to print (a crafted file may hold escape
    sequences) and no longer than a name can be."""
    return harmless(str(name), MAX_NAME + 4)


def _shown_rules(rules: object) -> str:
    """A rule set as read from the record, in notation as this version writes it (or made
    harmless, if it is not notation at all)."""
    try:
        return format_rules(parse_rules(str(rules)))
    except (NotationError, ValueError):
        return harmless(str(rules))


def _add(into: Standing, more: Standing, path: Path) -> None:
    """Sum ``more`` into ``into`` (two rows that read back as the same name and rules)."""
    if not _sound(more):
        raise StorageError(DAMAGED, path=path)
    into.matches_won += more.matches_won
    into.matches_lost += more.matches_lost
    into.rounds_won += more.rounds_won
    into.rounds_lost += more.rounds_lost
    for name in ("best_reaction", "best_round"):
        known = [t for t in (getattr(into, name), getattr(more, name)) if t is not None]
        setattr(into, name, min(known) if known else None)


def _sound(standing: Standing) -> bool:
    """Whether a standing read from a file holds counts and times (not any value)."""
    counts = (
        standing.matches_won,
        standing.matches_lost,
        standing.rounds_won,
        standing.rounds_lost,
    )
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
        return False
    return all(
        t is None or _seconds_value(t) for t in (standing.best_reaction, standing.best_round)
    )


def _seconds_value(value: object) -> bool:
    return _number(value) and value >= 0


LEGACY_VERSION = 1
"""The only version of ``record.json`` there was."""


def _read_legacy(path: Path) -> dict[str, dict[str, Standing]]:
    """The standings in an earlier version's ``record.json`` (``Missing`` if there is
    none; ``StorageError`` if it is broken or foreign, and it is left alone)."""
    data = read_json(path, MAX_LEGACY, A_RECORD)
    if not isinstance(data, dict) or data.get("format") != "stress-tui record":
        raise StorageError(N_("{path}: not a stress-tui record; left as it is"), path=path)
    if data.get("version", LEGACY_VERSION) != LEGACY_VERSION:
        raise StorageError(
            N_("{path}: record version {version} is not supported; left as it is"),
            path=path,
            version=harmless(str(data.get("version"))),
        )
    try:
        standings = {
            name: {rules: Standing(**values) for rules, values in by_rules.items()}
            for name, by_rules in data["players"].items()
        }
    except (AttributeError, KeyError, TypeError):
        raise StorageError(N_("{path}: the record is broken; left as it is"), path=path) from None
    shown: dict[str, dict[str, Standing]] = {}
    for name, by_rules in standings.items():
        for rules, standing in by_rules.items():
            if not _sound(standing):
                raise StorageError(
                    N_("{path}: the record of {name} under {rules} is broken; left as it is"),
                    path=path,
                    name=repr(harmless(name, 20)),
                    rules=repr(harmless(rules)),
                )
            _add(
                shown.setdefault(_shown_name(name), {}).setdefault(_shown_rules(rules), Standing()),
                standing,
                path,
            )
    return shown
