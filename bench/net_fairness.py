"""Fair races across a network: how often the earlier press wins, with and without the
host's delay compensation, and what a joiner that lies about its delay wins.

A host and a joiner run on loopback in one process; the joiner reaches the host through
``DelayProxy``, which holds every byte for a one-way delay plus jitter (each direction in
order). For each race the host sets a position where both players' first card fits the
left pile (the joiner's 3 and the host's 5 on a 4), then both press at known times, the
offset between them drawn from ``OFFSETS``; when both presses are in, the card on the pile
says who won. A race is "won by N ms" when one press came N ms before the other.

    python bench/net_fairness.py [--trials 40] [--delays 0,30,80,150] [--jitter 10]

prints, for each delay, the share of races won by the earlier press, for the races won by
40 ms or more and for all, with compensation (the host dates the joiner's actions at their
arrival less half the smallest round trip, no more than the kernel's estimate of the path
allows, at most 150 ms) and without (dated on arrival); and the share of races a cheating
joiner (``LateClient``: it answers every ping ``LIE`` late) wins that it pressed 30 ms or
more after the host. The host's kernel sees the proxy on loopback, not the delayed path,
so the host is given the path's smallest round trip as its kernel would measure it
(``proxy.min_rtt``); bench/net_paths.py runs the same races through real network stacks.
Goals: 95% or more of the races won by 40 ms or more, at every delay up to 150 ms; 10% or
less of the cheater's races pressed 30 ms or more late.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `stress_tui` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stress_tui.core.engine import Game
from stress_tui.core.events import Event
from stress_tui.core.lifecycle import Stage
from stress_tui.core.notation import parse_position
from stress_tui.core.rules import Rules
from stress_tui.net.client import Client
from stress_tui.net.host import Host
from stress_tui.net.pathrtt import writer_rtt

RACE = """
    rules: standard
    phase: playing
    p1 row: 3S | 6S | 8S | -
    piles: 4H | QD
    p2 row: 5C | 3D | JD | -
"""
"""The joiner (p1) and the host (p2) can each put their first card on the 4."""

OFFSETS = (-0.1, -0.06, -0.04, -0.02, -0.01, 0.01, 0.02, 0.04, 0.06, 0.1)
"""Seconds the host presses after the joiner (negative: before)."""

CLEAR = 0.04
"""A race won by this much or more must go to the earlier press (the goal)."""

LIE = 0.3
"""Seconds a cheating joiner holds each ping before it answers."""

CHEAT_OFFSETS = (-0.1, -0.06, -0.04, -0.03)
"""Seconds the host presses after a cheating joiner: always before it."""

CHEAT_CLEAR = 0.03
"""A cheater's race pressed this much later or more must go to the host (the goal)."""


class LateClient(Client):
    """A joiner that answers every ping ``lie`` seconds late, so that its line looks
    slower than it is and its keys would be dated further back."""

    lie = LIE

    def _on_message(self, message: dict[str, object]) -> None:
        if message.get("t") == "ping" and self.loop is not None:
            self.loop.call_later(self.lie, self._send, {"t": "pong", "id": message["id"]})
            return
        super()._on_message(message)


