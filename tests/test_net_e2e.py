"""Two (and three) real programs in pseudo-terminals over loopback: a host, a joiner, a
spectator. What each screen shows is what is checked (tests/tty.py reads it back)."""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.screen import READY_KEY, Screenful
from tests.tty import TtySession

Table = tuple[TtySession, TtySession, str, str]
"""The host's session, the joiner's, the place they meet and the join code."""

SEED = "0"
"""The host's match is dealt from this seed (a test hook): after the first flip the
joiner's second card (8S) fits the right pile's 9D... and the piles show 2H and 9D."""


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


def hosting(
    tmp_path: Path,
    *extra: str,
    position: str | None = None,
    waiting: str = "Waiting for a player",
) -> tuple[TtySession, str, str]:
    """The host (``position``: its first round from there, a test hook; ``waiting``: what
    its panel says meanwhile, in its language), and where and with which code to join it."""
    env = {
        "STRESS_TUI_NET_SEED": SEED,
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


def right_pile_size(session: Screenful) -> str | None:
    found = re.findall(r"(\d+) cards?", session.text())
    return found[-1] if found else None


def test_a_card_played_on_one_side_lands_on_both_screens(table: Table) -> None:
    host, joiner, _, _ = table
    assert "joined" in joiner.row(0) and "hosting" in host.row(0)
    assert "delay" in joiner.row(0) and "delay" in host.row(0)
    # Each sees their own row at the bottom: Bo's name is at the bottom of Bo's screen.
    assert any("Bo" in joiner.row(y) for y in range(joiner.rows - 8, joiner.rows))
    assert any("Ann" in host.row(y) for y in range(host.rows - 8, host.rows))
    joiner.send("k")  # the joiner's second pile onto the right pile (one-player keys)
    wait_all(
        lambda: right_pile_size(host) == "2" and right_pile_size(joiner) == "2",
        "the card on both screens",
        host,
        joiner,
    )


def test_a_spectator_sees_both_players_plays(table: Table, tmp_path: Path) -> None:
    host, joiner, where, code = table
    watcher = joining(tmp_path, where, code, command="watch")
    try:
        wait_all(lambda: "watching" in watcher.row(0), "the spectator's table", watcher, host)
        wait_all(lambda: right_pile_size(watcher) == "1", "the piles", watcher, host, joiner)
        joiner.send("k")
        wait_all(
            lambda: right_pile_size(watcher) == "2", "the joiner's card", watcher, host, joiner
        )
        watcher.send("k")  # a spectator's key plays nothing
        pump_all(host, joiner, watcher)
        assert right_pile_size(host) == "2"
    finally:
        watcher.close()


def test_a_dropped_connection_pauses_and_a_rejoin_resumes(table: Table, tmp_path: Path) -> None:
    host, joiner, where, code = table
    joiner.child.kill(signal.SIGKILL)  # the joiner's machine goes away
    wait_all(lambda: "waiting for Bo to come back" in host.text(), "the drop", host)
    again = joining(tmp_path, where, code, "--name", "Bo")
    try:
        wait_all(lambda: "Play goes on" in host.text(), "the count to go on", host, again)
        # Both sides past the count: a key the joiner sends the instant its own count ends
        # may reach the host a moment before the host's ends, when a loaded machine has
        # inflated the delay's estimate (kept only within EARLY_GRACE; tests/test_net_start.py
        # covers that edge on a clock of its own).
        wait_all(
            lambda: (
                "Play goes on" not in again.text() + host.text() and right_pile_size(again) == "1"
            ),
            "the table again on both screens",
            host,
            again,
        )
        again.send("k")
        wait_all(lambda: right_pile_size(host) == "2", "a play after the rejoin", host, again)
    finally:
        again.close()


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


def test_quitting_says_who_left(table: Table) -> None:
    host, joiner, _, _ = table
    joiner.send("\x1b")
    wait_all(lambda: "paused by Bo" in joiner.text(), "the pause", host, joiner)
    joiner.send("q")
    assert joiner.wait_exit(timeout=10) == 0
    wait_all(lambda: "Bo left" in host.text(), "the host to hear", host)
    host.send("q")
    assert host.wait_exit(timeout=10) == 0


LAST_CARD = (
    "rules: standard; phase: playing; p1 row: 5C | - | - | -; piles: 4H | QD;"
    " p2 row: 9S | 3D | JD | 2C; p2 draw: 7H 8H"
)
"""The joiner's (p1's) last card fits the left pile: one key wins the round."""


def test_the_result_shows_on_both_screens_and_either_deals_the_next_round(
    tmp_path: Path,
) -> None:
    host, where, code = hosting(tmp_path, position=LAST_CARD)
    try:
        joiner = joining(tmp_path, where, code, "--name", "Bo")
        try:
            wait_all(lambda: "5♣" in joiner.text(), "the position", host, joiner)
            both_ready(host, joiner)
            joiner.send("a")  # the last card onto the left pile
            wait_all(
                lambda: "Bo wins" in host.text() and "Bo wins" in joiner.text(),
                "the result on both screens",
                host,
                joiner,
            )
            # The result screen takes keys a moment after it opens, and then says so.
            wait_all(lambda: "q: quit" in host.text(), "the result's keys", host, joiner)
            host.send("\r")
            wait_all(lambda: "wins 1/3" in host.text(), "the next round dealt", host, joiner)
            both_ready(host, joiner)  # every round waits for both players
            wait_all(
                lambda: "wins 1/3" in host.text() and "draw 21" in joiner.text(),
                "the next round, dealt on both screens",
                host,
                joiner,
            )
        finally:
            joiner.close()
    finally:
        host.close()
