"""The text notation for positions: one ``key: value`` line per part of the table.

    rules: standard
    phase: playing
    p1 row: 5H | 7S 7C | - | KD
    p1 draw: 2C 3D 4S
    piles: 4H 5C | 9D
    p2 row: 6C | 8D | QS | 2H
    p2 draw: -

Piles and draw piles are written bottom first (the last card is the top, the next card
drawn). ``docs/notation.md`` describes every line. ``parse_position`` and ``format_position``
round-trip: a state written and read back is equal to it, and so is text in the
canonical form ``format_position`` writes. Lines may also be separated by ``;``.
"""

from __future__ import annotations

import functools
from typing import Any

from stress_tui.core.cards import Card, format_cards, parse_cards
from stress_tui.core.decks import JOKER, RANK_LETTERS
from stress_tui.core.engine import Cover, InvalidPositionError, Phase, PlayerState, State
from stress_tui.core.houserules import BY_FIELD, DECK_RULE, HOUSE_RULES, HouseRule, RulesError
from stress_tui.core.rules import Rules
from stress_tui.core.text import N_, Problem
from stress_tui.core.words import number


class NotationError(Problem, ValueError):
    """Text that is not a valid position: a ``core.text.Problem``, said in the player's
    language where it is shown (a broken replay line, the position hook), English as
    ``str``. The notation's own words (``p1 row``, ``phase``, ``covers``) are not
    translated: they are what the line says."""


_RULE_NAMES: dict[str, HouseRule] = {
    name: rule
    for rule in HOUSE_RULES
    if rule is not DECK_RULE
    for name in (rule.name, *rule.old_names)
}
"""The ``rules:`` line's settings by name: each house rule's one name, and the names older
notation used (still read, never written)."""
_PHASES = {phase.value: phase for phase in Phase}
_RANK_BY_LETTER = {letter: rank for rank, letter in RANK_LETTERS.items()} | {"*": JOKER}


def _rank(rank: int) -> str:
    return "*" if rank == JOKER else RANK_LETTERS[rank]


@functools.lru_cache(maxsize=64)
def format_rules(rules: Rules) -> str:
    """The rules as the deck's name followed by what differs from its defaults (worked out
    once for each rules: a network table's every message checks a view that names them).

    >>> format_rules(Rules.for_deck("skat", stress_penalty="one", race_window=0.5))
    'skat stress-penalty=one race-window=0.5'
    """
    parts = [rules.deck]
    for field, value in rules.changes().items():
        rule = BY_FIELD[field]
        parts.append(f"{rule.name}={rule.write(value)}")
    return " ".join(parts)


def parse_rules(text: str) -> Rules:
    """Read a ``rules:`` value: a deck name, then ``name=value`` settings (``HOUSE_RULES``'
    names, or the names older notation used).

    >>> parse_rules("skat penalty=one") == parse_rules("skat stress-penalty=one")
    True
    """
    words = text.split()
    if not words:
        raise NotationError(N_("rules: a deck name is needed"))
    settings: dict[str, Any] = {}
    try:
        deck = DECK_RULE.read(words[0])
        for word in words[1:]:
            name, eq, value = word.partition("=")
            if not eq or name not in _RULE_NAMES:
                raise NotationError(N_("rules: unknown setting {word}"), word=repr(word))
            rule = _RULE_NAMES[name]
            settings[rule.field] = rule.read(value)
        return Rules.for_deck(deck, **settings)
    except RulesError as error:
        raise NotationError(N_("rules: {why}"), why=error) from error


def _format_cards(cards: list[Card]) -> str:
    return format_cards(cards) if cards else "-"


def _format_piles(piles: list[list[Card]]) -> str:
    return " | ".join(_format_cards(pile) for pile in piles)


def _format_state(player: PlayerState) -> str | None:
    parts = []
    if player.ready:
        parts.append("ready")
    if player.stop:
        parts.append("stop=" + ",".join(str(place + 1) for place in player.stop))
    if player.locked_until:
        parts.append(f"locked-until={number(player.locked_until)}")
    if player.fewest < player.card_total():
        parts.append(f"fewest={player.fewest}")
    return " ".join(parts) or None


def _format_covers(covers: list[Cover]) -> str:
    if not covers:
        return "-"
    return ", ".join(
        f"p{player + 1} {number(time)} {_rank(under)}" for player, time, under in covers
    )


def format_position(state: State) -> str:
    """Write a position in canonical notation."""
    lines = [f"rules: {format_rules(state.rules)}", f"phase: {state.phase.value}"]
    if state.phase is Phase.ROUND_OVER:
        lines.append("winner: " + ("none" if state.winner is None else f"p{state.winner + 1}"))
    if state.time:
        lines.append(f"time: {number(state.time)}")
    if state.flips:
        lines.append(f"flips: {state.flips}")
    if state.stale:
        lines.append(f"stale: {state.stale}")
    p1, p2 = state.players
    lines += _player_lines("p1", p1)
    lines.append(f"piles: {_format_piles(list(state.play_piles))}")
    if any(state.covers):
        lines.append("covers: " + " | ".join(_format_covers(c) for c in state.covers))
    lines += _player_lines("p2", p2)
    return "\n".join(lines)


def _player_lines(name: str, player: PlayerState) -> list[str]:
    lines = [
        f"{name} row: {_format_piles(player.row)}",
        f"{name} draw: {_format_cards(player.draw_pile)}",
    ]
    extra = _format_state(player)
    if extra:
        lines.append(f"{name} state: {extra}")
    return lines


