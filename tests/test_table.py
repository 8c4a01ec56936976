"""The table: what is due is carried out in the order it falls due, ties by a fixed order,
and nothing before its time."""

from __future__ import annotations

from stress_tui.core.actions import Action, Flip, ReadyToFlip, StopStress
from stress_tui.core.events import Event
from stress_tui.core.table import Table
from stress_tui.core.view import PlayerView
from tests.conftest import game

WAITING = """
rules: standard
phase: waiting
p1 row: 5H | 9C | - | -
p1 draw: 2C 3D
piles: 4H | KD
p2 row: 5S | 9D | - | -
p2 draw: 2D 3S
"""

PLAYING = WAITING.replace("phase: waiting\n", "")


class Once:
    """A driver that does one thing at a set time, then waits."""

    def __init__(self, action: Action) -> None:
        self.player = action.player  # type: ignore[union-attr]
        self.action: Action | None = action

    def decide(self, view: PlayerView) -> Action | None:
        action, self.action = self.action, None
        return action


def _applied(table: Table) -> list[Action]:
    seen: list[Action] = []

    def keep(action: Action, events: list[Event]) -> None:
        seen.append(action)

    table.on_action = keep
    return seen


def test_moves_due_at_the_same_moment_go_to_the_flip_then_player_1_then_player_2() -> None:
    # Player 2 is listed first: the order is the players', not the drivers'.
    table = Table(
        game(WAITING),
        (Once(ReadyToFlip(1, 1.2)), Once(ReadyToFlip(0, 1.2))),
        countdown=1.2,
    )
    seen = _applied(table)
    table.start(0.0)
    assert table.next_deadline() == 1.2
    table.advance(1.2)
    assert [type(action) for action in seen] == [Flip, ReadyToFlip, ReadyToFlip]
    assert [getattr(action, "player", None) for action in seen] == [None, 0, 1]


def test_nothing_lands_before_its_time_and_each_lands_at_its_own() -> None:
    g = game(PLAYING)
    # (Stress stops without the rule: refused, so that nothing else falls due.)
    table = Table(g, (Once(StopStress(1, 2.5)), Once(StopStress(0, 3.0))))
    seen = _applied(table)
    table.start(0.0)
    assert table.advance(2.4999) == []
    assert seen == []
    table.advance(2.5)
    assert seen == [StopStress(1, 2.5)]
    assert g.state.time == 2.5
    assert table.next_deadline() == 3.0
    table.advance(10.0)
    assert seen == [StopStress(1, 2.5), StopStress(0, 3.0)]
    assert g.state.time == 3.0
    assert table.next_deadline() is None
