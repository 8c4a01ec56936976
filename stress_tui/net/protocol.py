"""The wire protocol: one JSON object a line, each checked before it is used.

Every message is a JSON object on one line (UTF-8, ended by ``\\n``) with its type in
``"t"``. A connection opens with ``hello`` (which carries ``VERSION``), then the join code
is proved without being sent (``challenge``, ``auth``, ``welcome``: an HMAC over two fresh
nonces, keyed by the code stretched with PBKDF2, both ways). ``docs/network.md`` lists the
messages; ``PEER_MESSAGES`` and ``HOST_MESSAGES`` are the schemas each side holds the other
to. A line too long, not JSON, of an unknown type, with a field missing, extra or of the
wrong type raises ``ProtocolError``, whose text says why in a few words; the side that
reads it ends that connection with that reason and nothing else.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import math
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from stress_tui.core.lifecycle import Hold, Stage
from stress_tui.core.text import N_, BadName, Problem, check_name
from stress_tui.net import DEFAULT_PORT
from stress_tui.net.texts import is_said
from stress_tui.storage.replay import commitment_text

VERSION = 6
"""The protocol's version: both ends must speak the same one."""

MAX_PEER_LINE = 1024
"""Bytes a line from a joiner or spectator may have (its longest message is a hello)."""

MAX_HOST_LINE = 256 * 1024
"""Bytes a line from the host may have (a view of the table, a chunk of a round's actions)."""

HANDSHAKE_SECONDS = 5.0
"""How long a new connection has to say hello and prove the code."""

PING_EVERY = 1.0
"""Seconds between the host's pings to each connection."""

SILENT_LIMIT = 5.0
"""Seconds without a word from the other end after which a connection is taken for dead:
the host's pings, and the answers to them, come about every ``PING_EVERY``."""

CODE_WORDS = 4
"""Words in a join code."""

KEY_ITERATIONS = 100_000
"""PBKDF2 rounds that stretch a join code into the key: a recorded handshake then costs
this many hashes per guessed code to test."""


class ProtocolError(ValueError):
    """A message that breaks the protocol; the text is the reason, in a few words."""


class BadText(Problem, ValueError):
    """A join code or an address as a person typed it that cannot be used: said in the
    player's language at the edge (``said(_)``), English as ``str``."""


class BadPeerName(Problem, ProtocolError):
    """A name that cannot be taken, given as a ``ProtocolError`` (English as ``str``, what
    the wire says), said in the player's language where a person typed it."""


# --------------------------------------------------------------------------- join codes

_WORD_TEXT = (
    "acorn alder amber anchor apple arrow aspen atlas badge bagel baker bamboo banjo barn "
    "basil beach beacon bear beaver bell berry birch bison blade blaze bloom boat bolt "
    "bonus boot brave bread brick bridge brook brush cabin cactus camel canal candle canoe "
    "canyon cargo carpet castle cedar chalk cherry chess cider cliff clock cloud clover "
    "coast cobra comet coral cotton crane crater cricket crown daisy delta denim desert "
    "diesel dingo disco dolphin donkey dragon drum eagle earth echo elbow ember engine "
    "fable falcon fern ferry fiddle field flame flint forest fossil fox frost galaxy "
    "garden garlic geyser ginger glacier globe goat gravel guitar hammer harbor hazel "
    "helmet heron hollow honey horizon hornet igloo island ivory jacket jaguar jelly "
    "jewel jungle kayak kettle kite koala ladder lagoon lantern lemon lens lily lion "
    "lizard llama lobster locket lotus magnet mango maple marble meadow melon meteor mint "
    "mirror moose mosaic moss motor mountain mule mural napkin nectar needle nest noodle "
    "nutmeg oasis ocean olive onion orbit orchid otter owl paddle panda paper parrot "
    "peach pebble pencil pepper piano pilot pine pirate planet plum pocket pony poppy "
    "potato prism puffin pumpkin quartz quill rabbit radar radish raven reef ribbon river "
    "robin rocket rose ruby saddle salmon sandal satin scarf shadow shark shell silver "
    "sketch sled snail socket spider spruce squid stable statue stone storm sugar summit "
    "sunset swan table tango thistle thunder tiger timber toast tomato topaz tower "
    "tractor tulip tundra turtle umbrella valley velvet violin volcano waffle walnut "
    "walrus wagon whale willow window winter wizard yacht yogurt zebra zipper"
)
WORDS = tuple(_WORD_TEXT.split())
"""The words join codes are made of: short, common, unlike one another when said."""

