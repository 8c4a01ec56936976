"""The record kept across matches: every finished round, per player name and rule set.

The record is a SQLite database, ``record.sqlite`` in the data folder, through the
standard library's ``sqlite3``. Each finished round is one row of ``rounds``, added in a
transaction of its own (``count_round``); a player's standing (matches and rounds won and
lost, best reaction, shortest round won) is summed from the rows when it is read
(``Record.load``). Two games that share a data folder never lose each other's rounds:
SQLite locks the file for the few milliseconds of a write and the other waits for it
(``BUSY_SECONDS``). Why SQLite and not a JSON file with a lock: ``docs/replays.md``.

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
from typing import Any

from stress_tui.core.notation import NotationError, format_rules, parse_rules
from stress_tui.core.stats import RoundStats
from stress_tui.core.text import MAX_NAME, harmless
from stress_tui.storage.files import (
    MiB,
    Missing,
    StorageError,
    data_dir,
    ensure_folder,
    open_regular,
    read_json,
)


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
    SELECT name, rules, SUM(mw), SUM(ml), SUM(rw), SUM(rl), MIN(br), MIN(bd) FROM (
        SELECT name, rules, matches_won AS mw, matches_lost AS ml, rounds_won AS rw,
               rounds_lost AS rl, best_reaction AS br, best_round AS bd FROM carried
        UNION ALL
        SELECT name1, rules, match_over AND winner = 0, match_over AND winner = 1,
               winner = 0, winner = 1, reaction1, CASE WHEN winner = 0 THEN seconds END
        FROM rounds
        UNION ALL
        SELECT name2, rules, match_over AND winner = 1, match_over AND winner = 0,
               winner = 1, winner = 0, reaction2, CASE WHEN winner = 1 THEN seconds END
        FROM rounds
    ) GROUP BY name, rules
"""
"""Every standing, summed from the carried standings and both sides of every round."""


def record_path() -> Path:
    """Where the record is kept."""
    return data_dir() / "record.sqlite"


def legacy_path(path: Path) -> Path:
    """Where an earlier version kept the record that belongs beside ``path``."""
    return path.with_name("record.json")


class Record:
    """Standings by player name and rule set, as read from the record."""

    def __init__(self, standings: dict[str, dict[str, Standing]] | None = None) -> None:
        self.standings = standings if standings is not None else {}
        """Player name -> rule set (as in the notation) -> standing."""

    @classmethod
    def load(cls, path: Path | None = None) -> Record:
        """Read the record (``record_path()`` unless given): the database, or while there
        is none, the ``record.json`` of an earlier version beside it; nothing there is an
        empty record. Never writes. A record that cannot be read or is not one raises
        ``StorageError`` in one line, and is left as it is."""
        path = path if path is not None else record_path()
        rows: list[Any] = []
        made = False
        if _present(path):
            with _open(path, create=False) as (db, version):
                made = version > 0
                if made:
                    rows = _query(db, path, _STANDINGS)
        if not made:  # no database yet: an earlier version's record, if there is one
            try:
                return cls(_read_legacy(legacy_path(path)))
            except Missing:
                return cls()
        record = cls()
        for name, rules, *values in rows:
            shown = record.standing(_shown_name(name), _shown_rules(rules))
            _add(shown, Standing(*values), path)
        return record

    def standing(self, name: str, rules: str) -> Standing:
        """A player's standing under a rule set (an empty one if new)."""
        return self.standings.setdefault(name, {}).setdefault(rules, Standing())

    def rows(self) -> list[tuple[str, str, Standing]]:
        """Every standing, by name then rule set."""
        return [
            (name, rules, standing)
            for name in sorted(self.standings)
            for rules, standing in sorted(self.standings[name].items())
        ]


def count_round(
    names: tuple[str, str],
    rules: str,
    result: RoundStats,
    match_over: bool,
    path: Path | None = None,
    when: datetime | None = None,
) -> None:
    """Add a finished round (and whether it won the match) to the record, in one
    transaction: it is counted whole or not at all, whatever other games write beside
    it. A round without a winner is not counted. ``StorageError`` if the record cannot be
    read or is not one (it is then left alone); ``OSError`` if it cannot be written
    (a file where the data folder should be, a full disk, another program holding it)."""
    if result.winner is None:
        return
    path = path if path is not None else record_path()
    finished = (when or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    reactions = [player.best_reaction for player in result.players]
    if not _present(path):
        with contextlib.suppress(Missing):
            _read_legacy(legacy_path(path))  # broken: say so before making a database
    with _open(path, create=True) as (db, _), _writing(db, path):
        _execute(
            db,
            path,
            "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds, reaction1, "
            "reaction2, match_over) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (finished, rules, *names, result.winner, result.seconds, *reactions, match_over),
        )


# --------------------------------------------------------------------------- the database


def _present(path: Path) -> bool:
    """Whether there is a record database at ``path``: a regular file (checked without
    blocking, so a FIFO or a device there is refused in one line instead of hanging)."""
    try:
        open_regular(path, MAX_DATABASE, "a record").close()
    except Missing:
        return False
    return True


@contextlib.contextmanager
def _open(path: Path, *, create: bool) -> Iterator[tuple[sqlite3.Connection, int]]:
    """The record's database and its schema version (0: new and empty), checked to be a
    record (and made, with its folder, if ``create``); closed on leaving."""
    if create:
        ensure_folder(path.parent)
    _present(path)  # a FIFO or a device is refused before SQLite would block on it
    uri = "file:" + urllib.parse.quote(str(path)) + ("?mode=rwc" if create else "?mode=rw")
    try:
        db = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None)
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
            raise StorageError(f"{path}: not a stress-tui record; left as it is")
    elif application != APPLICATION_ID:
        raise StorageError(f"{path}: not a stress-tui record; left as it is")
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


