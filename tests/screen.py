"""Reading a screen as a player sees it, whoever draws it: the real program in a
pseudo-terminal (``tests.tty.TtySession``) or a screen in-process (``tests.pilot.Pilot``).

Both put what is written on a pyte screen and read it back through ``Screenful``: rows,
text, cells with their colours, and waiting for a state with a deadline on the session's
own clock (the wall's in a pty, the loop's virtual one in-process). The stress-tui helpers
below (``say_ready``, ``table_layout``, ``pile_top``...) take either. ``ScreenFilter``
takes out of a terminal's bytes what pyte would print as text or fail on.

This module starts no program: a test module that reads screens through it alone runs its
tests in-process, on every Python ``scripts/test`` runs (``tests/conftest.py`` marks ``pty``
only the modules that import ``tests.tty``).
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn

import pyte
from pyte.screens import Char
from wcwidth import wcwidth

from stress_tui.terminal.layout import Layout, layout

#: Variables taken out of the outer environment: they change what blessed emits (``NO_COLOR``
#: turns off every sequence, cursor moves too), what it asks the terminal, the size it sees, or
#: the language the game speaks (``LANG`` is set below).
STRIPPED_ENV: tuple[str, ...] = (
    "NO_COLOR",
    "COLORTERM",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "FORCE_COLOR",
    "CLICOLOR_FORCE",
    "LINES",
    "COLUMNS",
    "AMBIGUOUS_WIDE",
    "ESCDELAY",
    "BLESSED_QUERY_TIMEOUT_SECONDS",
    "LANGUAGE",
    "LC_ALL",
    "LC_MESSAGES",
)

#: What the game always gets, before the test's own variables.
BASE_ENV: dict[str, str] = {
    "TERM": "xterm-256color",
    "LANG": "C.UTF-8",
    "PYTHONUNBUFFERED": "1",
}

#: Bytes a terminal sends for common keys (normal cursor-key mode, as in cbreak without smkx).
KEYS: dict[str, str] = {
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "enter": "\r",
    "tab": "\t",
    "backspace": "\x7f",
    "space": " ",
    # A lone Esc is only recognised after blessed's escape delay (about 0.35 s).
    "escape": "\x1b",
    "ctrl_c": "\x03",
    "f1": "\x1bOP",
}


def render_line(line: Mapping[int, Char], columns: int) -> str:
    """One screen row as text, exactly as ``pyte.Screen.display`` renders it."""
    cells = [line[x].data for x in range(columns)]
    fast = "".join(cells)
    if fast.isascii():  # no wide characters: nothing to skip (and 10 times faster)
        return fast
    # Only a character outside ASCII can be wide: the cell after each wide one (its stub)
    # is skipped, and is not itself looked at. A suit or a card's border costs one
    # ``wcwidth`` each, not a whole row's (a wait for a play's card reads its row).
    skipped = -1
    for x, char in enumerate(cells):
        if x == skipped or char.isascii():
            continue
        if wcwidth(char[0]) == 2:
            skipped = x + 1
            if skipped < columns:
                cells[skipped] = ""
    return "".join(cells)


# -- what a program leaves the terminal in -------------------------------------------------------

_DEC_MODE_RE = re.compile(rb"\x1b\[\?([0-9;]+)([hl])")

#: DEC private modes that switch to the alternate screen.
ALT_SCREEN_MODES = (1049, 1047, 47)
#: DEC private modes a program must not leave on: mouse reports, focus events, bracketed paste.
MUST_BE_OFF_MODES = (1000, 1002, 1003, 1004, 1005, 1006, 1015, 2004)


def final_dec_modes(log: bytes) -> dict[int, bool]:
    """The last state set for each DEC private mode (``CSI ? n h`` on, ``CSI ? n l`` off)."""
    modes: dict[int, bool] = {}
    for match in _DEC_MODE_RE.finditer(log):
        on = match.group(2) == b"h"
        for param in match.group(1).split(b";"):
            if param:
                modes[int(param)] = on
    return modes


def restore_problems(log: bytes) -> list[str]:
    """What the output leaves the terminal in that it should not; empty when all is well."""
    modes = final_dec_modes(log)
    problems = [
        f"alternate screen still on (last ?{mode} was h)"
        for mode in ALT_SCREEN_MODES
        if modes.get(mode, False)
    ]
    if not any(mode in modes for mode in ALT_SCREEN_MODES):
        problems.append("alternate screen never entered")
    if not modes.get(25, True):
        problems.append("cursor left hidden (last ?25 was l)")
    problems += [f"mode ?{mode} left on" for mode in MUST_BE_OFF_MODES if modes.get(mode, False)]
    return problems


def restored(log: bytes) -> bool:
    """Whether the output ends with the terminal restored: the alternate screen was entered and
    the last alternate-screen toggle is an exit, the cursor is visible at the end, and no mouse,
    focus or bracketed-paste mode is left on."""
    return not restore_problems(log)


# -- a screen a test reads -----------------------------------------------------------------------


# pyte 0.8.2 does not parse DCS strings (XTGETTCAP, ``ESC P ... ESC \``) nor CSI sequences with a
# ``<`` or ``=`` prefix (kitty keyboard ``CSI = 1;1 u``, ``CSI < u``), and prints their tails as
# text. They change nothing on a real screen, so they are dropped before pyte sees them.
_DCS_RE = re.compile(rb"\x1bP[^\x1b]*\x1b\\")
_CSI_LT_EQ_RE = re.compile(rb"\x1b\[[<=][0-9;:]*[\x20-\x2f]*[\x40-\x7e]")
# pyte 0.8.2 also fails on a private device status report (``CSI ? 996 n``, the colour
# scheme query): dropped too.
_CSI_PRIVATE_DSR_RE = re.compile(rb"\x1b\[\?[0-9;]*n")
# The background colour query (OSC 11), which a session answers if told a background.
_OSC_BG_QUERY = re.compile(rb"\x1b\]11;\?(?:\x07|\x1b\\)")
# A tail that may be the start of one of those: kept back until the next read.
_PARTIAL_RE = re.compile(rb"\x1b(?:\[(?:[<=?][0-9;:]*[\x20-\x2f]*)?|\](?:1(?:1(?:;\??)?)?)?)?\Z")


class ScreenFilter:
    """Incrementally removes the sequences pyte would print as text or fail on (the
    comments above say which); ``background_queries`` counts the OSC 11 queries seen (for
    the session to answer)."""

    def __init__(self) -> None:
        self._pending = b""
        self.background_queries = 0

    def feed(self, data: bytes) -> bytes:
        buf = self._pending + data
        buf = _CSI_LT_EQ_RE.sub(b"", _DCS_RE.sub(b"", buf))
        buf = _CSI_PRIVATE_DSR_RE.sub(b"", buf)
        buf, found = _OSC_BG_QUERY.subn(b"", buf)
        self.background_queries += found
        cut = buf.find(b"\x1bP")  # an unterminated DCS string
        if cut < 0:
            match = _PARTIAL_RE.search(buf)
            cut = match.start() if match else len(buf)
        self._pending = buf[cut:]
        return buf[:cut]


WALL_STEP = 0.01
"""Seconds a wait past its timeout on a virtual clock lets pass between looks, on the wall's
clock and on the session's (``Screenful.wait_for``)."""


