"""The way in to a table on another machine, for a joiner or a spectator: the connection,
the hello, the proof of the join code (never sent) and the host's proof that it knows the
code too, or why not, in one line in the player's language (``JoinError``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from stress_tui.core.notation import NotationError, parse_rules
from stress_tui.core.rules import Rules
from stress_tui.core.text import harmless
from stress_tui.core.words import Say
from stress_tui.net.addresses import shown
from stress_tui.net.protocol import (
    HANDSHAKE_SECONDS,
    HOST_MESSAGES,
    MAX_HOST_LINE,
    VERSION,
    ProtocolError,
    clean_name,
    code_key,
    encode,
    nonce,
    proof,
    proof_matches,
    read_message,
)
from stress_tui.net.texts import recognize, said, said_from_json


class JoinError(Exception):
    """The host could not be reached or refused us; the text says why in one line, in the
    player's language."""

    def __init__(self, text: str, refused: bool = False) -> None:
        super().__init__(text)
        self.refused = refused
        """Whether the host refused us (trying again would not help)."""


@dataclass
class Welcome:
    """A connection the host took: where to read and write, the seat, the table's names
    and rules."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    seat: int | None
    """The engine player we play (``None``: watching)."""
    names: tuple[str, str]
    rules: Rules


@dataclass
class Dial:
    """One way in: to whom, as whom, and what to do with a round's seed the host sends
    before it refuses us (the match cut that round short)."""

    address: str
    port: int
    code: str
    role: str
    """``play`` or ``watch``."""
    name: str
    say: Say
    on_reveal: Callable[[dict[str, Any]], None]
    """A ``reveal`` that came before the answer."""
    kept: Callable[[], str | None]
    """What was kept of that round, to say with a refusal (``None``: nothing)."""

    async def __call__(self) -> Welcome:
        """Reach the host and take the seat; ``JoinError`` if that fails."""
        _ = self.say
        where = shown(self.address, self.port)
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(self.address, self.port, limit=MAX_HOST_LINE),
                HANDSHAKE_SECONDS,
            )
        except (OSError, asyncio.TimeoutError) as error:
            line = _("{where}: cannot connect ({why})")
            raise JoinError(line.format(where=where, why=self.why(error))) from None
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
            auth = {
                "t": "auth",
                "nonce": mine,
                "proof": proof(key, "peer", challenge["nonce"], mine),
            }
            writer.write(encode(auth))
            welcome = await self._expect(reader, "welcome", where)
            if not proof_matches(key, "host", challenge["nonce"], mine, welcome["proof"]):
                raise JoinError(
                    _("{where}: that host does not know the join code").format(where=where)
                )
            names = [clean_name(n) for n in welcome["names"]]
            if len(names) != 2:
                raise ProtocolError("welcome: two names")
            rules = parse_rules(welcome["rules"])
        except (ProtocolError, NotationError, ValueError) as error:
            writer.close()
            line = _("{where}: the host broke the protocol ({why})")
            raise JoinError(line.format(where=where, why=printable(error))) from None
        except (OSError, asyncio.TimeoutError) as error:
            writer.close()
            line = _("{where}: the connection failed ({why})")
            raise JoinError(line.format(where=where, why=self.why(error))) from None
        except JoinError:
            writer.close()
            raise
        return Welcome(reader, writer, welcome["seat"], (names[0], names[1]), rules)

    async def _expect(self, reader: asyncio.StreamReader, kind: str, where: str) -> dict[str, Any]:
        _ = self.say
        closed = _("{where}: the host closed the connection").format(where=where)
        message = await asyncio.wait_for(read_message(reader, HOST_MESSAGES), HANDSHAKE_SECONDS)
        if message is None:
            raise JoinError(closed)
        while message["t"] == "reveal":  # the seed of a round the match cut short
            self.on_reveal(message)
            message = await asyncio.wait_for(read_message(reader, HOST_MESSAGES), HANDSHAKE_SECONDS)
            if message is None:
                raise JoinError(closed)
        if message["t"] == "refused":
            line = _("{where} refused: {reason}").format(where=where, reason=self._refusal(message))
            note = self.kept()
            if note is not None:
                line = _("{line} (the round it cut short is kept: {note})").format(
                    line=line, note=note
                )
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
        return known.tell(self.say) if known is not None else printable(message["reason"]) or ""

    def why(self, error: BaseException) -> str:
        """Why a connection could not be made or failed, in a few words."""
        if isinstance(error, asyncio.TimeoutError):
            _ = self.say
            return _("no answer")
        text = getattr(error, "strerror", None) or str(error) or type(error).__name__
        return harmless(str(text).lower(), limit=100)


def printable(value: object) -> str | None:
    """Text from the host made harmless to show (``core.text.harmless``)."""
    if value is None:
        return None
    return harmless(str(value), limit=200)
