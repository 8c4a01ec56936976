"""A match's life, driven by hand: each transition of ``core/lifecycle.py``, with the
outside time given, no terminal and no event loop."""

from __future__ import annotations

import pytest

from stress_tui.core.lifecycle import RESULT_GRACE, RESUME_SECONDS, Hold, Lifecycle, Next, Stage


def stage(life: Lifecycle) -> Stage:
    """Where ``life`` stands (read afresh: each event moves it)."""
    return life.stage


def dealt(awaited: tuple[bool, bool] = (False, False), at: float = 0.0) -> Lifecycle:
    life = Lifecycle()
    life.set_time(0.0, at)
    life.deal(at, awaited)
    return life


def test_a_new_match_waits_for_its_players_and_its_clock_stands_still() -> None:
    life = Lifecycle()
    assert stage(life) is Stage.WAITING
    assert life.time(50.0) == 0.0
    assert not life.in_play


def test_a_round_with_people_at_it_waits_for_each_to_say_ready() -> None:
    life = dealt((True, True))
    assert stage(life) is Stage.READY
    assert life.waiting == (True, True)
    assert life.time(10.0) == 0.0  # the clock waits too
    assert not life.ready(0, 10.0) and life.waiting == (False, True)
    assert not life.ready(0, 11.0)  # said twice: nothing more
    assert life.ready(1, 12.0)
    assert stage(life) is Stage.PLAYING and life.waiting is None
    assert life.time(13.0) == pytest.approx(1.0)


def test_a_round_against_the_computer_alone_starts_at_once() -> None:
    life = dealt((False, False))
    assert stage(life) is Stage.PLAYING
    assert life.time(2.0) == pytest.approx(2.0)


def test_a_ready_key_with_the_help_open_does_not_start_the_round() -> None:
    life = dealt((True, False))
    life.hold(Hold.HELP, 1.0)
    assert not life.ready(0, 2.0)
    assert life.release(Hold.HELP, 3.0)
    assert stage(life) is Stage.READY  # no count before a round that has not started
    assert life.ready(0, 4.0)


def test_a_pause_stops_the_clock_and_play_goes_on_after_a_count() -> None:
    life = dealt()
    assert life.hold(Hold.PAUSE, 1.0)
    assert stage(life) is Stage.PAUSED
    assert life.time(30.0) == pytest.approx(1.0)
    assert life.release(Hold.PAUSE, 30.0)
    assert stage(life) is Stage.COUNT
    assert life.count_left(30.5) == pytest.approx(RESUME_SECONDS - 0.5)
    assert life.next_deadline() == pytest.approx(30.0 + RESUME_SECONDS)
    assert life.time(31.0) == pytest.approx(1.0)  # the count holds the clock too
    assert not life.advance(30.0 + RESUME_SECONDS - 0.1)
    assert life.advance(30.0 + RESUME_SECONDS)
    assert stage(life) is Stage.PLAYING
    assert life.time(32.5) == pytest.approx(2.0)


def test_the_clock_goes_again_only_when_every_hold_is_gone() -> None:
    life = dealt()
    life.hold(Hold.HELP, 0.0)
    life.hold(Hold.SMALL, 0.0)
    life.release(Hold.HELP, 4.0)
    assert stage(life) is Stage.PAUSED and life.held(Hold.SMALL)
    assert life.time(8.0) == 0.0
    life.release(Hold.SMALL, 8.0)
    assert stage(life) is Stage.COUNT


def test_a_hold_during_the_count_ends_it_and_the_next_release_counts_again() -> None:
    life = dealt()
    life.hold(Hold.PAUSE, 0.0)
    life.release(Hold.PAUSE, 1.0)
    life.hold(Hold.HELP, 1.5)
    assert stage(life) is Stage.PAUSED and life.next_deadline() is None
    assert not life.advance(1.0 + RESUME_SECONDS)  # the first count's end: gone
    life.release(Hold.HELP, 5.0)
    assert life.next_deadline() == pytest.approx(5.0 + RESUME_SECONDS)


