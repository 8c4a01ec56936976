"""An SSH session's terminal: the endpoint (``terminal/endpoint.py``) for a channel of
``stress-tui serve`` (``terminal/server.py``), bytes in from the client, bytes out to it.

A frame leaves the server in one TCP segment, so that the client wakes once for it:
asyncssh sends each SSH packet with a socket send of its own, and an empty ``MSG_IGNORE``
packet before every packet it encrypts, so the endpoint holds the connection's socket
back (``corked``) while it hands the channel a frame.

The server hands it what the channel says: the client's bytes (``data``), its window's new
size (``resize``), that the channel is full or has room again (``pause``, ``drained``),
that the client has gone (``hang_up``). Nothing here blocks or waits for the client: a
frame is given to the channel in one write, and while the channel holds more than its
high-water mark (the server sets it: ``FRAME_BUFFER``) no frame is drawn, so that a client
that stops reading costs frames, not memory; once it has room again the frame that waited
is drawn as the table is then (the canvas writes everything that differs from what was
last sent: the whole screen as it now is).

The terminal's modes are asked for with the client's own sequences (alternate screen,
hidden cursor, bracketed paste, the kitty keyboard protocol where it answers for it) and
given back on ``close``; the client's ``ssh`` puts its own tty back when the channel ends.
The start-up questions go over the channel, with the same byte limit and deadline as at a
local terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import socket
from collections.abc import Iterator
from typing import Any, Protocol

from blessed import Terminal

from stress_tui.terminal.endpoint import (
    ANSWER_LIMIT,
    ANSWER_SECONDS,
    KITTY_FLAGS,
    Endpoint,
    answered,
    no_color_hidden,
    parse_answers,
    questions,
)

TERM_KIND = "xterm-256color"
"""The terminal type frames are made for. curses describes one terminal type a process,
so every session of a server is drawn with the sequences of this one, which every
terminal an ``ssh`` client runs in today understands; a client whose ``TERM`` says it
cannot move the cursor is refused (``terminal/server.py``)."""

FRAME_BUFFER = 128 * 1024
"""Bytes a channel may hold for its client before frames stop (its high-water mark)."""

EARLY_LIMIT = 4096
"""Bytes kept of what a client sends before its game listens; the rest is dropped."""

UNSAID_LOCALE = {"LANG": "C.UTF-8"}
"""The locale of a client that sends none: a UTF-8 terminal (its suits drawn as symbols),
as ``TERM_KIND`` takes its terminal for today's. One that sends ``LC_ALL=C`` or
``LANG=C`` gets the suits as letters, as at a local terminal in that locale."""

EXIT_HANGUP = 129
"""The game's status when the client has gone (as a hangup at a local terminal)."""

_ENTER = "\x1b[?1049h\x1b[?25l\x1b[?2004h"
"""Alternate screen, cursor hidden, bracketed paste on."""
_LEAVE = "\x1b[?2004l\x1b[0m\x1b[?25h\x1b[?1049l"
"""Bracketed paste off, plain text, cursor shown, the client's own screen back."""


CORK: int | None = getattr(socket, "TCP_CORK", None)
"""Linux's option that holds a TCP socket's partial segments back until it is lifted."""


@contextlib.contextmanager
def corked(sock: Any) -> Iterator[None]:
    """Whatever is sent on ``sock`` inside the block leaves together as it ends, in as few
    TCP segments as it fills (``TCP_CORK``); where the system has no such option, or there
    is no socket (a test's channel), it leaves as it is sent."""
    if sock is None or CORK is None:
        yield
        return
    with contextlib.suppress(OSError):  # a socket already closed sends nothing anyway
        sock.setsockopt(socket.IPPROTO_TCP, CORK, 1)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, CORK, 0)


class Channel(Protocol):
    """What the endpoint needs of an SSH channel (asyncssh's ``SSHServerChannel``)."""

    def write(self, data: bytes) -> None: ...

    def get_extra_info(self, name: str, default: Any = None) -> Any: ...


