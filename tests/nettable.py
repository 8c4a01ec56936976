"""A network table's screens: waiting on several at once, the ready keys, a pile's size
(for any screen: a real program's in a pseudo-terminal, ``tests/tty.py``, or one in this
process); and the table's screens in-process, the host's, the joiner's and a spectator's,
as the ``host``, ``join`` and ``watch`` commands make them (``terminal/netplay.py``:
``NetScreen`` over a ``Host`` and its ``Client``s, on loopback), each on an in-memory
terminal, all on one virtual clock (``tests/pilot.py``)."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from stress_tui.core.engine import Game, Phase
from stress_tui.core.notation import parse_position
from stress_tui.core.rules import Rules
from stress_tui.net.client import Client
from stress_tui.net.host import HOST_SEAT, Host
from stress_tui.net.standing import JOINER_SEAT
from stress_tui.terminal.netplay import NetScreen
from stress_tui.terminal.server import here
from tests.pilot import Pilot, VirtualTimeLoop
from tests.screen import READY_KEY, Screenful

SEED = 0
"""The host's match is dealt from this seed (in a real program, the
``STRESS_TUI_NET_SEED`` hook's): after the first flip the joiner's second card (8S) fits
the right pile's 9D... and the piles show 2H and 9D."""


def pump_all(*sessions: Screenful) -> None:
    for session in sessions:
        session.pump(0.01)


