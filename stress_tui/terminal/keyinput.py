"""Keys from a terminal's bytes, at a bounded cost whatever arrives.

An endpoint (``terminal/endpoint.py``) hands an ``InputDecoder`` the bytes it reads and
takes keys back a few at a time. Before blessed sees anything, the bytes are:

- rid of bracketed pastes, each dropped whole as one event (``pastes``), never decoded key
  by key; a paste whose end marker never comes ends once the input has been quiet for
  ``PASTE_QUIET`` seconds (a terminal sends a paste in one go);
- decoded leniently (a byte that is not valid in the terminal's character set becomes
  U+FFFD, a key nobody has);
- bounded: past ``FLOOD`` characters waiting, the rest of what arrives is dropped (a flood
  of keys or a junk answer, not typing), and so is everything after it for as long as the
  flood goes on (each read more than ``FLOOD`` bytes, which no typing sends between two
  reads, or within ``FLOOD_QUIET`` of the read before), so that a flood costs a read and
  no keys a read, and whatever the terminal holds behind it (Ctrl-C, which the terminal
  makes a signal only once what came before it is read) comes soon. A Ctrl-C among what
  is dropped is kept, whether a byte (over ssh) or the kitty keyboard protocol's key: the
  quit key whatever is arriving.

A read of one ASCII byte other than Esc, with nothing waiting or held back (a key typed at
a person's pace), is that character, without any of the above; once that key has been
read before, it is the key itself (``typed``), without ``feed`` or ``take``.

Keys are then resolved by blessed (its public ``ungetch`` and ``inkey(timeout=0)``) at most
``CHUNK`` characters at a time, never cutting an escape sequence in two; a sequence cut
short at the end of what has arrived waits up to ``ESC_DELAY`` for its rest (a lone Esc is
the Esc key once that has passed). A key of one character other than Esc (a letter, Space,
Ctrl-L, Enter) is what it is whatever comes after it: blessed resolves each such character
once, and the ``Keystroke`` it gave is kept in a table (``InputDecoder.single``) that
answers every later press of it, so a typed letter costs a look-up, not blessed's
search of its sequences.

The terminal given must never read its keyboard itself (``GameTerminal.kbhit``): every byte
goes through here.
"""

from __future__ import annotations

import codecs
import re

from blessed import Terminal
from blessed.keyboard import Keystroke

PASTE_START = b"\x1b[200~"
PASTE_END = b"\x1b[201~"

READ_SIZE = 4096
"""Bytes an endpoint reads at a time: one read's work is small whatever is arriving."""

FLOOD = 512
"""Characters waiting to be resolved past which what arrives is dropped: more than any
typing (two players mashing send a few dozen a second), and resolving a key costs blessed
about 0.1 ms."""

CHUNK = 64
"""Characters handed to blessed at a time (its cost per key grows with what it holds)."""

ESC_DELAY = 0.03
"""Seconds a sequence cut short waits for the rest of it. blessed's 0.35 s also holds up
every key behind a sequence it does not know; a terminal sends a whole sequence at once,
and 30 ms covers a slow link."""

FLOOD_QUIET = 0.05
"""Seconds without input that end a flood (a read of more than ``FLOOD`` bytes goes on
with it, however long after the one before it came)."""

PASTE_QUIET = 0.2
"""Seconds without input that end a paste whose end marker never came."""

SINGLE_KEYS = 512
"""One-character keys kept in the table at most (a flood of odd characters aside, a
keyboard has far fewer)."""

LONGEST_SEQUENCE = 256
"""Characters past which an unfinished escape sequence is not waited for (junk)."""

# The patterns are strings: ``re`` compiles each and keeps it the first time it is used
# (an escape sequence read, a flood; the first frame needs none).
_UNFINISHED = r"\x1b(?:\[[\x20-\x3f]*|O|[\]P_^X][^\x07\x1b]*)?\Z"
"""The tail of the input that may be an escape sequence cut short: a lone Esc, a CSI
without its final byte, SS3 without its key, a string (OSC, DCS...) without its end."""


_TYPED = tuple(chr(byte) if byte < 0x80 and byte != 0x1B else None for byte in range(256))
"""What a read of one byte is, by its value, where the character set is UTF-8 or ASCII: an
ASCII character, a key typed (any but Esc, which may begin a sequence); ``None`` for the
rest. Looked up by the byte's value: a read is a new ``bytes``, which a dict would hash."""

