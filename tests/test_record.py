"""The record across matches as a player relies on it: every finished round counted,
whatever else writes beside it; an earlier version's record carried over; a symbolic link
kept a link; files that are not a record refused in one line, at once."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from stress_tui.core.stats import PlayerStats, RoundStats
from stress_tui.storage.database import MIGRATIONS, error_name, record_path
from stress_tui.storage.files import StorageError
from stress_tui.storage.record import Record, count_round
from tests import command
from tests.test_ratings import ratings_chain_holds

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).with_name("fixtures")


def won_by(
    player: int, seconds: float = 10.0, reactions: tuple[float, float] = (1.0, 1.0)
) -> RoundStats:
    """A finished round's statistics: its winner, its length, each player's best reaction."""
    stats = (PlayerStats(reactions=[reactions[0]]), PlayerStats(reactions=[reactions[1]]))
    return RoundStats(stats, player, seconds)


def stats_json(data: Path) -> dict[str, dict[str, object]]:
    """``stress-tui stats --json`` of a data folder, by player name."""
    done = command.run_text("stats", "--json", env={"STRESS_TUI_DATA_DIR": str(data)})
    assert done.returncode == 0, done.stderr
    return {row["name"]: row for row in json.loads(done.stdout)["players"]}


def test_two_games_counting_rounds_at_once_lose_none_and_rate_each_from_the_one_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two games sharing a data folder never overwrite each other's rounds, nor rate a round
    from a rating the other has replaced. Two processes count 60 rounds each through the
    game's own ``RoundLog.count_in_record``, both against ``Other``, started at the same
    moment: all 120 are counted, neither game was told a round could not be, and each
    round's ratings are those its names had after the round counted before it (were a
    rating read by one and written after the other's round, the chain would break)."""
    data = tmp_path / "data"
    start = tmp_path / "go"
    rounds = 60
    env = {**os.environ, "STRESS_TUI_DATA_DIR": str(data)}
    games = [
        subprocess.Popen(
            [sys.executable, str(FIXTURES / "counter.py"), str(start), str(rounds), name],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("Ann", "Bo")
    ]
    for game in games:  # both waiting for the start file: it sets them off together
        assert game.stdout is not None and game.stdout.readline() == "ready\n"
    start.touch()
    refused = [int(game.communicate(timeout=120)[0]) for game in games]
    assert [game.returncode for game in games] == [0, 0]
    assert refused == [0, 0]
    standings = stats_json(data)
    assert standings["Ann"]["rounds_won"] + standings["Ann"]["rounds_lost"] == rounds  # type: ignore[operator]
    assert standings["Bo"]["rounds_won"] + standings["Bo"]["rounds_lost"] == rounds  # type: ignore[operator]
    other = standings["Other"]
    assert other["rounds_won"] + other["rounds_lost"] == 2 * rounds  # type: ignore[operator]
    assert other["matches_won"] + other["matches_lost"] == 2 * (rounds // 5)  # type: ignore[operator]
    assert ratings_chain_holds(data / "record.sqlite") == 2 * rounds
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(data))
    ratings = Record.load().ratings
    assert len(ratings["Other"].history) == 2 * rounds
    assert len(ratings["Ann"].history) == len(ratings["Bo"].history) == rounds


# ----------------------------------------------------------------------------- earlier records

EARLIER = {
    "format": "stress-tui record",
    "version": 1,
    "players": {
        "Ann": {
            "standard": {
                "matches_won": 2,
                "matches_lost": 1,
                "rounds_won": 7,
                "rounds_lost": 4,
                "best_reaction": 0.31,
                "best_round": 20.5,
            }
        },
        "Bo": {
            "jass": {
                "matches_won": 0,
                "matches_lost": 0,
                "rounds_won": 1,
                "rounds_lost": 0,
                "best_reaction": None,
                "best_round": 40.0,
            }
        },
    },
}
"""A ``record.json`` as the version before the database wrote it (``Record.save``)."""


def test_a_record_of_the_earlier_version_is_read_then_carried_over(data: Path) -> None:
    data.mkdir()
    earlier = data / "record.json"
    earlier.write_text(json.dumps(EARLIER, indent=1, sort_keys=True) + "\n")
    before = earlier.read_bytes()
    ann = Record.load().standing("Ann", "standard")
    assert (ann.matches_won, ann.rounds_won, ann.rounds_lost, ann.best_round) == (2, 7, 4, 20.5)
    assert not record_path().exists()  # reading writes nothing
    count_round(("Ann", "Bo"), "standard", won_by(0, 15.0, (0.25, 0.5)), True)
    record = Record.load()
    ann = record.standing("Ann", "standard")
    assert (ann.matches_won, ann.matches_lost, ann.rounds_won, ann.rounds_lost) == (3, 1, 8, 4)
    assert (ann.best_reaction, ann.best_round) == (0.25, 15.0)
    bo = record.standing("Bo", "jass")
    assert (bo.rounds_won, bo.best_round, bo.best_reaction) == (1, 40.0, None)
    bo = record.standing("Bo", "standard")
    assert (bo.rounds_lost, bo.matches_lost, bo.best_reaction) == (1, 1, 0.5)
    assert earlier.read_bytes() == before  # carried over once, then left as it was
    earlier.write_text(json.dumps({**EARLIER, "players": {}}))  # an old game writing on
    assert Record.load().standing("Ann", "standard").rounds_won == 8


def test_a_record_changed_by_a_later_version_still_takes_rounds(data: Path) -> None:
    """A later version adds to the schema (a migration step: a table, a column with a
    default); a game of this version goes on counting rounds in it and reading them."""
    count_round(("Ann", "Bo"), "standard", won_by(0), False)
    db = sqlite3.connect(record_path())
    db.executescript(
        "ALTER TABLE rounds ADD COLUMN handicap1 REAL DEFAULT 0;"
        "CREATE TABLE trophies (name TEXT PRIMARY KEY, count INTEGER);"
        f"PRAGMA user_version = {len(MIGRATIONS) + 1};"
    )
    db.close()
    count_round(("Ann", "Bo"), "standard", won_by(1), False)
    ann = Record.load().standing("Ann", "standard")
    assert (ann.rounds_won, ann.rounds_lost) == (1, 1)


# ----------------------------------------------------------------------------- odd files


def test_a_symlinked_record_is_written_through_the_link(data: Path, tmp_path: Path) -> None:
    """A symbolic link as the record (dotfile managers, sync folders) stays a link, and its
    target is the record that is updated."""
    elsewhere = tmp_path / "dotfiles" / "stress-record"
    elsewhere.parent.mkdir()
    count_round(("Ann", "Bo"), "standard", won_by(0), False, elsewhere)
    data.mkdir()
    record_path().symlink_to(elsewhere)
    count_round(("Ann", "Bo"), "standard", won_by(0), False)
    count_round(("Ann", "Bo"), "standard", won_by(1), True)
    assert record_path().is_symlink() and record_path().resolve() == elsewhere
    assert sorted(p.name for p in data.iterdir()) == ["record.sqlite"]
    ann = Record.load(elsewhere).standing("Ann", "standard")
    assert (ann.rounds_won, ann.rounds_lost, ann.matches_lost) == (2, 1, 1)


def test_a_symlinked_record_of_the_earlier_version_is_read_through_the_link(
    data: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "record-elsewhere.json"
    elsewhere.write_text(json.dumps(EARLIER))
    data.mkdir()
    (data / "record.json").symlink_to(elsewhere)
    count_round(("Ann", "Bo"), "standard", won_by(0), False)
    assert Record.load().standing("Ann", "standard").rounds_won == 8
    assert (data / "record.json").is_symlink()
    assert json.loads(elsewhere.read_text()) == EARLIER


def make_fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _foreign_database(path: Path) -> Path:
    """An SQLite file of someone else's at ``path``."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    return path


ODD_RECORDS = {
    "fifo": (make_fifo, "is a named pipe (FIFO), not a record"),
    "folder": (lambda path: path.mkdir() or path, "is a folder, not a record"),
    "dev-zero": (lambda path: path.symlink_to("/dev/zero") or path, "is a device, not a record"),
    "loop": (lambda path: path.symlink_to(path.name) or path, "symbolic links that lead round"),
    "foreign": (
        _foreign_database,
        "not a stress-tui record; left as it is",
    ),
    "text": (lambda path: path.write_text("hello\n" * 100) and path, "; left as it is"),
}


@pytest.mark.parametrize(
    ("name", "case"),
    [
        (name, case)
        for name in ("record.sqlite", "record.json")
        for case in ODD_RECORDS
        if (name, case) != ("record.json", "foreign")  # JSON is no other program's SQLite
    ],
)
def test_a_record_that_is_not_a_file_is_one_line_at_once_and_left_alone(
    data: Path, case: str, name: str
) -> None:
    """A FIFO as the record never hangs the game. Every kind of
    file that is not a record, as the database or as an earlier version's record, is one
    line from ``stats`` (at once: opening never blocks) and from counting a round, and is
    left as it was. ``stats`` runs in a process of its own where reading could block or
    never end (a FIFO, a device), in-process for the others."""
    data.mkdir()
    make, said = ODD_RECORDS[case]
    path = make(data / name)
    before = sorted(p.name for p in data.iterdir())
    if case in ("fifo", "dev-zero"):
        done = subprocess.run(
            [sys.executable, "-m", "stress_tui", "stats"],
            cwd=REPO,
            env={**os.environ, "STRESS_TUI_DATA_DIR": str(data)},
            capture_output=True,
            text=True,
            timeout=20,
        )
    else:
        done = command.run_text("stats")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
    assert done.stderr.startswith(f"stress-tui: {path}")
    with pytest.raises(StorageError) as caught:
        count_round(("Ann", "Bo"), "standard", won_by(0), False)
    assert said in str(caught.value)
    assert sorted(p.name for p in data.iterdir()) == before


@pytest.mark.parametrize(
    ("error", "name"),
    [
        (sqlite3.DatabaseError("file is not a database"), "SQLITE_NOTADB"),
        (sqlite3.DatabaseError("database disk image is malformed"), "SQLITE_CORRUPT"),
        (sqlite3.OperationalError("no such table: rounds"), "SQLITE_ERROR"),
        (sqlite3.IntegrityError("datatype mismatch"), "SQLITE_MISMATCH"),
        (sqlite3.OperationalError("database is locked"), "SQLITE_BUSY"),
        (sqlite3.OperationalError("database table is locked"), "SQLITE_LOCKED"),
        (sqlite3.OperationalError("attempt to write a readonly database"), "SQLITE_READONLY"),
        (sqlite3.OperationalError("database or disk is full"), "SQLITE_FULL"),
        (sqlite3.OperationalError("unable to open database file"), "SQLITE_CANTOPEN"),
        (sqlite3.OperationalError("disk I/O error"), "SQLITE_IOERR"),
    ],
)
def test_sqlites_errors_are_named_by_their_words_where_python_gives_no_name(
    error: sqlite3.Error, name: str
) -> None:
    # As Python before 3.11 raises them: no sqlite_errorname, only SQLite's own words.
    assert getattr(error, "sqlite_errorname", None) is None
    assert error_name(error) == name


def test_a_damaged_record_and_a_locked_one_are_told_apart_on_every_python(data: Path) -> None:
    count_round(("Ann", "Bo"), "standard", won_by(0), False)
    holder = sqlite3.connect(record_path(), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(OSError) as locked:
        count_round(("Ann", "Bo"), "standard", won_by(0), False, busy=0.05)
    assert locked.value.errno == errno.EBUSY
    holder.execute("ROLLBACK")
    holder.close()
    record_path().write_bytes(b"not a database at all, " * 200)
    with pytest.raises(StorageError, match="not a stress-tui record, or a damaged one"):
        Record.load()
    done = command.run_text("stats")
    assert done.returncode == 2, done.stderr
    assert done.stderr.endswith("not a stress-tui record, or a damaged one; left as it is\n")
