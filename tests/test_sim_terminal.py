"""The simulator in a terminal (a pseudo-terminal): Ctrl-C goes to it and its worker
processes alike. The simulator itself, in-process: ``tests/test_sim.py``."""

from __future__ import annotations

import re
import sys

import pytest

from tests.test_sim import in_session
from tests.tty import TtySession


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_every_process_and_prints_the_summary_so_far(jobs: int) -> None:
    """In a terminal, Ctrl-C goes to the simulator and its worker processes alike: no
    traceback from any of them, the summary of the rounds played so far, exit 130, and
    no worker left running."""
    seed = str(700_000 + jobs)
    # 2,000 rounds: the bar moves every 10 (a 200th), long before the last
    argv = [sys.executable, "-m", "stress_tui", "sim", "--games", "2000", "--seed", seed]
    with TtySession([*argv, "--jobs", str(jobs)], rows=30, cols=100) as s:
        s.wait_for(
            lambda: re.search(r"\] [1-9]\d*/2000 rounds", s.text()) is not None, 30, "progress"
        )
        s.send("\x03")
        assert s.wait_exit(15) == 130
        text = s.text()
        log = s.raw_log().decode(errors="replace")
    assert "Traceback" not in log and "KeyboardInterrupt" not in log
    played = re.search(r"interrupted: (\d+) of 2000 rounds played", text)
    assert played, text
    assert re.search(rf"games: +{played.group(1)}\b", text), text
    assert f"seed:        {seed}" in text and "violations:  0" in text
    assert int(played.group(1)) > 0
    assert in_session(s.pid) == [], "worker processes left running"
