"""The record kept across matches: every finished round, per player name and rule set.

The record is a SQLite database, ``record.sqlite`` in the data folder (its file, schema
and errors: ``storage.database``). Each finished round is one row of ``rounds``, added in
a transaction of its own (``count_round``); a player's standing (matches and rounds won
and lost, best reaction, shortest round won) is summed from the rows when it is read
(``Record.load``, ``storage.standings``). Two games that share a data folder never lose
each other's rounds: SQLite locks the file for the few milliseconds of a write and the
other waits for it (``BUSY_SECONDS``). Why SQLite and not a JSON file with a lock:
``docs/replays.md``.

Each round's row also keeps the ratings of the people who played it, as they stand after
it (``storage.ratings``: Glicko-2, a computer level a fixed anchor), worked out in the
same transaction from their ratings in the rows before it, so that two games counting
rounds at once never rate a round from a rating the other has since changed. A daily
deal is taken in the ``dailies`` table when its first card is played (``claim_daily``),
once a day per name, and its result written there with the round. A round is counted
under its own key (its replay's id) once, however often it is offered
(``storage.pending``).

A record written by earlier versions (``record.json``, standings only) is carried over:
read as long as there is no database, copied into its ``carried`` table in the same
transaction that makes the database, then left as it was (never written again).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from stress_tui.core.choices import FORGOTTEN
from stress_tui.core.daily import Streak, streaks
from stress_tui.core.rating import Rating
from stress_tui.core.stats import RoundStats
from stress_tui.storage.database import (
    BUSY_SECONDS,
    KINDS_VERSION,
    RATED_COLUMNS,
    TALLIES_VERSION,
    execute,
    legacy_path,
    opened,
    os_error,
    present,
    query,
    record_path,
    writing,
)
from stress_tui.storage.files import (
    Missing,
)
from stress_tui.storage.ratings import (
    HUMAN,
    PlayerRating,
    last_rating,
    rate_round,
    read_ratings,
)
from stress_tui.storage.standings import (
    TALLY,
    Standing,
    add_standing,
    by_name,
    name_read,
    read_legacy,
    rules_read,
    summed,
)


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
        if present(path):
            with opened(path, create=False) as (db, version):
                made = version > 0
                if made:
                    rows = query(db, path, standings_sql(version))
                    ratings = read_ratings(db, path, version, histories)
        if not made:  # no database yet: an earlier version's record, if there is one
            try:
                return cls(read_legacy(legacy_path(path)))
            except Missing:
                return cls()
        record = cls(ratings={name_read(name): rating for name, rating in ratings.items()})
        for name, kind, rules, *values in rows:
            kind = str(kind)
            if kind.startswith("bot:"):
                by_rules = record.computers.setdefault(name_read(kind[4:]), {})
                shown = by_rules.setdefault(rules_read(rules), Standing())
            else:
                shown = record.standing(name_read(name), rules_read(rules))
            add_standing(shown, Standing(*values), path)
        return record

    def standing(self, name: str, rules: str) -> Standing:
        """A player's standing under a rule set (an empty one if new)."""
        return self.standings.setdefault(name, {}).setdefault(rules, Standing())

    def rows(self) -> list[tuple[str, str, Standing]]:
        """Every person's standing, by name then rule set."""
        return by_name(self.standings)

    def computer_rows(self) -> list[tuple[str, str, Standing]]:
        """Every computer player's standing, by level then rule set."""
        return by_name(self.computers)


