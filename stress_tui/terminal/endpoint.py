"""Where a screen draws and what it reads keys from: an endpoint.

A screen (``terminal/screen.py``) knows a terminal only as an ``Endpoint``: bytes in (read,
decoded into keys by ``terminal/keyinput.py``), bytes out (a frame at a time), a size, the
answers to the start-up questions (synchronized output, the background colour), and a
``Listener`` it is told through: each key, a burst of keys over, a resize, the end (an exit
status), a stop and a continue. The endpoints:

- ``terminal/session.py``'s ``LocalEndpoint``: the terminal the game runs in (its tty,
  termios, the process's signals, blessed). Nothing else touches file descriptors, termios
  or signals.
- ``MemoryEndpoint`` below: an in-process terminal for tests, fed keys and resized by the
  test, its output handed to whatever reads it (``tests/pilot.py`` puts it on a pyte
  screen); no pty, no signals, no sleeping.
- ``terminal/channel.py``'s ``ChannelEndpoint``: an SSH session's channel (``stress-tui
  serve``): it receives bytes and a size change, writes bytes, and asks its questions over
  the channel.

The start-up questions are asked in one batch, the cursor position last: every VT100-like
terminal answers that, and answers in order, so its answer closes the batch. They are
read with a byte limit (``ANSWER_LIMIT``) and a deadline (``ANSWER_SECONDS``); whatever
else arrived meanwhile is input.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from blessed import Terminal
from blessed.keyboard import Keystroke

from stress_tui.terminal.draw.theme import is_light
from stress_tui.terminal.keyinput import InputDecoder

ANSWER_SECONDS = 0.2
"""Seconds to wait for the answers to the start-up questions: a terminal that answers none
costs this once."""

ANSWER_LIMIT = 4096
"""Bytes read at most while waiting for the answers (all of them take under 200): past it,
what arrives is input, and the start goes on."""

KITTY_FLAGS = 1 | 2 | 8 | 16
"""Kitty keyboard flags asked for: disambiguated keys, repeats and releases reported, every
key as a sequence, with its text."""

ASK_POSITION = "\x1b[6n"
ASK_KITTY = "\x1b[?u"
ASK_SYNC = "\x1b[?2026$p"
ASK_BACKGROUND = "\x1b]11;?\x07"
ASK_SCHEME = "\x1b[?996n"

_POSITION = re.compile(rb"\x1b\[(\d+);(\d+)R")
_KITTY = re.compile(rb"\x1b\[\?(\d+)u")
_SYNC = re.compile(rb"\x1b\[\?2026;(\d)\$y")
_BACKGROUND = re.compile(
    rb"\x1b\]11;rgb:([0-9a-fA-F]{1,4})/([0-9a-fA-F]{1,4})/([0-9a-fA-F]{1,4})(?:\x07|\x1b\\)"
)
_SCHEME = re.compile(rb"\x1b\[\?997;([12])n")


@contextlib.contextmanager
def no_color_hidden() -> Iterator[bool]:
    """Hide ``NO_COLOR`` while a ``Terminal`` is made; whether colour may be used.

    ``NO_COLOR`` makes blessed drop every sequence, cursor moves included, which would
    leave a full-screen table unable to draw. So the terminal is made without it in sight
    and the game honours it itself: no colours, only bold and reverse video."""
    saved = os.environ.pop("NO_COLOR", None)
    try:
        yield not saved
    finally:
        if saved is not None:
            os.environ["NO_COLOR"] = saved


@dataclass(eq=False)
class Answers:
    """What the terminal said to the start-up questions."""

    position: bool = False
    """Whether it said where its cursor is (it answers questions at all)."""
    kitty: int | None = None
    """Its kitty keyboard flags before the game's (``None``: no kitty keyboard protocol)."""
    sync: bool = False
    """Whether it draws a frame at once (synchronized output, mode 2026)."""
    background: tuple[int, int, int] | None = None
    """Its background colour, 0-255 a channel (``None``: not said)."""
    scheme: str | None = None
    """``light`` or ``dark`` as its colour scheme report says (``None``: not said)."""


