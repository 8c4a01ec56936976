"""A network match as its screens show it: a card played on one side lands on both, a
spectator sees the players' plays, a dropped joiner pauses the host until it comes back,
quitting says who left, the result shows on both screens and either deals the next
round, and after a played-out match the rematch is dealt and played on both. The host's,
the joiner's and the spectator's screens run in this process on one virtual clock, over
loopback, as the ``host``, ``join`` and ``watch`` commands make them
(``tests/nettable.py``); refusals as the ``join`` command says them, and what only a
real program shows (a stop, a kill, its own language) are test_net_e2e*'s, in
pseudo-terminals."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from stress_tui.core.lifecycle import Stage
from stress_tui.core.rules import Rules
from stress_tui.net.standing import HOST_SEAT, JOINER_SEAT
from tests.nettable import (
    LAST_CARD,
    PILE_KEYS,
    NetTable,
    both_ready,
    first_flip,
    net_table,
    press_next_move,
    pump_all,
    right_pile_size,
    wait_all,
)
from tests.pilot import Pilot


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[NetTable, Pilot]]:
    """Ann's table and Bo's screen, both ready, after the round's first flip."""
    with net_table(monkeypatch) as (table, joiner):
        both_ready(table.screen, joiner)
        first_flip(table.screen, joiner)
        yield table, joiner


def test_a_card_played_on_one_side_lands_on_both_screens(
    table: tuple[NetTable, Pilot],
) -> None:
    host, joiner = table[0].screen, table[1]
    assert "joined" in joiner.row(0) and "hosting" in host.row(0)
    assert "delay" in joiner.row(0) and "delay" in host.row(0)
    # Each sees their own row at the bottom: Bo's name is at the bottom of Bo's screen.
    assert any("Bo" in joiner.row(y) for y in range(joiner.rows - 8, joiner.rows))
    assert any("Ann" in host.row(y) for y in range(host.rows - 8, host.rows))
    joiner.send("k")  # the joiner's second pile onto the right pile (one-player keys)
    wait_all(
        lambda: right_pile_size(host) == "2" and right_pile_size(joiner) == "2",
        "the card on both screens",
        host,
        joiner,
    )


def test_a_spectator_sees_both_players_plays(table: tuple[NetTable, Pilot]) -> None:
    net, joiner = table
    host = net.screen
    watcher = net.join("", role="watch")
    wait_all(lambda: "watching" in watcher.row(0), "the spectator's table", watcher, host)
    wait_all(lambda: right_pile_size(watcher) == "1", "the piles", watcher, host, joiner)
    joiner.send("k")
    wait_all(lambda: right_pile_size(watcher) == "2", "the joiner's card", watcher, host, joiner)
    watcher.send("k")  # a spectator's key plays nothing
    pump_all(host, joiner, watcher)
    assert right_pile_size(host) == "2"


def test_a_dropped_connection_pauses_and_a_rejoin_resumes(table: tuple[NetTable, Pilot]) -> None:
    net, joiner = table
    host = net.screen
    net.drop(joiner)  # the joiner's machine goes away
    wait_all(lambda: "waiting for Bo to come back" in host.text(), "the drop", host)
    again = net.join("Bo")
    wait_all(lambda: "Play goes on" in host.text(), "the count to go on", host, again)
    wait_all(
        lambda: "Play goes on" not in again.text() + host.text() and right_pile_size(again) == "1",
        "the table again on both screens",
        host,
        again,
    )
    again.send("k")
    wait_all(lambda: right_pile_size(host) == "2", "a play after the rejoin", host, again)


def test_quitting_says_who_left(table: tuple[NetTable, Pilot]) -> None:
    net, joiner = table
    host = net.screen
    joiner.send("\x1b")
    wait_all(lambda: "paused by Bo" in joiner.text(), "the pause", host, joiner)
    joiner.send("q")
    assert joiner.wait_exit(timeout=10) == 0
    net.leave(joiner)  # as the join command does once its screen has ended
    wait_all(lambda: "Bo left" in host.text(), "the host to hear", host)
    host.send("q")
    assert host.wait_exit(timeout=10) == 0


