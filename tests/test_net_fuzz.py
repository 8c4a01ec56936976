"""Random and malformed messages thrown at a host: it keeps its game and its memory bounded.

The short run is part of every test run; ``-m slow`` runs the long one. Everything stays on
loopback, every attack is bounded in count and in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import socket
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from stress_tui.core.engine import Phase
from stress_tui.core.lifecycle import Stage
from stress_tui.core.rules import Rules
from stress_tui.net import door as door_module
from stress_tui.net import host as host_module
from stress_tui.net.client import Client
from stress_tui.net.door import MAX_PENDING
from stress_tui.net.host import Host
from stress_tui.net.protocol import MAX_PEER_LINE, VERSION, code_key, encode, nonce, proof
from tests.test_net import seated

SEED = 0


def _junk(rng: random.Random) -> bytes:
    """One line an attacker might send."""
    kinds: list[Callable[[], bytes]] = [
        lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))) + b"\n",
        lambda: b"{" * rng.randrange(1, 5000) + b"\n",
        lambda: b"x" * (MAX_PEER_LINE + rng.randrange(1, 5000)),
        lambda: json.dumps(rng.choice([1, "s", None, [], {"t": 5}, {"t": "act"}])).encode() + b"\n",
        lambda: encode(
            {
                "t": "hello",
                "v": rng.choice([VERSION, VERSION + 1, "1", None, [1]]),
                "app": rng.choice(["stress-tui", "x", 7]),
                "role": rng.choice(["play", "watch", "host", 0]),
                "name": rng.choice(["Cy", "", "\x1b[31m", "x" * 40, 5]),
            }
        ),
        lambda: encode({"t": "auth", "nonce": "0" * 32, "proof": "0" * 64}),
        lambda: encode({"t": "act", "a": "play", "seq": 1, "pile": 99, "to": 5}),
        lambda: b'{"t": "pong", "id": 1e400}\n',
        lambda: b"\n",
    ]
    return rng.choice(kinds)()


async def _attack(port: int, rng: random.Random, deadline: float) -> None:
    """One hostile connection: a few lines, sometimes a valid hello first, then it either
    reads the answer, stops reading, or hangs up at once."""
    loop = asyncio.get_running_loop()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2)
    except (OSError, asyncio.TimeoutError):
        return
    try:
        if rng.random() < 0.3:
            writer.write(
                encode(
                    {"t": "hello", "v": VERSION, "app": "stress-tui", "role": "play", "name": "Eve"}
                )
            )
        for _ in range(rng.randrange(1, 6)):
            writer.write(_junk(rng))
        mode = rng.random()
        if mode < 0.5:
            with contextlib.suppress(Exception):
                remaining = max(0.01, min(1.0, deadline - loop.time()))
                await asyncio.wait_for(reader.read(65536), remaining)
        elif mode < 0.8:
            await asyncio.sleep(min(0.3, max(0.0, deadline - loop.time())))  # not reading
    except (OSError, ConnectionError):
        pass
    finally:
        writer.transport.abort()


async def _fuzz(attacks: int, attackers: int, seconds: float) -> dict[str, Any]:
    """About ``attacks`` hostile connections, at most ``attackers`` at once, for at most
    ``seconds``, while the host plays."""
    rng = random.Random(SEED)
    host = Host(Rules(), "Ann", countdown=0.05, record=False, seed=SEED)
    joiner = await seated(host, record=False)
    port = host.port
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while host.fair is None or host.fair.game.phase is Phase.WAITING_FLIP:
        await asyncio.sleep(0.01)
    gc.collect()
    tracemalloc.start()
    start_memory = tracemalloc.get_traced_memory()[0]
    peak_connections = 0
    launched = 0
    plays = 0
    while launched < attacks and loop.time() < deadline:
        batch = [_attack(port, rng, deadline) for _ in range(rng.randrange(1, attackers + 1))]
        launched += len(batch)
        await asyncio.gather(*batch)
        peak_connections = max(peak_connections, len(host.door.connections))
        assert host.fair is not None
        legal = host.fair.game.legal_plays(1)
        if legal:
            host.act("play", *legal[0])
            plays += 1
        else:
            host.act("ready")
    # Every attacker has hung up: the host lets go of each within a moment.
    settle = loop.time() + 5
    while (host.door.pending or len(host.door.connections) > 1) and loop.time() < settle:
        await asyncio.sleep(0.01)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - start_memory
    tracemalloc.stop()
    facts = {
        "stage": host.life.stage,
        "joiner": host.joiner is not None and host.joiner.name,
        "pending": host.door.pending,
        "connections": len(host.door.connections),
        "watchers": len(host.watchers),
        "launched": launched,
        "plays": plays,
        "grown": grown,
        "refusals": len(host.door.refusals),
        "joiner_stage": joiner.stage,
    }
    await host.close()
    return facts


def _check(facts: dict[str, Any]) -> None:
    assert facts["stage"] in (Stage.PLAYING, Stage.RESULT), facts
    assert facts["joiner"] == "Bo", facts  # the real joiner kept the seat throughout
    assert facts["joiner_stage"] in (Stage.PLAYING, Stage.RESULT), facts
    assert facts["pending"] == 0 and facts["watchers"] == 0, facts
    assert facts["connections"] == 1, facts  # only the joiner is left
    assert facts["grown"] < 2_000_000, facts


def test_a_short_fuzz_leaves_the_host_playing_with_its_joiner() -> None:
    facts = asyncio.run(asyncio.wait_for(_fuzz(attacks=40, attackers=6, seconds=20), 40))
    _check(facts)
    assert facts["launched"] >= 40


@pytest.mark.slow
def test_a_long_fuzz_leaves_the_host_playing_with_its_joiner() -> None:
    facts = asyncio.run(
        asyncio.wait_for(_fuzz(attacks=4000, attackers=MAX_PENDING * 2, seconds=60), 200)
    )
    _check(facts)
    assert facts["launched"] >= 500


def test_a_connection_that_never_says_hello_is_refused_after_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(door_module, "HANDSHAKE_SECONDS", 0.2)

    async def test() -> None:
        host = Host(Rules(), "Ann", record=False)
        _, port = await host.start()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        line = await asyncio.wait_for(reader.readline(), 3)
        assert json.loads(line) == {"t": "refused", "reason": "too slow to say hello"}
        writer.close()
        assert host.door.pending == 0
        await host.close()

    asyncio.run(asyncio.wait_for(test(), 10))


def test_too_many_handshakes_at_once_are_turned_away() -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", record=False)
        _, port = await host.start()
        idle = [
            await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(f"127.0.0.{2 + i // 2}", 0)
            )
            for i in range(MAX_PENDING)
        ]  # two from each of four addresses
        loop = asyncio.get_running_loop()
        end = loop.time() + 3
        while host.door.pending < MAX_PENDING and loop.time() < end:
            await asyncio.sleep(0.01)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        line = await asyncio.wait_for(reader.readline(), 3)
        assert json.loads(line)["reason"] == "busy: too many connections at once"
        for _, w in [*idle, (reader, writer)]:
            w.close()
        await host.close()

    asyncio.run(asyncio.wait_for(test(), 10))


async def _spectator_that_never_reads(port: int, code: str) -> socket.socket:
    """A spectator that proves the code, then reads nothing more, on a socket with a tiny
    receive buffer (set before it connects, so the kernel cannot take up the slack)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_connect(sock, ("127.0.0.1", port))
    await loop.sock_sendall(
        sock, encode({"t": "hello", "v": VERSION, "app": "stress-tui", "role": "watch"})
    )
    data = b""
    while not data.endswith(b"\n"):
        data += await loop.sock_recv(sock, 4096)
    challenge = json.loads(data)
    key = code_key(code, bytes.fromhex(challenge["salt"]))
    mine = nonce()
    await loop.sock_sendall(
        sock,
        encode({"t": "auth", "nonce": mine, "proof": proof(key, "peer", challenge["nonce"], mine)}),
    )
    return sock


