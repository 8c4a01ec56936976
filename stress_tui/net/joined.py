"""The joiner's and the spectator's picture of a table on another machine, apart from the
connection: the host's table as it last showed it, moved on by what it says moved (the
engine here applies the host's actions: ``net.wire.Mirror``), the match's stage and what
holds it as the host's lifecycle says, the round's clock as the host's runs, our plays the
host has not answered yet, and the rounds kept for their replays (``net.records.Journal``).
``net.client.Client`` adds the connection and the keys.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from stress_tui.core.actions import Action, Play
from stress_tui.core.codec import action_from_json
from stress_tui.core.engine import Game
from stress_tui.core.events import Event
from stress_tui.core.lifecycle import Hold, Holder, Stage
from stress_tui.core.rules import Rules
from stress_tui.core.table import COUNTDOWN, Table
from stress_tui.core.words import Say
from stress_tui.net.dial import JoinError as JoinError
from stress_tui.net.protocol import (
    ProtocolError,
)
from stress_tui.net.records import Journal, RoundFiles, unseal
from stress_tui.net.texts import said_from_json
from stress_tui.net.wire import (
    MAX_EVENTS,
    Mirror,
    OutOfStep,
    ahead,
    cards_from_json,
    check,
    events_from_json,
    mirror_state,
)

MAX_LOG = 200_000
"""Actions of one round the joiner will keep for its replay."""


class JoinedRounds:
    """The rounds a joiner or a spectator keeps for its replays: the round the host last
    dealt, its actions as the host applied them (``net.records.Journal``: sealed, the host's
    commitment to the seed in its header, until the seed comes), and the rounds whose seed
    came and whose replay is written."""

    def __init__(self, *, role: str, record: bool, say: Say) -> None:
        self.say = say
        """The player's language (``terminal.lang._``): what the host says by key, and every
        line made here, is said in it."""
        self.role = role
        """``play`` or ``watch``."""
        self.record = record
        self.names: tuple[str, str] = ("?", "?")
        self.rules: Rules = Rules()
        self.result: RoundFiles | None = None
        """The last round's files and statistics, once its seed came."""
        self.result_round = 0
        self.journal: Journal | None = None
        """The round being played, as the host applied it (its seed not yet revealed)."""
        self.dealt: str | None = None
        """The commitment of the round the host last dealt us."""
        self.settled: set[str] = set()
        """The rounds (by commitment) whose seed came and whose replay is written: sent
        again to a joiner that reached the host again, they are neither written nor
        counted twice."""

    def _changed(self, events: list[Event]) -> None:
        """Something changed: ``Client`` tells its screen."""

    def _on_deal(self, message: dict[str, Any]) -> None:
        self.dealt = message["commit"]
        if self.dealt in self.settled:
            return  # a round over and kept (we came back on its result)
        journal = self.journal
        if journal is not None and journal.commit == message["commit"]:
            return  # the same round again (we came back)
        if journal is not None:
            journal.close()
        self.result, self.result_round = None, 0  # the last round's, not this one's
        score = message.get("score") or [0, 0]
        self.journal = Journal(
            self.rules,
            message["commit"],
            self.names,
            message["round"],
            (score[0], score[1]),
            write=self.record,
            _=self.say,
        )

    def _log(self, message: dict[str, Any]) -> list[Action]:
        """The actions of an ``acts`` (of the round it names) or a ``moved`` (of the round
        last dealt), kept for the round's replay."""
        kind = message["t"]
        if message["from"] + len(message["actions"]) > MAX_LOG:
            raise ProtocolError(f"{kind}: too many")
        try:
            actions = [action_from_json(a) for a in message["actions"]]
        except ValueError as error:
            raise ProtocolError(f"{kind}: {error}") from None
        if self.dealt in self.settled:
            return actions
        journal = self.journal
        if journal is None or journal.round_number != message.get("round", journal.round_number):
            raise ProtocolError(f"{kind}: of no round dealt")
        try:
            journal.update(message["from"], actions)
        except ValueError as error:
            raise ProtocolError(f"{kind}: {error}") from None
        return actions

    def _on_reveal(self, message: dict[str, Any]) -> None:
        if message["commit"] in self.settled:
            return
        salt = bytes.fromhex(message["salt"])
        journal = self.journal
        count = self.record and self.role == "play"
        try:
            if journal is not None and journal.commit == message["commit"]:
                self.result = journal.reveal(message["seed"], salt, record=self.record, count=count)
                self.journal = None
            elif self.record:  # a round an earlier program of ours was playing
                self.result = unseal(message["commit"], message["seed"], salt, self.say)
                if self.result is None:
                    return
            else:
                return
        except ValueError as error:
            raise ProtocolError(f"reveal: {error}") from None
        self.settled.add(message["commit"])
        self.result_round = message["round"]
        self._changed([])  # the result screen waits for it

    def _kept(self) -> str | None:
        """What was kept of a round the match cut short, to say with a refusal."""
        if self.result is None or self.result.replay is None:
            return None
        return self.result.notes[-1]


