"""The host's match on the lifecycle, in one event loop without screens: the network's own
transitions (a drop and the way back, a stopped joiner, the result, the rematch) as stages
and holds of ``core.lifecycle.Lifecycle``."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from stress_tui.core.engine import Phase
from stress_tui.core.lifecycle import Hold, Holder, Stage
from stress_tui.core.rules import Rules
from stress_tui.net import client as client_module
from stress_tui.net import host as host_module
from stress_tui.net import hosted
from stress_tui.net.client import Client
from stress_tui.net.host import Host
from stress_tui.net.standing import HOST_SEAT, JOINER_SEAT
from stress_tui.storage import listing
from stress_tui.terminal.netlink import Link
from tests.test_net import SEED, both_ready, run, seated, table, until


@pytest.fixture(autouse=True)
def _quick_retries(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(client_module, "RETRY_EVERY", 0.05)
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(tmp_path))


def stage(host: Host) -> Stage:
    """The host's stage, read afresh."""
    return host.life.stage


async def play_out(host: Host, joiner: Client) -> None:
    """Both players play the round to its end at a quick person's pace."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 20
    while host.life.stage is not Stage.RESULT and loop.time() < end:
        await asyncio.sleep(0.03)  # below the rate limit
        if host.life.stage is not Stage.PLAYING or host.fair is None or joiner.table is None:
            continue
        game = host.fair.game
        if game.phase is Phase.STRESS:
            host.act("stress")
        mine = game.legal_plays(HOST_SEAT)
        if mine:
            host.act("play", *mine[0])
        else:
            host.act("ready")
        theirs = joiner.table.game.legal_plays(JOINER_SEAT)
        if theirs:
            joiner.act("play", *theirs[0])
        else:
            joiner.act("ready")
    assert host.life.stage is Stage.RESULT


def test_a_drop_holds_the_round_for_the_joiner_and_the_way_back_counts_in() -> None:
    async def test() -> None:
        host, joiner = await table()
        assert host.life.stage is Stage.PLAYING and host.fair is not None
        assert joiner.writer is not None
        joiner.writer.transport.abort()  # the line drops
        await until(lambda: host.life.held(Hold.DROPPED), "the host to notice")
        assert stage(host) is Stage.PAUSED and host.life.stopped
        assert host.life.holders(Hold.DROPPED) == [JOINER_SEAT]
        applied = len(host.fair.applied)
        host.act("play", *host.fair.game.legal_plays(HOST_SEAT)[0])  # plays nothing meanwhile
        assert len(host.fair.applied) == applied
        await until(lambda: host.life.stage is Stage.COUNT, "Bo back: the count")
        assert host.life.holds == set() and host.life.deals == 1
        await until(lambda: host.life.stage is Stage.PLAYING, "play going on")
        await host.close()

    run(test)


async def watching(host: Host) -> Client:
    """Cy, a spectator at ``host``'s table, once the table is on Cy's end."""
    watcher = Client("127.0.0.1", host.port, host.code, "Cy", role="watch", record=False)
    await watcher.connect()
    await until(lambda: watcher.table is not None, "the spectator's view")
    return watcher


def test_a_spectator_whose_line_drops_comes_back_to_the_table_it_watched() -> None:
    """A spectator's connection that drops: it says it is trying again and reaches the
    host again, as the joiner does, and watches on where the table stands; the round goes
    on meanwhile, nothing held for it."""

    async def test() -> None:
        host, _joiner = await table()
        watcher = await watching(host)
        assert watcher.writer is not None and host.fair is not None
        watcher.writer.transport.abort()  # the line drops
        await until(lambda: watcher.lost, "the spectator trying again")
        assert host.life.stage is Stage.PLAYING and not host.life.holds
        pile, target = host.fair.game.legal_plays(HOST_SEAT)[0]
        host.act("play", pile, target)  # played while the spectator was away
        card = host.fair.game.top(target)
        await until(lambda: not watcher.lost, "the spectator back")
        await until(
            lambda: watcher.table is not None and watcher.table.game.top(target) == card,
            "the table as it stands",
        )
        assert watcher.stage is Stage.PLAYING and watcher.seat is None
        assert watcher.done is not None and not watcher.done.done()
        await watcher.leave()
        await host.close()

    run(test)


def test_a_spectator_that_cannot_reach_the_host_again_says_why_it_stopped_trying(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once the minute of tries is up, the spectator's screen says why it watches no more,
    not "trying again, 0 s" for ever: the host could not be reached, not that the match
    ends (a spectator cannot tell its own line cut from the host gone, and the players'
    match is not held for it)."""
    monkeypatch.setattr(client_module, "RETRY_FOR", 0.3)

    async def test() -> None:
        host, _joiner = await table()
        watcher = await watching(host)
        assert watcher.writer is not None and watcher.done is not None
        nowhere = socket.socket()
        nowhere.bind(("127.0.0.1", 0))
        watcher.port = nowhere.getsockname()[1]  # nothing listens there: every try fails
        nowhere.close()
        watcher.writer.transport.abort()  # the line drops
        reason = await asyncio.wait_for(watcher.done, 5)
        assert reason == "the host could not be reached again"
        assert not watcher.lost
        assert Link(watcher).status_line() == reason, Link(watcher).status_line()
        await host.close()

    run(test)


