"""The headless simulator: whole rounds between computer players on a virtual clock.

The same ``Table`` the app runs on the real clock runs here on a virtual one: the clock
jumps straight to ``table.next_deadline()`` and the table carries out what is due. Every
round checks the engine's invariants (no card created, lost or duplicated; the round ends
within ``MAX_ACTIONS`` actions and ``MAX_SECONDS`` virtual seconds). Round ``i`` of a run
with seed ``s`` is dealt and played from random sources derived from ``(s, i)`` alone, so
the same seed gives the same result and any single round can be replayed with
``play_round``.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TextIO

from stress_tui.core.cards import DECKS, Card
from stress_tui.core.engine import FlipAgreed, Game, Phase, Stalled, State, StressWon
from stress_tui.core.notation import format_rules
from stress_tui.core.rules import HOUSE_RULES, Rules, RulesError
from stress_tui.core.settings import Settings
from stress_tui.core.table import Driver, Table
from stress_tui.players.bot import make_bot

MAX_ACTIONS = 20_000
"""A round with more actions than this counts as an invariant violation, not finished."""

MAX_SECONDS = 3_600.0
"""A round lasting longer than this many virtual seconds counts as a violation too."""

STEP = 4.0
"""Virtual seconds the clock moves past the table's next deadline at each step; after each
step the simulator checks that the number of cards is unchanged and the bounds."""

_TALLIED = frozenset({StressWon, Stalled, FlipAgreed})
"""The events a round's result counts: stresses won, and stalls and agreed flips."""

Progress = Callable[[int, int], None]
"""Called now and then with (rounds done, rounds in all)."""

ViolationHook = Callable[[int, str], None]
"""Called with a round's index and what went wrong, for each invariant violation."""


@dataclass(slots=True)
class SimResult:
    """What a run of simulated rounds came to (the ``--json`` object has these keys)."""

    games: int
    """Rounds played."""
    finished: int
    """Rounds that ended within the bounds with every invariant kept: won, or drawn (a dead
    table, or a round without progress, with both players holding as many cards;
    ``finished - sum(wins)`` of them)."""
    wins: list[int]
    """Rounds won by player 1 and by player 2."""
    mean_actions: float
    """Actions applied per round (plays, calls, readies, stops, flips; rejected ones too)."""
    mean_virtual_seconds: float
    """Virtual seconds per round, from the first count to the last action."""
    stresses_per_game: float
    """Stresses won per round."""
    stalls_per_game: float
    """Times per round that play stopped and new cards were flipped because nobody could
    (a stall) or would (both said ready) play."""
    games_per_second: float
    """Rounds simulated per second of wall-clock time (the one field a seed does not fix)."""
    invariant_violations: int
    """Rounds that broke an invariant: a card created, lost or duplicated, a round over the
    bounds, a table with nothing left to do before the round was over, or an error."""

    def to_json(self) -> str:
        """The result as one JSON object."""
        return json.dumps(asdict(self))


@dataclass(slots=True)
class RoundResult:
    """One simulated round."""

    finished: bool
    """Whether the round ended (won or drawn) within the bounds, every invariant kept."""
    winner: int | None
    """Who won (``None``: drawn, or not finished)."""
    actions: int
    """Actions the table applied."""
    seconds: float
    """Virtual seconds it lasted (from the first count to the last action)."""
    stresses: int
    """Stresses won."""
    stalls: int
    """Stalls and agreed flips."""
    violation: str | None = None
    """The invariant it broke, if any."""
    state: State | None = field(default=None, repr=False)
    """The final position."""


def round_rngs(seed: int, index: int) -> tuple[random.Random, random.Random, random.Random]:
    """The random sources of round ``index`` of a run with ``seed``: the deal and shuffles,
    then each bot's own."""
    root = random.Random(f"stress-sim:{seed}:{index}")
    return (
        random.Random(root.getrandbits(64)),
        random.Random(root.getrandbits(64)),
        random.Random(root.getrandbits(64)),
    )


