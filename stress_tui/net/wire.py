"""What a player sees of the table, and the events they saw happen, as JSON and back.

The host sends each joiner and spectator ``public_view``: the engine's view of the table
(``core.view.TableView``: the top of every pile of both rows and its height, the top of
each play pile and its size, the size of each draw pile, where the round stands). Never
the order of a draw pile, a card under a top, the seed or the random source:
``mirror_state`` fills what is hidden with stand-ins, so the joiner's screen draws the
table with the same code as at one keyboard.

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
from stress_tui.core.view import TableView, table_view
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
    """What anyone at the table can see of ``game``, as JSON (``core.view``, the one place
    that decides it)."""
    return table_view(game.state).to_json()


def _time(value: Any) -> float:
    if type(value) not in (int, float) or not -1e9 <= value <= 1e9:
        raise ProtocolError("view: not a time")
    return float(value)


def _card(value: Any) -> Card:
    if not isinstance(value, str) or len(value) > 3:
        raise ProtocolError("events: not a card")
    try:
        return Card.parse(value)
    except ValueError:
        raise ProtocolError("events: not a card") from None


def _pair(value: Any) -> list[Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError("events: not one for each player")
    return value


def _pile(top: Card | None, size: int) -> list[Card]:
    """A pile of which only the top shows: the top, on stand-ins of its rank."""
    if top is None or size <= 0:
        return []
    if size > MAX_CARDS:
        raise ProtocolError("view: more cards than any deck has")
    return [top] * size


def mirror_state(data: Any, rules: Rules) -> State:
    """A position to draw from a view the host sent: every card face up where it lies,
    the hidden ones as stand-ins (``STAND_IN`` in a draw pile, the top's rank under a
    pile's top), so that it shows what the host's position shows and no more."""
    try:
        seen = TableView.from_json(data)
    except ValueError as error:
        raise ProtocolError(f"view: {error}") from None
    if seen.rules != rules:
        raise ProtocolError("view: the rules changed during the match")
    if not -1e9 <= seen.time <= 1e9:
        raise ProtocolError("view: not a time")
    players = []
    for side in seen.sides:
        if side.draw_count > MAX_CARDS:
            raise ProtocolError("view: more cards than any deck has")
        row = [_pile(top, size) for top, size in zip(side.row, side.row_sizes, strict=True)]
        players.append(
            PlayerState([STAND_IN] * side.draw_count, row, side.ready, side.locked_until, side.stop)
        )
    left, right = (_pile(top, size) for top, size in zip(seen.tops, seen.pile_sizes, strict=True))
    return State(
        rules,
        (players[0], players[1]),
        (left, right),
        phase=seen.phase,
        time=seen.time,
        winner=seen.winner,
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
