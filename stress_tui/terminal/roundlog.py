"""The round log: what is kept of each round, fed by the table's own stream of actions.

A ``RoundLog`` listens to the table (``watch`` makes it the table's ``on_action``): every
action applied, with its events, is kept for the round's statistics and written to the
round's replay (``stress_tui.storage.replay``) once the frame that shows it is out
(``RoundReplay.write``: the player sees a key's effect without waiting for the disk),
before the next action is kept. When an event ends the round, the log finishes the replay
(the action that ended it written first), measures the round (``stress_tui.core.stats``)
and counts it in the record kept across matches (``stress_tui.storage.record``); the
result screen shows what came of it, ``ended``.

The files are first touched when the round's first action is applied: the replay is
opened then (a round left during its first count leaves none), and, in the first round,
the record is checked; so nothing of the storage is loaded before the table is on
screen. A daily deal is taken in the record when its first card is played. A recording
or record problem (a data directory that cannot be written, a broken record file) is said
once (``warn``) and the game plays on without it; it never ends the game.
Only a round dealt from a seed is recorded and counted: a position set up from notation
has no seed to replay it from.
"""

from __future__ import annotations

import contextlib
import errno
import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stress_tui.core.actions import Action
from stress_tui.core.engine import Game
from stress_tui.core.events import Event, NoProgress, Played, RoundDrawn, RoundWon, TableDead
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.core.table import Table
from stress_tui.core.words import N_
from stress_tui.terminal.lang import _

if TYPE_CHECKING:
    from stress_tui.core.stats import RoundStats
    from stress_tui.storage.files import StorageError
    from stress_tui.storage.pending import Counting
    from stress_tui.storage.record import Counted
    from stress_tui.storage.recorder import Recorder
    from stress_tui.terminal.screens.result import Result


WILL_BE_COUNTED = N_(
    "record: busy (another program holds it); the round will be counted once it is free"
)
"""The result screen's line while the record is held locked by another program."""

NOT_READABLE = N_("record not updated: the file cannot be read (stress-tui stats says why)")

Background = Callable[[Callable[[], Any], Callable[[Any], None]], None]
"""Runs a job (``job()``, which may block on files) and hands what it returned to
``done``, on the event loop: a thread in the game (``terminal.background``), at once
where there is no event loop (``run_now``)."""


def run_now(job: Callable[[], Any], done: Callable[[Any], None]) -> None:
    """Run ``job`` here and now, then ``done``."""
    done(job())


def drawn_because(happened: list[Event], rules: Rules) -> str | None:
    """Why a round was drawn, for the result screen, if one of ``happened`` says it."""
    for event in happened:
        if isinstance(event, TableDead):
            from stress_tui.core.houserules import DEAD_FLIPS

            return _("Drawn, for nobody: {count} flips and no card played").format(count=DEAD_FLIPS)
        if isinstance(event, NoProgress):
            return _("Drawn, for nobody: {count} plays and nobody nearer the end").format(
                count=rules.stale_limit
            )
    return None