_WORD_SET = frozenset(WORDS)


def new_code() -> str:
    """A join code for one table, good while it is open: ``CODE_WORDS`` words drawn from
    the system's secure random source, such as ``otter-maple-drum-velvet`` (about 32 bits)."""
    return "-".join(secrets.choice(WORDS) for _ in range(CODE_WORDS))


def normalize_code(text: str) -> str:
    """A join code as typed (any case; words apart by spaces, dashes, dots or commas) in
    its one spelling; ``ValueError`` saying what is wrong with it.

    >>> normalize_code(" Otter Maple.drum-VELVET ")
    'otter-maple-drum-velvet'
    """
    cleaned = "".join(c if c.isalpha() else " " for c in text.lower())
    words = cleaned.split()
    if len(words) != CODE_WORDS:
        raise BadText(
            N_("a join code is {n} words, such as {example}"),
            n=CODE_WORDS,
            example="otter-maple-drum-velvet",
        )
    unknown = [w for w in words if w not in _WORD_SET]
    if unknown:
        raise BadText(N_("{word} is not one of the join code's words"), word=repr(unknown[0][:20]))
    return "-".join(words)


def code_key(code: str, salt: bytes) -> bytes:
    """The key a join code stands for at one table (``salt``: the table's, sent in every
    challenge)."""
    return hashlib.pbkdf2_hmac("sha256", code.encode(), salt, KEY_ITERATIONS)


def proof(key: bytes, role: str, host_nonce: str, peer_nonce: str) -> str:
    """What a side sends to show it knows the code: ``role`` is ``peer`` or ``host``, so
    that neither side's proof can be sent back as the other's."""
    text = f"stress-tui/{VERSION}/{role}/{host_nonce}/{peer_nonce}".encode()
    return hmac.new(key, text, hashlib.sha256).hexdigest()


def proof_matches(key: bytes, role: str, host_nonce: str, peer_nonce: str, given: str) -> bool:
    """Whether ``given`` is the right proof (compared in constant time)."""
    return hmac.compare_digest(proof(key, role, host_nonce, peer_nonce), given)


def nonce() -> str:
    """A fresh random value for one handshake."""
    return secrets.token_hex(16)


# --------------------------------------------------------------------------- names


def clean_name(value: object) -> str:
    """A player's name from the other end, checked as a name from a file is
    (``core.text.check_name``: 1 to ``MAX_NAME`` characters, all printable, drawing
    something); ``ProtocolError`` saying why otherwise."""
    if not isinstance(value, str):
        raise BadPeerName(N_("a name must be text"))
    try:
        return check_name(value)
    except BadName as error:
        raise BadPeerName(error) from None


# --------------------------------------------------------------------------- schemas

Check = Callable[[Any], bool]


def whole(low: int, high: int) -> Check:
    """A whole number from ``low`` to ``high`` (``true`` is not one)."""
    return lambda v: type(v) is int and low <= v <= high


def number(low: float, high: float) -> Check:
    """A finite number from ``low`` to ``high``."""
    return lambda v: type(v) in (int, float) and math.isfinite(v) and low <= v <= high


def text(longest: int) -> Check:
    """Text of at most ``longest`` characters."""
    return lambda v: isinstance(v, str) and len(v) <= longest


def hex_text(length: int) -> Check:
    """Lower-case hexadecimal of exactly ``length`` characters."""
    digits = frozenset("0123456789abcdef")
    return lambda v: isinstance(v, str) and len(v) == length and set(v) <= digits


def one_of(*values: str) -> Check:
    """One of these words."""
    allowed = frozenset(values)
    return lambda v: isinstance(v, str) and v in allowed


def maybe(check: Check) -> Check:
    """``null`` or what ``check`` allows."""
    return lambda v: v is None or check(v)


def flag(value: Any) -> bool:
    """``true`` or ``false``."""
    return type(value) is bool


def anything(value: Any) -> bool:
    """Checked later, by the code that reads it."""
    return True


