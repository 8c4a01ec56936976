"""A network round's files on each side: its replay, its statistics and the record.

At one keyboard a replay is written action by action. Across a network an action can be
taken back after it was applied (``net.fair``), and the joiner learns the seed only when
the round is over, so each side writes the round's replay whole, from the final list of
actions: when the round ends, or (the host only) when the match is cut short. Both replays
are of the same actions and verify alike.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from stress_tui.core.engine import Action, Game
from stress_tui.core.notation import format_rules
from stress_tui.core.stats import RoundStats, round_stats
from stress_tui.storage.files import StorageError, reason
from stress_tui.storage.ratings import rating_notes
from stress_tui.storage.record import count_round
from stress_tui.storage.replay import Recorder

PLAYERS = ("human", "human")
"""Who plays each side of a network table, as a replay's header says it."""


@dataclass(frozen=True)
class RoundFiles:
    """What became of a round's files."""

    stats: RoundStats | None
    """Both players' statistics (``None``: the round was cut short)."""
    notes: tuple[str, ...]
    """Lines for the result screen: where the replay went, what could not be saved."""
    replay: str | None = None
    """The replay's file, if one was written."""


def save_round(
    dealt: Game,
    seed: int,
    actions: list[Action],
    names: tuple[str, str],
    round_number: int,
    score: tuple[int, int],
    *,
    finished: bool,
    match_over: bool = False,
    count: bool = True,
) -> RoundFiles:
    """Write the replay of ``actions`` played on ``dealt`` (the round as dealt, which is
    not changed) and, for a finished round, count it (and the match) in the record, which
    rates both players as any round between two people (a note says how it moved)."""
    notes: list[str] = []
    replay: str | None = None
    game = dealt.copy()
    try:
        recorder = Recorder.start(game, seed, PLAYERS, names, round_number, score)
    except OSError as error:
        notes.append(f"not recorded ({reason(error)})")
    else:
        try:
            for action in actions:
                recorder.record(action, game.apply(action))
            if finished:
                replay = str(recorder.finish(game))
                notes.append(f"replay: {recorder.path.name}")
            else:
                recorder.close()
                replay = str(recorder.part)
                notes.append(f"replay of what was played: {recorder.part.name}")
        except OSError as error:
            with contextlib.suppress(OSError):
                recorder.close()
            notes.append(f"replay not saved ({reason(error)})")
    if not finished:
        return RoundFiles(None, tuple(notes), replay)
    stats = round_stats(dealt.copy(), actions)
    if count and stats.winner is not None:
        rules = format_rules(dealt.rules)
        try:
            counted = count_round(names, rules, stats, match_over, kinds=PLAYERS)
        except StorageError:
            notes.append("record not updated: the file cannot be read (stress-tui stats says why)")
        except OSError as error:
            notes.append(f"record not updated ({reason(error)})")
        else:
            if counted is not None:
                notes += rating_notes(names, counted.before, counted.after)
    return RoundFiles(stats, tuple(notes), replay)
