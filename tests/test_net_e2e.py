"""Real programs in pseudo-terminals over loopback: a host, its joiner, and the connections
beside their match that end only themselves (a wrong code and a third player refused, as
the join command says it; a spectator whose connection breaks as the host writes to it);
and the programs and the spectator made by hand that the other end-to-end network tests
(test_net_e2e_*) start. What each screen shows is what is checked (tests/tty.py reads it
back, tests/nettable.py's helpers wait on it)."""

from __future__ import annotations

import contextlib
import json
import re
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
from tests.nettable import SEED, both_ready, count_over, first_flip, right_pile_size, wait_all
from tests.tty import TtySession

Table = tuple[TtySession, TtySession, str, str]
"""The host's session, the joiner's, the place they meet and the join code."""


def hosting(
    tmp_path: Path,
    *extra: str,
    position: str | None = None,
    waiting: str = "Waiting for a player",
) -> tuple[TtySession, str, str]:
    """The host (``position``: its first round from there, a test hook; ``waiting``: what
    its panel says meanwhile, in its language), and where and with which code to join it."""
    env = {
        "STRESS_TUI_NET_SEED": str(SEED),
        "STRESS_TUI_DATA_DIR": str(tmp_path / "host"),
    }
    if position is not None:
        env["STRESS_TUI_POSITION"] = position
    host = TtySession(
        args=["host", "--port", "0", "--bind", "127.0.0.1", "--name", "Ann", *extra], env=env
    )
    found: list[re.Match[bytes]] = []

    def printed() -> bool:
        match = re.search(rb"join (127\.0\.0\.1:\d+) ([a-z]+-[a-z]+-[a-z]+-[a-z]+)", host.log)
        if match:
            found.append(match)
        return bool(match)

    wait_all(printed, "the join line", host)
    host.wait_text(waiting, timeout=10)
    match = found[0]
    return host, match.group(1).decode(), match.group(2).decode()


def joining(tmp_path: Path, where: str, code: str, *args: str, command: str = "join") -> TtySession:
    env = {"STRESS_TUI_DATA_DIR": str(tmp_path / f"{command}-{time.monotonic_ns()}")}
    return TtySession(args=[command, where, code, *args], env=env)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    yield from started_table(tmp_path)


def started_table(tmp_path: Path) -> Iterator[Table]:
    """A host and its joiner (Bo), both ready, after the round's first flip."""
    host, where, code = hosting(tmp_path)
    joiner = joining(tmp_path, where, code, "--name", "Bo")
    try:
        wait_all(
            lambda: "Bo v Ann" in joiner.row(0) and "Bo v Ann" in host.row(0), "join", host, joiner
        )
        both_ready(host, joiner)
        first_flip(host, joiner)
        yield host, joiner, where, code
    finally:
        joiner.close()
        host.close()


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


def test_a_wrong_code_a_third_player_and_a_broken_spectator_end_only_themselves(
    table: Table, tmp_path: Path
) -> None:
    """Connections beside the match, each ending itself alone while the host's program
    and its match go on: a join with a wrong code and a third player are refused (the join
    command says why and exits 2); then a spectator answers two pings at once and closes:
    each answer makes the host send a ping back, the first to a connection already closed
    (the other end answers with a reset), the second then fails with EPIPE. After all
    three, a pause and its count show on both screens and a card played lands."""
    host, joiner, where, code = table
    words = code.split("-")
    wrong = "-".join(["otter" if words[0] != "otter" else "maple", *words[1:]])
    refused = joining(tmp_path, where, wrong, "--name", "Cy")
    assert refused.wait_exit(timeout=10) == 2
    assert "refused: wrong join code" in refused.log.decode(errors="replace")
    third = joining(tmp_path, where, code, "--name", "Cy")
    assert third.wait_exit(timeout=10) == 2
    assert "the table is full: Bo is playing" in third.log.decode(errors="replace")
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
