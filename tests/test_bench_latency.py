"""The latency benchmark's machinery (bench/latency.py), run briefly against the echo app."""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import pairwise

import pytest

from bench.latency import (
    BASELINES,
    HUMAN_GAP,
    LETTERS,
    Key,
    alternate,
    echo_ready,
    echo_reflected,
    letter,
    measure_latency,
    percentile,
    summarize,
)
from tests.tty import TtySession


def test_measure_latency_on_the_echo_app_sends_its_keys_at_a_human_pace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Twenty samples, and every key (the warm-up's too) sent a person's pace after the
    one before: one run of the echo program, where each of the two started it."""
    sent: list[float] = []
    send = TtySession.send

    def timed(self: TtySession, data: str | bytes) -> None:
        if isinstance(data, str) and data in LETTERS:  # the keys, not the terminal's answers
            sent.append(time.perf_counter())
        send(self, data)

    monkeypatch.setattr(TtySession, "send", timed)
    samples = measure_latency(
        BASELINES["echo"], letter, echo_ready, echo_reflected, 20, warmup=3, quit_key="q"
    )
    assert len(samples) == 20
    assert all(0.0 < x < 2.0 for x in samples)
    gaps = [b - a for a, b in pairwise(sent)]
    assert len(gaps) == 3 + 20 - 1
    assert min(gaps) >= HUMAN_GAP >= 0.08  # the game's window for a held key's repeats


def test_the_screen_is_looked_at_only_once_the_program_has_answered_the_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A look right after the key would run while the program wakes, competing with it for
    a CPU: each key's effect is looked for only once the program's answer has been read."""
    sent_at: list[int] = []  # the bytes read when each key was sent
    send = TtySession.send

    def marked(self: TtySession, data: str | bytes) -> None:
        if isinstance(data, str) and data in LETTERS:
            sent_at.append(len(self.log))
        send(self, data)

    looks: list[int] = []  # for each look after a key: the bytes read since the key

    def reflected(s: TtySession, i: int, key: Key) -> bool:
        if len(sent_at) == i + 1:  # (not the look before the key)
            looks.append(len(s.log) - sent_at[i])
        return echo_reflected(s, i, key)

    monkeypatch.setattr(TtySession, "send", marked)
    measure_latency(BASELINES["echo"], letter, echo_ready, reflected, 5, warmup=1, quit_key="q")
    assert len(looks) >= 6
    assert min(looks) > 0


def test_a_predicate_true_before_the_key_is_refused() -> None:
    with pytest.raises(AssertionError, match="before it is sent"):
        measure_latency(BASELINES["bare"], letter, echo_ready, lambda s, i, k: True, 5)


def test_percentile_and_summary() -> None:
    samples = [float(x) for x in range(1, 101)]  # 1..100
    assert percentile(samples, 50) == 50.0
    assert percentile(samples, 99) == 99.0
    assert percentile(samples, 100) == 100.0
    assert percentile([3.0, 1.0, 2.0], 0) == 1.0
    stats = summarize(samples)
    assert (stats.n, stats.median, stats.p99, stats.min, stats.max) == (100, 50.5, 99.0, 1, 100)
    assert "median 50500.000 ms" in stats.format()
    with pytest.raises(ValueError):
        percentile([], 50)


def test_two_measures_alternate_in_blocks_until_the_second_has_its_samples() -> None:
    calls: list[tuple[str, int]] = []

    def measure(name: str) -> Callable[[int], list[float]]:
        def take(count: int) -> list[float]:
            calls.append((name, count))
            return [float(len(calls))] * count

        return take

    one, two = alternate(measure("one"), measure("two"), 5, 2)
    assert calls == [("one", 2), ("two", 2), ("one", 2), ("two", 2), ("one", 1), ("two", 1)]
    assert one == [1.0, 1.0, 3.0, 3.0, 5.0]
    assert two == [2.0, 2.0, 4.0, 4.0, 6.0]
