"""Bytes a network round costs: what the host sends the joiner and a spectator, by message.

    python bench/net_bytes.py [--rounds 3] [--pace 0.08]

A host and a joiner (``net.host.Host``, ``net.client.Client``) on loopback in one process,
and a spectator, play whole rounds of the standard deck: every ``--pace`` seconds each
player plays its first card that fits (the host its own, the joiner from what its screen
shows), says ready when the piles wait for a flip, and calls stress when it opens, as a
quick person would. Every message the host sends is counted as the bytes of its line, by
the connection it goes to and by its type; the table says what one round costs on
average, and how many messages of each kind it took. The reference, measured in the
same run: the round's actions as its replay stores them (one JSON line each,
``core.codec``), what the round is at the least.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import tempfile
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import os

from stress_tui.core.codec import action_to_json
from stress_tui.core.engine import Phase
from stress_tui.core.lifecycle import Stage
from stress_tui.core.rules import Rules
from stress_tui.net import host as host_module
from stress_tui.net.client import Client
from stress_tui.net.host import Host
from stress_tui.net.protocol import encode
from stress_tui.net.standing import HOST_SEAT, JOINER_SEAT

Count = collections.Counter[tuple[str, str]]


def counting(counts: Count, messages: Count) -> None:
    """Count every message the host sends, by the peer's role and the message's type."""
    real = host_module.Peer.send

    def send(self: host_module.Peer, message: dict[str, Any]) -> bool:
        key = (self.role, str(message["t"]))
        counts[key] += len(encode(message))
        messages[key] += 1
        return real(self, message)

    host_module.Peer.send = send  # type: ignore[method-assign]


async def play_round(host: Host, joiner: Client, pace: float, timeout: float = 600) -> None:
    """Play the round on the table to its end, as two quick people would: every ``pace``
    seconds each plays its first card that fits (the host its own, the joiner from what its
    screen shows), says ready when the piles wait for a flip, calls stress when it opens."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while host.life.stage is not Stage.RESULT and loop.time() < end:
        await asyncio.sleep(pace)
        if host.life.stage is Stage.READY:
            host.ready()
            joiner.ready()
        if host.life.stage is not Stage.PLAYING or host.fair is None or joiner.table is None:
            continue
        for side in (HOST_SEAT, JOINER_SEAT):
            game = host.fair.game if side == HOST_SEAT else joiner.table.game
            act = host.act if side == HOST_SEAT else joiner.act
            if game.phase is Phase.STRESS:
                act("stress")
            elif game.phase is Phase.WAITING_FLIP and not game.state.players[side].ready:
                act("ready")
            elif plays := game.legal_plays(side):
                act("play", *plays[0])
    assert host.life.stage is Stage.RESULT, host.life.stage


async def play(rounds: int, pace: float) -> int:
    """Play ``rounds`` rounds; the bytes of their actions as replays store them."""
    host = Host(Rules(), "Ann", seed=0, record=False)
    _, port = await host.start()
    joiner = Client("127.0.0.1", port, host.code, "Bo", record=False)
    watcher = Client("127.0.0.1", port, host.code, role="watch", record=False)
    await joiner.connect()
    await watcher.connect()
    replay = 0
    for _ in range(rounds):
        await play_round(host, joiner, pace)
        assert host.fair is not None
        replay += sum(len(encode(action_to_json(a))) for a in host.fair.actions())
        host.go_on()
    await joiner.leave()
    await watcher.leave()
    await host.close()
    return replay


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pace", type=float, default=0.08)
    args = parser.parse_args()
    os.environ["STRESS_TUI_DATA_DIR"] = tempfile.mkdtemp(prefix="stress-net-bytes-")
    counts: Count = collections.Counter()
    messages: Count = collections.Counter()
    counting(counts, messages)
    replay = asyncio.run(play(args.rounds, args.pace))
    print(
        f"the rounds' actions as replays store them: {replay / args.rounds / 1024:.1f} KB a round"
    )
    for role, who in (("play", "joiner"), ("watch", "spectator")):
        total = sum(n for (r, _), n in counts.items() if r == role)
        ratio = total / replay
        print(f"{who}: {total / args.rounds / 1024:.1f} KB a round, {ratio:.1f}x the replay's")
        for (r, kind), n in sorted(counts.items(), key=lambda item: -item[1]):
            if r == role:
                each = messages[(r, kind)] / args.rounds
                print(f"  {kind:8} {n / args.rounds / 1024:8.1f} KB  {each:7.0f} messages")


if __name__ == "__main__":
    main()
