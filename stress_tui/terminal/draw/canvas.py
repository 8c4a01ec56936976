"""The canvas: a frame drawn as rows of styled cells, and the ``FrameCanvas`` that keeps the
last frame and draws again only the pieces and rows that changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import ClassVar

Cell = tuple[str, str]
"""One screen cell: its character (``""`` for the right half of a wide glyph) and the
SGR sequence it is drawn with (``""`` for plain)."""

Frame = list[list[Cell]]
"""A whole screen, row by row."""


@dataclass(eq=False)
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
    normal: str | None = None
    """The terminal's reset of every style (``Terminal.normal``; ``None``: not asked)."""

    cells_limit: ClassVar[int] = 1024
    """Past this many texts, ``trim`` forgets them all."""
    sprites_limit: ClassVar[int] = 1024
    """Past this many drawn pieces, ``trim`` forgets them all (a round draws some 300: its
    cards, and its counts drawn ahead, ``counts.warm_counts``)."""

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
                cells = tuple(zip(text, repeat(style)))
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
                    if x + 2 < width and row[x + 2][0] == "":
                        row[x + 2] = (" ", row[x + 2][1])  # its wide glyph's half, alone
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
        draw: Callable[..., None],
        *args: object,
    ) -> list[list[Cell]]:
        """A small drawing, made once by ``draw(canvas, *args)`` on a canvas of its own and
        kept by ``key``."""
        rows = self.cache.sprites.get(key)
        if rows is None:
            small = Canvas(width, height, self.measure, self.cache)
            draw(small, *args)
            rows = small.rows
            self.cache.sprites[key] = rows
        return rows

    def piece(
        self,
        key: tuple[object, ...],
        top: int,
        bottom: int,
        draw: Callable[..., None],
        *args: object,
    ) -> None:
        """A part of the frame, drawn on this canvas by ``draw(*args)`` on its rows from
        ``top`` up to ``bottom`` alone, that is the same whenever ``key`` is (``FrameCanvas``
        then puts it back without drawing it). The drawing is given with its arguments, not
        as a closure: a frame then makes no function, nor a cell for each name one would
        hold; and its rows as two numbers, not a ``range``, whose making and comparing
        nothing else on a play runs."""
        draw(*args)

    def blit_rows(self, y: int, x: int, rows: Sequence[Sequence[Cell]]) -> None:
        """Copy a drawing's rows (as drawn on another canvas: all as wide), the first to row
        ``y``, from column ``x``."""
        for dy, cells in enumerate(rows):
            self.blit(y + dy, x, cells)

    def frame(self) -> Frame:
        """The rows drawn, once everything is on the canvas."""
        return self.rows

    def fill(self, y: int, x: int, width: int, style: str, ch: str = " ") -> None:
        """Fill ``width`` cells from column ``x`` with ``ch`` in ``style``: each the cell
        ``put`` keeps for it, so that drawings filled alike (the blank lines of two cards)
        hold the same cells, which a frame compares by identity alone."""
        cell = self._cells(ch, style) or ((ch, style),)
        self.blit(y, x, cell * width)

    def put_centered(self, y: int, x: int, width: int, text: str, style: str = "") -> None:
        """Write ``text`` centred in the ``width`` columns from ``x`` (cut if too long)."""
        text = self.clip(text, width)
        self.put(y, x + (width - self.text_width(text)) // 2, text, style)

    def fit(self, width: int, *forms: str) -> str:
        """The first of ``forms`` (the whole text, then shorter ways to say it) that fits in
        ``width`` columns; failing all, the last with words dropped from its end until it
        fits (never a word cut in two; ``""`` if not even its first word fits)."""
        for text in forms:
            if self.text_width(text) <= width:
                return text
        words = forms[-1].split(" ") if forms else []
        while words and self.text_width(" ".join(words)) > width:
            words.pop()
        return " ".join(words).rstrip(" ,:;")

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


Stroke = tuple[int, int, Sequence[Cell], tuple[str, str] | None]
"""One thing put on a row from column ``x`` up to ``end`` (never nothing: ``x < end``):
``(x, end, cells, None)``, cells copied there, or ``(x, end, (), (text, style))``, text
written there as ``Canvas.put`` writes it (text holding a wide or zero-width glyph)."""


class FrameCanvas(Canvas):
    """A canvas kept from frame to frame, which draws again only what changes.

    ``render`` puts the whole table on it every frame, as on any canvas, but each stroke is
    only noted, row by row. A piece (``piece``) whose key (and rows) are the same as in the
    last frame is not drawn again: its strokes on each of its rows then are noted once
    more, a row's at a time. ``frame()`` then draws a
    row afresh (on blank cells, stroke by stroke, as ``Canvas`` would) only if its strokes
    differ from the last frame's, and hands back the last frame's row otherwise. A play
    that moves one card thus draws the pieces it changed and the rows they cover, not the
    screen. It keeps one frame (its rows, strokes and pieces), so it holds no more than
    the screen, however long the match. A canvas is drawn with one palette.

    A row drawn afresh is drawn on the row the frame before the last had there, where the
    last frame no longer shows it, so that a play, which draws the same rows afresh each
    time, writes to lists already the canvas's rather than to new ones. A frame's rows
    thus stay as drawn only until the frame after the next: keep none longer than the
    next (``Frames`` keeps the one the screen shows, the last). So too the lists of
    strokes: once a frame's are compared with the next's, they are emptied and take the
    strokes of the frame after, so that a frame makes no list for each row, nor frees one.

    Of a row drawn afresh it also says which columns may differ from the last frame
    (``changed``): those of the strokes that differ, where each stroke on the row, in this
    frame and the last, was copied into its own columns and touched no other (no wide
    glyph met at its edges); so the encoder compares those cells, not the row's.
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
        self.last_strokes: list[list[Stroke]] = [[] for _ in range(height)]
        """What the last frame put on each row (before the first: nothing, on blank rows)."""
        self.last_rows: Frame = self.rows
        """The last frame's rows, as drawn from ``last_strokes``."""
        self.before: Frame | None = None
        """The rows of the frame before the last (what ``changed`` compares the last with)."""
        self.changed: list[tuple[int, int, int]] = [(y, 0, width) for y in range(height)]
        """The rows of the last frame drawn afresh, each with the columns from and up to
        which it may differ from ``before``'s (the whole row where that is not known); every
        other row is ``before``'s own list."""
        self.in_place: list[bool] = [False] * height
        """For each row of the last frame, whether every stroke on it was copied into its
        own columns alone (so that a stroke changed changes no cell beyond its own)."""
        self.pieces: list[tuple[tuple[object, ...], int, int, list[list[Stroke]]]] = []
        """This frame's pieces so far, in order: key, top and bottom row, and the strokes
        that drew it on each of its rows."""
        self.last_pieces: list[tuple[tuple[object, ...], int, int, list[list[Stroke]]]] = []
        """The last frame's pieces (a piece is matched with the one drawn in the same
        place in the order, so that keys are compared, never hashed)."""
        self.blanks: list[Cell] = [(" ", "")] * width
        """A blank row, copied to draw a row afresh on."""

    def put(self, y: int, x: int, text: str, style: str = "") -> int:
        cells = self.cache.cells.get((text, style), ())
        if cells == ():
            cells = self._cells(text, style)
        stroke: Stroke
        if cells is not None:
            end = x + len(cells)
            stroke = (x, end, cells, None)
        else:
            end = x + self.text_width(text)
            stroke = (x, end, (), (text, style))
        if 0 <= y < self.height and end > x:  # (nothing put: no stroke)
            self.strokes[y].append(stroke)
        return end

    def blit(self, y: int, x: int, cells: Sequence[Cell]) -> None:
        if 0 <= y < self.height and cells:
            self.strokes[y].append((x, x + len(cells), cells, None))

    def blit_rows(self, y: int, x: int, rows: Sequence[Sequence[Cell]]) -> None:
        if y < 0:  # the rows above the canvas left out, and those below it
            rows, y = rows[-y:], 0
        if not rows or not rows[0] or y >= self.height:
            return
        rows = rows[: self.height - y]
        end = x + len(rows[0])
        strokes = self.strokes
        for cells in rows:
            strokes[y].append((x, end, cells, None))
            y += 1

    def piece(
        self,
        key: tuple[object, ...],
        top: int,
        bottom: int,
        draw: Callable[..., None],
        *args: object,
    ) -> None:
        if top < 0:
            top = 0
        if bottom > self.height:
            bottom = self.height
        n = len(self.pieces)
        last = self.last_pieces
        lines = self.strokes[top:bottom]  # (the rows' lists; plain loops below, as a
        # comprehension is a function Python 3.11 makes and calls)
        if n < len(last) and last[n][0] == key and last[n][1] == top and last[n][2] == bottom:
            drawn = last[n][3]
            for i, line in enumerate(lines):
                line.extend(drawn[i])
        else:
            before = list(map(len, lines))
            draw(*args)
            drawn = []
            for i, line in enumerate(lines):
                drawn.append(line[before[i] :])
        self.pieces.append((key, top, bottom, drawn))

    def frame(self) -> Frame:
        last = self.last_strokes
        last_rows = self.last_rows
        rows = list(last_rows)
        self.rows = rows
        width = self.width
        blanks = self.blanks
        older = self.before or last_rows  # (before the second frame: none older)
        changed = []
        in_place = self.in_place
        for y, strokes in enumerate(self.strokes):
            if strokes == last[y]:
                continue  # drawn the same as last time
            row = older[y]
            if row is last_rows[y]:  # (the last frame's rows stay as they are)
                row = blanks.copy()
            else:  # the frame before the last's, shown no more: drawn over
                row[:] = blanks
            rows[y] = row
            alone = True
            for x, end, cells, text in strokes:
                if text is not None:
                    Canvas.put(self, y, x, *text)
                    alone = False
                    continue
                if (
                    x >= 0
                    and end <= width
                    and cells[0][0]  # (a stroke is never empty: put, blit)
                    and row[x][0]
                    and (end == width or row[end][0])
                ):  # Canvas.blit's common case, without the call
                    row[x:end] = cells
                else:
                    Canvas.blit(self, y, x, cells)
                    alone = False
            if alone and in_place[y]:  # (none is before the first frame)
                start, end = _differing(last[y], strokes)
                changed.append((y, start, end))
            else:
                changed.append((y, 0, width))
            in_place[y] = alone
        self.before = last_rows
        self.changed = changed
        self.last_strokes, self.last_rows = self.strokes, rows
        for line in last:  # the next frame's, emptied (``*= 0``: no call, no slice)
            line *= 0
        self.strokes = last
        self.last_pieces, self.pieces = self.pieces, []
        return rows


def _differing(old: list[Stroke], new: list[Stroke]) -> tuple[int, int]:
    """The columns two lists of strokes on a row may leave differing, each stroke copied
    into its own columns alone: those of the strokes that differ from the one in the same
    place in the other list, and of those past the shorter list's end (a cell outside them
    is put there by the same strokes in the same order in both)."""
    n = len(new)
    touched = new[len(old) :]
    # The place counted by hand: on Python 3.11 ``enumerate`` costs some 600 instructions
    # a call more, for a row's few strokes, and a play redraws about 6 rows.
    i = 0
    for stroke in old:
        if i >= n:
            touched.append(stroke)
        elif stroke != new[i]:
            touched += (stroke, new[i])
        i += 1  # noqa: SIM113
    start, end = touched[0][0], touched[0][1]
    for x, stop, _, _ in touched:
        if x < start:
            start = x
        if stop > end:
            end = stop
    return start, end


def plain_lines(frame: Frame) -> list[str]:
    """A frame as plain text, one string a row (what a player would read)."""
    return ["".join(ch for ch, _ in row) for row in frame]
