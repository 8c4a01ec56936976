"""What a player sees of the table, and the events they saw happen, as JSON and back.

The host sends each joiner and spectator ``public_view``: both rows (face up at a real
table), the top of each play pile and its size, the size of each draw pile, and where the
round stands. Never the order of a draw pile, the cards under a play pile's top, the seed
or the random source: ``mirror_state`` fills what is hidden with stand-in cards, so the
joiner's screen can draw the table with the same code as at one keyboard.

Events go as they are (each names only cards already face up), so that each end words
them itself; actions are written as in a replay (``storage.replay``). Everything read from
the other end is checked, and anything amiss raises ``ProtocolError``.
"""

from __future__ import annotations

from typing import Any

from stress_tui.core.cards import Card, Suit
from stress_tui.core.engine import (
    Drawn,
    Event,
    FalseStressCalled,
    FlipAgreed,
    Flipped,
    Game,
    LockedOut,
    MalformedActionError,
    Phase,
    PilesRecycled,
    PilesTaken,
    Played,
    PlayerState,
    ReadyNoted,
    Rejected,
    RejectReason,
    RoundDrawn,
    RoundWon,
    Stalled,
    State,
    StopDeclared,
    StressOpened,
    StressStopped,
    StressWon,
    TableDead,
)
from stress_tui.core.rules import FalseStress, Rules
from stress_tui.net.protocol import ProtocolError
from stress_tui.storage.replay import action_from_json, action_to_json

STAND_IN = Card(2, Suit.CLUBS)
"""The card drawn where the host sent only a count: it says nothing about the real one."""

MAX_CARDS = 1000
"""More cards than any deck and its jokers have: a count beyond it is a lie."""

MAX_EVENTS = 400
"""Events in one message (one action's events, or a rebuilt stretch of the round)."""


# --------------------------------------------------------------------------- the view


def public_view(game: Game) -> dict[str, Any]:
    """What any player at the table can see of ``game``, as JSON."""
    state = game.state
    return {
        "rows": [[[str(c) for c in pile] for pile in p.row] for p in state.players],
        "draw": [len(p.draw_pile) for p in state.players],
        "piles": [[str(pile[-1]) if pile else None, len(pile)] for pile in state.play_piles],
        "phase": state.phase.value,
        "time": state.time,
        "ready": [p.ready for p in state.players],
        "stop": [p.stop for p in state.players],
        "locked": [p.locked_until for p in state.players],
        "winner": state.winner,
        "flips": state.flips,
    }


def _card(value: Any) -> Card:
    if not isinstance(value, str) or len(value) > 3:
        raise ProtocolError("view: not a card")
    try:
        return Card.parse(value)
    except ValueError:
        raise ProtocolError("view: not a card") from None


def _count(value: Any) -> int:
    if type(value) is not int or not 0 <= value <= MAX_CARDS:
        raise ProtocolError("view: not a count of cards")
    return value


def _time(value: Any) -> float:
    if type(value) not in (int, float) or not -1e9 <= value <= 1e9:
        raise ProtocolError("view: not a time")
    return float(value)