def _query(db: sqlite3.Connection, path: Path, sql: str) -> list[Any]:
    try:
        return db.execute(sql).fetchall()
    except sqlite3.Error as error:
        raise _os_error(error, path) from None


def _execute(db: sqlite3.Connection, path: Path, sql: str, values: tuple[Any, ...] = ()) -> None:
    try:
        db.execute(sql, values)
    except sqlite3.Error as error:
        raise _os_error(error, path) from None


_BROKEN = {"SQLITE_NOTADB", "SQLITE_CORRUPT", "SQLITE_ERROR", "SQLITE_MISMATCH"}
"""SQLite's errors that mean the file is not (or no longer) a record we can read."""


def _os_error(error: sqlite3.Error, path: Path) -> Exception:
    """An error of SQLite's as ours: ``StorageError`` for a file that is not a readable
    record, ``OSError`` for what stops a write (locked, read-only, a full disk)."""
    name = getattr(error, "sqlite_errorname", "")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return OSError(errno.EBUSY, "another program keeps the record locked")
    if name.startswith("SQLITE_READONLY"):
        return OSError(errno.EROFS, "the record cannot be written")
    if name.startswith("SQLITE_FULL"):
        return OSError(errno.ENOSPC, "no space left on device")
    if name.startswith("SQLITE_CANTOPEN"):
        return OSError(errno.EACCES, "the record cannot be opened")
    if name.startswith(tuple(_BROKEN)):
        return StorageError(f"{path}: not a stress-tui record, or a damaged one; left as it is")
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
        raise StorageError(f"{path}: the record is damaged; left as it is")
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
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value) and value >= 0
    except OverflowError:  # a whole number too large for a float
        return False


LEGACY_VERSION = 1
"""The only version of ``record.json`` there was."""


def _read_legacy(path: Path) -> dict[str, dict[str, Standing]]:
    """The standings in an earlier version's ``record.json`` (``Missing`` if there is
    none; ``StorageError`` if it is broken or foreign, and it is left alone)."""
    data = read_json(path, MAX_LEGACY, "a record")
    if not isinstance(data, dict) or data.get("format") != "stress-tui record":
        raise StorageError(f"{path}: not a stress-tui record; left as it is")
    if data.get("version", LEGACY_VERSION) != LEGACY_VERSION:
        raise StorageError(
            f"{path}: record version {harmless(str(data.get('version')))} is not supported; "
            "left as it is"
        )
    try:
        standings = {
            name: {rules: Standing(**values) for rules, values in by_rules.items()}
            for name, by_rules in data["players"].items()
        }
    except (AttributeError, KeyError, TypeError):
        raise StorageError(f"{path}: the record is broken; left as it is") from None
    shown: dict[str, dict[str, Standing]] = {}
    for name, by_rules in standings.items():
        for rules, standing in by_rules.items():
            if not _sound(standing):
                raise StorageError(
                    f"{path}: the record of {harmless(name, 20)!r} under "
                    f"{harmless(rules)!r} is broken; left as it is"
                )
            _add(
                shown.setdefault(_shown_name(name), {}).setdefault(_shown_rules(rules), Standing()),
                standing,
                path,
            )
    return shown


# --------------------------------------------------------------------------- printing


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"


def record_table(record: Record) -> str:
    """The record as a plain text table, one row per player and rule set."""
    header = ("player", "rules", "matches", "rounds", "best reaction", "best round")
    rows = [header] + [
        (
            name,
            rules,
            f"{s.matches_won}-{s.matches_lost}",
            f"{s.rounds_won}-{s.rounds_lost}",
            _seconds(s.best_reaction),
            _seconds(s.best_round),
        )
        for name, rules, s in record.rows()
    ]
    if len(rows) == 1:
        return "No rounds recorded yet."
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in rows
    ]
    return "\n".join(line.rstrip() for line in lines)


def record_json(record: Record) -> dict[str, Any]:
    """The record for scripts: ``{"players": [{"name", "rules", ...standing}]}``."""
    return {
        "players": [
            {"name": name, "rules": rules, **asdict(standing)}
            for name, rules, standing in record.rows()
        ]
    }
