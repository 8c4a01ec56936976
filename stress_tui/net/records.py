"""A network round's files on each side: its replay, its statistics and the record.

At one keyboard a replay is written action by action. Across a network an action can be
taken back after it was applied (``net.fair``), so each side writes the round's replay
whole, from the final list of actions, once the round is over (``save_round``). The joiner
learns the seed only then; while the round is played it keeps a *sealed* replay
(``Journal``): the host's commitment to the seed in its header, each action as the host
applied it (written again when one is taken back), so that a round cut short by a host
that vanished still leaves the joiner what was played. When the seed comes, checked
against the commitment, the sealed file gives way to an ordinary replay. Both sides'
replays hold the same actions and verify alike.
"""

from __future__ import annotations

import contextlib
import errno
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stress_tui.core.actions import Action, MalformedActionError
from stress_tui.core.engine import Game, Phase
from stress_tui.core.notation import format_rules, parse_rules
from stress_tui.core.rules import Rules
from stress_tui.core.stats import RoundStats, round_stats
from stress_tui.core.words import N_, Say, rating_notes
from stress_tui.storage import pending
from stress_tui.storage import replay as replays
from stress_tui.storage.files import StorageError, reason
from stress_tui.storage.record import count_round
from stress_tui.storage.recorder import Recorder
from stress_tui.storage.replay import commitment

COUNTED_LATER = N_(
    "record: busy (another program holds it); the round will be counted at the next start"
)
"""The result's line for a round whose record another program holds: its replay, marked,
is counted by the next command that reads the record (``storage.pending``)."""

PLAYERS = ("human", "human")
"""Who plays each side of a network table, as a replay's header says it."""


@dataclass(frozen=True)
class RoundFiles:
    """What became of a round's files."""

    stats: RoundStats | None
    """Both players' statistics (``None``: the round was cut short)."""
    notes: tuple[str, ...]
    """Lines for the result screen: where the replay went, what could not be saved."""
    replay: str | None = None
    """The replay's file, if one was written."""


def save_round(
    dealt: Game,
    seed: int,
    actions: list[Action],
    names: tuple[str, str],
    round_number: int,
    score: tuple[int, int],
    *,
    finished: bool,
    match_over: bool = False,
    count: bool = True,
    extra: dict[str, Any] | None = None,
    _: Say = N_,
) -> RoundFiles:
    """Write the replay of ``actions`` played on ``dealt`` (the round as dealt, which is
    not changed) and, for a finished round, count it (and the match) in the record, which
    rates both players as any round between two people (a note says how it moved; a
    record another program holds is waited for a moment, then the round is left marked
    for the next start to count, and a note says so);
    ``extra``: more header fields, the commitment to the seed and its salt; ``_``: the
    language of the notes (this side's player's)."""
    notes: list[str] = []
    replay: str | None = None
    key: str | None = None
    game = dealt.copy()
    try:
        recorder = Recorder.start(game, seed, PLAYERS, names, round_number, score, extra=extra)
    except OSError as error:
        notes.append(_("not recorded ({why})").format(why=reason(error)))
    else:
        try:
            for action in actions:
                recorder.record(action, game.apply(action))
            if finished:
                key = str(recorder.header["id"])
                to_count = count and game.state.winner is not None
                replay = str(recorder.finish(game, count=to_count))
                notes.append(_("replay: {file}").format(file=recorder.path.name))
            else:
                recorder.close()
                replay = str(recorder.part)
                notes.append(_("replay of what was played: {file}").format(file=recorder.part.name))
        except OSError as error:
            with contextlib.suppress(OSError):
                recorder.close()
            notes.append(_("replay not saved ({why})").format(why=reason(error)))
    if not finished:
        return RoundFiles(None, tuple(notes), replay)
    stats = round_stats(dealt.copy(), actions)
    if count and stats.winner is not None:
        rules = format_rules(dealt.rules)
        try:  # a record another program holds is waited for briefly: the table goes on
            counted = count_round(
                names, rules, stats, match_over, kinds=PLAYERS, key=key, busy=pending.FIRST_WAIT
            )
        except StorageError:
            notes.append(
                _("record not updated: the file cannot be read (stress-tui stats says why)")
            )
        except OSError as error:
            if error.errno == errno.EBUSY and replay is not None:  # its mark stays
                notes.append(_(COUNTED_LATER))
            else:
                notes.append(_("record not updated ({why})").format(why=reason(error)))
        else:
            if replay is not None:
                pending.settle(Path(replay))
            if counted is not None:
                notes += rating_notes(names, counted.before, counted.after, _, own=True)
    return RoundFiles(stats, tuple(notes), replay)


