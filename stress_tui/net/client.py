"""The joiner's and the spectator's end: a view of the host's table, and keys sent to it.

``Client`` connects, proves the join code without sending it (and checks that the host
knows it too: ``net.dial``), then keeps (``net.joined``) ``table``: a ``Table`` over a
position made from the host's
latest view (``net.wire.mirror_state``), moved on by what the host says moved
(``net.wire.Mirror``: the engine here applies the host's actions), which a screen draws like
a table at one keyboard. Keys go to the host as they are pressed; the host dates them and
answers with what they moved. A card we play shows on the pile at once (``predicted``: our
plays the host has not yet answered, played on its last table); the host's answer puts
its table in its place, with the reason if it refused the play (another card was there
first, it did not fit). When the connection drops, the joiner tries again for as long
as the host keeps the seat, and a spectator as long. As the round goes the host sends the
actions it applied, and the joiner keeps them in a sealed replay
(``net.records.Journal``: the host's commitment to the seed, sent at the deal, in its
header); when the round is over the host reveals the seed, and the joiner checks it
against the commitment, writes the replay and counts the round in its own record.
Everything from the host is checked before it is used, names and events included.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from stress_tui.core.actions import Play, PlayTogether
from stress_tui.core.choices import GUEST
from stress_tui.core.events import Event
from stress_tui.core.lifecycle import Hold, Holder, Stage
from stress_tui.core.table import Table
from stress_tui.core.view import table_view
from stress_tui.core.words import N_, Say
from stress_tui.net.dial import Dial, printable
from stress_tui.net.dial import JoinError as JoinError
from stress_tui.net.joined import JoinedTable
from stress_tui.net.protocol import (
    HOST_MESSAGES,
    SILENT_LIMIT,
    ProtocolError,
    encode,
    read_message,
    shown_ms,
)
from stress_tui.net.texts import said_from_json

RETRY_EVERY = 1.0
"""Seconds between tries to reach the host again after the connection dropped."""

RETRY_FOR = 60.0
"""How long to keep trying (the host keeps the seat as long)."""

LEAVE_WAIT = 1.0
"""Seconds a joiner who leaves mid-round waits for the seed of the round it cuts short."""


class Client(JoinedTable):
    """A seat (or a spectator's chair) at a table on another machine: the connection to the
    host, and our keys sent to it."""

    pinged = True
    """Whether the host pings us, about every second: then its connection is taken for
    dead after ``SILENT_LIMIT`` without a word (``False``: a host in this same process,
    which does not: ``terminal/tables.py``)."""

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
        super().__init__(role=role, record=record, say=say)
        self.address = address
        self.port = port
        self.code = code
        self.name = name
        self.on_change = on_change
        """Called after every change, with the events to word (may be empty)."""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.leaving = False
        self.silent = False
        """Whether the host's connection was taken for dead after ``SILENT_LIMIT`` without
        a word."""
        self.holding = False
        """Whether we hold the match paused (we cannot see the table): said again to the
        host when we reach it again after a drop."""
        self.seq = 0
        self.lost_at: float | None = None
        """When our connection to the host was last lost (loop time)."""
        self.task: asyncio.Task[None] | None = None
        self.done: asyncio.Future[str] | None = None
        """Set with the reason when the match is over for us (left, ended, refused)."""

    async def connect(self) -> None:
        """Reach the host and take the seat; ``JoinError`` if that fails."""
        self.loop = asyncio.get_running_loop()
        if self.done is None:
            self.done = self.loop.create_future()
        await self._handshake()
        self.task = asyncio.create_task(self._run())

    async def _handshake(self) -> None:
        welcome = await Dial(
            self.address,
            self.port,
            self.code,
            self.role,
            self.name,
            self.say,
            self._on_reveal,
            self._kept,
        )()
        self.seat, self.names, self.rules = welcome.seat, welcome.names, welcome.rules
        self.reader, self.writer = welcome.reader, welcome.writer

    async def _run(self) -> None:
        """Read the host until the match is over for us; reach it again after a drop."""
        while True:
            reason = await self._read()
            if reason is None and self.leaving:
                reason = "left"
            if reason is not None:
                self._over(reason)
                return
            if not await self._reach_again():
                return

    async def _read(self) -> str | None:
        """Messages until the connection ends: the reason the match is over, or ``None``
        for a connection that dropped, or that said nothing for ``SILENT_LIMIT`` (the host
        pings every second: its machine went without closing it)."""
        assert self.reader is not None
        self.silent = False
        limit = SILENT_LIMIT if self.pinged else None
        try:
            while True:
                try:
                    message = await asyncio.wait_for(
                        read_message(self.reader, HOST_MESSAGES), limit
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
            return _("the host broke the protocol ({why})").format(why=printable(error))
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
        if self.role == "watch":  # the players' match may go on: nobody holds it for us
            self._over(_("the host could not be reached again"))
        else:
            self._over(_("the host did not come back: the match ends unscored"))
        return False

    def _over(self, reason: str) -> None:
        self.stage = Stage.GONE
        self.running = False
        self.holds = self.holds - {Holder(Hold.DROPPED, self.seat)}  # not reaching it now
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

    def _on_message(self, message: dict[str, Any]) -> None:
        kind = message["t"]
        if kind == "ping":
            self._send({"t": "pong", "id": message["id"]})
            delay = message.get("delay_ms")
            if delay is not None:
                shown = shown_ms(self.shown_delay())
                self.delay_ms = delay
                if shown_ms(self.shown_delay()) != shown:
                    self._changed([])  # only when the figure on the screen changes
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

    def _send(self, message: dict[str, Any]) -> None:
        if self.writer is None or self.writer.is_closing():
            return
        with contextlib.suppress(Exception):
            self.writer.write(encode(message))

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
            before, self.table = self.table, self.predicted()
            if not _same_view(before, self.table):  # the play is shown before it is answered
                self._changed([])

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


def _same_view(before: Table | None, after: Table | None) -> bool:
    """Whether two tables show the same to anyone at them (a play the prediction did not
    take, such as one during a lockout, changes nothing)."""
    if before is None or after is None:
        return before is after
    seen = table_view(before.game.state), table_view(after.game.state)
    return seen[0] == seen[1] and before.flip_at == after.flip_at