class JoinedTable(JoinedRounds):
    """The host's table as it last showed it (``state``), moved on by what it says moved
    (``moved``: the engine here applies the host's actions to ``mirror``), with the match's
    stage and what holds it, the round's clock as the host's runs, and our plays the host
    has not answered yet played on it (``predicted``)."""

    def __init__(self, *, role: str, record: bool, say: Say) -> None:
        super().__init__(role=role, record=record, say=say)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.seat: int | None = None
        """The engine player we play (``None``: watching)."""
        self.table: Table | None = None
        """The table to draw: the host's last, with our plays it has not answered yet."""
        self.shown: Table | None = None
        """The table as the host last showed it."""
        self.mirror: Mirror | None = None
        """The round as the host last showed it, which its ``moved`` messages move on
        (``None``: none, or out of step until the next ``state``)."""
        self.syncing = False
        """Whether we asked the host for the whole table again (``sync``)."""
        self.pending: list[tuple[int, Play]] = []
        """Our plays the host has not answered yet, by their ``seq``, in order."""
        self.score: tuple[int, int] = (0, 0)
        self.round_number = 0
        self.stage = Stage.WAITING
        """Where the match stands, as the host's lifecycle last said (``WAITING`` until the
        first table; ``GONE`` once the match is over for us)."""
        self.holds: frozenset[Holder] = frozenset()
        """What holds the match, as the host last said; while we reach the host again, our
        own connection lost (``Hold.DROPPED`` by our seat), as the host sees it too."""
        self.message: str | None = None
        self.delay_ms: float | None = None
        self.drop_left: float | None = None
        self.resume_in: float | None = None
        self.resume_end: float | None = None
        """Loop time this side's resume count ends: when the host's does, by the delay
        (the state that began it left the host that long ago)."""
        self.waiting: tuple[bool, bool] | None = None
        """Before a round starts: which players it waits for (``None``: it has started)."""
        self.result_winner: int | None = None
        self.match_over = False
        self.base = 0.0
        """The round's clock at ``base_at`` (the host's time plus the delay)."""
        self.base_at = 0.0
        self.running = False
        self.last_now = 0.0

    def _send(self, message: dict[str, Any]) -> None:
        """A message to the host (``Client``)."""

    def _on_state(self, message: dict[str, Any]) -> None:
        standing = message.get("standing")
        state = mirror_state(message["view"], self.rules, standing)
        events = events_from_json(message["events"])
        applied = message.get("applied")
        self.mirror = None
        if standing is not None and applied is not None:
            self.mirror = Mirror(state.copy(), applied)
        self.syncing = False
        countdown = message.get("countdown", COUNTDOWN)
        self.stage = Stage(message["stage"])
        self.holds = frozenset(Holder(Hold(hold), by) for hold, by in message["holds"])
        self.running = self.stage is Stage.PLAYING
        delay = (message.get("delay_ms") or 0.0) / 1e3
        self._clock(message, delay)
        self._show(Table(Game(state, random.Random(0)), countdown=countdown), message)
        score = message["score"]
        self.score = (score[0], score[1])
        self.round_number = message["round"]
        said_line = message.get("message")
        self.message = None if said_line is None else said_from_json(said_line).tell(self.say)
        if message.get("delay_ms") is not None:
            self.delay_ms = message["delay_ms"]
        self.drop_left = message.get("drop_left")
        self.resume_in = message.get("resume_in")
        self.resume_end = None if self.resume_in is None else self.base_at + self.resume_in - delay
        waiting = message.get("waiting")
        self.waiting = None if waiting is None or len(waiting) != 2 else (waiting[0], waiting[1])
        result = message.get("result")
        if isinstance(result, dict):
            winner = result.get("winner")
            self.result_winner = winner if winner in (0, 1) and type(winner) is int else None
            self.match_over = result.get("match_over") is True
            if result.get("logged") is False and self.result_round != self.round_number:
                # A round the host set up by hand: it has no seed, so none is revealed.
                _ = self.say
                note = _("not recorded: a round set up from a position has no seed")
                self.result = RoundFiles(None, (note,))
                self.result_round = self.round_number
        elif result is not None:
            raise ProtocolError("state: a result is an object")
        self._changed(events)

    def _clock(self, message: dict[str, Any], delay: float) -> None:
        """The round's clock as the host's ``now`` says, ``delay`` ago."""
        assert self.loop is not None
        self.base = message["now"] + (delay if self.running else 0.0)
        self.base_at = self.loop.time()
        if not self.running:
            self.last_now = self.base

    def _show(self, table: Table, message: dict[str, Any]) -> None:
        """``table`` as the host shows it now (``flip_in``: its count), with our plays it
        had not heard of when it sent ``message`` (``seq``: our last key it had)."""
        answered = message.get("seq")
        if answered is not None:
            self.pending = [(seq, act) for seq, act in self.pending if seq > answered]
        flip_in = message.get("flip_in")
        if flip_in is not None:
            table.flip_at = self.base + flip_in
        self.shown = table
        self.table = self.predicted()

    def _on_moved(self, message: dict[str, Any]) -> None:
        """What moved on the host's table: its actions, played on our mirror of it."""
        actions = self._log(message)
        shown = message["shown"]
        if len(shown) != len(actions):
            raise ProtocolError("moved: the cards shown by each action")
        turned = [cards_from_json(cards) for cards in shown]
        events: list[Event] = []
        mirror = self.mirror
        if mirror is not None:
            try:
                if message["from"] != mirror.applied:
                    raise OutOfStep("moved: not from where our table is")
                for action, cards in zip(actions, turned, strict=True):
                    events += mirror.follow(action, cards)
                if "check" in message and check(mirror.game) != message["check"]:
                    raise OutOfStep("moved: another table than the host's")
            except OutOfStep:
                mirror = self.mirror = None
        if mirror is None and not self.syncing:
            self._send({"t": "sync"})  # the whole table again, please
            self.syncing = True
        self._clock(message, (self.delay_ms or 0.0) / 1e3)
        if mirror is not None and self.shown is not None:  # (its game, never changed)
            table = Table(mirror.game, countdown=self.shown.countdown)
        elif self.shown is not None:
            table = self.shown  # as it was, until the whole table comes
        else:
            return
        self._show(table, message)
        self._changed(events[-MAX_EVENTS:])

    def _on_acts(self, message: dict[str, Any]) -> None:
        self._log(message)
        self.mirror = None  # a whole table follows (the round again, or actions taken back)

    def now(self) -> float:
        """The round's clock as the host's runs (it stands while the host's stands)."""
        if self.loop is None:
            return self.base
        shown = self.base + (self.loop.time() - self.base_at if self.running else 0.0)
        if self.running:
            self.last_now = max(self.last_now, shown)
            return self.last_now
        return shown

    def reach(self, game_time: float) -> float:
        """The round's clock, or ``game_time`` if it runs and is just short of it (a timer
        set for it may fire a hair early); what it shows from then on."""
        if self.running:
            self.last_now = max(self.last_now, game_time)
        return self.now()

    def shown_delay(self) -> float | None:
        """The one-way delay this end's screen shows, in seconds: the host's word for it."""
        return None if self.delay_ms is None else self.delay_ms / 1e3

    @property
    def lost(self) -> bool:
        """Whether our connection to the host is lost (we are reaching it again)."""
        return Holder(Hold.DROPPED, self.seat) in self.holds

    def resume_left(self) -> float | None:
        """Seconds of the resume count left on this side (``None``: none runs)."""
        if self.stage is not Stage.COUNT or self.resume_end is None or self.loop is None:
            return None
        return max(0.0, self.resume_end - self.loop.time())

    def playing(self) -> bool:
        """Whether our keys play: the round is under way, or its resume count is over here
        (the host's is too, as near as the delay tells)."""
        if self.lost:
            return False
        return self.stage is Stage.PLAYING or self.resume_left() == 0.0

    def predicted(self) -> Table | None:
        """The host's last table with our unanswered plays played on it (``wire.ahead``)."""
        shown = self.shown
        if shown is None or not self.pending or self.stage is not Stage.PLAYING:
            return shown
        return ahead(shown, [play for _seq, play in self.pending])
