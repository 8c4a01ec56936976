"""``stress-tui stats`` keeps people and computers apart, computers by level, and lines its
columns up by the width names take on screen."""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from pathlib import Path

import pytest

from stress_tui.cli.main import main
from stress_tui.core.stats import PlayerStats, RoundStats
from stress_tui.storage.database import MIGRATIONS, record_path
from stress_tui.storage.record import Record, count_round


def won_by(player: int, seconds: float = 10.0) -> RoundStats:
    stats = (PlayerStats(reactions=[0.5]), PlayerStats(reactions=[0.0]))
    return RoundStats(stats, player, seconds)


def stats(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["stats", *argv]) == 0
    return capsys.readouterr().out


def test_computers_are_counted_apart_by_level(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count_round(("You", "Computer"), "standard", won_by(0), False, kinds=("human", "bot:hard"))
    count_round(("Computer", "You"), "standard", won_by(0), False, kinds=("bot:easy", "human"))
    count_round(("Ann", "Bo"), "standard", won_by(1), True)
    record = Record.load()
    assert [name for name, _, _ in record.rows()] == ["Ann", "Bo", "You"]
    assert [level for level, _, _ in record.computer_rows()] == ["easy", "hard"]
    you = record.standings["You"]["standard"]
    assert (you.rounds_won, you.rounds_lost) == (1, 1)
    hard = record.computers["hard"]["standard"]
    assert (hard.rounds_won, hard.rounds_lost, hard.best_reaction) == (0, 1, 0.0)
    people, computers = stats(capsys).split("\n\n")[:2]  # then the ratings
    assert people.splitlines()[0].split()[0] == "player"
    assert "Computer" not in people
    assert [line.split()[0] for line in computers.splitlines()] == ["computer", "easy", "hard"]
    as_json = json.loads(stats(capsys, "--json"))
    assert [row["name"] for row in as_json["players"]] == ["Ann", "Bo", "You"]
    assert [row["level"] for row in as_json["computers"]] == ["easy", "hard"]


def test_wide_names_keep_the_columns_in_line(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count_round(("漢字の名前", "Bo"), "standard", won_by(0), True)
    lines = stats(capsys).splitlines()

    def column(line: str, word: str) -> int:
        """The screen column where ``word`` starts (a CJK character takes two)."""
        before = line[: line.index(word)]
        return len(before) + sum(1 for ch in before if unicodedata.east_asian_width(ch) == "W")

    assert column(lines[0], "rules") == column(lines[1], "standard") == column(lines[2], "standard")
    assert column(lines[0], "matches") == column(lines[1], "0-1") == column(lines[2], "1-0")


def test_a_record_written_before_the_kinds_is_read_and_brought_up_to_date(data: Path) -> None:
    path = record_path()
    path.parent.mkdir(parents=True)
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA application_id = 1398035541")
    db.execute("PRAGMA user_version = 1")
    db.execute(
        "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds, reaction1, "
        "reaction2, match_over) VALUES ('2024-01-01T00:00:00+00:00', 'standard', 'Ann', 'Bo', "
        "0, 9.0, 0.4, 0.5, 1)"
    )
    db.commit()
    db.close()
    assert Record.load().standings["Ann"]["standard"].matches_won == 1  # read, not written
    count_round(("You", "Computer"), "standard", won_by(1), False, kinds=("human", "bot:hard"))
    record = Record.load()
    assert record.standings["Ann"]["standard"].matches_won == 1
    assert record.computers["hard"]["standard"].rounds_won == 1
