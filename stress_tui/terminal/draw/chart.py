"""Line charts as text: a row of numbers drawn in braille dots, or in ASCII where the output
cannot show braille.

Braille cells (U+2800-U+28FF) are one column wide everywhere (East Asian width neutral,
unlike the block elements, which are ambiguous) and hold a grid of two dots across and four
down, so a chart ``width`` cells wide and ``height`` rows high shows ``2 * width`` values at
``4 * height`` heights, each joined to the one before by a run of dots. The ASCII form
shows one value a column, at three heights a row (``.``, ``-``, ``'``).

Knows nothing of the game: numbers in, lines of text out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

BRAILLE = 0x2800
"""The blank braille cell; a dot's bit is added to it."""

_DOTS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))
"""The bit of each braille dot, by its column in the cell and its row from the top."""

_ASCII_LEVELS = ".-'"
"""An ASCII row's three heights, bottom first."""


def can_encode(encoding: str | None, text: str = "\u28ff") -> bool:
    """Whether ``encoding`` (a stream's) can hold ``text`` (default: a braille cell)."""
    try:
        text.encode(encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def points_shown(width: int, ascii: bool) -> int:
    """How many values a chart ``width`` cells wide shows."""
    return width if ascii else 2 * width


def value_range(values: Sequence[float | None]) -> tuple[float, float] | None:
    """The lowest and highest of the values (``None`` if there are none), widened a little
    when they are all the same, so that a flat line sits in the middle."""
    known = [v for v in values if v is not None and math.isfinite(v)]
    if not known:
        return None
    low, high = min(known), max(known)
    if high - low < 1e-9:
        pad = abs(low) * 0.05 or 1.0
        return low - pad, high + pad
    return low, high


def plot(
    values: Sequence[float | None],
    width: int,
    height: int,
    *,
    ascii: bool = False,
    scale: tuple[float, float] | None = None,
) -> list[str]:
    """``height`` lines of exactly ``width`` cells: the last values that fit
    (``points_shown``), oldest at the left, the lowest of ``scale`` (default: the values'
    own range) at the bottom and the highest at the top. ``None`` leaves a gap."""
    width, height = max(1, width), max(1, height)
    shown = list(values[-points_shown(width, ascii) :])
    span = scale if scale is not None else value_range(shown)
    levels = height * (3 if ascii else 4)
    heights: list[int | None] = []
    for value in shown:
        if value is None or span is None or not math.isfinite(value):
            heights.append(None)
            continue
        low, high = span
        share = (value - low) / (high - low) if high > low else 0.5
        heights.append(min(levels - 1, max(0, round(share * (levels - 1)))))
    if ascii:
        return _ascii(heights, width, height)
    return _braille(heights, width, height)


def _braille(heights: list[int | None], width: int, height: int) -> list[str]:
    cells = [[0] * width for _ in range(height)]
    top = 4 * height - 1
    previous: int | None = None
    for x, level in enumerate(heights):
        if level is None:
            previous = None
            continue
        low, high = (level, level) if previous is None else sorted((previous, level))
        for dot in range(low, high + 1):  # the run from the value before to this one
            row = top - dot  # from the top of the chart
            cells[row // 4][x // 2] |= _DOTS[x % 2][row % 4]
        previous = level
    return ["".join(chr(BRAILLE + bits) for bits in line) for line in cells]


def _ascii(heights: list[int | None], width: int, height: int) -> list[str]:
    rows = [[" "] * width for _ in range(height)]
    for x, level in enumerate(heights):
        if level is not None:
            rows[height - 1 - level // 3][x] = _ASCII_LEVELS[level % 3]
    return ["".join(row) for row in rows]


def labelled(
    lines: Sequence[str],
    labels: Sequence[str],
    measure: Callable[[str], int] = len,
    gap: str = " ",
) -> list[str]:
    """``lines`` with ``labels`` (one a line, ``""`` for none) right-aligned before them in
    a column as wide as the widest label on screen (``measure``: its width in columns)."""
    column = max((measure(label) for label in labels), default=0)
    return [
        " " * (column - measure(label)) + label + gap + line
        for line, label in zip(lines, labels, strict=True)
    ]
