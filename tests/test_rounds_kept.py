"""A finished round is never lost: a kill between its replay and its count, or another
program holding the record at a network round's end, leaves it counted, once, at the next
start (the game's own table with the record held: tests/test_reliability.py)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from stress_tui.storage.record import Record
from tests import command

FINISHER = Path(__file__).parent / "fixtures" / "finisher.py"


def finish_round(seed: int, data: Path, kill: bool) -> subprocess.CompletedProcess[str]:
    """One round between computers through the game's round log, in a process of its own
    (killed the moment its replay gets its final name, if ``kill``)."""
    return subprocess.run(
        [sys.executable, str(FINISHER), str(seed), *(["--kill"] if kill else [])],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "STRESS_TUI_DATA_DIR": str(data)},
    )


def rounds_counted() -> int:
    """How many rounds ``stress-tui stats --json`` counts for the people (the data folder
    the test's own)."""
    import json

    done = command.run("stats", "--json")
    assert done.returncode == 0, done.stderr
    return sum(row["rounds_won"] for row in json.loads(done.stdout)["players"])


def test_a_kill_between_the_replay_and_the_record_loses_no_round(data: Path) -> None:
    assert finish_round(1, data, kill=False).stdout == "counted\n"
    for seed in range(2, 5):  # three kills, each the moment a replay is finished
        killed = finish_round(seed, data, kill=True)
        assert killed.returncode == -signal.SIGKILL, killed.stdout + killed.stderr
    replays = sorted((data / "replays").glob("*.jsonl"))
    assert len(replays) == 4
    assert rounds_counted() == 4  # every finished replay, the killed ones too
    assert rounds_counted() == 4  # and once: asking again counts nothing twice
    assert not list((data / "replays").glob(".*.uncounted"))  # nothing left to count


def test_a_round_is_counted_once_however_often_it_is_offered(data: Path) -> None:
    from stress_tui.storage.pending import count_pending

    finish_round(1, data, kill=True)
    (replay,) = (data / "replays").glob("*.jsonl")
    mark = replay.with_name(f".{replay.name}.uncounted")
    shutil.copy(mark.parent / mark.name, mark.parent / "kept")
    assert count_pending() == 1
    shutil.copy(mark.parent / "kept", mark)  # the mark back, as if the kill came after the count
    assert count_pending() == 0
    assert sum(s.rounds_won for _, _, s in Record.load().rows()) == 1


def test_a_replay_without_a_mark_is_never_counted(data: Path) -> None:
    from stress_tui.storage.pending import count_pending

    finish_round(1, data, kill=False)
    (replay,) = (data / "replays").glob("*.jsonl")
    shutil.copy(replay, replay.with_name("20000101-000000-000000.jsonl"))  # a friend's
    assert count_pending() == 0
    assert rounds_counted() == 1


def test_a_network_round_whose_record_is_held_says_so_and_is_counted_at_the_next_start(
    data: Path,
) -> None:
    import random
    import sqlite3

    from stress_tui.core.engine import Game
    from stress_tui.core.rules import Rules
    from stress_tui.core.table import Table
    from stress_tui.net.records import save_round
    from stress_tui.players.bot import make_bot
    from stress_tui.storage.database import record_path
    from stress_tui.storage.pending import count_pending, marked

    finish_round(1, data, kill=False)  # the record exists
    rules = Rules.for_deck("skat")
    dealt = Game.deal(rules, random.Random(5))
    game = dealt.copy()
    played = []
    bots = tuple(make_bot(p, "expert", random.Random(p)) for p in (0, 1))
    table = Table(game, drivers=bots, on_action=lambda action, happened: played.append(action))
    table.start(0.0)
    table.advance(10_000.0)
    assert game.state.winner is not None
    holder = sqlite3.connect(record_path(), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds the record
    files = save_round(dealt, 5, played, ("Ann", "Bo"), 1, (0, 0), finished=True)
    holder.execute("ROLLBACK")
    holder.close()
    assert (
        "record: busy (another program holds it); the round will be counted at the next start"
        in files.notes
    )
    assert [str(path) for path in marked()] == [files.replay]
    assert count_pending() == 1  # the next start
    assert {name for name, _, _ in Record.load().rows()} == {"Ada", "Bea", "Ann", "Bo"}