def _pair(value: Any) -> list[Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError("view: not one for each player")
    return value


def mirror_state(data: Any, rules: Rules) -> State:
    """A position to draw from a view the host sent (hidden cards as ``STAND_IN``)."""
    if not isinstance(data, dict):
        raise ProtocolError("view: not an object")
    try:
        rows, draw, piles = _pair(data["rows"]), _pair(data["draw"]), _pair(data["piles"])
        ready, stop, locked = _pair(data["ready"]), _pair(data["stop"]), _pair(data["locked"])
        phase, time, winner, flips = data["phase"], data["time"], data["winner"], data["flips"]
    except (KeyError, TypeError):
        raise ProtocolError("view: a field is missing") from None
    players = []
    for i in (0, 1):
        row = rows[i]
        if not isinstance(row, list) or len(row) != rules.row_size:
            raise ProtocolError("view: a row of the wrong size")
        cards = []
        for pile in row:
            if not isinstance(pile, list) or len(pile) > MAX_CARDS:
                raise ProtocolError("view: not a pile")
            cards.append([_card(c) for c in pile])
        if type(ready[i]) is not bool or type(stop[i]) is not bool:
            raise ProtocolError("view: not a yes or no")
        players.append(
            PlayerState([STAND_IN] * _count(draw[i]), cards, ready[i], _time(locked[i]), stop[i])
        )
    play_piles: list[list[Card]] = []
    for pile in piles:
        top, size = _pair(pile)
        size = _count(size)
        if (top is None) != (size == 0):
            raise ProtocolError("view: a pile's top and size disagree")
        play_piles.append([] if top is None else [STAND_IN] * (size - 1) + [_card(top)])
    try:
        where = Phase(phase)
    except ValueError:
        raise ProtocolError("view: no such phase") from None
    if winner not in (None, 0, 1) or type(winner) is bool:
        raise ProtocolError("view: no such winner")
    if type(flips) is not int or not 0 <= flips <= 1000:
        raise ProtocolError("view: not a count of flips")
    return State(
        rules,
        (players[0], players[1]),
        (play_piles[0], play_piles[1]),
        phase=where,
        time=_time(time),
        winner=winner,
        flips=flips,
    )


# --------------------------------------------------------------------------- events

_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {
    Played: (
        ("player", "player"),
        ("pile", "pile"),
        ("target", "side"),
        ("cards", "cards"),
        ("time", "time"),
    ),
    Drawn: (("player", "player"), ("pile", "pile"), ("card", "card"), ("stacked", "bool")),
    Rejected: (("player", "player?"), ("action", "action"), ("reason", "reason")),
    LockedOut: (("player", "player"), ("until", "time")),
    ReadyNoted: (("player", "player"),),
    StopDeclared: (("player", "player"),),
    StressStopped: (("by", "player"),),
    StressOpened: (("time", "time"),),
    StressWon: (("winner", "player"), ("loser", "player"), ("time", "time")),
    FalseStressCalled: (("player", "player"), ("penalty", "penalty")),
    PilesTaken: (("player", "player"), ("piles", "sides"), ("count", "count")),
    Stalled: (),
    FlipAgreed: (),
    PilesRecycled: (("counts", "counts"),),
    Flipped: (("cards", "cards?"), ("sources", "players?"), ("time", "time")),
    TableDead: (("counts", "counts"),),
    RoundDrawn: (("time", "time"),),
    RoundWon: (("player", "player"), ("time", "time")),
}
"""Each event's fields and what kind of value each is."""

_BY_NAME = {kind.__name__: kind for kind in _FIELDS}


def _encode(kind: str, value: Any) -> Any:
    if kind in ("card",):
        return str(value)
    if kind in ("cards", "cards?"):
        return [None if c is None else str(c) for c in value]
    if kind == "action":
        return action_to_json(value)
    if kind in ("reason", "penalty"):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as JSON."""
    out: dict[str, Any] = {"e": type(event).__name__}
    for name, kind in _FIELDS[type(event)]:
        out[name] = _encode(kind, getattr(event, name))
    return out


def _whole(value: Any, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ProtocolError("events: a number out of range")
    return value


def _decode(kind: str, value: Any) -> Any:
    if kind == "player":
        return _whole(value, 0, 1)
    if kind == "player?":
        return None if value is None else _whole(value, 0, 1)
    if kind == "pile":
        return _whole(value, 0, 8)
    if kind == "side":
        return _whole(value, 0, 1)
    if kind == "count":
        return _whole(value, 0, MAX_CARDS)
    if kind == "time":
        return _time(value)
    if kind == "bool":
        if type(value) is not bool:
            raise ProtocolError("events: not a yes or no")
        return value
    if kind == "card":
        return _card(value)
    if kind in ("cards", "cards?", "sides", "counts", "players?"):
        if not isinstance(value, list) or len(value) > MAX_CARDS:
            raise ProtocolError("events: not a list")
        if kind == "cards":
            return tuple(_card(c) for c in value)
        if kind == "cards?":
            return tuple(None if c is None else _card(c) for c in _pair(value))
        if kind == "sides":
            return tuple(_whole(v, 0, 1) for v in value)
        if kind == "counts":
            return tuple(_whole(v, 0, MAX_CARDS) for v in _pair(value))
        return tuple(None if v is None else _whole(v, 0, 1) for v in _pair(value))
    if kind == "action":
        try:
            return action_from_json(value)
        except ValueError:
            raise ProtocolError("events: not an action") from None
    try:
        if kind == "reason":
            return RejectReason(value)
        return FalseStress(value)
    except ValueError:
        raise ProtocolError(f"events: no such {kind}") from None


def events_from_json(data: Any) -> list[Event]:
    """Events the host sent; ``ProtocolError`` if any is not one."""
    if not isinstance(data, list) or len(data) > MAX_EVENTS:
        raise ProtocolError("events: not a list")
    events: list[Event] = []
    for item in data:
        if not isinstance(item, dict):
            raise ProtocolError("events: not an event")
        kind = _BY_NAME.get(item.get("e"))  # type: ignore[arg-type]
        if kind is None:
            raise ProtocolError("events: no such event")
        fields = _FIELDS[kind]
        if set(item) != {"e", *(name for name, _ in fields)}:
            raise ProtocolError("events: the wrong fields")
        try:
            events.append(kind(*(_decode(k, item[name]) for name, k in fields)))
        except (MalformedActionError, TypeError):
            raise ProtocolError("events: not an event") from None
    return events
