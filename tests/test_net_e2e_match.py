"""More of a network match with real programs in pseudo-terminals over loopback: the
host's program dying as the joiner sees it, a player's own keys at a network table (the
rematch after a won match is in test_net_e2e_crash)."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from stress_tui.storage import replay as replays
from stress_tui.storage.files import StorageError
from tests.nettable import both_ready, count_over, right_pile_size, wait_all
from tests.test_net_e2e import hosting, joining

pytestmark = pytest.mark.pty
"""Its programs run in pseudo-terminals through tests/test_net_e2e.py's helpers, which
tests/conftest.py's look at what a module imports does not see as the harness."""


def test_a_joiner_plays_with_keys_of_its_own_then_the_host_dying_is_trouble_never_a_freeze(
    tmp_path: Path,
) -> None:
    """One host and one joiner (Bo, with keys of his own), where each part started its
    own pair: Bo's own key plays (the one-player layout's does not), his help names his
    keys; then, the round going on again, the host's program dies: trouble on Bo's screen,
    never a freeze, and what was played kept, sealed."""
    keys = tmp_path / "keys.toml"
    keys.write_text(KEYS)
    host, where, code = hosting(tmp_path)
    joiner = joining(tmp_path, where, code, "--name", "Bo", "--keys", str(keys))
    try:
        both_ready(host, joiner)
        wait_all(lambda: "1 card" in joiner.text(), "the first flip", host, joiner)
        joiner.send("k")  # the one-player layout's key is not Bo's any more
        joiner.send("6")  # Bo's own: the second pile onto the right pile
        wait_all(
            lambda: right_pile_size(host) == "2" and right_pile_size(joiner) == "2",
            "the card on both screens",
            host,
            joiner,
        )
        assert right_pile_size(host) == "2"  # one card, not two
        # The screen shows our card before the host answers (our plays are predicted); the
        # joiner's sealed file holds it once the host has applied it.
        wait_all(lambda: kept_actions(tmp_path) >= 2, "the host's answer kept", host, joiner)
        joiner.send("?")  # the help names Bo's own keys, and where Ann plays from
        wait_all(lambda: "(bottom row)" in joiner.text(), "the help", host, joiner)
        assert "Ann (top row): plays from the other terminal" in joiner.text()
        assert "onto the right pile: 5 6 7 8" in joiner.text()
        assert "the computer" not in joiner.text()
        mark = len(joiner.log)
        joiner.send("?")  # back to the round, after the count on both screens
        wait_all(lambda: count_over(joiner, mark), "the round going on", host, joiner)

        host.child.kill(signal.SIGKILL)  # the host's program dies: nothing said
        wait_all(
            lambda: "the connection to the host was lost: trying again" in joiner.text(),
            "the trouble shown",
            joiner,
        )
        assert "delay ..." in joiner.row(0)  # no line, no delay to show
        # The seconds go down: the screen is alive, not frozen.
        first = re.search(r"trying again, (\d+) s", joiner.text())
        assert first is not None
        wait_all(
            lambda: (
                (now := re.search(r"trying again, (\d+) s", joiner.text())) is not None
                and int(now.group(1)) < int(first.group(1))
            ),
            "the seconds counting down",
            joiner,
        )
        # Giving up ends the program at once, not when the minute of trying is over (the
        # countdown above began near 60 s; the wait is a guard, not a measure).
        joiner.send("q")
        assert joiner.wait_exit(timeout=10) == 0
        # What was played stays, sealed: the host never said the seed.
        parts = list(tmp_path.glob("join-*/replays/*.jsonl.part"))
        assert len(parts) == 1
        kept = replays.load(parts[0])
        assert kept.sealed and len(kept.actions) >= 2  # the first flip and Bo's card
    finally:
        joiner.close()
        host.close()


def kept_actions(tmp_path: Path) -> int:
    """How many actions the joiner's sealed replay holds so far (0: none yet)."""
    parts = list(tmp_path.glob("join-*/replays/*.jsonl.part"))
    if len(parts) != 1:
        return 0
    try:
        return len(replays.load(parts[0]).actions)
    except StorageError:  # not there yet, or being written
        return 0


KEYS = """
[keys.p1]
left1 = "1"
left2 = "2"
left3 = "3"
left4 = "4"
right1 = "5"
right2 = "6"
right3 = "7"
right4 = "8"
stress = "space"
ready = "9"
stop = "0"
"""
