"""The repository's scripts, where they meet a machine that lacks what they need."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCREENSHOTS = Path(__file__).resolve().parents[1] / "scripts" / "screenshots"


def test_screenshots_says_in_one_line_which_tool_is_missing(tmp_path: Path) -> None:
    for program in ("Xvfb", "xterm", "import"):  # everything but xdotool, doing nothing
        fake = tmp_path / program
        fake.write_text("#!/bin/sh\nexit 0\n")
        fake.chmod(0o755)
    done = subprocess.run(
        [sys.executable, str(SCREENSHOTS), "--out", str(tmp_path / "shots")],
        env={"PATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("screenshots: missing xdotool ("), done.stderr
    assert "apt-get install xdotool" in done.stderr
    assert not (tmp_path / "shots").exists()  # nothing started, nothing written
