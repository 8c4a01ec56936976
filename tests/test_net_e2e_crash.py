"""What once ended a network match for real players, with real programs in
pseudo-terminals over loopback: a spectator whose connection goes at the wrong moment, a
joiner stopped for longer than the host waits in silence, the end of a round on the
joiner's screen (the rematch after a played-out match: test_net_screens, in-process)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stress_tui.core.codec import action_from_json
from stress_tui.core.engine import Game
from stress_tui.core.notation import parse_rules
from stress_tui.net.protocol import VERSION, code_key, encode, nonce, proof
from stress_tui.net.wire import Mirror, OutOfStep, cards_from_json, mirror_state
from tests.nettable import (
    both_ready,
    count_over,
    press_next_move,
    pump_all,
    right_pile_size,
    wait_all,
)
from tests.test_net_e2e import Table, hosting, joining, started_table
from tests.tty import TtySession


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from started_table(tmp_path)


class RawSpectator:
    """A spectator's connection made by hand: the handshake, then whatever the test says.
    It keeps the host's last ``state``, the table as it moved since (``game``), and answers
    pings as it reads (``poll``)."""

    def __init__(self, where: str, code: str) -> None:
        address, port = where.rsplit(":", 1)
        self.sock = socket.create_connection((address, int(port)), timeout=10)
        self.buffer = b""
        self.state: dict[str, Any] | None = None
        """The host's last ``state``."""
        self.states = 0
        """``state`` and ``moved`` messages read so far."""
        self.mirror: Mirror | None = None
        """The table as the host's messages moved it (``None``: none yet, or asked again)."""
        self.send({"t": "hello", "v": VERSION, "app": "stress-tui", "role": "watch"})
        challenge = self.read()
        key = code_key(code, bytes.fromhex(challenge["salt"]))
        mine = nonce()
        self.send(
            {"t": "auth", "nonce": mine, "proof": proof(key, "peer", challenge["nonce"], mine)}
        )
        welcome = self.read()
        assert welcome["t"] == "welcome"
        self.rules = parse_rules(welcome["rules"])
        """The table's rules."""

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall(encode(message))

    def read(self) -> dict[str, Any]:
        """The next message (waiting for it)."""
        while b"\n" not in self.buffer:
            data = self.sock.recv(65536)
            assert data, "the host closed the connection"
            self.buffer += data
        line, self.buffer = self.buffer.split(b"\n", 1)
        return self._note(json.loads(line))

    def poll(self) -> None:
        """Every message there is to read now, without waiting; pings answered."""
        self.sock.setblocking(False)
        try:
            while data := self.sock.recv(65536):
                self.buffer += data
        except BlockingIOError:
            pass
        finally:
            self.sock.setblocking(True)
        *lines, self.buffer = self.buffer.split(b"\n")
        for line in lines:
            message = self._note(json.loads(line))
            if message["t"] == "ping":
                self.send({"t": "pong", "id": message["id"]})

    def _note(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["t"] == "state":
            self.state = message
            self.states += 1
            seen = mirror_state(message["view"], self.rules, message.get("standing"))
            self.mirror = Mirror(seen, message.get("applied", 0))
        elif message["t"] == "moved" and self.mirror is not None:
            self.states += 1
            try:
                for action, shown in zip(message["actions"], message["shown"], strict=True):
                    self.mirror.follow(action_from_json(action), cards_from_json(shown))
            except OutOfStep:
                self.mirror = None
                self.send({"t": "sync"})
        return message

    @property
    def game(self) -> Game | None:
        """The table as the host last showed it."""
        return None if self.mirror is None else self.mirror.game

    def read_until_ping(self, ping_id: int) -> None:
        """Read until the host's ping ``ping_id`` has come."""
        while True:
            message = self.read()
            if message["t"] == "ping" and message["id"] == ping_id:
                return


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
    with contextlib.suppress(BlockingIOError):
        while spectator.sock.recv(65536):  # nothing left unread: the close sends a FIN
            pass
    # Corked, the answers leave with the close: the host reads them once nothing is
    # there to read what it sends back.
    spectator.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
    spectator.sock.sendall(b'{"t": "pong", "id": 0}\n{"t": "pong", "id": 1}\n')
    spectator.sock.close()
    # The match goes on: a pause and its count on both screens, then a card played.
    joiner.send("\x1b")
    wait_all(lambda: "paused by Bo" in host.text() or not host.alive(), "the pause", host, joiner)
    since = len(joiner.log)
    joiner.send("\r")
    wait_all(
        lambda: (
            not host.alive()
            or (
                count_over(joiner, since)
                and "Play goes on" not in host.text()
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


def test_the_end_of_a_round_shows_on_both_screens_at_once(tmp_path: Path) -> None:
    """The joiner's result screen needs the round's seed (its replay is written from it,
    its statistics read from that): the host sends it as the round ends, and the joiner
    shows the result as soon as it has it, not a pause until the host's next word."""
    host, where, code = hosting(tmp_path)
    joiner = joining(tmp_path, where, code, "--name", "Bo")
    try:
        wait_all(lambda: "Bo v Ann" in joiner.row(0), "join", host, joiner)
        watcher = RawSpectator(where, code)
        both_ready(host, joiner)
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
    finally:
        joiner.close()
        host.close()
