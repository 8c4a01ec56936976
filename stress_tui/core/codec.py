"""Actions and events as plain JSON values, and back: what a replay file stores and hashes,
and what goes across a network.

Every kind has a fixed name here (``play``, ``Played``...) and every field a fixed key, so
that renaming a class or rewording a message changes neither a stored file nor the wire:
a new kind gets its name in ``ACTION_NAMES`` or ``EVENT_FIELDS``, and a test fails until
it has one. Reading checks everything and raises ``CodecError`` (a ``ValueError``) saying
what is wrong; nothing read can make an action or event the engine could not.

>>> from stress_tui.core.actions import Play
>>> from stress_tui.core.events import Played
>>> from stress_tui.core.cards import Card
>>> action_to_json(Play(0, 2, 1, 1.5))
{'t': 1.5, 'a': 'play', 'p': 0, 'pile': 2, 'to': 1}
>>> event_to_json(Played(0, 2, 1, (Card.parse("5H"),), 1.5))
{'e': 'Played', 'player': 0, 'pile': 2, 'target': 1, 'cards': ['5H'], 'time': 1.5}
>>> event_from_json(event_to_json(Played(0, 2, 1, (Card.parse("5H"),), 1.5)))
Played(player=0, pile=2, target=1, cards=(Card(rank=5, suit=<Suit.HEARTS: 'H'>),), time=1.5)
"""

from __future__ import annotations

import math
from typing import Any

from stress_tui.core.actions import (
    Action,
    CallStress,
    Flip,
    MalformedActionError,
    Play,
    PlayTogether,
    ReadyToFlip,
    StopStress,
)
from stress_tui.core.cards import Card
from stress_tui.core.decks import MAX_CARDS
from stress_tui.core.events import (
    Drawn,
    Event,
    FalseStressCalled,
    FlipAgreed,
    Flipped,
    LockedOut,
    NoProgress,
    PilesRecycled,
    PilesTaken,
    Played,
    ReadyNoted,
    Rejected,
    RejectReason,
    RoundDrawn,
    RoundWon,
    Stalled,
    StopDeclared,
    StressOpened,
    StressStopped,
    StressWon,
    TableDead,
)
from stress_tui.core.houserules import FalseStress
from stress_tui.core.text import N_, Problem


class CodecError(Problem, ValueError):
    """JSON that is not an action or an event: a ``core.text.Problem``, so that a replay's
    broken action line is said in the player's language (the actions' texts are marked;
    an event's are the network's, technical, and stay English)."""


# --------------------------------------------------------------------------- actions

ACTION_NAMES: dict[type, str] = {
    Play: "play",
    PlayTogether: "play-together",
    CallStress: "stress",
    ReadyToFlip: "ready",
    StopStress: "stop",
    Flip: "flip",
}
"""Each kind of action under its name in a file (``"a"``)."""

_ACTION_KINDS = {name: kind for kind, name in ACTION_NAMES.items()}


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as a replay line: its time ``t``, its kind ``a``, its player ``p``, and a
    play's ``pile`` and ``to``."""
    data: dict[str, Any] = {"t": action.time, "a": ACTION_NAMES[type(action)]}
    if isinstance(action, Flip):
        return data
    data["p"] = action.player
    if isinstance(action, Play):
        data["pile"] = action.pile
        data["to"] = action.target
    return data


def action_from_json(data: Any) -> Action:
    """A replay line as an action; ``CodecError`` if it is not one.

    >>> action_from_json({"t": 2, "a": "stress", "p": 1})
    CallStress(player=1, time=2.0)
    >>> action_from_json({"t": 2, "a": "dance", "p": 1})
    Traceback (most recent call last):
    ...
    stress_tui.core.codec.CodecError: unknown action 'dance'
    """
    if not isinstance(data, dict):
        raise CodecError(N_("not an action"))
    time = seconds(data.get("t"))
    if time is None:
        raise CodecError(N_("an action needs a time 't' (a finite number of seconds)"))
    kind = data.get("a")
    if not isinstance(kind, str):
        raise CodecError(
            N_("an action needs a kind 'a' (play, play-together, stress, ready, stop, flip)")
        )
    if kind == "flip":
        return Flip(time)
    player: Any = data.get("p")
    if kind == "play" or kind == "play-together":
        pile: Any = data.get("pile")
        target: Any = data.get("to")
        if not all(whole(v) for v in (player, pile, target)):
            raise CodecError(N_("a {kind} needs whole numbers 'p', 'pile' and 'to'"), kind=kind)
        laying = PlayTogether if kind == "play-together" else Play
        return laying(player, pile, target, time)
    if kind in _ACTION_KINDS and whole(player):
        made: Action = _ACTION_KINDS[kind](player, time)
        return made
    raise CodecError(N_("unknown action {kind}"), kind=repr(kind[:20]))


def whole(value: Any) -> bool:
    """Whether ``value`` is a whole number (and not ``True`` or ``False``).

    >>> whole(3), whole(3.0), whole(True)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def seconds(value: Any) -> float | None:
    """``value`` as a finite number of seconds, or ``None`` if it is not one.

    >>> seconds(2), seconds(1e400), seconds("2")
    (2.0, None, None)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        time = float(value)
    except OverflowError:  # a whole number too large for a float
        return None
    return time if math.isfinite(time) else None


# --------------------------------------------------------------------------- events

