"""A joiner stopped with Ctrl-Z at a network table, a real program in a pseudo-terminal
(its job shell's, to be brought back as ``fg`` does) over loopback: the match pauses for
both, and after ``fg`` both screens count before play goes on. The fair start and the
other pauses, as both screens show them, are test_net_start_screens' (in-process)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from tests.nettable import both_ready, right_pile_size, wait_all
from tests.test_net_e2e import hosting
from tests.test_net_start_screens import count_on_both
from tests.tty import JOB_SHELL, TtySession, job_pid


def test_a_joiner_back_from_ctrl_z_finds_the_table_paused_for_both(tmp_path: Path) -> None:
    """Ctrl-Z pauses the match for both; ``fg`` comes back to that pause (as at one
    keyboard), not to play: either player's Enter goes on, with the count on both."""
    host, where, code = hosting(tmp_path)
    pid_file = tmp_path / "pid"
    env = {"STRESS_TUI_DATA_DIR": str(tmp_path / "joiner"), "JOBSHELL_PID_FILE": str(pid_file)}
    joiner = TtySession(
        [*JOB_SHELL, sys.executable, "-m", "stress_tui"],
        args=["join", where, code, "--name", "Bo"],
        env=env,
    )
    try:
        pid = job_pid(pid_file)
        both_ready(host, joiner)
        wait_all(lambda: "1 card" in joiner.text(), "the first flip", host, joiner)
        mark = len(joiner.log)
        joiner.send("\x1a")  # Ctrl-Z: the joiner's program stops
        wait_all(
            lambda: "paused: Bo cannot see the table" in host.text(),
            "the pause on the host's screen",
            host,
        )
        wait_all(lambda: b"\x1b[?1049l" in joiner.raw_log(mark), "the screen left", joiner)
        mark = len(joiner.log)
        os.kill(pid, signal.SIGCONT)  # what fg does
        wait_all(lambda: b"\x1b[?1049h" in joiner.raw_log(mark), "the screen again", joiner)
        wait_all(
            lambda: (
                "paused by Bo: Enter goes on" in joiner.text() and "paused by Bo" in host.text()
            ),
            "the pause still on both screens",
            host,
            joiner,
        )
        joiner.send("\r")
        count_on_both(host, joiner)
        joiner.send("k")
        wait_all(lambda: right_pile_size(host) == "2", "a play after fg", host, joiner)
    finally:
        joiner.close()
        host.close()