class Screenful:
    """A screen a test reads and types into; what is written goes onto ``screen`` (pyte)
    and ``log`` (the bytes). Subclasses say how time passes (``now``, ``pump``,
    ``await_output``), whether the program has ended (``ended``), how to type and how it
    ends."""

    screen: pyte.Screen
    log: bytearray
    ended_as = "the program ended"
    """How a failure message says that the program ended before what was awaited."""

    # -- time, input and the end: the subclass's ----------------------------------------------

    def ended(self) -> bool:
        """Whether the program has ended (nothing more will be written)."""
        raise NotImplementedError

    def now(self) -> float:
        """The session's clock, in seconds."""
        raise NotImplementedError

    def pump(self, timeout: float = 0.0) -> int:
        """Take what has been written, letting up to ``timeout`` seconds pass; the bytes
        taken."""
        raise NotImplementedError

    def await_output(self, until: float, seen: int) -> None:
        """Let time pass until more than ``seen`` bytes have been written, or the clock
        reads ``until`` (or a moment before it, to look again)."""
        raise NotImplementedError

    def send(self, data: str | bytes) -> None:
        """Keys typed, as a terminal sends them."""
        raise NotImplementedError

    def wait_exit(self, timeout: float = 5.0) -> int:
        """Let time pass until the program ends; its exit status."""
        raise NotImplementedError

    def describe(self) -> str:
        """The lines a failure message starts with after what failed: what runs, its state."""
        raise NotImplementedError

    # -- waiting for a state --------------------------------------------------------------------

    def wait_for(
        self, predicate: Callable[[], bool], timeout: float = 5.0, what: str = "condition"
    ) -> None:
        """Let time pass until ``predicate()`` is true; AssertionError showing the screen
        after ``timeout`` seconds, or once the program has ended without it.

        The timeout passes on the session's clock and on the wall's: a virtual clock
        (``tests/pilot.py``) jumps from timer to timer, where what a thread of the program
        does meanwhile (the record's, counting a round) takes the wall's time."""
        wall = time.monotonic() + timeout
        deadline = self.now() + timeout
        while True:
            seen = len(self.log)  # before the look: it may type, and be answered at once
            if predicate():
                return
            if self.ended():
                self.pump()
                if predicate():
                    return
                self.fail(f"{self.ended_as} while waiting for {what}")
            if self.now() < deadline:
                self.await_output(deadline, seen)
            elif time.monotonic() < wall:
                time.sleep(WALL_STEP)
                self.pump(WALL_STEP)
            else:
                self.fail(f"timed out after {timeout} s waiting for {what}")

    def wait_text(self, text: str, timeout: float = 5.0, row: int | None = None) -> None:
        """Wait until ``text`` is on the screen (or on row ``row``)."""
        if row is None:
            self.wait_for(lambda: text in self.text(), timeout, f"{text!r} on screen")
        else:
            self.wait_for(lambda: text in self.row(row), timeout, f"{text!r} on row {row}")

    def fail(self, message: str) -> NoReturn:
        """AssertionError: ``message``, what runs, and the screen."""
        raise AssertionError(
            f"{message}\n{self.describe()}\n"
            f"--- screen {self.screen.columns}x{self.screen.lines}, "
            f"cursor at row {self.screen.cursor.y} col {self.screen.cursor.x} ---\n"
            f"{self.dump()}"
        )

    # -- the screen -----------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return int(self.screen.lines)

    @property
    def cols(self) -> int:
        return int(self.screen.columns)

    def row(self, y: int) -> str:
        """Row ``y`` (0-based) as text, padded with spaces to the width. Cheaper than text()."""
        return render_line(self.screen.buffer[y], self.screen.columns)

    _rows_shown: tuple[int, list[str]] | None = None
    """The screen's width and each row's text when ``text`` last read it."""

    def text(self) -> str:
        """The whole screen, rows joined with newlines. The rows pyte marked changed since
        the last look (``screen.dirty``: what is written, scrolled, erased or resized) are
        read again; a wait for a state looks after every write, mostly at a row or two."""
        screen = self.screen
        shown = self._rows_shown
        if shown is None or shown[0] != screen.columns or len(shown[1]) != screen.lines:
            self._rows_shown = shown = (screen.columns, list(screen.display))
        else:
            for y in screen.dirty:
                if y < screen.lines:
                    shown[1][y] = render_line(screen.buffer[y], screen.columns)
        screen.dirty.clear()
        return "\n".join(shown[1])

    def dump(self) -> str:
        """The screen with row numbers and trailing spaces cut, for failure messages."""
        return "\n".join(f"{y:3}|{line.rstrip()}" for y, line in enumerate(self.screen.display))

    def cell(self, y: int, x: int) -> Char:
        """The character at row ``y``, column ``x``, with its colours (``.fg``, ``.bg``) and
        attributes (``.bold``, ``.reverse``, ...)."""
        return self.screen.buffer[y][x]

    def raw_log(self, start: int = 0) -> bytes:
        """The bytes written so far, from offset ``start`` (take ``len(s.log)`` as a mark)."""
        return bytes(self.log[start:])