def wait_all(
    check: Callable[[], bool], what: str, *sessions: Screenful, timeout: float = 10.0
) -> None:
    """Pump every session until ``check`` holds (with a deadline)."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            dumps = "\n".join(s.dump() for s in sessions)
            raise AssertionError(f"timed out waiting for {what}\n{dumps}")
        pump_all(*sessions)


PILE_KEYS = ("asdf", "jkl;")
"""A player's keys (the one-player layout, both sides' by default): row pile *i* onto the
left pile, onto the right pile."""


def press_next_move(game: Game, host: Screenful, joiner: Screenful) -> None:
    """The keys of one step of a round played out as ``game`` (the host's table) stands:
    both say ready when the piles wait for a flip, the joiner calls stress, and the joiner
    plays the first card it can, the host one when the joiner cannot."""
    if game.phase is Phase.WAITING_FLIP:
        for screen, side in ((joiner, JOINER_SEAT), (host, HOST_SEAT)):
            if not game.state.players[side].ready:
                screen.send("g")
    elif game.phase is Phase.STRESS:
        joiner.send(" ")
    elif game.phase is Phase.PLAYING:
        for screen, side in ((joiner, JOINER_SEAT), (host, HOST_SEAT)):
            plays = game.legal_plays(side)
            if plays:
                pile, target = plays[0]
                screen.send(PILE_KEYS[target][pile])
                return


def press_ready(session: Screenful, *others: Screenful) -> None:
    """Press the ready key ``session``'s screen asks for, once it asks."""
    found: list[str] = []

    def asked() -> bool:
        match = READY_KEY.search(session.text())
        if match:
            found.append(match.group(1))
        return bool(match)

    wait_all(asked, "the ready key", session, *others)
    session.send(found[0])


def both_ready(host: Screenful, joiner: Screenful) -> None:
    """A network round starts when both players say they are ready: the joiner, then the
    host; both screens then leave the ready notices behind."""
    press_ready(joiner, host)
    wait_all(lambda: "ready: waiting for Ann" in host.text(), "Bo ready", host, joiner)
    press_ready(host, joiner)
    wait_all(
        lambda: (
            not any(
                said in screen.text()
                for said in ("when ready", "not ready yet", "ready: waiting")
                for screen in (host, joiner)
            )
        ),
        "the round started on both screens",
        host,
        joiner,
    )


def first_flip(host: Screenful, joiner: Screenful, what: str = "the first flip") -> None:
    """Wait until both screens show the first flip: the two play piles' sizes."""
    wait_all(lambda: "1 card" in host.text() and "1 card" in joiner.text(), what, host, joiner)


def right_pile_size(session: Screenful) -> str | None:
    found = re.findall(r"(\d+) cards?", session.text())
    return found[-1] if found else None


def count_over(session: Screenful, since: int) -> bool:
    """Whether the count before play goes on has been on ``session``'s screen since its
    log's length was ``since``, and is over there: its keys play. (A screen read between
    two reads of one frame may show neither the pause nor the count, the frame half
    written: its log says whether the count has come.)"""
    return b"Play goes on" in session.raw_log(since) and "Play goes on" not in session.text()


LAST_CARD = (
    "rules: standard; phase: playing; p1 row: 5C | - | - | -; piles: 4H | QD;"
    " p2 row: 9S | 3D | JD | 2C; p2 draw: 7H 8H"
)
"""The joiner's (p1's) last card fits the left pile: one key wins the round."""


async def _at_once(call: Callable[..., Any], *args: Any) -> Any:
    """``asyncio.to_thread`` on the loop itself: on the virtual clock, the loop's clock
    would jump past the handshake's deadline while a thread works out the code's key."""
    return call(*args)


class NetTable:
    """Ann's table (``stress-tui host``) and the ends that reach it."""

    def __init__(self, loop: VirtualTimeLoop, host: Host) -> None:
        self.loop = loop
        self.host = host
        self.screen = Pilot(
            lambda endpoint: NetScreen(
                endpoint,
                here(names=("Ann", "Ann")),
                model=host,
                seat=HOST_SEAT,
                join_line=f"stress-tui join 127.0.0.1:{host.port} {host.code}",
            ),
            loop=loop,
        )
        """The host's screen."""
        self.ends: list[tuple[Pilot, Client]] = []
        """Each joiner's or spectator's screen and connection, in the order they came."""

    def join(self, name: str = "Bo", role: str = "play") -> Pilot:
        """``stress-tui join`` (or ``watch``, ``role``): reach the table, then its screen."""
        client = Client("127.0.0.1", self.host.port, self.host.code, name, role=role)
        self.loop.run_until_complete(client.connect())
        screen = Pilot(
            lambda endpoint: NetScreen(
                endpoint, here(names=(name, name)), model=client, seat=client.seat
            ),
            loop=self.loop,
        )
        self.ends.append((screen, client))
        return screen

    def client(self, screen: Pilot) -> Client:
        """The connection behind ``screen``."""
        return next(client for shown, client in self.ends if shown is screen)

    def leave(self, screen: Pilot) -> None:
        """What the ``join`` command does once its screen has ended: leave the table."""
        self.loop.run_until_complete(self.client(screen).leave())

    def drop(self, screen: Pilot) -> None:
        """That end's machine goes away: its connection cut, its screen gone, no word."""
        client = self.client(screen)
        assert client.writer is not None
        client.writer.transport.abort()
        screen.close()

    def close(self) -> None:
        for screen, client in reversed(self.ends):
            screen.close()
            self.loop.run_until_complete(client.leave())
        self.screen.close()
        self.loop.run_until_complete(self.host.close())
        self.loop.close()


@contextmanager
def net_table(
    monkeypatch: pytest.MonkeyPatch, rules: Rules | None = None, position: str | None = None
) -> Iterator[tuple[NetTable, Pilot]]:
    """Ann's table by ``rules`` (the standard deck's by default), dealt from ``SEED`` (or its
    first round from ``position``, as the ``STRESS_TUI_POSITION`` hook starts it), and Bo's
    screen once Bo has joined."""
    monkeypatch.setattr(asyncio, "to_thread", _at_once)
    loop = VirtualTimeLoop()
    first = None if position is None else Game(parse_position(position), random.Random(0))
    if first is not None:
        rules = first.state.rules
    host = Host(rules or Rules(), "Ann", bind="127.0.0.1", port=0, seed=SEED, first_game=first)
    loop.run_until_complete(host.start())
    table = NetTable(loop, host)
    try:
        table.screen.wait_text("Waiting for a player", timeout=10)
        joiner = table.join()
        wait_all(
            lambda: "Bo v Ann" in joiner.row(0) and "Bo v Ann" in table.screen.row(0),
            "join",
            table.screen,
            joiner,
        )
        yield table, joiner
    finally:
        table.close()
