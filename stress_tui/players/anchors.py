"""The computer levels' ratings, measured: every level against every other in the simulator,
and the Glicko-2 scale fitted to who won (``stress-tui sim --rate-levels``).

The ratings this measures are the anchors kept in ``stress_tui.core.rating.LEVEL_RATINGS``
(``docs/ratings.md`` has the run that measured them): a person's rating moves against a
computer's, the computer's never moves.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass

from stress_tui.core.notation import format_rules
from stress_tui.core.rating import LEVEL_RATINGS, PINNED_LEVEL, START_RATING, LevelFit, fit_levels
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.core.text import N_, Say
from stress_tui.players.bot import LEVELS
from stress_tui.players.parallel import available_cores
from stress_tui.players.progress import fewer_cores_said
from stress_tui.players.sim import EXIT_INTERRUPTED, Interrupted, simulate

EXIT_USAGE = 2
"""Too few rounds to rate every level: the command line's status for a bad value."""


@dataclass(frozen=True)
class LevelRun:
    """What a measuring run came to."""

    wins: dict[tuple[str, str], int]
    """Rounds the first level won against the second (both seatings summed)."""
    rounds: int
    """Rounds played by each ordered pair of levels (each level as player 1 once)."""
    fit: LevelFit
    """The ratings fitted to ``wins``."""


def measure(
    rules: Rules,
    games: int,
    seed: int,
    jobs: int = 1,
    when_busy: Callable[[int], None] | None = None,
) -> LevelRun:
    """Play ``games`` rounds of every ordered pair of different levels (each pair both ways
    round, the same deals each way: ``simulate`` with the same seed, ``jobs`` and
    ``when_busy``) and fit the ratings, ``PINNED_LEVEL`` at 1500. Drawn rounds count for
    nobody."""
    levels = list(LEVELS)
    wins: dict[tuple[str, str], int] = {}
    for first in levels:
        for second in levels:
            if first == second:
                continue
            players = (f"bot:{first}", f"bot:{second}")
            result = simulate(rules, players, games, seed, jobs=jobs, when_busy=when_busy)
            wins[first, second] = wins.get((first, second), 0) + result.wins[0]
            wins[second, first] = wins.get((second, first), 0) + result.wins[1]
    return LevelRun(wins, games, fit_levels(wins, PINNED_LEVEL, START_RATING))


def format_run(run: LevelRun, rules: Rules, seed: int, _: Say = N_) -> str:
    """The measured ratings, beside the anchors the game uses, and the counts behind them,
    their words said with ``_``."""
    levels = list(LEVELS)
    lines = [
        _(
            "rounds: {rounds} for each level as player 1 against each other level "
            "(seed {seed}, rules {rules})"
        ).format(rounds=run.rounds, seed=seed, rules=format_rules(rules)),
        "",
        f"{_('level'):<8}{_('measured'):>10}{_('± 1 s.e.'):>10}{_('anchor'):>9}",
    ]
    for level in levels:
        anchor = LEVEL_RATINGS.get(level)
        lines.append(
            f"{level:<8}{run.fit.ratings[level]:>10.0f}{run.fit.errors[level]:>10.1f}"
            f"{'-' if anchor is None else f'{anchor.rating:.0f}':>9}"
        )
    head = " " * 8 + "".join(f"{b:>8}" for b in levels)
    lines += ["", _("rounds won (row against column):"), head]
    for a in levels:
        cells = "".join(f"{'-' if a == b else run.wins[a, b]:>8}" for b in levels)
        lines.append(f"{a:<8}{cells}")
    return "\n".join(lines)


def run_json(run: LevelRun) -> str:
    """The run as one JSON object: ``rounds``, ``ratings``, ``errors`` and ``wins`` (a list
    of ``[winner, loser, rounds]``)."""
    return json.dumps(
        {
            "rounds": run.rounds,
            "ratings": run.fit.ratings,
            "errors": run.fit.errors,
            "wins": [[a, b, n] for (a, b), n in sorted(run.wins.items())],
        }
    )


def run_cli(
    settings: Settings, games: int, as_json: bool, jobs: int | None = None, _: Say = N_
) -> int:
    """``stress-tui sim --rate-levels``: measure and print the levels' ratings, their words
    said with ``_``; exit 2 (one line) if the rounds were too few to rate every level."""
    seed = settings.seed
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
        print(_("seed: {seed}").format(seed=seed), file=sys.stderr)
    try:
        cores = available_cores() if jobs is None else jobs
        run = measure(settings.rules, games, seed, cores, fewer_cores_said(jobs, _))
    except Interrupted:
        print(_("interrupted: no ratings (every pair of levels must be played)"), file=sys.stderr)
        return EXIT_INTERRUPTED
    except ValueError:  # a level that won no round, or lost none
        too_few = _(
            "--games: {games} rounds a pair are too few to rate every level "
            "(each must win a round and lose one); try more"
        )
        print(f"stress-tui: {too_few.format(games=games)}", file=sys.stderr)
        return EXIT_USAGE
    print(run_json(run) if as_json else format_run(run, settings.rules, seed, _))
    return 0
