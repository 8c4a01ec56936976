"""What a player sees of the table, and the events they saw happen, as JSON and back.

The host sends each joiner and spectator ``public_view``: the engine's view of the table
(``core.view.TableView``: the top of every pile of both rows and its height, the top of
each play pile and its size, the size of each draw pile, where the round stands). Never
the order of a draw pile, a card under a top, the seed or the random source:
``mirror_state`` fills what is hidden with stand-ins, so the joiner's screen draws the
table with the same code as at one keyboard.

Events go as they are (each names only cards already face up), so that each end words
them itself, in the form replays store (``core.codec``), as actions do. Everything read from
the other end is checked, and anything amiss raises ``ProtocolError``.
"""

from __future__ import annotations

from typing import Any

from stress_tui.core.cards import Card, Suit
from stress_tui.core.codec import MAX_CARDS, CodecError, card_from_json, event_from_json
from stress_tui.core.engine import (
    Event,
    Game,
    PlayerState,
    State,
)
from stress_tui.core.rules import Rules
from stress_tui.core.view import TableView, table_view
from stress_tui.net.protocol import ProtocolError

STAND_IN = Card(2, Suit.CLUBS)
"""The card drawn where the host sent only a count: it says nothing about the real one."""

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
    try:
        return card_from_json(value)
    except CodecError:
        raise ProtocolError("view: not a card") from None


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


def events_from_json(data: Any) -> list[Event]:
    """Events the host sent (each in ``codec.event_to_json``'s form); ``ProtocolError``
    if any is not one."""
    if not isinstance(data, list) or len(data) > MAX_EVENTS:
        raise ProtocolError("events: not a list")
    try:
        return [event_from_json(item) for item in data]
    except CodecError as error:
        raise ProtocolError(f"events: {error}") from None