def questions(background: bool) -> str:
    """The start-up questions, the cursor position last (its answer closes the batch)."""
    asked = ASK_KITTY + ASK_SYNC
    if background:
        asked += ASK_BACKGROUND + ASK_SCHEME
    return asked + ASK_POSITION


def answered(data: bytes | bytearray) -> bool:
    """Whether ``data`` holds the answer that closes the batch."""
    return _POSITION.search(data) is not None


def _channel(hex_digits: bytes) -> int:
    return int(hex_digits, 16) * 255 // ((1 << (4 * len(hex_digits))) - 1)


def parse_answers(data: bytes) -> tuple[Answers, bytes]:
    """The answers in ``data``, and the rest of it (input that arrived meanwhile)."""
    answers = Answers()
    rest = data

    def take(pattern: re.Pattern[bytes]) -> re.Match[bytes] | None:
        nonlocal rest
        match = pattern.search(rest)
        if match is not None:
            rest = rest[: match.start()] + rest[match.end() :]
        return match

    if take(_POSITION):
        answers.position = True
    if kitty := take(_KITTY):
        answers.kitty = int(kitty.group(1))
    if sync := take(_SYNC):
        answers.sync = sync.group(1) in (b"1", b"2", b"3")
    if rgb := take(_BACKGROUND):
        r, g, b = (_channel(rgb.group(i)) for i in (1, 2, 3))
        answers.background = (r, g, b)
    if scheme := take(_SCHEME):
        answers.scheme = "dark" if scheme.group(1) == b"1" else "light"
    return answers, rest


@dataclass(eq=False)
class Listener:
    """What an endpoint tells the screen."""

    key: Callable[[Keystroke], None]
    """A key, in the order the keys came."""
    burst_over: Callable[[], None]
    """The keys that came together have all been told."""
    resize: Callable[[], None]
    """The terminal's size changed."""
    end: Callable[[int], None]
    """The game must end, with this exit status (a signal, the terminal gone)."""
    suspend: Callable[[], None]
    """The player asked to stop the game for a while (Ctrl-Z)."""
    resume: Callable[[], None]
    """The game goes on after a stop (from outside or its own)."""


