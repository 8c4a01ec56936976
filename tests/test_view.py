"""What a player may see of a position (core/view.py): everything face up and the draw
piles' sizes; never a draw pile's cards or their order; the same as JSON."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from stress_tui.core.actions import Flip, Play
from stress_tui.core.cards import Card
from stress_tui.core.engine import Game, Phase
from stress_tui.core.rules import Rules
from stress_tui.core.view import (
    PlayerView,
    SideView,
    TableView,
    player_view,
    table_view,
)
from tests.conftest import card, game

POSITION = """
    rules: standard
    phase: playing
    time: 1.0
    p1 row: 3S | 9C 9H | - | KD
    p1 draw: 2C 4C
    p1 state: ready
    piles: 4H 6D | 7D
    p2 row: 5C | QH | QS | 2H
    p2 draw: 3C AS 8C
    p2 state: locked-until=2.5 stop=2,3
"""


def test_a_player_sees_both_rows_the_tops_and_the_sizes() -> None:
    g = game(POSITION)
    view = player_view(g.state, 1, 1.25)
    assert view == PlayerView(
        1,
        TableView(
            rules=g.rules,
            time=1.25,
            phase=Phase.PLAYING,
            sides=(
                SideView(
                    row=(card("3S"), card("9H"), None, card("KD")),
                    row_sizes=(1, 2, 0, 1),
                    draw_count=2,
                    ready=True,
                    stop=(),
                    locked_until=0.0,
                ),
                SideView(
                    row=(card("5C"), card("QH"), card("QS"), card("2H")),
                    row_sizes=(1, 1, 1, 1),
                    draw_count=3,
                    ready=False,
                    stop=(1, 2),
                    locked_until=2.5,
                ),
            ),
            tops=(card("6D"), card("7D")),
            pile_sizes=(2, 1),
            winner=None,
        ),
    )
    assert view.me.draw_count == 3 and view.them.draw_count == 2
    mine = player_view(g.state, 0)
    assert mine.me.row_sizes == (1, 2, 0, 1) and mine.them.row[1] == card("QH")
    assert mine.table.time == 1.0  # the time of the last action, unless told


def test_both_players_see_the_same_table() -> None:
    g = game(POSITION)
    assert player_view(g.state, 0).table == player_view(g.state, 1).table == table_view(g.state)
    with pytest.raises(ValueError, match="no player 2"):
        player_view(g.state, 2)


def _other_draws(g: Game, seed: int) -> Game:
    """The same position with every draw pile shuffled and its cards swapped for others."""
    other = g.copy()
    rng = random.Random(seed)
    for player in other.state.players:
        rng.shuffle(player.draw_pile)
        player.draw_pile = [Card(2 + i % 13, card.suit) for i, card in enumerate(player.draw_pile)]
    return other


def test_the_draw_piles_show_only_their_sizes() -> None:
    rules = Rules.for_deck("standard", jokers=2)
    for seed in range(100):
        g = Game.deal(rules, random.Random(seed))
        g.apply(Flip(0.0))
        other = _other_draws(g, seed)
        assert [p.draw_pile for p in other.state.players] != [p.draw_pile for p in g.state.players]
        assert player_view(g.state, 0) == player_view(other.state, 0)
        assert table_view(g.state).to_json() == table_view(other.state).to_json()


def _views(count: int) -> list[TableView]:
    """Views of positions along seeded rounds of every deck, jokers and all."""
    views = []
    for deck in ("standard", "jass", "skat", "doppelkopf"):
        rules = Rules.for_deck(deck, jokers=2)
        for seed in range(count):
            g = Game.deal(rules, random.Random(seed))
            views.append(table_view(g.state))
            g.apply(Flip(0.5))
            for step in range(20):
                moves = [(side, play) for side in (0, 1) for play in g.legal_plays(side)]
                if not moves:
                    break
                side, (pile, target) = moves[(seed + step) % len(moves)]
                g.apply(Play(side, pile, target, g.state.time + 0.25))
                views.append(table_view(g.state))
    return views


def test_a_view_says_what_the_engine_allows_each_player() -> None:
    """The plays a view allows, and those that make stress, are the engine's for the
    position it shows, every deck, jokers, stacks, empty places and phases alike."""
    compared = 0
    for deck in ("standard", "jass", "skat", "doppelkopf"):
        rules = Rules.for_deck(deck, jokers=2)
        for seed in range(30):
            g = Game.deal(rules, random.Random(seed))
            for step in range(25):
                view = table_view(g.state)
                for side in (0, 1):
                    assert view.legal_plays(side) == g.legal_plays(side)
                    assert view.stress_threats(side) == g.stress_threats(side)
                    compared += bool(g.legal_plays(side))
                moves = [(side, play) for side in (0, 1) for play in g.legal_plays(side)]
                if moves:
                    side, (pile, target) = moves[(seed + step) % len(moves)]
                    g.apply(Play(side, pile, target, g.state.time + 0.25))
                elif g.phase is Phase.ROUND_OVER:
                    break
                else:
                    g.apply(Flip(g.state.time + 0.5))
    assert compared > 1000


def test_a_view_goes_to_json_and_back_unchanged() -> None:
    views = _views(10)
    assert {view.phase for view in views} >= {Phase.WAITING_FLIP, Phase.PLAYING}
    for view in views:
        text = json.dumps(view.to_json())
        assert TableView.from_json(json.loads(text)) == view


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("rules"), "rules: missing"),
        (lambda d: d.update(rules="poker"), "rules: "),
        (lambda d: d.update(phase="lunch"), "phase: one of"),
        (lambda d: d.update(time=float("nan")), "time: a finite number"),
        (lambda d: d.update(time=True), "time: a number"),
        (lambda d: d.update(tops=["5H"]), "tops: one for each play pile"),
        (lambda d: d.update(tops=["5X", None]), "tops: not a card"),
        (lambda d: d.update(pile_sizes=[1, -1]), "pile_sizes: whole numbers"),
        (lambda d: d.update(winner=2), "winner: 0, 1 or null"),
        (lambda d: d.update(sides=[]), "sides: two"),
        (lambda d: d["sides"][0]["row"].pop(), r"sides\[0\]: rows of 4"),
        (lambda d: d["sides"][1].update(row_sizes=[0, 1, 1, 1]), r"sides\[1\]: an empty place"),
        (lambda d: d["sides"][1].update(draw_count="3"), r"sides\[1\].draw_count"),
        (lambda d: d["sides"][0].update(ready=1), r"sides\[0\]: ready is true or false"),
        (lambda d: d["sides"][0].update(stop=[3, 1]), r"sides\[0\]\.stop: places of a row"),
        (lambda d: d["sides"][0].update(stop=True), r"sides\[0\]\.stop: places of a row"),
        (lambda d: d["sides"][0].update(row=[7, None, None, None]), r"sides\[0\].row: a card"),
    ],
)
def test_a_broken_view_is_refused_naming_what_is_wrong(change: Any, message: str) -> None:
    data = table_view(game(POSITION).state).to_json()
    change(data)
    with pytest.raises(ValueError, match=message):
        TableView.from_json(data)
    with pytest.raises(ValueError, match="a JSON object"):
        TableView.from_json([])
