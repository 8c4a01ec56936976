"""A round's replay written as it is played: its header first, one line per action the
moment it is applied, the end line, then its final name (``storage.replay`` says the
format). A game holds a lock on the file it writes while it writes it (``being_played``).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from stress_tui.core.actions import Action
from stress_tui.core.codec import action_to_json
from stress_tui.core.engine import RULES_VERSION, Game
from stress_tui.core.events import Event
from stress_tui.core.notation import format_position, format_rules
from stress_tui.core.rules import Rules
from stress_tui.storage.files import create_temporary
from stress_tui.storage.replay import FORMAT, VERSION, replay_dir
from stress_tui.storage.verify import events_digest


def new_id() -> str:
    """A new round's own key: 32 random hex digits, in its replay's header (``id``) and
    in the record's row of it, so that the record counts a round once
    (``storage.pending``)."""
    return secrets.token_hex(16)


class Recorder:
    """Writes a round's replay as it is played."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        """The final file name (``.jsonl``); written as ``.jsonl.part`` until the end."""
        self.part = path.with_name(path.name + ".part")
        """The file being written."""
        self.events: list[Event] = []
        """Every event of the round, for the end line's digest."""
        self.header = {"format": FORMAT, "version": VERSION, **header}
        self._fd: int | None = _create(self.part, _line(self.header))
        _hold(self._fd)

    @classmethod
    def start(
        cls,
        game: Game,
        seed: int,
        players: tuple[str, str],
        names: tuple[str, str],
        round_number: int,
        score: tuple[int, int],
        folder: Path | None = None,
        daily: str | None = None,
        *,
        extra: dict[str, Any] | None = None,
        deal: str | None = None,
    ) -> Recorder:
        """Open a replay for a round about to be played (``daily``: the day of the daily
        deal it is, which ``verify`` checks it was dealt from; ``extra``: more header
        fields, such as a network round's ``commit`` and ``salt``; ``deal``: what
        ``--seed`` takes to deal it again, said when it is watched)."""
        if daily is not None:
            extra = {**(extra or {}), "daily": daily}
        if deal is not None:
            extra = {**(extra or {}), "again": deal}
        return cls.open(
            game.rules, {"seed": seed}, players, names, round_number, score, folder, extra
        )

    @classmethod
    def sealed(
        cls,
        rules: Rules,
        commit: str,
        players: tuple[str, str],
        names: tuple[str, str],
        round_number: int,
        score: tuple[int, int],
    ) -> Recorder:
        """Open a sealed replay: a network joiner's round, its seed not yet revealed (the
        header holds the host's ``commit`` to it instead; written as ``.part``)."""
        return cls.open(rules, {}, players, names, round_number, score, None, {"commit": commit})

    @classmethod
    def open(
        cls,
        rules: Rules,
        seed: dict[str, int],
        players: tuple[str, str],
        names: tuple[str, str],
        round_number: int,
        score: tuple[int, int],
        folder: Path | None,
        extra: dict[str, Any] | None,
    ) -> Recorder:
        now = datetime.now(timezone.utc)
        folder = folder if folder is not None else replay_dir()
        stem = now.strftime("%Y%m%d-%H%M%S-%f")
        header = {
            "engine": RULES_VERSION,
            **seed,
            "rules": format_rules(rules),
            "players": list(players),
            "names": list(names),
            "started": now.isoformat(timespec="seconds"),
            "round": round_number,
            "score": list(score),
            "id": new_id(),
            **(extra or {}),
        }
        return cls(folder / f"{stem}.jsonl", header)

    def record(self, action: Action, events: list[Event]) -> None:
        """Write one action the moment it has been applied."""
        self.events += events
        self._write(action_to_json(action))

    def finish(self, game: Game, count: bool = False) -> Path:
        """Write the end line and give the file its final name; ``count``: the round is to
        be counted in the record, and is marked so before the name is given
        (``pending.mark``), until the record holds it."""
        self._write(
            {
                "end": True,
                "t": game.state.time,
                "winner": game.state.winner,
                "position": format_position(game.state),
                "digest": events_digest(self.events),
            }
        )
        self.close()
        if count:
            from stress_tui.storage.pending import mark

            mark(self.path)
        os.replace(self.part, self.path)
        return self.path

    def rewrite(self, actions: Iterable[Action]) -> None:
        """Write the file again with ``actions`` after its header (a network round whose
        last actions were taken back): the new file takes the old one's place at once."""
        if self._fd is None:
            return
        fd, tmp = create_temporary(self.part.parent, self.part.name)
        _hold(fd)
        try:
            _write_all(
                fd, b"".join([_line(self.header), *(_line(action_to_json(a)) for a in actions)])
            )
            os.replace(tmp, self.part)
        except BaseException:
            os.close(fd)
            tmp.unlink(missing_ok=True)
            raise
        os.close(self._fd)
        self._fd = fd

    def remove(self) -> None:
        """Stop writing and delete the file (a sealed replay, written again whole)."""
        self.close()
        self.part.unlink(missing_ok=True)

    def close(self) -> None:
        """Stop writing (a round cut short keeps its ``.part`` file, readable as is)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _write(self, data: dict[str, Any]) -> None:
        if self._fd is not None:
            _write_all(self._fd, _line(data))


def _hold(fd: int) -> None:
    """Mark a replay open for writing as a round being played: an exclusive ``flock`` on
    it, which goes when the writer closes it or ends, whichever way (``being_played``
    asks for it). Where there is no ``flock`` (Windows), nothing marks it."""
    try:
        import fcntl
    except ImportError:
        return
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def being_played(path: Path) -> bool:
    """Whether the replay ``path`` (a ``.part`` file without its end) is being written by
    a game playing its round now, on this machine (``_hold``), rather than cut short."""
    try:
        import fcntl
    except ImportError:
        return False
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
    return False


_ENCODE = json.JSONEncoder(separators=(",", ":")).encode
"""A line's JSON, compact. The encoder is made once: ``json.dumps`` with ``separators``
makes one for each line, and a line is written at every action."""


def _line(data: dict[str, Any]) -> bytes:
    return (_ENCODE(data) + "\n").encode()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _create(path: Path, first: bytes) -> int:
    """Make ``path`` holding ``first`` (the header line), so that it never exists without
    it, and return it open for appending. ``first`` goes into a hidden temporary file
    beside it that is then linked under the name (which must be new); a kill between the
    two leaves only that hidden file, which nothing reads."""
    fd, tmp = create_temporary(path.parent, path.name)
    try:
        _write_all(fd, first)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError:  # a file system without hard links: the name is new all the same
            os.rename(tmp, path)
        else:
            os.unlink(tmp)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    return fd
