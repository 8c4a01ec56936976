"""The round's clock, driven by hand: game time stops while paused and never runs back; a
round paused goes on after the count."""

from __future__ import annotations

import pytest

from stress_tui.core.lifecycle import Lifecycle
from stress_tui.terminal.clock import Clock


class Outside:
    """An outside clock that moves only when told."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def clock_at(game_time: float = 0.0, speed: float = 1.0) -> tuple[Clock, Outside]:
    """A clock showing ``game_time``, its round under way (going on at once after a
    pause, as a replay's does)."""
    outside = Outside()
    clock = Clock(outside, Lifecycle(speed=speed, count=0.0))
    clock.set(game_time)
    clock.life.deal(outside.now)
    return clock, outside


def test_game_time_counts_from_where_it_was_set() -> None:
    clock, outside = clock_at(5.0)
    assert clock.now() == 5.0
    outside.now += 2.5
    assert clock.now() == pytest.approx(7.5)


def test_a_pause_stops_game_time_and_it_goes_on_from_there() -> None:
    clock, outside = clock_at()
    outside.now += 1.0
    clock.pause("help")
    outside.now += 30.0  # reading the help
    assert clock.now() == pytest.approx(1.0)
    clock.unpause("help")
    outside.now += 0.5
    assert clock.now() == pytest.approx(1.5)


def test_the_clock_goes_again_only_when_every_reason_to_pause_is_gone() -> None:
    clock, outside = clock_at()
    clock.pause("help")
    clock.pause("small")
    outside.now += 4.0
    clock.unpause("help")
    outside.now += 4.0
    assert clock.now() == 0.0  # the window is still too small
    clock.unpause("small")
    outside.now += 1.0
    assert clock.now() == pytest.approx(1.0)


def test_dropping_a_reason_that_was_not_there_changes_nothing() -> None:
    clock, outside = clock_at()
    changes: list[None] = []
    clock.on_change = lambda: changes.append(None)
    clock.unpause("help")
    outside.now += 1.0
    assert clock.now() == pytest.approx(1.0)
    assert changes == []


def test_every_pause_and_every_unpause_that_counts_is_told() -> None:
    clock, _ = clock_at()
    changes: list[set[str]] = []
    clock.on_change = lambda: changes.append(set(clock.paused))
    clock.pause("pause")
    clock.unpause("pause")
    assert changes == [{"pause"}, set()]


def test_a_replay_clock_runs_at_its_speed() -> None:
    clock, outside = clock_at(10.0, speed=4.0)
    outside.now += 0.5
    assert clock.now() == pytest.approx(12.0)
    assert clock.when(14.0) == pytest.approx(outside.now + 0.5)


def test_when_says_on_the_outside_clock_when_a_game_time_comes() -> None:
    clock, outside = clock_at(3.0)
    outside.now += 1.0
    clock.pause("pause")
    outside.now += 2.0
    clock.unpause("pause")
    assert clock.when(6.0) == pytest.approx(outside.now + 2.0)


def test_set_while_paused_keeps_the_clock_still_at_the_new_time() -> None:
    clock, outside = clock_at()
    clock.pause("pause")
    clock.set(8.0)  # a replay stepped to its next action
    outside.now += 3.0
    assert clock.now() == 8.0


def test_game_time_never_runs_back() -> None:
    clock, outside = clock_at(2.0)
    assert clock.reach(2.25) == 2.25  # a timer that fired a hair early counts as on time
    assert clock.now() == 2.25
    outside.now += 0.1
    assert clock.now() == 2.25  # the outside clock has not caught up yet
    outside.now += 0.2
    assert clock.now() == pytest.approx(2.3)


def test_a_round_paused_goes_on_after_the_count() -> None:
    outside = Outside()
    clock = Clock(outside, Lifecycle(count=1.5))
    clock.set(0.0)
    clock.life.deal(outside.now)
    clock.pause("pause")
    outside.now += 5.0
    clock.unpause("pause")
    assert clock.paused == {"resume"}
    outside.now += 1.0
    assert clock.now() == 0.0
    clock.life.advance(outside.now + 0.5)
    assert clock.paused == set()