class Journal:
    """A joiner's (or spectator's) replay of the round being played, sealed until the host
    reveals the round's seed: the host's commitment in its header, the actions as the host
    applied them."""

    def __init__(
        self,
        rules: Rules,
        commit: str,
        names: tuple[str, str],
        round_number: int,
        score: tuple[int, int],
        *,
        write: bool = True,
        _: Say = N_,
    ) -> None:
        self.rules = rules
        self.say = _
        """The language of the notes (this side's player's)."""
        self.commit = commit
        """The host's commitment to the round's seed (``storage.replay.commitment``)."""
        self.names = names
        self.round_number = round_number
        self.score = score
        """Rounds won in the match before this one."""
        self.actions: list[Action] = []
        """Every action the host applied so far, in order."""
        self.notes: list[str] = []
        """What went wrong with the file, for the result screen."""
        self.recorder: Recorder | None = None
        if write:
            try:
                self.recorder = Recorder.sealed(rules, commit, PLAYERS, names, round_number, score)
            except OSError as error:
                self.notes.append(_("not recorded ({why})").format(why=reason(error)))

    @property
    def path(self) -> Path | None:
        """The sealed file (``None``: none is written)."""
        return self.recorder.part if self.recorder is not None else None

    def update(self, start: int, actions: list[Action]) -> None:
        """The host's actions from index ``start`` on (those after it were taken back);
        ``ValueError`` for a ``start`` past what we hold."""
        if not 0 <= start <= len(self.actions):
            raise ValueError("actions from beyond those received")
        appended = start == len(self.actions)
        self.actions[start:] = actions
        if self.recorder is None:
            return
        try:
            if appended:
                for action in actions:
                    self.recorder.record(action, [])
            else:
                self.recorder.rewrite(self.actions)
        except OSError as error:
            _ = self.say
            self.recorder.close()
            self.recorder = None
            self.notes.append(_("replay not saved ({why})").format(why=reason(error)))

    def close(self) -> None:
        """Stop writing; the sealed file stays, readable as it is."""
        if self.recorder is not None:
            self.recorder.close()

    def reveal(self, seed: int, salt: bytes, *, record: bool, count: bool) -> RoundFiles:
        """The seed came: write the round's replay whole (finished or cut short) and, for a
        finished round, count it; the sealed files of the round go. ``ValueError`` if the
        seed is not the one committed to, or the actions cannot be played on its deal."""
        self.close()
        files = settle(
            self.rules,
            self.commit,
            seed,
            salt,
            self.actions,
            self.names,
            self.round_number,
            self.score,
            record=record,
            count=count,
            _=self.say,
        )
        return RoundFiles(files.stats, tuple(self.notes) + files.notes, files.replay)


def settle(
    rules: Rules,
    commit: str,
    seed: int,
    salt: bytes,
    actions: list[Action],
    names: tuple[str, str],
    round_number: int,
    score: tuple[int, int],
    *,
    record: bool,
    count: bool,
    _: Say = N_,
) -> RoundFiles:
    """A network round whose seed has been revealed: check it against ``commit``, play
    ``actions`` on its deal, write the replay (``save_round``) and remove the sealed files
    of the round (this program's and any an earlier program left, which hold a part of the
    same actions). ``ValueError`` if the seed is not the committed one or an action
    cannot be applied."""
    if commitment(seed, salt) != commit:
        raise ValueError("the seed is not the one committed to at the deal")
    dealt = Game.deal(rules, random.Random(seed))
    played = dealt.copy()
    try:
        for action in actions:
            played.apply(action)
    except MalformedActionError:
        raise ValueError("an action that cannot be played on that deal") from None
    if not record:
        return RoundFiles(None, ())
    winner = played.state.winner
    finished = played.phase is Phase.ROUND_OVER
    files = save_round(
        dealt,
        seed,
        actions,
        names,
        round_number,
        score,
        finished=finished,
        match_over=winner is not None and score[winner] + 1 >= rules.wins,
        count=count,
        extra={"commit": commit, "salt": salt.hex()},
        _=_,
    )
    if files.replay is not None:
        for path in sealed_files(commit):
            with contextlib.suppress(OSError):
                path.unlink()
    return files


def sealed_files(commit: str, limit: int = 200) -> list[Path]:
    """The sealed replays in the replays folder of the round ``commit`` names (one for each
    program that joined it), among the ``limit`` most recent files."""
    folder = replays.replay_dir()
    try:
        parts = sorted(folder.glob("*.jsonl.part"), key=lambda p: p.name, reverse=True)[:limit]
    except OSError:
        return []
    found = []
    for path in parts:
        try:
            replay = replays.load(path)
        except StorageError:
            continue
        if replay.sealed and replay.header.get("commit") == commit:
            found.append(path)
    return found


def unseal(commit: str, seed: int, salt: bytes, _: Say = N_) -> RoundFiles | None:
    """A seed revealed after the match (a fresh ``join`` to a host still up): complete the
    longest sealed replay of that round in the folder. ``None``: none is there."""
    longest: replays.Replay | None = None
    for path in sealed_files(commit):
        with contextlib.suppress(StorageError):
            replay = replays.load(path)
            if longest is None or len(replay.actions) > len(longest.actions):
                longest = replay
    if longest is None:
        return None
    header = longest.header
    names = header.get("names") or ["p1", "p2"]
    score = header.get("score") or [0, 0]
    try:
        return settle(
            parse_rules(header["rules"]),
            commit,
            seed,
            salt,
            longest.actions,
            (names[0], names[1]),
            int(header.get("round", 1)),
            (score[0], score[1]),
            record=True,
            count=False,
            _=_,
        )
    except ValueError:
        return None
