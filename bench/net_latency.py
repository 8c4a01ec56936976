"""Key-to-screen time on the joiner's side of a network table, beside the same figure at
one keyboard, in one run.

    python bench/net_latency.py [--n 200]

Both use the position of ``bench/bench_table.py`` (``STRESS_TUI_POSITION``): player 1's key
for their first pile plays the next rank onto the left pile again and again. At one
keyboard that is ``python -m stress_tui`` and the key ``q``; across the network it is
``stress-tui host`` and ``stress-tui join`` on loopback (127.0.0.1, a free port), each in
its own 80x24 pty, and the joiner (player 1, one-player keys) presses ``a``: its key goes
to the host, the host applies it and sends the table back, the joiner draws it. The time
is from writing the key into the joiner's pty until the joiner's screen shows the card.
The two are measured in alternating blocks of ``BLOCK`` keys, each program started afresh
for each block, so that both meet the same machine.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_table import COLS, GAME, ROWS, label, left_top, run_position
from bench.latency import alternate, measure_keys, summarize
from tests.screen import say_ready
from tests.tty import TtySession

BLOCK = 40
"""Keys measured in a row for one setting before the other has its turn."""

WARMUP = 3


def keyboard_block(count: int) -> list[float]:
    """``count`` samples at one keyboard."""
    position, run = run_position()
    env: dict[str, str | None] = {"STRESS_TUI_POSITION": position}
    with TtySession(GAME, rows=ROWS, cols=COLS, env=env) as s:
        s.wait_for(lambda: left_top(s) == "2♠", 10, "the position")
        say_ready(s)  # the round waits for the people at the table
        return measure_keys(
            s,
            lambda _s, _i: "q",
            lambda s, i, _k: left_top(s) == label(run[i]),
            count,
            warmup=WARMUP,
        )


def network_block(count: int) -> list[float]:
    """``count`` samples on the joiner's side over loopback."""
    position, run = run_position()
    data = tempfile.mkdtemp(prefix="stress-net-bench-")
    env: dict[str, str | None] = {"STRESS_TUI_POSITION": position, "STRESS_TUI_DATA_DIR": data}
    host_args = ["host", "--port", "0", "--bind", "127.0.0.1", "--name", "Host"]
    with TtySession(GAME, args=host_args, rows=ROWS, cols=COLS, env=env) as host:
        found: list[re.Match[bytes]] = []

        def printed() -> bool:
            match = re.search(rb"join (127\.0\.0\.1:\d+) ([a-z]+(?:-[a-z]+){3})", host.log)
            if match:
                found.append(match)
            return match is not None

        host.wait_for(printed, 10, "the join line")
        where, code = found[0].group(1).decode(), found[0].group(2).decode()
        join_args = ["join", where, code, "--name", "Joiner"]
        with TtySession(
            GAME, args=join_args, rows=ROWS, cols=COLS, env={"STRESS_TUI_DATA_DIR": data}
        ) as joiner:

            def shown(s: TtySession, i: int) -> bool:
                host.pump()  # keep the host's pty read, or it blocks writing its frames
                return left_top(s) == label(run[i])

            joiner.wait_for(lambda: host.pump() >= 0 and left_top(joiner) == "2♠", 10, "the table")
            say_ready(joiner)  # the round waits for both players' ready keys
            say_ready(host)
            return measure_keys(
                joiner, lambda _s, _i: "a", lambda s, i, _k: shown(s, i), count, warmup=WARMUP
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="samples of each (default 200)")
    args = parser.parse_args(argv)
    _, run = run_position()
    per_round = len(run) - WARMUP - 1
    block = min(BLOCK, per_round)
    keyboard, network = alternate(keyboard_block, network_block, args.n, block)
    one, net = summarize(keyboard), summarize(network)
    print("key to screen (pty + pyte, 80x24), alternating blocks")
    print(f"  one keyboard          {one.format()}")
    print(f"  joiner over loopback  {net.format()}")
    print(
        f"  joiner / one keyboard: median {net.median / one.median:.2f}x, "
        f"p99 {net.p99 / one.p99:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
