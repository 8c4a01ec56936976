"""The encoder: what to write to a terminal to turn one frame into the next, as few bytes as
it takes (only the runs of cells that changed, grouped by style).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress, count
from operator import ne
from typing import TYPE_CHECKING

from stress_tui.terminal.draw.canvas import Cell, Frame, RenderCache

if TYPE_CHECKING:
    from blessed import Terminal


def encode(
    old: Frame | None,
    new: Frame,
    term: Terminal,
    clear: bool = False,
    gap: int = 4,
    cache: RenderCache | None = None,
    origin: tuple[int, int] = (0, 0),
    changed: Sequence[tuple[int, int, int]] | None = None,
) -> str:
    """What to write to turn the screen showing ``old`` into ``new``: only the runs of cells
    that changed, each after a cursor move (runs closer than ``gap`` cells are joined).
    ``old=None`` draws everything that is not blank, after clearing the screen if
    ``clear``. ``changed``, where known, says which rows may differ from ``old``'s, each
    with the columns outside which it equals ``old``'s (row, from and up to:
    ``FrameCanvas.changed``); only those cells are compared.

    The runs are written in an order that keeps a style on as long as there are runs in
    it (a move does not change the style), so that a play's few cards take one colour
    change, not one per card: fewer bytes for the terminal to read. The frame's top left
    cell is at ``origin`` (row, column) on the screen."""
    # Written as one string added to, where a list of runs was joined: a play writes a few
    # characters, and joining is code that nothing else on a key runs (cold at each).
    out = ""
    if old is None or len(old) != len(new) or (new and len(old[0]) != len(new[0])):
        # (Read only here: blessed's Terminal has a ``__getattr__``, so that no read of its
        # attributes is ever specialised, and a play's frame clears nothing.)
        out = term.clear if clear else ""
        blank: Cell = (" ", "")
        old = [[blank] * len(row) for row in new]
        changed = None
    runs, styles = _runs(old, new, gap, changed)
    if not runs:
        return out
    moves = cache.moves if cache is not None else {}
    top, left = origin
    switches = cache.switches if cache is not None else {}
    normal = cache.normal if cache is not None else None
    if normal is None:  # (asked once: Terminal.normal is a property of blessed's)
        normal = term.normal
        if cache is not None:
            cache.normal = normal
    current = ""
    # A run leaves its last character's style in effect (a glyph's right half has the
    # glyph's style: Canvas).
    while runs:
        # The next run in screen order that begins in the style in effect; else the first.
        i = styles.index(current) if current in styles else 0
        del styles[i]
        y, start, end = runs.pop(i)
        at = (y + top, start + left)
        move = moves.get(at)
        if move is None:
            move = moves[at] = _move(term, at[0], at[1], cache)
        out += move
        for ch, style in new[y][start:end]:
            if style != current and ch:  # (the right half of a wide glyph writes nothing)
                out += switches.get((current, style)) or _switch(current, style, normal, switches)
                current = style
            out += ch
    if current:
        out += normal
    return out


Run = tuple[int, int, int]
"""Cells that changed: a row and the columns from ``start`` up to ``end``."""


def _runs(
    old: Frame, new: Frame, gap: int, rows: Sequence[tuple[int, int, int]] | None = None
) -> tuple[list[Run], list[str]]:
    """The runs of cells that differ, row by row, left to right (runs closer than ``gap``
    cells joined; a wide glyph never cut in two), and the style each begins in (its first
    cell's: a run begins with a character, never the right half of a wide glyph); of the
    ``rows`` given (``encode``'s ``changed``), only those and of each only the cells from
    and up to its columns compared; of every row where none are given."""
    runs: list[Run] = []
    styles: list[str] = []
    width = len(new[0]) if new else 0
    if rows is None:  # (old is as long: encode)
        rows = [(y, 0, width) for y in range(len(new))]
    for y, start, end in rows:
        before, after = old[y], new[y]
        if end - start < width:  # a few cells: a Python loop costs less than the C one's setup
            changed = []  # (a loop, not a comprehension: Python 3.11 calls that as a function)
            for x in range(start, end):
                if before[x] != after[x]:
                    changed.append(x)
        elif before == after:
            continue
        else:
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
            styles.append(after[start][1])
            x = end
    return runs, styles


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
    terminal's moves are the usual ``CSI row;col H``, they are written directly. One move
    asked says so: terminfo writes every move by the same recipe (rows and columns from 1,
    the row first), and ``CSI 5;10H`` for (4, 9) is that recipe's."""
    csi = cache.csi_moves if cache is not None else None
    if csi is None:
        csi = str(term.move_yx(4, 9)) == "\x1b[5;10H"
        if cache is not None:
            cache.csi_moves = csi
    return f"\x1b[{y + 1};{x + 1}H" if csi else str(term.move_yx(y, x))
