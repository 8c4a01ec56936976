"""The joiner's and the spectator's end: a view of the host's table, and keys sent to it.

``Client`` connects, proves the join code without sending it (and checks that the host
knows it too), then keeps ``table``: a ``Table`` over a position made from the host's
latest view (``net.wire.mirror_state``), moved on by what the host says moved
(``net.wire.Mirror``: the engine here applies the host's actions), which a screen draws like
a table at one keyboard. Keys go to the host as they are pressed; the host dates them and
answers with what they moved. A card we play shows on the pile at once (``predicted``: our
plays the host has not yet answered, played on its last table); the host's answer puts
its table in its place, with the reason if it refused the play (another card was there
first, it did not fit). When the connection drops, the joiner tries again for as long
as the host keeps the seat. As the round goes the host sends the actions it applied, and
the joiner keeps them in a sealed replay (``net.records.Journal``: the host's commitment to
the seed, sent at the deal, in its header); when the round is over the host reveals the
seed, and the joiner checks it against the commitment, writes the replay and counts the
round in its own record.
Everything from the host is checked before it is used, names and events included.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import Callable
from typing import Any

from stress_tui.core.actions import Action, MalformedActionError, Play, PlayTogether
from stress_tui.core.choices import GUEST
from stress_tui.core.codec import action_from_json
from stress_tui.core.engine import Game
from stress_tui.core.events import Drawn, Event, Rejected, RoundDrawn, RoundWon
from stress_tui.core.lifecycle import Hold, Holder, Stage
from stress_tui.core.notation import NotationError, parse_rules
from stress_tui.core.rules import Rules
from stress_tui.core.table import COUNTDOWN, Table
from stress_tui.core.text import harmless
from stress_tui.core.words import N_, Say
from stress_tui.net.addresses import shown
from stress_tui.net.protocol import (
    HANDSHAKE_SECONDS,
    HOST_MESSAGES,
    MAX_HOST_LINE,
    SILENT_LIMIT,
    VERSION,
    ProtocolError,
    clean_name,
    code_key,
    encode,
    nonce,
    proof,
    proof_matches,
    read_message,
    shown_ms,
)
from stress_tui.net.records import Journal, RoundFiles, unseal
from stress_tui.net.texts import recognize, said, said_from_json
from stress_tui.net.wire import (
    MAX_EVENTS,
    Mirror,
    OutOfStep,
    cards_from_json,
    check,
    events_from_json,
    mirror_state,
)

RETRY_EVERY = 1.0
"""Seconds between tries to reach the host again after the connection dropped."""

RETRY_FOR = 60.0
"""How long to keep trying (the host keeps the seat as long)."""

MAX_LOG = 200_000
"""Actions of one round the joiner will keep for its replay."""

LEAVE_WAIT = 1.0
"""Seconds a joiner who leaves mid-round waits for the seed of the round it cuts short."""


class JoinError(Exception):
    """The host could not be reached or refused us; the text says why in one line, in the
    player's language."""

    def __init__(self, text: str, refused: bool = False) -> None:
        super().__init__(text)
        self.refused = refused
        """Whether the host refused us (trying again would not help)."""


