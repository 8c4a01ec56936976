"""Standings: matches and rounds won and lost, the best reaction and the shortest round
won, per name and rule set, summed from the record's rounds as they are counted
(``TALLY``, read back by ``summed``; ``STANDINGS`` sums every round, in a record of a
version before the sums were kept) or read from an earlier version's ``record.json``;
names and rules read from a file made fit to show.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from stress_tui.core.notation import NotationError, format_rules, parse_rules
from stress_tui.core.text import MAX_NAME, Term, harmless
from stress_tui.core.words import N_
from stress_tui.storage.files import MiB, StorageError, read_json

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


MAX_LEGACY = 16 * MiB
"""The largest ``record.json`` that is read."""


_SIDES = """
        SELECT name1 AS name, {kind1} AS kind, rules, match_over AND winner = 0 AS mw,
               match_over AND winner = 1 AS ml, winner = 0 AS rw, winner = 1 AS rl,
               reaction1 AS br, CASE WHEN winner = 0 THEN seconds END AS bd
        FROM rounds WHERE id > {after}
        UNION ALL
        SELECT name2, {kind2}, rules, match_over AND winner = 1, match_over AND winner = 0,
               winner = 1, winner = 0, reaction2, CASE WHEN winner = 1 THEN seconds END
        FROM rounds WHERE id > {after}
"""
"""Both sides of every round after ``{after}`` (an id), as standings of one round each."""

_SUMS = "SUM(mw), SUM(ml), SUM(rw), SUM(rl), MIN(br), MIN(bd)"

_CARRIED = (
    " SELECT name, 'human' AS kind, rules, matches_won AS mw, matches_lost AS ml,"
    " rounds_won AS rw, rounds_lost AS rl, best_reaction AS br, best_round AS bd"
    " FROM carried"
)
"""The standings carried over from an earlier version's ``record.json``."""

_KEPT = (
    " SELECT name, kind, rules, matches_won, matches_lost, rounds_won, rounds_lost,"
    " best_reaction, best_round FROM tallies"
)
"""The sums kept as rounds are counted (``TALLY``), of every round up to ``tallied.upto``."""

ONE_PERSON = " WHERE name = :name AND kind = 'human'"
"""``summed``'s ``where`` for the standings of one person, ``:name``."""


def summed(kept: bool, kinds: tuple[str, str] = ("kind1", "kind2"), where: str = "") -> str:
    """The statement that reads the standings, by name, kind of player and rules, in one
    statement, so one snapshot: with ``kept``, from the sums kept as rounds are counted,
    the carried standings and the rounds counted since (by an earlier version, which keeps
    no sums); without, in a record of a version before the sums were kept, from the
    carried standings and every round (``kinds``: the columns, or ``'human'`` in a record
    written before they were added). ``where`` (``ONE_PERSON``) picks the rows before
    they are summed, so that SQLite finds them by the names' indexes: one person's
    standings cost about the same however long the record is."""
    after = "(SELECT upto FROM tallied)" if kept else "0"
    sides = _SIDES.format(kind1=kinds[0], kind2=kinds[1], after=after)
    rows = [_CARRIED, _KEPT, sides] if kept else [_CARRIED, sides]
    return (
        "SELECT name, kind, rules, "
        + _SUMS
        + " FROM ("
        + " UNION ALL ".join(rows)
        + ")"
        + where
        + " GROUP BY name, kind, rules"
    )


STANDINGS = summed(False, ("{kind1}", "{kind2}"))
"""Every standing, summed from the carried standings and both sides of every round, by
name, kind of player and rules (``{kind1}``, ``{kind2}``: the columns, or ``'human'`` in a
record written before they were added)."""

TALLY = (
    "INSERT INTO tallies (name, kind, rules, matches_won, matches_lost, rounds_won,"
    " rounds_lost, best_reaction, best_round)"
    " SELECT name, kind, rules, "
    + _SUMS
    + " FROM ("
    + _SIDES.format(kind1="kind1", kind2="kind2", after="(SELECT upto FROM tallied)")
    + ") WHERE true GROUP BY name, kind, rules"
    " ON CONFLICT (name, kind, rules) DO UPDATE SET"
    " matches_won = matches_won + excluded.matches_won,"
    " matches_lost = matches_lost + excluded.matches_lost,"
    " rounds_won = rounds_won + excluded.rounds_won,"
    " rounds_lost = rounds_lost + excluded.rounds_lost,"
    " best_reaction = coalesce(min(best_reaction, excluded.best_reaction),"
    " best_reaction, excluded.best_reaction),"
    " best_round = coalesce(min(best_round, excluded.best_round),"
    " best_round, excluded.best_round)"
)
"""Add the rounds counted since the last tally to the sums (in the transaction that
counts a round, after it: ``record.count_round``); then ``tallied.upto`` moves on."""


def by_name(table: dict[str, dict[str, Standing]]) -> list[tuple[str, str, Standing]]:
    return [
        (who, rules, standing)
        for who in sorted(table)
        for rules, standing in sorted(table[who].items())
    ]


def number(value: object) -> TypeGuard[int | float]:
    """Whether a value read from the record is a finite number (not a flag, not text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # a whole number too large for a float
        return False


def name_read(name: object) -> str:
    """A name as read from the record, harmless to print (a crafted file may hold escape
    sequences) and no longer than a name can be."""
    return harmless(str(name), MAX_NAME + 4)


def rules_read(rules: object) -> str:
    """A rule set as read from the record, in notation as this version writes it (or made
    harmless, if it is not notation at all)."""
    try:
        return format_rules(parse_rules(str(rules)))
    except (NotationError, ValueError):
        return harmless(str(rules))


def add_standing(into: Standing, more: Standing, path: Path) -> None:
    """Sum ``more`` into ``into`` (two rows that read back as the same name and rules)."""
    if not sound_standing(more):
        raise StorageError(DAMAGED, path=path)
    into.matches_won += more.matches_won
    into.matches_lost += more.matches_lost
    into.rounds_won += more.rounds_won
    into.rounds_lost += more.rounds_lost
    for name in ("best_reaction", "best_round"):
        known = [t for t in (getattr(into, name), getattr(more, name)) if t is not None]
        setattr(into, name, min(known) if known else None)


def sound_standing(standing: Standing) -> bool:
    """Whether a standing read from a file holds counts and times (not any value)."""
    counts = (
        standing.matches_won,
        standing.matches_lost,
        standing.rounds_won,
        standing.rounds_lost,
    )
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
        return False
    return all(t is None or seconds_value(t) for t in (standing.best_reaction, standing.best_round))


def seconds_value(value: object) -> bool:
    return number(value) and value >= 0


LEGACY_VERSION = 1
"""The only version of ``record.json`` there was."""


def read_legacy(path: Path) -> dict[str, dict[str, Standing]]:
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
            if not sound_standing(standing):
                raise StorageError(
                    N_("{path}: the record of {name} under {rules} is broken; left as it is"),
                    path=path,
                    name=repr(harmless(name, 20)),
                    rules=repr(harmless(rules)),
                )
            add_standing(
                shown.setdefault(name_read(name), {}).setdefault(rules_read(rules), Standing()),
                standing,
                path,
            )
    return shown
