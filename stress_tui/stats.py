"""Statistics of a round, computed from its seed and timed actions, and the record kept
across matches per player name and rule set.

A reaction time is measured from the moment a play became possible for that player (the
row pile fit the play pile, and stayed fitting) to the key that made it; a stress
reaction from the moment stress opened to the call.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .engine import (
    Action,
    CallStress,
    FalseStressCalled,
    Flipped,
    Game,
    LockedOut,
    PilesRecycled,
    PilesTaken,
    Play,
    Played,
    Rejected,
    RejectReason,
    StressOpened,
    StressWon,
)
from .storage import StorageError, atomic_write_text, data_dir, read_json, reason


@dataclass
class PlayerStats:
    """One player's round."""

    cards_played: int = 0
    """Cards that went onto the play piles (a stacked pile counts every card)."""
    longest_chain: int = 0
    """Most plays in a row onto one play pile with nothing else landing there between."""
    reactions: list[float] = field(default_factory=list)
    """Seconds from a play becoming possible to the key that made it, for every play."""
    stresses_won: int = 0
    """Stresses called first."""
    stresses_lost: int = 0
    """Stresses the other called first."""
    stress_reactions: list[float] = field(default_factory=list)
    """Seconds from stress opening to this player's call (won or too late)."""
    won_reactions: list[float] = field(default_factory=list)
    """Of those, the calls that won a stress."""
    late_reactions: list[float] = field(default_factory=list)
    """Of those, the calls that came too late (a stress lost without a call has none)."""
    false_calls: int = 0
    """Calls of stress when there was none."""
    misplays: int = 0
    """Plays against the rules (not adjacent, an empty place)."""
    lockouts: int = 0
    """Times locked out."""

    @property
    def median_reaction(self) -> float | None:
        """The median play reaction, if any play was made."""
        return statistics.median(self.reactions) if self.reactions else None

    @property
    def best_reaction(self) -> float | None:
        """The fastest play reaction."""
        return min(self.reactions) if self.reactions else None


@dataclass
class RoundStats:
    """Both players' round, with its winner and length."""

    players: tuple[PlayerStats, PlayerStats]
    """Player 1's and player 2's statistics."""
    winner: int | None
    """Who won, if the round was finished."""
    seconds: float
    """From the start of the round to its last action."""


_MISPLAYS = (RejectReason.NOT_ADJACENT, RejectReason.EMPTY_PILE)


def round_stats(game: Game, actions: Iterable[Action]) -> RoundStats:
    """Apply the actions to ``game`` (a round as it began) and measure both players."""
    stats = (PlayerStats(), PlayerStats())
    start = game.state.time
    possible_since = [{play: start for play in game.legal_plays(p)} for p in (0, 1)]
    chains: list[tuple[int, int] | None] = [None, None]  # per play pile: (player, length)
    stress_opened: float | None = None
    last = start
    for action in actions:
        events = game.apply(action)
        now = last = action.time
        for event in events:
            if isinstance(event, Played):
                me = stats[event.player]
                me.cards_played += len(event.cards)
                since = possible_since[event.player].get((event.pile, event.target))
                if since is not None:
                    me.reactions.append(now - since)
                chain = chains[event.target]
                length = chain[1] + 1 if chain and chain[0] == event.player else 1
                chains[event.target] = (event.player, length)
                me.longest_chain = max(me.longest_chain, length)
            elif isinstance(event, (Flipped, PilesRecycled)):
                chains = [None, None]
            elif isinstance(event, PilesTaken):
                for target in event.piles:
                    chains[target] = None
            elif isinstance(event, StressOpened):
                stress_opened = event.time
            elif isinstance(event, StressWon):
                stats[event.winner].stresses_won += 1
                stats[event.loser].stresses_lost += 1
                if stress_opened is not None:
                    stats[event.winner].stress_reactions.append(now - stress_opened)
                    stats[event.winner].won_reactions.append(now - stress_opened)
            elif isinstance(event, FalseStressCalled):
                stats[event.player].false_calls += 1
            elif isinstance(event, LockedOut):
                stats[event.player].lockouts += 1
            elif isinstance(event, Rejected) and event.player is not None:
                if isinstance(event.action, Play) and event.reason in _MISPLAYS:
                    stats[event.player].misplays += 1
                elif (isinstance(event.action, CallStress)
                      and event.reason is RejectReason.TOO_LATE
                      and stress_opened is not None):
                    stats[event.player].stress_reactions.append(now - stress_opened)
                    stats[event.player].late_reactions.append(now - stress_opened)
                    stress_opened = None
        for player in (0, 1):
            before = possible_since[player]
            possible_since[player] = {
                play: before.get(play, now) for play in game.legal_plays(player)
            }
    return RoundStats(stats, game.state.winner, last)


# --------------------------------------------------------------------------- the record


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
    counts = (standing.matches_won, standing.matches_lost, standing.rounds_won,
              standing.rounds_lost)
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
        return False
    return all(t is None or _seconds_value(t) for t in (standing.best_reaction,
                                                        standing.best_round))


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
            raise StorageError(f"{path}: record version {data.get('version')!r} is not "
                               "supported; left as it is")
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
                    raise StorageError(f"{path}: the record of {name[:20]!r} under "
                                       f"{rules[:40]!r} is broken; left as it is")
        return cls(standings)

    def save(self, path: Path | None = None) -> None:
        """Write the record atomically."""
        path = path if path is not None else record_path()
        data: dict[str, Any] = {
            "format": "stress-tui record", "version": RECORD_VERSION,
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
            if best is not None and (standing.best_reaction is None
                                     or best < standing.best_reaction):
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
        (name, rules, f"{s.matches_won}-{s.matches_lost}", f"{s.rounds_won}-{s.rounds_lost}",
         _seconds(s.best_reaction), _seconds(s.best_round))
        for name, rules, s in record.rows()
    ]
    if len(rows) == 1:
        return "No rounds recorded yet."
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
             for row in rows]
    return "\n".join(line.rstrip() for line in lines)


def record_json(record: Record) -> dict[str, Any]:
    """The record for scripts: ``{"players": [{"name", "rules", ...standing}]}``."""
    return {"players": [{"name": name, "rules": rules, **asdict(standing)}
                        for name, rules, standing in record.rows()]}
