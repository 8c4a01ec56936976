"""The joiner's own play shows at once, 150 ms from the host: the card is on the pile
before the host has heard of it, and the host's answer keeps it there, or puts the table
as the host has it back with the reason it refused the play."""

from __future__ import annotations

import asyncio
import random
import textwrap

from bench.net_fairness import RACE, DelayProxy, _both_ready, _until
from stress_tui.core.actions import Play
from stress_tui.core.engine import Game
from stress_tui.core.events import Event, Rejected, RejectReason
from stress_tui.core.notation import parse_position
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.core.view import position, table_view
from stress_tui.net.client import Client
from stress_tui.net.host import Host
from stress_tui.net.wire import ahead

DELAY = 0.15
"""One way, host to joiner and back."""


async def _table(seen: list[Event]) -> tuple[Host, Client, DelayProxy]:
    """A host and a joiner 150 ms apart, both ready at ``RACE`` (the joiner's 3S and the
    host's 5C both fit the 4H on the left pile)."""
    proxy: DelayProxy | None = None
    host = Host(
        Rules(),
        "Host",
        record=False,
        seed=1,
        path_rtt=lambda _writer: None if proxy is None else proxy.min_rtt,
    )
    _, port = await host.start()
    proxy = DelayProxy(port, DELAY, 0.0)
    joiner = Client(
        "127.0.0.1", await proxy.start(), host.code, "Jo", record=False, on_change=seen.extend
    )
    await joiner.connect()
    await _until(lambda: host.joiner is not None and len(host.joiner.rtts) >= 3, 20)
    host.set_round(Game(parse_position(textwrap.dedent(RACE)), random.Random(0)))
    await _until(lambda: joiner.round_number == host.round_number, 5)
    await _both_ready(host, joiner)
    return host, joiner, proxy


def _left(client: Client) -> str:
    assert client.table is not None
    return str(client.table.game.top(0))


async def _close(host: Host, joiner: Client, proxy: DelayProxy) -> None:
    await joiner.leave()
    await host.close()
    await proxy.close()


def test_the_joiners_card_lands_at_once_and_stays() -> None:
    async def test() -> None:
        seen: list[Event] = []
        host, joiner, proxy = await _table(seen)
        joiner.act("play", 0, 0)
        assert _left(joiner) == "3S"  # at once: no message has come back yet
        assert host.fair is not None and str(host.fair.game.top(0)) == "4H"
        assert joiner.table is not None and joiner.table.game.state.players[0].row[0] == []
        await _until(lambda: str(host.fair.game.top(0)) == "3S" if host.fair else False, 5)
        await _until(lambda: not joiner.pending, 5)
        assert _left(joiner) == "3S"
        assert not [e for e in seen if isinstance(e, Rejected)]
        await _close(host, joiner, proxy)

    asyncio.run(asyncio.wait_for(test(), 60))


def test_a_play_the_host_refuses_is_taken_back_with_the_reason() -> None:
    """The host's 5C goes down 100 ms before the joiner presses its 3S: the joiner, which
    has not seen the 5C yet, sees its 3S land, then the host's table with the 5C there,
    its 3S back in its row, and why: too late."""

    async def test() -> None:
        seen: list[Event] = []
        host, joiner, proxy = await _table(seen)
        host.act("play", 0, 0)
        await asyncio.sleep(0.1)
        assert _left(joiner) == "4H"  # the host's card is still on its way
        joiner.act("play", 0, 0)
        assert _left(joiner) == "3S"
        await _until(lambda: not joiner.pending, 5)
        assert _left(joiner) == "5C"
        assert joiner.table is not None
        assert str(joiner.table.game.state.players[0].row[0][-1]) == "3S"
        refused = [e for e in seen if isinstance(e, Rejected) and e.player == 0]
        assert [e.reason for e in refused] == [RejectReason.LOST_RACE]
        await _close(host, joiner, proxy)

    asyncio.run(asyncio.wait_for(test(), 60))


def test_a_place_played_from_shows_empty_until_the_host_says_what_was_drawn() -> None:
    """Our play on the host's last table (``wire.ahead``) takes the card from its place
    and draws a stand-in there, which it takes back: the place shows no card, not the
    stand-in, on the screen and to the rules, until the host's answer names the card."""
    state = parse_position(
        "rules: standard; phase: playing; p1 row: 3S | 6S | 8S | 9S; p1 draw: KC KD;"
        " piles: 4H | QD; p2 row: 5C | 3D | JD | 2H"
    )
    shown = Table(Game(position(table_view(state)), random.Random(0)))
    table = ahead(shown, [Play(0, 0, 0, 1.0)])
    assert str(table.game.top(0)) == "3S" and table.game.state.players[0].row[0] == []
    assert table_view(table.game.state).sides[0].row[0] is None
    assert (0, 0) not in table.game.legal_plays(0)
