"""``stress-tui learn`` for real, in a pseudo-terminal: it starts at its first lesson, and
Ctrl-C gives the terminal back as it was (the lessons themselves: ``test_learn.py``)."""

from __future__ import annotations

import os
from pathlib import Path

from stress_tui.storage.offers import OFFERED
from tests.screen import restored
from tests.tty import TtySession


def test_stress_tui_learn_starts_and_ctrl_c_gives_the_terminal_back(tmp_path: Path) -> None:
    env = {
        "STRESS_TUI_DATA_DIR": str(tmp_path / "data"),
        "STRESS_TUI_CONFIG": str(tmp_path / "none.toml"),
    }
    with TtySession(args=["learn"], env=env) as s:
        s.wait_for(lambda: "press g when you are ready" in s.text(), timeout=10, what="a lesson")
        s.send("\x03")
        s.wait_exit(timeout=10)
        log = s.raw_log()
    assert restored(log)
    assert os.path.isfile(tmp_path / "data" / OFFERED)  # offered no more