def test_a_drop_before_the_start_comes_back_to_the_start_gate_with_no_count() -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", countdown=0.05, record=False, seed=SEED)
        _, port = await host.start()
        joiner = Client("127.0.0.1", port, host.code, "Bo", record=False)
        await joiner.connect()
        await until(lambda: host.life.stage is Stage.READY, "the deal")
        host.ready()
        assert host.life.waiting == (True, False)
        assert joiner.writer is not None
        joiner.writer.transport.abort()
        await until(lambda: host.life.held(Hold.DROPPED), "the host to notice")
        joiner.ready()  # nobody hears it: the line is down
        await until(lambda: not host.life.held(Hold.DROPPED), "Bo back")
        assert host.life.stage is Stage.READY and host.life.waiting == (True, False)
        await until(
            lambda: joiner.stage is Stage.READY and not joiner.holds, "the gate on Bo's side"
        )
        joiner.ready()
        await until(lambda: host.life.stage is Stage.PLAYING, "the start")
        await host.close()

    run(test)


def test_a_stopped_joiner_is_dropped_for_its_silence_and_counts_in_when_it_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A joiner that stops reading and saying anything (Ctrl-Z, a frozen machine) is taken
    for lost once silent ``SILENT_LIMIT`` seconds: the seat is kept, and when it goes on it
    finds its connection ended, reaches the host again, and the round counts in."""
    monkeypatch.setattr(host_module, "SILENT_LIMIT", 0.3)
    monkeypatch.setattr(host_module, "PING_EVERY", 0.05)

    async def test() -> None:
        host, joiner = await table()
        assert joiner.writer is not None
        transport = joiner.writer.transport
        assert isinstance(transport, asyncio.ReadTransport)
        transport.pause_reading()  # stopped: neither reads nor answers
        await until(lambda: host.life.held(Hold.DROPPED), "the host to give up on the silence")
        assert host.life.stage is Stage.PAUSED and host.joiner is None
        transport.resume_reading()  # going on
        await until(lambda: host.life.stage is Stage.PLAYING, "the count, then play", 5)
        await until(lambda: joiner.stage is Stage.PLAYING, "Bo's view")
        await host.close()

    run(test)


def test_a_joiner_lost_on_the_result_leaves_the_round_kept_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The round is over and kept when the joiner's line drops and it never comes back:
    the match ends, and the round stays as it was kept (not written again, cut short)."""
    monkeypatch.setattr(hosted, "REJOIN_SECONDS", 0.3)
    monkeypatch.setattr(client_module, "RETRY_FOR", 0.0)  # the joiner's program gives up

    async def test() -> None:
        host = Host(Rules.for_deck("standard", wins=2), "Ann", countdown=0.02, seed=SEED)
        joiner = await seated(host)
        await play_out(host, joiner)
        kept = host.result
        assert kept is not None and kept.replay is not None
        await until(lambda: joiner.result is not None, "the joiner's replay")
        files = len(listing.summaries()[0])
        assert joiner.writer is not None
        joiner.writer.transport.abort()
        await until(lambda: host.life.held(Hold.DROPPED), "the drop")
        assert host.life.stage is Stage.RESULT
        await until(lambda: host.life.stage is Stage.GONE, "the seat given up")
        assert host.result is kept
        assert len(listing.summaries()[0]) == files
        assert host.status_line() == "Bo did not come back: the match ends unscored"
        await host.close()

    run(test)