def _drivers(players: Sequence[str], rngs: Sequence[random.Random]) -> tuple[Driver, ...]:
    drivers = []
    for side, (kind, rng) in enumerate(zip(players, rngs, strict=False)):
        name, colon, level = kind.partition(":")
        if name != "bot" or not colon:
            raise ValueError(f"the simulator needs bots on both sides, not {kind!r}")
        drivers.append(make_bot(side, level, rng))
    return tuple(drivers)


def check_players(players: Sequence[str]) -> None:
    """Raise ``ValueError`` unless both sides are ``bot:LEVEL`` with a known level."""
    if len(players) != 2:
        raise ValueError(f"two players, not {len(players)}")
    _drivers(players, [random.Random(0), random.Random(0)])


def play_round(
    rules: Rules,
    players: Sequence[str],
    seed: int,
    index: int,
    keep_state: bool = False,
    step: float | None = None,
) -> RoundResult:
    """Deal and play round ``index`` of a run with ``seed`` to its end (``run_round``)."""
    deal_rng, rng0, rng1 = round_rngs(seed, index)
    game = Game.deal(rules, deal_rng)
    return run_round(game, _drivers(players, (rng0, rng1)), keep_state, step)


def run_round(
    game: Game,
    drivers: tuple[Driver, ...],
    keep_state: bool = False,
    step: float | None = None,
) -> RoundResult:
    """Play ``game`` from its position to the end of the round on a virtual clock,
    checking the invariants: no card created, lost or duplicated, and an end within
    ``MAX_ACTIONS`` actions and ``MAX_SECONDS`` virtual seconds.

    The clock jumps to the table's next deadline and ``step`` seconds on (default
    ``STEP``), and the table carries out everything due by then, in order, each action at
    its own time: what an app's tick does. ``step=0`` advances one deadline at a time;
    every step gives the same round.
    """
    state = game.state
    dealt = _all_cards(state)
    dealt_ids = sorted(map(id, dealt))
    total = len(dealt)
    table = Table(game, drivers)
    stride = STEP if step is None else step
    stresses = stalls = 0
    violation: str | None = None
    over = Phase.ROUND_OVER
    start = state.time
    tallied = _TALLIED
    try:
        table.start(start)
        while state.phase is not over:
            deadline = table.next_deadline()
            if deadline is None:
                violation = f"nothing left to do in phase {state.phase.value} at {state.time}s"
                break
            for kind in map(type, table.advance(deadline + stride)):
                if kind in tallied:
                    if kind is StressWon:
                        stresses += 1
                    else:
                        stalls += 1
            # The cards on the table (``_count``, inline: this runs at every step).
            left, right = state.play_piles
            one, two = state.players
            count = (
                len(left)
                + len(right)
                + len(one.draw_pile)
                + len(two.draw_pile)
                + sum(map(len, one.row))
                + sum(map(len, two.row))
            )
            if count != total:
                violation = f"{count} cards on the table, {total} dealt"
                break
            if table.actions > MAX_ACTIONS:
                violation = f"over {MAX_ACTIONS} actions"
                break
            if state.time - start > MAX_SECONDS:
                violation = f"over {MAX_SECONDS:g} virtual seconds"
                break
    except Exception as error:  # a crash is a violation to report, not a reason to stop
        violation = f"{type(error).__name__}: {error}"
    if violation is None and sorted(map(id, _all_cards(state))) != dealt_ids:
        # Not the very cards dealt: fine only if equal ones took their places.
        violation = _cards_changed(Counter(dealt), state.cards())
    finished = violation is None
    winner = state.winner if finished else None
    return RoundResult(
        finished,
        winner,
        table.actions,
        state.time - start,
        stresses,
        stalls,
        violation,
        state if keep_state else None,
    )