EVENT_FIELDS: dict[type, tuple[str, tuple[tuple[str, str], ...]]] = {
    Played: (
        "Played",
        (
            ("player", "player"),
            ("pile", "pile"),
            ("target", "side"),
            ("cards", "cards"),
            ("time", "time"),
        ),
    ),
    Drawn: (
        "Drawn",
        (("player", "player"), ("pile", "pile"), ("card", "card"), ("stacked", "bool")),
    ),
    Rejected: ("Rejected", (("player", "player?"), ("action", "action"), ("reason", "reason"))),
    LockedOut: ("LockedOut", (("player", "player"), ("until", "time"))),
    ReadyNoted: ("ReadyNoted", (("player", "player"),)),
    StopDeclared: ("StopDeclared", (("player", "player"),)),
    StressStopped: ("StressStopped", (("by", "player"),)),
    StressOpened: ("StressOpened", (("time", "time"),)),
    StressWon: ("StressWon", (("winner", "player"), ("loser", "player"), ("time", "time"))),
    FalseStressCalled: ("FalseStressCalled", (("player", "player"), ("penalty", "penalty"))),
    PilesTaken: ("PilesTaken", (("player", "player"), ("piles", "sides"), ("count", "count"))),
    Stalled: ("Stalled", ()),
    FlipAgreed: ("FlipAgreed", ()),
    PilesRecycled: ("PilesRecycled", (("counts", "counts"),)),
    Flipped: ("Flipped", (("cards", "cards?"), ("sources", "players?"), ("time", "time"))),
    TableDead: ("TableDead", (("counts", "counts"),)),
    NoProgress: ("NoProgress", (("counts", "counts"),)),
    RoundDrawn: ("RoundDrawn", (("time", "time"),)),
    RoundWon: ("RoundWon", (("player", "player"), ("time", "time"))),
}
"""Each kind of event: its name in a file (``"e"``), and its fields, each with its key and
what kind of value it holds."""

_EVENT_KINDS = {name: kind for kind, (name, _) in EVENT_FIELDS.items()}

_REASONS = {reason: reason.name.lower() for reason in RejectReason}
"""Why a move was rejected, by name (the player's words may be reworded)."""

_REASONS_BY_NAME = {name: reason for reason, name in _REASONS.items()}


def _encode(kind: str, value: Any) -> Any:
    if kind == "card":
        return str(value)
    if kind in ("cards", "cards?"):
        return [None if card is None else str(card) for card in value]
    if kind == "action":
        return action_to_json(value)
    if kind == "reason":
        return _REASONS[value]
    if kind == "penalty":
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """An event as a JSON object: its name under ``e``, then its fields."""
    name, fields = EVENT_FIELDS[type(event)]
    data: dict[str, Any] = {"e": name}
    for key, kind in fields:
        data[key] = _encode(kind, getattr(event, key))
    return data


def canonical_line(event: Event) -> bytes:
    """An event as one line of canonical JSON (keys sorted, no spaces, ASCII): equal
    events, equal lines, whatever the classes are called.

    >>> canonical_line(RoundWon(1, 12.5))
    b'{"e":"RoundWon","player":1,"time":12.5}'
    """
    import json  # here, not at the top: the game's first frame loads this module, not json

    return json.dumps(
        event_to_json(event), sort_keys=True, separators=(",", ":"), ensure_ascii=True
    ).encode()


def _number(value: Any, low: int, high: int) -> int:
    if not whole(value) or not low <= value <= high:
        raise CodecError("a number out of range")
    result: int = value
    return result


def card_from_json(value: Any) -> Card:
    """A card in notation (``"5H"``, ``"**"``), read back; ``CodecError`` if it is not one."""
    if not isinstance(value, str) or len(value) > 3:
        raise CodecError("not a card")
    try:
        return Card.parse(value)
    except ValueError:
        raise CodecError("not a card") from None


def _list(value: Any, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or len(value) > MAX_CARDS:
        raise CodecError("not a list")
    if length is not None and len(value) != length:
        raise CodecError("not a list of {length}", length=length)
    return value


def _decode(kind: str, value: Any) -> Any:
    if kind in ("player", "side"):
        return _number(value, 0, 1)
    if kind == "player?":
        return None if value is None else _number(value, 0, 1)
    if kind in ("pile", "count"):
        return _number(value, 0, MAX_CARDS)
    if kind == "time":
        time = seconds(value)
        if time is None:
            raise CodecError("not a time")
        return time
    if kind == "bool":
        if not isinstance(value, bool):
            raise CodecError("not a yes or no")
        return value
    if kind == "card":
        return card_from_json(value)
    if kind == "cards":
        return tuple(card_from_json(card) for card in _list(value))
    if kind == "cards?":
        return tuple(None if card is None else card_from_json(card) for card in _list(value, 2))
    if kind == "sides":
        return tuple(_number(side, 0, 1) for side in _list(value))
    if kind == "counts":
        return tuple(_number(count, 0, MAX_CARDS) for count in _list(value, 2))
    if kind == "players?":
        return tuple(None if p is None else _number(p, 0, 1) for p in _list(value, 2))
    if kind == "action":
        return action_from_json(value)
    if kind == "reason":
        if value not in _REASONS_BY_NAME:
            raise CodecError("no such reason")
        return _REASONS_BY_NAME[value]
    try:
        return FalseStress(value)
    except ValueError:
        raise CodecError("no such penalty") from None


def event_from_json(data: Any) -> Event:
    """An event read back from ``event_to_json``'s form; ``CodecError`` if it is not one."""
    if not isinstance(data, dict):
        raise CodecError("not an event")
    name = data.get("e")
    kind = _EVENT_KINDS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise CodecError("no such event")
    fields = EVENT_FIELDS[kind][1]
    if set(data) != {"e", *(key for key, _ in fields)}:
        raise CodecError("the wrong fields")
    try:
        event: Event = kind(*(_decode(k, data[key]) for key, k in fields))
    except (MalformedActionError, TypeError):
        raise CodecError("not an event") from None
    return event
