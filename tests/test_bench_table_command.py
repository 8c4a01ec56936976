"""bench/table.py, the command that remakes docs/performance.md's table, on made-up output
of the benches (running them is the command's own business, not the tests')."""

from __future__ import annotations

from pathlib import Path

from bench.table import BENCHES, DOC, ROWS, TABLE_BEGIN, TABLE_END, Taken, render, rewrite

#: One line of each figure, as the benches print it.
PRINTED = {
    "startup": (
        "  stress-tui --version   median   31.0 ms   1.50x, CPU  2.11x  (goal: at most 3x: met)\n"
        "  stress-tui --help      median   60.2 ms   3.90x, CPU  4.30x  (goal: at most 3.5x)\n"
        "  stress-tui play --help median   70.4 ms   4.50x, CPU  4.60x\n"
        "  the help's stdlib      median   45.0 ms   2.90x, CPU  2.95x\n"
        "  German against English:  1.04x  (goal: at most 1.1x: met)\n"
        "first frame in an 80x24 pty (3 starts each, taking turns)\n"
        "  echo (minimal blessed) median  363.0 ms   1.00x\n"
        "  game                   median  520.0 ms   1.43x  (goal: at most 1.5x: met)\n"
        "  game --p2 bot          median  540.0 ms   1.49x  (goal: at most 1.5x: met)\n"
    ),
    "table": (
        "  game/echo: median 2.90x, p99 3.10x  (goal: within 1.3x)\n"
        "  game/echo to bytes read: median 2.80x, p99 3.00x\n"
        "  play/echo CPU: 1.97x  (goal: within 1.3x)\n"
        "  ignored/echo CPU: 0.50x  (goal: within 1.0x)\n"
        "  one play 85 B, full redraw 2333 B: 3.6%  (goal: <= 15%)\n"
        "  CPU 0.000% of one core, 0 B written  (goal: < 1%)\n"
    ),
    "calls": "  play/echo: 1.94x\n  ignored/echo: 0.35x\n",
    "net_latency": "  joiner / one keyboard: median 2.99x, p99 2.43x\n",
    "sim": (
        "  --jobs 2 / --jobs 1 with 1 busy: min-median-max 0.97-0.99-1.01x over 3 pairs of"
        " runs side by side (goal for the median: at least 0.95): met; best run against best"
        " run 0.99x\n"
        "  --jobs 2 / --jobs 1 with 0 busy: min-median-max 1.85-1.90-1.93x over 3 pairs of"
        " runs side by side (goal for the median: at least 1.80): met; best run against best"
        " run 1.91x\n"
    ),
    "engine": (
        "engine 6.66 us an action, reference 3.29 (...): 2.02x (goal: at most 1.3x)\n"
        "instructions an action (callgrind, less the start): engine 37,642, reference 26,324:"
        " 1.43x (goal: at most 1.3x)\n"
    ),
    "stats": "stats on 20,000 rounds: 922 ms, on 200: 796 ms (...): 1.16x (goal: at most 2x)\n",
    "lobby": (
        "the lobby's read on 100,000 rounds: 0.86 ms, on 1,000: 0.87 ms (medians of 51): 0.99x"
        " (goal: at most 2x); the whole record read: 814 ms against 13 ms (medians of 3): 63x;"
        " the lobby's read 0.0011x the whole record's on 100,000 rounds; load average 5.58\n"
    ),
    "net_bytes": (
        "the rounds' actions as replays store them: 4.1 KB a round\n"
        "joiner: 17.0 KB a round, 4.1x the replay's\n"
        "  moved        15.5 KB       84 messages\n"
        "spectator: 16.6 KB a round, 4.0x the replay's\n"
    ),
    "serve": (
        "at 50 tables: CPU per table 0.503% of one core (one core holds 199 tables; goal: at"
        " least 100), waiting for a CPU 0.80x its time on one\n"
        "at 100 tables: CPU per table 0.409% of one core (one core holds 244 tables; goal: at"
        " least 100), waiting for a CPU 1.00x its time on one\n"
        "memory a session (1 to 100 tables): 160 KiB, 1.15% of the server's RSS at 1\n"
        "the help key's answer at 100 tables / at 1: median 5.05x\n"
        "  ssh / one keyboard: median 2.90x, p99 2.10x  (goal: within 2x)\n"
    ),
    "serve_two": (
        "at 10 tables: CPU per table 0.600% of one core (one core holds 167 tables; goal: at"
        " least 100), waiting for a CPU 0.50x its time on one\n"
    ),
    "input_bounds": (
        "echo   median     64 ms  slowest    152 ms   1.00x echo  within 0.5 s: 4 of 4\n"
        "table  median     19 ms  slowest     48 ms   0.30x echo  within 0.5 s: 4 of 4\n"
        "junk   median    148 ms  slowest    256 ms   2.31x echo  within 0.5 s: 4 of 4\n"
        "paste  median     31 ms  slowest     40 ms   0.49x echo  within 0.5 s: 4 of 4\n"
        "sim    median     31 ms  slowest     51 ms   0.49x echo  within 0.5 s: 4 of 4\n"
        "answered within 0.5 s: 100.0% of 16 (goal: all: met)\n"
        "first frame behind a junk answer: median 1276 ms, 1.28x a normal start's (995 ms) "
        "(goal: within 1 s of it: met)\n"
    ),
}


