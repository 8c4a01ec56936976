"""The yardstick for the rules engine: the same rules in a minimal engine of ints and lists.

    PYTHONPATH=. .venv/bin/python bench/reference_engine.py [--games 1000] [--repeat 25]
        [--instructions]
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python \
        bench/reference_engine.py --count engine --games 200   # instructions (less --games 0)

``Reference`` is a minimal engine of the same rules as the engine, for the rules of
one deck at its defaults (the deal split, no laying together, no stress stop, a false
call taking the piles, both players ready for a flip, a lockout after a misplay), with a
card as its rank, the phases as ints and the rest in lists. It judges and records what
the engine judges and records on each action: a time that runs back, or a player or pile
that does not exist, raises; a play is taken only while the round is played, from a
player not locked out, from a place with a card, onto a pile it fits, and otherwise
refused: too late (a race lost: it fitted a card the opponent covered within the race
window, without a lockout) or a misplay (with a lockout); each play keeps the covers of
the race window, clears the ready flags, counts the plays without progress and opens
stress or waits for the flip; a call settles stress or costs a false caller the piles; a
flip recycles the piles, flips, refills, and opens stress or finds the table stalled.
What the engine does beyond that is what it is measured by: its actions and events as
values, the house rules this deck leaves off (the stress stop's flags among them), the
type checks of what comes in (a ``bool`` or a ``float`` where an ``int`` belongs).

The same policy on both, ``bench/bench_engine.py``'s: a flip when one is due, stress
called by a random player, otherwise a random player's first legal play, taken from the
list of every legal play (``legal_plays``, on both): the list is what the rules are
asked for (``core/legal.py``'s one function: the computer player chooses among the plays
its view lists, the learning screen goes through the engine's), so the reference lists
them all too rather than stopping at the first. It draws from the random source exactly
as the engine does, so a seed plays the same round on both: the benchmark checks that
every round takes as many actions and ends with the same cards in each hand, and that
random actions, refused ones among them, are taken and refused alike on both
(``judged_alike``, the first 50 rounds), then times both on the same rounds, taking
turns, and gives the engine's time an action as a multiple of the reference's: the
median of each turn's ratio (the engine's run over the reference's beside it), which
holds within a few hundredths on a busy machine where the best of a few long runs on
each side swings by a tenth.
``--count engine`` (or ``reference``) only plays the rounds once on one of them and prints the
actions, for an instruction count that the machine's other work does not move:
callgrind's total for ``--games N`` less the total for ``--games 0``, over the actions;
``--instructions`` runs those four counts itself after the timing and prints the
engine's instructions an action as a multiple of the reference's.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_engine import play_round
from stress_tui.core.actions import Action, CallStress, Flip, Play, ReadyToFlip
from stress_tui.core.decks import JOKER
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import Rejected
from stress_tui.core.houserules import (
    DEAD_FLIPS,
    Deal,
    FalseStress,
    FlipReady,
    StressPenalty,
    Taken,
)
from stress_tui.core.rules import Rules

WAITING, PLAYING, STRESS, OVER = range(4)
"""The phases, as ints."""

INFINITY = math.inf

_PHASES = {
    Phase.WAITING_FLIP: WAITING,
    Phase.PLAYING: PLAYING,
    Phase.STRESS: STRESS,
    Phase.ROUND_OVER: OVER,
}
"""The engine's phases as the reference's ints."""


class Reference:
    """A round by one deck's default rules, as ranks in lists: the engine's rules on the
    rounds the benchmark plays, judged and recorded as the engine judges and records them."""

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        assert rules.deal is Deal.SPLIT and not rules.together and not rules.stress_stop
        assert rules.stress_penalty is StressPenalty.BOTH and rules.taken is Taken.UNDER
        assert rules.false_stress is FalseStress.TAKE and rules.flip_ready is FlipReady.BOTH
        assert rules.lockout > 0
        self.rng = rng
        self.fits = rules.fits
        self.stacking = rules.stacking
        self.stale_limit = rules.stale_limit
        self.lockout = rules.lockout
        self.race_window = rules.race_window
        self.size = rules.row_size
        deck = [card.rank for card in rules.spec.cards(rules.jokers)]
        rng.shuffle(deck)
        half = (len(deck) + 1) // 2
        self.draw = [deck[:half], deck[half:]]
        self.rows: list[list[list[int]]] = [[[] for _ in range(self.size)] for _ in range(2)]
        self.piles: list[list[int]] = [[], []]
        self.covers: list[list[tuple[int, float, int]]] = [[], []]
        """For each play pile, (player, time, rank covered) of the plays onto it within
        the race window of the latest."""
        self.locked_until = [0.0, 0.0]
        self.ready = [False, False]
        self.fewest = [len(self.draw[0]), len(self.draw[1])]
        self.phase = WAITING
        self.time = 0.0
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

    def legal_plays(self, player: int) -> list[tuple[int, int]]:
        """Every (row pile, play pile) the rules allow ``player`` now, lockouts aside."""
        if self.phase != PLAYING:
            return []
        left, right = self.piles
        on_left = self.fits[left[-1]] if left else ()
        on_right = self.fits[right[-1]] if right else ()
        plays = []
        for place, pile in enumerate(self.rows[player]):
            if pile:
                if pile[0] in on_left:
                    plays.append((place, 0))
                if pile[0] in on_right:
                    plays.append((place, 1))
        return plays

    def held(self, player: int) -> int:
        return len(self.draw[player]) + sum(map(len, self.rows[player]))

    def judge(self, time: float) -> None:
        """Refuse a time that runs back or is no time; keep it."""
        if not self.time <= time < INFINITY:
            raise ValueError(time)
        self.time = time

    def play(self, player: int, place: int, target: int, time: float) -> bool:
        """Lay row pile ``place`` on play pile ``target``; whether the rules took it."""
        if not (0 <= player < 2 and 0 <= place < self.size and 0 <= target < 2):
            raise ValueError((player, place, target))
        if not self.time <= time < INFINITY:
            raise ValueError(time)
        self.time = time
        if self.phase != PLAYING or time < self.locked_until[player]:
            return False
        row = self.rows[player]
        cards = row[place]
        on = self.piles[target]
        if not cards:
            self.locked_until[player] = time + self.lockout
            return False
        if not on or cards[0] not in self.fits[on[-1]]:
            for who, when, under in reversed(self.covers[target]):
                if who == player or time - when > self.race_window:
                    break
                if cards[0] in self.fits[under]:
                    return False  # a race lost: no lockout
            self.locked_until[player] = time + self.lockout
            return False
        covers = self.covers[target]
        while covers and time - covers[0][1] > self.race_window:
            del covers[0]
        covers.append((player, time, on[-1]))
        row[place] = []
        on += cards
        self.flips = 0
        self.refill(player)
        self.ready[0] = self.ready[1] = False
        held = len(self.draw[player]) + sum(map(len, row))
        if held < self.fewest[player]:
            self.fewest[player] = held
            self.stale = 0
            if not held:
                self.phase = OVER
                return True
        else:
            self.stale += 1
            if self.stale >= self.stale_limit:
                self.phase = OVER
                return True
        other = self.piles[1 - target]
        if cards[-1] == JOKER or (other and other[-1] == cards[-1]):
            self.phase = STRESS
        elif self.stalled():
            self.phase = WAITING
        return True

    def stalled(self) -> bool:
        left, right = self.piles
        on_left = self.fits[left[-1]] if left else ()
        on_right = self.fits[right[-1]] if right else ()
        for row in self.rows:
            for pile in row:
                if pile and (pile[0] in on_left or pile[0] in on_right):
                    return False
        return True

    def ready_to_flip(self, player: int, time: float) -> bool:
        """Say ``player`` is ready to flip; whether the rules took it."""
        if not 0 <= player < 2:
            raise ValueError(player)
        self.judge(time)
        if self.phase != PLAYING or self.ready[player]:
            return False
        if not self.draw[0] and not self.draw[1] and not self.stalled():
            return False
        self.ready[player] = True
        if self.ready[1 - player]:
            self.await_flip()
        return True

    def await_flip(self) -> None:
        self.phase = WAITING
        self.ready[0] = self.ready[1] = False

    def flip(self, time: float) -> bool:
        """Flip a card onto each play pile; whether the rules took it."""
        self.judge(time)
        if self.phase != WAITING:
            return False
        if self.flips >= DEAD_FLIPS:
            self.phase = OVER
            return True
        self.flips += 1
        draw, piles = self.draw, self.piles
        if not draw[0] and not draw[1]:
            for player in (0, 1):
                taken = piles[player][:]
                piles[player].clear()
                self.covers[player].clear()
                self.rng.shuffle(taken)
                draw[player].extend(taken)
        left, right = piles
        right_first = (bool(right), not draw[1]) < (bool(left), not draw[0])
        for target in (1, 0) if right_first else (0, 1):
            source = target if draw[target] else 1 - target
            if draw[source]:
                piles[target].append(draw[source].pop())
                self.covers[target].clear()
        self.refill(0)
        self.refill(1)
        self.phase = PLAYING
        self.ready[0] = self.ready[1] = False
        for player in (0, 1):
            self.fewest[player] = min(self.fewest[player], self.held(player))
        if left and right and left[-1] == right[-1] != JOKER:
            self.phase = STRESS
        elif self.stalled():
            self.phase = WAITING
        return True

    def call(self, player: int, time: float) -> bool:
        """``player`` calls stress; whether the rules took it (a false call is taken, and
        costs the caller the piles)."""
        if not 0 <= player < 2:
            raise ValueError(player)
        self.judge(time)
        if self.phase == OVER or self.phase == WAITING:
            return False
        taker = 1 - player if self.phase == STRESS else player
        taken = self.piles[0] + self.piles[1]
        for target in (0, 1):
            self.piles[target].clear()
            self.covers[target].clear()
        self.rng.shuffle(taken)
        self.draw[taker][:0] = taken
        self.refill(taker)
        self.await_flip()
        return True


def play_reference(seed: int, rules: Rules) -> tuple[int, tuple[int, int]]:
    """``bench_engine.play_round``'s round on the reference: its actions, and the cards
    each player holds at its end."""
    rng = random.Random(seed)
    game = Reference(rules, rng)
    now, actions = 0.0, 0
    while game.phase != OVER:
        now += 0.1
        actions += 1
        phase = game.phase
        if phase == WAITING:
            game.flip(now)
        elif phase == STRESS:
            game.call(rng.randrange(2), now)
        else:
            player = rng.randrange(2)
            plays = game.legal_plays(player)
            if plays:
                pile, target = plays[0]
                game.play(player, pile, target, now)
    return actions, (game.held(0), game.held(1))


def judged_alike(seed: int, rules: Rules, actions: int = 600) -> int:
    """Play a seeded round's first ``actions`` random actions, refused ones among them (a
    play anywhere, a call, a ready, a flip, at random times) on the engine and on the
    reference, and check that both take and refuse the same and come to the same phase,
    lockouts, ready flags, play piles and covers; return the actions played."""
    game, reference = Game.deal(rules, random.Random(seed)), Reference(rules, random.Random(seed))
    chance, now = random.Random(-seed), 0.0
    for played in range(actions):
        if game.state.phase is Phase.ROUND_OVER:
            return played
        now += chance.choice((0.05, 0.1, 0.2, 0.5))
        player, kind = chance.randrange(2), chance.random()
        action: Action
        if kind < 0.1:
            action, taken = Flip(now), reference.flip(now)
        elif kind < 0.15:
            action, taken = CallStress(player, now), reference.call(player, now)
        elif kind < 0.2:
            action, taken = ReadyToFlip(player, now), reference.ready_to_flip(player, now)
        else:
            plays = game.legal_plays(player)
            if plays and chance.random() < 0.7:
                pile, target = chance.choice(plays)
            else:
                pile, target = chance.randrange(rules.row_size), chance.randrange(2)
            action, taken = (
                Play(player, pile, target, now),
                reference.play(player, pile, target, now),
            )
        events = game.apply(action)
        state = game.state
        assert taken != isinstance(events[0], Rejected), (seed, played, action, events)
        assert (
            _PHASES[state.phase],
            [someone.locked_until for someone in state.players],
            [someone.ready for someone in state.players],
            [[card.rank for card in pile] for pile in state.play_piles],
            state.covers,
        ) == (
            reference.phase,
            reference.locked_until,
            reference.ready,
            reference.piles,
            [list(covers) for covers in reference.covers],
        ), (seed, played, action)
    return actions


def instructions(which: str, games: int, deck: str) -> tuple[int, int]:
    """Instructions ``--count which`` runs for ``games`` rounds less those for none, by
    callgrind (the hash seed fixed), and the actions the rounds took."""
    totals, actions = [], 0
    for rounds in (games, 0):
        argv = [sys.executable, __file__, "--count", which, "--games", str(rounds)]
        argv += ["--deck", deck]
        grind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(grind, env=env, capture_output=True, text=True, check=True)
        totals.append(int(re.findall(r"Collected : (\d+)", done.stderr)[-1]))
        actions = actions or int(re.findall(r"(\d+) actions", done.stdout)[-1])
    return totals[0] - totals[1], actions


def _actions(played: int | tuple[int, tuple[int, int]]) -> int:
    return played if isinstance(played, int) else played[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--deck", default="standard")
    parser.add_argument(
        "--count",
        choices=("engine", "reference"),
        help="only play the rounds once on one of them (to count instructions under callgrind)",
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count both sides' instructions an action by callgrind (a figure the load"
        " does not move)",
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
    judged = sum(judged_alike(seed, rules) for seed in range(min(args.games, 50)))
    print(f"random actions, refused ones among them: {judged} judged alike on both")
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
    # Each turn's ratio, of two runs back to back: a machine whose speed moves from one
    # second to the next moves both alike, and the median of many short turns holds
    # where the best of a few long runs swings with whatever else the machine does.
    turns = sorted(e / r for e, r in zip(times["engine"], times["reference"], strict=True))
    print(
        f"engine {min(times['engine']):.2f} us an action, reference "
        f"{min(times['reference']):.2f} (best of {args.repeat}, CPU time); each of "
        f"{args.repeat} turns' ratio min-median-max {turns[0]:.2f}-"
        f"{statistics.median(turns):.2f}-{turns[-1]:.2f} (taking turns): "
        f"{statistics.median(turns):.2f}x (goal: at most 1.3x)"
    )
    if args.instructions:
        if shutil.which("valgrind") is None:
            print("instructions an action: valgrind is not installed")
            return 0
        engine_ir, engine_actions = instructions("engine", args.games, args.deck)
        reference_ir, reference_actions = instructions("reference", args.games, args.deck)
        assert engine_actions == reference_actions == actions
        print(
            f"instructions an action (callgrind, less the start): engine "
            f"{engine_ir // actions:,}, reference {reference_ir // actions:,}: "
            f"{engine_ir / reference_ir:.2f}x (goal: at most 1.3x)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
