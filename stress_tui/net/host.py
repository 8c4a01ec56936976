"""The host: the one true table, and the connections of the joiner and the spectators.

``Host`` listens (asyncio streams), lets a newcomer in through its ``Door`` (the limits,
and the proof of the join code, never sent), seats one joiner and a few spectators, and
runs the match (``HostedMatch``: its rounds, and its life on the ``core.lifecycle``
machine every way to play drives). The host's own keys come through ``act`` dated on
arrival; the joiner's come as messages, dated at their arrival less half the smallest of the
last round trips (measured by a ping about every second), never more than half the host's
kernel's own estimate of the path allows (``net.pathrtt``: the joiner decides when it
answers a ping, not when its kernel acknowledges), at most ``MAX_DELAY``.

Nothing leaves the host that a player at a real table could not see (``net.wire``). At
each deal the host sends a commitment to the round's seed (``storage.replay.commitment``),
as the round goes the actions it applied (each a key press the events already tell of),
and the seed and its salt only when the round is over (its end, or the match's), so that
the joiner keeps the round's replay and can check the seed is the one dealt. With each
table goes the match's stage and what holds it. Every message is checked
(``net.protocol``: size, schema, rate); a bad one ends that connection with its reason, and
a player's connection that ends holds the round until they come back (or, after
``REJOIN_SECONDS``, ends the match unscored). No terminal here: a screen reads ``Host``'s
fields and calls its methods, and so do the tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
from collections import deque
from collections.abc import Callable
from typing import Any

from stress_tui.core.actions import Action
from stress_tui.core.choices import OPEN_SEAT
from stress_tui.core.codec import action_to_json, event_to_json
from stress_tui.core.engine import Game
from stress_tui.core.events import Event
from stress_tui.core.lifecycle import Hold, Stage
from stress_tui.core.notation import format_rules
from stress_tui.core.rules import Rules
from stress_tui.core.table import COUNTDOWN
from stress_tui.core.words import N_, Say
from stress_tui.net.addresses import listening_socket
from stress_tui.net.door import Door, Proved
from stress_tui.net.fair import MAX_DELAY, FairTable
from stress_tui.net.hosted import Dealt, HostedMatch
from stress_tui.net.pathrtt import dated_back, writer_rtt
from stress_tui.net.protocol import (
    MAX_MOVED,
    MAX_PEER_LINE,
    PEER_MESSAGES,
    PING_EVERY,
    SILENT_LIMIT,
    ProtocolError,
    RateLimit,
    clean_name,
    encode,
    read_message,
    shown_ms,
)
from stress_tui.net.standing import HOST_SEAT as HOST_SEAT
from stress_tui.net.standing import JOINER_SEAT as JOINER_SEAT
from stress_tui.net.texts import Said, Value, said
from stress_tui.net.wire import MAX_EVENTS, public_standing, public_view, turned_up

QUICK_PINGS = 5
"""Pings sent back to back when a connection opens, for a first delay at once."""

MAX_WATCHERS = 4
"""Spectators at once."""

MAX_WRITE_BUFFER = 512 * 1024
"""Bytes waiting to be sent to one connection past which it is taken for one that has
stopped reading, and closed (the host's memory stays bounded)."""

DELAY_SAMPLES = 9
"""Round trips kept per connection; the delay shown is half their median, a joiner's
action is dated back by half their smallest (``Peer.dated_back``)."""

PathRtt = Callable[[asyncio.StreamWriter], float | None]
"""What the host's kernel says of a connection's smallest round trip, in seconds
(``None``: it does not say)."""

MAX_OUTSTANDING_PINGS = 8
"""Pings not yet answered that are remembered per connection."""

ACTS_CHUNK = 500
"""Actions per ``acts`` message."""


class Peer:
    """One connection that has proved the code: the joiner or a spectator."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        role: str,
        name: str,
        now: float,
        path_rtt: PathRtt = writer_rtt,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.role = role
        """``play`` or ``watch``."""
        self.name = name
        self.limit = RateLimit()
        self.pings: dict[int, float] = {}
        """Pings sent and not yet answered: id -> when sent."""
        self.next_ping = 0
        self.rtts: deque[float] = deque(maxlen=DELAY_SAMPLES)
        self.path_rtt = path_rtt
        self.last_heard = now
        self.closed = False
        self.quick = QUICK_PINGS
        """Pings still to send back to back (one on each answer)."""
        self.dealt: str | None = None
        """The round whose ``deal`` it was sent, by its commitment: unlike the round's
        number, which starts again at 1 with each rematch, one of its own (``None``: none)."""
        self.acts_sent = 0
        """The round's actions it holds (as they were when last sent)."""
        self.revealed: str | None = None
        """The round whose seed it was sent, by its commitment (``None``: none)."""
        self.mirrored = False
        """Whether it holds the round's table as last sent (a ``state`` made it, and
        nothing it holds was taken back since): then only what moved is sent (``moved``)."""
        self.told: dict[str, Any] | None = None
        """What the last ``state`` said beside the table (``Host._standing_of_match``): a
        change to it goes as a whole ``state``."""

    @property
    def delay(self) -> float | None:
        """The one-way delay: half the median round trip (``None``: none measured yet)."""
        if not self.rtts:
            return None
        return statistics.median(self.rtts) / 2

    def dated_back(self, cap: float) -> float:
        """How far back its actions are dated: half the smallest round trip its pings
        showed, no more than half the kernel's plus a margin (``pathrtt.dated_back``), at
        most ``cap``."""
        return dated_back(self.rtts, self.path_rtt(self.writer), cap)

    def send(self, message: dict[str, Any]) -> bool:
        """Queue a message; close a connection that has stopped reading. Whether it went."""
        if self.closed or self.writer.is_closing():
            return False
        self.writer.write(encode(message))
        if self.writer.transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            self.abort()
            return False
        return True

    def ping(self, now: float) -> None:
        ping_id = self.next_ping
        self.next_ping += 1
        self.pings[ping_id] = now
        while len(self.pings) > MAX_OUTSTANDING_PINGS:
            del self.pings[next(iter(self.pings))]
        delay = self.delay
        self.send({"t": "ping", "id": ping_id, "delay_ms": None if delay is None else delay * 1e3})

    def pong(self, ping_id: int, now: float) -> bool:
        """An answer to a ping; whether it was one we sent."""
        sent = self.pings.pop(ping_id, None)
        if sent is None:
            return False
        self.rtts.append(now - sent)
        return True

    def send_round(
        self, dealt: Dealt, actions: list[Action], round_number: int, rewound: int | None
    ) -> None:
        """What it needs for its replay before the next ``state``: the round's ``deal`` (the
        commitment to its seed), the ``actions`` applied since the last (from the first one
        taken back, ``rewound``, if any was) and, once the round is over, its seed, so that
        the ``state`` that says the round is over finds its result ready to show."""
        if dealt.commit is None:
            return
        if self.dealt != dealt.commit:
            deal = {"round": round_number, "commit": dealt.commit, "score": list(dealt.score)}
            self.send({"t": "deal", **deal})
            self.dealt, self.acts_sent = dealt.commit, 0
        start = self.acts_sent if rewound is None else min(self.acts_sent, rewound)
        firsts = list(range(start, len(actions), ACTS_CHUNK))
        if not firsts and start < self.acts_sent:
            firsts = [start]  # the list grew shorter: the peer drops what it holds from there
        for first in firsts:
            chunk = [action_to_json(a) for a in actions[first : first + ACTS_CHUNK]]
            self.send({"t": "acts", "round": round_number, "from": first, "actions": chunk})
        self.acts_sent = len(actions)
        if dealt.reveal is not None and self.revealed != dealt.reveal["commit"]:
            self.send(dealt.reveal)
            self.revealed = dealt.reveal["commit"]

    def send_moved(self, fair: FairTable, now: float, check: str | None, seq: int | None) -> None:
        """What moved on ``fair`` since it was last told: each action applied and the cards
        it turned face up, which its own engine applies to its table (``wire.Mirror``), and
        the ``check`` of the table they come to (``None``: none sent); ``seq``: the
        joiner's last key read."""
        applied = fair.applied[self.acts_sent :]
        message: dict[str, Any] = {
            "t": "moved",
            "from": self.acts_sent,
            "actions": [action_to_json(action) for action, _ in applied],
            "shown": [[str(card) for card in turned_up(events)] for _, events in applied],
            "now": round(now, 6),
        }
        if check is not None:
            message["check"] = check
        flip_in = fair.count_left(now)
        if flip_in is not None:
            message["flip_in"] = round(flip_in, 6)
        if seq is not None:
            message["seq"] = seq
        self.send(message)
        self.acts_sent += len(applied)

    def abort(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.transport.abort()

    def close(self, reason: Said | None = None) -> None:
        """Say goodbye (with ``reason``, said in the other end's language) and close."""
        if self.closed:
            return
        if reason is not None:
            self.send({"t": "bye", "reason": reason.to_json()})
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.close()


class Host(HostedMatch):
    """A table on the network: the match (``HostedMatch``), the door in front of it, its one
    joiner and its spectators."""

    pings = True
    """Whether the host pings each connection about every ``PING_EVERY``, timing it and
    taking one silent for ``SILENT_LIMIT`` for dead (``False``: its peers are in this same
    process, with no network between: ``terminal/tables.py``)."""

    checks = True
    """Whether each ``moved`` carries the ``check`` that tells a peer its copy is in step
    (``False``: its peers are in this same process, moved on by the same engine)."""

    def __init__(
        self,
        rules: Rules,
        name: str,
        *,
        code: str | None = None,
        port: int = 0,
        bind: str = "127.0.0.1",
        record: bool = True,
        countdown: float = COUNTDOWN,
        seed: int | None = None,
        max_delay: float = MAX_DELAY,
        first_game: Game | None = None,
        on_change: Callable[[list[Event]], None] | None = None,
        say: Say = N_,
        path_rtt: PathRtt = writer_rtt,
    ) -> None:
        super().__init__(
            rules, record=record, countdown=countdown, seed=seed, first_game=first_game, say=say
        )
        self.host_name = clean_name(name)
        self.names = (OPEN_SEAT, self.host_name)
        self.path_rtt = path_rtt
        """The kernel's smallest round trip of a connection (``pathrtt.writer_rtt``; a
        test behind an in-process proxy gives the path's)."""
        self.max_delay = max_delay
        """The most a joiner's action is dated back (0: dated on arrival, no fairness)."""
        self.door = Door(code, self._enter, lambda: self._changed([]), self._loop_time)
        """The limits and the handshake every connection passes first."""
        self.code = self.door.code
        """The join code (said to the joiner, never sent)."""
        self.port = port
        self.bind = bind
        self.on_change = on_change
        """Called after every change, with the events to word (may be empty)."""
        self.server: asyncio.Server | None = None
        self.joiner: Peer | None = None
        self.watchers: list[Peer] = []
        self.answered = 0
        """The ``seq`` of the joiner's last key (sent back in ``state``, so that the joiner
        knows which of its plays the table it is sent has heard of)."""
        self.joiner_told = 0
        """``state`` messages sent to the joiner."""
        self.pinger: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ running

    async def start(self) -> tuple[str, int]:
        """Listen; return the address and port."""
        self.loop = asyncio.get_running_loop()
        sock = listening_socket(self.bind, self.port)
        self.server = await asyncio.start_server(self.door.serve, sock=sock, limit=MAX_PEER_LINE)
        sock = self.server.sockets[0]
        self.port = sock.getsockname()[1]
        self.pinger = asyncio.create_task(self._ping_loop())
        return self.bind, self.port

    async def close(self, reason: Said | None = None) -> None:
        """Say goodbye to everyone and stop listening."""
        bye = reason or said("left", name=self.host_name)
        for peer in self._peers():
            peer.close(bye)
        if self.timer is not None:
            self.timer.cancel()
        if self.pinger is not None:
            self.pinger.cancel()
        await self.door.close()
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 1.0)
        self._cut_round()
        self.life.leave(self._loop_time())

    async def leave(self) -> None:
        """The host quits."""
        self._end_match(said("left", name=self.host_name))
        await self.close()

    @property
    def delay(self) -> float | None:
        """The joiner's one-way delay in seconds."""
        return self.joiner.delay if self.joiner is not None else None

    def shown_delay(self) -> float | None:
        """The one-way delay the host's screen shows, in seconds: the joiner's."""
        return self.delay

    # ------------------------------------------------------------------ connections

    def _peers(self) -> list[Peer]:
        peers = list(self.watchers)
        if self.joiner is not None:
            peers.insert(0, self.joiner)
        return peers

    async def _enter(self, proved: Proved) -> None:
        """A connection that proved the code: seated and served until it ends, or refused."""
        peer = self._seat(proved)
        if peer is not None:
            await self._read(peer)

    def _seat(self, proved: Proved) -> Peer | None:
        """The joiner's seat or a spectator's chair for ``proved``, welcomed; ``None``:
        refused (the match is over, the seat is taken, the chairs are full)."""
        door, writer, name = self.door, proved.writer, proved.name
        if self.life.stage is Stage.GONE:
            reveal = self.dealt.reveal
            if reveal is not None:  # the seed of the round cut short, to complete a replay
                with contextlib.suppress(Exception):
                    writer.write(encode(reveal))
            door.refuse(writer, said("over"))
            return None
        now = self._loop_time()
        if proved.role == "watch":
            if len(self.watchers) >= MAX_WATCHERS:
                door.refuse(writer, said("watchers"))
                return None
            peer = Peer(proved.reader, writer, proved.role, name, now, self.path_rtt)
            self.watchers.append(peer)
            seat = None
        else:
            if self.joiner is not None:
                door.refuse(writer, said("full", name=self.names[JOINER_SEAT]))
                return None
            if self.life.deals == 0:  # the first joiner names the seat; it stays theirs
                if name.casefold() == self.host_name.casefold():
                    name = f"{name[:14]} 2"
                self.names = (name, self.host_name)
            peer = Peer(
                proved.reader, writer, proved.role, self.names[JOINER_SEAT], now, self.path_rtt
            )
            self.joiner = peer
            self.answered = 0  # a joiner's program counts its keys from 1
            seat = JOINER_SEAT
        peer.send(door.welcome(proved, seat, list(self.names), format_rules(self.rules)))
        if self.pings:
            peer.ping(now)
        if seat is not None:
            self._joiner_arrived()
        else:
            self._send_state(peer, [])
        return peer

    async def _read(self, peer: Peer) -> None:
        """Every message of a peer, until it leaves or breaks the protocol."""
        reason: str | None = None
        said_bye = False
        try:
            while not peer.closed:
                message = await read_message(peer.reader, PEER_MESSAGES)
                if message is None:
                    break
                now = self._loop_time()
                peer.last_heard = now
                if not peer.limit.allow(now):
                    raise ProtocolError("too many messages")
                if message["t"] == "bye":
                    said_bye = True
                    break
                self._on_message(peer, message, now)
        except ProtocolError as error:
            reason = str(error)
        except (ConnectionError, OSError):
            pass
        if said_bye and peer is self.joiner and self.life.stage is not Stage.GONE:
            # The leaver hears the seed of a round cut short.
            self._end_match(said("left", name=peer.name))
        if reason is None:
            peer.close()
            self._gone(peer, left=said_bye)
        else:
            peer.close(said("error", why=reason))
            self._gone(peer, left=said_bye, lost="lost-error", why=reason)

    def _on_message(self, peer: Peer, message: dict[str, Any], now: float) -> None:
        kind = message["t"]
        if kind == "pong":
            shown = shown_ms(self.shown_delay())
            if peer.pong(message["id"], now) and peer.quick > 0:
                peer.quick -= 1
                peer.ping(now)
            if shown_ms(self.shown_delay()) != shown and self.on_change is not None:
                self.on_change([])  # the host's own screen, for the new figure
            return
        if kind in ("hello", "auth"):
            raise ProtocolError(f"{kind} twice")
        if kind == "sync":  # its table does not follow: the whole of it again
            peer.mirrored = False
            self._send_state(peer, [])
            return
        if peer.role != "play":
            raise ProtocolError("a spectator cannot play")
        if kind == "act":
            self.answered = message["seq"]
            told = self.joiner_told
            self._joiner_act(message)
            if self.joiner_told == told and peer is self.joiner:
                self._send_state(peer, [])  # it changed nothing: the joiner hears so
        elif kind == "ready":
            self.ready(JOINER_SEAT)
        elif kind == "pause":
            self.pause(JOINER_SEAT, hold=message.get("hold") is True)
        elif kind == "resume":
            self.resume(JOINER_SEAT, hold=message.get("hold") is True)
        elif kind == "next":
            self.go_on()

    def _gone(self, peer: Peer, left: bool = False, lost: str = "lost", **why: Value) -> None:
        """A peer's connection ended: ``left`` (it said goodbye), else lost (``lost``: the
        key of ``texts.TEXTS`` saying how, ``why`` its arguments but the name)."""
        if peer in self.watchers:
            self.watchers.remove(peer)
            self._changed([])
            return
        if peer is not self.joiner:
            return
        self.joiner = None
        self._joiner_lost(left, said(lost, name=self.names[JOINER_SEAT], **why))

    async def _ping_loop(self) -> None:
        while True:
            await asyncio.sleep(PING_EVERY)
            now = self._loop_time()
            for peer in self._peers() if self.pings else []:
                if now - peer.last_heard > SILENT_LIMIT:
                    peer.abort()
                    self._gone(peer, lost="lost-silent", s=SILENT_LIMIT)
                else:
                    peer.ping(now)
            if self.life.held(Hold.DROPPED):
                self._changed([])  # the seconds left, on both screens

    def _joiner_delay(self) -> float:
        """How far back the joiner's keys are dated (``Peer.dated_back``)."""
        return 0.0 if self.joiner is None else self.joiner.dated_back(self.max_delay)

    # ------------------------------------------------------------------ telling

    def _changed(self, events: list[Event]) -> None:
        if self.on_change is not None:
            self.on_change(events)
        for peer in self._peers():
            self._send_state(peer, events)
            if peer.closed:  # it had stopped reading: let it go now
                self._gone(peer, lost="lost-stopped")
        self.rewound = None

    def _send_state(self, peer: Peer, events: list[Event]) -> None:
        """Tell ``peer`` how the table stands: what moved since it was last told, if that
        is all that changed and its table follows (``moved``), else the whole of it."""
        if self.fair is None:
            return
        if peer is self.joiner:
            self.joiner_told += 1
        line = self._match_line()
        follows = (
            peer.mirrored
            and peer.told == line
            and self.dealt.commit is not None
            and peer.dealt == self.dealt.commit
            and (self.rewound is None or self.rewound >= peer.acts_sent)
            and len(self.fair.applied) - peer.acts_sent <= MAX_MOVED
        )
        if follows:
            seq = self.answered if peer is self.joiner else None
            peer.send_moved(self.fair, self.now(), self._check() if self.checks else None, seq)
            return
        peer.send_round(self.dealt, self.fair.actions(), self.round_number, self.rewound)
        delay = peer.delay
        message: dict[str, Any] = {
            "t": "state",
            "now": self.now(),
            "view": public_view(self.fair.game),
            "events": [event_to_json(e) for e in events[-MAX_EVENTS:]],
            **line,
            "flip_in": self.fair.count_left(self.now()),
            "delay_ms": None if delay is None else delay * 1e3,
            "seq": self.answered if peer is self.joiner else None,
        }
        if self.dealt.commit is not None:  # a dealt round: the peer's table follows from here
            message["standing"] = public_standing(self.fair.game)
            message["applied"] = peer.acts_sent
        peer.send(message)
        peer.mirrored = self.dealt.commit is not None
        peer.told = line
