"""Finished rounds the record has yet to count, and the catch-up that counts them.

A round's replay is finished (its end line written, its ``.part`` file given its final
name) before the round is counted in the record, and a kill, a power cut or another
program holding the record locked can come between the two. The finished replay is the
truth: a game that is to count a round marks its replay before giving it its name
(``mark``: an empty hidden file beside it, ``.NAME.jsonl.uncounted``) and takes the mark
away once the record holds the round (``settle``). ``count_pending`` counts every marked
replay from the replay itself, under the round's own key (its header's ``id``), so a
round is never counted twice, however often it is offered; it runs at a round's end and
at the start of every command that reads the record.

Only a mark makes a replay counted: a replay copied into the folder from elsewhere, or
written by an earlier version, is never added to the record.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from stress_tui.storage.database import BUSY_SECONDS
from stress_tui.storage.files import StorageError, data_dir
from stress_tui.storage.ratings import Point, player_history
from stress_tui.storage.record import Counted, Record, count_round

if TYPE_CHECKING:
    from stress_tui.core.stats import RoundStats

FIRST_WAIT = 1.0
"""How long a round's count waits for a record another program holds, before the game
says the round will be counted later (it then tries again and again, off its loop)."""

CHART_ROUNDS = 60
"""The most rounds a result screen's chart looks back on."""

SUFFIX = ".uncounted"
"""How a mark's name ends (after the replay's own name, and a dot before it)."""


def mark_path(replay: Path) -> Path:
    """The mark that says ``replay`` is yet to be counted."""
    return replay.with_name("." + replay.name + SUFFIX)


def mark(replay: Path) -> None:
    """Mark ``replay`` (about to be given its name) as yet to be counted."""
    os.close(os.open(mark_path(replay), os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644))


def settle(replay: Path) -> None:
    """The record holds the round of ``replay``: its mark goes."""
    with contextlib.suppress(FileNotFoundError):
        mark_path(replay).unlink()


def marked(folder: Path | None = None) -> list[Path]:
    """The replays marked as yet to be counted, oldest first (their names are dates)."""
    folder = folder if folder is not None else data_dir() / "replays"
    try:
        names = [entry.name for entry in os.scandir(folder)]
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(
        folder / name[1 : -len(SUFFIX)]
        for name in names
        if name.startswith(".") and name.endswith(".jsonl" + SUFFIX)
    )


def count_pending(
    folder: Path | None = None, record: Path | None = None, busy: float = BUSY_SECONDS
) -> int:
    """Count in the record (``record_path()`` unless given) every marked replay of
    ``folder`` that it does not hold yet, oldest first, each in a transaction of its own;
    take the marks away. Returns how many rounds were added. A mark whose replay does not
    read, does not verify or holds no round to count goes (it can never be counted); a
    mark whose replay is still being given its name (only its ``.part`` is there) stays.
    ``OSError`` if the record cannot be written now (another program holds it locked: the
    marks stay for the next try), ``StorageError`` if it is not a record."""
    found = marked(folder)
    if not found:
        return 0
    from stress_tui.core.notation import format_rules, parse_rules
    from stress_tui.core.stats import round_stats
    from stress_tui.storage.replay import load
    from stress_tui.storage.verify import verify

    added = 0
    for replay_path in found:
        if not replay_path.exists():
            if not replay_path.with_name(replay_path.name + ".part").exists():
                settle(replay_path)
            continue
        try:
            replay = load(replay_path)
        except StorageError:
            settle(replay_path)
            continue
        key = replay.header.get("id")
        if replay.end is None or key is None or replay.sealed or not verify(replay).ok:
            settle(replay_path)
            continue
        header = replay.header
        stats = round_stats(replay.new_game(), replay.actions)
        rules = parse_rules(header["rules"])
        score = header.get("score", [0, 0])
        winner = stats.winner
        match_over = winner is not None and score[winner] + 1 >= rules.wins
        names, kinds = header.get("names"), header.get("players")
        if names is None or kinds is None:
            settle(replay_path)
            continue
        when = datetime.fromtimestamp(replay_path.stat().st_mtime, timezone.utc)
        counted = count_round(
            (names[0], names[1]),
            format_rules(rules),
            stats,
            match_over,
            path=record,
            when=when,
            kinds=(kinds[0], kinds[1]),
            daily=header.get("daily"),
            key=str(key),
            busy=busy,
        )
        if counted is not None and not counted.again:
            added += 1
        settle(replay_path)
    return added


@dataclass(frozen=True)
class Counting:
    """What came of counting a round (worked out off the event loop)."""

    counted: Counted | None = None
    """What it did (``None``: not counted: a round that counts nothing)."""
    error: StorageError | OSError | None = None
    """Why it was not counted: ``StorageError`` (not a record) or ``OSError``."""
    charts: tuple[tuple[str, tuple[Point, ...]], ...] = ()
    """The rated people's last rated rounds, read back for the result's charts."""


def catch_up() -> None:
    """Count what earlier rounds left to count, if the record can be written now (a
    command that reads the record says what is wrong with it when it reads it; what
    cannot be counted now is counted by the next one)."""
    with contextlib.suppress(StorageError, OSError):
        count_pending(busy=FIRST_WAIT)


def check_record() -> StorageError | OSError | None:
    """Count what earlier rounds left to count, then read the record: why it cannot be
    read, if it cannot (off the event loop)."""
    try:
        count_pending(busy=FIRST_WAIT)
        Record.load(histories=False)
    except (StorageError, OSError) as error:
        return error
    return None


def count_now(
    names: tuple[str, str],
    rules: str,
    stats: RoundStats,
    match_over: bool,
    kinds: tuple[str, str],
    daily: str | None,
    key: str | None,
    replay: Path | None,
    busy: float = FIRST_WAIT,
) -> Counting:
    """Count a round in the record (under ``key``: once, however often it is offered),
    take its replay's mark away, count what earlier rounds left to count, and read back
    the charts of those it rated (off the event loop)."""
    try:
        counted = count_round(
            names, rules, stats, match_over, kinds=kinds, daily=daily, key=key, busy=busy
        )
    except (StorageError, OSError) as error:
        return Counting(error=error)
    if replay is not None:
        settle(replay)
    with contextlib.suppress(StorageError, OSError):
        count_pending(busy=busy)
    return Counting(counted, charts=charts_of(names, counted))


def count_until_free(job: Callable[..., Counting], pause: float = 0.2) -> Counting:
    """``job`` (a ``count_now``) tried again while the record is held locked, each try
    waiting for it longer than the first (off the event loop)."""
    while True:
        done = job(busy=BUSY_SECONDS)
        error = done.error
        if not (isinstance(error, OSError) and error.errno == errno.EBUSY):
            return done
        time.sleep(pause)


def charts_of(
    names: tuple[str, str], counted: Counted | None
) -> tuple[tuple[str, tuple[Point, ...]], ...]:
    """The rated people's last rounds, read back from the record (none if it cannot be
    read: the chart is a nicety, the round is counted)."""
    if counted is None:
        return ()
    found = []
    for name, rating in zip(names, counted.after, strict=True):
        if rating is None:
            continue
        try:
            found.append((name, tuple(player_history(name, CHART_ROUNDS))))
        except (StorageError, OSError):
            return ()
    return tuple(found)
