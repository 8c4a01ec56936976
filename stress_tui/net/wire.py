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

from stress_tui.core.codec import CodecError, event_from_json
from stress_tui.core.engine import Game, State
from stress_tui.core.events import Event
from stress_tui.core.rules import Rules
from stress_tui.core.view import TableView, position, table_view
from stress_tui.net.protocol import ProtocolError

MAX_EVENTS = 400
"""Events in one message (one action's events, or a rebuilt stretch of the round)."""


# --------------------------------------------------------------------------- the view


def public_view(game: Game) -> dict[str, Any]:
    """What anyone at the table can see of ``game``, as JSON (``core.view``, the one place
    that decides it)."""
    return table_view(game.state).to_json()


def mirror_state(data: Any, rules: Rules) -> State:
    """A position to draw from a view the host sent (``core.view.position``: every card
    face up where it lies, the hidden ones as stand-ins), so that it shows what the host's
    position shows and no more."""
    try:
        seen = TableView.from_json(data)
    except ValueError as error:
        raise ProtocolError(f"view: {error}") from None
    if seen.rules != rules:
        raise ProtocolError("view: the rules changed during the match")
    if not -1e9 <= seen.time <= 1e9:
        raise ProtocolError("view: not a time")
    return position(seen)


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