def table(outputs: dict[str, list[str]]) -> list[str]:
    taken = {name: Taken(out, [4.0, 5.5]) for name, out in outputs.items()}
    return render(taken, full=False, runs=2).splitlines()


def test_every_row_finds_its_figure_and_says_whether_its_goal_holds() -> None:
    lines = table({name: [PRINTED[name], PRINTED[name]] for name in BENCHES})
    rows = [line for line in lines if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == len(ROWS)
    assert all("no figure" not in row and "did not run" not in row for row in rows)
    help_row = next(row for row in rows if "--help" in row.split("|")[1])
    assert "**3.90-3.90-3.90x** (2 runs)" in help_row
    assert "at most 3.5x: **not met**" in help_row
    version = next(row for row in rows if "`stress-tui --version`" in row.split("|")[1])
    assert "at most 3x: met" in version
    assert all(row.endswith("| 4.0-5.5 |") for row in rows)  # the load average


def test_min_median_max_over_the_runs() -> None:
    runs = [PRINTED["engine"].replace("2.02x", f"{x}x") for x in ("1.20", "1.40", "1.25")]
    (row,) = [line for line in table({"engine": runs}) if line.startswith("| The engine")]
    assert "**1.20-1.25-1.40x** (3 runs)" in row
    assert "at most 1.3x: met" in row


def test_a_bench_that_failed_or_printed_nothing_says_so() -> None:
    taken = {
        "engine": Taken([], [1.0], failed="failed (exit 1: boom)"),
        "stats": Taken(["something else\n"], [1.0]),
    }
    lines = render(taken, full=True, runs=1).splitlines()
    assert "--full --runs 1" in lines[1]
    assert any("failed (exit 1: boom)" in line and "did not run" in line for line in lines)
    assert any("no figure in the output" in line for line in lines)


def test_the_table_replaces_the_text_between_the_markers_only() -> None:
    doc = f"before\n{TABLE_BEGIN}\nold table\n{TABLE_END}\nafter\n"
    assert rewrite(doc, f"{TABLE_BEGIN}\nnew\n{TABLE_END}") == (
        f"before\n{TABLE_BEGIN}\nnew\n{TABLE_END}\nafter\n"
    )


def test_the_doc_has_the_markers_and_every_bench_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert text.index(TABLE_BEGIN) < text.index(TABLE_END)
    for bench in BENCHES.values():
        assert (Path(DOC).parent.parent / "bench" / bench.script).is_file()


def test_a_bench_run_alone_keeps_the_other_rows_as_they_were() -> None:
    before = table({name: [PRINTED[name]] for name in BENCHES if name != "net_bytes"})
    old = "\n".join(before[1:-1])
    taken = {"net_bytes": Taken([PRINTED["net_bytes"]], [3.0, 3.5])}
    lines = render(taken, full=False, runs=1, before=old).splitlines()
    assert [line for line in before if line.startswith("| ")] == [
        line
        for line in lines
        if line.startswith("| ") and "network round" not in line and "to a spectator" not in line
    ]
    assert before[1] in lines  # the line that says how the kept rows were made
    assert any("--only net_bytes --runs 1" in line for line in lines)
    joiner = next(line for line in lines if "host to joiner" in line)
    assert "**4.10-4.10-4.10x** (1 run)" in joiner and joiner.endswith("| 3.0-3.5 |")


def test_a_row_no_bench_makes_is_kept_unless_its_bench_ran_now() -> None:
    """A row written by hand between the markers, or one whose text has changed since it
    was made, stays when other benches run alone; a row whose command is a bench run now
    is that bench's to remake."""
    before = table({name: [PRINTED[name]] for name in BENCHES if name != "net_bytes"})
    by_hand = "| A figure measured by hand | **1.00x** | x | met | `bench/latency.py` | 1.0 |"
    renamed = "| An old name of a row | **2.00x** | x | met | `bench/net_bytes.py --x` | 1.0 |"
    old = "\n".join([*before[1:-1], by_hand, renamed])
    taken = {"net_bytes": Taken([PRINTED["net_bytes"]], [3.0, 3.5])}
    lines = render(taken, full=False, runs=1, before=old).splitlines()
    assert by_hand in lines
    assert renamed not in lines


def test_a_line_naming_benches_run_again_names_only_the_others() -> None:
    """Which rows an earlier ``--only`` made: once some are made again, its line names
    only the rest, and goes once it names none."""
    before = table({name: [PRINTED[name]] for name in BENCHES})
    both = "The rows of sim engine: `python bench/table.py --only sim engine --runs 3` on X."
    alone = "The rows of net_bytes: `python bench/table.py --only net_bytes --runs 3` on Y."
    old = "\n".join([before[1], both, alone, *before[2:-1]])
    taken = {"sim": Taken([PRINTED["sim"]], [3.0, 3.5]), "net_bytes": Taken([], [1.0, 1.0])}
    lines = render(taken, full=False, runs=1, before=old).splitlines()
    assert "The rows of engine: `python bench/table.py --only sim engine --runs 3` on X." in lines
    assert alone not in lines and both not in lines
    assert any(line.startswith("The rows of sim net_bytes: ") for line in lines)