def _all_cards(state: State) -> list[Card]:
    cards = [*state.play_piles[0], *state.play_piles[1]]
    for player in state.players:
        cards += player.draw_pile
        for pile in player.row:
            cards += pile
    return cards


def _count(state: State) -> int:
    left, right = state.play_piles
    one, two = state.players
    return (
        len(left)
        + len(right)
        + len(one.draw_pile)
        + len(two.draw_pile)
        + sum(map(len, one.row))
        + sum(map(len, two.row))
    )


def _cards_changed(dealt: Counter[Card], now: Counter[Card]) -> str | None:
    if now == dealt:
        return None
    lost = dealt - now
    made = now - dealt
    parts = []
    if lost:
        parts.append("lost " + " ".join(str(card) for card in sorted(lost, key=str)))
    if made:
        parts.append("created " + " ".join(str(card) for card in sorted(made, key=str)))
    return "; ".join(parts)


class _Tally:
    """Sums rounds into a ``SimResult``."""

    def __init__(self) -> None:
        self.games = self.finished = self.violations = 0
        self.wins = [0, 0]
        self.actions = self.stresses = self.stalls = 0
        self.seconds = 0.0

    def add(self, result: RoundResult) -> None:
        self.games += 1
        self.actions += result.actions
        self.seconds += result.seconds
        self.stresses += result.stresses
        self.stalls += result.stalls
        if result.violation is not None:
            self.violations += 1
        elif result.finished:
            self.finished += 1
            if result.winner is not None:
                self.wins[result.winner] += 1

    def result(self, wall: float) -> SimResult:
        games = self.games or 1
        return SimResult(
            games=self.games,
            finished=self.finished,
            wins=list(self.wins),
            mean_actions=self.actions / games,
            mean_virtual_seconds=self.seconds / games,
            stresses_per_game=self.stresses / games,
            stalls_per_game=self.stalls / games,
            games_per_second=self.games / wall if wall > 0 else 0.0,
            invariant_violations=self.violations,
        )


