"""The headless simulator: whole rounds on a virtual clock, the same for the same seed, and
every round checked for cards created, lost or duplicated and for an end in bounds.
Ctrl-C in a terminal: ``tests/test_sim_terminal.py``."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from stress_tui.cli.main import main
from stress_tui.core.actions import Action
from stress_tui.core.cards import Card
from stress_tui.core.engine import Game
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.core.table import Driver
from stress_tui.core.view import PlayerView
from stress_tui.players import parallel, sim
from stress_tui.players.bot import LEVELS, make_bot
from stress_tui.players.sim import (
    SimResult,
    format_result,
    play_round,
    run_cli,
    run_round,
    simulate,
    win_rate,
)
from stress_tui.players.soak import LEVEL_PAIRS, rule_variants, soak
from tests import command
from tests.conftest import game

KEYS = [
    "games",
    "finished",
    "endings",
    "wins",
    "mean_actions",
    "mean_virtual_seconds",
    "stresses_per_game",
    "stalls_per_game",
    "games_per_second",
    "invariant_violations",
]
STANDARD = Rules.for_deck("standard")
NORMAL = ("bot:normal", "bot:normal")


def _fixed(result: SimResult) -> dict[str, object]:
    """Everything a seed fixes (all but the speed)."""
    fields = dataclasses.asdict(result)
    del fields["games_per_second"]
    return fields


# --------------------------------------------------------------------------- results


def test_the_same_seed_gives_the_same_result() -> None:
    first = simulate(STANDARD, ("bot:easy", "bot:hard"), 40, seed=11)
    again = simulate(STANDARD, ("bot:easy", "bot:hard"), 40, seed=11)
    assert _fixed(first) == _fixed(again)
    other = simulate(STANDARD, ("bot:easy", "bot:hard"), 40, seed=12)
    assert _fixed(other) != _fixed(first)


def test_a_round_replays_alone_as_it_was_played_in_the_run() -> None:
    rules = Rules.for_deck("jass")
    results = [play_round(rules, NORMAL, 5, index) for index in range(10)]
    assert play_round(rules, NORMAL, 5, 7) == results[7]
    run = simulate(rules, NORMAL, 10, 5)
    assert run.wins == [sum(r.winner == side for r in results) for side in (0, 1)]
    assert run.mean_actions == sum(r.actions for r in results) / 10


def test_a_long_step_of_the_clock_plays_the_same_round_as_one_deadline_at_a_time() -> None:
    """The table carries out everything due in a step in order, each action at its own
    time: jumping four seconds at a time is the same as from deadline to deadline."""
    for deck in ("standard", "skat"):
        rules = Rules.for_deck(deck, jokers=2)
        for index in range(12):
            stepped = play_round(rules, ("bot:hard", "bot:easy"), 3, index, step=0.0)
            assert play_round(rules, ("bot:hard", "bot:easy"), 3, index) == stepped
            assert stepped.violation is None and stepped.finished


def test_the_result_counts_what_happened() -> None:
    result = simulate(STANDARD, NORMAL, 60, seed=2)
    assert result.games == 60 == result.finished >= sum(result.wins) > 55
    assert result.invariant_violations == 0
    assert 20 < result.mean_actions < 400
    assert 10 < result.mean_virtual_seconds < 300
    assert 0 < result.stresses_per_game < 10
    assert 0 < result.stalls_per_game < 30
    assert result.games_per_second > 0


def test_json_has_exactly_the_documented_keys() -> None:
    result = simulate(STANDARD, NORMAL, 5, seed=1)
    data = json.loads(result.to_json())
    assert list(data) == KEYS
    assert [f.name for f in dataclasses.fields(SimResult)] == KEYS
    assert isinstance(data["wins"], list) and len(data["wins"]) == 2
    assert data["games"] == 5 and data["invariant_violations"] == 0
    assert data["endings"] == {"last_card": 5, "dead_table": 0, "no_progress": 0}


def test_the_endings_say_how_rounds_ended_and_the_summary_says_the_same() -> None:
    """Issue 26: a round is won by a last card; the others are drawn, each way counted."""
    dead = game("""
        rules: standard
        phase: waiting
        p1 row: 5H | - | - | -
        piles: 9C | JD
        p2 row: 5S | - | - | -
    """)
    bots = (make_bot(0, "easy", random.Random(1)), make_bot(1, "easy", random.Random(2)))
    assert run_round(dead, bots).ending == "dead_table"
    result = simulate(STANDARD, NORMAL, 6, seed=1)
    result.endings = {"last_card": 4, "dead_table": 1, "no_progress": 1}
    summary = format_result(result, NORMAL, STANDARD, 1)
    assert (
        "endings:     last card 4 (66.7%), drawn on a dead table 1, drawn without progress 1"
        in summary
    )


def test_no_games_is_an_empty_result() -> None:
    result = simulate(STANDARD, NORMAL, 0, seed=1)
    assert (result.games, result.finished, result.wins) == (0, 0, [0, 0])
    assert result.mean_actions == 0.0


def test_only_bots_at_known_levels_can_be_simulated() -> None:
    for players in (("human", "bot:normal"), ("bot:normal", "bot:god"), ("bot:normal",)):
        with pytest.raises(ValueError):
            simulate(STANDARD, players, 1, seed=1)  # type: ignore[arg-type]


def test_progress_is_reported_up_to_the_last_round() -> None:
    seen: list[tuple[int, int]] = []
    simulate(STANDARD, NORMAL, 7, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (7, 7)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


# --------------------------------------------------------------------------- the command


def test_run_cli_prints_one_json_object_with_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(rules=STANDARD, seed=4, players=("bot:easy", "bot:expert"))
    assert run_cli(settings, 12, as_json=True) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert list(data) == KEYS and data["games"] == 12
    assert err == ""  # no progress bar: stderr is not a terminal
    assert _fixed(SimResult(**data)) == _fixed(simulate(STANDARD, settings.players, 12, 4))


def test_run_cli_prints_a_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(rules=Rules.for_deck("skat"), seed=4, players=("bot:easy", "bot:hard"))
    assert run_cli(settings, 10, as_json=False) == 0
    out, err = capsys.readouterr()
    for word in (
        "games:",
        "finished:",
        "wins:",
        "actions:",
        "virtual seconds",
        "stresses:",
        "stalls:",
        "games per second",
        "violations:",
        "seed:        4",
        "skat",
    ):
        assert word in out
    assert err == ""


def test_run_cli_without_a_seed_draws_one_and_says_which(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_cli(Settings(rules=STANDARD, players=NORMAL), 2, as_json=False) == 0
    assert "seed:" in capsys.readouterr().out
    assert run_cli(Settings(rules=STANDARD, players=NORMAL), 2, as_json=True) == 0
    out, err = capsys.readouterr()
    assert list(json.loads(out)) == KEYS and err.startswith("seed: ")


def test_the_progress_bar_draws_on_one_line_and_wipes_itself() -> None:
    class Screen:
        text = ""

        def write(self, text: str) -> int:
            self.text += text
            return len(text)

        def flush(self) -> None:
            pass

    from stress_tui.players.progress import progress_bar

    screen = Screen()
    show = progress_bar(screen)  # type: ignore[arg-type]
    show(5, 10)
    assert screen.text.startswith("\r[") and "5/10" in screen.text and "\n" not in screen.text
    show(10, 10)
    assert screen.text.endswith("\r") and screen.text.split("\r")[-2].strip() == ""


# --------------------------------------------------------------------------- in parallel


@pytest.fixture
def two_processes(monkeypatch: pytest.MonkeyPatch) -> int:
    """Runs of a few chunks of rounds are played in several processes: how many rounds are
    worth a process is a matter of speed (``ROUNDS_PER_PROCESS``,
    ``ROUNDS_PER_MEASURED_PROCESS``), and what a run gives does not depend on it. Returns
    the fewest rounds a run on the free cores plays in two processes."""
    monkeypatch.setattr(sim, "ROUNDS_PER_PROCESS", 2 * parallel.CHUNK)
    monkeypatch.setattr(sim, "ROUNDS_PER_MEASURED_PROCESS", 2 * parallel.CHUNK)
    return 2 * sim.ROUNDS_PER_MEASURED_PROCESS


def test_the_command_gives_the_same_json_for_one_job_and_for_two(
    two_processes: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Round i depends on the seed and i alone, and the rounds are summed in their order:
    every key but the speed is the same however many processes play. (The command in a
    process of its own, with its workers: the kill -9 below, tests/test_sim_terminal.py.)"""
    games = str(two_processes)
    args = ["sim", "--json", "--games", games, "--seed", "13", "--deck", "jass", "--jokers", "2"]
    played = []
    for jobs in ("1", "2"):
        assert main([*args, "--jobs", jobs]) == 0
        out, err = capsys.readouterr()
        # The machine's other work may leave fewer cores free than asked for (said in a line).
        assert err in ("", "--jobs 2: 1 of the cores free now, playing on 1\n")
        played.append({**json.loads(out), "games_per_second": 0})
    assert played[0] == played[1]
    assert played[0]["games"] == two_processes


