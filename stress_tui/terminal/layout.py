"""The layout: where each part of the table goes on a screen of a given size, with the
largest cards that fit.

From the top: a title line; player 1's row (name, draw pile and match score beside it,
the keys that play each pile under it, then a line for that player's notices); the two
play piles with their sizes and the "1 2 3" countdown between them; the banner line;
player 2's notices, row and keys.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

MIN_WIDTH = 60
"""Narrowest terminal the table is drawn in (with rows of up to four piles)."""
MIN_HEIGHT = 16
"""Lowest terminal the table is drawn in."""


MAX_WIDTH = 256
"""Widest area the table is drawn in; a wider window has it in its middle."""
MAX_HEIGHT = 128
"""Highest area the table is drawn in; a higher window has it in its middle."""


def drawn_area(width: int, height: int) -> tuple[int, int, int, int]:
    """The part of a window the table is drawn in: width, height, top row, left column.
    All of the window up to ``MAX_WIDTH`` x ``MAX_HEIGHT`` (the cards stop growing long
    before), so that what a frame holds is bounded by the table, not by the window."""
    drawn_w, drawn_h = max(0, min(width, MAX_WIDTH)), max(0, min(height, MAX_HEIGHT))
    return drawn_w, drawn_h, max(0, height - drawn_h) // 2, max(0, width - drawn_w) // 2


CARD_SIZES = ((9, 15), (7, 11), (5, 9), (3, 7))
"""Card heights and widths, largest first (the largest from about 100x36 on)."""

SIDE_ROOM = 10
"""Columns kept right of the right play pile for its size and who played on it last
(``52 cards``, a name): where the row's middle would leave fewer, the play piles move
left of it."""

SNUG = 8
"""In a window of ``WIDE`` columns or more, where the row, centred right of the players'
blocks, would stand this many columns or more away from them, the blocks and the row are
centred together instead, two columns apart: a wide window's table reads as one, not as
names at its edge."""

WIDE = 100
"""The narrowest window whose table may be centred as one (``SNUG``); a narrower one keeps
the players' blocks at its left edge."""


@dataclass(frozen=True, eq=False)
class Layout:
    """Where everything goes on a screen of a given size. Made once for a size (``layout``
    and ``flipped`` keep the last few), it is compared, and kept in a cache, by identity:
    a layout made again for the same size is a new one, and what it caches is drawn
    again, the same."""

    width: int
    height: int
    card_h: int
    card_w: int
    gap: int
    """Columns between row piles."""
    info_w: int
    """Columns of the name/draw/score block left of each row."""
    info_x: int
    """Column of that block (0, or where a wide window centres the table)."""
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
    info_x = 0
    together = (width - (INFO_W + 2 + row_w)) // 2
    if width >= WIDE and row_x - INFO_W >= SNUG and together > 0:
        info_x = together
        row_x = info_x + INFO_W + 2
    centre = row_x + row_w // 2
    between = 11
    left_x = centre - between // 2 - card_w
    right_x = centre + (between - between // 2)
    short = SIDE_ROOM - (width - (right_x + card_w) - 2)
    if short > 0:  # a narrow window: room for the right pile's size and name first
        left_x -= short
        right_x -= short
    return Layout(
        width,
        height,
        card_h,
        card_w,
        gap,
        INFO_W,
        info_x,
        row_x,
        title_y,
        (p1_cards, p2_cards),
        (p1_hints, p2_hints),
        (p1_notice, p2_notice),
        piles_y,
        banner_y,
        (left_x, right_x),
    )


@functools.lru_cache(maxsize=4)
def flipped(lay: Layout) -> Layout:
    """The same layout with the two players' rows, hints and notices swapped (the table
    seen from the other chair); kept, so that drawn pieces compare it at no cost."""
    return dataclasses.replace(
        lay,
        rows_y=lay.rows_y[::-1],
        hints_y=lay.hints_y[::-1],
        notice_y=lay.notice_y[::-1],
    )
