"""Where the test suite's CPU goes: each test's user+sys time, the test process's own and
that of the programs it started and waited for, by file and by kind.

As a pytest plugin it writes a line of JSON a test (setup, call and teardown together)::

    SUITE_CPU_OUT=/tmp/cpu.jsonl python -m pytest -p bench.suite_cpu -p no:cacheprovider

and as a script it sums such a file: by kind (the ``pty`` tests, the ``one_python`` ones,
the in-process ones) and by file, the heaviest first, with what ``scripts/test`` spends
on each (an in-process test runs on 3.10 and 3.13 as well: three times)::

    python bench/suite_cpu.py /tmp/cpu.jsonl --top 40

A program a test started and did not wait for counts for the test that waits for it
(a module's server, at the module's end). The figures are CPU time, which a busy machine
moves less than wall time but still moves: compare two trees taking turns, not two days.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from typing import Any, TextIO

import pytest

OUT_ENV = "SUITE_CPU_OUT"
"""Where the plugin writes (appends) its lines."""

RUNS = {"in-process": 3, "pty": 1, "one_python": 1}
"""How many Pythons ``scripts/test`` runs a test of each kind on."""


def cpu() -> tuple[float, float]:
    """User+sys seconds of this process (every thread) and of its children waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def kind(item: pytest.Item) -> str:
    """``pty``, ``one_python`` or ``in-process``."""
    for name in ("pty", "one_python"):
        if item.get_closest_marker(name) is not None:
            return name
    return "in-process"


class _Out:
    file: TextIO | None = None


def pytest_configure(config: pytest.Config) -> None:
    _Out.file = open(os.environ.get(OUT_ENV, "suite-cpu.jsonl"), "a", encoding="utf-8")  # noqa: SIM115


def pytest_unconfigure(config: pytest.Config) -> None:
    if _Out.file is not None:
        _Out.file.close()
        _Out.file = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    own, children = cpu()
    start = time.monotonic()
    try:
        yield
    finally:
        own_after, children_after = cpu()
        line = {
            "id": item.nodeid,
            "file": item.nodeid.split("::")[0],
            "kind": kind(item),
            "own": own_after - own,
            "children": children_after - children,
            "wall": time.monotonic() - start,
        }
        if _Out.file is not None:
            _Out.file.write(json.dumps(line) + "\n")
            _Out.file.flush()


def summary(lines: list[dict[str, Any]], top: int) -> list[str]:
    """The sums by kind and the ``top`` heaviest files, as text."""
    by_kind: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    by_file: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0])
    for test in lines:
        spent = test["own"] + test["children"]
        by_kind[test["kind"]][0] += 1
        by_kind[test["kind"]][1] += spent
        row = by_file[f"{test['file']} ({test['kind']})"]
        row[0] += 1
        row[1] += test["own"]
        row[2] += test["children"]
        row[3] += test["wall"]
        row[4] += spent * RUNS[test["kind"]]
    out = ["kind          tests   CPU s   in scripts/test s"]
    for name, (count, spent) in sorted(by_kind.items(), key=lambda kv: -kv[1][1]):
        out.append(f"{name:12} {count:6.0f} {spent:7.1f} {spent * RUNS[name]:10.1f}")
    out.append("")
    out.append(f"{'file (kind)':52} tests  own s  children s  wall s  in scripts/test s")
    for name, (count, own, children, wall, weighed) in sorted(
        by_file.items(), key=lambda kv: -kv[1][4]
    )[:top]:
        out.append(
            f"{name:52} {count:5.0f} {own:6.1f} {children:11.1f} {wall:7.1f} {weighed:10.1f}"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="the plugin's lines (SUITE_CPU_OUT)")
    parser.add_argument("--top", type=int, default=30, help="files shown (30)")
    args = parser.parse_args(argv)
    with open(args.file, encoding="utf-8") as lines:
        tests = [json.loads(line) for line in lines if line.strip()]
    print("\n".join(summary(tests, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
