"""A position's copy and its validity check (``Game.copy``, ``State.check``): a copy plays
on exactly as the original and shares nothing that changes; a position built in code is
held to the same rules as one read from the notation."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest

from stress_tui.core.actions import Flip, Play
from stress_tui.core.cards import JOKER_CARD
from stress_tui.core.engine import Game, InvalidPositionError, Phase, State
from stress_tui.core.notation import NotationError, format_position, parse_position
from stress_tui.core.rules import Rules
from tests.conftest import card, game


def _mutables(value: object) -> list[object]:
    """Every list (at any depth) and every player's state in a position's fields."""
    found: list[object] = []
    if isinstance(value, list):
        found.append(value)
        for item in value:
            found += _mutables(item)
    elif isinstance(value, tuple):
        for item in value:
            found += _mutables(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            found.append(value)
        for f in dataclasses.fields(value):
            found += _mutables(getattr(value, f.name))
    return found


def _step(g: Game, seed: int, step: int) -> None:
    """A legal play of either side, or else a flip."""
    moves = [(side, play) for side in (0, 1) for play in g.legal_plays(side)]
    if g.phase is Phase.WAITING_FLIP or not moves:
        g.apply(Flip(g.state.time + 1.0))
    else:
        side, (pile, target) = moves[(seed + step) % len(moves)]
        g.apply(Play(side, pile, target, g.state.time + 0.1))


def test_a_copy_plays_on_as_the_original_and_changes_nothing_of_it() -> None:
    for seed in range(40):
        rules = Rules.for_deck(("standard", "jass", "skat", "doppelkopf")[seed % 4], jokers=1)
        g = Game.deal(rules, random.Random(seed))
        for step in range(seed % 17):
            _step(g, seed, step)
        twin = g.copy()
        assert twin.state == g.state and twin.rng.getstate() == g.rng.getstate()
        shared = {id(x) for x in _mutables(g.state)} & {id(x) for x in _mutables(twin.state)}
        assert shared == set()
        before = format_position(g.state)
        played = []
        for step in range(60):
            if twin.phase is Phase.ROUND_OVER:
                break
            _step(twin, seed, step)
            played.append(format_position(twin.state))
        assert format_position(g.state) == before  # the original did not move
        for step, expected in enumerate(played):  # and plays on the same way
            _step(g, seed, step)
            assert format_position(g.state) == expected


POSITION = """
    rules: standard
    phase: playing
    p1 row: 3S | 9C 9H | - | KD
    p1 draw: 2C 4C
    piles: 4H 6D | 7D
    p2 row: 5C | QH | QS | 2H
    p2 draw: 3C AS 8C
"""


def _broken(change: Callable[[State], None]) -> State:
    state = parse_position(POSITION)
    change(state)
    return state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.players[0].row.pop(), "p1 row: 3 piles, but the rules have rows of 4"),
        (lambda s: s.players[1].row[0].append(card("6C")), "p2 row: a stacked pile must hold"),
        (lambda s: s.players[0].draw_pile.append(card("KD")), "KD: too many of this card"),
        (lambda s: s.play_piles[0].append(JOKER_CARD), r"\*\*: no such card in the standard"),
        (lambda s: setattr(s, "winner", 0), "winner: a winner, but the phase is playing"),
        (lambda s: setattr(s, "winner", 2), "winner: p1, p2 or none"),
        (lambda s: setattr(s, "time", float("nan")), "time: not a time"),
        (lambda s: setattr(s, "flips", -1), "flips: a whole number"),
        (lambda s: s.covers[1].append((2, 0.0, 5)), "covers: a play by no player"),
        (lambda s: s.play_piles[1].clear() or s.covers[1].append((0, 0.0, 5)), "empty"),
        (lambda s: setattr(s.players[1], "locked_until", float("inf")), "p2 state: locked"),
        (lambda s: setattr(s, "play_piles", (s.play_piles[0],)), "piles: two play piles"),
    ],
)
def test_a_position_the_rules_cannot_come_to_is_refused_naming_what_is_wrong(
    change: Callable[[State], None], message: str
) -> None:
    state = _broken(change)
    with pytest.raises(InvalidPositionError, match=message):
        state.check()


def test_stacks_need_stacking() -> None:
    state = parse_position(POSITION)
    state.rules = Rules.for_deck("standard", stacking=False)
    with pytest.raises(InvalidPositionError, match="a stacked pile, but stacking is off"):
        state.check()


def test_the_parser_refuses_what_the_check_refuses() -> None:
    with pytest.raises(NotationError, match="KD: too many of this card"):
        parse_position(POSITION.replace("p1 draw: 2C 4C", "p1 draw: 2C KD"))
    assert issubclass(InvalidPositionError, ValueError)


def test_a_complete_position_holds_every_card_dealt_and_no_gap_while_it_can_draw() -> None:
    g = Game.deal(Rules.for_deck("skat"), random.Random(3))
    g.state.check(complete=True)
    g.state.players[0].draw_pile.pop()
    with pytest.raises(InvalidPositionError, match="cards: 31 in the position, 32 dealt"):
        g.state.check(complete=True)
    g.state.check()  # a part of a deck is a position all the same
    with pytest.raises(InvalidPositionError, match="p1 row: a gap, with cards in the draw"):
        game(POSITION).state.check(complete=True)
