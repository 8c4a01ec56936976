"""What once ended a network match for real players, with real programs in
pseudo-terminals over loopback: a joiner stopped for longer than the host waits in
silence, then the end of the round on the joiner's screen (a spectator whose connection goes at
the wrong moment: test_net_e2e; the rematch after a played-out match: test_net_screens,
in-process)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.nettable import (
    count_over,
    press_next_move,
    pump_all,
    right_pile_size,
    wait_all,
)
from tests.test_net_e2e import RawSpectator, Table, started_table
from tests.tty import TtySession


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from started_table(tmp_path)


KEY_GAP = 0.05
"""Seconds at least between two keys the round's players press (a fast person's 20 a
second: half what the host lets a player send)."""


def play_out_round(host: TtySession, joiner: TtySession, watcher: RawSpectator) -> dict[str, Any]:
    """Play the round under way to its end from what ``watcher`` sees: the joiner plays
    every card it can, the host one when the joiner cannot, both say ready when the piles
    wait for a flip, the joiner calls stress. The host's ``state`` at the round's end."""
    deadline = time.monotonic() + 120
    seen, asked = -1, 0.0
    while True:
        assert time.monotonic() < deadline, f"the round never ended\n{joiner.dump()}"
        pump_all(host, joiner)
        watcher.poll()
        message = watcher.state
        if message is not None and message["stage"] == "result":
            return message
        fresh = watcher.states != seen
        if message is None or message["stage"] != "playing":
            continue
        if not fresh and time.monotonic() - asked < 1.0:
            continue  # the last key's answer is on its way (else: asked again)
        if time.monotonic() - asked < KEY_GAP:
            continue  # a person's pace: the host's rate limit lets a flood go
        seen, asked = watcher.states, time.monotonic()
        game = watcher.game
        if game is None:
            continue
        press_next_move(game, host, joiner)


def stopped_for_longer_than_the_host_waits(host: TtySession, joiner: TtySession) -> None:
    """``kill -STOP`` the joiner until the host takes it for gone, then ``kill -CONT``."""
    os.kill(joiner.pid, signal.SIGSTOP)
    try:
        wait_all(lambda: "waiting for Bo to come back" in host.text(), "the drop", host, timeout=20)
    finally:
        os.kill(joiner.pid, signal.SIGCONT)


def test_a_joiner_stopped_past_the_hosts_patience_comes_back_and_the_rounds_end_shows_at_once(
    table: Table,
) -> None:
    """A stopped joiner is a slow connection, not a departure: the host pauses and waits for
    it as for a dropped one, and the joiner, once it runs again, finds its connection ended
    and reaches the host again; both play on, a card lands on both screens. Then the round
    is played out, and its end shows on both screens at once: the joiner's result screen
    needs the round's seed (its replay is written from it, its statistics read from that),
    which the host sends as the round ends, and the joiner shows the result as soon as it
    has it, not a pause until the host's next word."""
    host, joiner, where, code = table
    since = len(joiner.log)
    stopped_for_longer_than_the_host_waits(host, joiner)
    wait_all(
        lambda: not joiner.alive() or "Play goes on" in host.text(),
        "the count to go on",
        host,
        joiner,
        timeout=20,
    )
    assert joiner.alive(), f"the joiner's program ended: {joiner.exit_code}\n{joiner.dump()}"
    wait_all(
        lambda: (
            count_over(joiner, since)
            and "Play goes on" not in host.text()
            and right_pile_size(joiner) == "1"
        ),
        "the table again on both screens",
        host,
        joiner,
    )
    joiner.send("k")
    wait_all(
        lambda: right_pile_size(host) == "2" and right_pile_size(joiner) == "2",
        "a play after the stop, on both screens",
        host,
        joiner,
    )
    watcher = RawSpectator(where, code)
    end = play_out_round(host, joiner, watcher)
    winner = ("Bo", "Ann")[end["result"]["winner"]]
    shown: list[str] = []

    def both_results() -> bool:
        if "play on" in joiner.text():
            shown.append(joiner.text())
        return f"{winner} wins" in host.text() and f"{winner} wins" in joiner.text()

    wait_all(both_results, "the result on both screens", host, joiner)
    assert not shown, f"the joiner showed a pause, not the result:\n{shown[0]}"
    # Each side counts the round in its own record, and says so by its ratings.
    for screen in (host, joiner):
        assert "your record's rating: Bo " in screen.text(), screen.dump()
