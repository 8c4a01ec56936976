"""Benchmark the headless simulator: complete rounds per second on one core.

    .venv/bin/python bench/bench_sim.py              # normal vs normal, standard deck
    .venv/bin/python bench/bench_sim.py --games 5000 --repeat 5 --p1 hard --p2 expert
    .venv/bin/python bench/bench_sim.py --profile    # where the time goes, by module
    .venv/bin/python bench/bench_sim.py --bot        # the time the bots take to decide
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python bench/bench_sim.py --count --games 200   # instructions (less --games 0)
    .venv/bin/python bench/bench_sim.py --levels --games 4000   # docs/bot.md's tables
    .venv/bin/python bench/bench_sim.py --jobs 2 --games 4000 --repeat 9   # N processes vs 1
    .venv/bin/python bench/bench_sim.py --jobs 2 --busy 1 0 --games 2000 --repeat 5  # 1 busy, 0

(``.venv`` is made by ``bash scripts/test``; ``PYTHONPATH=. python3`` works as well.)

Reproducible: the same seed and number of games play the same rounds every time (the
rounds/s figure is the only thing that varies). Each repeat plays the same rounds; the
best repeat is the figure to quote (the others measure the machine's other work), on CPU
time of this process, with wall-clock time beside it.

``--jobs N`` measures ``sim --jobs N`` against ``--jobs 1`` on the same rounds in
wall-clock time: ``simulate(..., jobs=N)`` on the free cores as the command plays
(``when_busy``: it measures them in its first tenth of a second, and the measure is in its
time), the two taking turns (1, N, N, 1, 1, N, ...) so that a load that comes and goes
weighs on both alike. The figure is the ratio of each run of N to the run of 1 beside it,
min-median-max over the pairs, against the goal of 0.9 x N (up to the cores the machine
has) for the median; beside it the ratio of the best runs, and the CPU time all the
processes take, which bounds what N idle cores could give. Each run starts its worker
processes afresh, as a command does. ``--busy K`` keeps K cores busy meanwhile (K ``yes >
/dev/null`` loops, ended by their pids when it is done, each in a session of its own as
another program's work is: where the kernel shares the CPU between sessions, a loop in
this one would take its time from this benchmark alone): the goal is then never to be
slower than one process (0.95 x ``--jobs 1``); ``--busy 1 0`` measures with one loop, then
with none. The load average is printed before and after, since other work on the machine
is a busy core too.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import itertools
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.reference import against_loop, loop_seconds, said
from stress_tui.core.actions import Action
from stress_tui.core.engine import Game
from stress_tui.core.rules import Rules
from stress_tui.core.table import Driver
from stress_tui.core.view import PlayerView, player_view
from stress_tui.players.bot import LEVELS, make_bot
from stress_tui.players.parallel import available_cores
from stress_tui.players.sim import (
    play_round,
    round_rngs,
    run_round,
    simulate,
    win_rate,
)


def _run(rules: Rules, players: tuple[str, str], games: int, seed: int) -> tuple[float, float]:
    """CPU seconds and wall seconds for one pass."""
    cpu, wall = time.process_time(), time.perf_counter()
    for index in range(games):
        play_round(rules, players, seed, index)
    return time.process_time() - cpu, time.perf_counter() - wall


def _profile(rules: Rules, players: tuple[str, str], games: int, seed: int) -> None:
    profile = cProfile.Profile()
    profile.enable()
    simulate(rules, players, games, seed)
    profile.disable()
    stats = pstats.Stats(profile)
    by_module: dict[str, float] = {}
    raw = stats.stats  # type: ignore[attr-defined]
    for (filename, _, _), (_, _, own, _, _) in raw.items():
        name = Path(filename).name if "stress_tui" in filename else "python (builtins, random)"
        by_module[name] = by_module.get(name, 0.0) + own
    total = sum(by_module.values())
    print("\nown time by module (under cProfile, which inflates calls):")
    for name, own in sorted(by_module.items(), key=lambda item: -item[1]):
        print(f"  {name:28s} {100 * own / total:5.1f}%")
    print()
    stats.sort_stats("tottime").print_stats(25)


class _Timed:
    """A driver that adds up the time the driver it wraps takes to decide."""

    def __init__(self, inner: Driver, spent: list[float]) -> None:
        self.inner = inner
        self.player = inner.player
        self.spent = spent

    def decide(self, view: PlayerView) -> Action | None:
        clock = time.perf_counter
        start = clock()
        action = self.inner.decide(view)
        self.spent[0] += clock() - start
        self.spent[1] += 1
        return action


class _Idle:
    """A driver that does nothing: what ``_Timed`` costs by itself."""

    player = 0

    def decide(self, view: PlayerView) -> Action | None:
        return None


def _bot(rules: Rules, players: tuple[str, str], games: int, seed: int, repeat: int) -> None:
    """The time spent in the bots' ``decide`` per round and per decision: the same rounds as the
    benchmark, each bot wrapped in a timer (whose own cost is measured and taken off)."""
    levels = [kind.partition(":")[2] for kind in players]
    best = float("inf")
    plans = 0.0
    for _ in range(repeat):
        spent = [0.0, 0.0]
        for index in range(games):
            deal_rng, *rngs = round_rngs(seed, index)
            game = Game.deal(rules, deal_rng)
            drivers = tuple(
                _Timed(make_bot(side, level, rng), spent)
                for side, (level, rng) in enumerate(zip(levels, rngs, strict=True))
            )
            run_round(game, drivers)
        best, plans = min(best, spent[0]), spent[1]
    idle, idle_spent = _Timed(_Idle(), [0.0, 0.0]), float("inf")
    view = player_view(Game.deal(rules, round_rngs(seed, 0)[0]).state, 0)
    for _ in range(repeat):
        idle.spent[:] = [0.0, 0.0]
        for _ in range(int(plans)):
            idle.decide(view)
        idle_spent = min(idle_spent, idle.spent[0])
    bots = best - idle_spent
    print(
        f"{rules.deck}, {players[0]} vs {players[1]}, {games} rounds, seed {seed}: the bots "
        f"take {1e3 * bots / games:.3f} ms a round, {1e6 * bots / plans:.2f} us a plan "
        f"({plans / games:.1f} plans a round; best of {repeat}, wall time, "
        f"{1e6 * idle_spent / plans:.2f} us a plan of timing taken off)"
    )


ABLATIONS: tuple[tuple[str, str, str, dict[str, object]], ...] = (
    ("standard", "normal", "chains and stacks", {"chains": False, "stacks": False}),
    ("standard", "normal", "misses", {"miss": 0.0}),
    ("standard", "easy", "misses and false calls", {"miss": 0.0, "false_call": 0.0}),
    ("standard", "hard", "blocking", {"blocks": False}),
    ("standard", "hard", "making stress", {"makes_stress": False}),
    ("jass", "hard", "the stress stop", {"stops": False}),
    (
        "standard",
        "expert",
        "all its sense",
        {
            "chains": False,
            "stacks": False,
            "blocks": False,
            "makes_stress": False,
            "stops": False,
        },
    ),
)
"""Which part of a level's sense is worth what: (deck, level, what is taken away, how)."""


