"""Races across a network are settled by the dates of the actions, not their arrival."""

from __future__ import annotations

import random
import textwrap

from bench.net_fairness import RACE
from stress_tui.core.actions import CallStress, Play
from stress_tui.core.cards import Card
from stress_tui.core.engine import Game
from stress_tui.core.events import Played, Rejected, RejectReason, StressWon
from stress_tui.core.notation import format_position, parse_position
from stress_tui.net.fair import FairTable

STRESS = """
    rules: standard
    phase: stress
    p1 row: 3S | 6S | 8S | -
    p1 draw: 2C 9H
    piles: 4H | 4D
    p2 row: 5C | 3D | JD | -
    p2 draw: KC KD
"""


def table(text: str) -> FairTable:
    game = Game(parse_position(textwrap.dedent(text)), random.Random(1))
    fair = FairTable(game)
    fair.start(0.0)
    return fair


def test_an_earlier_play_that_arrives_later_takes_the_later_one_back() -> None:
    fair = table(RACE)
    host = Play(1, 0, 0, 1.00)
    assert fair.submit(host).events == [Played(1, 0, 0, (Card.parse("5C"),), 1.00)]
    joiner = Play(0, 0, 0, 0.96)  # pressed 40 ms before, arrived after
    outcome = fair.submit(joiner)
    assert outcome.rebuilt
    assert outcome.taken_back == [host]
    assert str(fair.game.top(0)) == "3S"
    assert Rejected(1, host, RejectReason.LOST_RACE) in outcome.events
    assert fair.game.state.players[1].row[0]  # the host's 5 is back in its row


def test_the_same_two_actions_in_either_arrival_order_end_alike() -> None:
    early, late = Play(0, 0, 0, 0.96), Play(1, 0, 0, 1.00)
    one, two = table(RACE), table(RACE)
    one.submit(early)
    one.submit(late)
    two.submit(late)
    two.submit(early)
    assert format_position(one.game.state) == format_position(two.game.state)
    assert one.actions() == two.actions()
    assert one.rebuilds == 0 and two.rebuilds == 1


def test_a_later_action_that_does_not_conflict_stays() -> None:
    fair = table(RACE)
    fair.submit(Play(1, 2, 1, 1.00))  # the host's jack onto the queen: no race
    outcome = fair.submit(Play(0, 0, 0, 0.96))
    assert outcome.taken_back == []
    assert str(fair.game.top(0)) == "3S" and str(fair.game.top(1)) == "JD"


def test_the_earlier_stress_call_wins_even_when_it_arrives_second() -> None:
    fair = table(STRESS)
    host = CallStress(1, 2.00)
    fair.submit(host)
    outcome = fair.submit(CallStress(0, 1.95))
    assert outcome.taken_back == [host]
    won = [e for e in outcome.events if isinstance(e, StressWon)]
    assert won == [StressWon(0, 1, 1.95)]


def test_nothing_is_dated_before_the_floor() -> None:
    fair = table(RACE)
    fair.hold(5.0)
    fair.submit(Play(0, 0, 0, 4.9))
    assert fair.actions()[-1].time == 5.0