class RoundReplay:
    """The replay of the round being played, as it is written (``stress_tui.storage.replay``):
    opened at the round's first action, each action added once its frame is out (``write``)
    or the next action comes, whichever is first, finished when the round ends, left as its
    readable ``.part`` file on a quit mid-round. It owns the file being written; one that
    cannot be written is said once (``warn``), and no replay is written for the rest of the
    session."""

    def __init__(self, warn: Callable[[str], None]) -> None:
        self.warn = warn
        """Says a file that cannot be written (on the banner line)."""
        self.recorder: Recorder | None = None
        """The round's replay being written (``None``: not recorded)."""
        self.off: str | None = None
        """Why replays are not written this session (``None``: they are)."""
        self.waiting: tuple[Action, list[Event]] | None = None
        """The action applied last and its events, not written yet (``write``)."""

    def open(
        self,
        game: Game,
        round_seed: int,
        settings: Settings,
        round_number: int,
        score: tuple[int, int],
        daily: str | None,
        deal: str | None,
    ) -> None:
        """The round's first action: open its replay."""
        from stress_tui.storage.recorder import Recorder

        try:
            self.recorder = Recorder.start(
                game,
                round_seed,
                settings.players,
                settings.names,
                round_number,
                score,
                daily=daily,
                deal=deal,
            )
        except OSError as error:
            self.stop(error)

    def record(self, action: Action, happened: list[Event]) -> None:
        """An action the table applied, kept to be written to the replay (if one is being
        written) by ``write``; the one kept before it is written now."""
        if self.recorder is not None:
            if self.waiting is not None:  # (a burst's earlier key, or a timer's action)
                self.write()
            self.waiting = (action, happened)

    def write(self) -> None:
        """Write the action kept by ``record`` (if one waits): once its frame is out."""
        waiting, self.waiting = self.waiting, None
        if waiting is not None and self.recorder is not None:
            try:
                self.recorder.record(*waiting)
            except OSError as error:
                self.stop(error)

    def key(self) -> str | None:
        """The replay's id, while one is being written."""
        return self.recorder.header.get("id") if self.recorder is not None else None

    def stop(self, error: OSError) -> None:
        """A replay could not be written: say so once, play on without replays."""
        from stress_tui.storage.files import reason
        from stress_tui.storage.replay import replay_dir

        recorder, self.recorder = self.recorder, None
        self.waiting = None
        if recorder is not None:
            with contextlib.suppress(OSError):
                recorder.close()
        self.off = reason(error)
        self.warn(
            _("Not recording replays ({why}): {folder}").format(why=self.off, folder=replay_dir())
        )

    def finish(self, game: Game, count: bool = False) -> tuple[str | None, Path | None]:
        """End the round's replay (marked to be counted in the record, if ``count``): a
        line for the result screen, and the finished file."""
        from stress_tui.storage.files import reason

        self.write()
        recorder, self.recorder = self.recorder, None
        if recorder is None:
            if self.off is None:
                return None, None
            return _("not recorded ({why})").format(why=self.off), None
        try:
            path = recorder.finish(game, count=count)
        except OSError as error:
            with contextlib.suppress(OSError):
                recorder.close()
            self.off = reason(error)
            note = _("replay not saved ({why}): {file}").format(why=self.off, file=recorder.part)
            return note, None
        return _("replay: {file}").format(file=path.name), path

    def close(self, empty: bool) -> None:
        """Quit mid-round: the replay keeps its ``.part`` file, readable as it is (removed
        if the round is still ``empty``: nothing happened in it yet)."""
        waiting, self.waiting = self.waiting, None
        recorder, self.recorder = self.recorder, None
        if recorder is not None:
            with contextlib.suppress(OSError):
                if waiting is not None:
                    recorder.record(*waiting)
            with contextlib.suppress(OSError):
                recorder.close()
                if empty:
                    recorder.part.unlink()


