"""The yardstick for the rules engine: the same rules in a minimal engine of ints and lists.

    PYTHONPATH=. .venv/bin/python bench/reference_engine.py [--games 1000] [--repeat 5]
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python \
        bench/reference_engine.py --count engine --games 200   # instructions (less --games 0)

``Reference`` plays what ``bench/bench_engine.py``'s policy asks of a round (a flip when
one is due, a stress called by a random player, a random player's first legal play) by
the rules of one deck at its defaults, with nothing else: no actions or events as values,
no checks of what comes in, no judging of a play, no record of covers, lockouts, ready or stop
flags (the policy never makes a move they would refuse); it stops at the first legal play,
where the engine's query lists them all. A card is its rank. It draws from the
random source exactly as the engine does, so a seed plays the same round on both: the
benchmark checks that every round takes as many actions and ends with the same cards in
each hand, then times both on the same rounds, taking turns, and gives the engine's time
an action as a multiple of the reference's. ``--count engine`` (or ``reference``) only
plays the rounds once on one of them and prints the actions, for an instruction count
that the machine's other work does not move: callgrind's total for ``--games N`` less
the total for ``--games 0``, over the actions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_engine import play_round
from stress_tui.core.decks import JOKER
from stress_tui.core.houserules import DEAD_FLIPS, Deal, FalseStress, StressPenalty, Taken
from stress_tui.core.rules import Rules

WAITING, PLAYING, STRESS, OVER = range(4)
"""The phases, as ints."""


class Reference:
    """A round by one deck's default rules, as ranks in lists."""

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        assert rules.deal is Deal.SPLIT and not rules.together and not rules.stress_stop
        assert rules.stress_penalty is StressPenalty.BOTH and rules.taken is Taken.UNDER
        assert rules.false_stress is FalseStress.TAKE
        self.rng = rng
        self.fits = rules.fits
        self.stacking = rules.stacking
        self.stale_limit = rules.stale_limit
        deck = [card.rank for card in rules.spec.cards(rules.jokers)]
        rng.shuffle(deck)
        half = (len(deck) + 1) // 2
        self.draw = [deck[:half], deck[half:]]
        self.rows: list[list[list[int]]] = [[[] for _ in range(rules.row_size)] for _ in range(2)]
        self.piles: list[list[int]] = [[], []]
        self.fewest = [len(self.draw[0]), len(self.draw[1])]
        self.phase = WAITING
        self.flips = 0
        self.stale = 0
        self.refill(0)
        self.refill(1)

    def refill(self, player: int) -> None:
        row, draw = self.rows[player], self.draw[player]
        while draw and [] in row:
            gap = row.index([])
            rank = draw.pop()
            if self.stacking and rank != JOKER:
                for pile in row:
                    if pile and pile[0] == rank:
                        pile.append(rank)
                        break
                else:
                    row[gap].append(rank)
            else:
                row[gap].append(rank)

    def first_play(self, player: int) -> tuple[int, int] | None:
        left, right = self.piles
        on_left = self.fits[left[-1]] if left else ()
        on_right = self.fits[right[-1]] if right else ()
        for place, pile in enumerate(self.rows[player]):
            if pile:
                if pile[0] in on_left:
                    return place, 0
                if pile[0] in on_right:
                    return place, 1
        return None

    def held(self, player: int) -> int:
        return len(self.draw[player]) + sum(map(len, self.rows[player]))

    def play(self, player: int, place: int, target: int) -> None:
        row = self.rows[player]
        cards = row[place]
        row[place] = []
        self.piles[target] += cards
        self.flips = 0
        self.refill(player)
        held = self.held(player)
        if held < self.fewest[player]:
            self.fewest[player] = held
            self.stale = 0
            if not held:
                self.phase = OVER
                return
        else:
            self.stale += 1
            if self.stale >= self.stale_limit:
                self.phase = OVER
                return
        other = self.piles[1 - target]
        if cards[-1] == JOKER or (other and other[-1] == cards[-1]):
            self.phase = STRESS
            return
        if self.stalled():
            self.phase = WAITING

    def stalled(self) -> bool:
        left, right = self.piles
        on_left = self.fits[left[-1]] if left else ()
        on_right = self.fits[right[-1]] if right else ()
        for row in self.rows:
            for pile in row:
                if pile and (pile[0] in on_left or pile[0] in on_right):
                    return False
        return True

    def flip(self) -> None:
        if self.flips >= DEAD_FLIPS:
            self.phase = OVER
            return
        self.flips += 1
        draw, piles = self.draw, self.piles
        if not draw[0] and not draw[1]:
            for player in (0, 1):
                taken = piles[player][:]
                piles[player].clear()
                self.rng.shuffle(taken)
                draw[player].extend(taken)
        left, right = piles
        right_first = (bool(right), not draw[1]) < (bool(left), not draw[0])
        for target in (1, 0) if right_first else (0, 1):
            source = target if draw[target] else 1 - target
            if draw[source]:
                piles[target].append(draw[source].pop())
        self.refill(0)
        self.refill(1)
        self.phase = PLAYING
        for player in (0, 1):
            self.fewest[player] = min(self.fewest[player], self.held(player))
        if left and right and left[-1] == right[-1] != JOKER:
            self.phase = STRESS
        elif self.stalled():
            self.phase = WAITING

    def call(self, player: int) -> None:
        loser = 1 - player
        taken = self.piles[0] + self.piles[1]
        self.piles[0].clear()
        self.piles[1].clear()
        self.rng.shuffle(taken)
        self.draw[loser][:0] = taken
        self.refill(loser)
        self.phase = WAITING


