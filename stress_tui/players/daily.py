"""The computer of the daily deal, and the check that a daily's replay was played against
it: the person's moves played again on the day's deal against a fresh computer of the
day must bring back every recorded move of the computer's, at the same moments.

The table is deterministic: the computer decides from what it sees, when the table
changes, with a random source seeded from the day (``stress_tui.core.daily.bot_seed``).
A replay whose computer moves were edited (made slower, or made to miss) no longer
matches.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from stress_tui.core.actions import Action, Flip
from stress_tui.core.daily import BOT_SIDE, DAILY_LEVEL, bot_seed
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import Event
from stress_tui.core.table import Driver, Table
from stress_tui.core.text import N_, Problem
from stress_tui.players.bot import make_bot


def daily_bot(seed: int) -> Driver:
    """The computer of the daily dealt from ``seed``."""
    return make_bot(player=BOT_SIDE, level=DAILY_LEVEL, rng=random.Random(bot_seed(seed)))


def play_against_the_computer(game: Game, moves: Sequence[Action], seed: int) -> list[Action]:
    """Every action of the round ``game`` (as dealt) when the person makes ``moves`` (each
    at its time) against the daily's computer, the table doing the rest (the flips, the
    computer's moves), to the round's end."""
    table = Table(game, drivers=(daily_bot(seed),))
    applied: list[Action] = []

    def keep(action: Action, events: list[Event]) -> None:
        applied.append(action)

    table.on_action = keep
    table.start(game.state.time)
    for move in moves:
        table.advance(move.time)  # what fell due before the key comes first, as in the app
        if _over(game):
            break
        table.submit(move)
    while not _over(game):
        due = table.next_deadline()
        if due is None or not math.isfinite(due):
            break
        table.advance(due)
    return applied


def _over(game: Game) -> bool:
    return game.state.phase is Phase.ROUND_OVER


def computer_problem(game: Game, actions: Sequence[Action], seed: int) -> Problem | None:
    """Why the recorded ``actions`` of a daily were not played against the day's computer
    (``None``: they were, every one)."""
    person = 1 - BOT_SIDE
    moves = [a for a in actions if not isinstance(a, Flip) and getattr(a, "player", None) == person]
    again = play_against_the_computer(game, moves, seed)
    if again == list(actions):
        return None
    for number, (recorded, played) in enumerate(zip(actions, again, strict=False), start=1):
        if recorded != played:
            return Problem(
                N_(
                    "action {n} was not the day's computer's: recorded {recorded}, the "
                    "computer of the day plays {played}"
                ),
                n=number,
                recorded=recorded,
                played=played,
            )
    return Problem(
        N_("the computer of the day plays {n} actions, the replay has {recorded}"),
        n=len(again),
        recorded=len(actions),
    )