def _parse_cards(text: str, where: str) -> list[Card]:
    text = text.strip()
    if text == "-":
        return []
    try:
        return parse_cards(text)
    except ValueError as error:
        raise NotationError(N_("{where}: {why}"), where=where, why=error) from None


def _parse_piles(text: str, where: str) -> list[list[Card]]:
    return [_parse_cards(part, where) for part in text.split("|")]


def _parse_state(text: str, player: PlayerState, where: str) -> None:
    for word in text.split():
        name, eq, value = word.partition("=")
        if word == "ready":
            player.ready = True
        elif word == "stop":  # every place: what a stop covered before it named cards
            player.stop = tuple(range(len(player.row)))
        elif name == "stop" and eq:
            places = [_count(part, where) - 1 for part in value.split(",")]
            if sorted(set(places)) != places or not 0 <= places[0] <= places[-1] < len(player.row):
                raise NotationError(
                    N_("{where}: stop=PLACES, the opponent's row places in order, 1 to {n}"),
                    where=where,
                    n=len(player.row),
                )
            player.stop = tuple(places)
        elif name == "locked-until" and eq:
            player.locked_until = _float(value, where)
        elif name == "fewest" and eq:
            player.fewest = _count(value, where)
            if player.fewest > player.card_total():
                raise NotationError(
                    N_("{where}: fewest={value}, more than the {n} cards held"),
                    where=where,
                    value=value,
                    n=player.card_total(),
                )
        else:
            raise NotationError(N_("{where}: unknown word {word}"), where=where, word=repr(word))


def _count(text: str, where: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise NotationError(N_("{where}: a whole number, not {text}"), where=where, text=repr(text))
    return int(text)


def _float(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise NotationError(
            N_("{where}: not a number: {text}"), where=where, text=repr(text)
        ) from None
    if value != value or value in (float("inf"), float("-inf")) or value < 0:
        raise NotationError(N_("{where}: not a time: {text}"), where=where, text=repr(text))
    return value


def _parse_covers(text: str, where: str) -> list[Cover]:
    """One play pile's covers, oldest first: ``pN TIME RANK`` separated by commas, or
    ``-``."""
    if text.split() == ["-"]:
        return []
    covers: list[Cover] = []
    for part in text.split(","):
        words = part.split()
        if len(words) != 3 or words[0] not in ("p1", "p2") or words[2] not in _RANK_BY_LETTER:
            raise NotationError(
                N_(
                    "{where}: write a cover as 'p1 TIME RANK' (several separated by commas) "
                    "or '-', not {text}"
                ),
                where=where,
                text=repr(part.strip()),
            )
        time = _float(words[1], where)
        if covers and time < covers[-1][1]:
            raise NotationError(
                N_("{where}: covers go oldest first, not {text}"),
                where=where,
                text=repr(text.strip()),
            )
        covers.append((int(words[0][1]) - 1, time, _RANK_BY_LETTER[words[2]]))
    return covers


_KEYS = (
    "rules",
    "phase",
    "winner",
    "time",
    "flips",
    "stale",
    "p1 row",
    "p1 draw",
    "p1 state",
    "piles",
    "covers",
    "p2 row",
    "p2 draw",
    "p2 state",
)


def parse_position(text: str) -> State:
    """Read a position. Raises ``NotationError`` naming the line that is wrong."""
    values: dict[str, str] = {}
    for raw in text.replace(";", "\n").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        key = " ".join(key.split())
        if not colon or key not in _KEYS:
            raise NotationError(N_("not a notation line: {line}"), line=repr(line))
        if key in values:
            raise NotationError(N_("{key}: given twice"), key=key)
        values[key] = value.strip()
    for key in ("rules", "p1 row", "piles", "p2 row"):
        if key not in values:
            raise NotationError(N_("{key}: missing"), key=key)
    rules = parse_rules(values["rules"])
    players = []
    for name in ("p1", "p2"):
        row = _parse_piles(values[f"{name} row"], f"{name} row")
        player = PlayerState(_parse_cards(values.get(f"{name} draw", "-"), f"{name} draw"), row)
        player.fewest = player.card_total()
        _parse_state(values.get(f"{name} state", ""), player, f"{name} state")
        players.append(player)
    piles = _parse_piles(values["piles"], "piles")
    if len(piles) != 2:
        raise NotationError(N_("piles: two play piles, not {n}"), n=len(piles))
    phase_text = values.get("phase", "playing")
    if phase_text not in _PHASES:
        raise NotationError(
            N_("phase: one of {phases}, not {text}"),
            phases=", ".join(_PHASES),
            text=repr(phase_text),
        )
    state = State(rules, (players[0], players[1]), (piles[0], piles[1]), _PHASES[phase_text])
    if "time" in values:
        state.time = _float(values["time"], "time")
    if "covers" in values:
        covers = [_parse_covers(part, "covers") for part in values["covers"].split("|")]
        if len(covers) != 2:
            raise NotationError(N_("covers: one per play pile"))
        state.covers = covers
    if "flips" in values:
        state.flips = _count(values["flips"], "flips")
    if "stale" in values:
        state.stale = _count(values["stale"], "stale")
    if (state.phase is Phase.ROUND_OVER) != ("winner" in values):
        raise NotationError(N_("winner: given exactly when the phase is over"))
    if "winner" in values:
        if values["winner"] not in ("p1", "p2", "none"):
            raise NotationError(N_("winner: p1, p2 or none (a drawn round)"))
        if values["winner"] != "none":
            state.winner = int(values["winner"][1]) - 1
    try:
        state.check()
    except InvalidPositionError as error:
        raise NotationError(N_("{why}"), why=error) from None  # the engine's, said too
    return state
