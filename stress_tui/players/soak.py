"""The soak: rounds spread over every deck with every combination of the house rules it
varies and every pairing of computer levels, each round's invariants checked as the
simulator checks them (``players/sim.py``); ``bench/soak.py`` runs it.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

from stress_tui.core.cards import DECKS
from stress_tui.core.houserules import HOUSE_RULES, RulesError
from stress_tui.core.rules import Rules
from stress_tui.players.sim import Plan, Progress, RoundResult, SimResult, run_plan


@functools.cache
def rule_variants() -> tuple[Rules, ...]:
    """Every deck with every combination of the house rules the soak varies (those with
    ``soak`` values in ``HOUSE_RULES``: the deal, jokers (none, two, and the most allowed),
    the row (the deck's, and one smaller), stacking, wrap, the stress penalty, where taken
    cards go, the false-stress penalty and the stress stop) that can be played.
    Made once a process: tens of thousands of rule sets, each checked as it is made."""
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
    return tuple(variants)


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
    jobs: int = 1,
) -> SimResult:
    """Play ``games`` rounds spread over every deck and house-rule combination
    (``rule_variants``) and every pairing of levels, checking the invariants of each, in
    ``jobs`` processes at once.

    ``on_violation`` gets the round's index (replay it with ``play_round(rules, players,
    seed, index)``), its rules, its players and what went wrong.
    """
    plan = Plan(rule_variants(), LEVEL_PAIRS, seed)

    def report(index: int, result: RoundResult) -> None:
        if on_violation is not None and result.violation is not None:
            on_violation(index, *plan.round(index), result.violation)

    return run_plan(plan, games, progress, report, jobs)