def test_rounds_in_parallel_sum_to_the_same_result_and_violations_in_order(
    two_processes: int,
) -> None:
    rules = Rules.for_deck("skat", stress_penalty="give")
    games = 3 * two_processes  # enough for three processes
    alone = simulate(rules, ("bot:hard", "bot:easy"), games, seed=8)
    for jobs in (2, 3):
        assert _fixed(simulate(rules, ("bot:hard", "bot:easy"), games, seed=8, jobs=jobs)) == (
            _fixed(alone)
        )
    assert _fixed(soak(games, seed=4, jobs=2)) == _fixed(soak(games, seed=4))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux")
def test_two_jobs_play_in_this_process_and_one_other_that_leaves_ctrl_c_to_this_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each round says which process played it and whether Ctrl-C is ignored there
    (through the violation hook, in order of the rounds): two jobs are this process and
    one worker, not two workers beside a process that only waits for them."""

    def where(rules: Rules, players: object, seed: int, index: int) -> sim.RoundResult:
        ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        return sim.RoundResult(True, 0, 1, 1.0, 0, 0, violation=f"{os.getpid()} {ignored}")

    monkeypatch.setattr(sim, "play_round", where)
    seen: list[tuple[int, str]] = []
    # Ctrl-C as in a terminal, whatever started the tests (a script's ``&`` ignores it).
    outer = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        simulate(
            STANDARD, NORMAL, 128, 1, on_violation=lambda i, what: seen.append((i, what)), jobs=2
        )
        here = signal.getsignal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, outer)
    assert [index for index, _ in seen] == list(range(128))
    processes = {what for _, what in seen}
    assert f"{os.getpid()} False" in processes, processes
    workers = processes - {f"{os.getpid()} False"}
    assert len(workers) == 1 and all(what.endswith(" True") for what in workers), processes
    assert here is signal.default_int_handler, "restored here"


def test_jobs_above_the_free_cores_play_on_those_and_say_so(
    two_processes: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sim --jobs 2`` where the run measures 1.2 cores free: one line on stderr, and
    the same rounds as ``--jobs 1``; on two free cores, no line."""
    settings = Settings(rules=STANDARD, seed=5, players=NORMAL)
    games = two_processes
    assert run_cli(settings, games, as_json=True, jobs=1) == 0
    alone = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(parallel, "SAMPLE", 0.0)
    for free, said in [(1.2, "--jobs 2: 1 of the cores free now, playing on 1\n"), (2.0, "")]:
        monkeypatch.setattr(parallel, "available_cores", lambda: 2)
        monkeypatch.setattr(parallel._Sample, "free", lambda self, free=free: free)
        assert run_cli(settings, games, as_json=True, jobs=2) == 0
        out, err = capsys.readouterr()
        assert err == said
        played = json.loads(out)
        assert {**played, "games_per_second": 0} == {**alone, "games_per_second": 0}