def test_a_replay_goes_on_at_once_after_a_pause() -> None:
    life = Lifecycle(speed=4.0, count=0.0)
    life.set_time(10.0, 0.0)
    life.deal(0.0)
    life.hold(Hold.PAUSE, 0.5)
    life.release(Hold.PAUSE, 9.0)
    assert stage(life) is Stage.PLAYING
    assert life.time(9.5) == pytest.approx(14.0)
    assert life.when(16.0) == pytest.approx(10.0)


def test_releasing_what_was_not_held_changes_nothing() -> None:
    life = dealt()
    assert not life.release(Hold.HELP, 1.0)
    assert stage(life) is Stage.PLAYING and life.time(1.0) == pytest.approx(1.0)


def test_the_end_of_a_round_shows_its_result_which_takes_keys_after_a_moment() -> None:
    life = dealt()
    assert life.round_over(3.0, match_over=False)
    assert stage(life) is Stage.ROUND_OVER
    assert life.go_on() is None  # a key still meant for the table
    assert life.next_deadline() == pytest.approx(3.0 + RESULT_GRACE)
    assert life.advance(3.0 + RESULT_GRACE)
    assert stage(life) is Stage.RESULT
    assert life.in_play
    assert life.go_on() is Next.ROUND
    life.deal(5.0, (True, True))
    assert stage(life) is Stage.READY and life.round == 2


def test_a_won_match_goes_on_to_a_rematch_from_round_one_with_a_new_deal() -> None:
    life = dealt()
    life.round_over(3.0, match_over=True)
    life.advance(4.0)
    assert not life.in_play  # quitting now ends nothing
    assert life.go_on() is Next.REMATCH
    life.deal(5.0)
    assert life.round == 1 and life.deals == 2  # the deal's name never repeats


def test_a_new_round_closes_the_help_and_the_pause_but_not_a_small_window() -> None:
    life = dealt()
    life.hold(Hold.SMALL, 1.0)
    life.round_over(1.0, match_over=False)
    life.hold(Hold.HELP, 1.2)
    life.advance(2.0)
    life.go_on()
    life.deal(3.0)
    assert life.holds and life.held(Hold.SMALL) and not life.held(Hold.HELP)
    assert stage(life) is Stage.PAUSED


def test_a_dropped_player_holds_the_table_until_they_rejoin() -> None:
    life = dealt()
    assert life.hold(Hold.DROPPED, 2.0, by=1)
    assert stage(life) is Stage.PAUSED and life.holders(Hold.DROPPED) == [1]
    life.hold(Hold.PAUSE, 3.0, by=0)  # the other pauses meanwhile
    assert life.release(Hold.DROPPED, 9.0, by=1)  # back
    assert stage(life) is Stage.PAUSED  # the pause still holds
    assert not life.release(Hold.PAUSE, 9.5, by=1)  # not theirs to end
    assert life.release(Hold.PAUSE, 10.0, by=0)
    assert stage(life) is Stage.COUNT
    assert life.time(10.0) == pytest.approx(2.0)


def test_a_stopped_joiner_holds_the_table_for_both() -> None:
    life = dealt()
    life.hold(Hold.AWAY, 1.0, by=0)
    assert stage(life) is Stage.PAUSED
    life.hold(Hold.PAUSE, 1.0, by=1)
    life.release(Hold.PAUSE, 2.0, by=1)  # the other's Enter does not play on
    assert stage(life) is Stage.PAUSED
    life.release(Hold.AWAY, 3.0, by=0)
    assert stage(life) is Stage.COUNT


def test_a_match_left_is_gone_and_nothing_moves_it() -> None:
    life = dealt()
    life.leave(1.0)
    assert stage(life) is Stage.GONE
    assert not life.hold(Hold.PAUSE, 2.0)
    life.deal(3.0)
    assert stage(life) is Stage.GONE
    assert life.time(9.0) == pytest.approx(1.0)


def test_game_time_never_runs_back_but_set_moves_it_anywhere() -> None:
    life = dealt()
    assert life.reach(2.25, 2.0) == 2.25
    assert life.time(2.1) == 2.25
    life.hold(Hold.PAUSE, 3.0)
    life.set_time(8.0, 3.0)  # a replay stepped
    assert life.time(9.0) == 8.0