def test_the_rematch_deals_round_one_again_at_the_start_gate() -> None:
    async def test() -> None:
        host = Host(Rules.for_deck("standard", wins=1), "Ann", countdown=0.02, seed=SEED)
        joiner = await seated(host, record=False)
        await play_out(host, joiner)
        assert host.life.match_over and host.life.round == 1
        first = host.dealt.commit
        await until(lambda: joiner.stage is Stage.RESULT, "the result on Bo's side")
        joiner.go_on()  # either player's Enter
        await until(lambda: host.life.stage is Stage.READY, "the rematch dealt")
        assert host.life.round == 1 and host.life.deals == 2 and not host.life.match_over
        assert host.dealt.commit != first and host.score == (0, 0)
        await both_ready(host, joiner)
        await until(lambda: host.life.stage is Stage.PLAYING, "the rematch under way")
        await until(lambda: joiner.round_number == 1 and joiner.dealt == host.dealt.commit, "Bo's")
        await host.close()

    run(test)


def test_the_joiner_and_a_spectator_see_the_hosts_stage_and_what_holds_it() -> None:
    async def test() -> None:
        host, joiner = await table()
        watcher = Client("127.0.0.1", host.port, host.code, role="watch", record=False)
        await watcher.connect()
        host.pause()
        joiner.pause(hold=True)  # Bo's help
        holds = {Holder(Hold.PAUSE, HOST_SEAT), Holder(Hold.AWAY, JOINER_SEAT)}
        await until(lambda: host.life.holds == holds, "both holds")
        await until(lambda: joiner.holds == holds == watcher.holds, "the holds on the other ends")
        assert joiner.stage is Stage.PAUSED and watcher.stage is Stage.PAUSED
        assert host.status_line() == "paused: Bo cannot see the table"
        joiner.resume(hold=True)
        joiner.resume()  # Bo's Enter ends Ann's pause
        await until(lambda: watcher.stage is Stage.COUNT, "the count, on the spectator's end")
        await until(lambda: watcher.stage is Stage.PLAYING and not watcher.holds, "play")
        await watcher.leave()
        await host.close()

    run(test)


def test_a_player_who_cannot_see_the_table_holds_the_next_rounds_start() -> None:
    """Bo's window is too small (or his program stopped) as a round ends: the next round
    is dealt, but its start waits for him to see the table, whoever says ready."""

    async def test() -> None:
        host = Host(Rules.for_deck("standard", wins=2), "Ann", countdown=0.02, seed=SEED)
        joiner = await seated(host, record=False)
        await play_out(host, joiner)
        joiner.pause(hold=True)  # Bo's window too small on the result
        await until(lambda: host.life.holders(Hold.AWAY) == [JOINER_SEAT], "Bo's hold")
        host.go_on()
        assert host.life.base is Stage.READY and host.life.round == 2
        host.ready()
        await until(lambda: joiner.stage is Stage.READY, "the deal on Bo's side")
        joiner._send({"t": "ready"})  # a modified program: ready while it cannot see
        await asyncio.sleep(0.2)
        assert host.life.stage is Stage.READY and host.life.waiting == (True, True)
        joiner.resume(hold=True)  # his window is large again
        await until(lambda: not host.life.holds, "the hold gone")
        host.ready()
        await until(lambda: not joiner.holds, "the gate on Bo's side")
        joiner.ready()
        await until(lambda: stage(host) is Stage.PLAYING, "the start")
        await host.close()

    run(test)