class Endpoint:
    """A terminal the game draws on and reads keys from (see the module's docstring).

    Subclasses write (``write``, ``send_questions``), say the size (``size``), take and
    give back the terminal (``open``, which awaits ``ask``; ``close``), start and stop
    telling (``listen``, ``stop``), and hand every byte they read to ``received``; the
    answers to the questions and the decoding into keys, bounded, are done here.
    """

    def __init__(self, term: Terminal, encoding: str = "utf-8") -> None:
        self.term = term
        """Makes the sequences of a frame and measures text (never reads a keyboard)."""
        self.encoding = encoding
        """The terminal's character set: text it cannot show is written as ``?``."""
        self.decoder = InputDecoder(term, encoding)
        self.answers = Answers()
        """What the terminal said to the start-up questions."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listener: Listener | None = None
        self.guard: Callable[..., None] = _call
        """Runs the loop's callbacks for the endpoint (a crash in one ends the game)."""
        self.on_drained: Callable[[], None] | None = None
        """Called once the terminal has taken a frame it could not take at once."""
        self.turn_pending = False
        self.release_timer: asyncio.TimerHandle | None = None
        self.asking: bytearray | None = None
        """What has come while the start-up questions wait for their answers."""
        self.heard: asyncio.Future[None] | None = None
        """Set once the answers are in (or the byte limit reached)."""
        self.bytes_written = 0
        self.frames_written = 0
        self.environ: Mapping[str, str] = os.environ
        """The environment of the terminal's side (what its ``COLORFGBG`` says of its
        background): this process's, or what an SSH client sent."""

    # ------------------------------------------------------------------ what a screen asks

    @property
    def answers_questions(self) -> bool:
        """Whether the terminal answered the start-up questions at all."""
        return self.answers.position

    def background(self) -> str | None:
        """``light`` or ``dark`` as the terminal said, if it did."""
        if self.answers.background is not None:
            return "light" if is_light(self.answers.background) else "dark"
        return self.answers.scheme

    def size(self) -> tuple[int, int]:
        """The terminal's width and height."""
        raise NotImplementedError

    @property
    def is_open(self) -> bool:
        """Whether the terminal is the game's to draw on."""
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        """Whether the last frame is still on its way (a new one would have to wait)."""
        return False

    def listen(
        self, loop: asyncio.AbstractEventLoop, listener: Listener, guard: Callable[..., None]
    ) -> None:
        """Tell ``listener`` from now on, each callback run through ``guard``."""
        self.loop, self.listener, self.guard = loop, listener, guard

    async def open(self, ask_background: bool) -> None:
        """Take the terminal (its modes) and ask the start-up questions; the background's
        too if ``ask_background``."""
        raise NotImplementedError

    def send_questions(self, asked: str) -> bool:
        """Write the start-up questions; ``False`` where the terminal is not to be asked."""
        raise NotImplementedError

    async def ask(self, asked: str) -> None:
        """Ask the start-up questions and wait for the answer that closes them, at most
        ``ANSWER_SECONDS`` and ``ANSWER_LIMIT`` bytes (``received`` gathers them meanwhile);
        whatever else came is input."""
        assert self.loop is not None
        self.asking = bytearray()
        self.heard = self.loop.create_future()
        try:
            if self.send_questions(asked):
                await asyncio.wait_for(self.heard, ANSWER_SECONDS)
        except asyncio.TimeoutError:  # not yet TimeoutError on Python 3.10
            pass
        finally:
            data, self.asking, self.heard = bytes(self.asking), None, None
        self.answers, rest = parse_answers(data)
        if rest:
            self.received(rest)

    def stop(self) -> None:
        """Stop telling the listener (reading, signals)."""
        if self.release_timer is not None:
            self.release_timer.cancel()
            self.release_timer = None
        self.listener = None

    def close(self) -> None:
        """Give the terminal back as it was (as far as one that has gone allows)."""

    def can_stop(self) -> bool:
        """Whether a stopped game would be brought back (``suspend``)."""
        return False

    def suspend(self) -> None:
        """Give the terminal back and stop; here again after a continue, taken back."""

    def write_frame(self, text: str) -> bool:
        """Write a frame's text in one go (inside a synchronized update where the terminal
        has them); ``False`` if the terminal has gone."""
        return self.write(_SYNC_BEGIN + text + _SYNC_END if self.answers.sync else text)

    def write(self, text: str) -> bool:
        """Write ``text`` without waiting for the terminal; ``False`` if it has gone."""
        raise NotImplementedError

    # ------------------------------------------------------------------ keys

    def received(self, data: bytes) -> None:
        """Bytes from the terminal: the answers to the start-up questions while they are
        awaited, else input, decoded, and its keys told in turns (a key typed alone, as
        nearly every key at a person's pace, told at once: ``InputDecoder.typed``)."""
        assert self.loop is not None
        if self.asking is not None:  # in order, until the answers are read
            self.asking += data
            heard = self.heard
            done = answered(self.asking) or len(self.asking) >= ANSWER_LIMIT
            if heard is not None and done and not heard.done():
                heard.set_result(None)
            return
        now = self.loop.time()
        listener = self.listener
        if listener is not None:
            key = self.decoder.typed(data, now)
            if key is not None:  # a key typed alone, with nothing before it: told now
                # (Each callable read, then called: a call straight off an attribute that
                # holds a function is looked up in the class first, every time.)
                tell, over = listener.key, listener.burst_over
                tell(key)
                if self.listener is not None:
                    over()
                return
        self.decoder.feed(data, now)
        if not self.turn_pending:  # else the keys are told in the turn to come
            self.turn()

    def input_pending(self) -> bool:
        """Whether more keys have arrived than have been told."""
        return self.decoder.ready

    def turn(self) -> None:
        """Tell the next keys (a bounded number); the rest in later turns of the loop, so
        that signals, the clock and frames go on whatever is arriving."""
        self.turn_pending = False
        listener = self.listener
        if listener is None or self.loop is None:
            return
        keys = self.decoder.take()
        for key in keys:
            listener.key(key)
            if self.listener is None:
                return
        if keys:
            listener.burst_over()
        if self.decoder.ready and not self.turn_pending:
            self.turn_pending = True
            self.loop.call_soon(self.guard, self.turn)
        self.set_release()

    def set_release(self) -> None:
        """Wake up when something held back (a cut-short sequence, a paste) is due."""
        assert self.loop is not None
        due = self.decoder.due()
        if self.release_timer is not None:
            if due is not None and self.release_timer.when() == due:
                return
            self.release_timer.cancel()
            self.release_timer = None
        if due is not None:
            self.release_timer = self.loop.call_at(due, self.guard, self.release)

    def release(self) -> None:
        assert self.loop is not None
        self.release_timer = None
        self.decoder.release(self.loop.time())
        self.turn()


