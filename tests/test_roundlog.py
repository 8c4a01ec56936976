"""The round log, in-process: it listens to the table, and a finished round is replayable,
measured and counted, without the app calling it."""

from __future__ import annotations

import random
from pathlib import Path

from stress_tui.core.engine import Match
from stress_tui.core.notation import format_rules
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.core.table import Table
from stress_tui.players.bot import make_bot
from stress_tui.storage.record import Record
from stress_tui.storage.replay import load
from stress_tui.storage.verify import verify
from stress_tui.terminal.roundlog import RoundLog

NAMES = ("Ada", "Bea")


def bot_round(log: RoundLog, seed: int, score: tuple[int, int] = (0, 0)) -> Table:
    """A round between two computer players, dealt from ``seed``, logged, played out."""
    match = Match(log.rules, random.Random(seed))
    game = match.new_round()
    drivers = tuple(make_bot(p, "hard", random.Random(f"{seed}/{p}")) for p in (0, 1))
    table = Table(game, drivers=drivers)
    log.watch(table, match.round_seed)
    table.start(0.0)
    log.start(1, score)
    table.advance(10_000.0)
    return table


def test_a_finished_round_is_recorded_measured_and_counted(data: Path) -> None:
    warnings: list[str] = []
    rules = Rules()
    log = RoundLog(Settings(names=NAMES), rules, warnings.append)
    table = bot_round(log, seed=7)
    ended = log.ended
    assert ended is not None and ended.stats is not None, "the log saw the round end by itself"
    assert warnings == []
    assert sum(p.cards_played for p in ended.stats.players) > 0
    assert ended.winner == table.game.state.winner and not ended.match_over
    replays = sorted((data / "replays").glob("*.jsonl"))
    assert [f"replay: {replays[0].name}"] == [n for n in ended.notes if n.startswith("replay")]
    assert verify(load(replays[0])).ok
    winner = table.game.state.winner
    assert winner is not None
    standing = Record.load().standing(NAMES[winner], format_rules(rules))
    assert (standing.rounds_won, standing.matches_won) == (1, 0)


def test_the_round_that_wins_the_match_counts_the_match(data: Path) -> None:
    rules = Rules()
    log = RoundLog(Settings(names=NAMES), rules, lambda text: None)
    table = bot_round(log, seed=7, score=(rules.wins - 1, rules.wins - 1))
    winner = table.game.state.winner
    assert winner is not None
    record = Record.load()
    assert record.standing(NAMES[winner], format_rules(rules)).matches_won == 1
    assert record.standing(NAMES[1 - winner], format_rules(rules)).matches_lost == 1


def test_a_replay_folder_that_cannot_be_written_is_said_once(data: Path) -> None:
    data.mkdir()
    (data / "replays").write_text("not a folder", encoding="utf-8")
    warnings: list[str] = []
    log = RoundLog(Settings(names=NAMES), Rules(), warnings.append)
    bot_round(log, seed=3)
    bot_round(log, seed=4)
    assert len(warnings) == 1 and warnings[0].startswith("Not recording replays")
    assert log.ended is not None
    assert any(note.startswith("not recorded") for note in log.ended.notes)


def test_a_position_without_a_seed_is_measured_but_not_recorded(data: Path) -> None:
    log = RoundLog(Settings(names=NAMES), Rules(), lambda text: None)
    match = Match(Rules(), random.Random(1))
    drivers = tuple(make_bot(p, "hard", random.Random(p)) for p in (0, 1))
    table = Table(match.new_round(), drivers=drivers)
    log.watch(table, None)
    table.start(0.0)
    log.start(1, (0, 0))
    table.advance(10_000.0)
    assert log.ended is not None
    assert log.ended.notes == ("not recorded: a round set up from a position has no seed",)
    assert not (data / "replays").exists() or not list((data / "replays").iterdir())
    assert Record.load().rows() == []
