"""The replay viewer, in-process (``tests/pilot.py``): step on and back, faster and slower
while it plays, and ``?`` for its keys. (On a real terminal, left restored:
``tests/test_app_e2e.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stress_tui.core.rules import Rules
from tests.pilot import viewer
from tests.screen import Screenful
from tests.test_replay_cli import play_round


@pytest.fixture
def replay_file(tmp_path: Path) -> Path:
    path, _ = play_round(Rules.for_deck("jass"), 1, tmp_path / "replays")
    return path


def bar(s: Screenful) -> tuple[str, int, int]:
    """The title line's speed and actions shown: ``('x2', 5, 120)``."""
    found = re.search(r"REPLAY\s+x(\S+)\s+(\d+)/(\d+)", s.row(0))
    assert found is not None, s.row(0)
    return found.group(1), int(found.group(2)), int(found.group(3))


@pytest.mark.parametrize(("rows", "cols"), [(16, 60), (24, 80), (48, 160)])
def test_the_viewer_steps_back_changes_speed_and_shows_its_keys(
    replay_file: Path, rows: int, cols: int
) -> None:
    with viewer(replay_file, rows=rows, cols=cols) as s:
        s.wait_text("REPLAY", timeout=10)
        s.send(" ")  # pause
        s.wait_text("PAUSED", timeout=2)
        start = bar(s)[1]
        s.send("...")  # three actions on
        s.wait_for(lambda: bar(s)[1] == start + 3, timeout=2, what="three steps on")
        s.send(",")  # one back
        s.wait_for(lambda: bar(s)[1] == start + 2, timeout=2, what="one step back")
        s.send("\x1b[D")  # Left: one more back
        s.wait_for(lambda: bar(s)[1] == start + 1, timeout=2, what="another step back")
        s.send("++")
        s.wait_for(lambda: bar(s)[0] == "4", timeout=2, what="four times as fast")
        s.send("-")
        s.wait_for(lambda: bar(s)[0] == "2", timeout=2, what="twice as fast")
        s.send("?")
        s.wait_text("Watching a replay", timeout=2)
        for words in ("one action back", "faster", "slower", "leave"):
            assert words in s.text()
        s.send("?")
        s.wait_for(lambda: "Watching a replay" not in s.text(), timeout=2, what="help closed")
        s.send(" ")  # play on, twice as fast: the actions go on by themselves
        shown = bar(s)[1]
        s.wait_for(lambda: bar(s)[1] > shown + 2, timeout=5, what="the replay playing on")
        s.send("q")
        assert s.wait_exit() == 0


def test_speed_changes_while_it_plays_keep_its_place(replay_file: Path) -> None:
    with viewer(replay_file, speed=0.25) as s:
        s.wait_text("REPLAY", timeout=10)
        s.send("+")
        s.wait_for(lambda: bar(s)[0] == "0.5", timeout=2, what="half speed")
        before = bar(s)[1]
        s.send("-")
        s.wait_for(lambda: bar(s)[0] == "0.25", timeout=2, what="a quarter")
        assert bar(s)[1] >= before  # never back: the clock goes on from where it was
        s.send("q")
        assert s.wait_exit() == 0
