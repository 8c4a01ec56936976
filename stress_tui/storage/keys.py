"""The SSH server's players by public key (``stress-tui serve``, ``docs/serve.md``): each
key's fingerprint, the name it plays under on this server, and when it was first and last
seen, in ``keys.sqlite`` in the server's data folder.

A key's name is given the first time it connects (the SSH user name it offered, if that
is a name a player may have and not one the game gives, else ``player``) and kept: a name
taken by another key gets a number (``alice-2``), so that the record, which counts rounds
by name, counts them by key.
Nothing else about a key is kept (not the key itself, nor the address it came from). A
key is forgotten, its name freed, by ``storage/forget.py``.
"""

from __future__ import annotations

import contextlib
import datetime
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from stress_tui.core.choices import UNNAMED
from stress_tui.core.text import MAX_NAME, BadName, check_name
from stress_tui.storage.files import data_dir, ensure_folder

KEYS_FILE = "keys.sqlite"

FALLBACK_NAME = "player"
"""The name of a key whose SSH user name may not be a player's name."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS keys (
    fingerprint TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL
)
"""


def keys_path() -> Path:
    """Where the keys are kept: ``keys.sqlite`` in the data folder."""
    return data_dir() / KEYS_FILE


def offered_name(user: str) -> str:
    """The name a new key plays under, from the SSH user name it offered: never one of the
    names the game gives players nobody named (``Guest``, ``Computer``...), which would
    pass the key off as a guest or the computer."""
    try:
        name = check_name(user)
    except BadName:
        return FALLBACK_NAME
    return FALLBACK_NAME if name in UNNAMED else name


@contextlib.contextmanager
def held(path: Path | None = None) -> Iterator[sqlite3.Connection]:
    """The keys' file (``keys_path()`` unless given, made if need be) in one write
    transaction, taken at once: no other key is named meanwhile (``name_for`` waits for
    it); committed on leaving, rolled back on an error. Blocks on the file: run it off the
    event loop."""
    path = path if path is not None else keys_path()
    ensure_folder(path.parent)
    db = sqlite3.connect(path, timeout=10.0, isolation_level=None)
    try:
        db.execute(_SCHEMA)
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    finally:
        db.close()


def name_for(fingerprint: str, user: str, path: Path | None = None) -> str:
    """The name the key ``fingerprint`` plays under: the one it was given, or, the first
    time, the user name it offered (made unique); its last visit noted. Blocks on the
    file: run it off the event loop."""
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    with held(path) as db:
        row = db.execute("SELECT name FROM keys WHERE fingerprint = ?", (fingerprint,)).fetchone()
        if row is not None:
            db.execute("UPDATE keys SET last_seen = ? WHERE fingerprint = ?", (now, fingerprint))
            return str(row[0])
        wanted = offered_name(user)
        name, number = wanted, 1
        while db.execute("SELECT 1 FROM keys WHERE name = ?", (name,)).fetchone() is not None:
            number += 1
            suffix = f"-{number}"
            name = wanted[: MAX_NAME - len(suffix)] + suffix
        db.execute("INSERT INTO keys VALUES (?, ?, ?, ?)", (fingerprint, name, now, now))
        return name
