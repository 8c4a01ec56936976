"""Replays: every round as a JSON Lines file of its seed, rules, players and timed actions.

A replay's first line is a header; then one line per action, written and flushed the
moment it is applied, so a crash loses at most the action being written; the last line
records the end (winner, final position in notation, a digest of every event). While a
round is played the file is ``NAME.jsonl.part``; it is renamed to ``NAME.jsonl`` when the
round ends, so each round has a file of its own and no round can spoil another. This
module is the format and its reading (``load``: every field read by a reader of its
shape); the writing is ``storage.recorder``'s, the checking ``storage.verify``'s, the
list ``storage.listing``'s.

Playing the actions back on a game dealt from the same seed gives the same events: the
engine is deterministic. ``verify`` checks exactly that; for a daily deal (its header
names the day) also that it was dealt from that day's seed, by the daily's rules, with
the daily's players (``stress_tui.core.daily``).

A network joiner's replay of a round whose seed the host has not yet revealed is *sealed*:
its header holds the host's commitment to the seed (``commitment``) instead of the seed,
and its actions can be read and listed but not played (``docs/network.md``).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from stress_tui.core.actions import Action
from stress_tui.core.codec import (
    action_from_json,
    seconds,
    whole,
)
from stress_tui.core.engine import Game
from stress_tui.core.notation import (
    NotationError,
    format_rules,
    parse_rules,
)
from stress_tui.core.text import MAX_NAME, Term, harmless
from stress_tui.core.words import N_
from stress_tui.storage.files import (
    MiB,
    StorageError,
    cannot_read,
    data_dir,
    open_regular,
    size_words,
    too_large,
)

FORMAT = "stress-tui replay"
VERSION = 1
MAX_SIZE = 16 * MiB
"""The largest replay that is read: some 350,000 actions (a long round has a few
thousand), about 100 MB once read."""

MAX_LINE = 64 * 1024
"""The longest line a replay may have (a header is a few hundred bytes, an action fifty)."""


def replay_dir() -> Path:
    """Where replays are kept."""
    return data_dir() / "replays"


def two(value: Any, kind: type) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, kind) and not isinstance(v, bool) for v in value)
    )


COMMITMENT = "sha256:"
"""How a commitment to a seed begins: the SHA-256 (hex) of the salt and the seed follows."""


def commitment(seed: int, salt: bytes) -> str:
    """What a network host sends at a deal instead of the round's seed: the SHA-256 of the
    salt (16 random bytes) and the seed in decimal, so that the seed, revealed at the end,
    can be checked against it and cannot be guessed from it.

    >>> commitment(7, bytes(16))[:23]
    'sha256:6c0279d403cbc580'
    """
    return COMMITMENT + hashlib.sha256(salt + str(seed).encode()).hexdigest()


def commitment_text(value: Any) -> bool:
    digits = value[len(COMMITMENT) :] if isinstance(value, str) else ""
    return (
        isinstance(value, str)
        and value.startswith(COMMITMENT)
        and len(digits) == 64
        and set(digits) <= set("0123456789abcdef")
    )


def salt_text(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 32 and set(value) <= set("0123456789abcdef")


def _texts(limit: int) -> Callable[[Any], list[str] | None]:
    """Two texts, each made harmless and cut to ``limit`` characters."""
    return lambda v: [harmless(t, limit) for t in v] if two(v, str) else None


def _text(limit: int) -> Callable[[Any], str | None]:
    """A text made harmless and cut to ``limit`` characters."""
    return lambda v: harmless(v, limit) if isinstance(v, str) else None


def _rules_text(value: Any) -> str | None:
    """Rules in notation: as the file has them (older names kept, for the replay to say
    what it was played by), or as this version writes them if they hold a character that
    is not printable."""
    try:
        rules = format_rules(parse_rules(value)) if isinstance(value, str) else None
    except (NotationError, ValueError):
        return None
    return value if rules is not None and value.isprintable() else rules


def _deal_text(value: Any) -> str | None:
    """What ``--seed`` takes: a seed, and a round after a slash (``12``, ``12/3``)."""
    return value if isinstance(value, str) and _DEAL.fullmatch(value) else None


_DEAL = re.compile(r"[0-9]{1,20}(/[0-9]{1,6})?")


def _kept(check: Callable[[Any], bool]) -> Callable[[Any], Any]:
    """A value kept as it is, if ``check`` says it has its shape."""
    return lambda v: v if check(v) else None


_HEADER_FIELDS: dict[str, Callable[[Any], Any]] = {
    "format": _kept(lambda v: v == FORMAT),
    "version": _kept(lambda v: v == VERSION),
    "engine": _kept(lambda v: whole(v) and v >= 1),
    "seed": _kept(whole),
    "rules": _rules_text,
    "players": _texts(20),
    "names": _texts(MAX_NAME + 4),
    "started": _text(40),
    "round": _kept(whole),
    "score": _kept(lambda v: two(v, int)),
    "daily": _text(20),
    "commit": _kept(commitment_text),
    "salt": _kept(salt_text),
    "id": _kept(salt_text),
    "again": _deal_text,
}
"""The header's fields, each with its reader: the value as a reader may rely on it (texts
made harmless, rules in notation), or ``None`` if it does not have the field's shape (the
replay is then refused, or the field left out: ``_LEFT_OUT``). A field not here is not
read at all: whatever a file holds under another name never reaches anything that shows
it."""

_LEFT_OUT = {"again"}
"""Fields that only say something about the round (``again``: how to deal it again): of
another shape, they are left out, and the replay reads."""

_END_FIELDS: dict[str, Callable[[Any], Any]] = {
    "end": _kept(lambda v: v is True),
    "t": _kept(lambda v: seconds(v) is not None),
    "winner": _kept(lambda v: v is None or (whole(v) and v in (0, 1))),
    "position": _kept(lambda v: isinstance(v, str)),  # compared, never shown
    "digest": _kept(lambda v: isinstance(v, str)),  # compared, never shown
}
"""The end line's fields, each with its reader, as the header's."""


@dataclass
class Replay:
    """A recorded round."""

    path: Path
    """Where it was read from."""
    header: dict[str, Any]
    """Seed, rules, players, names, start time, round and score."""
    actions: list[Action]
    """Every action applied, in order."""
    end: dict[str, Any] | None
    """The end line (winner, position, digest); ``None`` if the round was cut short."""

    @property
    def sealed(self) -> bool:
        """Whether the seed is not known (a network joiner's round the host never
        revealed): the actions can be read, not played."""
        return "seed" not in self.header

    @property
    def seed(self) -> int:
        """The seed the round was dealt with (``StorageError`` for a sealed replay)."""
        if self.sealed:
            raise StorageError(
                N_(
                    "{path}: sealed: the host never revealed the round's seed, so it cannot"
                    " be played back (stress-tui replay --verify says what it holds)"
                ),
                path=self.path,
            )
        return int(self.header["seed"])

    @property
    def engine(self) -> int:
        """The rules version it was played under (``RULES_VERSION``; 1 where not written)."""
        return int(self.header.get("engine", 1))

    def new_game(self) -> Game:
        """The round as dealt, before any action."""
        rules = parse_rules(self.header["rules"])
        return Game.deal(rules, random.Random(self.seed))


def load(path: Path) -> Replay:
    """Read a replay. A torn last line (a crash while writing) is dropped; anything else
    wrong raises ``StorageError`` in one line naming the file and line.

    Only a regular file of at most ``MAX_SIZE`` bytes is read (a FIFO, a device such as
    ``/dev/zero``, a folder is refused at once), a line at a time, each at most
    ``MAX_LINE``. The header's texts are made harmless where they are read (a crafted file
    may hold escape sequences in its names); its rules are notation, or it is refused."""
    with open_regular(path, MAX_SIZE, A_REPLAY) as file:
        try:
            header, actions, end = _read(path, file)
        except OSError as error:
            raise StorageError(cannot_read(path, error)) from None
    return Replay(path, header, actions, end)


def _lines(path: Path, file: BinaryIO) -> Iterator[tuple[int, Any, bool]]:
    """Each line of ``file`` parsed as JSON: its number, its value, and whether it is the
    last line and torn (no newline at its end). A line that is not JSON is ``_NOT_JSON``."""
    number = 0
    read = 0
    line = file.readline(MAX_LINE + 1)
    while line:
        number += 1
        read += len(line)
        if read > MAX_SIZE:
            raise StorageError(too_large(path, A_REPLAY, MAX_SIZE))
        torn = not line.endswith(b"\n")
        if torn and len(line) > MAX_LINE:
            raise StorageError(
                N_("{path}:{line}: a line longer than {limit}"),
                path=path,
                line=number,
                limit=size_words(MAX_LINE),
            )
        following = file.readline(MAX_LINE + 1)
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deep
            value = _NOT_JSON
        yield number, value, torn and not following
        line = following


NOT_A_LINE = N_("{path}:{line}: not a replay line")
"""A line that is not JSON, or not one of a replay's."""

