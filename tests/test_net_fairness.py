"""Races across a real connection with a delay: the earlier press wins when the host
dates the joiner's keys by the measured delay, and loses when it dates them on arrival;
a joiner that answers pings late to look slower wins nothing by it (bench/net_fairness.py
runs many more)."""

from __future__ import annotations

import asyncio

import pytest

from bench.net_fairness import races

DELAY = 0.15
OFFSETS = [0.1, -0.1, 0.1]
"""The joiner presses 100 ms before the host, then after, then before again: clear races,
with room for a loaded machine's slowness, that a joiner 150 ms away loses undated."""

LATE = [-0.03, -0.06, -0.03]
"""A cheating joiner presses 30 or 60 ms after the host."""


def test_the_earlier_press_wins_across_a_150_ms_line() -> None:
    tally = asyncio.run(asyncio.wait_for(races(DELAY, 0.01, OFFSETS, True, 1), 60))
    assert (tally.clear, tally.clear_won) == (3, 3)


def test_dated_on_arrival_the_joiner_loses_races_it_won() -> None:
    tally = asyncio.run(asyncio.wait_for(races(DELAY, 0.01, OFFSETS, False, 1), 60))
    assert (tally.clear, tally.clear_won) == (3, 1)  # only the race the host won first


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.15], ids=["0ms", "50ms", "150ms"])
def test_a_joiner_that_answers_pings_late_wins_no_race_it_pressed_later(delay: float) -> None:
    """The cheater answers every ping 300 ms late: its pings show a line 150 ms slower each
    way than it is, and the host's kernel shows the path as it is. Every race it pressed
    30 ms or more after the host goes to the host."""
    tally = asyncio.run(asyncio.wait_for(races(delay, 0.005, LATE, True, 1, cheat=True), 90))
    assert (tally.clear, tally.clear_won) == (3, 3)  # every race won by the host, earlier


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.15], ids=["0ms", "50ms", "150ms"])
def test_an_honest_joiner_still_wins_the_races_it_pressed_first(delay: float) -> None:
    """With the cheater's bound in place, a joiner 100 ms ahead still wins at every delay.
    How close a race it wins (40 ms ahead, 95% of races) is measured through real network
    stacks by bench/net_paths.py (docs/network.md): a test's in-process races on a loaded
    machine show who wins, not by how little."""
    tally = asyncio.run(asyncio.wait_for(races(delay, 0.005, [0.1, 0.1], True, 1), 60))
    assert (tally.clear, tally.clear_won) == (2, 2)


def test_the_player_whose_card_is_taken_back_is_told_too_late() -> None:
    """The host presses 100 ms after the joiner but before the joiner's key arrives: the
    host's card is applied, then taken back; the joiner's screen gets the host's play
    refused as too late."""
    from stress_tui.core.events import Rejected, RejectReason

    seen: list[object] = []
    tally = asyncio.run(
        asyncio.wait_for(races(DELAY, 0.0, [0.1], True, 1, on_joiner_events=seen.extend), 60)
    )
    assert (tally.clear, tally.clear_won) == (1, 1)
    late = [e for e in seen if isinstance(e, Rejected) and e.reason is RejectReason.LOST_RACE]
    assert [e.player for e in late] == [1]  # the host's (player 2's) play
    assert RejectReason.LOST_RACE.value.startswith("too late")


def test_the_host_reads_its_kernels_round_trip_of_a_connection() -> None:
    """On Linux the kernel's smallest round trip of a loopback connection: a few
    microseconds, read from ``struct tcp_info`` where ``ss -ti`` shows it as minrtt."""
    import socket
    import sys

    from stress_tui.net.pathrtt import kernel_rtt

    if not sys.platform.startswith("linux"):
        pytest.skip("TCP_INFO is Linux's")
    with (
        socket.create_server(("127.0.0.1", 0)) as server,
        socket.create_connection(server.getsockname()) as near,
    ):
        far, _ = server.accept()
        with far:
            for _ in range(5):
                far.sendall(b"ping")
                near.recv(4)
                near.sendall(b"pong")
                far.recv(4)
            rtt = kernel_rtt(far)
    assert rtt is not None and 0 < rtt < 0.05
    assert kernel_rtt(None) is None


def test_a_lie_in_the_pings_is_bounded_by_the_kernels_round_trip() -> None:
    from stress_tui.net.pathrtt import PATH_MARGIN, dated_back

    assert dated_back([0.5, 0.3, 0.4], 0.1, 0.15) == pytest.approx((0.1 + PATH_MARGIN) / 2)
    assert dated_back([0.05, 0.3], 0.1, 0.15) == pytest.approx(0.025)  # the smallest
    assert dated_back([0.5, 0.3], None, 0.15) == 0.15  # no kernel: the cap
    assert dated_back([], 0.1, 0.15) == 0.0
