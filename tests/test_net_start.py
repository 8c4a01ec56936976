"""Fair starts and pauses at a network table, headless on loopback: a round starts when
both players say they are ready, and after a pause both sides count to the same moment."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from stress_tui.core.actions import Play
from stress_tui.core.engine import Phase
from stress_tui.core.lifecycle import Hold, Holder, Stage
from stress_tui.core.rules import Rules
from stress_tui.net import client as client_module
from stress_tui.net.client import Client
from stress_tui.net.host import Host
from stress_tui.net.hosted import EARLY_GRACE, RESUME_COUNT
from stress_tui.net.standing import HOST_SEAT, JOINER_SEAT
from tests.test_net import SEED, both_ready, run, until


@pytest.fixture(autouse=True)
def _quick_retries(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(client_module, "RETRY_EVERY", 0.05)
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(tmp_path))


async def joined() -> tuple[Host, Client]:
    """A host and its joiner, the first round dealt and waiting for them."""
    host = Host(Rules(), "Ann", countdown=0.05, record=False, seed=SEED)
    _, port = await host.start()
    joiner = Client("127.0.0.1", port, host.code, "Bo", record=False)
    await joiner.connect()
    await until(
        lambda: joiner.stage is Stage.READY and not joiner.holds,
        "the round to wait for its players",
    )
    return host, joiner


async def playing() -> tuple[Host, Client]:
    host, joiner = await joined()
    await both_ready(host, joiner)
    await until(lambda: host.fair is not None and host.fair.game.phase is Phase.PLAYING, "flip")
    await until(lambda: joiner.stage is Stage.PLAYING, "the joiner's view")
    return host, joiner


def test_a_network_round_starts_only_when_both_players_say_they_are_ready() -> None:
    async def test() -> None:
        host, joiner = await joined()
        assert host.fair is not None
        assert joiner.waiting == (True, True) and host.life.waiting == (True, True)
        host.ready()  # the host is ready: the round still waits for Bo
        await until(lambda: joiner.waiting == (True, False), "the host's ready, on Bo's side")
        assert host.life.stage is Stage.READY and host.fair.flip_at is None
        assert host.life.stopped  # nobody's clock runs while the round waits
        host.act("play", 0, 0)  # a key before the start plays nothing
        assert not host.fair.applied
        joiner.ready()
        await until(lambda: host.life.stage is Stage.PLAYING, "the start")
        assert host.fair.flip_at is not None  # then the count to the first flip
        await until(lambda: host.fair is not None and host.fair.game.phase is Phase.PLAYING, "")
        await until(lambda: joiner.waiting is None and joiner.stage is Stage.PLAYING, "Bo's view")
        await host.close()

    run(test)


def test_a_pause_before_the_start_goes_back_to_waiting_for_the_players() -> None:
    async def test() -> None:
        host, joiner = await joined()
        joiner.ready()
        await until(lambda: host.life.waiting == (False, True), "Bo's ready")
        host.pause()
        await until(lambda: Holder(Hold.PAUSE, HOST_SEAT) in joiner.holds, "the pause, Bo's side")
        joiner.resume()
        await until(lambda: not joiner.holds, "waiting again, with no count")
        assert joiner.stage is Stage.READY
        assert host.life.waiting == (False, True)  # who was ready still is
        host.ready()
        await until(lambda: host.life.stage is Stage.PLAYING, "the start")
        await host.close()

    run(test)


def test_the_joiners_resume_count_ends_when_the_hosts_does() -> None:
    async def test() -> None:
        host, joiner = await playing()
        assert host.fair is not None
        joiner.pause()
        await until(lambda: host.life.stage is Stage.PAUSED, "the pause")
        host.resume()
        await until(lambda: joiner.stage is Stage.COUNT, "the count on Bo's side")
        assert host.life.count_until is not None and joiner.resume_end is not None
        # Bo's count ends at the host's end less the delay its state took to come.
        delay = (joiner.delay_ms or 0.0) / 1e3
        assert abs(joiner.resume_end - host.life.count_until) <= delay + 0.05
        left = joiner.resume_left()
        assert left is not None and 0 < left <= RESUME_COUNT
        before = len(host.fair.applied)
        host.act("play", *host.fair.game.legal_plays(HOST_SEAT)[0])  # during the count
        joiner.act("play", 1, 1)  # its count is not over: not even sent
        await asyncio.sleep(0)
        assert len(host.fair.applied) == before and host.life.stage is Stage.COUNT
        await until(lambda: joiner.playing(), "the end of Bo's count")
        await until(lambda: host.life.stage is Stage.PLAYING, "the end of the host's count")
        await host.close()

    run(test)


def test_a_key_pressed_as_the_joiners_count_ends_plays_the_moment_play_goes_on() -> None:
    """A joiner's key that reaches the host a moment before its count ends (the delay is
    an estimate) is kept, and played dated at the end of the pause; one pressed well
    before the end is nothing, as at one keyboard."""

    async def test() -> None:
        host, joiner = await playing()
        assert host.fair is not None
        loop = asyncio.get_running_loop()
        host.pause()
        await until(lambda: joiner.stage is Stage.PAUSED, "the pause")
        host.resume()
        await until(lambda: joiner.stage is Stage.COUNT, "the count")
        ends = host.life.count_until
        fair = host.fair
        assert ends is not None
        too_soon = {"t": "act", "a": "play", "pile": 1, "to": 1, "seq": 90}
        joiner._send(too_soon)  # a modified client, pressing in the middle of the count
        await until(lambda: loop.time() >= ends - EARLY_GRACE / 2, "the count's end")
        before = len(fair.applied)
        joiner._send({**too_soon, "seq": 91})  # just before the host's count ends
        await until(lambda: host.life.stage is Stage.PLAYING, "play going on")
        await until(lambda: len(fair.applied) == before + 1, "the kept key played")
        action, _events = fair.applied[-1]
        assert isinstance(action, Play) and action.player == JOINER_SEAT
        assert action.time == fair.floor  # dated the moment play went on, no earlier
        await host.close()

    run(test)


def test_a_joiner_back_from_a_drop_during_a_pause_finds_the_table_still_paused() -> None:
    async def test() -> None:
        host, joiner = await playing()
        host.pause()
        await until(lambda: joiner.stage is Stage.PAUSED, "the pause")
        assert joiner.writer is not None
        joiner.writer.transport.abort()  # the line drops while the table is paused
        await until(lambda: host.life.held(Hold.DROPPED), "the drop")
        await until(lambda: not host.life.held(Hold.DROPPED), "Bo back")
        assert host.life.stage is Stage.PAUSED and host.paused_by == "Ann"  # no count of its own
        await until(lambda: joiner.stage is Stage.PAUSED, "Bo's view")
        await host.close()

    run(test)


def test_a_pause_held_by_a_player_who_cannot_see_the_table_waits_for_them() -> None:
    """Bo's help (or a window too small, or Ctrl-Z) holds the pause: Ann's Enter does not
    play on while Bo cannot see the table, and Bo's window growing back does not undo a
    pause Ann asked for."""

    async def test() -> None:
        host, joiner = await playing()
        joiner.pause(hold=True)  # Bo's help opens
        await until(lambda: host.life.stage is Stage.PAUSED, "the pause")
        host.resume()  # Ann's Enter
        await until(lambda: Holder(Hold.AWAY, JOINER_SEAT) in joiner.holds, "the hold, Bo's side")
        assert host.life.stage is Stage.PAUSED
        assert host.status_line() == "paused: Bo cannot see the table"
        joiner.resume(hold=True)  # Bo's help closes: now it goes on, with the count
        await until(lambda: host.life.stage is Stage.COUNT, "the count")
        await until(lambda: host.life.stage is Stage.PLAYING, "play going on")
        host.pause()  # Ann's Esc
        await until(lambda: joiner.stage is Stage.PAUSED, "Ann's pause")
        joiner.pause(hold=True)  # Bo's window too small, then large again
        await until(lambda: host.life.holders(Hold.AWAY) == [JOINER_SEAT], "Bo's hold")
        joiner.resume(hold=True)
        await until(lambda: not host.life.held(Hold.AWAY), "the hold gone")
        assert (
            host.life.stage is Stage.PAUSED and host.status_line() == "paused by Ann: Enter goes on"
        )
        joiner.resume()  # Bo's Enter
        await until(lambda: host.life.stage is Stage.COUNT, "the count")
        await host.close()

    run(test)
