"""Actions and events as JSON (core/codec.py): every kind has its fixed name, every event
of a played round reads back as itself, and anything else is refused."""

from __future__ import annotations

import dataclasses
import json
import random
import typing
from typing import Any

import pytest

from stress_tui.core.actions import Action
from stress_tui.core.codec import (
    ACTION_NAMES,
    EVENT_FIELDS,
    CodecError,
    action_from_json,
    action_to_json,
    canonical_line,
    event_from_json,
    event_to_json,
)
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import Event, RejectReason
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.players.bot import make_bot


def test_every_kind_of_action_and_event_has_a_name_and_every_field_a_key() -> None:
    assert set(ACTION_NAMES) == set(typing.get_args(Action))
    assert set(EVENT_FIELDS) == set(typing.get_args(Event))
    names = [name for name, _ in EVENT_FIELDS.values()]
    assert len(set(names)) == len(names)
    for kind, (_, fields) in EVENT_FIELDS.items():
        assert [key for key, _ in fields] == [f.name for f in dataclasses.fields(kind)]


def _played(count: int) -> list[tuple[Action, list[Event]]]:
    """Every action and its events, over rounds of every deck, bots of every level."""
    log: list[tuple[Action, list[Event]]] = []
    for seed in range(count):
        deck = ("standard", "jass", "skat", "doppelkopf")[seed % 4]
        rules = Rules.for_deck(deck, jokers=seed % 3, stress_stop=True, lockout=0.5 * (seed % 2))
        game = Game.deal(rules, random.Random(seed))
        levels = ("easy", "normal", "hard", "expert")
        bots = (
            make_bot(0, levels[seed % 4], random.Random(seed)),
            make_bot(1, levels[(seed // 4) % 4], random.Random(-seed)),
        )
        table = Table(game, bots, on_action=lambda a, e: log.append((a, e)))
        table.start(0.0)
        while game.phase is not Phase.ROUND_OVER and table.actions < 3000:
            deadline = table.next_deadline()
            assert deadline is not None
            table.advance(deadline)
    return log


def test_every_action_and_event_of_played_rounds_reads_back_as_itself() -> None:
    log = _played(24)
    kinds = set()
    for action, events in log:
        assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action
        for event in events:
            assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
            assert json.loads(canonical_line(event)) == event_to_json(event)
            kinds.add(type(event))
    assert len(kinds) >= 14, sorted(kind.__name__ for kind in kinds)


def test_a_rejection_is_named_by_its_reason_not_its_wording() -> None:
    action, event = next(
        (a, e) for a, events in _played(8) for e in events if type(e).__name__ == "Rejected"
    )
    data = event_to_json(event)
    assert data["reason"] in {reason.name.lower() for reason in RejectReason}
    assert data["action"] == action_to_json(action)


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"e": "Exploded"},
        {"e": "RoundWon", "player": 0},
        {"e": "RoundWon", "player": 2, "time": 1.0},
        {"e": "RoundWon", "player": True, "time": 1.0},
        {"e": "RoundWon", "player": 0, "time": float("inf")},
        {"e": "RoundWon", "player": 0, "time": 1.0, "extra": 1},
        {"e": "Drawn", "player": 0, "pile": 0, "card": "1X", "stacked": False},
        {"e": "Drawn", "player": 0, "pile": -1, "card": "5H", "stacked": False},
        {"e": "Drawn", "player": 0, "pile": 0, "card": "5H", "stacked": 1},
        {"e": "Flipped", "cards": ["5H"], "sources": [0, 1], "time": 1.0},
        {"e": "Rejected", "player": 0, "action": {"t": 1, "a": "fly"}, "reason": "already"},
        {"e": "Rejected", "player": 0, "action": {"t": 1, "a": "flip"}, "reason": "nope"},
        {"e": "FalseStressCalled", "player": 0, "penalty": "death"},
        {"e": "PilesTaken", "player": 0, "piles": [0] * 2000, "count": 1},
    ],
)
def test_json_that_is_no_event_is_refused(data: Any) -> None:
    with pytest.raises(CodecError):
        event_from_json(data)
