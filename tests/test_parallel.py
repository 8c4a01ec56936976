"""Work in several processes at once, on no more cores than are free: what ``/proc/stat``
says (read as text from outside), and the workers that are too many given no more work.
The simulator's command and its results: ``tests/test_sim.py``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from stress_tui.players import parallel
from stress_tui.players.parallel import Ticks, idle_cores, in_order, read_ticks

STAT = (
    "cpu  2658344 36600 1049653 427140 3052 0 5049 11072 0 0\n"
    "cpu0 1306854 19767 515276 245941 1061 0 909 5395 0 0\n"
    "cpu1 1351489 16832 534376 181199 1990 0 4139 5677 0 0\n"
    "intr 16600392 0 0 0 0\n"
    "ctxt 25020774\n"
    "procs_running 6\n"
)
"""A machine of two cores, as /proc/stat says (Linux 6)."""


def test_proc_stat_gives_the_idle_and_all_the_time_of_every_core() -> None:
    ticks = read_ticks(STAT)
    assert ticks == Ticks(
        427140 + 3052, 2658344 + 36600 + 1049653 + 427140 + 3052 + 5049 + 11072, 2
    )
    # An older kernel's line with fewer fields, and one machine of a single core.
    assert read_ticks("cpu 10 0 5 80\ncpu0 10 0 5 80\n") == Ticks(80, 95, 1)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n",
        "intr 1 2 3\ncpu  1 2 3 4\ncpu0 1 2 3 4",  # the cores' line not first
        "cpu  1 2 3\ncpu0 1 2 3",  # too few fields
        "cpu  1 2 3 -4\ncpu0 1 2 3 4",  # a negative count
        "cpu  1 2 3 4x\ncpu0 1 2 3 4",
        "cpu  1 2 3 \u0663\ncpu0 1 2 3 4",  # a digit, but not an ASCII one
        "cpu  1 2 3 " + "9" * 5000 + "\ncpu0 1 2 3 4",  # a number no counter reaches
        "cpu  1 2 3 4\x1b]0;title\x07\ncpu0 1 2 3 4",  # an escape sequence
        "cpu  1 2 3 4\ncpuX 1 2 3 4\nintr 5",  # no line of one core
        "cpu\x00 1 2 3 4\ncpu0 1 2 3 4",
        "cpu  1 2 3 4",  # cut after the first line
        "\ufffd" * 70_000,  # what bytes that are not ASCII decode to
    ],
)
def test_a_proc_stat_that_is_not_one_gives_no_ticks(text: str) -> None:
    assert read_ticks(text) is None


def test_the_idle_cores_are_the_share_of_idle_time_between_two_readings() -> None:
    before = read_ticks(STAT)
    assert before is not None
    # 0.1 s of two cores (100 ticks a second): one core idle, the other busy.
    after = Ticks(before.idle + 10, before.total + 20, 2)
    assert idle_cores(before, after) == 1.0
    assert idle_cores(before, before) is None, "no tick between them"
    assert idle_cores(before, Ticks(0, 10**9, 2)) is None, "a count that went back"
    assert idle_cores(before, Ticks(10**9, 10**9 + 1, 2)) is None, "more idle than time"
    assert idle_cores(Ticks(1, 2, 1), Ticks(2, 4, 2)) is None, "another number of cores"


def test_reading_proc_stat_is_limited_and_survives_what_it_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is read up to ``STAT_LIMIT`` bytes, its bytes need not be text, and a
    file that cannot be read gives no ticks (the load average decides then)."""
    path = tmp_path / "stat"
    monkeypatch.setattr(parallel, "STAT", str(path))
    assert parallel.stat_ticks() is None, "no such file"
    path.write_bytes(STAT.encode() + b"\xff\xfe" + b"x" * 10_000_000)
    assert parallel.stat_ticks() == read_ticks(STAT)


def _where(index: int) -> tuple[int, int]:
    """Which process did piece ``index``."""
    return index, os.getpid()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux")
def test_workers_that_are_too_many_for_the_free_cores_are_given_no_more_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two jobs asked, the measure says 1.4 cores free: the run is told 1, and the
    worker does only the chunks it was given before the measure (two: one ahead); every
    piece is done once, in order."""
    monkeypatch.setattr(parallel, "SAMPLE", 0.0)
    monkeypatch.setattr(parallel._Sample, "free", lambda self: 1.4)
    told: list[int] = []
    done = list(in_order(_where, 400, 2, told.append))
    assert [index for index, _ in done] == list(range(400))
    assert told == [1]
    by_worker = [index for index, pid in done if pid != os.getpid()]
    assert 0 < len(by_worker) <= 2 * parallel.CHUNK, by_worker


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux")
def test_workers_play_on_when_the_cores_are_free(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "SAMPLE", 0.0)
    monkeypatch.setattr(parallel, "available_cores", lambda: 4)
    monkeypatch.setattr(parallel._Sample, "free", lambda self: 3.0)
    told: list[int] = []
    done = list(in_order(_where, 400, 3, told.append))
    assert [index for index, _ in done] == list(range(400))
    assert told == []


def test_without_proc_stat_the_load_average_decides_before_any_worker_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two cores at a load of 1.2: one is free, and no worker is started."""
    monkeypatch.setattr(parallel, "STAT", str(tmp_path / "none"))
    monkeypatch.setattr(parallel, "available_cores", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (1.2, 1.2, 1.2))
    told: list[int] = []
    done = list(in_order(_where, 100, 2, told.append))
    assert told == [1]
    assert done == [(index, os.getpid()) for index in range(100)]
