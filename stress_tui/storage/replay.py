"""Replays: every round as a JSON Lines file of its seed, rules, players and timed actions.

A replay's first line is a header; then one line per action, written and flushed the
moment it is applied, so a crash loses at most the action being written; the last line
records the end (winner, final position in notation, a digest of every event). While a
round is played the file is ``NAME.jsonl.part``; it is renamed to ``NAME.jsonl`` when the
round ends, so each round has a file of its own and no round can spoil another.

Playing the actions back on a game dealt from the same seed gives the same events: the
engine is deterministic. ``verify`` checks exactly that; for a daily deal (its header
names the day) also that it was dealt from that day's seed, by the daily's rules, with
the daily's players (``stress_tui.core.daily``).

A network joiner's replay of a round whose seed the host has not yet revealed is *sealed*:
its header holds the host's commitment to the seed (``commitment``) instead of the seed,
and its actions can be read and listed but not played (``docs/network.md``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO

from stress_tui.core.actions import Action, MalformedActionError, Play
from stress_tui.core.choices import UNNAMED
from stress_tui.core.codec import (
    action_from_json,
    action_to_json,
    canonical_line,
    seconds,
    whole,
)
from stress_tui.core.daily import PLAYERS as DAILY_PLAYERS
from stress_tui.core.daily import BadDate, daily_rules, daily_seed
from stress_tui.core.engine import RULES_VERSION, Game
from stress_tui.core.events import Event
from stress_tui.core.notation import (
    NotationError,
    format_position,
    format_rules,
    parse_position,
    parse_rules,
)
from stress_tui.core.rules import Rules
from stress_tui.core.text import MAX_NAME, Problem, Term, harmless
from stress_tui.core.words import N_, Say
from stress_tui.storage.files import (
    MiB,
    StorageError,
    cannot_read,
    create_temporary,
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


def _two(value: Any, kind: type) -> bool:
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


def _commitment_text(value: Any) -> bool:
    digits = value[len(COMMITMENT) :] if isinstance(value, str) else ""
    return (
        isinstance(value, str)
        and value.startswith(COMMITMENT)
        and len(digits) == 64
        and set(digits) <= set("0123456789abcdef")
    )


def _salt_text(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 32 and set(value) <= set("0123456789abcdef")


def new_id() -> str:
    """A new round's own key: 32 random hex digits, in its replay's header (``id``) and
    in the record's row of it, so that the record counts a round once
    (``storage.pending``)."""
    return secrets.token_hex(16)


def _texts(limit: int) -> Callable[[Any], list[str] | None]:
    """Two texts, each made harmless and cut to ``limit`` characters."""
    return lambda v: [harmless(t, limit) for t in v] if _two(v, str) else None


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
    "score": _kept(lambda v: _two(v, int)),
    "daily": _text(20),
    "commit": _kept(_commitment_text),
    "salt": _kept(_salt_text),
    "id": _kept(_salt_text),
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


DIGEST = "json-sha256:"
"""How the end line's digest begins: the SHA-256 of the events' canonical JSON follows."""


def events_digest(events: Iterable[Event]) -> str:
    """A fingerprint of an event sequence: equal sequences, equal digests. Made of each
    event's canonical JSON (``codec.canonical_line``), one a line, so that renaming a
    class or rewording a message does not change it.

    >>> from stress_tui.core.events import RoundWon, Stalled
    >>> events_digest([Stalled(), RoundWon(0, 3.5)])[:20]
    'json-sha256:702fc357'
    >>> events_digest([Stalled(), RoundWon(1, 3.5)])[:20]
    'json-sha256:d0ca0d32'
    """
    digest = hashlib.sha256()
    for event in events:
        digest.update(canonical_line(event))
        digest.update(b"\n")
    return DIGEST + digest.hexdigest()


def _repr_digest(events: Iterable[Event]) -> str:
    """The digest as replays wrote it before the canonical one (one ``repr`` a line): a
    file written then still verifies, as long as the events' classes keep their names
    and fields."""
    digest = hashlib.sha256()
    for event in events:
        digest.update(repr(event).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def digest_matches(recorded: object, events: list[Event]) -> bool:
    """Whether ``events`` are the ones an end line's ``digest`` records (of either form)."""
    if isinstance(recorded, str) and recorded.startswith(DIGEST):
        return recorded == events_digest(events)
    return recorded == _repr_digest(events)


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


def _line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, separators=(",", ":")) + "\n").encode()


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