def test_sim_without_jobs_plays_on_the_free_cores_and_says_nothing(
    two_processes: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without --jobs, a machine of four cores with one free plays in one process, not
    two that would wait for each other and the busy ones (a run this long starts two:
    ``ROUNDS_PER_MEASURED_PROCESS``); it is not asked for more, so it says nothing."""
    monkeypatch.setattr(sim, "available_cores", lambda: 4)
    monkeypatch.setattr(parallel, "available_cores", lambda: 4)
    monkeypatch.setattr(parallel, "SAMPLE", 0.0)
    monkeypatch.setattr(parallel._Sample, "free", lambda self: 1.0)
    told: list[int] = []  # the jobs asked for, then the free cores
    real = parallel.in_order

    def in_order(work: Any, count: int, jobs: int, when_busy: Any) -> Any:
        def busy(free: int) -> None:
            told.append(free)
            when_busy(free)

        told.append(jobs)
        return real(work, count, jobs, busy)

    monkeypatch.setattr(sim, "in_order", in_order)
    games = two_processes
    assert run_cli(Settings(rules=STANDARD, seed=1, players=NORMAL), games, as_json=True) == 0
    out, err = capsys.readouterr()
    assert told == [2, 1] and err == ""
    assert json.loads(out)["games"] == games


def test_a_short_run_on_the_free_cores_starts_no_worker(
    two_processes: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sim --jobs 2`` of fewer rounds than two measured processes need plays in this
    one: where the cores are busy, a worker started and given up again would cost more
    than it could win."""
    started: list[int] = []
    real = parallel.in_order

    def in_order(work: Any, count: int, jobs: int, when_busy: Any) -> Any:
        started.append(jobs)
        return real(work, count, jobs, when_busy)

    monkeypatch.setattr(sim, "in_order", in_order)
    settings = Settings(rules=STANDARD, seed=1, players=NORMAL)
    assert run_cli(settings, two_processes - 1, as_json=True, jobs=2) == 0
    assert started == []
    assert capsys.readouterr().err == ""


def test_jobs_must_be_at_least_one() -> None:
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        simulate(STANDARD, NORMAL, 5, 1, jobs=0)


def in_session(sid: int) -> list[int]:
    """The processes still running in session ``sid`` (the program's own, started in a
    session of its own, and the workers it started), zombies aside."""
    running = []
    for proc in Path("/proc").iterdir():
        try:
            # pid (comm) state ppid pgrp session ...: comm may hold spaces, not ")"
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[3]) == sid:
            running.append(int(proc.name))
    return running


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux")
def test_the_workers_end_with_a_simulator_killed_without_a_word() -> None:
    """kill -9 of ``sim --jobs 3`` (the simulator and two workers), which cannot end its
    workers: they find it gone and end too (none holds the simulator's end of another's
    pipe)."""
    argv = [sys.executable, "-m", "stress_tui", "sim", "--games", "20000", "--jobs", "3"]
    run = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        wait_until(lambda: len(in_session(run.pid)) == 3, "the simulator and its two workers")
        run.kill()
        run.wait()
        wait_until(lambda: in_session(run.pid) == [], "the workers to end")
    finally:  # what a failure leaves
        run.kill()
        run.wait()
        for pid in in_session(run.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def wait_until(done: Callable[[], bool], what: str, guard: float = 60.0) -> None:
    """Wait for ``done()``; a guard against a hang, not a measure of time."""
    deadline = time.monotonic() + guard
    while not done():
        assert time.monotonic() < deadline, f"still waiting for {what} after {guard} s"
        time.sleep(0.02)


# --------------------------------------------------------------------------- invariants


@pytest.mark.one_python  # pure logic: the engine and the bots on a virtual clock, any seed
def test_invariants_hold_over_rounds_across_decks_and_house_rules() -> None:
    """Every deck, deal, row size, stacking, wrap, penalty, false-stress rule and the stop,
    every pairing of levels."""
    variants = rule_variants()
    problems = []
    for index in range(240):
        rules = variants[(index * 7) % len(variants)]
        players = LEVEL_PAIRS[index % len(LEVEL_PAIRS)]
        result = play_round(rules, players, 99, index)
        if result.violation is not None or not result.finished:
            problems.append((index, rules, players, result.violation))
    assert problems == []


@pytest.mark.one_python  # pure logic: the rule sets made from the house-rule table
def test_every_deck_and_house_rule_combination_is_in_the_soak() -> None:
    variants = rule_variants()
    assert len(variants) == len(set(variants))
    assert {r.deck for r in variants} == {"standard", "jass", "skat", "doppelkopf", "german"}
    for name in (
        "deal",
        "jokers",
        "row_size",
        "stacking",
        "wrap",
        "stress_penalty",
        "taken",
        "flip_ready",
        "false_stress",
        "stress_stop",
    ):
        assert len({getattr(r, name) for r in variants}) >= 2, name
    assert {r.jokers for r in variants} == {0, 2, 16}, "16: the most, where rounds ran away"


@pytest.mark.one_python  # pure logic: the engine and the bots on a virtual clock, any seed
def test_sixteen_jokers_with_doppelkopf_dealt_each_end_within_the_bounds() -> None:
    """With 32 jokers among 128 cards every few plays open stress and the slower takes
    the piles back: rounds go on for long (docs/rules.md), but end, by a last card or,
    seldom, drawn without progress."""
    rules = Rules.for_deck("doppelkopf", jokers=16, deal="each")
    result = simulate(rules, NORMAL, 20, seed=1)  # thousands: the slow soak below
    assert result.invariant_violations == 0
    assert result.finished == 20


@pytest.mark.one_python  # pure logic: the engine and the bots on a virtual clock, any seed
@pytest.mark.parametrize("deck", ["standard", "jass", "skat", "doppelkopf"])
def test_the_simulator_keeps_every_invariant_on_every_deck(deck: str) -> None:
    """``stress-tui sim --json``: 60 rounds a deck, with jokers, the weakest against the
    strongest computer."""
    done = command.run(
        "sim",
        "--games",
        "60",
        "--json",
        "--deck",
        deck,
        "--jokers",
        "2",
        "--p1",
        "bot:easy",
        "--p2",
        "bot:expert",
        "--seed",
        "3",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["invariant_violations"] == 0
    assert result["finished"] == result["games"] == 60


def test_a_stress_with_the_draw_piles_empty_and_penalty_one_still_ends_the_round() -> None:
    """Found by the soak: the slower took the lone card of the smaller pile and flipped it
    straight back into the same stress, for ever (the engine now gives both piles)."""
    g = game("""
        rules: standard penalty=one
        phase: stress
        p1 row: 7S | 8C | 4H | 2H
        piles: 2C 3D 4S 5H 6C | 6D
        p2 row: 7D | 8H | 3S | 2S
    """)
    bots = (make_bot(0, "expert", random.Random(1)), make_bot(1, "normal", random.Random(2)))
    result = run_round(g, bots)
    assert result.violation is None and result.finished and result.winner is not None
    assert result.seconds < 60


def test_a_dead_table_ends_the_round_drawn_and_that_is_finished() -> None:
    """Nothing fits and nothing is left to flip but the same cards: after the engine's
    dead-table count of flips the round ends drawn, for nobody."""
    g = game("""
        rules: standard
        phase: waiting
        p1 row: 5H | - | - | -
        piles: 9C | JD
        p2 row: 5S | - | - | -
    """)
    bots = (make_bot(0, "easy", random.Random(1)), make_bot(1, "easy", random.Random(2)))
    result = run_round(g, bots)
    assert result.violation is None and result.finished and result.winner is None
    assert result.ending == "dead_table"


class _Meddler:
    """A driver that passes for a bot but does something to the game when asked."""

    def __init__(self, g: Game, player: int, meddle: Callable[[Game], object]) -> None:
        self.inner = make_bot(player, "normal", random.Random(player))
        self.game = g
        self.player = player
        self.meddle = meddle
        self.calls = 0

    def decide(self, view: PlayerView) -> Action | None:
        self.calls += 1
        if self.calls == 25:
            self.meddle(self.game)
        return self.inner.decide(view)


def _largest(g: Game) -> list[Card]:
    """The biggest heap of cards on the table (a draw pile or a play pile)."""
    heaps = [p.draw_pile for p in g.state.players] + list(g.state.play_piles)
    return max(heaps, key=len)


def _with(meddle: Callable[[Game], object]) -> sim.RoundResult:
    g = Game.deal(STANDARD, random.Random(3))
    drivers: tuple[Driver, ...] = (_Meddler(g, 0, meddle), make_bot(1, "normal", random.Random(9)))
    return run_round(g, drivers)


def test_a_lost_card_is_a_violation_and_the_round_is_not_finished() -> None:
    result = _with(lambda g: _largest(g).pop(0))
    assert not result.finished and result.winner is None and result.violation is not None
    assert "cards on the table" in result.violation


def test_a_duplicated_card_is_a_violation() -> None:
    def duplicate(g: Game) -> None:
        heap = _largest(g)
        heap.insert(0, heap[-1])

    assert "cards on the table" in (_with(duplicate).violation or "")


def test_a_card_swapped_for_another_is_a_violation_but_an_equal_copy_is_not() -> None:
    def swap(g: Game) -> None:
        heap = _largest(g)
        heap[0] = Card(heap[0].rank % 13 + 2, heap[0].suit)  # another rank: a duplicate

    def copy(g: Game) -> None:
        heap = _largest(g)
        heap[0] = Card(heap[0].rank, heap[0].suit)

    assert (_with(swap).violation or "").startswith("lost ")
    fine = _with(copy)
    assert fine.violation is None and fine.finished


def test_a_table_with_nothing_to_do_before_the_round_is_over_is_a_violation() -> None:
    g = Game.deal(STANDARD, random.Random(3))
    result = run_round(g, ())  # nobody at the table: the flip comes, then nothing
    assert not result.finished and result.winner is None
    assert (result.violation or "").startswith("nothing left to do")


def test_a_round_over_the_bounds_is_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "MAX_ACTIONS", 30)
    result = play_round(STANDARD, NORMAL, 1, 0)
    assert result.violation == "over 30 actions" and result.winner is None
    monkeypatch.setattr(sim, "MAX_ACTIONS", 20_000)
    monkeypatch.setattr(sim, "MAX_SECONDS", 10.0)
    result = play_round(STANDARD, NORMAL, 1, 0)
    assert result.violation == "over 10 virtual seconds"
    counted = simulate(STANDARD, NORMAL, 3, 1)
    assert counted.invariant_violations == 3 and counted.finished == 0


def test_a_crash_is_a_violation_not_the_end_of_the_run() -> None:
    def crash(g: Game) -> None:
        raise RuntimeError("boom")

    result = _with(crash)
    assert result.violation == "RuntimeError: boom" and result.winner is None


def test_violations_are_reported_with_the_round_to_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reported: list[tuple[int, str]] = []
    monkeypatch.setattr(sim, "MAX_ACTIONS", 30)
    simulate(STANDARD, NORMAL, 3, 1, on_violation=lambda i, what: reported.append((i, what)))
    assert reported == [(i, "over 30 actions") for i in range(3)]
    assert play_round(STANDARD, NORMAL, 1, 2).violation == "over 30 actions"


# --------------------------------------------------------------------------- long runs


@pytest.mark.slow
def test_ten_thousand_rounds_across_every_deck_and_house_rule_keep_every_invariant() -> None:
    """Every combination of ``rule_variants``, 16 jokers included, every pairing of levels."""
    problems: list[str] = []

    def note(index: int, rules: Rules, players: tuple[str, str], what: str) -> None:
        problems.append(f"round {index} {rules} {players}: {what}")

    result = soak(10_000, seed=0, on_violation=note)
    assert result.invariant_violations == 0, "\n".join(problems)
    assert result.finished == result.games == 10_000


@pytest.mark.slow
@pytest.mark.parametrize(
    ("level", "below"),
    [
        ("normal", "easy"),
        ("hard", "normal"),
        ("expert", "hard"),
    ],
)
def test_each_level_beats_the_one_below_in_at_least_70_percent_of_rounds(
    level: str,
    below: str,
) -> None:
    """Standard deck, its default rules, 2,000 rounds: half with each side to play first."""
    rate, first, second = win_rate(STANDARD, level, below, 2000, seed=1)
    assert first.invariant_violations == second.invariant_violations == 0
    assert rate >= 0.70, f"{level} beat {below} in {100 * rate:.1f}% of rounds"


def test_levels_in_the_table_are_the_bot_s_levels() -> None:
    assert {f"bot:{level}" for level in LEVELS} == {p for pair in LEVEL_PAIRS for p in pair}
