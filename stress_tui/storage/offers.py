"""What the game offers a person once: the practice (``stress-tui learn``), at the first game
of someone with no record here.

The offer is a mark in the data folder (``OFFERED``), made with ``O_EXCL``: whichever game
makes it says the offer, so that two games started at once offer it once between them,
and none after. Where the folder cannot be written nothing is offered (better never than
at every start).
"""

from __future__ import annotations

import contextlib
import os

from stress_tui.storage.files import data_dir, ensure_folder

OFFERED = "learn-offered"
"""The mark beside the record: the practice has been offered (or played)."""

RECORDS = ("record.sqlite", "record.json")
"""The record's file names, this version's and an earlier one's (``database.record_path``,
``database.legacy_path``): named here, so that asking whether there is a record loads
neither SQLite nor the record before the game's first frame."""


def offer_practice() -> bool:
    """Whether to offer the practice now: to someone with no record here (no round was
    ever counted) who has not been offered it, nor played it. True once only: the mark is
    made as it is answered."""
    folder = data_dir()
    if any(os.path.lexists(folder / name) for name in RECORDS):
        return False
    return _mark()


def practised() -> None:
    """The practice has been played: it is offered no more."""
    _mark()


def _mark() -> bool:
    """Make the mark; whether this call made it (``False``: there already, or the folder
    cannot be written)."""
    folder = data_dir()
    try:
        ensure_folder(folder)
        made = os.open(folder / OFFERED, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError:
        return False
    with contextlib.suppress(OSError):
        os.close(made)
    return True
