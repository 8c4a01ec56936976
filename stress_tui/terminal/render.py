"""The screen: the table drawn from the game's state and events, as a grid of styled cells.

Nothing here decides a rule; it asks the engine (``Game``, ``Table``) and shows what
happened (``Notices``, built from events). ``render`` returns one frame as rows of cells;
``encode`` turns the difference between two frames into the text to write, so that only
the cells that changed are sent. The game draws on a ``FrameCanvas``, which keeps the last
frame and draws again only the pieces and rows that changed. The app owns the terminal;
this module only reads the ``blessed.Terminal`` for its sequences and for the width of
glyphs.

Layout, from the top: a title line; player 1's row (name, draw pile and match score
beside it, the keys that play each pile under it, then a line for that player's notices);
the two play piles with their sizes and the "1 2 3" countdown between them; the banner
line; player 2's notices, row and keys. Cards grow with the terminal.
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import compress, count
from operator import ne
from typing import TYPE_CHECKING, ClassVar, cast

from stress_tui.core.cards import RANK_NAMES, Card, Suit
from stress_tui.core.engine import (
    CallStress,
    Event,
    FalseStressCalled,
    FlipAgreed,
    Flipped,
    Game,
    Phase,
    PilesRecycled,
    PilesTaken,
    Play,
    Played,
    ReadyNoted,
    ReadyToFlip,
    Rejected,
    RejectReason,
    RoundWon,
    Stalled,
    StopDeclared,
    StopStress,
    StressStopped,
    StressWon,
    TableDead,
)
from stress_tui.core.rules import FalseStress, Rules
from stress_tui.core.rulestext import plain_words, short_line
from stress_tui.core.stats import PlayerStats, RoundStats
from stress_tui.core.table import Table
from stress_tui.terminal.keys import Intent, KeyMap, key_label

if TYPE_CHECKING:
    from blessed import Terminal

MIN_WIDTH = 60
"""Narrowest terminal the table is drawn in (with rows of up to four piles)."""
MIN_HEIGHT = 16
"""Lowest terminal the table is drawn in."""

NOTICE_SECONDS = 2.0
"""How long a rejected play or a stress result stays on screen (game seconds)."""

Cell = tuple[str, str]
"""One screen cell: its character (``""`` for the right half of a wide glyph) and the
SGR sequence it is drawn with (``""`` for plain)."""

Frame = list[list[Cell]]
"""A whole screen, row by row."""


_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def _style(term: Terminal, *parts: str) -> str:
    """One SGR sequence that resets and then sets ``parts`` (when they are all SGR)."""
    text = "".join(parts)
    if not text:
        return ""
    params = []
    pos = 0
    for match in _SGR.finditer(text):
        if match.start() != pos:
            return term.normal + text
        params.append(match.group(1) or "0")
        pos = match.end()
    if pos != len(text):
        return term.normal + text
    return "\x1b[0;" + ";".join(params) + "m"


class Palette:
    """The styles of everything on screen, for a terminal and the player's choices."""

    def __init__(self, term: Terminal, colour: bool = True, four_colour: bool = False) -> None:
        colours = term.number_of_colors if colour else 0
        self.colour = colours >= 8
        """Whether colours are used at all (not with ``NO_COLOR``)."""
        s = term
        bold, rev, dim = s.bold, s.reverse, s.dim

        def fg(rich: int, basic: int) -> str:
            return str(cast("Callable[[int], str]", s.color)(rich if colours >= 256 else basic))

        def bg(rich: int, basic: int) -> str:
            paint = cast("Callable[[int], str]", s.on_color)
            return str(paint(rich if colours >= 256 else basic))

        if self.colour:
            face = bg(231, 7)
            self.card_face = _style(s, face)
            black = _style(s, fg(16, 0), face)
            red = _style(s, fg(160, 1), face)
            self.suit_styles = {
                Suit.SPADES: black,
                Suit.HEARTS: red,
                Suit.CLUBS: _style(s, fg(28, 2), face) if four_colour else black,
                Suit.DIAMONDS: _style(s, fg(20, 4), face) if four_colour else red,
            }
            self.joker = _style(s, bold, fg(90, 5), face)
            self.slot = _style(s, fg(242, 7))
            self.title = _style(s, bold, rev)
            self.names = (_style(s, bold, fg(45, 6)), _style(s, bold, fg(220, 3)))
            self.hint = _style(s, fg(250, 7))
            self.hint_key = _style(s, bold, fg(231, 7))
            self.warn = _style(s, bold, fg(208, 3))
            self.info = _style(s, fg(117, 6))
            self.good = _style(s, bold, fg(120, 2))
            self.banner = _style(s, bold)
            self.stress = _style(s, bold, fg(231, 7), bg(160, 1))
            self.count = _style(s, bold, fg(226, 3))
            self.panel = _style(s, fg(231, 7), bg(24, 4))
            self.panel_title = _style(s, bold, fg(226, 3), bg(24, 4))
            self.panel_key = _style(s, bold, fg(231, 7), bg(24, 4))
        else:
            self.card_face = _style(s, rev)
            card = _style(s, rev)
            self.suit_styles = dict.fromkeys(Suit, card)
            self.joker = _style(s, bold, rev)
            self.slot = _style(s, dim)
            self.title = _style(s, bold, rev)
            self.names = (_style(s, bold), _style(s, bold))
            self.hint = ""
            self.hint_key = _style(s, bold)
            self.warn = _style(s, bold)
            self.info = ""
            self.good = _style(s, bold)
            self.banner = _style(s, bold)
            self.stress = _style(s, bold, rev)
            self.count = _style(s, bold)
            self.panel = _style(s, rev)
            self.panel_title = _style(s, bold, rev)
            self.panel_key = _style(s, bold, rev)
        self.plain = ""


# ----------------------------------------------------------------------------- canvas


@dataclass
class RenderCache:
    """What one terminal's frames can share: glyph widths, styled text, drawn cards. Keep
    one for the whole game and hand it to every frame's ``Canvas``."""

    widths: dict[str, int] = field(default_factory=dict)
    """Columns of each non-ASCII character, as the terminal measures it."""
    cells: dict[tuple[str, str], tuple[Cell, ...] | None] = field(default_factory=dict)
    """Text and style -> its cells (``None`` when it holds a wide or zero-width glyph)."""
    sprites: dict[tuple[object, ...], list[list[Cell]]] = field(default_factory=dict)
    """Drawn cards by what they show."""
    moves: dict[tuple[int, int], str] = field(default_factory=dict)
    """The cursor move to each (row, column)."""
    csi_moves: bool | None = None
    """Whether the terminal moves the cursor with ``CSI row;col H`` (``None``: not asked)."""
    switches: dict[tuple[str, str], str] = field(default_factory=dict)
    """From one style to another: the sequence that does it."""

    cells_limit: ClassVar[int] = 1024
    """Past this many texts, ``trim`` forgets them all."""
    sprites_limit: ClassVar[int] = 256
    """Past this many drawn pieces, ``trim`` forgets them all."""

    def trim(self) -> None:
        """Forget the texts or the pieces if a long round has made many (scores and counts
        keep changing)."""
        if len(self.cells) > self.cells_limit:
            self.cells.clear()
        if len(self.sprites) > self.sprites_limit:
            self.sprites.clear()

    def new_round(self) -> None:
        """Forget what only one round shows (its cards, counts, times and the result
        screen's figures), so that a long match keeps no more than one round's worth.
        What belongs to the terminal (glyph widths, cursor moves, style changes) stays."""
        self.cells.clear()
        self.sprites.clear()


