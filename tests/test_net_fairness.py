"""Races across a real connection with a delay: the earlier press wins when the host
dates the joiner's keys by the measured delay, and loses when it dates them on arrival
(bench/net_fairness.py runs many more)."""

from __future__ import annotations

import asyncio

from bench.net_fairness import races

DELAY = 0.08
OFFSETS = [0.06, -0.06, 0.06]
"""The joiner presses 60 ms before the host, then after, then before again."""


def test_the_earlier_press_wins_across_an_80_ms_line() -> None:
    tally = asyncio.run(asyncio.wait_for(races(DELAY, 0.01, OFFSETS, True, 1), 60))
    assert (tally.clear, tally.clear_won) == (3, 3)


def test_dated_on_arrival_the_joiner_loses_races_it_won() -> None:
    tally = asyncio.run(asyncio.wait_for(races(DELAY, 0.01, OFFSETS, False, 1), 60))
    assert (tally.clear, tally.clear_won) == (3, 1)  # only the race the host won first