def settle(s: Screenful, quiet: float = 0.3, timeout: float = 5.0) -> None:
    """Read until the program has written nothing for ``quiet`` seconds (the frame and
    anything left to draw are all out); AssertionError if it never falls quiet within
    ``timeout`` seconds (of the session's clock)."""
    deadline = s.now() + timeout
    last = s.now()
    while s.now() - last < quiet:
        if s.now() > deadline:
            s.wait_for(lambda: False, 0, f"{quiet} s without output")
        if s.pump(0.05):
            last = s.now()


# -- stress-tui ----------------------------------------------------------------------------------

READY_KEY = re.compile(r"press (\S+) when ready")
"""What a round that waits for its players says beside the row of the person at the
terminal: their ready key."""


def say_ready(s: Screenful, timeout: float = 5.0) -> None:
    """A stress-tui round waits for the people at the table to say they are ready (beside
    each person's row: ``press c when ready``): press every ready key it asks for, and
    wait until the round has started. Nothing to do where computers play alone."""
    s.wait_for(lambda: READY_KEY.search(s.text()) is not None, timeout, "the ready banner")
    sent: set[str] = set()

    def started() -> bool:
        asked = set(READY_KEY.findall(s.text()))
        if not asked:
            return True
        if asked - sent:  # a frame may come in parts: each key as its line shows
            s.send("".join(sorted(asked - sent)))
            sent.update(asked)
        return False

    s.wait_for(started, timeout, "the round to start")


