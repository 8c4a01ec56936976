"""Benchmark the rules engine: a legality query, and whole seeded rounds by a simple policy.

    python bench/bench_engine.py [--games N]

Prints microseconds per legality query and per action, and complete rounds per second on
one core, and each as iterations of a bare Python loop timed in the same run
(``bench/reference.py``), the figure that holds on another machine. The policy: at every
step a random player makes their first legal play; stress is called by a random player;
the flip comes when due. Figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Literal, overload

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.reference import against_loop, loop_seconds, said
from stress_tui.core.actions import CallStress, Flip, Play
from stress_tui.core.engine import Game, Phase
from stress_tui.core.notation import parse_position
from stress_tui.core.rules import Rules

_WAITING_FLIP, _STRESS, _ROUND_OVER = Phase.WAITING_FLIP, Phase.STRESS, Phase.ROUND_OVER
"""The phases under plain names, as the engine reads them and as the reference reads its
ints: on Python 3.11 reading a member off its enum class takes about 0.2 µs (its
metaclass's ``__getattr__`` keeps the lookup from being specialised), which would be
the loop's cost, not the engine's."""

POSITION = """
rules: standard
p1 row: 5H | 7S 7C | 9D | KD
p1 draw: 2C 3D 4S
piles: 4H 6C | 8D
p2 row: 6D | 8S | QS | 2H
p2 draw: AC
"""


def bench_legality(repeat: int = 200_000) -> tuple[float, float]:
    """Microseconds per ``legal_plays`` query on a fixed position (best of five), and as
    bare-loop iterations timed beside each run."""
    game = Game(parse_position(POSITION), random.Random(0))

    def run() -> float:
        start = time.perf_counter()
        for _ in range(repeat):
            game.legal_plays(0)
        return (time.perf_counter() - start) / repeat

    best, loops = against_loop(run, 5)
    return best * 1e6, loops


@overload
def play_round(seed: int, rules: Rules) -> int: ...
@overload
def play_round(
    seed: int, rules: Rules, with_hands: Literal[True]
) -> tuple[int, tuple[int, int]]: ...


def play_round(seed: int, rules: Rules, with_hands: bool = False) -> Any:
    """Play one seeded round to its end; return how many actions it took (and, with
    ``with_hands``, the cards each player holds at its end)."""
    rng = random.Random(seed)
    game = Game.deal(rules, rng)
    state = game.state
    now, actions = 0.0, 0
    while state.phase is not _ROUND_OVER:
        now += 0.1
        actions += 1
        phase = state.phase
        if phase is _WAITING_FLIP:
            game.apply(Flip(now))
        elif phase is _STRESS:
            game.apply(CallStress(rng.randrange(2), now))
        else:
            player = rng.randrange(2)
            plays = game.legal_plays(player)
            if plays:
                pile, target = plays[0]
                game.apply(Play(player, pile, target, now))
    if with_hands:
        one, two = game.state.players
        return actions, (one.card_total(), two.card_total())
    return actions


def bench_rounds(games: int, rules: Rules) -> tuple[float, float, float]:
    """Rounds per second, microseconds per action and bare-loop iterations per round
    (best of three runs, each beside its own timing of the loop)."""
    per_action: list[float] = []

    def run() -> float:
        start = time.perf_counter()
        actions = sum(play_round(seed, rules) for seed in range(games))
        elapsed = time.perf_counter() - start
        per_action.append(elapsed / actions * 1e6)
        return elapsed / games

    best, loops = against_loop(run, 3)
    return 1 / best, min(per_action), loops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    query, loops = bench_legality()
    print(f"legal_plays query: {query:.2f} us = {said(loops)}")
    for deck in ("standard", "jass", "skat", "doppelkopf"):
        rate, per_action, loops = bench_rounds(args.games, Rules.for_deck(deck))
        print(
            f"{deck:>10}: {rate:7.0f} rounds/s, {per_action:5.1f} us/action; a round = "
            f"{said(loops)}"
        )
    print(f"bare loop: {loop_seconds() * 1e9:.1f} ns an iteration here, now")
    lengths = [play_round(seed, Rules.for_deck("standard")) for seed in range(200)]
    print(f"standard round: median {statistics.median(lengths):.0f} actions")


if __name__ == "__main__":
    main()