@dataclass(frozen=True)
class Verdict:
    """What re-simulating a replay showed."""

    ok: bool
    """Whether the re-simulated round ends exactly as recorded."""
    said: Problem
    """One line saying so, in no language yet (``said.said(_)``)."""

    @property
    def message(self) -> str:
        """The line in English."""
        return str(self.said)


def play_back(replay: Replay) -> tuple[Game, list[Event]]:
    """Apply every recorded action to a freshly dealt game."""
    game = replay.new_game()
    events: list[Event] = []
    for action in replay.actions:
        events += game.apply(action)
    return game, events


def verify(replay: Replay) -> Verdict:
    """Re-simulate without a screen; compare the end with the recorded one. A sealed
    replay (no seed) is only read: ``sealed_verdict`` says what that checks."""
    path = replay.path
    if replay.sealed:
        return sealed_verdict(replay)
    if replay.engine > RULES_VERSION:
        return Verdict(
            False,
            Problem(
                N_(
                    "{path}: played under rules version {version}, newer than this program's "
                    "{ours}; verify it with a newer stress-tui"
                ),
                path=path,
                version=replay.engine,
                ours=RULES_VERSION,
            ),
        )
    try:
        game, events = play_back(replay)
    except MalformedActionError as error:
        return Verdict(
            False, Problem(N_("{path}: an action cannot be applied: {why}"), path=path, why=error)
        )
    committed: object = ""
    if "commit" in replay.header:
        salt = bytes.fromhex(str(replay.header.get("salt", "")))
        if commitment(replay.seed, salt) != replay.header["commit"]:
            wrong = N_("{path}: the seed is not the one the host committed to at the deal")
            return Verdict(False, Problem(wrong, path=path))
        committed = Term(N_(", the seed the one the host committed to at the deal"))
    if replay.end is None:
        cut = N_("{path}: the round was cut short; no end to compare{committed}")
        return Verdict(False, Problem(cut, path=path, committed=committed))
    older = replay.engine < RULES_VERSION
    # The position's notation has gained words since older rules (each player's fewest, every
    # recent cover), so a round under older rules is checked by its events, the facts.
    if not older and format_position(game.state) != _canonical(replay.end.get("position")):
        differs = N_("{path}: the final position differs from the recorded one")
        return Verdict(False, Problem(differs, path=path))
    if not digest_matches(replay.end.get("digest"), events):
        if older:
            why: object = Problem(
                N_(
                    ": it was played under rules version {version}, and today's rules (version "
                    "{ours}) play these actions differently, or it was changed (docs/replays.md)"
                ),
                version=replay.engine,
                ours=RULES_VERSION,
            )
        else:
            why = ""
        differ = N_("{path}: the events differ from the recorded ones{why}")
        return Verdict(False, Problem(differ, path=path, why=why))
    winner = game.state.winner
    who = Term(N_("nobody")) if winner is None else _name(replay.header.get("names"), winner)
    under: object = ""
    if older:
        under = Problem(N_(" (played under rules version {version})"), version=replay.engine)
    day = replay.header.get("daily")
    actions = len(replay.actions)
    if day is None:
        verified = N_("{path}: verified, {n} actions, winner {who}{under}{committed}")
        return Verdict(
            True,
            Problem(verified, path=path, n=actions, who=who, under=under, committed=committed),
        )
    problem = daily_problem(replay)
    if problem is not None:
        return Verdict(False, Problem(N_("{path}: {why}"), path=path, why=problem))
    daily = N_(
        "{path}: verified, the daily deal of {day} (dealt from its seed), {n} actions, "
        "winner {who}{under}"
    )
    return Verdict(True, Problem(daily, path=path, day=day, n=actions, who=who, under=under))


def _name(names: object, side: int) -> str:
    """A player's name from a header's names, a name nobody gave as a ``Term`` (said in the
    language the line is)."""
    name = str(names[side]) if isinstance(names, list) else f"p{side + 1}"
    return Term(name) if name in UNNAMED else name


