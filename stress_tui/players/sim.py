"""The headless simulator: whole rounds between computer players on a virtual clock.

The same ``Table`` the app runs on the real clock runs here on a virtual one: the clock
jumps straight to ``table.next_deadline()`` and the table carries out what is due. Every
round checks the engine's invariants (no card created, lost or duplicated; the round ends
within ``MAX_ACTIONS`` actions and ``MAX_SECONDS`` virtual seconds). Round ``i`` of a run
with seed ``s`` is dealt and played from random sources derived from ``(s, i)`` alone, so
the same seed gives the same result and any single round can be replayed with
``play_round``. For the same reason rounds can be played in several processes at once
(``jobs``, ``players/parallel.py``): the results are summed in the order of the rounds, so
a run gives the same result however many processes play it.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field

from stress_tui.core.cards import Card
from stress_tui.core.engine import Game, Phase, State
from stress_tui.core.events import FlipAgreed, NoProgress, Stalled, StressWon, TableDead
from stress_tui.core.notation import format_rules
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.core.table import Driver, Table
from stress_tui.core.text import N_, Say
from stress_tui.core.words import decimal
from stress_tui.players.bot import make_bot
from stress_tui.players.parallel import available_cores, in_order
from stress_tui.players.progress import fewer_cores_said, progress_bar

MAX_ACTIONS = 20_000
"""A round with more actions than this counts as an invariant violation, not finished."""

MAX_SECONDS = 14_400.0
"""A round lasting longer than this many virtual seconds counts as a violation too: four
hours, since with sixteen jokers a deck and a deck each a round that does end by a last
card can take an hour and a half (every fourth card is a joker, and each played opens
stress)."""

STEP = 4.0
"""Virtual seconds the clock moves past the table's next deadline at each step; after each
step the simulator checks that the number of cards is unchanged and the bounds."""

_TALLIED = frozenset({StressWon, Stalled, FlipAgreed, TableDead, NoProgress})
"""The events a round's result counts: stresses won, stalls and agreed flips, and the ends
of a round drawn without a last card."""

ENDINGS = ("last_card", "dead_table", "no_progress")
"""How a finished round can end: a player laid their last card (the only way the seeds
know), or it was drawn, for nobody, on a dead table or after too many plays without
progress (``docs/rules.md``)."""

_ENDING_OF = {TableDead: "dead_table", NoProgress: "no_progress"}

Progress = Callable[[int, int], None]
"""Called now and then with (rounds done, rounds in all)."""

ViolationHook = Callable[[int, str], None]
"""Called with a round's index and what went wrong, for each invariant violation."""

ROUNDS_PER_PROCESS = 50
"""The fewest rounds worth a process of their own: a worker process starts in about the
time of 15 rounds, so a short run is played by fewer processes than asked for, or one."""

ROUNDS_PER_MEASURED_PROCESS = 500
"""The same for a run on the free cores only (``when_busy``): where they are busy, the
worker it starts and gives up again costs about 20-35 rounds (its start, and the tenth of
a second shared with it), at most 5% of this many, so that such a run is never slower
than one process by more."""


