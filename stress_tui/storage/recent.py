"""What the SSH server shows a person of their own record (its lobby, ``stats``): their
standings, their rating now and their last rounds, newest first, read by their name
alone (``own_record``), so that it costs about the same however long the record is."""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from stress_tui.core.rating import Rating
from stress_tui.core.text import harmless
from stress_tui.storage.database import (
    KINDS_VERSION,
    legacy_path,
    opened,
    present,
    query,
    reading,
    record_path,
)
from stress_tui.storage.files import Missing
from stress_tui.storage.ratings import last_rating, read_ratings, unrated
from stress_tui.storage.record import standings_sql
from stress_tui.storage.standings import (
    ONE_PERSON,
    Standing,
    add_standing,
    name_read,
    read_legacy,
    rules_read,
)


@dataclass(frozen=True, slots=True)
class RecentRound:
    """One round a person played, as the record counted it."""

    finished: str
    """When it ended (ISO 8601, UTC)."""
    opponent: str
    """The other side's name, as the record keeps it (``Computer``: a name nobody gave),
    made harmless to print, as every text read from the record."""
    opponent_kind: str
    """Who played the other side: ``human``, ``bot:hard``."""
    won: bool
    """Whether the person won it."""


@dataclass(frozen=True)
class OwnRecord:
    """A person's own record, as ``Record.load`` has it for them."""

    standings: dict[str, Standing]
    """Their standing as a person under each rule set they played."""
    rating: Rating | None
    """Their rating now (``None``: no rated round yet)."""
    recent: list[RecentRound]
    """Their last rounds, newest first."""


def own_record(name: str, limit: int, path: Path | None = None) -> OwnRecord:
    """``name``'s standings, rating and last ``limit`` rounds, in one snapshot of the record,
    read without writing: the standings from the sums kept as rounds are counted and the
    rating from the last round that rated them, each found by the names' indexes (in a
    record holding rounds not rated yet, the ratings are worked out from every round, as
    the next write will, ``read_ratings``). Blocks on the file: run it off the event
    loop. ``StorageError`` and ``OSError`` as for ``Record.load``."""
    path = path if path is not None else record_path()
    if present(path):
        with opened(path, create=False) as (db, version), reading(db, path):
            if version > 0:
                standings: dict[str, Standing] = {}
                for _name, _kind, rules, *values in query(
                    db, path, standings_sql(version, ONE_PERSON), {"name": name}
                ):
                    shown = standings.setdefault(rules_read(rules), Standing())
                    add_standing(shown, Standing(*values), path)
                if unrated(db, path, version):
                    found = read_ratings(db, path, version).get(name)
                    rating = found.rating if found is not None and found.rated_rounds else None
                else:
                    rating = last_rating(db, path, name)
                return OwnRecord(standings, rating, _recent(db, path, version, name, limit))
    with contextlib.suppress(Missing):  # no database yet: an earlier version's record
        return OwnRecord(read_legacy(legacy_path(path)).get(name, {}), None, [])
    return OwnRecord({}, None, [])


def recent_rounds(name: str, limit: int, path: Path | None = None) -> list[RecentRound]:
    """``name``'s last ``limit`` rounds in the record, newest first, read without writing
    (``[]`` where there is no record yet). Blocks on the file: run it off the event loop."""
    path = path if path is not None else record_path()
    if not present(path):
        return []
    with opened(path, create=False) as (db, version):
        return _recent(db, path, version, name, limit)


def _recent(
    db: sqlite3.Connection, path: Path, version: int, name: str, limit: int
) -> list[RecentRound]:
    if version < KINDS_VERSION:
        return []
    rows = query(
        db,
        path,
        "SELECT id, finished, name2, kind2, winner = 0 FROM rounds"
        " WHERE name1 = ? AND kind1 = 'human'"
        " UNION ALL"
        " SELECT id, finished, name1, kind1, winner = 1 FROM rounds"
        " WHERE name2 = ? AND kind2 = 'human'"
        " ORDER BY id DESC LIMIT ?",
        (name, name, limit),
    )
    return [
        RecentRound(
            harmless(str(finished), 32), name_read(opponent), harmless(str(kind)), bool(won)
        )
        for _id, finished, opponent, kind, won in rows
    ]
