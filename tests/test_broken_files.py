"""Broken files never stop the program, tried in-process: a record nested too deep or with
values of the wrong kind, a replay nested too deep, with an action kind that is not a
string or a seed that is not finite, 600 random damages to a real recorded round, a full
disk while a round is counted. Each is one line from the commands (``tests/command.py``)
and said once by the game (``tests/pilot.py``), which plays on; the file is left as it
was. A kill in the middle of writing: ``tests/test_reliability.py`` and
``tests/test_replay.py``. Findings (F9, F10, F11): docs/reliability.md.
"""

from __future__ import annotations

import errno
import json
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bench.fuzz import private_env, table_whole
from tests import command, pilot

SKAT_BOTS = (
    "--deck",
    "skat",
    "--wins",
    "1",
    "--p1",
    "bot:expert",
    "--p2",
    "bot:expert",
    "--seed",
    "215",
)
"""Two expert computers, a round that player 2 wins."""


def data_dir(tmp_path: Path) -> Path:
    """Where ``private_env`` puts replays and the record."""
    return tmp_path / "stress_tui_data_dir"


def stress_tui(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    """``stress-tui ARGS`` in-process without a terminal, with ``tmp_path``'s data
    directory."""
    return command.run(*args, env=private_env(tmp_path))


BROKEN_RECORDS = {
    "nested-too-deep": "[" * 100_000 + "]" * 100_000 + "\n",
    "wrong-kinds-of-values": json.dumps(
        {
            "format": "stress-tui record",
            "version": 1,
            "players": {"Player 2": {"skat wins=1": {"rounds_won": "x", "best_round": "fast"}}},
        }
    ),
}
"""Record files that ``Record.load`` does not turn into a one-line StorageError.

``nested-too-deep``: ``storage.read_json`` catches JSONDecodeError but not the
RecursionError ``json.loads`` raises for deeply nested brackets. ``wrong-kinds-of-values``:
``Record.load`` takes any JSON value as a count or a time (``"rounds_won": "x"``)."""


def write_record(tmp_path: Path, case: str) -> Path:
    folder = data_dir(tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    record = folder / "record.json"
    record.write_text(BROKEN_RECORDS[case])
    return record


@pytest.mark.parametrize("case", list(BROKEN_RECORDS))
def test_a_broken_record_is_one_line_from_the_stats_command(tmp_path: Path, case: str) -> None:
    """``stress-tui stats`` of a broken record (nested too deep; ``"fast"`` where seconds
    go): one line and exit 2, never a traceback (docs/reliability.md, F9 and F10)."""
    record = write_record(tmp_path, case)
    done = stress_tui("stats", tmp_path=tmp_path)
    assert done.returncode == 2 and done.stderr.count(b"\n") == 1, done.stderr[-300:]
    assert record.read_text() == BROKEN_RECORDS[case]


@pytest.mark.parametrize("case", list(BROKEN_RECORDS))
def test_a_broken_record_never_stops_the_game(tmp_path: Path, case: str) -> None:
    """A broken record (nested too deep: broken from the start; a count that is not a
    number: broken when the round's end adds one to it) is said once and left alone, and
    the game plays on (``test_app_files`` checks the same for a foreign one;
    docs/reliability.md, F9 and F10)."""
    record = write_record(tmp_path, case)
    start_only = case == "nested-too-deep"  # broken from the start: no need to end a round
    args = ("--seed", "12") if start_only else SKAT_BOTS
    with pilot.game(tmp_path, *args, env=private_env(tmp_path)) as s:
        if start_only:
            s.wait_for(lambda: table_whole(s), timeout=10, what="the table")
        else:
            s.wait_text("Enter: rematch", timeout=30)  # the result screen
        s.send(b"\x03")
        assert s.wait_exit() == 130
    assert record.read_text() == BROKEN_RECORDS[case]


BROKEN_REPLAYS = {
    "nested": b"\n" + b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "kind-is-an-object": b'\n{"t":1.2,"a":{}}\n',
    "kind-is-a-list": b'\n{"t":1.2,"a":[]}\n',
    "seed-infinite": None,
}


@pytest.mark.parametrize("case", list(BROKEN_REPLAYS))
def test_a_broken_replay_is_a_one_line_error(tmp_path: Path, case: str) -> None:
    """A replay nested too deep, with an action kind that is not a string, or with
    ``"seed": 1e999``: ``stress-tui replay --verify`` and ``--list`` say it in one line,
    never a traceback (docs/reliability.md, F11)."""
    header = '{"format":"stress-tui replay","version":1,"seed":3,"rules":"standard"}'
    body = BROKEN_REPLAYS[case]
    if body is None:
        content = header.replace('"seed":3', '"seed":1e999').encode() + b"\n"
    else:
        content = header.encode() + body
    folder = data_dir(tmp_path) / "replays"
    folder.mkdir(parents=True)
    path = folder / "broken.jsonl"
    path.write_bytes(content)
    verify = stress_tui("replay", "--verify", str(path), tmp_path=tmp_path)
    assert verify.returncode == 2 and verify.stderr.count(b"\n") == 1, verify.stderr[-300:]
    listed = stress_tui("replay", "--list", tmp_path=tmp_path)
    assert b"Traceback" not in listed.stderr, listed.stderr[-300:]
    assert path.read_bytes() == content


def test_no_damaged_replay_ever_escapes_as_anything_but_a_one_line_error(
    tmp_path: Path,
) -> None:
    """600 random damages to a real recorded round (bytes changed, cut, lines swapped or
    dropped, a value replaced by another JSON value): each either loads and verifies to a
    verdict, or is a one-line StorageError; the file is never touched."""
    from stress_tui.core.engine import Game, Phase
    from stress_tui.core.rules import Rules
    from stress_tui.core.table import Table
    from stress_tui.storage.files import StorageError
    from stress_tui.storage.recorder import Recorder
    from stress_tui.storage.replay import load
    from stress_tui.storage.verify import verify
    from tests.test_replay import FirstPlay

    game_ = Game.deal(Rules.for_deck("standard"), random.Random(3))
    recorder = Recorder.start(game_, 3, ("bot", "bot"), ("A", "B"), 1, (0, 0), tmp_path)
    table = Table(game_, (FirstPlay(0, 0.31), FirstPlay(1, 0.37)), on_action=recorder.record)
    table.start(0.0)
    while game_.state.phase is not Phase.ROUND_OVER:
        deadline = table.next_deadline()
        assert deadline is not None
        table.advance(deadline)
    good = recorder.finish(game_).read_bytes()
    values = [
        b"1e999",
        b"-1e999",
        b"NaN",
        b"null",
        b"true",
        b"[]",
        b"{}",
        b'"x"',
        b"-1",
        b"99999999999999999999999",
        b"[" * 3000 + b"]" * 3000,
    ]
    rng = random.Random(11)
    escaped: dict[str, str] = {}
    path = tmp_path / "damaged.jsonl"
    for _ in range(600):  # five kinds of damage, about 120 tries each
        lines = good.split(b"\n")
        how = rng.randrange(5)
        if how == 0:
            data = bytearray(good)
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            damaged = bytes(data)
        elif how == 1:
            damaged = good[: rng.randrange(len(good))]
        elif how == 2:
            i = rng.randrange(len(lines) - 1)
            record = json.loads(lines[i])
            key = rng.choice(list(record))
            record[key] = "\0MARK\0"
            lines[i] = (
                json.dumps(record).encode().replace(b'"\\u0000MARK\\u0000"', rng.choice(values))
            )
            damaged = b"\n".join(lines)
        elif how == 3:
            a, b = rng.randrange(1, len(lines) - 1), rng.randrange(1, len(lines) - 1)
            lines[a], lines[b] = lines[b], lines[a]
            damaged = b"\n".join(lines)
        else:
            del lines[rng.randrange(len(lines))]
            damaged = b"\n".join(lines)
        path.write_bytes(damaged)
        try:
            verdict = verify(load(path))
            assert "\n" not in verdict.message
        except StorageError as error:
            assert "\n" not in str(error)
        except Exception as error:  # what must not happen
            escaped.setdefault(type(error).__name__, f"{error}"[:80])
        assert path.read_bytes() == damaged
    assert escaped == {}


def test_a_full_disk_while_counting_a_round_leaves_the_record_whole(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A full disk (SQLite's ``SQLITE_FULL``, here from a page limit set on every
    connection) while a round is counted: the round is not counted, every earlier one
    still is, no journal is left, and the error reaches the caller as an OSError with
    ENOSPC (which the game reports as "record not updated (no space left on device)")."""
    import sqlite3

    from stress_tui.core.stats import PlayerStats, RoundStats
    from stress_tui.storage.record import Record, count_round

    path = tmp_path / "record.sqlite"
    won = RoundStats((PlayerStats(), PlayerStats()), 0, 5.0)
    count_round(("Ann", "Bo"), "standard", won, False, path)
    connect = sqlite3.connect

    def small(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        db: sqlite3.Connection = connect(*args, **kwargs)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
        return db

    monkeypatch.setattr(sqlite3, "connect", small)
    counted = 1
    with pytest.raises(OSError) as caught:
        for _ in range(10_000):  # until the page is full
            count_round(("Ann", "Bo" * 200), "standard", won, False, path)
            counted += 1
    assert caught.value.errno == errno.ENOSPC
    assert counted > 1  # some went in before the disk was full
    monkeypatch.setattr(sqlite3, "connect", connect)
    ann = Record.load(path).standing("Ann", "standard")
    assert ann.rounds_won == counted
    assert sorted(p.name for p in tmp_path.iterdir()) == ["record.sqlite"]
