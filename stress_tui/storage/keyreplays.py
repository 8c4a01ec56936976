"""A key's own replays on the SSH server (``ssh HOST replays``, ``ssh HOST replay NAME``,
``docs/serve.md``): the finished replay files of the server's folder in which the key's
name played a side as a person.

Each file is judged by its first line (the header: the names and who played each side)
and its last (the end line: who won), never read whole; only the newest
``LOOKED_AT`` files are looked at. A name asked for is a replay file's name as the
listing gives it (``20261202-011044-123456.jsonl``) and nothing else: no folder, no
other file of the server's, no round another key played.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stress_tui.core.text import MAX_NAME, harmless
from stress_tui.storage.files import open_regular
from stress_tui.storage.ratings import HUMAN
from stress_tui.storage.replay import MAX_LINE, MAX_SIZE

REPLAY_NAME = re.compile(r"\A\d{8}-\d{6}-\d{6}\.jsonl\Z")
"""A finished replay's file name, as the recorder gives it."""

LOOKED_AT = 2000
"""The newest replay files looked at for a key's own."""

LISTED = 50
"""The most of a key's replays listed."""


@dataclass(frozen=True, slots=True)
class KeyReplay:
    """One of a key's replays."""

    name: str
    """The file's name (what ``replay NAME`` takes)."""
    started: str
    """When the round began (ISO 8601, UTC)."""
    opponent: str
    """The other side's name, as the replay keeps it."""
    opponent_kind: str
    """Who played the other side: ``human``, ``bot:hard``."""
    won: bool | None
    """Whether the key's side won (``None``: nobody did, or the round was cut short)."""
    ended: bool
    """Whether the round was played to its end."""


def key_replays(player: str, folder: Path, limit: int = LISTED) -> list[KeyReplay]:
    """``player``'s replays in ``folder``, newest first. Blocks on the files: run it off
    the event loop."""
    try:
        names = sorted((n for n in os.listdir(folder) if REPLAY_NAME.match(n)), reverse=True)
    except OSError:
        return []
    found = []
    for name in names[:LOOKED_AT]:
        replay = _judged(player, folder / name)
        if replay is not None:
            found.append(replay)
            if len(found) >= limit:
                break
    return found


def key_replay(player: str, name: str, folder: Path) -> Path | None:
    """The file of ``player``'s replay ``name`` (``None``: no such replay of theirs, or
    ``name`` is not a replay file's name)."""
    if not REPLAY_NAME.match(name):
        return None
    path = folder / name
    return path if _judged(player, path) is not None else None


def _judged(player: str, path: Path) -> KeyReplay | None:
    """``path`` as ``player``'s replay, or ``None`` where it is not one of theirs (or does
    not read)."""
    try:
        with open_regular(path, MAX_SIZE) as file:
            header = _json(file.readline(MAX_LINE))
            size = os.fstat(file.fileno()).st_size
            file.seek(max(0, size - MAX_LINE))
            last = file.read(MAX_LINE).rstrip(b"\n").rsplit(b"\n", 1)[-1]
    except (OSError, ValueError):
        return None
    if not isinstance(header, dict):
        return None
    names, kinds = _pair(header.get("names")), _pair(header.get("players"))
    if names is None or kinds is None:
        return None
    sides = [i for i in (0, 1) if names[i] == player and kinds[i] == HUMAN]
    if not sides:
        return None
    side = sides[0]
    end = _json(last)
    ended = isinstance(end, dict) and end.get("end") is True
    winner = end.get("winner") if ended and isinstance(end, dict) else None
    return KeyReplay(
        path.name,
        harmless(str(header.get("started", "?")), 40),
        harmless(names[1 - side], MAX_NAME),
        harmless(kinds[1 - side], MAX_NAME),
        None if winner not in (0, 1) else winner == side,
        ended,
    )


def _json(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _pair(value: Any) -> tuple[str, str] | None:
    """``value`` as two texts (``None``: it is not)."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return value[0], value[1]
    return None