class DelayProxy:
    """Forwards TCP on loopback, holding each chunk for ``delay`` seconds plus a jitter
    drawn from [-jitter, +jitter], never out of order within one direction."""

    def __init__(self, target_port: int, delay: float, jitter: float, seed: int = 0) -> None:
        self.target_port = target_port
        self.delay = delay
        self.jitter = jitter
        self.min_rtt = 2 * max(0.0, delay - jitter)
        """The smallest round trip a kernel at one end of such a path would measure."""
        self.rng = random.Random(seed)
        self.server: asyncio.Server | None = None
        self.port = 0
        self.writers: list[asyncio.StreamWriter] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._pair, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def close(self) -> None:
        for writer in self.writers:
            with contextlib.suppress(Exception):
                writer.transport.abort()
        if self.server is not None:
            self.server.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _pair(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers += [writer, up_writer]
        pipes = [
            asyncio.create_task(self._pipe(reader, up_writer)),
            asyncio.create_task(self._pipe(up_reader, writer)),
        ]
        self.tasks += pipes
        await asyncio.gather(*pipes, return_exceptions=True)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    writer.close()
                    return
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)

        sender = asyncio.create_task(deliver())
        last = 0.0
        try:
            while True:
                try:
                    data = await reader.read(65536)
                except (ConnectionError, OSError):
                    data = b""
                due = max(last, loop.time() + self.delay + self.rng.uniform(-1, 1) * self.jitter)
                last = due
                queue.put_nowait((due, data))
                if not data:
                    break
            await sender
        finally:
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender


@dataclass
class Tally:
    """Races and who won them."""

    clear: int = 0
    clear_won: int = 0
    close: int = 0
    close_won: int = 0

    def add(self, offset: float, earlier_won: bool, clear: float = CLEAR) -> None:
        if abs(offset) >= clear - 1e-9:
            self.clear += 1
            self.clear_won += earlier_won
        else:
            self.close += 1
            self.close_won += earlier_won

    @property
    def clear_share(self) -> float:
        return self.clear_won / self.clear if self.clear else float("nan")

    @property
    def all_share(self) -> float:
        total = self.clear + self.close
        return (self.clear_won + self.close_won) / total if total else float("nan")


async def _until(check: object, timeout: float) -> bool:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():  # type: ignore[operator]
        if loop.time() > end:
            return False
        await asyncio.sleep(0.002)
    return True


async def _both_ready(host: Host, joiner: Client) -> None:
    """A round waits for both players' ready keys (as at one keyboard): both say it, and
    the joiner sees the round under way."""
    await _until(lambda: joiner.stage is Stage.READY and not joiner.holds, 5)
    joiner.ready()
    await _until(lambda: host.life.waiting == (False, True), 5)  # the joiner, seat 0
    host.ready()
    await _until(lambda: joiner.stage is Stage.PLAYING, 5)


