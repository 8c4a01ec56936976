"""The record's SQLite file: where it is, opened and checked to be a record, its schema
brought up to date in a write transaction, and SQLite's errors said as ours.

Changing what is stored: append a step to ``MIGRATIONS``; never change a step that has
shipped. Each step runs once, in a write transaction, when a game of this version first
writes to a record of an earlier version (``PRAGMA user_version`` counts the steps run),
so two games starting at once cannot both run it. Steps only add (a table, a column with
a default, an index): a game of an earlier version goes on reading and adding rounds to a
record that a later one has changed. A record written by earlier versions
(``record.json``, standings only) is copied into the ``carried`` table by the step that
makes the database (``storage.standings``).
"""

from __future__ import annotations

import contextlib
import errno
import sqlite3
import urllib.parse
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from stress_tui.core.words import N_
from stress_tui.storage.files import (
    MiB,
    Missing,
    StorageError,
    data_dir,
    ensure_folder,
    open_regular,
)
from stress_tui.storage.standings import A_RECORD, read_legacy

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
    # 5: the standings' sums, kept as rounds are counted (storage.standings.TALLY), of
    # every round up to tallied.upto: the first round counted after this step sums those
    # before it.
    """
    CREATE TABLE tallies (
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        rules TEXT NOT NULL,
        matches_won INTEGER NOT NULL,
        matches_lost INTEGER NOT NULL,
        rounds_won INTEGER NOT NULL,
        rounds_lost INTEGER NOT NULL,
        best_reaction REAL,
        best_round REAL,
        PRIMARY KEY (name, kind, rules)
    );
    CREATE TABLE tallied (upto INTEGER NOT NULL);
    INSERT INTO tallied (upto) VALUES (0);
    """,
)
"""The schema, as the steps that build it; ``PRAGMA user_version`` is how many have run."""


BUSY_SECONDS = 10.0
"""How long a game waits for another to finish writing the record before giving up on
counting a round (a write takes milliseconds)."""


MAX_DATABASE = 1024 * MiB
"""The largest ``record.sqlite`` that is opened (millions of rounds)."""


KINDS_VERSION = 2
"""The schema version from which rounds say who played each side."""


TALLIES_VERSION = 5
"""The schema version from which the standings' sums are kept as rounds are counted."""

RATINGS_VERSION = 3
"""The schema version from which rounds keep ratings and medians, and dailies are kept."""


def record_path() -> Path:
    """Where the record is kept."""
    return data_dir() / "record.sqlite"


def legacy_path(path: Path) -> Path:
    """Where an earlier version kept the record that belongs beside ``path``."""
    return path.with_name("record.json")


def present(path: Path) -> bool:
    """Whether there is a record database at ``path``: a regular file (checked without
    blocking, so a FIFO or a device there is refused in one line instead of hanging)."""
    try:
        open_regular(path, MAX_DATABASE, A_RECORD).close()
    except Missing:
        return False
    return True


@contextlib.contextmanager
def opened(
    path: Path, *, create: bool, busy: float = BUSY_SECONDS
) -> Iterator[tuple[sqlite3.Connection, int]]:
    """The record's database and its schema version (0: new and empty), checked to be a
    record (and made, with its folder, if ``create``); closed on leaving."""
    if create:
        ensure_folder(path.parent)
    present(path)  # a FIFO or a device is refused before SQLite would block on it
    uri = "file:" + urllib.parse.quote(str(path)) + ("?mode=rwc" if create else "?mode=rw")
    try:
        db = sqlite3.connect(uri, uri=True, timeout=busy, isolation_level=None)
    except sqlite3.Error as error:
        raise os_error(error, path) from None
    try:
        yield db, _version(db, path)
    finally:
        db.close()


def _version(db: sqlite3.Connection, path: Path) -> int:
    """The schema version of a stress-tui record (0 for a new, empty file);
    ``StorageError`` for another program's database."""
    # One statement, so one snapshot: read apart, another game's first write could come
    # between them (the id still 0, the version already 1).
    application, version, tables = query(
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
def writing(db: sqlite3.Connection, path: Path) -> Iterator[None]:
    """One write transaction, taken at once (``BEGIN IMMEDIATE``: a second game waits
    here, instead of failing later on a lock it cannot upgrade), with the schema brought
    up to date first; committed on leaving, rolled back on an error."""
    execute(db, path, "BEGIN IMMEDIATE")
    try:
        version = query(db, path, "PRAGMA user_version")[0][0]
        if version == 0:
            execute(db, path, f"PRAGMA application_id = {APPLICATION_ID}")
        for step in range(version, len(MIGRATIONS)):
            for statement in MIGRATIONS[step].split(";"):
                if statement.strip():
                    execute(db, path, statement)
            if step == 0:
                _carry_over(db, path)
        if version < len(MIGRATIONS):
            execute(db, path, f"PRAGMA user_version = {len(MIGRATIONS)}")
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    execute(db, path, "COMMIT")


@contextlib.contextmanager
def reading(db: sqlite3.Connection, path: Path) -> Iterator[None]:
    """One read transaction: every statement in it reads the record as it was at the
    first (a round another game counts meanwhile is in all of them or in none)."""
    execute(db, path, "BEGIN")
    try:
        yield
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.execute("COMMIT")


def _carry_over(db: sqlite3.Connection, path: Path) -> None:
    """Copy the standings of an earlier version's ``record.json`` into a new database
    (nothing if there is none; ``StorageError``, and no database, if it is broken)."""
    try:
        standings = read_legacy(legacy_path(path))
    except Missing:
        return
    for name, by_rules in standings.items():
        for rules, standing in by_rules.items():
            values = asdict(standing)
            execute(
                db,
                path,
                f"INSERT INTO carried (name, rules, {', '.join(values)}) "
                f"VALUES (?, ?, {', '.join('?' * len(values))})",
                (name, rules, *values.values()),
            )


def query(
    db: sqlite3.Connection, path: Path, sql: str, values: tuple[Any, ...] | dict[str, Any] = ()
) -> list[Any]:
    try:
        return db.execute(sql, values).fetchall()
    except sqlite3.Error as error:
        raise os_error(error, path) from None


def execute(
    db: sqlite3.Connection, path: Path, sql: str, values: tuple[Any, ...] | dict[str, Any] = ()
) -> None:
    try:
        db.execute(sql, values)
    except sqlite3.Error as error:
        raise os_error(error, path) from None


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


def os_error(error: sqlite3.Error, path: Path) -> Exception:
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


RATED_COLUMNS = (
    "rated, rating1, deviation1, volatility1, rating2, deviation2, volatility2, median1, median2"
)