def has_people(args: Sequence[str]) -> bool:
    """Whether a stress-tui command line seats a person (a side not given as ``bot``)."""
    kinds = {"--p1": "human", "--p2": "human"}
    for flag, value in itertools.pairwise(args):
        if flag in kinds:
            kinds[flag] = value
    return "human" in kinds.values()


# Where the table's parts are, read from the screen at its size now (see
# stress_tui/terminal/layout.py): for rows of ``row_size`` piles, player 1 at the top.


def table_layout(s: Screenful, row_size: int = 4) -> Layout:
    """The table's layout at the session's size (the table must fit)."""
    lay = layout(s.cols, s.rows, row_size)
    assert lay is not None, f"no table fits {s.cols}x{s.rows}"
    return lay


def card_label(s: Screenful, y: int, x: int, lay: Layout | None = None) -> str:
    """The label at the top left of the card drawn at (y, x): ``10♣``, or ``""``."""
    width = (lay or table_layout(s)).card_w
    return s.row(y)[x + 1 : x + width - 1].strip()


def pile_top(s: Screenful, target: int) -> str:
    """The top card of a play pile (0 the left, 1 the right), as labelled."""
    lay = table_layout(s)
    return card_label(s, lay.piles_y, lay.pile_x[target], lay)


def notice(s: Screenful, player: int) -> str:
    """The notice line beside a player's row."""
    return s.row(table_layout(s).notice_y[player]).strip()


def banner(s: Screenful) -> str:
    """The banner line between the rows."""
    return s.row(table_layout(s).banner_y).strip()


def draw_count(s: Screenful, player: int) -> int:
    """The size of a player's draw pile, as said beside the row."""
    words = s.row(table_layout(s).rows_y[player] + 1).split()
    return int(words[words.index("draw") + 1])
