"""What arrives at the keyboard costs, in time: how soon a signal ends the program
whatever is arriving, from the moment it is sent into the pseudo-terminal (Ctrl-C) or to
the process (SIGTERM) until the program has ended (its terminal closed), against the
minimal blessed program's Ctrl-C in the same run; and how late a junk answer to a
start-up question makes the first frame, against a normal start in the same run.

    python bench/input_bounds.py [--repeat 5] [--only CASE ...]

The cases take turns, ``--repeat`` times each, so that a load that comes and goes weighs
on all alike:

- ``echo``: the minimal blessed program (``tests/fixtures/echo_app.py``) at its first
  frame, Ctrl-C: the reference;
- ``table``: ``stress-tui --seed 12`` at its table, Ctrl-C;
- ``junk``: the same, started by a terminal whose answer to the background colour goes
  on for 300 kB without its final byte, Ctrl-C at the first frame with the rest of the
  junk still arriving (issue 24, point 5; ``tests/test_input_bounds.py``);
- ``paste``: a table after its first flip, a 1 MB bracketed paste being written, SIGTERM
  1 s in (issue 24, point 4);
- ``sim``: ``stress-tui sim --games 20000 --jobs 1`` at its first progress, Ctrl-C (it
  prints the summary of the rounds played so far first).

For each: the median and the slowest, the median against ``echo``'s, and how many were
answered within half a second (issue 24: "SIGTERM and Ctrl-C are answered within 0.5 s
whatever is arriving"), and the share of all the signals sent (``echo``'s aside) that
were; then the first frame of ``junk`` against ``table``'s, from the start of the process
(issue 24: "the first frame within 1 s of the normal start"). ``bench/table.py`` reads
the ratios and the share.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fuzz import REPO, private_env, wait_table
from bench.latency import BASELINES, echo_ready
from bench.resize_storm import after_first_flip
from tests.test_input_bounds import PASTE, JunkAnswerSession, pump_for, writing
from tests.tty import TtySession

BUDGET = 0.5
"""Seconds within which a signal must be answered."""

GAME = [sys.executable, "-m", "stress_tui", "--seed", "12"]


def ended(s: TtySession, since: float, guard: float = 30.0) -> float:
    """Seconds from ``since`` until the program has closed its terminal, reading its
    screen meanwhile (``guard``: a hang, reported as that many seconds)."""
    while not s.eof:
        if time.monotonic() - since > guard:
            return guard
        s.pump(0.002)
    return time.monotonic() - since


def ctrl_c(s: TtySession) -> float:
    sent = time.monotonic()
    s.send(b"\x03")
    return ended(s, sent)


Taken = tuple[float, float | None]
"""Seconds until the signal was answered, and until the first frame (where measured)."""


def echo(folder: Path) -> Taken:
    with TtySession(BASELINES["echo"]) as s:
        s.wait_for(lambda: echo_ready(s), what="the first frame")
        return ctrl_c(s), None


def table(folder: Path) -> Taken:
    started = time.monotonic()
    with TtySession(GAME, env=private_env(folder), cwd=REPO) as s:
        wait_table(s)
        first = time.monotonic() - started
        return ctrl_c(s), first


def junk(folder: Path) -> Taken:
    started = time.monotonic()
    session = JunkAnswerSession(GAME, env=private_env(folder), cwd=REPO)
    with session as s:
        wait_table(s)
        first = time.monotonic() - started
        assert session.writers, "the background was never asked"
        return ctrl_c(s), first


def paste(folder: Path) -> Taken:
    env = {**private_env(folder), "STRESS_TUI_POSITION": after_first_flip(12)}
    with TtySession(GAME, env=env, cwd=REPO) as s:
        wait_table(s)
        with writing(s, PASTE):
            pump_for(s, 1.0)
            sent = time.monotonic()
            os.kill(s.pid, signal.SIGTERM)
            return ended(s, sent), None


def sim(folder: Path) -> Taken:
    argv = [sys.executable, "-m", "stress_tui", "sim", "--games", "20000", "--jobs", "1"]
    with TtySession(argv, rows=30, cols=100, env=private_env(folder), cwd=REPO) as s:
        s.wait_for(lambda: re.search(r"\] [1-9]\d*/20000", s.text()) is not None, 30, "progress")
        return ctrl_c(s), None


CASES: dict[str, Callable[[Path], Taken]] = {
    "echo": echo,
    "table": table,
    "junk": junk,
    "paste": paste,
    "sim": sim,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="times each case is measured")
    parser.add_argument("--only", nargs="+", choices=sorted(CASES), help="these cases only")
    args = parser.parse_args(argv)
    names = ["echo", *(name for name in CASES if name != "echo" and name in (args.only or CASES))]
    taken: dict[str, list[float]] = {name: [] for name in names}
    firsts: dict[str, list[float]] = {name: [] for name in names}
    print(f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
    for turn in range(args.repeat):
        order = names[turn % len(names) :] + names[: turn % len(names)]
        for name in order:
            with tempfile.TemporaryDirectory() as folder:
                answered, first = CASES[name](Path(folder))
            taken[name].append(answered)
            if first is not None:
                firsts[name].append(first)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    reference = statistics.median(taken["echo"])
    signals = [s for name, seconds in taken.items() if name != "echo" for s in seconds]
    for name, seconds in taken.items():
        median = statistics.median(seconds)
        within = sum(s <= BUDGET for s in seconds)
        print(
            f"{name:6} median {1000 * median:6.0f} ms  slowest {1000 * max(seconds):6.0f} ms  "
            f"{median / reference:5.2f}x echo  within {BUDGET} s: {within} of {len(seconds)}"
        )
    if signals:
        share = 100 * sum(s <= BUDGET for s in signals) / len(signals)
        verdict = "met" if share == 100 else "not met"
        print(f"answered within {BUDGET} s: {share:.1f}% of {len(signals)} (goal: all: {verdict})")
    if firsts.get("junk") and firsts.get("table"):
        normal, behind = statistics.median(firsts["table"]), statistics.median(firsts["junk"])
        verdict = "met" if behind < normal + 1.0 else "not met"
        print(
            f"first frame behind a junk answer: median {1000 * behind:.0f} ms, "
            f"{behind / normal:.2f}x a normal start's ({1000 * normal:.0f} ms) "
            f"(goal: within 1 s of it: {verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
