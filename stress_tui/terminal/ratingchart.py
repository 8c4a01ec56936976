"""A person's rating and median reaction over their last rounds, as a chart of text lines:
for ``stress-tui stats --chart`` and the result screen (``terminal/draw/chart.py`` draws).

The rating rows name the computer levels whose fixed ratings fall in them, so a line that
climbs past ``hard`` says what it says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from stress_tui.core.rating import LEVEL_RATINGS
from stress_tui.core.words import decimal, rating_text, shown_name
from stress_tui.storage.ratings import Point
from stress_tui.terminal.draw.chart import labelled, plot, points_shown, value_range
from stress_tui.terminal.lang import _, ngettext

RATING_ROWS = 4
"""Rows of the rating's chart."""

REACTION_ROWS = 3
"""Rows of the median reaction's chart."""


def chart_height() -> int:
    """Lines a chart takes: a title, the rating's rows, the reaction's rows."""
    return 1 + RATING_ROWS + REACTION_ROWS


def rating_chart(
    name: str,
    points: Sequence[Point],
    width: int,
    *,
    ascii: bool = False,
    measure: Callable[[str], int] = len,
) -> list[str]:
    """The chart of ``points`` (oldest first) at most ``width`` columns wide: a title line,
    then the rating and the median reaction of each of the last rounds that fit, oldest
    at the left, with their ranges and the levels the rating rows pass. ``ascii``: ASCII
    alone (``.-'`` for the dots, ``+-`` for the plus-minus sign)."""
    name = shown_name(name, _)
    if not points:
        return [_("{name}: no rated rounds yet").format(name=name)]
    labels_w = max(measure(text) for text in (_("reaction"), "0.00s", "0000"))
    level_w = 2 + max(measure(_(level)) for level in LEVEL_RATINGS)  # "  expert"
    room = max(4, width - labels_w - 1 - level_w)
    shown = list(points[-points_shown(room, ascii) :])
    cells = max(1, -(-len(shown) // (1 if ascii else 2)))
    ratings = [p.rating.rating for p in shown]
    medians = [p.median for p in shown]
    rounds = ngettext("{n} rated round", "{n} rated rounds", len(shown)).format(n=len(shown))
    rating = rating_text(points[-1].rating, "+-" if ascii else "±")
    title = _("{name}: rating {rating}; the last {rounds}, oldest at the left").format(
        name=name, rating=rating, rounds=rounds
    )
    if measure(title) > width:
        title = _("{name}: rating {rating}, the last {rounds}").format(
            name=name, rating=rating, rounds=rounds
        )
    span = value_range(ratings)
    assert span is not None
    low, high = span
    lines = plot(ratings, cells, RATING_ROWS, ascii=ascii, scale=span)
    band = (high - low) / RATING_ROWS
    for row in range(RATING_ROWS):
        top = high - row * band
        passed = [
            level for level, anchor in LEVEL_RATINGS.items() if top - band <= anchor.rating <= top
        ]
        if passed:
            lines[row] += "  " + " ".join(_(level) for level in passed)
    labels = [f"{high:.0f}", _("rating"), *[""] * (RATING_ROWS - 3), f"{low:.0f}"]
    reaction = value_range(medians)
    if reaction is None:
        lines.append(_("(no reactions measured)"))
        labels.append(_("reaction"))
    else:
        fast, slow = reaction
        lines += plot(medians, cells, REACTION_ROWS, ascii=ascii, scale=reaction)
        labels += [decimal(slow, 2, _) + "s", _("reaction"), decimal(fast, 2, _) + "s"]
    return [title, *(line.rstrip() for line in labelled(lines, labels, measure))]