def test_a_spectator_that_stops_reading_is_let_go(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_module, "MAX_WRITE_BUFFER", 64 * 1024)

    async def test() -> None:
        host = Host(Rules(), "Ann", countdown=0.05, record=False, seed=SEED)
        # Held for the whole test: a client nothing refers to is a task the garbage
        # collector may take, and then the joiner leaves the host.
        joiner = await seated(host, record=False)
        port = host.port
        sock = await _spectator_that_never_reads(port, host.code)
        loop = asyncio.get_running_loop()
        end = loop.time() + 5
        while not host.watchers and loop.time() < end:
            await asyncio.sleep(0.01)
        assert len(host.watchers) == 1
        # The host's kernel keeps no more than a few kB for the spectator (a set send
        # buffer is not grown by the kernel's autotuning, which could take megabytes):
        # what fills is the host's own write buffer, however small each piece of news.
        spectator = host.watchers[0].writer.transport.get_extra_info("socket")
        spectator.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        for _ in range(20_000):
            host._changed([])  # the host has news for everyone, over and over
            if not host.watchers:
                break
            await asyncio.sleep(0)
            # The joiner reads all the while (in this same loop): the host's news waits for
            # it to take what it was sent, so that only the one who never reads falls behind,
            # however busy the machine.
            while host.joiner is not None and host.joiner.writer.transport.get_write_buffer_size():
                await asyncio.sleep(0.001)
        assert host.watchers == []
        assert host.joiner is not None and host.life.stage is Stage.PLAYING
        assert joiner.done is not None and not joiner.done.done()
        sock.close()
        await joiner.leave()
        await host.close()

    asyncio.run(asyncio.wait_for(test(), 60))  # a guard against a hang, not a verdict


def test_a_spectator_that_floods_is_cut_off() -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", countdown=0.05, record=False, seed=SEED)
        _, port = await host.start()
        watcher = Client("127.0.0.1", port, host.code, role="watch", record=False)
        await watcher.connect()
        assert watcher.writer is not None
        watcher.writer.write(b'{"t": "pong", "id": 12345}\n' * 500)
        assert watcher.done is not None
        reason = await asyncio.wait_for(watcher.done, 5)
        assert reason == "too many messages"
        await host.close()

    asyncio.run(asyncio.wait_for(test(), 10))