class Canvas:
    """A frame being drawn: text is put at a row and column with a style."""

    def __init__(
        self,
        width: int,
        height: int,
        measure: Callable[[str], int],
        cache: RenderCache | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.measure = measure
        """The terminal's idea of a character's width (``Terminal.length``)."""
        self.rows: Frame = [[(" ", "")] * width for _ in range(height)]
        self.cache = RenderCache() if cache is None else cache
        """Shared with other frames of the same terminal."""

    def char_width(self, ch: str) -> int:
        """Columns a character takes (1 for ASCII; measured by the terminal otherwise)."""
        if ch < "\x7f":
            return 1
        widths = self.cache.widths
        width = widths.get(ch)
        if width is None:
            width = max(0, self.measure(ch))
            widths[ch] = width
        return width

    def text_width(self, text: str) -> int:
        """Columns ``text`` takes."""
        if text.isascii():
            return len(text)
        return sum(self.char_width(ch) for ch in text)

    def _cells(self, text: str, style: str) -> tuple[Cell, ...] | None:
        """``text`` as cells, if every character takes one column."""
        key = (text, style)
        cells = self.cache.cells.get(key, ())
        if cells == ():
            if text.isascii() or all(self.char_width(ch) == 1 for ch in text):
                cells = tuple((ch, style) for ch in text)
            else:
                cells = None
            self.cache.cells[key] = cells
        return cells

    def put(self, y: int, x: int, text: str, style: str = "") -> int:
        """Write ``text`` from column ``x`` (clipped at the edges); return the column after
        it."""
        cells = self._cells(text, style)
        if cells is not None:
            self.blit(y, x, cells)
            return x + len(cells)
        if not 0 <= y < self.height:
            return x + self.text_width(text)
        row = self.rows[y]
        width = self.width
        for ch in text:
            w = self.char_width(ch)
            if w == 0:
                continue
            if x >= 0 and x + w <= width:
                if row[x][0] == "" and x > 0:
                    row[x - 1] = (" ", row[x - 1][1])  # half of a wide glyph overwritten
                row[x] = (ch, style)
                if w == 2:
                    row[x + 1] = ("", style)
                elif x + 1 < width and row[x + 1][0] == "":
                    row[x + 1] = (" ", style)
            x += w
        return x

    def blit(self, y: int, x: int, cells: Sequence[Cell]) -> None:
        """Copy cells (as drawn on another canvas) to row ``y`` from column ``x``."""
        if not 0 <= y < self.height:
            return
        width = self.width
        row = self.rows[y]
        n = len(cells)
        end = x + n
        if (
            n
            and x >= 0
            and end <= width
            and cells[0][0]
            and row[x][0]
            and (end == width or row[end][0])
        ):  # inside the screen, no wide glyph cut in two: the common case
            row[x:end] = cells
            return
        start, end = max(x, 0), min(end, width)
        if start >= end:
            return
        if row[start][0] == "" and start > 0:
            row[start - 1] = (" ", row[start - 1][1])  # half of a wide glyph
        if cells[start - x][0] == "":
            row[start] = (" ", cells[start - x][1])
            start += 1
        if end < width and row[end][0] == "":
            row[end] = (" ", row[end][1])
        if end < x + len(cells) and end > start and cells[end - 1 - x][0] != "":
            last = end - 1 - x
            if last + 1 < len(cells) and cells[last + 1][0] == "":
                row[end - 1] = (" ", cells[last][1])  # a wide glyph cut by the edge
                end -= 1
        row[start:end] = cells[start - x : end - x]

    def sprite(
        self,
        key: tuple[object, ...],
        width: int,
        height: int,
        draw: Callable[[Canvas], None],
    ) -> list[list[Cell]]:
        """A small drawing, made once by ``draw`` on a canvas of its own and kept by
        ``key``."""
        rows = self.cache.sprites.get(key)
        if rows is None:
            small = Canvas(width, height, self.measure, self.cache)
            draw(small)
            rows = small.rows
            self.cache.sprites[key] = rows
        return rows

    def piece(self, key: tuple[object, ...], draw: Callable[[], None]) -> None:
        """A part of the frame, drawn on this canvas by ``draw``, that is the same
        whenever ``key`` is (``FrameCanvas`` then puts it back without drawing it)."""
        draw()

    def blit_rows(self, y: int, x: int, rows: Sequence[Sequence[Cell]]) -> None:
        """Copy a drawing's rows (as drawn on another canvas), the first to row ``y``, from
        column ``x``."""
        for dy, cells in enumerate(rows):
            self.blit(y + dy, x, cells)

    def frame(self) -> Frame:
        """The rows drawn, once everything is on the canvas."""
        return self.rows

    def fill(self, y: int, x: int, width: int, style: str, ch: str = " ") -> None:
        """Fill ``width`` cells from column ``x`` with ``ch`` in ``style``."""
        self.blit(y, x, [(ch, style)] * width)

    def put_centered(self, y: int, x: int, width: int, text: str, style: str = "") -> None:
        """Write ``text`` centred in the ``width`` columns from ``x`` (cut if too long)."""
        text = self.clip(text, width)
        self.put(y, x + (width - self.text_width(text)) // 2, text, style)

    def clip(self, text: str, width: int) -> str:
        """``text`` cut to ``width`` columns."""
        if self.text_width(text) <= width:
            return text
        out, used = [], 0
        for ch in text:
            w = self.char_width(ch)
            if used + w > width:
                break
            out.append(ch)
            used += w
        return "".join(out)


Stroke = tuple[int, Sequence[Cell]] | tuple[int, str, str]
"""One thing put on a row: ``(x, cells)`` copied there, or ``(x, text, style)`` written
there (text holding a wide or zero-width glyph)."""


class FrameCanvas(Canvas):
    """A canvas kept from frame to frame, which draws again only what changes.

    ``render`` puts the whole table on it every frame, as on any canvas, but each stroke is
    only noted, row by row. A piece (``piece``) whose key is the same as in the last frame
    is not drawn again: its strokes from then are noted once more. ``frame()`` then draws a
    row afresh (on blank cells, stroke by stroke, as ``Canvas`` would) only if its strokes
    differ from the last frame's, and hands back the last frame's row otherwise. A play
    that moves one card thus draws the pieces it changed and the rows they cover, not the
    screen. It keeps one frame (its rows, strokes and pieces), so it holds no more than
    the screen, however long the match. A canvas is drawn with one palette.
    """

    def __init__(
        self,
        width: int,
        height: int,
        measure: Callable[[str], int],
        cache: RenderCache | None = None,
    ) -> None:
        super().__init__(width, height, measure, cache)
        self.strokes: list[list[Stroke]] = [[] for _ in range(height)]
        """What this frame has put on each row so far."""
        self.last_strokes: list[list[Stroke]] | None = None
        """What the last frame put on each row (``None``: no frame yet)."""
        self.last_rows: Frame = self.rows
        """The last frame's rows, as drawn from ``last_strokes``."""
        self.pieces: list[tuple[tuple[object, ...], list[tuple[int, Stroke]]]] = []
        """This frame's pieces so far, in order: key, and the strokes (row, stroke) that
        drew it."""
        self.last_pieces: list[tuple[tuple[object, ...], list[tuple[int, Stroke]]]] = []
        """The last frame's pieces (a piece is matched with the one drawn in the same
        place in the order, so that keys are compared, never hashed)."""
        self.noting: list[tuple[int, Stroke]] | None = None
        """The strokes of the piece being drawn, if one is."""

    def put(self, y: int, x: int, text: str, style: str = "") -> int:
        cells = self._cells(text, style)
        if cells is not None:
            self.blit(y, x, cells)
            return x + len(cells)
        if 0 <= y < self.height:
            self._note(y, (x, text, style))
        return x + self.text_width(text)

    def blit(self, y: int, x: int, cells: Sequence[Cell]) -> None:
        if 0 <= y < self.height:
            self._note(y, (x, cells))

    def blit_rows(self, y: int, x: int, rows: Sequence[Sequence[Cell]]) -> None:
        strokes, noting = self.strokes, self.noting
        for cells in rows:
            if 0 <= y < self.height:
                stroke = (x, cells)
                strokes[y].append(stroke)
                if noting is not None:
                    noting.append((y, stroke))
            y += 1

    def _note(self, y: int, stroke: Stroke) -> None:
        self.strokes[y].append(stroke)
        if self.noting is not None:
            self.noting.append((y, stroke))

    def piece(self, key: tuple[object, ...], draw: Callable[[], None]) -> None:
        n = len(self.pieces)
        last = self.last_pieces
        if n < len(last) and last[n][0] == key:
            strokes = last[n][1]
            rows = self.strokes
            for y, stroke in strokes:
                rows[y].append(stroke)
            if self.noting is not None:
                self.noting += strokes
        else:
            outer, self.noting = self.noting, []
            try:
                draw()
                strokes = self.noting
            finally:
                self.noting = outer
            if outer is not None:  # a piece within a piece: part of both
                outer += strokes
        self.pieces.append((key, strokes))

    def frame(self) -> Frame:
        last = self.last_strokes
        rows = list(self.last_rows)
        self.rows = rows
        width = self.width
        blank: Cell = (" ", "")
        for y, strokes in enumerate(self.strokes):
            if last is not None and strokes == last[y]:
                continue  # drawn the same as last time
            row = rows[y] = [blank] * width  # a new list: the last frame's rows stay as they are
            for stroke in strokes:
                if len(stroke) == 3:
                    Canvas.put(self, y, stroke[0], stroke[1], stroke[2])
                    continue
                x, cells = stroke
                end = x + len(cells)
                if (
                    x >= 0
                    and end <= width
                    and cells
                    and cells[0][0]
                    and row[x][0]
                    and (end == width or row[end][0])
                ):  # Canvas.blit's common case, without the call
                    row[x:end] = cells
                else:
                    Canvas.blit(self, y, x, cells)
        self.last_strokes, self.last_rows = self.strokes, rows
        self.strokes = [[] for _ in range(self.height)]
        self.last_pieces, self.pieces = self.pieces, []
        return rows


def plain_lines(frame: Frame) -> list[str]:
    """A frame as plain text, one string a row (what a player would read)."""
    return ["".join(ch for ch, _ in row) for row in frame]


def encode(
    old: Frame | None,
    new: Frame,
    term: Terminal,
    clear: str = "",
    gap: int = 4,
    cache: RenderCache | None = None,
) -> str:
    """What to write to turn the screen showing ``old`` into ``new``: only the runs of cells
    that changed, each after a cursor move (runs closer than ``gap`` cells are joined).
    ``old=None`` draws everything that is not blank, after ``clear``.

    The runs are written in an order that keeps a style on as long as there are runs in
    it (a move does not change the style), so that a play's few cards take one colour
    change, not one per card: fewer bytes for the terminal to read."""
    out: list[str] = []
    if old is None or len(old) != len(new) or (new and len(old[0]) != len(new[0])):
        out.append(clear)
        blank: Cell = (" ", "")
        old = [[blank] * len(row) for row in new]
    runs = _runs(old, new, gap)
    if not runs:
        return "".join(out)
    moves = cache.moves if cache is not None else {}
    switches = cache.switches if cache is not None else {}
    normal = term.normal
    current = ""
    for y, start, end in _by_style(runs, new):
        move = moves.get((y, start))
        if move is None:
            move = moves[y, start] = _move(term, y, start, cache)
        out.append(move)
        for ch, style in new[y][start:end]:
            if not ch:
                continue
            if style != current:
                out.append(_switch(current, style, normal, switches))
                current = style
            out.append(ch)
    if current:
        out.append(normal)
    return "".join(out)


Run = tuple[int, int, int]
"""Cells that changed: a row and the columns from ``start`` up to ``end``."""


def _runs(old: Frame, new: Frame, gap: int) -> list[Run]:
    """The runs of cells that differ, row by row, left to right (runs closer than ``gap``
    cells joined; a wide glyph never cut in two)."""
    runs: list[Run] = []
    for y, (before, after) in enumerate(zip(old, new, strict=True)):
        if before is after or before == after:
            continue
        width = len(after)
        changed = _changed(before, after)
        i, count, x = 0, len(changed), 0
        while i < count:
            start = last = changed[i]
            i += 1
            if start < x:
                continue  # already written with the run before (a wide glyph's half)
            while i < count and changed[i] - last <= gap:
                last = changed[i]
                i += 1
            if after[start][0] == "" and start > 0:
                start -= 1
            end = last + 1
            if end < width and after[end][0] == "":
                end += 1
            runs.append((y, start, end))
            x = end
    return runs


def _by_style(runs: list[Run], new: Frame) -> list[Run]:
    """The runs in the order to write them: after each run, the next one (in screen order)
    that begins in the style the last one ended in, if any is left; else the first left."""
    if len(runs) < 2:
        return runs
    waiting: dict[str, list[int]] = {}
    for i, (y, start, end) in enumerate(runs):
        waiting.setdefault(_first_style(new[y], start, end), []).append(i)
    for indices in waiting.values():
        indices.reverse()  # popped from the end: screen order
    done = [False] * len(runs)
    order: list[Run] = []
    first_left = 0
    style = ""
    for _ in runs:
        queue = waiting.get(style)
        while queue and done[queue[-1]]:
            queue.pop()
        if queue:
            i = queue.pop()
        else:
            while done[first_left]:
                first_left += 1
            i = first_left
        done[i] = True
        y, start, end = runs[i]
        order.append(runs[i])
        style = _last_style(new[y], start, end, style)
    return order


def _first_style(row: list[Cell], start: int, end: int) -> str:
    """The style of the first cell a run writes."""
    for ch, style in row[start:end]:
        if ch:
            return style
    return ""


def _last_style(row: list[Cell], start: int, end: int, before: str) -> str:
    """The style in effect after writing a run, ``before`` having been in effect."""
    for x in range(end - 1, start - 1, -1):
        ch, style = row[x]
        if ch:
            return style
    return before


def _changed(before: Sequence[Cell], after: Sequence[Cell]) -> list[int]:
    """The columns where two rows differ (compared cell by cell without a Python loop)."""
    return list(compress(count(), map(ne, before, after)))


_SGR_OFF = {"bold": "22", "dim": "22", "reverse": "27", "underline": "24", "fg": "39", "bg": "49"}


def _sgr_attributes(style: str) -> dict[str, str] | None:
    """What a style made by ``_style`` sets, by attribute (``None``: something else)."""
    if not style:
        return {}
    if not (style.startswith("\x1b[0;") and style.endswith("m")):
        return None
    params = style[4:-1].split(";")
    attributes: dict[str, str] = {}
    i = 0
    while i < len(params):
        p = params[i]
        if p in ("38", "48") and i + 2 < len(params) and params[i + 1] == "5":
            attributes["fg" if p == "38" else "bg"] = ";".join(params[i : i + 3])
            i += 3
            continue
        if p.isdigit() and (30 <= int(p) <= 37 or 90 <= int(p) <= 97):
            attributes["fg"] = p
        elif p.isdigit() and (40 <= int(p) <= 47 or 100 <= int(p) <= 107):
            attributes["bg"] = p
        elif p in ("1", "2", "4", "7"):
            attributes[{"1": "bold", "2": "dim", "4": "underline", "7": "reverse"}[p]] = p
        else:
            return None
        i += 1
    return attributes


def _switch(old: str, new: str, normal: str, cache: dict[tuple[str, str], str]) -> str:
    """The shortest way from one style to the next: only what changes, when both are
    plain SGR styles; else a reset and the whole new style."""
    found = cache.get((old, new))
    if found is not None:
        return found
    full = new or normal
    before, after = _sgr_attributes(old), _sgr_attributes(new)
    switch = full
    if before is not None and after is not None:
        codes = []
        lost = [name for name in before if name not in after]
        if any(name in ("bold", "dim") for name in lost):  # 22 turns off both
            codes.append("22")
            codes += [after[name] for name in ("bold", "dim") if name in after]
        codes += [_SGR_OFF[name] for name in lost if name not in ("bold", "dim")]
        codes += [
            value
            for name, value in after.items()
            if before.get(name) != value and name not in ("bold", "dim")
        ]
        codes += [
            after[name]
            for name in ("bold", "dim")
            if name in after and name not in before and "22" not in codes
        ]
        delta = "\x1b[" + ";".join(codes) + "m"
        if len(delta) < len(full):
            switch = delta
    cache[old, new] = switch
    return switch


def _move(term: Terminal, y: int, x: int, cache: RenderCache | None) -> str:
    """The cursor move to (y, x). Asking terminfo takes a third of a millisecond; when the
    terminal's moves are the usual ``CSI row;col H``, they are written directly."""
    csi = cache.csi_moves if cache is not None else None
    if csi is None:
        csi = str(term.move_yx(4, 9)) == "\x1b[5;10H" and str(term.move_yx(0, 0)) == "\x1b[1;1H"
        if cache is not None:
            cache.csi_moves = csi
    return f"\x1b[{y + 1};{x + 1}H" if csi else str(term.move_yx(y, x))


# ----------------------------------------------------------------------------- notices


@dataclass
class Notice:
    """A line of text shown for a while."""

    text: str
    """What it says."""
    kind: str = "info"
    """``info``, ``warn``, ``good``: how it is styled."""
    until: float | None = None
    """Game time it disappears (``None``: until replaced)."""
    sticky_until_flip: bool = False
    """Cleared by the next flip (ready, stall, stop)."""


def _rank(card: Card) -> str:
    return "joker" if card.is_joker else RANK_NAMES[card.rank]


@dataclass
class Notices:
    """What happened lately, in words, per player and for the table (from events only)."""

    names: tuple[str, str] = ("Player 1", "Player 2")
    """Who is who."""
    player: list[Notice | None] = field(default_factory=lambda: [None, None])
    """The line next to each player's row."""
    headline: Notice | None = None
    """The banner line between the rows."""

    def note(self, events: Iterable[Event], now: float, game: Game) -> None:
        """Turn events (just applied to ``game`` at ``now``) into notices."""
        events = list(events)
        taken = {e.player: e.count for e in events if isinstance(e, PilesTaken)}
        names = self.names
        for event in events:
            if isinstance(event, Played):
                self.player[event.player] = None
            elif isinstance(event, Rejected) and event.player is not None:
                self.player[event.player] = Notice(
                    self._rejection(event, game), "warn", now + NOTICE_SECONDS
                )
            elif isinstance(event, ReadyNoted):
                other = names[1 - event.player]
                self.player[event.player] = Notice(
                    f"ready to flip (waiting for {other})", "info", sticky_until_flip=True
                )
            elif isinstance(event, StopDeclared):
                self.player[event.player] = Notice(
                    "stress stop: the other's next stress does not count",
                    "info",
                    sticky_until_flip=True,
                )
            elif isinstance(event, StressStopped):
                self.headline = Notice(
                    f"{names[event.by]} stopped the stress", "good", now + NOTICE_SECONDS
                )
            elif isinstance(event, StressWon):
                count = taken.get(event.loser, 0)
                self.headline = Notice(
                    f"{names[event.winner]} called stress first: "
                    f"{names[event.loser]} takes {count} cards",
                    "good",
                    now + NOTICE_SECONDS + 1.0,
                )
                self.player[event.winner] = Notice("stress won!", "good", now + NOTICE_SECONDS)
                self.player[event.loser] = Notice(
                    f"too slow: takes {count} cards", "warn", now + NOTICE_SECONDS
                )
            elif isinstance(event, FalseStressCalled):
                who = event.player
                if event.penalty is FalseStress.TAKE:
                    count = taken.get(who, 0)
                    text = f"no stress! takes {count} cards"
                    self.headline = Notice(
                        f"{names[who]} called a false stress and takes {count} cards",
                        "warn",
                        now + NOTICE_SECONDS,
                    )
                elif event.penalty is FalseStress.LOCKOUT:
                    text = "no stress!"
                else:
                    text = "no stress (no penalty)"
                self.player[who] = Notice(text, "warn", now + NOTICE_SECONDS)
            elif isinstance(event, Stalled):
                self.headline = Notice(
                    "Nobody can play: new cards on three", "info", sticky_until_flip=True
                )
            elif isinstance(event, FlipAgreed):
                self.headline = Notice(
                    "Both ready: new cards on three", "info", sticky_until_flip=True
                )
            elif isinstance(event, PilesRecycled):
                self.headline = Notice(
                    "Both draw piles are empty: each takes a play pile",
                    "info",
                    now + NOTICE_SECONDS + 1.0,
                )
            elif isinstance(event, Flipped):
                self._clear_sticky()
            elif isinstance(event, RoundWon):
                self.headline = Notice(f"{names[event.player]} wins the round!", "good")
            elif isinstance(event, TableDead):
                self.headline = Notice("12 flips and no card played: the table is dead", "warn")

    def _rejection(self, event: Rejected, game: Game) -> str:
        action = event.action
        reason = event.reason
        if (
            isinstance(action, Play)
            and reason is RejectReason.NOT_ADJACENT
            and game.state.players[action.player].row[action.pile]
        ):
            card = game.state.players[action.player].row[action.pile][0]
            top = game.top(action.target)
            if top is not None:
                return f"{_rank(card)} on {_rank(top)}: {reason.value}"
        if isinstance(action, CallStress):
            return f"stress: {reason.value}"
        if isinstance(action, ReadyToFlip):
            return f"ready: {reason.value}"
        if isinstance(action, StopStress):
            return f"stress stop: {reason.value}"
        return reason.value

    def _clear_sticky(self) -> None:
        for i, notice in enumerate(self.player):
            if notice is not None and notice.sticky_until_flip:
                self.player[i] = None
        if self.headline is not None and self.headline.sticky_until_flip:
            self.headline = None

    def expire(self, now: float) -> bool:
        """Drop notices whose time is up; whether anything went."""
        changed = False
        for i, notice in enumerate(self.player):
            if notice is not None and notice.until is not None and notice.until <= now:
                self.player[i] = None
                changed = True
        headline = self.headline
        if headline is not None and headline.until is not None and headline.until <= now:
            self.headline = None
            changed = True
        return changed

    def next_expiry(self) -> float | None:
        """When the next notice disappears."""
        times = [n.until for n in (*self.player, self.headline) if n and n.until is not None]
        return min(times) if times else None

    def clear(self) -> None:
        """Forget everything (a new round)."""
        self.player = [None, None]
        self.headline = None


# ----------------------------------------------------------------------------- layout


CARD_SIZES = ((7, 11), (5, 9), (3, 7))
"""Card heights and widths, largest first."""


@dataclass(frozen=True)
class Layout:
    """Where everything goes on a screen of a given size."""

    width: int
    height: int
    card_h: int
    card_w: int
    gap: int
    """Columns between row piles."""
    info_w: int
    """Columns of the name/draw/score block left of each row."""
    row_x: int
    """Column of the first row pile."""
    title_y: int
    rows_y: tuple[int, int]
    """Top line of each player's cards."""
    hints_y: tuple[int, int]
    notice_y: tuple[int, int]
    piles_y: int
    banner_y: int
    pile_x: tuple[int, int]
    """Columns of the left and right play piles."""


def _row_width(row_size: int, card_w: int, gap: int) -> int:
    return row_size * card_w + (row_size - 1) * gap


INFO_W = 24


def minimum_size(row_size: int) -> tuple[int, int]:
    """The smallest (width, height) the table fits in."""
    card_h, card_w = CARD_SIZES[-1]
    return max(MIN_WIDTH, INFO_W + _row_width(row_size, card_w, 2) + 2), max(
        MIN_HEIGHT, 3 * card_h + 7
    )


@functools.lru_cache(maxsize=16)
def layout(width: int, height: int, row_size: int) -> Layout | None:
    """Lay the table out, with the largest cards that fit; ``None`` if it does not fit.
    Kept for the last few sizes: every frame asks, and the answer is the same object, which
    drawn pieces compare at no cost."""
    min_w, min_h = minimum_size(row_size)
    if width < min_w or height < min_h:
        return None
    for card_h, card_w in CARD_SIZES:
        need_h = 3 * card_h + 7
        spare_h = height - need_h
        if card_h > CARD_SIZES[-1][0] and spare_h < 2:
            continue
        gap = 3 if card_h > 3 else 2
        row_w = _row_width(row_size, card_w, gap)
        if INFO_W + row_w + 2 > width:
            continue
        if spare_h < 0:
            continue
        break
    else:  # pragma: no cover - the smallest size always fits past the minimum check
        return None
    # Spread the spare rows: first between the rows and the middle, then around.
    spacers = [0, 0, 0, 0]  # after title, above middle, below middle, at the bottom
    order = [1, 2, 1, 2, 1, 2, 0, 3]
    for i in range(spare_h):
        spacers[order[i] if i < len(order) else (0 if i % 2 == 0 else 3)] += 1
    y = 0
    title_y = y
    y += 1 + spacers[0]
    p1_cards = y
    y += card_h
    p1_hints = y
    y += 1
    p1_notice = y
    y += 1 + spacers[1]
    piles_y = y
    y += card_h
    banner_y = y
    y += 1 + spacers[2]
    p2_notice = y
    y += 1
    p2_cards = y
    y += card_h
    p2_hints = y
    row_w = _row_width(row_size, card_w, gap)
    free = width - INFO_W - row_w
    row_x = INFO_W + max(1, free // 2 - 2)
    centre = row_x + row_w // 2
    between = 11
    left_x = centre - between // 2 - card_w
    right_x = centre + (between - between // 2)
    return Layout(
        width,
        height,
        card_h,
        card_w,
        gap,
        INFO_W,
        row_x,
        title_y,
        (p1_cards, p2_cards),
        (p1_hints, p2_hints),
        (p1_notice, p2_notice),
        piles_y,
        banner_y,
        (left_x, right_x),
    )


# ----------------------------------------------------------------------------- the view


class Overlay:
    """What is drawn over the table."""

    HELP = "help"
    PAUSE = "pause"
    RESULT = "result"


@dataclass
class Result:
    """The end of a round, for the result screen."""

    winner: int | None
    """Who won the round (``None``: drawn on a dead table)."""
    match_over: bool
    """Whether that round won the match."""
    keys_live: bool = False
    """Whether the result screen takes keys yet (a moment after the round ends)."""
    stats: RoundStats | None = None
    """Both players' statistics of the round."""
    notes: tuple[str, ...] = ()
    """Lines about the round's files: where its replay went, what could not be saved."""
    headline: str | None = None
    """Said instead of who won (a replay that stops before the end)."""
    again: str | None = None
    """What Enter does instead of the next round (a replay: watch it again)."""


@dataclass(frozen=True)
class ReplayBar:
    """What the title line says while a replay is watched."""

    speed: float
    """Seconds of the round per second watched."""
    paused: bool
    """Whether the replay is stopped (Space goes on, Right steps)."""
    done: int
    """Recorded actions shown so far."""
    total: int
    """Recorded actions in the file."""


@dataclass
class View:
    """Everything one frame shows; gathered by the app, read by ``render``."""

    table: Table
    """The round, its countdown and its computer players."""
    now: float
    """The game time of the frame."""
    keymap: KeyMap
    """Who presses what."""
    notices: Notices
    """What happened lately."""
    names: tuple[str, str] = ("Player 1", "Player 2")
    """The players' names."""
    kinds: tuple[str, str] = ("human", "human")
    """``human`` or ``bot:LEVEL`` per side."""
    score: tuple[int, int] = (0, 0)
    """Rounds won in this match."""
    overlay: str | None = None
    """``Overlay.HELP``, ``PAUSE``, ``RESULT`` or nothing."""
    result: Result | None = None
    """The round's end, for the result screen."""
    seed: int | None = None
    """The match's seed (shown on the result screen)."""
    ascii: bool = False
    """Suits as letters."""
    help_offset: int = 0
    """The first line of the help shown (it scrolls when it does not fit)."""
    replay: ReplayBar | None = None
    """A replay being watched (``None``: a game being played)."""

    @property
    def game(self) -> Game:
        """The round."""
        return self.table.game

    @property
    def rules(self) -> Rules:
        """The rules in play."""
        return self.table.game.rules


def render(view: View, palette: Palette, canvas: Canvas) -> Frame:
    """Draw ``view`` on ``canvas`` (a blank canvas of the screen's size); return its rows."""
    lay = layout(canvas.width, canvas.height, view.rules.row_size)
    if lay is None:
        _too_small(view, palette, canvas)
        return canvas.frame()
    _title(view, palette, canvas, lay)
    for player in (0, 1):
        _player(view, palette, canvas, lay, player)
    _middle(view, palette, canvas, lay)
    if view.overlay == Overlay.HELP:
        _help(view, palette, canvas)
    elif view.overlay == Overlay.PAUSE:
        _pause(view, palette, canvas)
    elif view.overlay == Overlay.RESULT and view.result is not None:
        _result(view, palette, canvas)
    return canvas.frame()


def _too_small(view: View, palette: Palette, canvas: Canvas) -> None:
    min_w, min_h = minimum_size(view.rules.row_size)
    lines = [
        ("Make the window larger", palette.warn),
        (f"the table needs {min_w}x{min_h}, this is {canvas.width}x{canvas.height}", ""),
        ("(the round is paused)", ""),
    ]
    top = max(0, (canvas.height - len(lines)) // 2)
    for i, (text, style) in enumerate(lines):
        if canvas.width < canvas.text_width(text):
            words = {0: "Too small", 1: f"need {min_w}x{min_h}", 2: "paused"}
            text = words[i]
        canvas.put_centered(top + i, 0, canvas.width, text, style)


def _title(view: View, palette: Palette, canvas: Canvas, lay: Layout) -> None:
    """The title line: the game, the rules in play, the keys everyone has."""
    if view.replay is not None:
        _replay_title(view, view.replay, palette, canvas, lay)
        return
    key = ("title", canvas.width, view.rules, view.keymap, palette.title, palette.hint)
    rows = canvas.sprite(key, canvas.width, 1, lambda c: _draw_title(view, palette, c))
    canvas.blit(lay.title_y, 0, rows[0])


def _replay_title(
    view: View, bar: ReplayBar, palette: Palette, canvas: Canvas, lay: Layout
) -> None:
    """A replay's title line: that it is one, who played, how fast it runs, whether it is
    paused, the rules; the keys on the right."""
    y = lay.title_y
    keys = "Spc go on  Rt step  q quit" if bar.paused else "Spc pause  Rt step  q quit"
    x = canvas.put(y, 0, " REPLAY ", palette.title)
    state = f" x{bar.speed:g}  {bar.done}/{bar.total}"
    if bar.paused:
        x = canvas.put(y, x, state + "  ", palette.hint)
        x = canvas.put(y, x, "PAUSED", palette.warn)
    else:
        x = canvas.put(y, x, state, palette.hint)
    right = canvas.width - canvas.text_width(keys) - 1
    who = f"  {view.names[0]} v {view.names[1]}"
    room = right - x - 2
    if room > 8:
        x = canvas.put(y, x, canvas.clip(who, room), palette.plain)
    room = right - x - 4
    if room > 8:
        canvas.put(y, x + 2, canvas.clip(short_line(view.rules), room), palette.hint)
    canvas.put(y, right, keys, palette.hint)


def _draw_title(view: View, palette: Palette, canvas: Canvas) -> None:
    keys = view.keymap
    parts = []
    for intent, what in ((Intent.HELP, "help"), (Intent.PAUSE, "pause"), (Intent.QUIT, "quit")):
        key = keys.key_for(intent)
        if key is not None:
            parts.append(f"{key_label(key)} {what}")
    right = "  ".join(parts)
    x = canvas.put(0, 0, " STRESS ", palette.title)
    room = canvas.width - x - canvas.text_width(right) - 3
    if room > 8:
        canvas.put(0, x + 1, canvas.clip(short_line(view.rules), room), palette.hint)
    canvas.put(0, canvas.width - canvas.text_width(right) - 1, right, palette.hint)


def _suit_text(card: Card, ascii_only: bool) -> str:
    if card.suit is None:
        return "*"
    return card.suit.value if ascii_only else card.suit.symbol


def _card(
    canvas: Canvas,
    palette: Palette,
    lay: Layout,
    y: int,
    x: int,
    pile: Sequence[Card],
    ascii_only: bool,
) -> None:
    """A pile drawn as its top card (``pile[-1]``), with its size when it holds more (on a
    line of its own, kept apart from the card, so that a growing pile draws no new card)."""
    h, w = lay.card_h, lay.card_w
    if not pile:
        key: tuple[object, ...] = ("slot", h, w, palette.slot)
        rows = canvas.sprite(key, w, h, lambda c: _draw_slot(c, palette.slot))
    else:
        card = pile[-1]
        face = palette.card_face
        if card.is_joker:
            style, label, centre = palette.joker, "JK", "JOKER"
        else:
            assert card.suit is not None
            style = palette.suit_styles[card.suit]
            suit = _suit_text(card, ascii_only)
            label, centre = RANK_NAMES[card.rank] + suit, suit
        key = ("card", h, w, face, style, label, centre)
        rows = canvas.sprite(key, w, h, lambda c: _draw_card(c, face, style, label, centre))
        if len(pile) > 1:
            count = f"x{len(pile)}"
            line = canvas.sprite(
                ("count", w, face, style, count),
                w,
                1,
                lambda c: _draw_count(c, face, style, count),
            )
            rows = rows[:]
            rows[h // 2 + (h > 3)] = line[0]  # under the suit; on a small card, instead of it
    canvas.blit_rows(y, x, rows)


def warm_cards(
    cache: RenderCache,
    measure: Callable[[str], int],
    palette: Palette,
    lay: Layout,
    cards: Iterable[Card],
    ascii_only: bool = False,
) -> None:
    """Draw every card once ahead of time, so that no play waits for its card's drawing."""
    canvas = Canvas(lay.card_w, lay.card_h, measure, cache)
    _card(canvas, palette, lay, 0, 0, (), ascii_only)
    for card in set(cards):
        _card(canvas, palette, lay, 0, 0, (card,), ascii_only)


def _draw_slot(canvas: Canvas, style: str) -> None:
    """An empty place: dots at the corners."""
    w, h = canvas.width, canvas.height
    for y, x in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)):
        canvas.put(y, x, ".", style)


def _draw_card(canvas: Canvas, face: str, style: str, label: str, centre: str) -> None:
    """A card face: the label at two corners, the suit in the middle."""
    w, h = canvas.width, canvas.height
    for dy in range(h):
        canvas.fill(dy, 0, w, face)
    canvas.put(0, 1, label, style)
    canvas.put_centered(h // 2, 0, w, centre, style)
    canvas.put(h - 1, w - 1 - canvas.text_width(label), label, style)


def _draw_count(canvas: Canvas, face: str, style: str, count: str) -> None:
    """The line of a card that says how many cards its pile holds."""
    canvas.fill(0, 0, canvas.width, face)
    canvas.put_centered(0, 0, canvas.width, count, style)


def _hint(keys: KeyMap, player: int, pile: int) -> tuple[str, str] | None:
    left, right = keys.pile_keys(player, pile)
    if left is None and right is None:
        return None
    return (key_label(left) if left else "-", key_label(right) if right else "-")


def _player(view: View, palette: Palette, canvas: Canvas, lay: Layout, player: int) -> None:
    """A player's row (one piece, for what it shows), and the player's notice line."""
    state = view.game.state.players[player]
    tops = tuple((pile[-1], len(pile)) if pile else None for pile in state.row)
    key = (
        "player",
        player,
        lay,
        tops,
        len(state.draw_pile),
        view.score[player],
        view.rules,
        view.names[player],
        view.kinds[player],
        view.keymap,
        view.ascii,
    )
    canvas.piece(key, lambda: _player_row(view, palette, canvas, lay, player))
    _player_notice(view, palette, canvas, lay, player)


def _player_row(view: View, palette: Palette, canvas: Canvas, lay: Layout, player: int) -> None:
    """Each pile's top card, the keys under the row and the block beside it (the keys and
    the block drawn once for each thing they can show, and kept)."""
    state = view.game.state.players[player]
    y = lay.rows_y[player]
    for i, pile in enumerate(state.row):
        _card(canvas, palette, lay, y, lay.row_x + i * (lay.card_w + lay.gap), pile, view.ascii)
    keys_key = (
        "pile keys",
        player,
        canvas.width,
        lay.row_x,
        lay.card_w,
        lay.gap,
        len(state.row),
        view.keymap,
    )
    keys = canvas.sprite(
        keys_key,
        canvas.width,
        1,
        lambda c: _pile_keys(view.keymap, palette, c, lay, player, len(state.row)),
    )
    canvas.blit(y + lay.card_h, 0, keys[0])
    rules = view.rules
    info_key = (
        "player info",
        player,
        lay.card_h,
        lay.info_w,
        view.score[player],
        rules.wins,
        rules.stress_stop,
        view.names[player],
        view.kinds[player],
        view.keymap,
    )
    info = canvas.sprite(
        info_key, lay.info_w, lay.card_h, lambda c: _player_info(view, palette, c, lay, player)
    )
    canvas.blit_rows(y, 0, info)
    # The draw pile's count, which every play from it changes, on the line left for it.
    canvas.put(y + 1, 1, canvas.clip(_draw_line(view, lay, player), lay.info_w - 2), palette.plain)


def _pile_keys(
    keys: KeyMap, palette: Palette, canvas: Canvas, lay: Layout, player: int, piles: int
) -> None:
    """The keys that play each of a player's ``piles`` row piles, under them (one line)."""
    for i in range(piles):
        x = lay.row_x + i * (lay.card_w + lay.gap)
        hint = _hint(keys, player, i)
        if hint is None:
            continue
        left, right = hint
        text = f"<{left}" + " " * max(1, lay.card_w - len(left) - len(right) - 2) + f"{right}>"
        if len(text) <= lay.card_w:
            canvas.put(0, x, "<", palette.hint)
            canvas.put(0, x + 1, left, palette.hint_key)
            canvas.put(0, x + lay.card_w - 1 - len(right), right, palette.hint_key)
            canvas.put(0, x + lay.card_w - 1, ">", palette.hint)
        else:
            canvas.put_centered(0, x, lay.card_w, f"{left}/{right}", palette.hint_key)


def _player_info(view: View, palette: Palette, canvas: Canvas, lay: Layout, player: int) -> None:
    """Beside the row: name, score, the player's other keys, and a line left blank for the
    draw pile (``_draw_line``)."""
    keys = view.keymap
    name = view.names[player]
    kind = view.kinds[player]
    info_w = lay.info_w - 2
    lines: list[tuple[str, str]] = [(canvas.clip(name, info_w), palette.names[player])]
    if lay.card_h > 5:
        lines += [("", ""), (_wins(view, player), palette.plain), ("", "")]
    else:
        lines.append(("", ""))
    if kind.startswith("bot:"):
        lines.append((f"computer, {kind[4:]}", palette.info))
    else:
        extra = []
        for intent, what in (
            (Intent.STRESS, "stress"),
            (Intent.READY, "ready"),
            (Intent.STOP, "stop"),
        ):
            if intent is Intent.STOP and not view.rules.stress_stop:
                continue
            key = keys.key_for(intent, player)
            if key is not None:
                extra.append((what, key_label(key)))
        if lay.card_h > 3:
            lines += [(f"{what:<7}{key}", palette.hint) for what, key in extra]
        else:
            lines.append(("  ".join(f"{what} {key}" for what, key in extra), palette.hint))
    for dy, (text, style) in enumerate(lines[: max(lay.card_h, 3)]):
        canvas.put(dy, 1, canvas.clip(text, info_w), style)


def _wins(view: View, player: int) -> str:
    """A player's rounds won, out of the rounds that win the match."""
    return f"wins {view.score[player]}/{view.rules.wins}"


def _draw_line(view: View, lay: Layout, player: int) -> str:
    """The line under a player's name: the draw pile (and the score, beside small cards)."""
    draw = len(view.game.state.players[player].draw_pile)
    if lay.card_h > 5:
        return f"draw {draw}"
    return f"draw {draw:<3} {_wins(view, player)}"


def _player_notice(view: View, palette: Palette, canvas: Canvas, lay: Layout, player: int) -> None:
    """What just happened to the player (a rejected play, a lockout, ready to flip)."""
    game = view.game
    notice = view.notices.player[player]
    locked = game.is_locked(player, view.now) and game.phase is not Phase.ROUND_OVER
    text = notice.text if notice is not None else ""
    if locked and "locked out" not in text:
        text = f"{text}  (locked out)" if text else "locked out"
    if text:
        style = palette.warn
        if notice is not None and not locked:
            style = {"warn": palette.warn, "good": palette.good}.get(notice.kind, palette.info)
        canvas.put(
            lay.notice_y[player], lay.row_x, canvas.clip(text, canvas.width - lay.row_x), style
        )


def countdown_text(table: Table, now: float) -> str | None:
    """``1``, ``1 2``, ``1 2 3`` as the count before a flip runs (``None``: no count)."""
    left = table.count_left(now)
    if left is None:
        return None
    step = table.countdown / 3
    elapsed = table.countdown - left
    shown = min(3, int(elapsed / step + 1e-6) + 1) if step > 0 else 3
    return "  ".join(str(n) for n in range(1, shown + 1))


def countdown_ticks(table: Table, now: float) -> float | None:
    """The game time the countdown display next changes (``None``: no count running)."""
    if table.flip_at is None:
        return None
    step = table.countdown / 3
    start = table.flip_at - table.countdown
    for k in (1, 2):
        tick = start + k * step
        if tick > now + 1e-6:
            return tick
    return None


def _middle(view: View, palette: Palette, canvas: Canvas, lay: Layout) -> None:
    game = view.game
    y = lay.piles_y
    mid = y + lay.card_h // 2
    piles = game.state.play_piles
    tops = tuple((pile[-1], len(pile)) if pile else None for pile in piles)
    key = ("play piles", lay, tops, view.ascii)
    canvas.piece(key, lambda: _play_piles(view, palette, canvas, lay))
    between_x = lay.pile_x[0] + lay.card_w
    between_w = lay.pile_x[1] - between_x
    count = countdown_text(view.table, view.now)
    if count is not None:
        canvas.put_centered(mid, between_x, between_w, count, palette.count)
    # The banner.
    headline = view.notices.headline
    if game.phase is Phase.STRESS:
        stress_keys = [key_label(k) for p in (0, 1) for k in view.keymap.keys_for(Intent.STRESS, p)]
        text = "  STRESS!  "
        if stress_keys:
            text += "first to hit " + " or ".join(stress_keys) + " wins  "
        canvas.put_centered(lay.banner_y, 0, canvas.width, text, palette.stress)
    elif headline is not None:
        style = {"warn": palette.warn, "good": palette.good}.get(headline.kind, palette.banner)
        canvas.put_centered(lay.banner_y, 0, canvas.width, headline.text, style)
    elif game.phase is Phase.WAITING_FLIP:
        canvas.put_centered(lay.banner_y, 0, canvas.width, "New cards on three", palette.banner)


def _play_piles(view: View, palette: Palette, canvas: Canvas, lay: Layout) -> None:
    """The two piles in the middle, with their sizes beside them."""
    y = lay.piles_y
    mid = y + lay.card_h // 2
    for target, x in enumerate(lay.pile_x):
        pile = view.game.state.play_piles[target]
        _card(canvas, palette, lay, y, x, pile, view.ascii)
        if not pile:
            continue
        size = f"{len(pile)} card" + ("" if len(pile) == 1 else "s")
        room = x - 2 if target == 0 else canvas.width - x - lay.card_w - 2
        if len(size) > room:
            size = str(len(pile))
        if target == 0:
            canvas.put(mid, x - 2 - len(size), size, palette.hint)
        else:
            canvas.put(mid, x + lay.card_w + 2, size, palette.hint)


# ----------------------------------------------------------------------------- overlays


def _panel(
    canvas: Canvas, palette: Palette, lines: Sequence[tuple[str, str]], min_w: int = 30
) -> None:
    """A box of lines (text, style) in the middle of the screen."""
    width = min(canvas.width - 2, max(min_w, *(canvas.text_width(t) + 4 for t, _ in lines)))
    height = min(canvas.height, len(lines) + 2)
    x = (canvas.width - width) // 2
    y = (canvas.height - height) // 2
    for dy in range(height):
        canvas.fill(y + dy, x, width, palette.panel)
    for i, (text, style) in enumerate(lines[: height - 2]):
        canvas.put(y + 1 + i, x + 2, canvas.clip(text, width - 4), style or palette.panel)


def _player_keys_lines(view: View, player: int) -> list[tuple[str, str]]:
    keys = view.keymap
    name = view.names[player]
    where = "top row" if player == 0 else "bottom row"
    head = f"{name} ({where})"
    if not keys.has_player(player):
        kind = view.kinds[player]
        level = kind[4:] if kind.startswith("bot:") else kind
        return [(f"{head}: the computer ({level})", "title")]
    size = view.rules.row_size

    def row(intent: Intent) -> str:
        return " ".join(key_label(keys.key_for(intent, player, i) or "-") for i in range(size))

    others = []
    for intent, what in (
        (Intent.STRESS, "stress"),
        (Intent.READY, "ready to flip"),
        (Intent.STOP, "stress stop"),
    ):
        if intent is Intent.STOP and not view.rules.stress_stop:
            continue
        key = keys.key_for(intent, player)
        if key is not None:
            others.append(f"{what} {key_label(key)}")
    return [
        (head, "title"),
        (f"  piles 1-{size} onto the left pile:  {row(Intent.LEFT)}", ""),
        (f"  piles 1-{size} onto the right pile: {row(Intent.RIGHT)}", ""),
        ("  " + "   ".join(others), ""),
    ]


def help_lines(view: View, width: int) -> list[tuple[str, str]]:
    """The help screen's lines (text, kind) for a panel ``width`` columns wide; the kind is
    ``title`` or ``""``."""
    keys = view.keymap
    lines: list[tuple[str, str]] = []
    for player in (0, 1):
        lines += _player_keys_lines(view, player)
    shared = []
    for intent, what in (
        (Intent.HELP, "help"),
        (Intent.PAUSE, "pause"),
        (Intent.QUIT, "quit"),
        (Intent.REDRAW, "redraw"),
    ):
        found = keys.keys_for(intent)
        if found:
            shared.append(f"{what} {' '.join(key_label(k) for k in found)}")
    lines.append(("Everyone", "title"))
    lines.append(("  " + "   ".join(shared) + "   suspend ^Z", ""))
    lines.append(("", ""))
    lines.append(("The rules in play", "title"))
    for sentence in plain_words(view.rules):
        for part in textwrap.wrap(sentence, width - 2) or [""]:
            lines.append(("  " + part, ""))
    return [(text if len(text) <= width else text[:width], kind) for text, kind in lines]


def help_page(view: View, width: int, height: int, offset: int) -> tuple[int, int]:
    """The first help line shown (``offset`` kept in range) and how many fit."""
    total = len(help_lines(view, width))
    room = max(1, height - 6)
    return max(0, min(offset, total - room)), room


def _help(view: View, palette: Palette, canvas: Canvas) -> None:
    width = min(canvas.width - 6, 90)
    lines = help_lines(view, width)
    first, room = help_page(view, width, canvas.height, view.help_offset)
    shown = lines[first : first + room]
    more = []
    if first > 0:
        more.append("Up/PgUp: earlier")
    if first + room < len(lines):
        more.append("Down/PgDn: more")
    footer = "Paused.  ? or Esc: back to the game   q: quit"
    if more:
        footer += "   " + "  ".join(more)
    styles = {"title": palette.panel_title, "": palette.panel}
    panel = [(t, styles[k]) for t, k in shown]
    panel += [("", ""), (footer, palette.panel_key)]
    _panel(canvas, palette, panel, min_w=width + 4)


def _pause(view: View, palette: Palette, canvas: Canvas) -> None:
    _panel(
        canvas,
        palette,
        [
            ("Paused", palette.panel_title),
            ("", ""),
            ("Esc or Enter: play on    ?: help    q: quit", palette.panel_key),
        ],
    )


def _result(view: View, palette: Palette, canvas: Canvas) -> None:
    result = view.result
    assert result is not None
    names = view.names
    s1, s2 = view.score
    if result.headline is not None:
        head = result.headline
    elif result.winner is None:
        head = "Nobody can play on: a drawn round"
    else:
        head = f"{names[result.winner]} wins the {'match' if result.match_over else 'round'}!"
    score = f"{names[0]} {s1} : {s2} {names[1]}   (first to {view.rules.wins})"
    if result.again is not None:
        go = f"Enter: {result.again}"
    else:
        go = "Enter: rematch" if result.match_over else "Enter: next round"
    about = []
    if result.stats is not None:
        about.append(f"round {_clock(result.stats.seconds)}")
    if view.seed is not None:
        about.append(f"seed {view.seed}")
    top = [(head, palette.panel_title), ("", ""), (score, palette.panel)]
    table = (
        []
        if result.stats is None
        else [
            (text, palette.panel_title if i == 0 else palette.panel)
            for i, text in enumerate(stats_lines(result.stats, names, canvas.width - 8))
        ]
    )
    notes = [(text, palette.panel) for text in ("   ".join(about), *result.notes) if text]
    keys = [(f"{go}    q: quit" if result.keys_live else "", palette.panel_key)]
    blank = [("", "")]
    room = canvas.height - 2
    lines = [*top, *blank, *table, *blank, *notes, *blank, *keys]
    if len(lines) > room:  # a low window: no blank lines around the statistics
        lines = [*top, *blank, *table, *notes, *keys]
    if len(lines) > room:  # lower still: the statistics go
        lines = [
            *top,
            *blank,
            ("(a taller window shows the statistics)", palette.panel),
            *notes,
            *keys,
        ]
    if len(lines) > room:
        lines = [*top, *keys]
    _panel(canvas, palette, lines, min_w=40)


_STATS_ROWS: tuple[tuple[str, Callable[[PlayerStats], str]], ...] = (
    ("cards played", lambda p: str(p.cards_played)),
    ("longest chain", lambda p: str(p.longest_chain)),
    ("median reaction", lambda p: _seconds(p.median_reaction)),
    ("stresses won", lambda p: _with_times(p.stresses_won, p.won_reactions)),
    ("stresses lost", lambda p: _with_times(p.stresses_lost, p.late_reactions)),
    ("false calls", lambda p: str(p.false_calls)),
    ("misplays", lambda p: str(p.misplays)),
    ("lockouts", lambda p: str(p.lockouts)),
)


def stats_lines(stats: RoundStats, names: tuple[str, str], width: int = 72) -> list[str]:
    """The round's statistics as a small table at most ``width`` columns wide: a line of
    names, then a line per measure (cards played, longest chain, median reaction, stresses
    won and lost with the calls' reaction times, false calls, misplays, lockouts)."""
    label_w = max(len(label) for label, _ in _STATS_ROWS) + 2
    column = max(8, min(22, (width - label_w) // 2))
    lines = ["".ljust(label_w) + names[0][: column - 1].ljust(column) + names[1][: column - 1]]
    for label, measure in _STATS_ROWS:
        cells = [_fit(measure(player), column - 1) for player in stats.players]
        lines.append(label.ljust(label_w) + cells[0].ljust(column) + cells[1])
    return [line.rstrip() for line in lines]


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}s"


def _with_times(count: int, times: Sequence[float]) -> str:
    """``2 (0.41s 0.38s)``: a count and the reaction times of the calls behind it."""
    if not times:
        return str(count)
    return f"{count} (" + " ".join(f"{t:.2f}s" for t in times) + ")"


def _fit(text: str, width: int) -> str:
    """A cell cut to ``width``: a list of times that does not fit keeps its count and
    its fastest time."""
    if len(text) <= width:
        return text
    count, _, times = text.partition(" (")
    if times:
        best = min(float(t.rstrip("s)")) for t in times.split())
        short = f"{count} (best {best:.2f}s)"
        if len(short) <= width:
            return short
    return text[:width]


def _clock(seconds: float) -> str:
    """``1:23.4``: minutes and seconds."""
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:04.1f}"