_CTRL_C = r"\x03|\x1b\[99(?::\d*)*;(?:5|69|133|197)(?::[12])?u"
"""Ctrl-C: the byte, or the kitty keyboard protocol's key (Ctrl alone, or with Caps Lock or
Num Lock; pressed or repeated, not released)."""
_CTRL_C_BYTES = _CTRL_C.encode()


def unfinished_tail(text: str) -> int:
    """Where an escape sequence cut short starts at the end of ``text`` (``len(text)``:
    none, or one too long to be waited for)."""
    start = text.rfind("\x1b", max(0, len(text) - LONGEST_SEQUENCE))
    if start < 0 or not re.match(_UNFINISHED, text[start:]):
        return len(text)
    return start


def _partial_marker(data: bytes, marker: bytes) -> int:
    """How many bytes at the end of ``data`` begin ``marker``."""
    for size in range(min(len(marker) - 1, len(data)), 0, -1):
        if data.endswith(marker[:size]):
            return size
    return 0


class InputDecoder:
    """A terminal's input bytes in, its keys out, with bounded work per step."""

    def __init__(self, term: Terminal, encoding: str = "utf-8") -> None:
        self.term = term
        """Resolves keys (its keyboard never read by itself)."""
        try:
            self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        except LookupError:
            encoding = "utf-8"
            self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.ascii_kept = codecs.lookup(encoding).name in ("utf-8", "ascii")
        """Whether the character set keeps ASCII as it is (a byte of ``_TYPED`` is that
        character)."""
        self.plain = self.ascii_kept
        """Whether a byte of ``_TYPED`` arriving now is that character: ASCII kept, and
        no character cut short waiting in the decoder."""
        self.text = ""
        """Characters decoded and not yet resolved into keys."""
        self.carry = b""
        """Bytes at the end of the last read that may begin a paste's marker."""
        self.in_paste = False
        """Whether a paste is arriving (its bytes are dropped until its end)."""
        self.held_since: float | None = None
        """When the unfinished tail (a sequence cut short, a marker's start) began to wait."""
        self.last_input = 0.0
        """When bytes last arrived."""
        self.pastes = 0
        """Pastes dropped."""
        self.dropped = 0
        """Characters dropped as a flood."""
        self.flooding = False
        """Whether a flood is going on: past ``FLOOD`` characters waiting, and every read
        since more than ``FLOOD`` bytes or within ``FLOOD_QUIET`` of the one before. What
        arrives is dropped until a read comes that is neither (dropped too: the flood's
        end)."""
        self.single: dict[str, Keystroke] = {}
        """Each one-character key (Esc aside) as blessed resolved it the first time."""

    # ------------------------------------------------------------------ bytes in

    def typed(self, data: bytes, now: float) -> Keystroke | None:
        """The key ``data``, read at ``now``, is if it is a key typed alone (one byte that
        ``_TYPED`` has a character for, with nothing waiting or held back) that has been
        read before (``single``): taken at once, as nearly every key at a person's pace is.
        ``None``: ``data`` is to be fed (``feed``) and its keys taken (``take``)."""
        typed = _TYPED[data[0]] if len(data) == 1 else None
        if typed is None or not self.plain or self.waiting():
            return None
        key = self.single.get(typed)
        if key is not None:
            self.last_input = now
        return key

    def feed(self, data: bytes, now: float) -> None:
        """Bytes read from the terminal at ``now``."""
        typed = _TYPED[data[0]] if len(data) == 1 else None
        if typed is not None and self.plain and not self.waiting():
            # A key typed, with nothing before it: no paste, flood or sequence to mind.
            self.last_input = now
            self.text = typed
            return
        dropped_before = self.dropped
        if not data:
            return
        previous, self.last_input = self.last_input, now
        kept = self._outside_pastes(self.carry + data)
        if self.flooding:  # the flood goes on, or this is its end
            self.flooding = len(data) > FLOOD or now - previous < FLOOD_QUIET
            self._drop(kept)
            return
        self._add(kept, now)
        if self.dropped > dropped_before and len(data) > FLOOD:
            self.flooding = True

    def waiting(self) -> bool:
        """Whether anything waits or is held back: characters not taken yet (a sequence
        cut short among them), a paste marker's start, a paste, a flood."""
        return bool(self.text or self.carry or self.in_paste or self.flooding)

    def _outside_pastes(self, data: bytes) -> bytes:
        """``data`` without the pastes in it; a marker cut short is carried to the next
        read."""
        kept = bytearray()
        self.carry = b""
        while data:
            if self.in_paste:
                end = data.find(PASTE_END)
                if end < 0:
                    self.carry = data[len(data) - _partial_marker(data, PASTE_END) :]
                    return bytes(kept)
                data = data[end + len(PASTE_END) :]
                self.in_paste = False
                self.pastes += 1
            else:
                start = data.find(PASTE_START)
                if start < 0:
                    cut = len(data) - _partial_marker(data, PASTE_START)
                    kept += data[:cut]
                    self.carry = data[cut:]
                    break
                kept += data[:start]
                data = data[start + len(PASTE_START) :]
                self.in_paste = True
        return bytes(kept)

    def _add(self, data: bytes, now: float) -> None:
        """Decoded bytes join the text waiting; past ``FLOOD`` they are dropped."""
        room = FLOOD - len(self.text)
        if room <= 0:
            self._drop(data)
            return
        text = self.decoder.decode(data[: room * 4])  # at most 4 bytes a character
        self.plain = self.ascii_kept and not self.decoder.getstate()[0]
        rest = data[room * 4 :]
        if len(text) > room:
            kept = text[:room]
            kept = kept[: unfinished_tail(kept)]  # no sequence cut in two by the drop
            text, cut = kept, text[len(kept) :]
            self.text += text
            self._drop(cut)
        else:
            self.text += text
        if rest:
            self._drop(rest)
        if self.carry or unfinished_tail(self.text) < len(self.text):
            if text or self.held_since is None:
                self.held_since = now
        else:
            self.held_since = None

    def _drop(self, dropped: bytes | str) -> None:
        """What a flood drops: counted, and a Ctrl-C in it kept, after what waits."""
        self.dropped += len(dropped)
        if isinstance(dropped, bytes):
            if b"\x03" not in dropped and b"\x1b[99" not in dropped:
                return
            found = re.search(_CTRL_C_BYTES, dropped)
            key = None if found is None else found.group().decode("ascii")
        else:
            text = re.search(_CTRL_C, dropped)
            key = None if text is None else text.group()
        if key is not None:
            self.text = self.text[: unfinished_tail(self.text)] + key

    # ------------------------------------------------------------------ keys out

    def due(self) -> float | None:
        """When something held back must be let go (``release``), if anything is."""
        if self.in_paste:
            return self.last_input + PASTE_QUIET
        if self.held_since is not None:
            return self.held_since + ESC_DELAY
        return None

    def release(self, now: float) -> None:
        """Let go of what has waited long enough: a cut-short sequence (or a lone Esc) is
        resolved as it is; a paste that went quiet without its end is over."""
        if self.in_paste and now >= self.last_input + PASTE_QUIET:
            self.in_paste = False
            self.carry = b""
            self.pastes += 1
        if self.held_since is not None and now >= self.held_since + ESC_DELAY:
            self.held_since = None
            if self.carry:
                self.carry, carry = b"", self.carry
                self._add(carry, now)
                self.held_since = None

    @property
    def ready(self) -> bool:
        """Whether keys can be taken now."""
        end = len(self.text) if self.held_since is None else unfinished_tail(self.text)
        return end > 0

    def take(self) -> list[Keystroke]:
        """The next keys (from at most ``CHUNK`` characters), in the order they came."""
        end = len(self.text) if self.held_since is None else unfinished_tail(self.text)
        if end <= 0:
            return []
        cut = end
        if end > CHUNK:
            # The sequence at the cut goes whole with the next chunk; one that starts the
            # chunk goes whole with this one.
            inner = unfinished_tail(self.text[:CHUNK])
            cut = inner if inner > 0 else min(end, CHUNK + LONGEST_SEQUENCE)
        chunk, self.text = self.text[:cut], self.text[cut:]
        keys = []
        single = self.single
        for i, ch in enumerate(chunk):
            key = single.get(ch)
            if key is None:  # an Esc, or a character not seen yet: blessed's to resolve
                chunk = chunk[i:]
                break
            keys.append(key)
        else:
            return keys
        term = self.term
        term.ungetch(chunk)
        while key := term.inkey(timeout=0, esc_delay=0):
            keys.append(key)
            if len(key) == 1 and key != "\x1b" and len(single) < SINGLE_KEYS:
                single[str(key)] = key
        rest = term.flushinp()  # what blessed could not resolve yet
        if rest and (self.text or self.held_since is not None):
            self.text = rest + self.text  # kept, in order, for what comes after it
        elif rest:
            self.dropped += len(rest)  # all there was, and waited for: never a key
        return keys