@dataclass(slots=True)
class SimResult:
    """What a run of simulated rounds came to (the ``--json`` object has these keys)."""

    games: int
    """Rounds played."""
    finished: int
    """Rounds that ended within the bounds with every invariant kept: won by a last card,
    or drawn for nobody (a dead table, a round without progress; ``finished - sum(wins)``
    of them)."""
    endings: dict[str, int]
    """How the finished rounds ended, by ``ENDINGS``: ``last_card`` (won), ``dead_table``
    and ``no_progress`` (drawn); every key is there, 0 or more."""
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
    ending: str = "last_card"
    """How it ended, one of ``ENDINGS`` (when finished)."""
    violation: str | None = None
    """The invariant it broke, if any."""
    state: State | None = field(default=None, repr=False)
    """The final position."""


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C; ``result`` sums the rounds played before it, in order."""

    def __init__(self, result: SimResult) -> None:
        super().__init__(result)
        self.result = result


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
    ending = ENDINGS[0]
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
                    elif kind in _ENDING_OF:
                        ending = _ENDING_OF[kind]
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
        ending,
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
        self.endings = dict.fromkeys(ENDINGS, 0)

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
            self.endings[result.ending] += 1
            if result.winner is not None:
                self.wins[result.winner] += 1

    def result(self, wall: float) -> SimResult:
        games = self.games or 1
        return SimResult(
            games=self.games,
            finished=self.finished,
            endings=dict(self.endings),
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
    jobs: int = 1,
    when_busy: Callable[[int], None] | None = None,
) -> SimResult:
    """Play ``games`` rounds between two bots (``"bot:LEVEL"``) headless and sum them up,
    in ``jobs`` processes at once; with ``when_busy``, in no more than the cores that are
    free, and ``when_busy`` is told them if fewer (``players/parallel.py`` ``in_order``).

    The same arguments give the same result, ``games_per_second`` aside, for any
    ``jobs``. Ctrl-C raises ``Interrupted`` with the sum of the rounds played so far.
    """
    check_players(players)
    if games < 0:
        raise ValueError(f"games must not be negative, not {games}")

    def report(index: int, result: RoundResult) -> None:
        if on_violation is not None and result.violation is not None:
            on_violation(index, result.violation)

    return run_plan(Plan((rules,), (players,), seed), games, progress, report, jobs, when_busy)


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


# --------------------------------------------------------------------------- rounds in parallel


@dataclass(frozen=True, slots=True)
class Plan:
    """Who plays round ``index`` of a run by which rules: the rule sets and the pairings
    of players taken in turn (one of each for ``simulate``), and the run's seed."""

    variants: tuple[Rules, ...]
    """The rule sets, round ``index`` playing ``variants[index % len(variants)]``."""
    pairings: tuple[tuple[str, str], ...]
    """The pairings of players, shifted by one every pass over the rule sets."""
    seed: int
    """The run's seed."""

    def round(self, index: int) -> tuple[Rules, tuple[str, str]]:
        """The rules and the players of round ``index``."""
        count = len(self.variants)
        pairing = self.pairings[(index // count + index) % len(self.pairings)]
        return self.variants[index % count], pairing

    def play(self, index: int) -> RoundResult:
        """Play round ``index``."""
        rules, players = self.round(index)
        return play_round(rules, players, self.seed, index)


def run_plan(
    plan: Plan,
    games: int,
    progress: Progress | None,
    report: Callable[[int, RoundResult], None],
    jobs: int,
    when_busy: Callable[[int], None] | None = None,
) -> SimResult:
    """Play rounds ``0 .. games - 1`` of ``plan`` and sum them up in their order, in
    ``jobs`` processes (``in_order``, with ``when_busy``), or fewer for a short run."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    tally = _Tally()
    step = max(1, games // 200)
    started = time.perf_counter()
    fewest = ROUNDS_PER_PROCESS if when_busy is None else ROUNDS_PER_MEASURED_PROCESS
    jobs = min(jobs, max(1, games // fewest))
    results = (
        in_order(plan.play, games, jobs, when_busy) if jobs > 1 else map(plan.play, range(games))
    )
    try:
        for index, result in enumerate(results):
            tally.add(result)
            report(index, result)
            if progress is not None and (index + 1) % step == 0:
                progress(index + 1, games)
    except KeyboardInterrupt:
        raise Interrupted(tally.result(time.perf_counter() - started)) from None
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # the worker processes end with the run, however it ends
    if progress is not None and games % step:
        progress(games, games)
    return tally.result(time.perf_counter() - started)


# --------------------------------------------------------------------------- command line


def format_result(
    result: SimResult, players: Sequence[str], rules: Rules, seed: int, _: Say = N_
) -> str:
    """A readable summary of a run, its words said with ``_``."""
    games = result.games or 1
    per_game = _("{value} per game")
    rows = [
        (_("rules:"), format_rules(rules)),
        (_("players:"), f"p1 {players[0]}, p2 {players[1]}"),
        (_("seed:"), str(seed)),
        (_("games:"), str(result.games)),
        (_("finished:"), str(result.finished)),
        (
            _("endings:"),
            _(
                "last card {last_card} ({share}), drawn on a dead table {dead_table}, "
                "drawn without progress {no_progress}"
            ).format(
                share=decimal(100 * result.endings["last_card"] / games, 1, _) + "%",
                **result.endings,
            ),
        ),
        (
            _("wins:"),
            _("p1 {p1} ({p1_share}), p2 {p2} ({p2_share}), drawn {drawn}").format(
                p1=result.wins[0],
                p1_share=decimal(100 * result.wins[0] / games, 1, _) + "%",
                p2=result.wins[1],
                p2_share=decimal(100 * result.wins[1] / games, 1, _) + "%",
                drawn=result.finished - sum(result.wins),
            ),
        ),
        (_("actions:"), per_game.format(value=decimal(result.mean_actions, 1, _))),
        (
            _("time:"),
            _("{value} virtual seconds per game").format(
                value=decimal(result.mean_virtual_seconds, 1, _)
            ),
        ),
        (_("stresses:"), per_game.format(value=decimal(result.stresses_per_game, 2, _))),
        (_("stalls:"), per_game.format(value=decimal(result.stalls_per_game, 2, _))),
        (
            _("speed:"),
            _("{value} games per second").format(value=f"{result.games_per_second:.0f}"),
        ),
        (_("violations:"), str(result.invariant_violations)),
    ]
    width = max(len(label) for label, _value in rows) + 2
    return "\n".join(label.ljust(width) + value for label, value in rows)


EXIT_INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it)."""


def run_cli(
    settings: Settings, games: int, as_json: bool, jobs: int | None = None, _: Say = N_
) -> int:
    """``stress-tui sim``: simulate ``games`` rounds with the settings' rules, players and
    seed in ``jobs`` processes at most (default: one a core), only as many as there are
    free cores (``fewer_cores_said`` says so when they are fewer than ``jobs``); print a
    summary (or one JSON object) on stdout, a progress bar on stderr when it is a
    terminal, their words said with ``_``. Ctrl-C stops the run and prints the summary
    of the rounds played so far. Returns the exit status."""
    seed = settings.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
        if as_json:
            print(_("seed: {seed}").format(seed=seed), file=sys.stderr)
    progress = progress_bar(sys.stderr, _) if sys.stderr.isatty() else None
    status = 0
    try:
        result = simulate(
            settings.rules,
            settings.players,
            games,
            seed,
            progress,
            jobs=available_cores() if jobs is None else jobs,
            when_busy=fewer_cores_said(jobs, _, progress),
        )
    except Interrupted as stop:
        result, status = stop.result, EXIT_INTERRUPTED
        if progress is not None:
            progress.wipe()
        interrupted = _("interrupted: {played} of {games} rounds played")
        print(interrupted.format(played=result.games, games=games), file=sys.stderr)
    if as_json:
        print(result.to_json())
    else:
        print(format_result(result, settings.players, settings.rules, seed, _))
    return status