def sealed_verdict(replay: Replay) -> Verdict:
    """What can be said of a sealed replay: its actions read, are each a player's or a
    flip on piles the rules have, in time order; what they did (which card, who won)
    needs the seed. Never ``ok``: nothing was played back."""
    rules = parse_rules(replay.header["rules"])
    last = 0.0
    for number, action in enumerate(replay.actions, start=2):
        player = getattr(action, "player", 0)
        pile, target = getattr(action, "pile", 0), getattr(action, "target", 0)
        if (
            player not in (0, 1)
            or not 0 <= pile < rules.row_size
            or target not in (0, 1)
            or action.time < last
        ):
            odd = N_("{path}:{line}: sealed, and this action is not one a player could make")
            return Verdict(False, Problem(odd, path=replay.path, line=number))
        last = action.time
    return Verdict(
        False,
        Problem(
            N_(
                "{path}: sealed: the host never revealed the round's seed (it committed to "
                "{commit}... at the deal), so what the {n} actions did cannot be checked; "
                "checked: they read, each by a player on piles the rules have, in time order, "
                "to {seconds} s"
            ),
            path=replay.path,
            commit=str(replay.header["commit"])[:23],
            n=len(replay.actions),
            seconds=f"{last:.1f}",
        ),
    )


def daily_problem(replay: Replay) -> Problem | None:
    """Why a replay that says it is a daily deal is not that day's (``None``: it is: the
    seed is the day's, the rules and the players the daily's)."""
    day = str(replay.header.get("daily"))
    try:
        seed = daily_seed(day)
    except BadDate:
        return Problem(
            N_("not a daily deal: its day {day} is not a date"), day=repr(harmless(day, 20))
        )
    if replay.seed != seed:
        return Problem(
            N_("not the daily deal of {day}: dealt from seed {seed}, not the day's {days}"),
            day=day,
            seed=replay.seed,
            days=seed,
        )
    if format_rules(parse_rules(replay.header["rules"])) != format_rules(daily_rules()):
        return Problem(N_("not the daily deal of {day}: not played by the daily's rules"), day=day)
    if replay.header.get("players") != list(DAILY_PLAYERS):
        return Problem(
            N_("not the daily deal of {day}: not a person against the daily's computer"), day=day
        )
    return None


def _canonical(position: object) -> object:
    """A recorded position as the notation writes it today (older replays name some
    house rules by their old names: ``penalty=one``); as it is if it is not one."""
    try:
        return format_position(parse_position(str(position)))
    except NotationError:
        return position


@dataclass(frozen=True)
class Summary:
    """One line of ``replay --list``."""

    path: Path
    """The replay file."""
    started: str
    """When the round began (ISO 8601, UTC)."""
    names: tuple[str, str]
    """The players' names, as the replay keeps them (``You``: a name nobody gave)."""
    kinds: tuple[str, str]
    """Who played each side: ``human``, ``bot:hard``."""
    rules: str
    """The rules in notation."""
    winner: str
    """The winner's name, ``nobody`` (a drawn round), ``(being played)`` (a game is playing
    it now), ``(cut short)`` or ``(sealed)`` (a network joiner's, its seed never come)."""
    seconds: float | None
    """How long the round lasted (to its last recorded action when cut short or being
    played)."""


def summaries(
    folder: Path | None = None, limit: int = 20, _: Say = N_
) -> tuple[list[Summary], list[str]]:
    """The most recent replays, newest first, and one line for each unreadable file (said
    with ``_``)."""
    folder = folder if folder is not None else replay_dir()
    try:
        if not folder.is_dir():
            return [], []
        entries = list(folder.iterdir())
    except OSError as error:
        return [], [cannot_read(folder, error).said(_)]
    paths = sorted(
        (p for p in entries if p.name.endswith((".jsonl", ".jsonl.part"))),
        key=lambda p: p.name,
        reverse=True,
    )
    found: list[Summary] = []
    problems: list[str] = []
    for path in paths:
        if len(found) + len(problems) >= limit:
            break
        try:
            replay = load(path)
        except StorageError as error:
            problems.append(error.said(_))
            continue
        if not any(isinstance(action, Play) for action in replay.actions):
            continue  # quit before the first card was played: nothing to watch
        header = replay.header
        names = header.get("names") or ["p1", "p2"]
        kinds = header.get("players") or ["?", "?"]
        if replay.end is None and being_played(path):
            winner = N_("(being played)")
            seconds = replay.actions[-1].time if replay.actions else 0.0
        elif replay.end is None:
            winner = N_("(sealed)") if replay.sealed else N_("(cut short)")
            seconds = replay.actions[-1].time if replay.actions else 0.0
        else:
            won = replay.end.get("winner")
            winner = names[won] if won in (0, 1) else N_("nobody")
            seconds = float(replay.end.get("t", 0.0))
        found.append(
            Summary(
                path,
                str(header.get("started", "?")),
                (str(names[0]), str(names[1])),
                (str(kinds[0]), str(kinds[1])),
                format_rules(parse_rules(str(header.get("rules")))),
                winner,
                seconds,
            )
        )
    return found, problems