class RoundLog:
    """Every round's actions, statistics and place in the record, and its replay
    (``RoundReplay``)."""

    def __init__(
        self,
        settings: Settings,
        rules: Rules,
        warn: Callable[[str], None],
        daily: str | None = None,
        background: Background = run_now,
    ) -> None:
        self.settings = settings
        """Who plays (names and kinds, written to the replay and the record)."""
        self.rules = rules
        """The rules every round is played by (the record counts rounds by them)."""
        self.warn = warn
        """Says a problem with the files (on the banner line)."""
        self.table: Table | None = None
        """The round being logged."""
        self.deal: str | None = None
        """What ``--seed`` takes to deal the round again (kept in its replay)."""
        self.round_seed: int | None = None
        """The seed the round was dealt with (``None``: a position, not recorded)."""
        self.dealt: Game | None = None
        """The round as it began: its position and its random source's state."""
        self.actions: list[Action] = []
        """Every action applied this round, for its statistics."""
        self.score = (0, 0)
        """The match's score when the round began."""
        self.replay = RoundReplay(warn)
        """The round's replay, as it is written."""
        self.record_off: str | None = None
        """Why the record is not updated this session (``None``: it is)."""
        self.ended: Result | None = None
        """What came of the round, once it has ended: the result screen's."""
        self.round_number = 1
        """The round's number in the match (for its replay)."""
        self.checked = False
        """Whether the record has been checked (at the first action of the session)."""
        self.daily = daily
        """The day of the daily deal being played (``None``: not a daily)."""
        self.counted: Counted | None = None
        """What counting the last round did (``None``: not counted, or not yet)."""
        self.background = background
        """Where the record's work is done: never on the event loop in the game."""
        self.busy = False
        """Whether the record was held locked by another program at the last try."""
        self.on_counted: Callable[[Result], None] = lambda result: None
        """Told (on the event loop) when what came of a round's count has gone on its
        result."""
        self.daily_taken = False
        """Whether the daily deal has been taken for its person (at its first card played,
        or its end if none was)."""

    def watch(self, table: Table, round_seed: int | None) -> None:
        """Listen to a new round's table (dealt from ``round_seed``, if it was)."""
        game = table.game
        self.table = table
        self.round_seed = round_seed
        self.dealt = game.copy()
        self.actions = []
        self.ended = None
        table.on_action = self.on_action

    def start(self, round_number: int, score: tuple[int, int], deal: str | None = None) -> None:
        """The round begins (its replay is opened at its first action; ``deal``: the
        ``--seed`` that deals it again, kept in the replay)."""
        self.round_number = round_number
        self.deal = deal
        self.score = score
        self.replay.recorder = None

    def check_files(self) -> None:
        """Once, before the first action is kept, off the event loop: the rounds finished
        earlier and not counted yet are counted; is the record readable? (Left alone and
        not updated this session if not.)"""
        self.checked = True
        from stress_tui.storage.pending import check_record

        self.background(check_record, self.record_checked)

    def record_checked(self, error: StorageError | OSError | None) -> None:
        """What checking the record found (on the event loop)."""
        from stress_tui.storage.files import StorageError

        if isinstance(error, StorageError):
            self.record_off = str(error)
            self.warn(
                _(
                    "The record file cannot be read: left alone, not updated "
                    "(stress-tui stats says why)"
                )
            )
        elif isinstance(error, OSError) and error.errno == errno.EBUSY:
            self.busy = True

    def on_action(self, action: Action, happened: list[Event]) -> None:
        """Every action the table applies: kept for the statistics, written to the replay;
        the round's end is counted."""
        if not self.checked:
            self.check_files()
        first = not self.actions
        self.actions.append(action)
        if first and self.round_seed is not None and self.replay.off is None:
            assert self.table is not None
            self.replay.open(
                self.table.game,
                self.round_seed,
                self.settings,
                self.round_number,
                self.score,
                daily=self.daily,
                deal=self.deal,
            )
        self.replay.record(action, happened)
        if self.daily is not None and not self.daily_taken:
            ends = (Played, RoundWon, RoundDrawn)
            if any(isinstance(event, ends) for event in happened):
                self.take_daily(self.daily)
        for event in happened:
            if type(event) is RoundWon or type(event) is RoundDrawn:
                self.end(event, drawn_because(happened, self.rules))

    def take_daily(self, day: str) -> None:
        """The daily deal's first card has been played: the day is taken for its person,
        and a round left from now on counts as not won. Taken meanwhile by another game of
        the same name, this round is not counted when it ends (``count_round``); a record
        that cannot be written is said then, on the result screen. Taken off the event
        loop (``background``), as every write to the record."""
        from stress_tui.storage.files import StorageError
        from stress_tui.storage.ratings import HUMAN
        from stress_tui.storage.record import DailyTaken, claim_daily

        self.daily_taken = True
        if self.record_off is not None or self.round_seed is None:
            return
        kinds = self.settings.players
        name = self.settings.names[kinds.index(HUMAN) if HUMAN in kinds else 0]

        def claim() -> None:  # off the event loop, before the round's count
            with contextlib.suppress(DailyTaken, StorageError, OSError):
                claim_daily(name, day)

        self.background(claim, lambda nothing: None)

    def end(self, event: RoundWon | RoundDrawn, why: str | None = None) -> None:
        """Write the replay's end, measure the round, and count it in the record off the
        event loop (``background``); ``why`` a round was drawn is said instead of a
        winner. The result is made at once, and says what became of the count once it is
        known."""
        from stress_tui.core.stats import round_stats
        from stress_tui.terminal.screens.result import Result

        winner = event.player if isinstance(event, RoundWon) else None
        match_over = winner is not None and self.score[winner] + 1 >= self.rules.wins
        stats = round_stats(self.dealt_game(), self.actions)
        counting = (
            self.round_seed is not None
            and self.record_off is None
            and (stats.winner is not None or self.daily is not None)
        )
        key = self.replay.key()
        replay_note: str | None
        replay: Path | None
        if self.round_seed is None:
            replay_note = _("not recorded: a round set up from a position has no seed")
            replay = None
        else:
            assert self.table is not None
            replay_note, replay = self.replay.finish(self.table.game, count=counting)
        notes = [replay_note]
        if counting and self.busy:
            notes.append(_(WILL_BE_COUNTED))
        self.counted = None
        self.ended = Result(
            winner,
            match_over,
            headline=why,
            stats=stats,
            notes=tuple(note for note in notes if note),
        )
        if counting:
            self.count_in_record(stats, match_over, key, replay, self.ended)

    def count_in_record(
        self,
        stats: RoundStats,
        match_over: bool,
        key: str | None = None,
        replay: Path | None = None,
        result: Result | None = None,
    ) -> None:
        """Count the round (and the match) in the record, off the event loop; once done,
        what it did goes on ``result``'s notes and ``on_counted`` is told. A record held
        locked by another program is tried again until it is free (the round, marked
        beside its replay, is counted at the next start if the game ends first)."""
        from stress_tui.core.notation import format_rules
        from stress_tui.storage.pending import count_now

        job = functools.partial(
            count_now,
            self.settings.names,
            format_rules(self.rules),
            stats,
            match_over,
            self.settings.players,
            self.daily,
            key,
            replay,
        )
        self.background(job, functools.partial(self.counted_round, job, result))

    def counted_round(
        self, job: Callable[[], Counting], result: Result | None, done: Counting
    ) -> None:
        """What came of counting a round (on the event loop): the result says it; a record
        that was locked is tried again."""
        from stress_tui.storage.files import StorageError, reason
        from stress_tui.storage.pending import count_until_free

        error = done.error
        if error is None:
            self.busy = False
            self.counted = done.counted
            notes = [note for note in result.notes if note != _(WILL_BE_COUNTED)] if result else []
            if done.counted is not None and result is not None:
                from stress_tui.core.words import rating_notes

                notes.append(_("record: counted"))
                counted = done.counted
                notes += rating_notes(self.settings.names, counted.before, counted.after, _)
                result.charts = done.charts
        elif isinstance(error, StorageError):
            self.record_off = str(error)
            notes = [*(result.notes if result else ()), _(NOT_READABLE)]
        elif error.errno == errno.EBUSY:
            self.busy = True
            notes = [*(result.notes if result else ())]
            if _(WILL_BE_COUNTED) not in notes:
                notes.append(_(WILL_BE_COUNTED))
            self.background(
                functools.partial(count_until_free, job),
                functools.partial(self.counted_round, job, result),
            )
        else:
            self.record_off = reason(error)
            notes = [
                *(result.notes if result else ()),
                _("record not updated ({why})").format(why=self.record_off),
            ]
        if result is not None:
            result.notes = tuple(notes)
            self.on_counted(result)

    def dealt_game(self) -> Game:
        """A copy of the round as it began (for its statistics)."""
        assert self.dealt is not None
        return self.dealt.copy()

    def close(self) -> None:
        """Quit mid-round: the replay keeps its ``.part`` file, readable as it is (unless
        nothing happened yet: a round left during its first count leaves no file)."""
        self.replay.close(empty=not self.actions)