def listed(check: Check, longest: int) -> Check:
    """A list of at most ``longest`` items, each as ``check`` allows."""
    return lambda v: isinstance(v, list) and len(v) <= longest and all(check(i) for i in v)


@dataclass(frozen=True)
class Schema:
    """The fields of one message type: those it must have and those it may have."""

    required: Mapping[str, Check]
    """Fields it must have, each with its check."""
    optional: Mapping[str, Check] = field(default_factory=dict)
    """Fields it may have."""

    def check(self, kind: str, message: dict[str, Any]) -> None:
        """Raise ``ProtocolError`` unless ``message`` (of type ``kind``) fits."""
        optional = self.optional
        for name, check in self.required.items():
            if name not in message:
                raise ProtocolError(f"{kind}: no {name!r}")
            if not check(message[name]):
                raise ProtocolError(f"{kind}: {name!r} is not as it must be")
        for name, value in message.items():
            if name == "t" or name in self.required:
                continue
            allowed = optional.get(name)
            if allowed is None:
                raise ProtocolError(f"{kind}: unknown field {name[:20]!r}")
            if not allowed(value):
                raise ProtocolError(f"{kind}: {name!r} is not as it must be")


_HOLD = one_of(*(hold.value for hold in Hold))
_SEAT = maybe(whole(0, 1))


def is_holder(value: Any) -> bool:
    """What holds the match, as the host's lifecycle says: ``[hold, seat or null]``."""
    return isinstance(value, list) and len(value) == 2 and _HOLD(value[0]) and _SEAT(value[1])


_ACTIONS = ("play", "play-together", "stress", "ready", "stop")

MAX_MOVED = 500
"""Actions in one ``moved`` (more at once go as a whole table)."""
_SEQ = whole(0, 2**53)

PEER_MESSAGES: dict[str, Schema] = {
    "hello": Schema(
        {"v": anything, "app": text(32), "role": one_of("play", "watch")},
        {"name": text(64)},
    ),
    "auth": Schema({"nonce": hex_text(32), "proof": hex_text(64)}),
    "act": Schema(
        {"a": one_of(*_ACTIONS), "seq": _SEQ},
        {"pile": whole(0, 8), "to": whole(0, 1)},
    ),
    "pong": Schema({"id": _SEQ}),
    "ready": Schema({}),
    "pause": Schema({}, {"hold": flag}),
    "resume": Schema({}, {"hold": flag}),
    "next": Schema({}),
    "sync": Schema({}),
    "bye": Schema({}),
}
"""What a joiner or spectator may send the host."""

HOST_MESSAGES: dict[str, Schema] = {
    "challenge": Schema({"salt": hex_text(32), "nonce": hex_text(32)}),
    "refused": Schema({"reason": text(200)}, {"v": anything, "said": is_said}),
    "welcome": Schema(
        {
            "proof": hex_text(64),
            "seat": maybe(whole(0, 1)),
            "names": listed(text(64), 2),
            "rules": text(300),
        }
    ),
    "state": Schema(
        {
            "now": number(-1e9, 1e9),
            "view": anything,
            "events": anything,
            "score": listed(whole(0, 1000), 2),
            "round": whole(0, 10**6),
            "stage": one_of(*(stage.value for stage in Stage)),
            "holds": listed(is_holder, len(Hold) * 3),
        },
        {
            "flip_in": maybe(number(0, 60)),
            "countdown": number(0, 60),
            "delay_ms": maybe(number(0, 1e6)),
            "message": maybe(is_said),
            "drop_left": maybe(number(0, 3600)),
            "result": anything,
            "resume_in": maybe(number(0, 60)),
            "waiting": maybe(listed(flag, 2)),
            "seq": maybe(_SEQ),
            "standing": anything,
            "applied": whole(0, 10**6),
        },
    ),
    "moved": Schema(
        {
            "from": whole(0, 10**6),
            "actions": listed(anything, MAX_MOVED),
            "shown": listed(anything, MAX_MOVED),
            "now": number(-1e9, 1e9),
        },
        {"check": hex_text(8), "flip_in": maybe(number(0, 60)), "seq": maybe(_SEQ)},
    ),
    "ping": Schema({"id": _SEQ}, {"delay_ms": maybe(number(0, 1e6))}),
    "deal": Schema(
        {"round": whole(0, 10**6), "commit": commitment_text},
        {"score": listed(whole(0, 1000), 2)},
    ),
    "acts": Schema(
        {"round": whole(0, 10**6), "from": whole(0, 10**6), "actions": listed(anything, 2000)}
    ),
    "reveal": Schema(
        {
            "round": whole(0, 10**6),
            "commit": commitment_text,
            "seed": whole(0, 2**64),
            "salt": hex_text(32),
        }
    ),
    "bye": Schema({"reason": is_said}),
}
"""What the host may send a joiner or spectator (a view is checked where it is read)."""


