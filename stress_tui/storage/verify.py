"""A replay checked without a screen: its actions played again on a game dealt from its
seed, the end compared with the recorded one (the final position, a digest of every
event); a daily's seed, rules and players checked to be its day's; a sealed replay read
for what can be said without its seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from stress_tui.core.actions import MalformedActionError
from stress_tui.core.choices import UNNAMED
from stress_tui.core.codec import canonical_line
from stress_tui.core.daily import PLAYERS as DAILY_PLAYERS
from stress_tui.core.daily import BadDate, daily_rules, daily_seed
from stress_tui.core.engine import RULES_VERSION, Game
from stress_tui.core.events import Event
from stress_tui.core.notation import (
    NotationError,
    format_position,
    format_rules,
    parse_position,
    parse_rules,
)
from stress_tui.core.text import Problem, Term, harmless
from stress_tui.core.words import N_
from stress_tui.storage.replay import Replay, commitment

DIGEST = "json-sha256:"
"""How the end line's digest begins: the SHA-256 of the events' canonical JSON follows."""


def events_digest(events: Iterable[Event]) -> str:
    """A fingerprint of an event sequence: equal sequences, equal digests. Made of each
    event's canonical JSON (``codec.canonical_line``), one a line, so that renaming a
    class or rewording a message does not change it.

    >>> from stress_tui.core.events import RoundWon, Stalled
    >>> events_digest([Stalled(), RoundWon(0, 3.5)])[:20]
    'json-sha256:702fc357'
    >>> events_digest([Stalled(), RoundWon(1, 3.5)])[:20]
    'json-sha256:d0ca0d32'
    """
    digest = hashlib.sha256()
    for event in events:
        digest.update(canonical_line(event))
        digest.update(b"\n")
    return DIGEST + digest.hexdigest()


def _repr_digest(events: Iterable[Event]) -> str:
    """The digest as replays wrote it before the canonical one (one ``repr`` a line): a
    file written then still verifies, as long as the events' classes keep their names
    and fields."""
    digest = hashlib.sha256()
    for event in events:
        digest.update(repr(event).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def digest_matches(recorded: object, events: list[Event]) -> bool:
    """Whether ``events`` are the ones an end line's ``digest`` records (of either form)."""
    if isinstance(recorded, str) and recorded.startswith(DIGEST):
        return recorded == events_digest(events)
    return recorded == _repr_digest(events)


@dataclass(frozen=True)
class Verdict:
    """What re-simulating a replay showed."""

    ok: bool
    """Whether the re-simulated round ends exactly as recorded."""
    said: Problem
    """One line saying so, in no language yet (``said.said(_)``)."""

    @property
    def message(self) -> str:
        """The line in English."""
        return str(self.said)


def play_back(replay: Replay) -> tuple[Game, list[Event]]:
    """Apply every recorded action to a freshly dealt game."""
    game = replay.new_game()
    events: list[Event] = []
    for action in replay.actions:
        events += game.apply(action)
    return game, events


