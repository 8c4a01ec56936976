"""What once ended a network match for real players, with real programs in
pseudo-terminals over loopback: a spectator whose connection goes at the wrong moment, a
joiner stopped for longer than the host waits in silence, the rematch, the end of a round
on the joiner's screen."""

from __future__ import annotations

import json
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stress_tui.net.protocol import VERSION, code_key, encode, nonce, proof
from tests.test_net_e2e import (
    Table,
    right_pile_size,
    started_table,
    wait_all,
)
from tests.tty import TtySession


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from started_table(tmp_path)


class RawSpectator:
    """A spectator's connection made by hand: the handshake, then whatever the test says,
    one line at a time."""

    def __init__(self, where: str, code: str) -> None:
        address, port = where.rsplit(":", 1)
        self.sock = socket.create_connection((address, int(port)), timeout=10)
        self.lines = self.sock.makefile("rb")
        self.send({"t": "hello", "v": VERSION, "app": "stress-tui", "role": "watch"})
        challenge = self.read()
        key = code_key(code, bytes.fromhex(challenge["salt"]))
        mine = nonce()
        self.send(
            {"t": "auth", "nonce": mine, "proof": proof(key, "peer", challenge["nonce"], mine)}
        )
        assert self.read()["t"] == "welcome"

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall(encode(message))

    def read(self) -> dict[str, Any]:
        line = self.lines.readline()
        assert line, "the host closed the connection"
        message: dict[str, Any] = json.loads(line)
        return message

    def read_until_ping(self, ping_id: int) -> None:
        """Read until the host's ping ``ping_id`` has come."""
        while True:
            message = self.read()
            if message["t"] == "ping" and message["id"] == ping_id:
                return


def test_a_spectator_whose_connection_goes_as_the_host_writes_to_it_ends_only_itself(
    table: Table,
) -> None:
    """The spectator answers two pings at once and closes: each answer makes the host send
    a ping back, the first to a connection already closed (the other end answers with a
    reset), the second then fails with EPIPE. That write ends that connection alone: the
    host's program and its match go on."""
    host, joiner, where, code = table
    spectator = RawSpectator(where, code)
    spectator.read_until_ping(1)  # the host's second ping: two now wait for an answer
    spectator.sock.setblocking(False)
    try:
        while spectator.sock.recv(65536):  # nothing left unread: the close sends a FIN
            pass
    except BlockingIOError:
        pass
    # Corked, the answers leave with the close: the host reads them once nothing is
    # there to read what it sends back.
    spectator.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
    spectator.sock.sendall(b'{"t": "pong", "id": 0}\n{"t": "pong", "id": 1}\n')
    spectator.lines.close()
    spectator.sock.close()
    # The match goes on: a pause and its count on both screens, then a card played.
    joiner.send("\x1b")
    wait_all(lambda: "paused by Bo" in host.text() or not host.alive(), "the pause", host, joiner)
    joiner.send("\r")
    wait_all(
        lambda: (
            not host.alive()
            or (
                "Play goes on" not in joiner.text() + host.text()
                and "paused" not in host.text()
                and right_pile_size(joiner) == "1"
            )
        ),
        "the table again on both screens",
        host,
        joiner,
    )
    joiner.send("k")  # the joiner's second pile onto the right pile
    wait_all(
        lambda: right_pile_size(host) == "2" or not host.alive(),
        "the card on the host's screen",
        host,
        joiner,
    )
    assert host.alive(), f"the host's program ended: {host.exit_code}\n{host.dump()}"
    assert "Traceback" not in host.log.decode(errors="replace")


def stopped_for_longer_than_the_host_waits(host: TtySession, joiner: TtySession) -> None:
    """``kill -STOP`` the joiner until the host takes it for gone, then ``kill -CONT``."""
    os.kill(joiner.pid, signal.SIGSTOP)
    try:
        wait_all(lambda: "waiting for Bo to come back" in host.text(), "the drop", host, timeout=20)
    finally:
        os.kill(joiner.pid, signal.SIGCONT)


def test_a_joiner_stopped_past_the_hosts_patience_comes_back_to_the_match(
    table: Table,
) -> None:
    """A stopped joiner is a slow connection, not a departure: the host pauses and waits for
    it as for a dropped one, and the joiner, once it runs again, finds its connection ended
    and reaches the host again; both play on."""
    host, joiner, _, _ = table
    stopped_for_longer_than_the_host_waits(host, joiner)
    wait_all(
        lambda: not joiner.alive() or "Play goes on in" in host.text(),
        "the count to go on",
        host,
        joiner,
        timeout=20,
    )
    assert joiner.alive(), f"the joiner's program ended: {joiner.exit_code}\n{joiner.dump()}"
    wait_all(
        lambda: (
            "Play goes on in" not in joiner.text() + host.text() and right_pile_size(joiner) == "1"
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
