"""The host's door: who may come in, and the proof of the join code.

``Door`` serves each connection the host's server accepts: it holds the limits (handshakes
at once, from one address; wrong codes, each barring the address longer), runs the
handshake (hello, challenge, proof: the code itself is never sent, and the host proves it
knows it too) and hands a connection that proved the code to the host (``Enter``), which
seats it or refuses it. A refusal says why, in the other end's language once its hello has
shown it speaks our version (``texts.said``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import math
import secrets
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any

from stress_tui.core.choices import GUEST, SPECTATOR
from stress_tui.net.protocol import (
    HANDSHAKE_SECONDS,
    PEER_MESSAGES,
    VERSION,
    ProtocolError,
    check_version,
    clean_name,
    code_key,
    encode,
    new_code,
    nonce,
    proof,
    proof_matches,
    read_message,
)
from stress_tui.net.texts import Said, said

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


class Proved:
    """A connection that proved the join code, waiting to be seated (``Door.welcome``)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        role: str,
        name: str,
        nonces: tuple[str, str],
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.role = role
        """``play`` or ``watch``."""
        self.name = name
        """The name it gave (a spectator's: ``SPECTATOR``)."""
        self.nonces = nonces
        """The host's and the peer's nonce of its handshake."""


Enter = Callable[[Proved], Awaitable[None]]
"""What the host does with a connection that proved the code: seat it and serve it until
it ends, or refuse it (``Door.refuse``)."""


class Door:
    """The limits and the handshake in front of the host's table."""

    def __init__(
        self,
        code: str | None,
        enter: Enter,
        changed: Callable[[], None],
        time: Callable[[], float],
    ) -> None:
        self.code = code if code is not None else new_code()
        """The join code (said to the joiner, never sent)."""
        self.salt = secrets.token_bytes(16)
        self.key = code_key(self.code, self.salt)
        self.enter = enter
        self.changed = changed
        """Called when a refusal is to show on the host's screen."""
        self.time = time
        """The loop's clock."""
        self.pending = 0
        """Connections that have not yet proved the code."""
        self.failures = 0
        """Wrong codes so far (from every address)."""
        self.sources: OrderedDict[str, Source] = OrderedDict()
        """Addresses seen lately (``source_of``), the most recent last."""
        self.refusals: deque[Said] = deque(maxlen=5)
        """The last connections refused, and why (for the host's screen)."""
        self.tasks: set[asyncio.Task[Any]] = set()
        """The task serving each connection (awaited when the host closes)."""
        self.connections: set[asyncio.StreamWriter] = set()
        """Every connection open now, proved or not."""

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection, from its first byte to its end (the server's handler)."""
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

    async def close(self) -> None:
        """Cut every connection and wait (a moment) for their tasks to end."""
        for writer in list(self.connections):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=1.0)

    def refuse(
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
        self.changed()

    def welcome(self, proved: Proved, seat: int | None, names: list[str], rules: str) -> Any:
        """The ``welcome`` that seats ``proved``: the host's proof that it knows the code too."""
        host_nonce, peer_nonce = proved.nonces
        return {
            "t": "welcome",
            "proof": proof(self.key, "host", host_nonce, peer_nonce),
            "seat": seat,
            "names": names,
            "rules": rules,
        }

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
        wait = source.barred_until - self.time()
        if wait > 0:  # refused at once: a wrong code's wait holds no place for proving one
            self.refuse(writer, said("barred", s=math.ceil(wait)), versioned=False)
            return
        if source.pending >= MAX_PENDING_FROM:
            self.refuse(writer, said("busy-address"), versioned=False)
            return
        if self.pending >= MAX_PENDING:
            self.refuse(writer, said("busy"), versioned=False)
            return
        self.pending += 1
        source.pending += 1
        try:
            proved = await self._handshake(reader, writer, source)
        finally:
            self.pending -= 1
            source.pending -= 1
        if proved is not None:
            await self.enter(proved)

    async def _handshake(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, source: Source
    ) -> Proved | None:
        """Hello, challenge, proof: the connection that proved the code, or ``None``
        (refused, said why)."""
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
                self.refuse(writer, version, versioned=False, v=VERSION)
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
            self.refuse(writer, said("slow"), versioned=versioned)
            return None
        except ProtocolError as error:
            self.refuse(writer, said("error", why=str(error)), versioned=versioned)
            return None
        peer_nonce = auth["nonce"]
        if not proof_matches(self.key, "peer", host_nonce, peer_nonce, auth["proof"]):
            self.failures += 1
            source.failures += 1
            wait = wrong_code_delay(source.failures)
            source.barred_until = self.time() + wait
            wrong = said("wrong-code-wait", s=wait) if wait else said("wrong-code")
            self.refuse(writer, wrong)
            return None
        source.failures = 0
        return Proved(reader, writer, role, name, (host_nonce, peer_nonce))
