"""What a player sees of the table, and the events they saw happen, as JSON and back.

The host sends each joiner and spectator ``public_view``: the engine's view of the table
(``core.view.TableView``: the top of every pile of both rows and its height, the top of
each play pile and its size, the size of each draw pile, where the round stands). Never
the order of a draw pile, a card under a top, the seed or the random source:
``mirror_state`` fills what is hidden with stand-ins, so the joiner's screen draws the
table with the same code as at one keyboard.

A view also goes with the round's ``public_standing`` (the counts the rules keep of what
everyone saw happen: flips and plays without progress, the fewest cards each player held,
the plays each play pile saw within the race window), so that a ``Mirror`` made from it
plays on exactly as the host's table does. From then on the host sends only the actions it
applied and, for each, the cards it turned face up (``turned_up``: those its events name
as drawn or flipped, which every player at the table saw); the mirror applies them with
the engine, each card drawn from a draw pile being the one the host says was, and
``check`` (a short hash of the view and standing) tells whether it is still in step.

Events go as they are (each names only cards already face up), so that each end words
them itself, in the form replays store (``core.codec``), as actions do. Everything read from
the other end is checked, and anything amiss raises ``ProtocolError``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import random
from collections import deque
from typing import Any, SupportsIndex

from stress_tui.core.actions import Action, MalformedActionError, Play
from stress_tui.core.cards import Card
from stress_tui.core.codec import CodecError, event_from_json
from stress_tui.core.engine import UNCOUNTED, Cover, Game, State
from stress_tui.core.events import Drawn, Event, Flipped, Rejected, RoundDrawn, RoundWon
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.core.view import TableView, position, table_view
from stress_tui.net.protocol import ProtocolError, encode

MAX_EVENTS = 400
"""Events in one message (one action's events, or a rebuilt stretch of the round)."""

MAX_COVERS = 64
"""Plays onto one play pile a standing may list (those within the race window)."""

MAX_TURNED = 64
"""Cards one action may turn face up (a flip and the rows filled after it)."""

CHECK_LENGTH = 8
"""Hexadecimal digits of a ``check``."""


# --------------------------------------------------------------------------- the view


def public_view(game: Game) -> dict[str, Any]:
    """What anyone at the table can see of ``game``, as JSON (``core.view``, the one place
    that decides it)."""
    return table_view(game.state).to_json()


def public_standing(game: Game) -> dict[str, Any]:
    """What the rules count of the round beside the view, as JSON: flips since a card was
    played, plays since anyone came down to fewer cards, the fewest cards each player has
    held, and each play pile's plays within the race window (who, when, onto which rank).
    Each is what everyone at the table saw happen; none names a hidden card."""
    state = game.state
    return {
        "flips": state.flips,
        "stale": state.stale,
        "fewest": [player.fewest for player in state.players],
        "covers": [
            [[player, time, under] for player, time, under in covers] for covers in state.covers
        ],
    }


def check(game: Game) -> str:
    """A short hash of what a peer's mirror of ``game`` holds (the view and the standing):
    equal on both ends while the mirror is in step."""
    seen = {"view": public_view(game), "standing": public_standing(game)}
    return hashlib.sha256(encode(seen)).hexdigest()[:CHECK_LENGTH]


def mirror_state(data: Any, rules: Rules, standing: Any = None) -> State:
    """A position to draw from a view the host sent (``core.view.position``: every card
    face up where it lies, the hidden ones as stand-ins), so that it shows what the host's
    position shows and no more; with the round's ``standing`` (``public_standing``), if
    it came, so that the engine plays on from it as from the host's."""
    try:
        seen = TableView.from_json(data)
    except ValueError as error:
        raise ProtocolError(f"view: {error}") from None
    if seen.rules != rules:
        raise ProtocolError("view: the rules changed during the match")
    if not -1e9 <= seen.time <= 1e9:
        raise ProtocolError("view: not a time")
    state = position(seen)
    if standing is not None:
        _stand(state, standing)
    return state


def _whole(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _stand(state: State, data: Any) -> None:
    """Set the round's standing (``public_standing``) on ``state``, each part checked."""
    if not isinstance(data, dict) or set(data) != {"flips", "stale", "fewest", "covers"}:
        raise ProtocolError("standing: flips, stale, fewest and covers")
    if not _whole(data["flips"], 0, 10**6) or not _whole(data["stale"], 0, 10**6):
        raise ProtocolError("standing: flips and stale are whole numbers")
    fewest = data["fewest"]
    if not isinstance(fewest, list) or len(fewest) != 2:
        raise ProtocolError("standing: the fewest cards of each player")
    if not all(_whole(n, 0, UNCOUNTED) for n in fewest):
        raise ProtocolError("standing: the fewest cards, whole numbers")
    covers = data["covers"]
    if not isinstance(covers, list) or len(covers) != 2:
        raise ProtocolError("standing: covers, one list per play pile")
    ranks = len(state.rules.fits)
    made: list[list[Cover]] = []
    for pile, plays in zip(state.play_piles, covers, strict=True):
        if not isinstance(plays, list) or len(plays) > MAX_COVERS or (plays and not pile):
            raise ProtocolError("standing: covers of a play pile")
        made.append([])
        for play in plays:
            if (
                not isinstance(play, list)
                or len(play) != 3
                or not _whole(play[0], 0, 1)
                or type(play[1]) not in (int, float)
                or not math.isfinite(play[1])
                or not _whole(play[2], 0, ranks - 1)
            ):
                raise ProtocolError("standing: a cover is [player, time, rank]")
            made[-1].append((play[0], float(play[1]), play[2]))
    state.flips, state.stale = data["flips"], data["stale"]
    for player, least in zip(state.players, fewest, strict=True):
        player.fewest = least
    state.covers = made


# --------------------------------------------------------------------------- the mirror


def turned_up(events: list[Event]) -> list[Card]:
    """The cards ``events`` turned face up from a draw pile, in the order they name them:
    each drawn card, each flipped one (the left pile's first)."""
    cards: list[Card] = []
    for event in events:
        if isinstance(event, Drawn):
            cards.append(event.card)
        elif isinstance(event, Flipped):
            cards.extend(card for card in event.cards if card is not None)
    return cards


def cards_from_json(data: Any) -> list[Card]:
    """The cards an action turned up, as the host sent them; ``ProtocolError`` if not."""
    if not isinstance(data, list) or len(data) > MAX_TURNED:
        raise ProtocolError("shown: not a list of cards")
    cards = []
    for text in data:
        if not isinstance(text, str):
            raise ProtocolError("shown: a card in notation")
        try:
            cards.append(Card.parse(text))
        except ValueError:
            raise ProtocolError("shown: a card in notation") from None
    return cards


class OutOfStep(Exception):
    """The mirror cannot follow what the host sent: it asks for the whole table again."""


class _Turning(list[Card]):
    """A draw pile of stand-ins whose next card drawn is the next the host said was."""

    def __init__(self, cards: list[Card], coming: deque[Card]) -> None:
        super().__init__(cards)
        self.coming = coming

    def pop(self, index: SupportsIndex = -1) -> Card:
        super().pop(index)
        if not self.coming:
            raise OutOfStep("a card drawn that the host did not show")
        return self.coming.popleft()


def _as_seen(state: State) -> State:
    """``state`` as a view and its standing show it (``mirror_state``): what lies under a
    top, or face down, as stand-ins again."""
    seen = position(table_view(state))
    seen.flips, seen.stale, seen.covers = state.flips, state.stale, state.covers
    for mine, theirs in zip(seen.players, state.players, strict=True):
        mine.fewest = theirs.fewest
    return seen


class Mirror:
    """A joiner's or spectator's copy of the host's round: made from a view and its
    standing (``mirror_state``), moved on by the host's actions, which the engine applies
    here as it did there. It holds what a view and its standing would, and no more: each
    card drawn is the one the host said was, and after each action what lies under a top
    or face down is stand-ins again."""

    def __init__(self, state: State, applied: int) -> None:
        self.game = Game(state, random.Random(0))
        """The round as the host last showed it (its shuffles are of stand-ins): a new
        ``Game`` after each action, none of them changed once made, so that a table may
        show one as it is."""
        self.applied = applied
        """How many of the round's actions it follows."""

    def follow(self, action: Action, shown: list[Card]) -> list[Event]:
        """Apply the host's next action, which turned up ``shown``; its events.
        ``OutOfStep`` if the engine here does not come to the same (the host's events
        name the two cards of a flip by pile, not in the order they were drawn, so the
        cards are tried in the order given, then with each pair of neighbours swapped)."""
        orders = [shown]
        for i in range(len(shown) - 1):
            orders.append([*shown[:i], shown[i + 1], shown[i], *shown[i + 2 :]])
        for order in orders:
            trial = self.game.copy()
            coming = deque(order)
            for player in trial.state.players:
                player.draw_pile = _Turning(player.draw_pile, coming)
            try:
                events = trial.apply(action)
            except (OutOfStep, MalformedActionError):
                continue
            if coming or turned_up(events) != shown:
                continue
            self.game = Game(_as_seen(trial.state), trial.rng)
            self.applied += 1
            return events
        raise OutOfStep(f"action {self.applied} does not play here as it did on the host")


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


def ahead(shown: Table, plays: list[Play]) -> Table:
    """The host's last table (``shown``) with our ``plays`` it has not answered yet played
    on it, each that the table takes: where the card moved from shows empty until the host
    says what was drawn there (the draw pile's order is not ours to see)."""
    table = Table(shown.game.copy(), countdown=shown.countdown)
    table.flip_at = shown.flip_at
    for pressed in plays:
        # At the host's time as we see it, never before what its table shows.
        action = dataclasses.replace(pressed, time=max(pressed.time, table.game.state.time))
        trial = table.game.copy()
        try:
            events = trial.apply(action)
        except MalformedActionError:
            continue  # no such pile: the host will say so
        if any(isinstance(e, (Rejected, RoundWon, RoundDrawn)) for e in events):
            continue  # the host will say why, or end the round itself
        events = table.submit(action)
        me = table.game.state.players[action.player]
        for event in reversed(events):
            if isinstance(event, Drawn) and event.player == action.player:
                me.row[event.pile].pop()  # a stand-in: not a card we know
                me.show(event.pile)
    return table