def test_the_result_shows_on_both_screens_and_either_deals_the_next_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with net_table(monkeypatch, position=LAST_CARD) as (net, joiner):
        host = net.screen
        wait_all(lambda: "5♣" in joiner.text(), "the position", host, joiner)
        both_ready(host, joiner)
        joiner.send("a")  # the last card onto the left pile
        wait_all(
            lambda: "Bo wins" in host.text() and "Bo wins" in joiner.text(),
            "the result on both screens",
            host,
            joiner,
        )
        # The result screen takes keys a moment after it opens, and then says so.
        wait_all(lambda: "q: quit" in host.text(), "the result's keys", host, joiner)
        host.send("\r")
        wait_all(lambda: "wins 1/3" in host.text(), "the next round dealt", host, joiner)
        both_ready(host, joiner)  # every round waits for both players
        wait_all(
            lambda: "wins 1/3" in host.text() and "draw 21" in joiner.text(),
            "the next round, dealt on both screens",
            host,
            joiner,
        )


KEY_GAP = 0.05
"""Seconds between two keys the round's players press (a fast person's 20 a second)."""


def play_out_round(net: NetTable, joiner: Pilot) -> None:
    """Play the round under way to its end, from the table as the host has it: the joiner
    plays every card it can, the host one when the joiner cannot, both say ready when the
    piles wait for a flip, the joiner calls stress."""
    host = net.screen
    deadline = host.now() + 600
    while net.host.life.stage not in (Stage.ROUND_OVER, Stage.RESULT):
        assert host.now() < deadline, f"the round never ended\n{joiner.dump()}"
        fair = net.host.fair
        if net.host.life.stage is Stage.PLAYING and fair is not None:
            press_next_move(fair.game, host, joiner)
        host.pump(KEY_GAP)


def test_the_rematch_is_dealt_on_both_screens_and_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """A match of one round played out, then the rematch by the joiner's Enter: a new deal
    on both screens, the score back to nothing. Its rounds are numbered from 1 again, and
    the joiner is sent the rematch's first deal all the same (not taken for the first
    match's round 1, which it has seen), so that its first flip and its plays go on."""
    with net_table(monkeypatch, Rules.for_deck("standard", wins=1)) as (net, joiner):
        host = net.screen
        both_ready(host, joiner)
        play_out_round(net, joiner)
        assert net.host.life.match_over
        wait_all(lambda: "wins the match" in host.text(), "the match's result", host, joiner)
        found = re.search(r"(Ann|Bo) wins the match", host.text())
        assert found is not None, host.dump()
        won = f"{found[1]} wins"
        wait_all(lambda: f"{won} the match" in joiner.text(), "the result on Bo's", host, joiner)
        wait_all(lambda: "Enter: rematch" in joiner.text(), "the rematch key", host, joiner)
        joiner.send("\r")
        wait_all(
            lambda: (
                "wins the match" not in host.text() + joiner.text()
                and "draw 22" in joiner.text()
                and "draw 22" in host.text()
            ),
            "the rematch dealt on both screens",
            host,
            joiner,
        )
        both_ready(host, joiner)
        first_flip(host, joiner, "the rematch's first flip")
        for screen in (host, joiner):
            assert won not in screen.text(), screen.dump()  # a new match: no score yet
        fair = net.host.fair
        assert fair is not None
        side = JOINER_SEAT if fair.game.legal_plays(JOINER_SEAT) else HOST_SEAT
        pile, target = fair.game.legal_plays(side)[0]
        (joiner if side == JOINER_SEAT else host).send(PILE_KEYS[target][pile])
        wait_all(
            lambda: "2 cards" in host.text() and "2 cards" in joiner.text(),
            "the card on both screens",
            host,
            joiner,
        )
        assert "broke the protocol" not in joiner.text()