def encode(message: Mapping[str, Any]) -> bytes:
    """A message as one line."""
    return (json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n").encode()


def _no_constants(name: str) -> Any:
    raise ProtocolError(f"not a number: {name}")


def decode(line: bytes, schemas: Mapping[str, Schema]) -> dict[str, Any]:
    """One line as a message that ``schemas`` allows; ``ProtocolError`` otherwise."""
    try:
        message = json.loads(line, parse_constant=_no_constants)
    except ProtocolError:
        raise
    except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deep
        raise ProtocolError("not a message (broken JSON)") from None
    if not isinstance(message, dict):
        raise ProtocolError("not a message (not a JSON object)")
    kind = message.get("t")
    if not isinstance(kind, str) or kind not in schemas:
        raise ProtocolError(f"unknown message type {str(kind)[:20]!r}")
    schemas[kind].check(kind, message)
    return message


def check_version(message: Mapping[str, Any]) -> None:
    """A hello's version is ours, said in one line both ends can show if not."""
    version = message.get("v")
    if version != VERSION:
        raise ProtocolError(
            f"protocol version {str(version)[:10]} meets version {VERSION}: "
            "both players need the same stress-tui version"
        )


async def read_message(
    reader: asyncio.StreamReader, schemas: Mapping[str, Schema]
) -> dict[str, Any] | None:
    """The next message from ``reader`` (``None``: the other end closed); a line longer
    than the reader's limit raises ``ProtocolError``."""
    try:
        line = await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as error:
        if error.partial:
            raise ProtocolError("the connection closed in the middle of a message") from None
        return None
    except asyncio.LimitOverrunError:
        raise ProtocolError("a message too long") from None
    return decode(line, schemas)


def shown_ms(delay: float | None) -> int | None:
    """A delay in seconds as the screens show it, in whole milliseconds: a screen is drawn
    again for a new delay only when this changes."""
    return None if delay is None else round(delay * 1e3)


# --------------------------------------------------------------------------- rate limit


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once. A person
    presses a few keys a second; a flood is not a person."""

    def __init__(self, rate: float = 40.0, burst: float = 80.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last: float | None = None

    def allow(self, now: float) -> bool:
        """Whether one more message at ``now`` (seconds, any clock that never runs back)
        is within the limit."""
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


# --------------------------------------------------------------------------- addresses


def parse_address(text: str) -> tuple[str, int]:
    """``HOST[:PORT]`` as a host and a port (``DEFAULT_PORT`` if none); an IPv6 address
    with a port goes in brackets. ``ValueError`` saying what is wrong.

    >>> parse_address("example.org"), parse_address("10.0.0.2:9000"), parse_address("[::1]:80")
    (('example.org', 7325), ('10.0.0.2', 9000), ('::1', 80))
    """
    text = text.strip()
    port_text: str | None = None
    if text.startswith("["):
        if "]" not in text:
            raise BadText(N_("an IPv6 address in brackets needs its closing ]"))
        host, _, rest = text[1:].partition("]")
        if rest.startswith(":"):
            port_text = rest[1:]
        elif rest:
            raise BadText(N_("write an IPv6 address with a port as [ADDRESS]:PORT"))
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    else:
        host = text  # a name, an IPv4 address, or an IPv6 address without a port
    if not host or len(host) > 253 or not all(c.isalnum() or c in ".-:_%" for c in host):
        raise BadText(N_("{address} is not a host name or address"), address=repr(text[:40]))
    if port_text is None:
        return host, DEFAULT_PORT
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise BadText(N_("{port} is not a port (1 to 65535)"), port=repr(port_text[:10]))
    return host, int(port_text)