def play_reference(seed: int, rules: Rules) -> tuple[int, tuple[int, int]]:
    """``bench_engine.play_round``'s round on the reference: its actions, and the cards
    each player holds at its end."""
    rng = random.Random(seed)
    game = Reference(rules, rng)
    actions = 0
    while game.phase != OVER:
        actions += 1
        phase = game.phase
        if phase == WAITING:
            game.flip()
        elif phase == STRESS:
            game.call(rng.randrange(2))
        else:
            player = rng.randrange(2)
            play = game.first_play(player)
            if play is not None:
                game.play(player, *play)
    return actions, (game.held(0), game.held(1))


def _actions(played: int | tuple[int, tuple[int, int]]) -> int:
    return played if isinstance(played, int) else played[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--deck", default="standard")
    parser.add_argument(
        "--count",
        choices=("engine", "reference"),
        help="only play the rounds once on one of them (to count instructions under callgrind)",
    )
    args = parser.parse_args()
    rules = Rules.for_deck(args.deck)
    if args.count is not None:
        play = play_round if args.count == "engine" else play_reference
        played = sum(_actions(play(seed, rules)) for seed in range(args.games))
        print(f"{args.count}: {args.games} rounds, {played} actions")
        return 0
    actions = 0
    for seed in range(args.games):
        count, held = play_reference(seed, rules)
        engine_count, engine_held = play_round(seed, rules, with_hands=True)
        assert (count, held) == (engine_count, engine_held), (seed, count, engine_count)
        actions += count
    print(f"{args.deck}: {args.games} rounds, {actions} actions: the same on both")
    times: dict[str, list[float]] = {"engine": [], "reference": []}
    for turn in range(args.repeat):
        for name in ("engine", "reference") if turn % 2 == 0 else ("reference", "engine"):
            start = time.process_time()
            for seed in range(args.games):
                if name == "engine":
                    play_round(seed, rules)
                else:
                    play_reference(seed, rules)
            times[name].append((time.process_time() - start) / actions * 1e6)
    engine, reference = min(times["engine"]), min(times["reference"])
    print(
        f"engine {engine:.2f} us an action, reference {reference:.2f} (best of {args.repeat}, "
        f"CPU time, taking turns; medians {statistics.median(times['engine']):.2f} and "
        f"{statistics.median(times['reference']):.2f}): {engine / reference:.2f}x "
        "(goal: at most 1.3x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
