"""Real programs in pseudo-terminals over loopback: a host, its joiner, and those it
refuses (a wrong code, a third player), as the join command says it; and the programs
the other end-to-end network tests (test_net_e2e_*) start. What each screen shows is
what is checked (tests/tty.py reads it back, tests/nettable.py's helpers wait on it)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.nettable import SEED, both_ready, first_flip, right_pile_size, wait_all
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


def test_a_wrong_code_and_a_third_player_are_refused_and_the_host_plays_on(
    table: Table, tmp_path: Path
) -> None:
    host, joiner, where, code = table
    words = code.split("-")
    wrong = "-".join(["otter" if words[0] != "otter" else "maple", *words[1:]])
    refused = joining(tmp_path, where, wrong, "--name", "Cy")
    assert refused.wait_exit(timeout=10) == 2
    assert "refused: wrong join code" in refused.log.decode(errors="replace")
    third = joining(tmp_path, where, code, "--name", "Cy")
    assert third.wait_exit(timeout=10) == 2
    assert "the table is full: Bo is playing" in third.log.decode(errors="replace")
    host.send("s")  # the host plays on: its second pile (the jack) ...
    joiner.send("k")
    wait_all(lambda: right_pile_size(host) == "2", "the game going on", host, joiner)