def standings_sql(version: int, where: str = "") -> str:
    """The statement that reads the standings of a record of schema ``version``
    (``standings.summed``; ``where``: ``ONE_PERSON``, one person's alone)."""
    kinds = ("kind1", "kind2") if version >= KINDS_VERSION else ("'human'", "'human'")
    return summed(version >= TALLIES_VERSION, kinds, where)


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
    if not present(path):
        with contextlib.suppress(Missing):
            read_legacy(legacy_path(path))  # broken: say so before making a database
    with opened(path, create=True, busy=busy) as (db, _), writing(db, path):
        if key is not None and query(db, path, "SELECT 1 FROM rounds WHERE replay = ?", (key,)):
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
        execute(
            db,
            path,
            "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds, reaction1, "
            f"reaction2, match_over, kind1, kind2, daily, replay, {RATED_COLUMNS}) "
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
        execute(db, path, TALLY)  # this round and any an earlier version counted since
        execute(db, path, "UPDATE tallied SET upto = (SELECT max(id) FROM rounds)")
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
    if not present(path):
        with contextlib.suppress(Missing):
            read_legacy(legacy_path(path))
    with opened(path, create=True) as (db, _), writing(db, path):
        rows = query(db, path, "SELECT won FROM dailies WHERE day = ? AND name = ?", (day, name))
        if rows:
            won = rows[0][0]
            raise DailyTaken(day, name, None if won is None else bool(won))
        if started is not None:
            execute(
                db,
                path,
                "INSERT INTO dailies (day, name, started) VALUES (?, ?, ?)",
                (day, name, started),
            )


# --------------------------------------------------------------------------- ratings


def _rating_values(rating: Rating | None) -> tuple[float | None, float | None, float | None]:
    if rating is None:
        return (None, None, None)
    return (rating.rating, rating.deviation, rating.volatility)


def _current(db: sqlite3.Connection, path: Path, name: str) -> Rating:
    """A person's rating after the last rated round they played (a new player's if none)."""
    found = last_rating(db, path, name)
    return found if found is not None else Rating()


def _catch_up(db: sqlite3.Connection, path: Path) -> None:
    """Rate the rounds not rated yet (counted before ratings were kept, or by an earlier
    version since), oldest first, each from the ratings before it."""
    rows = query(
        db,
        path,
        "SELECT id, name1, name2, kind1, kind2, winner FROM rounds WHERE rated = 0 ORDER BY id",
    )
    for row_id, name1, name2, kind1, kind2, winner in rows:
        names, kinds = (str(name1), str(name2)), (str(kind1), str(kind2))
        after = rate_round(names, kinds, int(winner), lambda name: _current(db, path, name))
        execute(
            db,
            path,
            "UPDATE rounds SET rated = 1, rating1 = ?, deviation1 = ?, volatility1 = ?, "
            "rating2 = ?, deviation2 = ?, volatility2 = ? WHERE id = ?",
            (*_rating_values(after[0]), *_rating_values(after[1]), row_id),
        )


def forget_people(
    names: Collection[str], path: Path | None = None, *, erase: bool = True
) -> tuple[int, int]:
    """Take the people ``names`` out of the record (why so: ``storage/forget.py``): a
    round one of them played as a person against another person still known is kept, that
    side's name made ``FORGOTTEN`` and its reactions, median and rating erased; every
    other round they played as a person is deleted, and so are their dailies and carried
    standings; the standings' sums are summed again from the rounds left. Every round is
    rated first, from the ratings as they stand. Returns how many rounds are kept and how
    many deleted (``erase=False``: would be, nothing changed). Nothing where there is no
    record. ``StorageError`` and ``OSError`` as for ``count_round``."""
    path = path if path is not None else record_path()
    if not present(path):
        return 0, 0
    gone = sorted(set(names) | {FORGOTTEN})
    marks = ", ".join(f":gone{i}" for i in range(len(gone)))

    def mine(me: int) -> str:
        return f"name{me} = :name AND kind{me} = '{HUMAN}'"

    def needed(me: int, them: int) -> str:  # played against a person still known
        return f"{mine(me)} AND kind{them} = '{HUMAN}' AND name{them} NOT IN ({marks})"

    kept = deleted = 0
    with opened(path, create=False) as (db, _), writing(db, path):
        if erase:
            _catch_up(db, path)
        for name in names:
            values = {"name": name, **{f"gone{i}": who for i, who in enumerate(gone)}}
            rounds, needs = query(
                db,
                path,
                f"SELECT count(*), coalesce(sum(({needed(1, 2)}) OR ({needed(2, 1)})), 0) "
                f"FROM rounds WHERE ({mine(1)}) OR ({mine(2)})",
                values,
            )[0]
            kept, deleted = kept + int(needs), deleted + int(rounds) - int(needs)
            if not erase:
                continue
            for me, them in ((1, 2), (2, 1)):
                execute(
                    db,
                    path,
                    f"DELETE FROM rounds WHERE {mine(me)} AND NOT ({needed(me, them)})",
                    values,
                )
                execute(
                    db,
                    path,
                    f"UPDATE rounds SET name{me} = :forgotten, reaction{me} = NULL, "
                    f"median{me} = NULL, rating{me} = NULL, deviation{me} = NULL, "
                    f"volatility{me} = NULL WHERE {mine(me)}",
                    {**values, "forgotten": FORGOTTEN},
                )
            execute(db, path, "DELETE FROM dailies WHERE name = ?", (name,))
            execute(db, path, "DELETE FROM carried WHERE name = ?", (name,))
        if erase:
            execute(db, path, "DELETE FROM tallies")
            execute(db, path, "UPDATE tallied SET upto = 0")
            execute(db, path, TALLY)
            execute(db, path, "UPDATE tallied SET upto = (SELECT coalesce(max(id), 0) FROM rounds)")
    return kept, deleted


def _end_daily(db: sqlite3.Connection, path: Path, day: str, name: str, won: bool) -> bool:
    """Write how the daily of ``day`` went for ``name``; ``False`` if it was not under way
    (already over, or never dealt to that name)."""
    try:
        changed = db.execute(
            "UPDATE dailies SET won = ? WHERE day = ? AND name = ? AND won IS NULL",
            (int(won), day, name),
        ).rowcount
    except sqlite3.Error as error:
        raise os_error(error, path) from None
    return changed == 1


def _dailies(db: sqlite3.Connection, path: Path, name: str) -> list[tuple[str, bool]]:
    rows = query(db, path, "SELECT day, won FROM dailies WHERE name = ?", (name,))
    return [(str(day), won == 1) for day, won in rows]


# --------------------------------------------------------------------------- the database


# --------------------------------------------------------------------------- reading back