def simulate(
    rules: Rules,
    players: tuple[str, str],
    games: int,
    seed: int,
    progress: Progress | None = None,
    *,
    on_violation: ViolationHook | None = None,
) -> SimResult:
    """Play ``games`` rounds between two bots (``"bot:LEVEL"``) headless and sum them up.

    The same arguments give the same result, ``games_per_second`` aside.
    """
    check_players(players)
    if games < 0:
        raise ValueError(f"games must not be negative, not {games}")
    tally = _Tally()
    step = max(1, games // 200)
    started = time.perf_counter()
    for index in range(games):
        result = play_round(rules, players, seed, index)
        tally.add(result)
        if result.violation is not None and on_violation is not None:
            on_violation(index, result.violation)
        if progress is not None and (index + 1) % step == 0:
            progress(index + 1, games)
    if progress is not None and games % step:
        progress(games, games)
    return tally.result(time.perf_counter() - started)


def win_rate(
    rules: Rules, level: str, opponent: str, games: int, seed: int
) -> tuple[float, SimResult, SimResult]:
    """How often a bot at ``level`` beats one at ``opponent``: half the rounds with
    ``level`` as player 1, half as player 2 (the same deals both ways round). Returns the
    share of all rounds it won and the two runs."""
    half = games // 2
    first = simulate(rules, (f"bot:{level}", f"bot:{opponent}"), half, seed)
    second = simulate(rules, (f"bot:{opponent}", f"bot:{level}"), games - half, seed)
    won = first.wins[0] + second.wins[1]
    return won / max(1, games), first, second


# --------------------------------------------------------------------------- soak


def rule_variants() -> list[Rules]:
    """Every deck with every combination of the house rules the soak varies (those with
    ``soak`` values in ``HOUSE_RULES``: the deal, jokers (none, two, and the most allowed),
    the row (the deck's, and one smaller), stacking, wrap, the stress penalty, the
    false-stress penalty and the stress stop) that can be played."""
    varied = [rule for rule in HOUSE_RULES if rule.soak is not None]
    variants = []
    for deck in DECKS:
        defaults = Rules.for_deck(deck)
        choices = [rule.soak(defaults) for rule in varied if rule.soak is not None]
        for values in itertools.product(*choices):
            settings = {rule.field: value for rule, value in zip(varied, values, strict=True)}
            try:
                variants.append(Rules.for_deck(deck, **settings))
            except RulesError:
                continue
    return variants


LEVEL_PAIRS: tuple[tuple[str, str], ...] = tuple(
    (f"bot:{a}", f"bot:{b}")
    for a, b in itertools.product(("easy", "normal", "hard", "expert"), repeat=2)
)
"""Every pairing of levels, both ways round."""


def soak(
    games: int = 10_000,
    seed: int = 0,
    progress: Progress | None = None,
    *,
    on_violation: Callable[[int, Rules, tuple[str, str], str], None] | None = None,
) -> SimResult:
    """Play ``games`` rounds spread over every deck and house-rule combination
    (``rule_variants``) and every pairing of levels, checking the invariants of each.

    ``on_violation`` gets the round's index (replay it with ``play_round(rules, players,
    seed, index)``), its rules, its players and what went wrong.
    """
    variants = rule_variants()
    tally = _Tally()
    step = max(1, games // 200)
    started = time.perf_counter()
    for index in range(games):
        rules = variants[index % len(variants)]
        players = LEVEL_PAIRS[(index // len(variants) + index) % len(LEVEL_PAIRS)]
        result = play_round(rules, players, seed, index)
        tally.add(result)
        if result.violation is not None and on_violation is not None:
            on_violation(index, rules, players, result.violation)
        if progress is not None and (index + 1) % step == 0:
            progress(index + 1, games)
    if progress is not None and games % step:
        progress(games, games)
    return tally.result(time.perf_counter() - started)


# --------------------------------------------------------------------------- command line


def progress_bar(stream: TextIO) -> Progress:
    """A progress bar drawn on one line of ``stream`` (a terminal), wiped when done."""

    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // total if total else width
        text = f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} rounds"
        if done >= total:
            text = "\r" + " " * len(text) + "\r"
        stream.write(text)
        stream.flush()

    return show


def format_result(result: SimResult, players: Sequence[str], rules: Rules, seed: int) -> str:
    """A readable summary of a run."""
    games = result.games or 1
    lines = [
        f"rules:       {format_rules(rules)}",
        f"players:     p1 {players[0]}, p2 {players[1]}",
        f"seed:        {seed}",
        f"games:       {result.games}",
        f"finished:    {result.finished}",
        f"wins:        p1 {result.wins[0]} ({100 * result.wins[0] / games:.1f}%), "
        f"p2 {result.wins[1]} ({100 * result.wins[1] / games:.1f}%), "
        f"drawn {result.finished - sum(result.wins)}",
        f"actions:     {result.mean_actions:.1f} per game",
        f"time:        {result.mean_virtual_seconds:.1f} virtual seconds per game",
        f"stresses:    {result.stresses_per_game:.2f} per game",
        f"stalls:      {result.stalls_per_game:.2f} per game",
        f"speed:       {result.games_per_second:.0f} games per second",
        f"violations:  {result.invariant_violations}",
    ]
    return "\n".join(lines)


def run_cli(settings: Settings, games: int, as_json: bool) -> int:
    """``stress-tui sim``: simulate ``games`` rounds with the settings' rules, players and
    seed; print a summary (or one JSON object) on stdout, a progress bar on stderr when it
    is a terminal. Returns the exit status."""
    seed = settings.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
        if as_json:
            print(f"seed: {seed}", file=sys.stderr)
    progress = progress_bar(sys.stderr) if sys.stderr.isatty() else None
    result = simulate(settings.rules, settings.players, games, seed, progress)
    if as_json:
        print(result.to_json())
    else:
        print(format_result(result, settings.players, settings.rules, seed))
    return 0