def verify(replay: Replay) -> Verdict:
    """Re-simulate without a screen; compare the end with the recorded one. A sealed
    replay (no seed) is only read: ``sealed_verdict`` says what that checks."""
    path = replay.path
    if replay.sealed:
        return sealed_verdict(replay)
    if replay.engine > RULES_VERSION:
        return Verdict(
            False,
            Problem(
                N_(
                    "{path}: played under rules version {version}, newer than this program's "
                    "{ours}; verify it with a newer stress-tui"
                ),
                path=path,
                version=replay.engine,
                ours=RULES_VERSION,
            ),
        )
    try:
        game, events = play_back(replay)
    except MalformedActionError as error:
        return Verdict(
            False, Problem(N_("{path}: an action cannot be applied: {why}"), path=path, why=error)
        )
    committed: object = ""
    if "commit" in replay.header:
        salt = bytes.fromhex(str(replay.header.get("salt", "")))
        if commitment(replay.seed, salt) != replay.header["commit"]:
            wrong = N_("{path}: the seed is not the one the host committed to at the deal")
            return Verdict(False, Problem(wrong, path=path))
        committed = Term(N_(", the seed the one the host committed to at the deal"))
    if replay.end is None:
        cut = N_("{path}: the round was cut short; no end to compare{committed}")
        return Verdict(False, Problem(cut, path=path, committed=committed))
    older = replay.engine < RULES_VERSION
    # The position's notation has gained words since older rules (each player's fewest, every
    # recent cover), so a round under older rules is checked by its events, the facts.
    if not older and format_position(game.state) != _canonical(replay.end.get("position")):
        differs = N_("{path}: the final position differs from the recorded one")
        return Verdict(False, Problem(differs, path=path))
    if not digest_matches(replay.end.get("digest"), events):
        if older:
            why: object = Problem(
                N_(
                    ": it was played under rules version {version}, and today's rules (version "
                    "{ours}) play these actions differently, or it was changed (docs/replays.md)"
                ),
                version=replay.engine,
                ours=RULES_VERSION,
            )
        else:
            why = ""
        differ = N_("{path}: the events differ from the recorded ones{why}")
        return Verdict(False, Problem(differ, path=path, why=why))
    winner = game.state.winner
    who = Term(N_("nobody")) if winner is None else _name(replay.header.get("names"), winner)
    under: object = ""
    if older:
        under = Problem(N_(" (played under rules version {version})"), version=replay.engine)
    day = replay.header.get("daily")
    actions = len(replay.actions)
    if day is None:
        verified = N_("{path}: verified, {n} actions, winner {who}{under}{committed}")
        return Verdict(
            True,
            Problem(verified, path=path, n=actions, who=who, under=under, committed=committed),
        )
    problem = daily_problem(replay)
    if problem is not None:
        return Verdict(False, Problem(N_("{path}: {why}"), path=path, why=problem))
    daily = N_(
        "{path}: verified, the daily deal of {day} (dealt from its seed), {n} actions, "
        "winner {who}{under}"
    )
    return Verdict(True, Problem(daily, path=path, day=day, n=actions, who=who, under=under))


def _name(names: object, side: int) -> str:
    """A player's name from a header's names, a name nobody gave as a ``Term`` (said in the
    language the line is)."""
    name = str(names[side]) if isinstance(names, list) else f"p{side + 1}"
    return Term(name) if name in UNNAMED else name


def sealed_verdict(replay: Replay) -> Verdict:
    """What can be said of a sealed replay: its actions read, are each a player's or a
    flip on piles the rules have, in time order; what they did (which card, who won)
    needs the seed. Never ``ok``: nothing was played back."""
    rules = parse_rules(replay.header["rules"])
    last = 0.0
    for number, action in enumerate(replay.actions, start=2):
        player = getattr(action, "player", 0)
        pile, target = getattr(action, "pile", 0), getattr(action, "target", 0)
        if (
            player not in (0, 1)
            or not 0 <= pile < rules.row_size
            or target not in (0, 1)
            or action.time < last
        ):
            odd = N_("{path}:{line}: sealed, and this action is not one a player could make")
            return Verdict(False, Problem(odd, path=replay.path, line=number))
        last = action.time
    return Verdict(
        False,
        Problem(
            N_(
                "{path}: sealed: the host never revealed the round's seed (it committed to "
                "{commit}... at the deal), so what the {n} actions did cannot be checked; "
                "checked: they read, each by a player on piles the rules have, in time order, "
                "to {seconds} s"
            ),
            path=replay.path,
            commit=str(replay.header["commit"])[:23],
            n=len(replay.actions),
            seconds=f"{last:.1f}",
        ),
    )


def daily_problem(replay: Replay) -> Problem | None:
    """Why a replay that says it is a daily deal is not that day's (``None``: it is: the
    seed is the day's, the rules and the players the daily's)."""
    day = str(replay.header.get("daily"))
    try:
        seed = daily_seed(day)
    except BadDate:
        return Problem(
            N_("not a daily deal: its day {day} is not a date"), day=repr(harmless(day, 20))
        )
    if replay.seed != seed:
        return Problem(
            N_("not the daily deal of {day}: dealt from seed {seed}, not the day's {days}"),
            day=day,
            seed=replay.seed,
            days=seed,
        )
    if format_rules(parse_rules(replay.header["rules"])) != format_rules(daily_rules()):
        return Problem(N_("not the daily deal of {day}: not played by the daily's rules"), day=day)
    if replay.header.get("players") != list(DAILY_PLAYERS):
        return Problem(
            N_("not the daily deal of {day}: not a person against the daily's computer"), day=day
        )
    return None


def _canonical(position: object) -> object:
    """A recorded position as the notation writes it today (older replays name some
    house rules by their old names: ``penalty=one``); as it is if it is not one."""
    try:
        return format_position(parse_position(str(position)))
    except NotationError:
        return position
