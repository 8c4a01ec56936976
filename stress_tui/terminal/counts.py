"""The counts beside the table's cards that a play changes: a player's draw pile, under
their name, and each play pile's size. Each text is drawn once for what it shows and
kept as a sprite (``RenderCache.sprites``), keyed by all it is drawn from; the counts a
round comes to are drawn ahead of time (``warm_counts``), so that a play's number is a
look-up, with no translation or formatting on the key's way to the screen.

A sprite is kept for one terminal, which speaks one language (its ``RenderCache``'s).
"""

from __future__ import annotations

from stress_tui.terminal.draw.canvas import Canvas, Cell
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.lang import _, ngettext
from stress_tui.terminal.layout import Layout
from stress_tui.terminal.scene import Scene

LineKey = tuple[str, int, int, int, int, int, str]
"""The line under a player's name as it shows: its draw pile's count, the player's rounds
won and those the match needs, the cards' height, the line's room and its style."""

SizeKey = tuple[str, int, int, str]
"""A play pile's size as shown beside it: the count, the columns it has, its style."""


def warm_counts(view: Scene, palette: Palette, canvas: Canvas, lay: Layout) -> None:
    """Draw ahead of time the counts a round comes to as it is played, so that no play
    waits for a number's drawing: each draw pile's and each play pile's, up to every card
    of the deck (a stress call gives a draw pile the play piles' cards), on ``canvas``'s
    cache."""
    cards = len(view.rules.spec.cards(view.rules.jokers))
    drawn = canvas.cache.sprites
    for player in (0, 1):
        for count in range(cards + 1):
            line = line_key_of(view, palette, lay, player, count)
            if line not in drawn:
                draw_line(canvas, line)
    for target in (0, 1):
        for count in range(1, cards + 1):
            size = size_key_of(palette, lay, target, count)
            if size not in drawn:
                pile_size(canvas, size)


def wins(won: int, needed: int) -> str:
    """A player's rounds won, out of the rounds that win the match."""
    return _("wins {won}/{needed}").format(won=won, needed=needed)


def line_key_of(view: Scene, palette: Palette, lay: Layout, player: int, draw: int) -> LineKey:
    """What the line under a player's name shows with ``draw`` cards in their draw pile:
    the key its sprite is kept by, and all ``draw_line`` draws it from."""
    score = view.score[player]
    return ("draw line", draw, score, view.rules.wins, lay.card_h, lay.info_w, palette.plain)


def draw_line(canvas: Canvas, key: LineKey) -> list[list[Cell]]:
    """The line under a player's name as ``key`` says: the draw pile's count (and the
    score, beside small cards), drawn and kept."""
    draw, won, needed, card_h, info_w, style = key[1:]
    if card_h > 5:
        text = _("draw {count}").format(count=draw)
    else:
        text = _("draw {count}").format(count=f"{draw:<3}") + " " + wins(won, needed)
    return _text(canvas, key, canvas.clip(text, info_w - 2), style)


def size_key_of(palette: Palette, lay: Layout, target: int, count: int) -> SizeKey:
    """What play pile ``target``'s size beside it shows at ``count`` cards: the key its
    sprite is kept by, and all ``pile_size`` draws it from (with the columns it has)."""
    x = lay.pile_x[target]
    room = x - 2 if target == 0 else lay.width - x - lay.card_w - 2
    return ("pile size", count, room, palette.hint)


def pile_size(canvas: Canvas, key: SizeKey) -> list[list[Cell]]:
    """How many cards a play pile holds as ``key`` says, in the columns it has (the number
    alone where the words do not fit), drawn and kept."""
    count, room, style = key[1:]
    size = ngettext("{count} card", "{count} cards", count).format(count=count)
    if len(size) > room:
        size = str(count)
    return _text(canvas, key, size, style)


def _text(canvas: Canvas, key: tuple[object, ...], text: str, style: str) -> list[list[Cell]]:
    """One line of ``text`` in ``style``, as wide as it is, drawn and kept by ``key``."""
    line = Canvas(canvas.text_width(text), 1, canvas.measure, canvas.cache)
    line.put(0, 0, text, style)
    canvas.cache.sprites[key] = line.rows
    return line.rows
