"""The host: the one true table, and the connections of the joiner and the spectators.

``Host`` listens (asyncio streams), proves the join code with each newcomer (never sending
it), seats one joiner and a few spectators, and runs the match: rounds on a ``FairTable``,
the match's life (the start gate, pauses, a player away or dropped, the count before play
goes on, the result, the next round or a rematch) on the ``core.lifecycle.Lifecycle`` every
other way to play drives too, whose clock is the round's: it stands still while anything
holds the match, for both players at once. The host's
own keys come through ``act`` dated on arrival; the joiner's come as messages, dated at
their arrival less half the smallest of the last round trips (measured by a ping about
every second), never more than half the host's kernel's own estimate of the path allows
(``net.pathrtt``: the joiner decides when it answers a ping, not when its kernel
acknowledges), at most ``MAX_DELAY``.

Nothing leaves the host that a player at a real table could not see (``net.wire``). At
each deal the host sends a commitment to the round's seed (``storage.replay.commitment``),
as the round goes the actions it applied (each a key press the events already tell of),
and the seed and its salt only when the round is over (its end, or the match's), so that
the joiner keeps the round's replay and can check the seed is the one dealt. Each peer is
sent the whole table (``state``) when it needs it, and otherwise only what moved
(``moved``: the actions and the cards they turned face up, which its own engine applies to
its copy of the table, ``net.wire.Mirror``). Every message is
checked (``net.protocol``: size, schema, rate); a bad one ends that connection with its
reason, and a player's connection that ends pauses the round until they come back (or,
after ``REJOIN_SECONDS``, ends the match unscored). No terminal here: a screen reads
``Host``'s fields and calls its methods, and so do the tests and benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import math
import random
import secrets
import statistics
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any

from stress_tui.core.actions import Action, CallStress, Play, PlayTogether, ReadyToFlip, StopStress
from stress_tui.core.choices import GUEST, OPEN_SEAT, SPECTATOR
from stress_tui.core.codec import action_to_json, event_to_json
from stress_tui.core.engine import Game, Match
from stress_tui.core.events import Event, RoundDrawn, RoundWon
from stress_tui.core.lifecycle import Hold, Lifecycle, Stage
from stress_tui.core.notation import format_rules
from stress_tui.core.rules import Rules
from stress_tui.core.table import COUNTDOWN, Table
from stress_tui.core.words import N_, Say
from stress_tui.net.addresses import listening_socket
from stress_tui.net.fair import MAX_DELAY, FairTable, Outcome
from stress_tui.net.pathrtt import dated_back, writer_rtt
from stress_tui.net.protocol import (
    HANDSHAKE_SECONDS,
    MAX_MOVED,
    MAX_PEER_LINE,
    PEER_MESSAGES,
    PING_EVERY,
    SILENT_LIMIT,
    VERSION,
    ProtocolError,
    RateLimit,
    check_version,
    clean_name,
    code_key,
    encode,
    new_code,
    nonce,
    proof,
    proof_matches,
    read_message,
    shown_ms,
)
from stress_tui.net.records import RoundFiles, save_round
from stress_tui.net.standing import HOST_SEAT as HOST_SEAT
from stress_tui.net.standing import JOINER_SEAT as JOINER_SEAT
from stress_tui.net.standing import describe, holds_to_json, starting
from stress_tui.net.standing import held_by as holder_name
from stress_tui.net.standing import paused_by as pauser_name
from stress_tui.net.texts import Said, Value, said
from stress_tui.net.wire import MAX_EVENTS, check, public_standing, public_view, turned_up
from stress_tui.storage.replay import commitment

QUICK_PINGS = 5
"""Pings sent back to back when a connection opens, for a first delay at once."""

REJOIN_SECONDS = 60.0
"""How long a player who dropped out may come back and resume the round."""

RESUME_COUNT = 1.5
"""Seconds counted down on both screens before a paused round goes on."""

EARLY_GRACE = 0.1
"""Seconds before the end of the resume count within which a joiner's key, dated by the
delay, is kept for the moment play goes on rather than dropped: the joiner's count ends
when the host's does, by its estimate of the delay, and a key pressed as it ends may
arrive a moment early."""

MAX_WATCHERS = 4
"""Spectators at once."""

MAX_PENDING = 8
"""Connections at once that have not yet proved the code."""

MAX_PENDING_FROM = 2
"""Of those, from one address (``source_of``), so that one sender cannot take them all."""

FREE_TRIES = 3
"""Wrong codes from one address after which each bars it from trying again, twice as long
as the last."""

MAX_WRONG_DELAY = 30.0
"""The longest an address is barred after a wrong code."""

MAX_SOURCES = 1024
"""Addresses whose wrong codes are remembered (the oldest forgotten first)."""

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


def wrong_code_delay(failures: int) -> float:
    """Seconds an address may not try again after its ``failures``-th wrong code."""
    if failures <= FREE_TRIES:
        return 0.0
    return min(MAX_WRONG_DELAY, 2.0 ** (failures - FREE_TRIES - 1))


def source_of(writer: asyncio.StreamWriter) -> str:
    """Where a connection comes from, as wrong codes are counted: its IPv4 address, or the
    /64 network of its IPv6 address (one household's, as a provider hands them out)."""
    peer = writer.get_extra_info("peername")
    text = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
    try:
        address = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return text
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


class Source:
    """What the host remembers of one address: its handshakes under way, its wrong codes,
    and until when it may not try again."""

    def __init__(self) -> None:
        self.pending = 0
        self.failures = 0
        self.barred_until = 0.0


def action_from_message(message: dict[str, Any], player: int, time: float) -> Action:
    """A joiner's ``act`` message as an engine action (checked by its schema already);
    ``ProtocolError`` for a play without its pile."""
    kind = message["a"]
    if kind in ("play", "play-together"):
        pile, target = message.get("pile"), message.get("to")
        if pile is None or target is None:
            raise ProtocolError(f"act: a {kind} needs 'pile' and 'to'")
        return (PlayTogether if kind == "play-together" else Play)(player, pile, target, time)
    if kind == "stress":
        return CallStress(player, time)
    if kind == "ready":
        return ReadyToFlip(player, time)
    return StopStress(player, time)


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


class Host:
    """A table on the network: the match, its one joiner, its spectators."""

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
        self.rules = rules
        self.path_rtt = path_rtt
        """The kernel's smallest round trip of a connection (``pathrtt.writer_rtt``; a
        test behind an in-process proxy gives the path's)."""
        self.say = say
        """The host's own language (``terminal.lang._``), for the notes of its own files."""
        self.countdown = countdown
        """Seconds from the start of a count to its flip."""
        self.max_delay = max_delay
        """The most a joiner's action is dated back (0: dated on arrival, no fairness)."""
        self.first_game = first_game
        """A position to play the first round from instead of a deal (tests, benchmarks)."""
        self.host_name = clean_name(name)
        self.code = code if code is not None else new_code()
        """The join code (said to the joiner, never sent)."""
        self.salt = secrets.token_bytes(16)
        self.key = code_key(self.code, self.salt)
        self.port = port
        self.bind = bind
        self.record = record
        """Whether rounds are written as replays and counted in the record."""
        self.on_change = on_change
        """Called after every change, with the events to word (may be empty)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.server: asyncio.Server | None = None
        self.life = Lifecycle(count=RESUME_COUNT, grace=0.0)
        """The match's stage, what holds it (a player's pause: ``Hold.PAUSE`` by their seat; a
        player who cannot see the table: ``Hold.AWAY``; the joiner's connection lost:
        ``Hold.DROPPED``), its start gate and the round's clock, on the loop's time."""
        self.source: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        """Where each round's seed comes from: the system's secure source, so that one
        revealed at a round's end tells nothing of the next (a seed: tests, benchmarks)."""
        self.match = Match(rules, self.source)
        self.names: tuple[str, str] = (OPEN_SEAT, self.host_name)
        """Engine order: the joiner's name, then the host's."""
        self.joiner: Peer | None = None
        self.watchers: list[Peer] = []
        self.pending = 0
        self.failures = 0
        """Wrong codes so far (from every address)."""
        self.sources: OrderedDict[str, Source] = OrderedDict()
        """Addresses seen lately (``source_of``), the most recent last."""
        self.fair: FairTable | None = None
        self.round_seed: int | None = None
        self.round_salt = b""
        """Random bytes hashed with the seed for the round's commitment."""
        self.commit: str | None = None
        """The commitment to the round's seed sent at its deal (``None``: no seed)."""
        self.deal_score: tuple[int, int] = (0, 0)
        """The score before the round on the table."""
        self.reveal: dict[str, Any] | None = None
        """The ``reveal`` message of the round, once it is over."""
        self.answered = 0
        """The ``seq`` of the joiner's last key (sent back in ``state``, so that the joiner
        knows which of its plays the table it is sent has heard of)."""
        self.joiner_told = 0
        """``state`` messages sent to the joiner."""
        self.rewound: int | None = None
        """The fewest actions kept by a take-back since peers were last told (``None``:
        nothing taken back)."""
        self.early: list[dict[str, Any]] = []
        """The joiner's keys that arrived just before the count to go on ended, applied
        when it does (``EARLY_GRACE``)."""
        self.dropped_at: float | None = None
        """Loop time the joiner's connection ended (while ``Hold.DROPPED`` holds the match):
        the seat is kept ``REJOIN_SECONDS`` from then."""
        self.message: Said | None = None
        """A line about the match for both screens (who left, why a round stopped), said
        in each one's language."""
        self.refusals: deque[Said] = deque(maxlen=5)
        """The last connections refused, and why (for the host's screen)."""
        self.result: RoundFiles | None = None
        self.result_winner: int | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.pinger: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[Any]] = set()
        """The task serving each connection (awaited when the host closes)."""
        self.connections: set[asyncio.StreamWriter] = set()
        """Every connection open now, proved or not."""
        self.taken_back: list[Action] = []
        """The last actions taken back (for tests and the screen)."""
        self.checked: tuple[Table, int, str] | None = None
        """The table, how many actions it had applied, and its ``check`` then (each table
        object is the round's until a take-back plays it again as a new one)."""

    # ------------------------------------------------------------------ running

    def _loop_time(self) -> float:
        """The outside time the lifecycle's events carry: the loop's (0 before ``start``)."""
        return 0.0 if self.loop is None else self.loop.time()

    async def start(self) -> tuple[str, int]:
        """Listen; return the address and port."""
        self.loop = asyncio.get_running_loop()
        sock = listening_socket(self.bind, self.port)
        self.server = await asyncio.start_server(self._serve, sock=sock, limit=MAX_PEER_LINE)
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
        for writer in list(self.connections):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=1.0)
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 1.0)
        self._cut_round()
        self.life.leave(self._loop_time())

    def now(self) -> float:
        """The round's clock."""
        return self.life.time(self._loop_time())

    @property
    def round_number(self) -> int:
        """The round's number in the match (1 for a rematch's first; 0: none dealt)."""
        return self.life.round

    @property
    def match_over(self) -> bool:
        """Whether the round last ended won the match."""
        return self.life.match_over

    @property
    def paused_by(self) -> str | None:
        """Who paused the match (Esc; either player's Enter goes on), if anyone did."""
        return pauser_name(self.life.holds, self.names)

    @property
    def table(self) -> FairTable | None:
        """The round on the table (``None`` before the first joiner)."""
        return self.fair

    @property
    def score(self) -> tuple[int, int]:
        """Rounds won in this match (engine order)."""
        return (self.match.score[0], self.match.score[1])

    @property
    def delay(self) -> float | None:
        """The joiner's one-way delay in seconds."""
        return self.joiner.delay if self.joiner is not None else None

    # ------------------------------------------------------------------ connections

    def _peers(self) -> list[Peer]:
        peers = list(self.watchers)
        if self.joiner is not None:
            peers.insert(0, self.joiner)
        return peers

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections.add(writer)
        task = asyncio.current_task()
        if task is not None:
            self.tasks.add(task)
        try:
            await self._connection(reader, writer)
        except (ConnectionError, OSError):
            pass
        finally:
            self.connections.discard(writer)
            if task is not None:
                self.tasks.discard(task)
            with contextlib.suppress(Exception):
                writer.close()
                # Waiting for the close also collects the error of a connection that broke
                # (else asyncio logs it as never retrieved).
                await asyncio.wait_for(writer.wait_closed(), 1.0)

    def _refuse(
        self, writer: asyncio.StreamWriter, reason: Said, *, versioned: bool = True, **extra: Any
    ) -> None:
        """Refuse a connection, saying why: by key (``said``) once its hello has shown it
        speaks our version, else only in English, in the shape every version reads (the
        other end recognizes the few said then: ``texts.recognize``)."""
        self.refusals.append(reason)
        message = {"t": "refused", "reason": reason.tell()[:200], **extra}
        if versioned:
            message["said"] = reason.to_json()
        with contextlib.suppress(Exception):
            writer.write(encode(message))
            writer.close()
        self._changed([])

    def _source(self, writer: asyncio.StreamWriter) -> Source:
        key = source_of(writer)
        source = self.sources.get(key)
        if source is None:
            source = self.sources[key] = Source()
            if len(self.sources) > MAX_SOURCES:
                idle = next((k for k, s in self.sources.items() if s.pending == 0), None)
                if idle is not None:
                    del self.sources[idle]
        self.sources.move_to_end(key)
        return source

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        source = self._source(writer)
        wait = source.barred_until - self._loop_time()
        if wait > 0:  # refused at once: a wrong code's wait holds no place for proving one
            self._refuse(writer, said("barred", s=math.ceil(wait)), versioned=False)
            return
        if source.pending >= MAX_PENDING_FROM:
            self._refuse(writer, said("busy-address"), versioned=False)
            return
        if self.pending >= MAX_PENDING:
            self._refuse(writer, said("busy"), versioned=False)
            return
        self.pending += 1
        source.pending += 1
        try:
            peer = await self._handshake(reader, writer, source)
        finally:
            self.pending -= 1
            source.pending -= 1
        if peer is None:
            return
        await self._read(peer)

    async def _handshake(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, source: Source
    ) -> Peer | None:
        """Hello, challenge, proof, seat: the peer, or ``None`` (refused, said why)."""
        versioned = False  # whether its hello has shown it speaks our version
        try:
            hello = await asyncio.wait_for(read_message(reader, PEER_MESSAGES), HANDSHAKE_SECONDS)
            if hello is None:
                return None
            if hello["t"] != "hello":
                raise ProtocolError("a connection must begin with hello")
            try:
                check_version(hello)
            except ProtocolError:
                theirs = str(hello.get("v"))[:10]
                version = said("version", theirs=theirs, ours=str(VERSION))
                self._refuse(writer, version, versioned=False, v=VERSION)
                return None
            versioned = True
            if hello["app"] != "stress-tui":
                raise ProtocolError("not a stress-tui program")
            role = hello["role"]
            name = clean_name(hello.get("name", GUEST)) if role == "play" else SPECTATOR
            host_nonce = nonce()
            writer.write(encode({"t": "challenge", "salt": self.salt.hex(), "nonce": host_nonce}))
            auth = await asyncio.wait_for(read_message(reader, PEER_MESSAGES), HANDSHAKE_SECONDS)
            if auth is None:
                return None
            if auth["t"] != "auth":
                raise ProtocolError("a hello must be followed by auth")
        except asyncio.TimeoutError:
            self._refuse(writer, said("slow"), versioned=versioned)
            return None
        except ProtocolError as error:
            self._refuse(writer, said("error", why=str(error)), versioned=versioned)
            return None
        peer_nonce = auth["nonce"]
        if not proof_matches(self.key, "peer", host_nonce, peer_nonce, auth["proof"]):
            self.failures += 1
            source.failures += 1
            wait = wrong_code_delay(source.failures)
            source.barred_until = self._loop_time() + wait
            wrong = said("wrong-code-wait", s=wait) if wait else said("wrong-code")
            self._refuse(writer, wrong)
            return None
        source.failures = 0
        if self.life.stage is Stage.GONE:
            if self.reveal is not None:  # the seed of the round cut short, to complete a replay
                with contextlib.suppress(Exception):
                    writer.write(encode(self.reveal))
            self._refuse(writer, said("over"))
            return None
        now = self._loop_time()
        if role == "watch":
            if len(self.watchers) >= MAX_WATCHERS:
                self._refuse(writer, said("watchers"))
                return None
            peer = Peer(reader, writer, role, name, now, self.path_rtt)
            self.watchers.append(peer)
            seat = None
        else:
            if self.joiner is not None:
                self._refuse(writer, said("full", name=self.names[JOINER_SEAT]))
                return None
            if self.life.deals == 0:  # the first joiner names the seat; it stays theirs
                if name.casefold() == self.host_name.casefold():
                    name = f"{name[:14]} 2"
                self.names = (name, self.host_name)
            peer = Peer(reader, writer, role, self.names[JOINER_SEAT], now, self.path_rtt)
            self.joiner = peer
            self.answered = 0  # a joiner's program counts its keys from 1
            seat = JOINER_SEAT
        peer.send(
            {
                "t": "welcome",
                "proof": proof(self.key, "host", host_nonce, peer_nonce),
                "seat": seat,
                "names": list(self.names),
                "rules": format_rules(self.rules),
            }
        )
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
            shown = shown_ms(None if peer.delay is None else peer.delay * 1e3)
            if peer.pong(message["id"], now) and peer.quick > 0:
                peer.quick -= 1
                peer.ping(now)
            delay = peer.delay
            new = shown_ms(None if delay is None else delay * 1e3) != shown
            if new and peer is self.joiner and self.on_change is not None:
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
        name = self.names[JOINER_SEAT]
        if self.life.stage is Stage.GONE:
            return
        if left:
            self._end_match(said("left", name=name))
            return
        at = self._loop_time()
        self.life.hold(Hold.DROPPED, at, JOINER_SEAT)
        self.life.release(Hold.AWAY, at, JOINER_SEAT)  # said again by a joiner who comes back
        self.dropped_at = at
        self.early.clear()
        self.message = said(lost, name=name, **why)
        self._schedule()
        self._changed([])

    # ------------------------------------------------------------------ the match

    def _joiner_arrived(self) -> None:
        if self.life.deals == 0:
            if self.first_game is not None:
                self.set_round(self.first_game)
            else:
                self._begin_round()
            return
        if self.life.release(Hold.DROPPED, self._loop_time(), JOINER_SEAT):
            # A round under way counts in to go on (unless a pause still holds it); a round
            # not started waits for its players again, a result stays up.
            self.dropped_at = None
            self.message = said("back", name=self.names[JOINER_SEAT])
            self._schedule()
            self._changed([])

    def _begin_round(self) -> None:
        if self.match.winner is not None:
            self.match = Match(self.rules, self.source)
        self.deal_score = self.score
        game: Game = self.match.new_round()
        self.round_seed = self.match.round_seed
        self.round_salt = secrets.token_bytes(16)
        assert self.round_seed is not None
        self.commit = commitment(self.round_seed, self.round_salt)
        self.reveal = None
        self.result_winner = None
        self.message = None
        self._deal(game)

    def _deal(self, game: Game) -> None:
        """The round is dealt: it starts when both players say they are ready (a pause and
        the help close; a player who cannot see the table still holds it), its clock at the
        position's time."""
        at = self._loop_time()
        self.fair = FairTable(game, self.countdown)
        self.result = None
        self.early.clear()
        self.life.deal(at, (True, True))
        self.life.set_time(game.state.time, at)
        self._schedule()
        self._changed([])

    def ready(self, seat: int = HOST_SEAT) -> None:
        """``seat``'s player is ready for the round to start: once both are, its clock
        goes and the count to the first flip runs, on both screens."""
        if self.fair is None:
            return
        if self.life.ready(seat, self._loop_time()):
            self.fair.start(self.now())
            self._schedule()
        self._changed([])

    def set_round(self, game: Game) -> None:
        """Play on from this position (for tests and benchmarks): a round with no seed,
        neither recorded nor sent when it ends."""
        self.round_seed = None
        self.commit = self.reveal = None
        self._deal(game)

    def act(self, kind: str, pile: int | None = None, target: int | None = None) -> None:
        """The host's own key: dated now."""
        if self.life.stage is not Stage.PLAYING or self.fair is None:
            return
        message: dict[str, Any] = {"a": kind}
        if kind in ("play", "play-together"):
            message.update(pile=pile, to=target)
        self._apply(action_from_message(message, HOST_SEAT, self.now()))

    def _joiner_act(self, message: dict[str, Any], dated: float | None = None) -> None:
        """A joiner's key, dated at its arrival less ``Peer.dated_back`` (``dated``: at that
        time)."""
        delay = 0.0 if self.joiner is None else self.joiner.dated_back(self.max_delay)
        ends = self.life.count_until
        if self.life.stage is Stage.COUNT and ends is not None:
            # Pressed as the joiner's count ended (by its estimate of the delay), arrived
            # before the host's did: played the moment play goes on. Before: nothing.
            pressed = self._loop_time() - delay
            if pressed >= ends - EARLY_GRACE and len(self.early) < 8:
                self.early.append(message)
            return
        if self.life.stage is not Stage.PLAYING or self.fair is None:
            return  # a key pressed as the round paused: as at one keyboard, nothing
        when = max(0.0, self.now() - delay) if dated is None else dated
        action = action_from_message(message, JOINER_SEAT, when)
        if isinstance(action, Play) and action.pile >= self.rules.row_size:
            raise ProtocolError("act: no such pile")
        self._apply(action)

    def _apply(self, action: Action) -> None:
        assert self.fair is not None
        self.fair.advance(min(action.time, self.now()))  # what fell due first
        outcome: Outcome = self.fair.submit(action)
        self.taken_back = outcome.taken_back
        if outcome.kept is not None:
            self.rewound = min(
                outcome.kept, self.rewound if self.rewound is not None else outcome.kept
            )
        self._after(outcome.events)

    def _after(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, (RoundWon, RoundDrawn)):
                self._end_round(event)
                break
        self._schedule()
        self._changed(events)

    def _end_round(self, event: RoundWon | RoundDrawn) -> None:
        assert self.fair is not None
        score = (self.match.score[0], self.match.score[1])
        winner = event.player if isinstance(event, RoundWon) else None
        if winner is not None:
            self.match.record(winner)
        self.result_winner = winner
        won = winner is not None and self.match.winner is not None
        self.life.round_over(self._loop_time(), won)
        if self.round_seed is None:  # a position set up by hand: nothing to keep
            self.result = RoundFiles(None, ())
            return
        actions = self.fair.actions()
        self.result = (
            save_round(
                self.fair.dealt,
                self.round_seed,
                actions,
                self.names,
                self.round_number,
                score,
                finished=True,
                match_over=won,
                count=self.record,
                extra=self._sealing(),
                _=self.say,
            )
            if self.record
            else RoundFiles(None, ())
        )
        self._reveal()

    def _sealing(self) -> dict[str, Any]:
        """The commitment and its salt, for the round's replay header."""
        return {"commit": self.commit, "salt": self.round_salt.hex()}

    def _reveal(self) -> None:
        """The round is over: its seed may go to every peer (with the next ``state``)."""
        if self.round_seed is not None and self.commit is not None:
            self.reveal = {
                "t": "reveal",
                "round": self.round_number,
                "commit": self.commit,
                "seed": self.round_seed,
                "salt": self.round_salt.hex(),
            }

    def _cut_round(self) -> None:
        """The match ends mid-round: keep the replay of what was played."""
        if self.fair is None or self.life.base not in (Stage.READY, Stage.PLAYING):
            return
        if self.fair.applied and self.record and self.round_seed is not None:
            self.result = save_round(
                self.fair.dealt,
                self.round_seed,
                self.fair.actions(),
                self.names,
                self.round_number,
                (self.match.score[0], self.match.score[1]),
                finished=False,
                extra=self._sealing(),
                _=self.say,
            )
        self._reveal()

    def _end_match(self, message: Said) -> None:
        self._cut_round()
        self.life.leave(self._loop_time())
        self.message = message
        self._schedule()
        self._changed([])

    def pause(self, seat: int = HOST_SEAT, hold: bool = False) -> None:
        """Stop the round for both (by ``seat``'s player); also before it starts.
        ``hold``: the player cannot see the table (their help, a window too small, Ctrl-Z)
        and holds the match until they can (``resume`` with ``hold``)."""
        at = self._loop_time()
        if hold:
            self.life.hold(Hold.AWAY, at, seat)
        elif self.life.base in (Stage.READY, Stage.PLAYING) and not self.life.held(Hold.PAUSE):
            self.life.hold(Hold.PAUSE, at, seat)
        self.early.clear()
        self._schedule()
        self._changed([])

    def resume(self, seat: int = HOST_SEAT, hold: bool = False) -> None:
        """Go on after a pause, whoever paused (``hold``: ``seat``'s player can see the
        table again): once nothing holds the match, a count on both screens first (a
        round that had not started waits for its players again)."""
        at = self._loop_time()
        if hold:
            self.life.release(Hold.AWAY, at, seat)
        else:
            for by in self.life.holders(Hold.PAUSE):
                self.life.release(Hold.PAUSE, at, by)
        self._schedule()
        self._changed([])

    def go_on(self) -> None:
        """From the result screen: the next round (a new match after a won one)."""
        if self.life.go_on() is not None:  # a rematch once the match is won (``_begin_round``)
            self._begin_round()

    async def leave(self) -> None:
        """The host quits."""
        self._end_match(said("left", name=self.host_name))
        await self.close()

    # ------------------------------------------------------------------ timers

    def _schedule(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.loop is None:
            return
        stage = self.life.stage
        when: float | None = None
        if self.life.held(Hold.DROPPED) and self.dropped_at is not None:
            when = self.dropped_at + REJOIN_SECONDS
        elif stage is Stage.COUNT:
            when = self.life.next_deadline()
        elif stage is Stage.PLAYING and self.fair is not None:
            due = self.fair.next_deadline()
            if due is not None:
                when = self.life.when(due)
        if when is not None:
            self.timer = self.loop.call_at(when, self._on_timer)

    def _on_timer(self) -> None:
        self.timer = None
        stage = self.life.stage
        if self.life.held(Hold.DROPPED):
            self._end_match(said("gone", name=self.names[JOINER_SEAT]))
        elif stage is Stage.COUNT:
            # The loop may call a timer a hair before its time: the count ends at its own.
            self.life.advance(max(self._loop_time(), self.life.next_deadline() or 0.0))
            going_on = self.now()
            if self.fair is not None:
                self.fair.hold(going_on)
            self._schedule()
            self._changed([])
            early, self.early = self.early, []
            for message in early:  # pressed as the count ended: dated as play goes on
                self._joiner_act(message, dated=going_on)
        elif stage is Stage.PLAYING and self.fair is not None:
            due = self.fair.next_deadline()
            now = max(self.now(), due or 0.0)
            self._after(self.fair.advance(now))
        else:
            self._schedule()

    async def _ping_loop(self) -> None:
        while True:
            await asyncio.sleep(PING_EVERY)
            now = self._loop_time()
            for peer in self._peers():
                if now - peer.last_heard > SILENT_LIMIT:
                    peer.abort()
                    self._gone(peer, lost="lost-silent", s=SILENT_LIMIT)
                else:
                    peer.ping(now)
            if self.life.held(Hold.DROPPED):
                self._changed([])  # the seconds left, on both screens

    # ------------------------------------------------------------------ telling

    def status_line(self, _: Say = N_) -> str | None:
        """What the match's state says on the host's screen (``None``: nothing to say),
        said by ``_`` (the screen's translation)."""
        message = None if self.message is None else self.message.tell(_)
        return describe(self.life.stage, self.life.holds, self.names, message, self.drop_left(), _)

    def held_by(self) -> str | None:
        """Who holds the pause, unable to see the table (``None``: nobody does)."""
        return holder_name(self.life.stage, self.life.holds, self.names)

    def drop_left(self) -> float | None:
        """Seconds the joiner's seat is still kept (``None``: they are not away)."""
        if not self.life.held(Hold.DROPPED) or self.dropped_at is None or self.loop is None:
            return None
        return max(0.0, self.dropped_at + REJOIN_SECONDS - self._loop_time())

    def resume_left(self) -> float | None:
        """Seconds of the count before play goes on (``None``: none runs)."""
        if self.loop is None:
            return None
        return self.life.count_left(self._loop_time())

    def _changed(self, events: list[Event]) -> None:
        if self.on_change is not None:
            self.on_change(events)
        for peer in self._peers():
            self._send_state(peer, events)
            if peer.closed:  # it had stopped reading: let it go now
                self._gone(peer, lost="lost-stopped")
        self.rewound = None

    def _send_round(self, peer: Peer) -> None:
        """What the peer needs for its replay before the next ``state``: the round's
        ``deal`` (the commitment to its seed), the actions applied since the last (from
        the first one taken back, if any was) and, once the round is over, its seed, so
        that the ``state`` that says the round is over finds its result ready to show."""
        if self.fair is None or self.commit is None:
            return
        if peer.dealt != self.commit:
            peer.send(
                {
                    "t": "deal",
                    "round": self.round_number,
                    "commit": self.commit,
                    "score": list(self.deal_score),
                }
            )
            peer.dealt, peer.acts_sent = self.commit, 0
        actions = self.fair.actions()
        start = peer.acts_sent if self.rewound is None else min(peer.acts_sent, self.rewound)
        firsts = list(range(start, len(actions), ACTS_CHUNK))
        if not firsts and start < peer.acts_sent:
            firsts = [start]  # the list grew shorter: the peer drops what it holds from there
        for first in firsts:
            chunk = actions[first : first + ACTS_CHUNK]
            peer.send(
                {
                    "t": "acts",
                    "round": self.round_number,
                    "from": first,
                    "actions": [action_to_json(a) for a in chunk],
                }
            )
        peer.acts_sent = len(actions)
        if self.reveal is not None and peer.revealed != self.reveal["commit"]:
            peer.send(self.reveal)
            peer.revealed = self.reveal["commit"]

    def _match_line(self) -> dict[str, Any]:
        """What a ``state`` says beside the table and the clock: the score, where the match
        stands and what holds it, the result..."""
        assert self.fair is not None
        life = self.life
        return {
            "score": list(self.match.score),
            "round": self.round_number,
            "stage": life.stage.value,
            "holds": holds_to_json(life),
            "countdown": self.fair.countdown,
            "message": None if self.message is None else self.message.to_json(),
            "drop_left": self.drop_left(),
            "resume_in": self.resume_left(),
            "waiting": list(life.awaited) if starting(life.stage, life.holds) else None,
            "result": None
            if self.life.base not in (Stage.ROUND_OVER, Stage.RESULT)
            else {
                "winner": self.result_winner,
                "match_over": self.match_over,
                "logged": self.round_seed is not None,
            },
        }

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
            and self.commit is not None
            and peer.dealt == self.commit
            and (self.rewound is None or self.rewound >= peer.acts_sent)
            and len(self.fair.applied) - peer.acts_sent <= MAX_MOVED
        )
        if follows:
            self._send_moved(peer)
            return
        self._send_round(peer)
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
        if self.commit is not None:  # a dealt round: the peer's table follows from here
            message["standing"] = public_standing(self.fair.game)
            message["applied"] = peer.acts_sent
        peer.send(message)
        peer.mirrored = self.commit is not None
        peer.told = line

    def _check(self) -> str:
        """``wire.check`` of the table as it stands, worked out once for every peer."""
        assert self.fair is not None
        table, applied = self.fair.table, len(self.fair.applied)
        known = self.checked
        if known is None or known[0] is not table or known[1] != applied:
            known = self.checked = (table, applied, check(self.fair.game))
        return known[2]

    def _send_moved(self, peer: Peer) -> None:
        """What moved since ``peer`` was last told: each action applied and the cards it
        turned face up, which the peer's own engine applies to its table (``wire.Mirror``),
        and a ``check`` of the table they come to."""
        assert self.fair is not None
        applied = self.fair.applied[peer.acts_sent :]
        message: dict[str, Any] = {
            "t": "moved",
            "from": peer.acts_sent,
            "actions": [action_to_json(action) for action, _ in applied],
            "shown": [[str(card) for card in turned_up(events)] for _, events in applied],
            "now": round(self.now(), 6),
            "check": self._check(),
        }
        flip_in = self.fair.count_left(self.now())
        if flip_in is not None:
            message["flip_in"] = round(flip_in, 6)
        if peer is self.joiner:
            message["seq"] = self.answered
        peer.send(message)
        peer.acts_sent += len(applied)
