"""CPU of an idle network table, host and joiner, beside a bare blessed program, in one run.

    python bench/net_idle.py [--idle 10] [--runs 3]

A host and a joiner on loopback (``stress-tui host`` and ``stress-tui join``, each in its
own 80x24 pty) wait after the round's first flip, nobody pressing a key: all that goes on
is the host's ping about every second and its answer. Beside them, in the same seconds,
the minimal blessed program of the terminal benchmarks (``tests/fixtures/echo_app.py``)
waits for a key. CPU time is read from ``/proc/PID/task/*/schedstat`` (nanoseconds, every
thread) over ``--idle`` seconds; bytes are what each program wrote to its terminal then.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_table import COLS, GAME, ROWS
from bench.latency import BASELINES, echo_ready
from stress_tui.terminal.notices import LATE_SECONDS, MARK_SECONDS
from tests.screen import say_ready
from tests.tty import TtySession


def cpu_ns(pid: int) -> int:
    """CPU time of every thread of ``pid`` so far, in nanoseconds."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            total += int(stat.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
    return total


def one_run(idle: float) -> dict[str, tuple[float, int]]:
    """Each program's share of one core over ``idle`` seconds and the bytes it wrote."""
    data = tempfile.mkdtemp(prefix="stress-net-idle-")
    env: dict[str, str | None] = {"STRESS_TUI_DATA_DIR": data, "STRESS_TUI_NET_SEED": "0"}
    host_args = ["host", "--port", "0", "--bind", "127.0.0.1", "--name", "Host"]
    with TtySession(GAME, args=host_args, rows=ROWS, cols=COLS, env=env) as host:
        host.wait_for(lambda: b"join 127.0.0.1:" in host.log, 10, "the join line")
        found = re.search(rb"join (127\.0\.0\.1:\d+) ([a-z]+(?:-[a-z]+){3})", host.log)
        assert found is not None
        join_args = ["join", found.group(1).decode(), found.group(2).decode(), "--name", "Bo"]
        with (
            TtySession(GAME, args=join_args, rows=ROWS, cols=COLS, env=env) as joiner,
            TtySession(BASELINES["echo"], rows=ROWS, cols=COLS) as echo,
        ):
            sessions = {"host": host, "joiner": joiner, "echo": echo}
            say_ready(joiner)  # the round waits for both players' ready keys
            say_ready(host)
            end = time.monotonic() + 15
            while not ("1 card" in host.text() and "1 card" in joiner.text() and echo_ready(echo)):
                if time.monotonic() > end:
                    raise SystemExit("the table never came up:\n" + joiner.dump())
                for s in sessions.values():
                    s.pump(0.01)
            # The quick pings at connect are over, and the flip's marks on the piles gone.
            settle = time.monotonic() + MARK_SECONDS + LATE_SECONDS + 0.5
            while time.monotonic() < settle:
                for s in sessions.values():
                    s.pump(0.05)
            marks = {name: len(s.log) for name, s in sessions.items()}
            before = {name: cpu_ns(s.pid) for name, s in sessions.items()}
            start = time.monotonic()
            while time.monotonic() - start < idle:
                for s in sessions.values():
                    s.pump(0.1)
            elapsed = time.monotonic() - start
            return {
                name: (
                    (cpu_ns(s.pid) - before[name]) / 1e9 / elapsed,
                    len(s.log) - marks[name],
                )
                for name, s in sessions.items()
            }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0, help="idle seconds (default 10)")
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    args = parser.parse_args(argv)
    print(f"idle network table over {args.idle:g} s, after the first flip, 80x24")
    for run in range(1, args.runs + 1):
        got = one_run(args.idle)
        echo = got["echo"][0]
        parts = []
        for name in ("host", "joiner", "echo"):
            share, written = got[name]
            ratio = f" = {share / echo:.0f}x echo" if name != "echo" and echo > 0 else ""
            parts.append(
                f"{name} {100 * share:.4f}% ({share * args.idle * 1e3:.2f} ms, {written} B){ratio}"
            )
        print(f"  run {run}: " + ";  ".join(parts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