_SYNC_BEGIN = "\x1b[?2026h"
_SYNC_END = "\x1b[?2026l"


def _call(callback: Callable[..., None], *args: object) -> None:
    callback(*args)


class MemoryEndpoint(Endpoint):
    """An in-process terminal: the test feeds it keys (``feed``), resizes it (``resize``)
    and reads what is written (``output``, or ``on_output``); the start-up questions are
    answered by ``reply`` (by default: the cursor position and nothing else)."""

    def __init__(
        self,
        width: int = 80,
        height: int = 24,
        kind: str = "xterm-256color",
        on_output: Callable[[bytes], None] | None = None,
        reply: Callable[[str], bytes] | None = None,
    ) -> None:
        import io

        with no_color_hidden():
            term = Terminal(kind=kind, stream=io.StringIO(), force_styling=True)
        super().__init__(term)
        self.width, self.height = width, height
        self.on_output = on_output
        """Given every write, as bytes."""
        self.reply = reply or (lambda asked: b"\x1b[1;1R")
        """What the terminal answers to the start-up questions."""
        self.output = bytearray()
        """Everything written, when nothing else takes it (``on_output``)."""
        self.opened = False
        self.closed = False
        self.asked = ""
        """The start-up questions asked."""
        self.stoppable = False
        """Whether the game may stop itself (``suspend``), as a job of a shell with job
        control may."""
        self.stops = 0
        """How many times the game has stopped itself (each time continued at once, as
        after ``fg``)."""

    def size(self) -> tuple[int, int]:
        return self.width, self.height

    @property
    def is_open(self) -> bool:
        return self.opened and not self.closed

    async def open(self, ask_background: bool) -> None:
        self.opened = True
        await self.ask(questions(ask_background))

    def send_questions(self, asked: str) -> bool:
        """The questions are asked; the terminal answers as soon as the loop comes round."""
        assert self.loop is not None
        self.asked = asked
        self.loop.call_soon(self.received, self.reply(asked))
        return True

    def close(self) -> None:
        self.closed = True

    def can_stop(self) -> bool:
        return self.stoppable

    def suspend(self) -> None:
        self.stops += 1

    def write(self, text: str) -> bool:
        data = text.encode(self.encoding, "replace")
        if self.on_output is not None:
            self.on_output(data)
        else:
            self.output += data
        self.bytes_written += len(data)
        self.frames_written += 1
        return True

    # ------------------------------------------------------------------ for the test

    def feed(self, data: bytes | str) -> None:
        """Keys typed (bytes as a terminal sends them)."""
        self.received(data.encode() if isinstance(data, str) else data)

    def resize(self, width: int, height: int) -> None:
        """The window takes a new size."""
        self.width, self.height = width, height
        if self.listener is not None:
            self.listener.resize()

    def end(self, code: int) -> None:
        """The terminal ends the game (as a signal would, with its exit status)."""
        if self.listener is not None:
            self.listener.end(code)

    def stop_signal(self) -> None:
        """The game is asked to stop (``kill -TSTP``, what Ctrl-Z sends)."""
        if self.listener is not None:
            self.listener.suspend()

    def continue_signal(self) -> None:
        """The game goes on after a stop it could not see (``kill -STOP``, then ``-CONT``)."""
        if self.listener is not None:
            self.listener.resume()