def _levels(games: int, seed: int) -> None:
    """Each level against the one below, and each level against itself without a part of
    its sense: the share of rounds won over both seatings (half the rounds each way)."""
    print(f"each level against the one below: {games} rounds, seed {seed}, both seatings")
    names = list(LEVELS)
    for deck in ("standard", "jass", "skat", "doppelkopf"):
        rules = Rules.for_deck(deck)
        cells = []
        for below, level in itertools.pairwise(names):
            rate, *_ = win_rate(rules, level, below, games, seed)
            cells.append(f"{level} > {below} {100 * rate:5.1f}%")
        print(f"  {deck:11s} " + "   ".join(cells), flush=True)
    print(f"\neach level against itself without a part of its sense: {games} rounds")
    for deck, level, what, changes in ABLATIONS:
        name = f"{level}-without"
        LEVELS[name] = dataclasses.replace(LEVELS[level], name=name, **changes)  # type: ignore[arg-type]
        try:
            rate, *_ = win_rate(Rules.for_deck(deck), level, name, games, seed)
        finally:
            del LEVELS[name]
        print(
            f"  {deck:9s} {level:7s} with {what} wins {100 * rate:5.1f}% against without",
            flush=True,
        )


def _jobs(
    rules: Rules,
    players: tuple[str, str],
    games: int,
    seed: int,
    jobs: int,
    repeat: int,
    busy: int = 0,
) -> None:
    """Rounds per second (wall clock) of ``sim --jobs {jobs}`` against ``--jobs 1``, taking
    turns, with ``busy`` cores kept busy meanwhile: each run plays on the free cores as the
    command does (``when_busy``), its time counting the measure; and the CPU time the run
    takes in all its processes, which other work on the machine does not change (much):
    with ``jobs`` idle cores, the ratio can be at most ``jobs`` times the CPU of one
    process over the CPU of all."""
    rates: dict[int, list[float]] = {1: [], jobs: []}
    cpus: dict[int, list[float]] = {1: [], jobs: []}
    fewer: list[int] = []  # the free cores each run of ``jobs`` played on, where fewer
    results = {}
    load_before = os.getloadavg()[0]
    loops = [
        subprocess.Popen(
            ["yes"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        for _ in range(busy)
    ]
    try:
        for turn in range(repeat):
            for count in (1, jobs) if turn % 2 == 0 else (jobs, 1):
                cpu = _cpu_seconds()
                wall = time.perf_counter()
                result = simulate(rules, players, games, seed, jobs=count, when_busy=fewer.append)
                rates[count].append(games / (time.perf_counter() - wall))
                cpus[count].append(_cpu_seconds() - cpu)
                results[count] = dataclasses.replace(result, games_per_second=0.0)
    finally:
        for loop in loops:  # each by its own pid
            os.kill(loop.pid, 15)
            loop.wait()
    load_after = os.getloadavg()[0]
    assert results[1] == results[jobs], "the same rounds must give the same result"
    one, many = statistics.median(rates[1]), statistics.median(rates[jobs])
    cores = available_cores()
    goal = 0.95 if busy else 0.9 * min(jobs, cores)
    print(
        f"{rules.deck}, {players[0]} vs {players[1]}, {games} rounds a run, seed {seed}, "
        f"{repeat} runs each, taking turns ({cores} cores here, {busy} kept busy by a `yes` "
        f"loop; load average {load_before:.2f} before, {load_after:.2f} after):"
    )
    print(
        f"  --jobs 1     median {one:7.0f} rounds/s (runs {min(rates[1]):.0f}-{max(rates[1]):.0f})"
    )
    print(
        f"  --jobs {jobs:<5d} median {many:7.0f} rounds/s "
        f"(runs {min(rates[jobs]):.0f}-{max(rates[jobs]):.0f}); fewer cores free than "
        f"{jobs} in {len(fewer)} of {repeat} runs (played on {sorted(fewer)})"
    )
    pairs = sorted(n / o for n, o in zip(rates[jobs], rates[1], strict=True))
    median = statistics.median(pairs)
    verdict = "met" if median >= goal else "not met"
    print(
        f"  --jobs {jobs} / --jobs 1 with {busy} busy: min-median-max "
        f"{pairs[0]:.2f}-{median:.2f}-{pairs[-1]:.2f}x over {repeat} pairs of runs side by "
        f"side (goal for the median: at least {goal:.2f}): {verdict}; best run against best "
        f"run {max(rates[jobs]) / max(rates[1]):.2f}x"
    )
    share = statistics.median(cpus[1]) / statistics.median(cpus[jobs])
    print(
        f"  CPU of every process: --jobs {jobs} takes {1 / share:.3f} x --jobs 1's; with "
        f"{jobs} idle cores the ratio could be at most {jobs * share:.2f}"
    )
    print("  results the same for both (all but games_per_second)")


def _cpu_seconds() -> float:
    """User and system CPU of this process and of its children that have ended."""
    own, children = (
        resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="rounds per repeat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="passes over the same rounds")
    parser.add_argument("--p1", default="normal", help="level of player 1")
    parser.add_argument("--p2", default="normal", help="level of player 2")
    parser.add_argument("--deck", default="standard")
    parser.add_argument("--profile", action="store_true", help="profile one pass instead")
    parser.add_argument("--bot", action="store_true", help="time the bots' decisions instead")
    parser.add_argument(
        "--count",
        action="store_true",
        help="only play the rounds once (to count instructions under callgrind)",
    )
    parser.add_argument(
        "--levels", action="store_true", help="measure the levels (docs/bot.md) instead"
    )
    parser.add_argument(
        "--jobs", type=int, help="measure N processes against one instead (wall clock)"
    )
    parser.add_argument(
        "--busy",
        type=int,
        nargs="+",
        default=[0],
        metavar="K",
        help="with --jobs: keep K cores busy meanwhile; several K: one measure each, in turn",
    )
    args = parser.parse_args(argv)
    if args.levels:
        _levels(args.games, args.seed)
        return 0
    rules = Rules.for_deck(args.deck)
    players = (f"bot:{args.p1}", f"bot:{args.p2}")
    if args.profile:
        _profile(rules, players, args.games, args.seed)
        return 0
    if args.count:
        for index in range(args.games):
            play_round(rules, players, args.seed, index)
        return 0
    if args.bot:
        _bot(rules, players, args.games, args.seed, args.repeat)
        return 0
    if args.jobs is not None:
        for busy in args.busy:
            _jobs(rules, players, args.games, args.seed, args.jobs, args.repeat, busy)
        return 0
    result = simulate(rules, players, min(args.games, 200), args.seed)  # warm up, check
    if result.invariant_violations:
        print(f"invariant violations: {result.invariant_violations}", file=sys.stderr)
        return 1
    cpu_rates, wall_rates = [], []

    def run() -> float:
        games = int(args.games)
        cpu, wall = _run(rules, players, games, args.seed)
        cpu_rates.append(games / cpu)
        wall_rates.append(games / wall)
        return wall / games  # against the loop's wall-clock time, beside it

    _, loops = against_loop(run, args.repeat)
    best = max(cpu_rates)
    print(
        f"{args.deck}, {players[0]} vs {players[1]}, {args.games} rounds, seed {args.seed}: "
        f"{best:.0f} rounds/s (best of {args.repeat}, CPU time; "
        f"median {statistics.median(cpu_rates):.0f}; wall best {max(wall_rates):.0f})"
    )
    print(
        f"a round = {said(loops)} of a bare Python loop (each run against the loop timed "
        f"beside it; {loop_seconds() * 1e9:.1f} ns an iteration here, now)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