class ChannelEndpoint(Endpoint):
    """A game's terminal at the other end of an SSH channel."""

    def __init__(self, channel: Channel, width: int, height: int) -> None:
        with no_color_hidden():
            term = Terminal(kind=TERM_KIND, stream=io.StringIO(), force_styling=True)
        super().__init__(term, "utf-8")
        self.channel = channel
        self.socket = channel.get_extra_info("socket")
        """The connection's socket (``None``: none, as for a test's channel)."""
        self.width, self.height = max(width, 1), max(height, 1)
        self.opened = False
        self.closed = False
        self.gone = False
        """Whether the client has gone (nothing more is written)."""
        self.full = False
        """Whether the channel holds more than its high-water mark for the client."""
        self.early = bytearray()
        """What the client sent before the game listened."""
        self.asking: bytearray | None = None
        """The answers to the start-up questions so far, while they are awaited."""
        self.heard: asyncio.Future[None] | None = None
        self.environ = UNSAID_LOCALE  # what the client sent, if anything: never the server's

    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def is_open(self) -> bool:
        return self.opened and not self.closed and not self.gone

    @property
    def busy(self) -> bool:
        return self.full

    async def open(self, ask_background: bool) -> None:
        """The client's screen taken, the start-up questions asked over the channel the
        first time (a session opens its endpoint again for each screen it runs: the
        lobby, then a game, then the lobby again)."""
        assert self.loop is not None
        self.closed = False
        self.put(_ENTER)
        if self.opened:
            if self.answers.kitty is not None:
                self.put(f"\x1b[={KITTY_FLAGS};1u")
            early, self.early = bytes(self.early), bytearray()
            if early:
                self.received(early)
            return
        self.opened = True
        self.asking = bytearray(self.early)
        self.early.clear()
        self.heard = self.loop.create_future()
        self.put(questions(ask_background))
        if not answered(self.asking):
            with contextlib.suppress(asyncio.TimeoutError):  # not yet TimeoutError on 3.10
                await asyncio.wait_for(self.heard, ANSWER_SECONDS)
        data, self.asking, self.heard = bytes(self.asking), None, None
        self.answers, rest = parse_answers(data)
        if self.answers.kitty is not None:
            self.put(f"\x1b[={KITTY_FLAGS};1u")
        if rest:
            self.received(rest)

    def close(self) -> None:
        """The client's screen and modes given back (taken again by the next ``open``)."""
        if not self.opened or self.closed:
            return
        self.closed = True
        kitty = "" if self.answers.kitty is None else f"\x1b[={self.answers.kitty};1u"
        self.put(kitty + _LEAVE)

    def put(self, text: str) -> None:
        self.send(text.encode(self.encoding, "replace"))

    def write(self, text: str) -> bool:
        data = text.encode(self.encoding, "replace")
        if not self.send(data):
            return False
        self.bytes_written += len(data)
        self.frames_written += 1
        return True

    def send(self, data: bytes) -> bool:
        """Give ``data`` to the channel; False where the client has gone. A client that
        closed its channel is gone from then on: asyncssh refuses the write at once,
        while the server's ``hang_up`` comes on the loop's next turn, after any frame a
        timer draws meanwhile."""
        if self.gone:
            return False
        try:
            with corked(self.socket):
                self.channel.write(data)
        except BrokenPipeError:
            self.gone = True
            return False
        return True

    # ------------------------------------------------------------------ told by the server

    def data(self, data: bytes) -> None:
        """The client's bytes."""
        if self.asking is not None:
            self.asking.extend(data)
            done = answered(self.asking) or len(self.asking) >= ANSWER_LIMIT
            if done and self.heard is not None and not self.heard.done():
                self.heard.set_result(None)
        elif self.loop is None or self.listener is None:
            self.early.extend(data[: max(0, EARLY_LIMIT - len(self.early))])
        else:  # a crash in a key's handling ends the game, as a local terminal's read
            self.guard(self.received, data)

    def resize(self, width: int, height: int) -> None:
        """The client's window took a new size."""
        self.width, self.height = max(width, 1), max(height, 1)
        if self.listener is not None:
            self.guard(self.listener.resize)

    def pause(self) -> None:
        """The channel holds more than it should for the client: no frames for now."""
        self.full = True

    def drained(self) -> None:
        """The client has taken what the channel held: the frame that waited is drawn."""
        self.full = False
        if self.on_drained is not None and self.listener is not None:
            self.guard(self.on_drained)

    def end(self, code: int) -> None:
        """The game must end (the server stops, the session was idle too long)."""
        if self.listener is not None:
            self.guard(self.listener.end, code)

    def hang_up(self) -> None:
        """The client has gone."""
        self.gone = True
        if self.heard is not None and not self.heard.done():
            self.heard.set_result(None)
        self.end(EXIT_HANGUP)