class Client:
    """A seat (or a spectator's chair) at a table on another machine."""

    def __init__(
        self,
        address: str,
        port: int,
        code: str,
        name: str = GUEST,
        *,
        role: str = "play",
        record: bool = True,
        on_change: Callable[[list[Event]], None] | None = None,
        say: Say = N_,
    ) -> None:
        self.address = address
        self.say = say
        """The player's language (``terminal.lang._``): what the host says by key, and every
        line made here, is said in it."""
        self.port = port
        self.code = code
        self.name = name
        self.role = role
        """``play`` or ``watch``."""
        self.record = record
        self.on_change = on_change
        """Called after every change, with the events to word (may be empty)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.seat: int | None = None
        """The engine player we play (``None``: watching)."""
        self.names: tuple[str, str] = ("?", "?")
        self.rules: Rules = Rules()
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
        self.leaving = False
        self.silent = False
        """Whether the host's connection was taken for dead after ``SILENT_LIMIT`` without
        a word."""
        self.holding = False
        """Whether we hold the match paused (we cannot see the table): said again to the
        host when we reach it again after a drop."""
        self.seq = 0
        self.base = 0.0
        """The round's clock at ``base_at`` (the host's time plus the delay)."""
        self.base_at = 0.0
        self.running = False
        self.last_now = 0.0
        self.lost_at: float | None = None
        """When our connection to the host was last lost (loop time)."""
        self.task: asyncio.Task[None] | None = None
        self.done: asyncio.Future[str] | None = None
        """Set with the reason when the match is over for us (left, ended, refused)."""

    # ------------------------------------------------------------------ connecting

    async def connect(self) -> None:
        """Reach the host and take the seat; ``JoinError`` if that fails."""
        self.loop = asyncio.get_running_loop()
        if self.done is None:
            self.done = self.loop.create_future()
        await self._handshake()
        self.task = asyncio.create_task(self._run())

    async def _handshake(self) -> None:
        _ = self.say
        where = shown(self.address, self.port)
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.address, self.port, limit=MAX_HOST_LINE),
                HANDSHAKE_SECONDS,
            )
        except (OSError, asyncio.TimeoutError) as error:
            line = _("{where}: cannot connect ({why})")
            raise JoinError(line.format(where=where, why=self._why(error))) from None
        try:
            hello: dict[str, Any] = {"t": "hello", "v": VERSION, "app": "stress-tui"}
            hello["role"] = self.role
            if self.role == "play":
                hello["name"] = self.name
            writer.write(encode(hello))
            challenge = await self._expect(reader, "challenge", where)
            salt = bytes.fromhex(challenge["salt"])
            key = await asyncio.to_thread(code_key, self.code, salt)
            mine = nonce()
            writer.write(
                encode(
                    {
                        "t": "auth",
                        "nonce": mine,
                        "proof": proof(key, "peer", challenge["nonce"], mine),
                    }
                )
            )
            welcome = await self._expect(reader, "welcome", where)
            if not proof_matches(key, "host", challenge["nonce"], mine, welcome["proof"]):
                raise JoinError(
                    _("{where}: that host does not know the join code").format(where=where)
                )
            names = [clean_name(n) for n in welcome["names"]]
            if len(names) != 2:
                raise ProtocolError("welcome: two names")
            self.names = (names[0], names[1])
            self.rules = parse_rules(welcome["rules"])
        except (ProtocolError, NotationError, ValueError) as error:
            writer.close()
            line = _("{where}: the host broke the protocol ({why})")
            raise JoinError(line.format(where=where, why=_printable(error))) from None
        except (OSError, asyncio.TimeoutError) as error:
            writer.close()
            line = _("{where}: the connection failed ({why})")
            raise JoinError(line.format(where=where, why=self._why(error))) from None
        except JoinError:
            writer.close()
            raise
        self.seat = welcome["seat"]
        self.reader, self.writer = reader, writer

    async def _expect(self, reader: asyncio.StreamReader, kind: str, where: str) -> dict[str, Any]:
        _ = self.say
        closed = _("{where}: the host closed the connection").format(where=where)
        message = await asyncio.wait_for(read_message(reader, HOST_MESSAGES), HANDSHAKE_SECONDS)
        if message is None:
            raise JoinError(closed)
        while message["t"] == "reveal":  # the seed of a round the match cut short
            self._on_reveal(message)
            message = await asyncio.wait_for(read_message(reader, HOST_MESSAGES), HANDSHAKE_SECONDS)
            if message is None:
                raise JoinError(closed)
        if message["t"] == "refused":
            line = _("{where} refused: {reason}").format(where=where, reason=self._refusal(message))
            if self.result is not None and self.result.replay is not None:
                kept = _("{line} (the round it cut short is kept: {note})")
                line = kept.format(line=line, note=self.result.notes[-1])
            raise JoinError(line, refused=True)
        if message["t"] != kind:
            raise ProtocolError(f"{kind} expected, not {message['t']}")
        return message

    def _refusal(self, message: dict[str, Any]) -> str:
        """Why the host refused us, in our language: by its key; another version's refusal
        (which carries none) by the versions; an English one the host sends before it
        knows our version, recognized; anything else shown as sent, made harmless."""
        if "said" in message:
            return said_from_json(message["said"]).tell(self.say)
        version = message.get("v")
        if version is not None and version != VERSION:
            return said("version", theirs=str(VERSION), ours=str(version)[:10]).tell(self.say)
        known = recognize(message["reason"])
        return known.tell(self.say) if known is not None else _printable(message["reason"]) or ""

    def _why(self, error: BaseException) -> str:
        """Why a connection could not be made or failed, in a few words."""
        if isinstance(error, asyncio.TimeoutError):
            _ = self.say
            return _("no answer")
        text = getattr(error, "strerror", None) or str(error) or type(error).__name__
        return harmless(str(text).lower(), limit=100)

    async def _run(self) -> None:
        """Read the host until the match is over for us; reach it again after a drop (a
        spectator is told the connection was lost)."""
        while True:
            reason = await self._read()
            if reason is None and self.leaving:
                reason = "left"
            if reason is None and self.role != "play":
                host = self.names[1]  # engine order: the host plays p2
                lost = said("lost-silent", name=host, s=SILENT_LIMIT) if self.silent else None
                reason = (lost or said("lost", name=host)).tell(self.say)
            if reason is not None:
                self._over(reason)
                return
            if self.role != "play" or not await self._reach_again():
                return

    async def _read(self) -> str | None:
        """Messages until the connection ends: the reason the match is over, or ``None``
        for a connection that dropped, or that said nothing for ``SILENT_LIMIT`` (the host
        pings every second: its machine went without closing it)."""
        assert self.reader is not None
        self.silent = False
        try:
            while True:
                try:
                    message = await asyncio.wait_for(
                        read_message(self.reader, HOST_MESSAGES), SILENT_LIMIT
                    )
                except asyncio.TimeoutError:  # not even a ping: the host's machine is gone
                    self.silent = True
                    self._close()
                    return None
                if message is None:
                    return None
                kind = message["t"]
                if kind == "bye":
                    return said_from_json(message["reason"]).tell(self.say)
                self._on_message(message)
        except ProtocolError as error:
            self._close()
            _ = self.say
            return _("the host broke the protocol ({why})").format(why=_printable(error))
        except (ConnectionError, OSError):
            return None

    async def _reach_again(self) -> bool:
        """Try to reach the host again for ``RETRY_FOR`` seconds; whether we did."""
        assert self.loop is not None
        self._close()
        self.lost_at = self.loop.time()
        self.pending = []  # what the host did with them comes with its table
        self.mirror, self.syncing = None, False  # the whole table comes first
        self.holds = self.holds | {Holder(Hold.DROPPED, self.seat)}
        self.running = False
        while self.loop.time() < self.lost_at + RETRY_FOR:  # however long each try takes
            self._changed([])
            await asyncio.sleep(RETRY_EVERY)
            try:
                await self._handshake()
            except JoinError as error:
                if error.refused:
                    self._over(str(error))
                    return False
                continue
            if self.holding:
                self.pause(hold=True)
            return True
        _ = self.say
        self._over(_("the host did not come back: the match ends unscored"))
        return False

    def _over(self, reason: str) -> None:
        self.stage = Stage.GONE
        self.running = False
        journal = self.journal
        if journal is not None:  # the seed never came: what was played stays sealed
            journal.close()
            if journal.path is not None and journal.actions:
                _ = self.say
                sealed = _("what was played, sealed: {file}").format(file=journal.path.name)
                reason = f"{reason}\n{sealed}"
        self.message = reason
        self._close()
        self._changed([])
        if self.done is not None and not self.done.done():
            self.done.set_result(reason)

    def _close(self) -> None:
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()

    # ------------------------------------------------------------------ messages

    def _on_message(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "ping":
            self._send({"t": "pong", "id": message["id"]})
            delay = message.get("delay_ms")
            if delay is not None and shown_ms(delay) != shown_ms(self.delay_ms):
                self.delay_ms = delay
                self._changed([])  # only when the figure on the screen changes
            elif delay is not None:
                self.delay_ms = delay
        elif kind == "state":
            self._on_state(message)
        elif kind == "deal":
            self._on_deal(message)
        elif kind == "moved":
            self._on_moved(message)
        elif kind == "acts":
            self._on_acts(message)
        elif kind == "reveal":
            self._on_reveal(message)
        else:
            raise ProtocolError(f"{kind} out of place")

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
                if check(mirror.game) != message["check"]:
                    raise OutOfStep("moved: another table than the host's")
            except OutOfStep:
                mirror = self.mirror = None
        if mirror is None and not self.syncing:
            self._send({"t": "sync"})  # the whole table again, please
            self.syncing = True
        self._clock(message, (self.delay_ms or 0.0) / 1e3)
        if mirror is not None and self.shown is not None:
            table = Table(mirror.game.copy(), countdown=self.shown.countdown)
        elif self.shown is not None:
            table = self.shown  # as it was, until the whole table comes
        else:
            return
        self._show(table, message)
        self._changed(events[-MAX_EVENTS:])

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

    def _on_acts(self, message: dict[str, Any]) -> None:
        self._log(message)
        self.mirror = None  # a whole table follows (the round again, or actions taken back)

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

    # ------------------------------------------------------------------ keys

    def now(self) -> float:
        """The round's clock as the host's runs (it stands while the host's stands)."""
        if self.loop is None:
            return self.base
        shown = self.base + (self.loop.time() - self.base_at if self.running else 0.0)
        if self.running:
            self.last_now = max(self.last_now, shown)
            return self.last_now
        return shown

    def _send(self, message: dict[str, Any]) -> None:
        if self.writer is None or self.writer.is_closing():
            return
        with contextlib.suppress(Exception):
            self.writer.write(encode(message))

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

    def act(self, kind: str, pile: int | None = None, target: int | None = None) -> None:
        """One of our keys (``play``, ``play-together``, ``stress``, ``ready``, ``stop``)."""
        if self.role != "play" or not self.playing():
            return
        self.seq += 1
        message: dict[str, Any] = {"t": "act", "a": kind, "seq": self.seq}
        if kind in ("play", "play-together"):
            message.update(pile=pile, to=target)
        self._send(message)
        if kind in ("play", "play-together") and self.seat is not None:
            assert pile is not None and target is not None
            play = PlayTogether if kind == "play-together" else Play
            self.pending.append((self.seq, play(self.seat, pile, target, self.now())))
            self.table = self.predicted()
            self._changed([])

    def predicted(self) -> Table | None:
        """The host's last table with our unanswered plays played on it, each that the
        table takes: where the card moved from shows empty until the host says what was
        drawn there (the draw pile's order is not ours to see)."""
        shown = self.shown
        if shown is None or not self.pending or self.stage is not Stage.PLAYING:
            return shown
        table = Table(shown.game.copy(), countdown=shown.countdown)
        table.flip_at = shown.flip_at
        for _seq, pressed in self.pending:
            # At the host's time as we see it, never before what its table shows.
            action = dataclasses.replace(pressed, time=max(pressed.time, table.game.state.time))
            trial = table.game.copy()
            try:
                events = trial.apply(action)
            except MalformedActionError:
                continue  # no such pile: the host will say so
            if any(isinstance(e, (Rejected, RoundWon, RoundDrawn)) for e in events):
                continue  # the host will say why, or end the round itself
            events = table.submit(action)
            row = table.game.state.players[action.player].row
            for event in reversed(events):
                if isinstance(event, Drawn) and event.player == action.player:
                    row[event.pile].pop()  # a stand-in: not a card we know
        return table

    def ready(self) -> None:
        """Ready for the round to start."""
        if self.role == "play" and self.stage is Stage.READY and not self.holds:
            self._send({"t": "ready"})

    def pause(self, hold: bool = False) -> None:
        """Pause the match for both (``hold``: until we can see the table again)."""
        if hold:
            self.holding = True
        if self.role == "play":
            self._send({"t": "pause", "hold": True} if hold else {"t": "pause"})

    def resume(self, hold: bool = False) -> None:
        """Go on (``hold``: we can see the table again)."""
        if hold:
            self.holding = False
        if self.role == "play":
            self._send({"t": "resume", "hold": True} if hold else {"t": "resume"})

    def go_on(self) -> None:
        if self.role == "play":
            self._send({"t": "next"})

    async def leave(self) -> None:
        """Say goodbye and close (mid-round, once the host has sent the seed of the round
        we cut short, or after ``LEAVE_WAIT``)."""
        self.leaving = True
        self._send({"t": "bye"})
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer.drain(), 1.0)
        waiting = self.journal is not None and not self.lost
        if waiting and self.task is not None and not self.task.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.task), LEAVE_WAIT)
        self._close()
        if self.task is not None:
            self.task.cancel()
        if self.done is not None and not self.done.done():
            self.done.set_result("left")

    def _changed(self, events: list[Event]) -> None:
        if self.on_change is not None:
            self.on_change(events)

    def lost_left(self) -> float | None:
        """Seconds left to reach the host again (``None``: not lost)."""
        if not self.lost or self.lost_at is None or self.loop is None:
            return None
        return max(0.0, self.lost_at + RETRY_FOR - self.loop.time())


def _printable(value: object) -> str | None:
    """Text from the host made harmless to show (``core.text.harmless``)."""
    if value is None:
        return None
    return harmless(str(value), limit=200)