A_REPLAY = Term(N_("a replay"))
"""A replay, as a complaint about a file names it."""

_NOT_JSON = object()
"""What ``_lines`` gives for a line that is not JSON."""


def _read(path: Path, file: BinaryIO) -> tuple[dict[str, Any], list[Action], dict[str, Any] | None]:
    lines = _lines(path, file)
    first = next(lines, None)
    header = first[1] if first is not None else None
    if first is not None and header is _NOT_JSON and not first[2]:
        raise StorageError(NOT_A_LINE, path=path, line=1)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise StorageError(N_("{path}: not a stress-tui replay"), path=path)
    if header.get("version") != VERSION:
        version = harmless(json.dumps(header.get("version")), 20)
        raise StorageError(
            N_("{path}: replay version {version} is not supported"), path=path, version=version
        )
    header = _checked_header(path, header)
    actions: list[Action] = []
    end = None
    for number, record, torn in lines:
        if record is _NOT_JSON:
            if torn:  # the last line, cut short by a crash while it was written
                break
            raise StorageError(NOT_A_LINE, path=path, line=number)
        if end is not None:
            raise StorageError(
                N_("{path}:{line}: lines after the end line"), path=path, line=number - 1
            )
        if isinstance(record, dict) and record.get("end") is True:
            end = {}
            for name, read in _END_FIELDS.items():
                if name in record:
                    end[name] = read(record[name])
                    if end[name] is None and record[name] is not None:
                        raise StorageError(
                            N_("{path}:{line}: the end line's {name} is broken"),
                            path=path,
                            line=number,
                            name=name,
                        )
            continue
        try:
            actions.append(action_from_json(record))
        except ValueError as error:
            raise StorageError(
                N_("{path}:{line}: {why}"), path=path, line=number, why=error
            ) from None
    return header, actions, end


def _checked_header(path: Path, header: dict[str, Any]) -> dict[str, Any]:
    """The header as its readers read it (``_HEADER_FIELDS``): each field checked against
    its shape, its texts made harmless; a field of another shape refuses the replay, and
    a field no version writes is left out."""
    if not isinstance(header.get("rules"), str) or _rules_text(header["rules"]) is None:
        raise StorageError(
            N_("{path}:{line}: the header's rules are broken"), path=path, line=1
        ) from None
    if "seed" not in header and "commit" in header:
        pass  # sealed: a network joiner's round whose seed was never revealed
    elif not whole(header.get("seed")):
        raise StorageError(
            N_("{path}:{line}: the header's seed is not a whole number"), path=path, line=1
        )
    shown: dict[str, Any] = {}
    for name, read in _HEADER_FIELDS.items():
        if name in header:
            shown[name] = read(header[name])
            if shown[name] is None and name in _LEFT_OUT:
                del shown[name]
            elif shown[name] is None:
                raise StorageError(
                    N_("{path}:{line}: the header's {name} is broken"),
                    path=path,
                    line=1,
                    name=name,
                )
    return shown