async def races(
    delay: float,
    jitter: float,
    offsets: list[float],
    compensate: bool,
    seed: int,
    on_joiner_events: Callable[[list[Event]], None] | None = None,
    cheat: bool = False,
    kernel: bool = True,
    path: Any = None,
    split: tuple[Tally, Tally] | None = None,
) -> Tally:
    """A race for each of ``offsets`` (seconds the host presses after the joiner) through a
    proxy of ``delay`` one way; ``cheat``: the joiner answers pings ``LIE`` late;
    ``kernel``: the host knows the path's smallest round trip (as its kernel does on a
    real path), else it has only the pings; ``path``: the joiner reaches the host that way
    instead (bench/net_paths.py: ``enter_host``, ``open``, ``close``, ``bind`` and
    ``min_rtt``, ``None`` for the kernel's own), ``delay`` then only how long to wait for
    an answer; ``split``: the races the joiner, then the host pressed first, tallied
    apart too."""
    proxy: Any = None

    def path_rtt(writer: asyncio.StreamWriter) -> float | None:
        if not kernel or proxy is None:
            return None
        smallest: float | None = proxy.min_rtt
        if smallest is None:
            return writer_rtt(writer)
        return max(smallest, writer_rtt(writer) or 0.0)

    if path is not None:
        path.enter_host()

    host = Host(
        Rules(),
        "Host",
        record=False,
        seed=seed,
        max_delay=0.15 if compensate else 0.0,
        path_rtt=path_rtt,
        bind="127.0.0.1" if path is None else path.bind,
    )
    _, port = await host.start()
    if path is None:
        proxy = DelayProxy(port, delay, jitter, seed)
        address, proxy_port = "127.0.0.1", await proxy.start()
    else:
        proxy = path
        address, proxy_port = await path.open(port)
    joiner = (LateClient if cheat else Client)(
        address, proxy_port, host.code, "Joiner", record=False, on_change=on_joiner_events
    )
    await joiner.connect()
    loop = asyncio.get_running_loop()
    # Let the host measure the delay (its quick pings, then one a second).
    await _until(
        lambda: host.joiner is not None and len(host.joiner.rtts) >= 5,
        10 + 10 * delay + (10 * LIE if cheat else 0),
    )
    tally = Tally()
    position = textwrap.dedent(RACE)
    try:
        for offset in offsets:
            round_number = host.round_number + 1
            host.set_round(Game(parse_position(position), random.Random(0)))
            await _until(lambda n=round_number: joiner.round_number == n, 5)
            await _both_ready(host, joiner)
            start = loop.time() + 0.05 + max(0.0, -offset)
            loop.call_at(start, joiner.act, "play", 0, 0)
            loop.call_at(start + offset, host.act, "play", 0, 0)
            # Both presses in, the host past any rebuild (the joiner's arrives after its
            # delay and jitter) and the joiner told (as long again).
            await asyncio.sleep(max(0.0, start + max(0.0, offset) - loop.time()))
            await asyncio.sleep(2 * (delay + jitter) + 0.05)
            assert host.fair is not None
            top = str(host.fair.game.top(0))
            joiner_won = top == "3S"
            if top not in ("3S", "5C"):
                continue  # neither went through (should not happen)
            joiner_earlier = offset > 0
            tally.add(offset, joiner_won == joiner_earlier, CHEAT_CLEAR if cheat else CLEAR)
            if split is not None:
                split[0 if joiner_earlier else 1].add(offset, joiner_won == joiner_earlier)
    finally:
        await joiner.leave()
        await host.close()
        await proxy.close()
    return tally


def _cheats(tally: Tally) -> str:
    """The share of a cheater's races pressed late that it won."""
    won = tally.clear - tally.clear_won
    return f"{won / tally.clear:.0%} ({won}/{tally.clear})" if tally.clear else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=40, help="races per delay and mode")
    parser.add_argument("--delays", default="0,30,80,150", help="one-way delays in ms")
    parser.add_argument("--jitter", type=float, default=10.0, help="jitter in ms (+-)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    delays = [float(d) / 1e3 for d in args.delays.split(",")]
    jitter = args.jitter / 1e3
    print(f"races per row: {args.trials}; offsets (ms): {[int(o * 1e3) for o in OFFSETS]}")
    print(f"jitter: +-{args.jitter:g} ms; 'won by >= 40 ms': races the earlier press won by that")
    print()
    print(
        "| one-way delay | compensated: >= 40 ms | compensated: all | on arrival: >= 40 ms "
        "| on arrival: all | cheater, kernel's bound: won pressed >= 30 ms late "
        "| cheater, pings only |"
    )
    print("|---|---|---|---|---|---|---|")
    rng = random.Random(args.seed)
    for delay in delays:
        offsets = [rng.choice(OFFSETS) for _ in range(args.trials)]
        late = [rng.choice(CHEAT_OFFSETS) for _ in range(args.trials)]
        fair = asyncio.run(races(delay, jitter, offsets, True, args.seed))
        raw = asyncio.run(races(delay, jitter, offsets, False, args.seed))
        bound = asyncio.run(races(delay, jitter, late, True, args.seed, cheat=True))
        pings = asyncio.run(races(delay, jitter, late, True, args.seed, cheat=True, kernel=False))
        print(
            f"| {delay * 1e3:.0f} ms | {fair.clear_share:.0%} ({fair.clear_won}/{fair.clear}) "
            f"| {fair.all_share:.0%} | {raw.clear_share:.0%} ({raw.clear_won}/{raw.clear}) "
            f"| {raw.all_share:.0%} | {_cheats(bound)} | {_cheats(pings)} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
