"""Forgetting a player of the SSH server (``ssh HOST forget``, the lobby's ``f``, ``serve
--forget-after DAYS``; ``docs/serve.md``): the key's entry in ``keys.sqlite`` and its name
(free for another key afterwards), its replays, and its rounds in the record as far as
nobody else needs them.

A round the player played against another person who is still known stays in the record
and in its replay, its side played by ``FORGOTTEN`` (``core.choices``), without the
player's reactions or rating: the other person's standings are summed from it, their
rating after it is kept in it and their next one starts from it, so that taking it away
would change their record behind their back. One name for every forgotten player, not one
each, so that nothing ties a forgotten player's rounds to each other. A round against the
computer (or against someone forgotten too) is nobody else's: it is deleted, and so is its
replay (a round cut short included, unless it is being played).

The keys' file is held in one write transaction all along (``keys.held``), so that no key
is named, and the name not given again, before the record and the replays are clean.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import json
import os
import re
from collections.abc import Collection
from pathlib import Path
from typing import TypeGuard

from stress_tui.core.choices import FORGOTTEN
from stress_tui.storage.files import StorageError, open_regular
from stress_tui.storage.keys import KEYS_FILE, held
from stress_tui.storage.ratings import HUMAN
from stress_tui.storage.replay import MAX_LINE, MAX_SIZE

REPLAY_FILE = re.compile(r"\A\d{8}-\d{6}-\d{6}\.jsonl(\.part)?\Z")
"""A replay's file name, finished or cut short, as the recorder gives it."""


@dataclasses.dataclass(frozen=True)
class Forgotten:
    """What forgetting erases (or erased)."""

    kept: int = 0
    """Rounds against other people, kept for them under ``FORGOTTEN``."""
    deleted: int = 0
    """Rounds deleted (against the computer, or against someone forgotten)."""
    replays_deleted: int = 0
    """Replays deleted."""
    replays_kept: int = 0
    """Replays kept for the other person, the forgotten side named ``FORGOTTEN``."""
    keys: int = 1
    """Keys forgotten."""


def forget_key(fingerprint: str, data: Path, *, erase: bool = True) -> Forgotten | None:
    """Forget the key ``fingerprint`` and everything kept under its name in the data
    folder ``data`` (``None``: no such key); ``erase=False``: what it would erase, with
    nothing changed. Blocks on the files: run it off the event loop."""
    with held(data / KEYS_FILE) as keys:
        row = keys.execute("SELECT name FROM keys WHERE fingerprint = ?", (fingerprint,)).fetchone()
        if row is None:
            return None
        done = _forget([str(row[0])], data, erase)
        if erase:
            keys.execute("DELETE FROM keys WHERE fingerprint = ?", (fingerprint,))
        return done


def forget_unseen(days: int, data: Path, now: datetime.datetime | None = None) -> Forgotten:
    """Forget every key not seen for ``days`` days (by ``now``), as ``forget_key`` does.
    Blocks on the files: run it off the event loop."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    before = (now - datetime.timedelta(days=days)).isoformat(timespec="seconds")
    with held(data / KEYS_FILE) as keys:
        rows = keys.execute("SELECT name FROM keys WHERE last_seen < ?", (before,)).fetchall()
        if not rows:
            return Forgotten(keys=0)
        done = _forget([str(name) for (name,) in rows], data, True)
        keys.execute("DELETE FROM keys WHERE last_seen < ?", (before,))
        return dataclasses.replace(done, keys=len(rows))


def _forget(names: list[str], data: Path, erase: bool) -> Forgotten:
    """The record's rounds and the replays of ``names``, forgotten (or counted)."""
    from stress_tui.storage.pending import count_pending, mark_path
    from stress_tui.storage.record import forget_people

    folder, record = data / "replays", data / "record.sqlite"
    if erase:
        count_pending(folder, record)  # every finished round in the record first
    kept, deleted = forget_people(names, record, erase=erase)
    replays_kept = replays_deleted = 0
    for path, header, side in _replays_of(set(names), folder):
        other = 1 - side
        needed = header["players"][other] == HUMAN and header["names"][other] not in (
            *names,
            FORGOTTEN,
        )
        if needed:
            replays_kept += 1
        else:
            replays_deleted += 1
        if not erase:
            continue
        if needed:
            header["names"][side] = FORGOTTEN
            _rewrite_header(path, header)
        else:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            with contextlib.suppress(FileNotFoundError):
                mark_path(path).unlink()
    return Forgotten(kept, deleted, replays_deleted, replays_kept)


def _replays_of(
    names: Collection[str], folder: Path
) -> list[tuple[Path, dict[str, list[str]], int]]:
    """Each replay in ``folder`` in which one of ``names`` played a side as a person:
    its path, its header, that side (a round being played now left out)."""
    from stress_tui.storage.recorder import being_played

    try:
        files = sorted(n for n in os.listdir(folder) if REPLAY_FILE.match(n))
    except OSError:
        return []
    found = []
    for file in files:
        path = folder / file
        try:
            with open_regular(path, MAX_SIZE) as opened:
                header = json.loads(opened.readline(MAX_LINE))
        except (OSError, ValueError, StorageError):
            continue
        if not isinstance(header, dict):
            continue
        players, said = header.get("players"), header.get("names")
        if not (_two_texts(players) and _two_texts(said)):
            continue
        sides = [i for i in (0, 1) if said[i] in names and players[i] == HUMAN]
        if sides and not (file.endswith(".part") and being_played(path)):
            found.append((path, header, sides[0]))
    return found


def _two_texts(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)


def _rewrite_header(path: Path, header: dict[str, list[str]]) -> None:
    """Give the replay at ``path`` the header ``header`` in place of its first line (a
    new file given the name, so that a reader sees the old one or the new one whole)."""
    from stress_tui.storage.files import create_temporary

    with open_regular(path, MAX_SIZE) as old:
        old.readline(MAX_LINE)
        rest = old.read()
    fd, tmp = create_temporary(path.parent, path.name)
    try:
        with os.fdopen(fd, "wb") as new:
            new.write(json.dumps(header, separators=(",", ":")).encode() + b"\n" + rest)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
