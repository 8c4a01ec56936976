"""A person's last rounds in the record, newest first: what the SSH server's lobby shows
beside their rating (``terminal/lobby.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from stress_tui.storage.database import KINDS_VERSION, opened, present, query, record_path


@dataclass(frozen=True, slots=True)
class RecentRound:
    """One round a person played, as the record counted it."""

    finished: str
    """When it ended (ISO 8601, UTC)."""
    opponent: str
    """The other side's name, as the record keeps it (``Computer``: a name nobody gave)."""
    opponent_kind: str
    """Who played the other side: ``human``, ``bot:hard``."""
    won: bool
    """Whether the person won it."""


def recent_rounds(name: str, limit: int, path: Path | None = None) -> list[RecentRound]:
    """``name``'s last ``limit`` rounds in the record, newest first, read without writing
    (``[]`` where there is no record yet). Blocks on the file: run it off the event loop."""
    path = path if path is not None else record_path()
    if not present(path):
        return []
    with opened(path, create=False) as (db, version):
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
        RecentRound(str(finished), str(opponent), str(kind), bool(won))
        for _id, finished, opponent, kind, won in rows
    ]
