"""Remake the table of today's figures in docs/performance.md.

    python bench/table.py [--full] [--runs N] [--only BENCH ...] [--dry-run]

Runs each bench below ``--runs`` times (by default with small, quick settings; ``--full``
with the settings the doc's hand-measured rows were taken with), reads each row's ratio to
its reference from what the bench prints, and writes one row each, its ratio as
min-median-max over the runs beside the load average over the last minute (lowest and
highest, read before and after each run), between the doc's ``TABLE_BEGIN`` and
``TABLE_END`` markers. A row whose goal does not hold in the median says "not met"; a row
whose bench failed or printed no figure says so. With ``--only``, the rows of the other
benches stay as they were (a row no bench makes, or one whose text has changed since, too,
at the end, unless its command is a bench run now), and a line under the first says which
rows were made when.
``--dry-run`` prints the table instead.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"
TABLE_BEGIN = "<!-- bench/table.py: begin -->"
TABLE_END = "<!-- bench/table.py: end -->"


@dataclass(frozen=True)
class Bench:
    """A script in bench/ and its arguments, quick and full."""

    script: str
    quick: tuple[str, ...]
    full: tuple[str, ...]


@dataclass(frozen=True)
class Row:
    """One row: what is measured, against what, and where its figure is in the output."""

    what: str
    against: str
    bench: str
    pattern: str  # one group: the figure
    unit: str  # "x" for a ratio, "%" for a share
    most: float | None = None  # the goal, if any: at most ...
    least: float | None = None  # ... or at least


BENCHES = {
    "startup": Bench(
        "startup.py", ("--repeat", "6", "--starts", "3"), ("--repeat", "30", "--starts", "15")
    ),
    "table": Bench("bench_table.py", ("--n", "40", "--idle", "3"), ("--n", "320")),
    "calls": Bench("calls.py", ("--n", "40"), ("--n", "120")),
    "net_latency": Bench("net_latency.py", ("--n", "20"), ("--n", "200")),
    "sim": Bench(
        "bench_sim.py",
        ("--jobs", "2", "--busy", "1", "0", "--games", "2000", "--repeat", "3"),
        ("--jobs", "2", "--busy", "1", "0", "--games", "4000", "--repeat", "8"),
    ),
    "engine": Bench(
        "reference_engine.py",
        ("--games", "200", "--repeat", "25", "--instructions"),
        ("--games", "1000", "--repeat", "25", "--instructions"),
    ),
    "stats": Bench("stats_scale.py", ("--repeat", "3"), ("--repeat", "11")),
    "lobby": Bench("lobby_scale.py", ("--repeat", "21", "--whole", "1"), ()),
    "net_bytes": Bench("net_bytes.py", ("--rounds", "2"), ("--rounds", "5")),
    "input_bounds": Bench("input_bounds.py", ("--repeat", "2"), ("--repeat", "5")),
    "serve": Bench("serve_tables.py", ("--seconds", "8", "--n", "40"), ("--seconds", "30")),
    "serve_two": Bench(
        "serve_tables.py",
        ("--two", "--tables", "1", "10", "--seconds", "8", "--n", "0"),
        ("--two", "--tables", "1", "10", "50", "--seconds", "20", "--n", "0"),
    ),
}

ROWS = [
    Row(
        "`stress-tui --version`",
        "`python -c pass`",
        "startup",
        r"stress-tui --version +median .*? ms +([\d.]+)x",
        "x",
        most=3.0,
    ),
    Row(
        "`stress-tui --help`",
        "`python -c pass`",
        "startup",
        r"stress-tui --help +median .*? ms +([\d.]+)x",
        "x",
        most=3.5,
    ),
    Row(
        "`stress-tui play --help` (the game's flags, made from the house-rule table, with"
        " `dataclasses`)",
        "`python -c pass`",
        "startup",
        r"stress-tui play --help +median .*? ms +([\d.]+)x",
        "x",
    ),
    Row(
        "The standard library `--help` is made with (argparse, gettext and locale, textwrap,"
        " typing), imported alone",
        "`python -c pass`",
        "startup",
        r"the help's stdlib +median .*? ms +([\d.]+)x",
        "x",
    ),
    Row(
        "`stress-tui --lang de --version`",
        "`stress-tui --lang en --version`",
        "startup",
        r"German against English: +([\d.]+)x",
        "x",
        most=1.1,
    ),
    Row(
        "A game's first frame (`--seed 12`, two people, 80x24 pty)",
        "the minimal blessed program to its first line",
        "startup",
        r"\n  game {2,}median .*? ms +([\d.]+)x",
        "x",
        most=1.5,
    ),
    Row(
        "The same against the computer (`--p2 bot`)",
        "the same",
        "startup",
        r"game --p2 bot +median .*? ms +([\d.]+)x",
        "x",
        most=1.5,
    ),
    Row(
        "A play, key to screen, median (keys 100 ms apart)",
        "the minimal blessed program echoing a key, alternate blocks",
        "table",
        r"game/echo: median ([\d.]+)x",
        "x",
        most=1.3,
    ),
    Row(
        "The same keys to their bytes read (the harness's parse and look left out)",
        "the echo's keys, alike",
        "table",
        r"game/echo to bytes read: median ([\d.]+)x",
        "x",
    ),
    Row(
        "The same play, CPU per key (every thread, schedstat)",
        "the echo's key, the same blocks",
        "table",
        r"play/echo CPU: ([\d.]+)x",
        "x",
        most=1.3,
    ),
    Row(
        "A key the table ignores (Ctrl-E), CPU per key",
        "the echo's whole key, the same blocks",
        "table",
        r"ignored/echo CPU: ([\d.]+)x",
        "x",
        most=1.0,
    ),
    Row(
        "The same play, calls per key (Python functions and built-ins, counted in the game)",
        "the echo's key, counted alike",
        "calls",
        r"play/echo: ([\d.]+)x",
        "x",
    ),
    Row(
        "The ignored key, calls per key",
        "the echo's key, counted alike",
        "calls",
        r"ignored/echo: ([\d.]+)x",
        "x",
    ),
    Row(
        "Bytes written for that play",
        "a full redraw of the same screen",
        "table",
        r"full redraw \d+ B: ([\d.]+)%",
        "%",
        most=15.0,
    ),
    Row(
        "An idle table after its first flip, CPU",
        "one core",
        "table",
        r"CPU ([\d.]+)% of one core",
        "%",
        most=1.0,
    ),
    Row(
        "A key on the joiner's side of a network table (loopback), median",
        "the same key at one keyboard, alternate blocks",
        "net_latency",
        r"joiner / one keyboard: median ([\d.]+)x",
        "x",
    ),
    Row(
        "`stress-tui sim --jobs 2` beside a `yes > /dev/null` loop, rounds per second, median"
        " of the pairs of runs",
        "`--jobs 1`, runs taking turns",
        "sim",
        r"with 1 busy: min-median-max [\d.]+-([\d.]+)-",
        "x",
        least=0.95,
    ),
    Row(
        "The same with no loop",
        "the same",
        "sim",
        r"with 0 busy: min-median-max [\d.]+-([\d.]+)-",
        "x",
        least=1.8,  # on two free cores: a machine with other work has fewer
    ),
    Row(
        "The engine, CPU time an action (standard deck)",
        "the same rules in a minimal engine, `bench/reference_engine.py`, the same policy and"
        " rounds",
        "engine",
        r"\): ([\d.]+)x \(goal",
        "x",
        most=1.3,
    ),
    Row(
        "The same, instructions an action (callgrind)",
        "the same",
        "engine",
        r"instructions an action .*?: ([\d.]+)x",
        "x",
        most=1.3,
    ),
    Row(
        "`stress-tui stats` on a long record, a whole process",
        "the same on 200 rounds, taking turns",
        "stats",
        r"([\d.]+)x \(goal: at most 2x\)",
        "x",
        most=2.0,
    ),
    Row(
        "`stress-tui serve`'s lobby (and `ssh HOST stats`): a player's own record read, in a"
        " record of 100,000 rounds",
        "the same read in 1,000 rounds, taking turns",
        "lobby",
        r"the lobby's read on .*?: ([\d.]+)x \(goal: at most 2x\)",
        "x",
        most=2.0,
    ),
    Row(
        "`stress-tui serve`: the server's CPU per table, 50 tables at once (asyncssh"
        " clients against `bot:normal`, a key every 0.1-0.3 s)",
        "one core",
        "serve",
        r"at 50 tables: CPU per table ([\d.]+)% of one core",
        "%",
        most=1.0,  # 100 tables on one core
    ),
    Row(
        "The same, 100 tables at once",
        "one core",
        "serve",
        r"at 100 tables: CPU per table ([\d.]+)% of one core",
        "%",
        most=1.0,
    ),
    Row(
        "The same server's CPU per table for two (`new`, `join CODE`: two clients playing as"
        " a person does, reading the table, `bot:normal`'s reaction), 10 at once",
        "one core",
        "serve_two",
        r"at 10 tables: CPU per table ([\d.]+)% of one core",
        "%",
        most=1.0,
    ),
    Row(
        "The server's time waiting for a CPU, 100 tables at once",
        "its time on a CPU, the same seconds",
        "serve",
        r"at 100 tables: .*? waiting for a CPU ([\d.]+)x",
        "x",
    ),
    Row(
        "The same server's memory per session (1 to 100 tables)",
        "the server's RSS with one table",
        "serve",
        r"memory a session .*?: \d+ KiB, ([\d.]+)% of the server's RSS",
        "%",
    ),
    Row(
        "The help key's answer at 100 tables (to the first bytes back), median",
        "the same at one table, the same run",
        "serve",
        r"the help key's answer at 100 tables / at 1: median ([\d.]+)x",
        "x",
    ),
    Row(
        "A play over `ssh -t` on loopback against `bot:normal`, key to screen, median",
        "the same key at one keyboard, alternate blocks",
        "serve",
        r"ssh / one keyboard: median ([\d.]+)x",
        "x",
        most=2.0,
    ),
    Row(
        "A network round's bytes, host to joiner (standard, two quick players)",
        "the round's actions as its replay stores them",
        "net_bytes",
        r"joiner: [\d.]+ KB a round, ([\d.]+)x",
        "x",
    ),
    Row(
        "The same, host to a spectator",
        "the same",
        "net_bytes",
        r"spectator: [\d.]+ KB a round, ([\d.]+)x",
        "x",
    ),
    Row(
        "Ctrl-C at the table, sent until the game has ended",
        "the minimal blessed program's Ctrl-C, taking turns",
        "input_bounds",
        r"table +median .*? ([\d.]+)x echo",
        "x",
    ),
    Row(
        "The same behind a 300 kB junk answer to a start-up question",
        "the same",
        "input_bounds",
        r"junk +median .*? ([\d.]+)x echo",
        "x",
    ),
    Row(
        "SIGTERM in a 1 MB paste, sent until the game has ended",
        "the same",
        "input_bounds",
        r"paste +median .*? ([\d.]+)x echo",
        "x",
    ),
    Row(
        "Ctrl-C in `stress-tui sim`, until it has printed its summary and ended",
        "the same",
        "input_bounds",
        r"sim +median .*? ([\d.]+)x echo",
        "x",
    ),
    Row(
        "The four signals above answered within 0.5 s (issue 24)",
        "all sent",
        "input_bounds",
        r"answered within 0.5 s: ([\d.]+)%",
        "%",
        least=100.0,
    ),
    Row(
        "The first frame behind a 300 kB junk answer",
        "a normal start, taking turns",
        "input_bounds",
        r"first frame behind a junk answer: median \d+ ms, ([\d.]+)x",
        "x",
    ),
]


@dataclass
class Taken:
    """What the runs of one bench gave: its output each run and the load averages seen."""

    outputs: list[str]
    loads: list[float]
    failed: str = ""


def run_bench(bench: Bench, full: bool, runs: int) -> Taken:
    argv = [
        sys.executable,
        str(ROOT / "bench" / bench.script),
        *(bench.full if full else bench.quick),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    taken = Taken([], [])
    for _ in range(runs):
        taken.loads.append(os.getloadavg()[0])
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
        taken.loads.append(os.getloadavg()[0])
        if done.returncode != 0:
            last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1:]
            taken.failed = f"failed (exit {done.returncode}: {' '.join(last)[:80]})"
            break
        taken.outputs.append(done.stdout)
    return taken


def figures(row: Row, taken: Taken) -> list[float]:
    found = (re.search(row.pattern, out) for out in taken.outputs)
    return [float(m.group(1)) for m in found if m]


def verdict(row: Row, median: float) -> str:
    if row.most is not None:
        goal = f"at most {row.most:g}{row.unit}"
        held = median <= row.most
    elif row.least is not None:
        goal = f"at least {row.least:g}{row.unit}"
        held = median >= row.least
    else:
        return ""
    return f"{goal}: {'met' if held else '**not met**'}"


def cell(values: Sequence[float], unit: str) -> str:
    ordered = sorted(values)
    low, mid, high = ordered[0], statistics.median(ordered), ordered[-1]
    digits = 3 if unit == "%" else 2
    runs = f"{len(values)} run" + ("s" if len(values) > 1 else "")
    return f"**{low:.{digits}f}-{mid:.{digits}f}-{high:.{digits}f}{unit}** ({runs})"


def still_made(line: str, taken: dict[str, Taken]) -> str | None:
    """A line above the table as it stays when the benches in ``taken`` are run again:
    one that says which rows an earlier ``--only`` made names only those not made again
    now, and goes once it names none."""
    if not line.startswith("The rows of ") or ": " not in line:
        return line or None
    names, rest = line.removeprefix("The rows of ").split(": ", 1)
    left = [name for name in names.split() if name not in taken]
    return f"The rows of {' '.join(left)}: {rest}" if left else None


def render(taken: dict[str, Taken], full: bool, runs: int, before: str | None = None) -> str:
    """The table of what ``taken`` holds; with ``before`` (the table as it was), the rows
    of the benches not run now are kept as they were, and its first lines say so."""
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    options = " --full" if full else ""
    settings = "the full settings" if full else "quick settings, fewer samples than below"
    made = f"Made by `python bench/table.py{options} --runs {runs}` on {when} ({settings})."
    kept: dict[str, str] = {}
    if before is not None:
        old = before.splitlines()
        kept = {line.split(" | ")[0]: line for line in old if line.startswith("| ")}
        only = " ".join(name for name in BENCHES if name in taken)
        said = f"The rows of {only}: "
        made = "\n".join(
            [
                *filter(None, (still_made(line, taken) for line in old if line[:1] != "|")),
                f"{said}`python bench/table.py{options} --only {only} --runs {runs}` on {when}"
                f" ({settings}).",
            ]
        )
    lines = [
        TABLE_BEGIN,
        made,
        "",
        "| What | Figure, min-median-max | Against (in the same run) | Goal (median) "
        "| Command | Load average |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in ROWS:
        if row.bench not in taken:
            if f"| {row.what}" in kept:
                lines.append(kept[f"| {row.what}"])
            continue
        bench, got = BENCHES[row.bench], taken[row.bench]
        values = figures(row, got)
        if values:
            figure, goal = cell(values, row.unit), verdict(row, statistics.median(values))
        else:
            figure, goal = got.failed or "no figure in the output", "did not run"
        args = " ".join(bench.full if full else bench.quick)
        load = f"{min(got.loads):.1f}-{max(got.loads):.1f}"
        lines.append(
            f"| {row.what} | {figure} | {row.against} | {goal} | "
            f"`bench/{bench.script} {args}` | {load} |"
        )
    made_now = {f"`bench/{BENCHES[name].script} " for name in taken}
    known = {f"| {row.what}" for row in ROWS}
    for what, line in kept.items():  # a row by hand, or one whose text has changed since
        if what not in known | {"| What", "| ---"} and not any(s in line for s in made_now):
            lines.append(line)
    lines.append(TABLE_END)
    return "\n".join(lines)


def rewrite(doc: str, table: str) -> str:
    """``doc`` with the text between the markers (and the markers) replaced by ``table``."""
    start, end = doc.index(TABLE_BEGIN), doc.index(TABLE_END) + len(TABLE_END)
    return doc[:start] + table + doc[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the settings the doc's rows used")
    parser.add_argument("--runs", type=int, default=3, help="runs of each bench (default 3)")
    parser.add_argument("--only", nargs="+", choices=sorted(BENCHES), help="these benches only")
    parser.add_argument("--dry-run", action="store_true", help="print the table, keep the doc")
    args = parser.parse_args(argv)
    taken: dict[str, Taken] = {}
    for name in args.only or BENCHES:
        print(f"{name} ...", file=sys.stderr, flush=True)
        taken[name] = run_bench(BENCHES[name], args.full, args.runs)
    doc = DOC.read_text(encoding="utf-8")
    before = None
    if args.only:  # the other rows stay as they are
        before = doc[doc.index(TABLE_BEGIN) + len(TABLE_BEGIN) : doc.index(TABLE_END)].strip()
    table = render(taken, args.full, args.runs, before)
    if args.dry_run:
        print(table)
    else:
        DOC.write_text(rewrite(doc, table), encoding="utf-8")
        print(f"rewrote {DOC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
