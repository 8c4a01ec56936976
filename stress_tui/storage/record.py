"""The record kept across matches per player name and rule set, in ``record.json``."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from stress_tui.core.stats import RoundStats
from stress_tui.storage.files import StorageError, atomic_write_text, data_dir, read_json, reason


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


RECORD_VERSION = 1


def _sound(standing: Standing) -> bool:
    """Whether a standing read from a file holds counts and times (not any JSON value)."""
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


def record_path() -> Path:
    """Where the record is kept."""
    return data_dir() / "record.json"


class Record:
    """Standings by player name and rule set, kept in ``record.json``."""

    def __init__(self, standings: dict[str, dict[str, Standing]] | None = None) -> None:
        self.standings = standings if standings is not None else {}
        """Player name -> rule set (as in the notation) -> standing."""

    @classmethod
    def load(cls, path: Path | None = None) -> Record:
        """Read the record; an absent file is an empty record, a broken or foreign one
        raises ``StorageError`` (and is never written over)."""
        path = path if path is not None else record_path()
        try:
            if not path.exists():
                return cls()
        except OSError as error:
            raise StorageError(f"{path}: cannot read: {reason(error)}") from None
        data = read_json(path)
        if not isinstance(data, dict) or data.get("format") != "stress-tui record":
            raise StorageError(f"{path}: not a stress-tui record; left as it is")
        if data.get("version", RECORD_VERSION) != RECORD_VERSION:
            raise StorageError(
                f"{path}: record version {data.get('version')!r} is not supported; left as it is"
            )
        try:
            standings = {
                name: {rules: Standing(**values) for rules, values in by_rules.items()}
                for name, by_rules in data["players"].items()
            }
        except (AttributeError, KeyError, TypeError):
            raise StorageError(f"{path}: the record is broken; left as it is") from None
        for name, by_rules in standings.items():
            for rules, standing in by_rules.items():
                if not _sound(standing):
                    raise StorageError(
                        f"{path}: the record of {name[:20]!r} under "
                        f"{rules[:40]!r} is broken; left as it is"
                    )
        return cls(standings)

    def save(self, path: Path | None = None) -> None:
        """Write the record atomically."""
        path = path if path is not None else record_path()
        data: dict[str, Any] = {
            "format": "stress-tui record",
            "version": RECORD_VERSION,
            "players": {
                name: {rules: asdict(standing) for rules, standing in by_rules.items()}
                for name, by_rules in self.standings.items()
            },
        }
        atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True) + "\n")

    def standing(self, name: str, rules: str) -> Standing:
        """A player's standing under a rule set (made if new)."""
        return self.standings.setdefault(name, {}).setdefault(rules, Standing())

    def add_round(self, names: tuple[str, str], rules: str, result: RoundStats) -> None:
        """Count a finished round."""
        if result.winner is None:
            return
        for player in (0, 1):
            standing = self.standing(names[player], rules)
            best = result.players[player].best_reaction
            if best is not None and (
                standing.best_reaction is None or best < standing.best_reaction
            ):
                standing.best_reaction = best
            if player == result.winner:
                standing.rounds_won += 1
                if standing.best_round is None or result.seconds < standing.best_round:
                    standing.best_round = result.seconds
            else:
                standing.rounds_lost += 1

    def add_match(self, names: tuple[str, str], rules: str, winner: int) -> None:
        """Count a match won by ``winner``."""
        self.standing(names[winner], rules).matches_won += 1
        self.standing(names[1 - winner], rules).matches_lost += 1

    def rows(self) -> list[tuple[str, str, Standing]]:
        """Every standing, by name then rule set."""
        return [
            (name, rules, standing)
            for name in sorted(self.standings)
            for rules, standing in sorted(self.standings[name].items())
        ]


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
