"""The table's pieces: the cards, each player's row and the middle (play piles, countdown,
banner), drawn from a ``Scene`` on a canvas (the title line is ``terminal/title.py``'s).
Nothing here decides a rule; it asks the engine and shows what happened.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from stress_tui.core.cards import Card
from stress_tui.core.engine import Phase
from stress_tui.core.lifecycle import Lifecycle
from stress_tui.core.table import Table
from stress_tui.core.words import decimal
from stress_tui.terminal.counts import draw_line, line_key_of, pile_size, size_key_of, wins
from stress_tui.terminal.draw.canvas import Canvas, RenderCache
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keynames import key_label
from stress_tui.terminal.keys import Intent, KeyMap
from stress_tui.terminal.lang import N_, _, rank_name
from stress_tui.terminal.layout import Layout
from stress_tui.terminal.scene import Scene

_STRESS, _WAITING_FLIP = Phase.STRESS, Phase.WAITING_FLIP
"""The phases the banner asks of at every frame, under plain names: on Python 3.11 reading
a member off its enum class goes through ``EnumType.__getattr__``'s slow path
(``core/view.py``)."""


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
    top: Card | None,
    size: int,
    ascii_only: bool,
    stack: bool = True,
) -> None:
    """A pile drawn as its top card; a stack in a row (``stack``: played whole) says how
    many cards it holds, ``xN``, on a line of its own, kept apart from the card so that a
    growing stack draws no new card. A play pile's size is said beside it, never on the
    card: ``xN`` has that one meaning."""
    h, w = lay.card_h, lay.card_w
    count = size if stack and size > 1 and top is not None else 0
    # A card looked up by its rank and suit, which hash in C (a ``Card``'s hash is a
    # Python function, and a frame looks up every card it draws).
    shown = None if top is None else (top.rank, top.suit)
    pile = ("pile", h, w, shown, count, ascii_only, palette)
    sprites = canvas.cache.sprites
    rows = sprites.get(pile)
    if rows is not None:  # drawn before, as it shows now
        canvas.blit_rows(y, x, rows)
        return
    if top is None:
        key: tuple[object, ...] = ("slot", h, w, palette.slot)
        rows = canvas.sprite(key, w, h, _draw_slot, palette.slot)
    else:
        card = top
        face = palette.card_face
        if card.is_joker:
            style, label, centre = palette.joker, "JK", "JOKER"
        else:
            assert card.suit is not None
            style = palette.suit_styles[card.suit.value]
            suit = _suit_text(card, ascii_only)
            label, centre = rank_name(card.rank) + suit, suit
        key = ("card", h, w, face, style, label, centre)
        rows = canvas.sprite(key, w, h, _draw_card, face, style, label, centre)
        if count:
            times = f"x{count}"
            line = canvas.sprite(
                ("count", w, face, style, times), w, 1, _draw_count, face, style, times
            )
            rows = rows[:]
            rows[h // 2 + (h > 3)] = line[0]  # under the suit; on a small card, instead of it
    sprites[pile] = rows
    canvas.blit_rows(y, x, rows)


def warm_cards(
    cache: RenderCache,
    measure: Callable[[str], int],
    palette: Palette,
    lay: Layout,
    cards: Iterable[Card],
    ascii_only: bool = False,
    flashing: Iterable[int] = (),
) -> None:
    """Draw every card once ahead of time, so that no play waits for its card's drawing;
    and each as flashed on a play pile (``_flashed_card``) by each player in ``flashing``
    (those whose plays flash: not the ones the screen speaks to)."""
    canvas = Canvas(lay.width, lay.card_h, measure, cache)
    _card(canvas, palette, lay, 0, 0, None, 0, ascii_only)
    cards = set(cards)
    for card in cards:
        _card(canvas, palette, lay, 0, 0, card, 1, ascii_only)
    for player in flashing:
        for x in lay.pile_x:
            for card in cards:
                _flashed_card(canvas, palette, lay, 0, x, card, player, ascii_only)


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


def draw_player(view: Scene, palette: Palette, canvas: Canvas, lay: Layout, player: int) -> None:
    """A player's row (one piece, for what it shows), and the player's notice line."""
    side = view.seen.sides[player]
    key = (  # (the counts before the cards: a play changes one, and the last frame's key
        # is told apart by comparing them, where a card is compared by a Python function)
        "player",
        player,
        lay,
        side.draw_count,
        side.row_sizes,
        side.row,
        view.score[player],
        view.rules,
        view.names[player],
        view.kinds[player],
        view.keymap,
        view.ascii,
    )
    y = lay.rows_y[player]
    # Its rows: the cards, then their keys.
    canvas.piece(key, y, y + lay.card_h + 1, _player_row, view, palette, canvas, lay, player)
    _refill_marks(view, palette, canvas, lay, player)
    _player_notice(view, palette, canvas, lay, player)


def _refill_marks(view: Scene, palette: Palette, canvas: Canvas, lay: Layout, player: int) -> None:
    """``new`` (a card from the draw pile into a gap) or ``+1`` (stacked onto a pile of its
    rank) between a row pile's keys, for a moment after it happens."""
    refills = view.notices.refills
    if not refills:
        return
    y = lay.rows_y[player] + lay.card_h
    for (who, pile), mark in refills.items():
        if who != player or pile >= view.rules.row_size:
            continue
        left_key, right_key = view.keymap.pile_keys(player, pile)
        left, right = len(left_key or "-"), len(right_key or "-")  # ("-": no key)
        inner = lay.card_w - left - right - 2
        text = mark.text if inner >= len(mark.text) + 2 else "+"
        if inner < len(text) + 2:
            continue
        x = lay.row_x + pile * (lay.card_w + lay.gap) + 1 + left + (inner - len(text)) // 2
        canvas.put(y, x, text, palette.info)


def _pile_marks(view: Scene, palette: Palette, canvas: Canvas, lay: Layout) -> None:
    """Who put the top card on each play pile (or ``flip``), beside it under its size, for a
    moment after: so that both can follow a fast exchange. A name is said whole or not at
    all; where it does not fit (the right pile of a narrow table has three columns), an
    arrow in the player's colour points to their row."""
    mid = lay.piles_y + lay.card_h // 2
    for target, mark in enumerate(view.notices.piles):
        if mark is None or view.seen.tops[target] is None:
            continue
        x = lay.pile_x[target]
        room = x - 2 if target == 0 else canvas.width - x - lay.card_w - 2
        text = mark.text
        width = canvas.text_width(text)
        if width > room and mark.player is not None:
            up = lay.rows_y[mark.player] < lay.piles_y
            text = ("^" if up else "v") if view.ascii else ("▲" if up else "▼")
            width = canvas.text_width(text)
        if width > room:
            continue  # said whole or not at all
        style = palette.info if mark.player is None else palette.names[mark.player]
        if target == 0:
            canvas.put(mid + 1, x - 2 - width, text, style)
        else:
            canvas.put(mid + 1, x + lay.card_w + 2, text, style)


def _flashed_card(
    canvas: Canvas,
    palette: Palette,
    lay: Layout,
    y: int,
    x: int,
    top: Card,
    player: int,
    ascii: bool,
) -> None:
    """A play pile the other player just played on stands out for a moment
    (``Notices.flashes``): a bar in the player's colour down each side of its card, where
    the screen has room. Drawn while it lasts, gone at the frame after (one redraw, no
    frames in between). The card and its bars are one drawing, kept (and drawn ahead, as
    cards are: ``warm_cards``) and put as one: a flash costs what a card does."""
    left, right = x >= 1, x + lay.card_w < canvas.width
    key = (
        "flashed",
        lay.card_h,
        lay.card_w,
        top.rank,
        top.suit,
        player,
        left,
        right,
        ascii,
        palette,
    )
    rows = canvas.cache.sprites.get(key)
    if rows is None:
        bars = ("|", "|") if ascii else ("\u2590", "\u258c")
        width = left + lay.card_w + (canvas.text_width(bars[1]) if right else 0)
        args = (palette, lay, top, palette.names[player], bars, left, right, ascii)
        rows = canvas.sprite(key, width, lay.card_h, _draw_flashed, *args)
    canvas.blit_rows(y, x - left, rows)


def _draw_flashed(
    canvas: Canvas,
    palette: Palette,
    lay: Layout,
    top: Card,
    style: str,
    bars: tuple[str, str],
    left: bool,
    right: bool,
    ascii_only: bool,
) -> None:
    """A flashed card (``_flashed_card``): the card, then its bars over it."""
    _card(canvas, palette, lay, 0, left, top, 0, ascii_only, stack=False)
    for y in range(canvas.height):
        if left:
            canvas.put(y, 0, bars[0], style)
        if right:
            canvas.put(y, left + lay.card_w, bars[1], style)


def _player_row(view: Scene, palette: Palette, canvas: Canvas, lay: Layout, player: int) -> None:
    """Each pile's top card, the keys under the row and the block beside it (the keys and
    the block drawn once for each thing they can show, and kept)."""
    side = view.seen.sides[player]
    piles = len(side.row)
    y = lay.rows_y[player]
    sizes = side.row_sizes
    for i, top in enumerate(side.row):
        x = lay.row_x + i * (lay.card_w + lay.gap)
        _card(canvas, palette, lay, y, x, top, sizes[i], view.ascii)
    keys_key = (
        "pile keys",
        player,
        canvas.width,
        lay.row_x,
        lay.card_w,
        lay.gap,
        piles,
        view.keymap.stamp,
    )
    sprites = canvas.cache.sprites  # (looked up first: Canvas.sprite only to draw one)
    keys = sprites.get(keys_key) or canvas.sprite(
        keys_key, canvas.width, 1, _pile_keys, view.keymap, palette, lay, player, piles
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
        view.keymap.stamp,
    )
    info = sprites.get(info_key) or canvas.sprite(
        info_key, lay.info_w, lay.card_h, _player_info, view, palette, lay, player
    )
    canvas.blit_rows(y, lay.info_x, info)
    # The draw pile's count, which every play from it changes, on the line left for it:
    # drawn once for each count (and ahead of time: ``counts.warm_counts``), and kept.
    line_key = line_key_of(view, palette, lay, player, side.draw_count)
    line = sprites.get(line_key) or draw_line(canvas, line_key)
    canvas.blit(y + 1, lay.info_x + 1, line[0])


def _pile_keys(
    canvas: Canvas, keys: KeyMap, palette: Palette, lay: Layout, player: int, piles: int
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


_OTHER_KEYS = {
    Intent.STRESS: N_("stress"),
    Intent.READY: N_("ready"),
    Intent.STOP: N_("stop"),
    Intent.TOGETHER: N_("equals"),
}
"""What the row's side calls a player's keys besides the piles' (in at most 7 columns)."""


def _player_info(canvas: Canvas, view: Scene, palette: Palette, lay: Layout, player: int) -> None:
    """Beside the row: name, score, the player's other keys, and a line left blank for the
    draw pile (``counts.draw_line``)."""
    name = view.names[player]
    kind = view.kinds[player]
    info_w = lay.info_w - 2
    lines: list[tuple[str, str]] = [(canvas.clip(name, info_w), palette.names[player])]
    if lay.card_h > 5:
        lines += [("", ""), (wins(view.score[player], view.rules.wins), palette.plain), ("", "")]
    else:
        lines.append(("", ""))
    if kind.startswith("bot:"):
        lines.append((_("computer, {level}").format(level=_(kind[4:])), palette.info))
    else:
        extra = [(_(_OTHER_KEYS[intent]), key) for intent, key in view.other_keys(player)]
        if lay.card_h > 3:
            lines += [(f"{what:<7}{key}", palette.hint) for what, key in extra]
        else:
            # One line beside small cards: as many whole "key name" pairs as it holds.
            pairs = [f"{what} {key}" for what, key in extra]
            while len(pairs) > 1 and canvas.text_width("  ".join(pairs)) > info_w:
                pairs.pop()
            lines.append(("  ".join(pairs), palette.hint))
    for dy, (text, style) in enumerate(lines[: max(lay.card_h, 3)]):
        canvas.put(dy, 1, canvas.clip(text, info_w), style)


def _player_notice(view: Scene, palette: Palette, canvas: Canvas, lay: Layout, player: int) -> None:
    """What just happened to the player, while it is true: a refused play, ready to flip;
    during a lockout its reason and the time left."""
    notice = view.notices.player[player]
    if notice is not None and not notice.shown(view.seen.phase):
        notice = None
    left = lockout_left(view, player)
    forms: list[str] = []
    style = palette.warn
    start = None if view.waiting is None else _start_notice(view, player)
    if start is not None:
        forms, style = list(start), palette.count
    elif left is not None:
        tail = _("locked out")
        if view.own_rows[player]:
            tail = _("locked out {seconds}s").format(seconds=decimal(left, 1, _))
        if notice is not None:
            forms = [f"{notice.text}; {tail}"]
            forms += [f"{said}; {tail}" for said in (notice.short, notice.brief) if said]
        forms.append(tail)
    elif view.together[player]:
        forms = [_("together: the next pile goes with its equals"), _("together")]
        style = palette.info
    elif notice is not None:
        forms = [notice.text] if notice.short is None else [notice.text, notice.short]
        style = {"warn": palette.warn, "good": palette.good}.get(notice.kind, palette.info)
    if forms:
        text = canvas.fit(canvas.width - lay.row_x, *forms)
        canvas.put(lay.notice_y[player], lay.row_x, text, style)


def lockout_left(view: Scene, player: int) -> float | None:
    """The lockout's time left as shown, in tenths of a second rounded up (``None``: the
    player is not locked out)."""
    seen = view.seen
    left = seen.sides[player].locked_until - view.now
    if left <= 1e-9 or seen.phase is Phase.ROUND_OVER:
        return None
    return math.ceil(left * 10 - 1e-6) / 10


def lockout_ticks(table: Table, now: float, own_rows: tuple[bool, bool]) -> float | None:
    """The game time after ``now`` at which a lockout's time left next changes where it
    is shown: beside the rows of ``own_rows`` (``Scene.own_rows``). ``None``: none of
    their players is locked out.

    A tenth a hair after ``now`` is still to come, though ``lockout_left`` already shows
    it: the screen's timer is set for it and a frame drawn then, whatever was drawn now (a
    tick taken as come by a hair was never drawn when nothing else drew a frame)."""
    ticks = []
    for i, player in enumerate(table.game.state.players):
        left = player.locked_until - now
        if own_rows[i] and left > 1e-9:
            tenths = math.ceil(left * 10 - 1e-6)  # as lockout_left shows it
            tick = player.locked_until - tenths / 10
            if tick <= now:
                tick = player.locked_until - (tenths - 1) / 10
            ticks.append(tick)
    return min(ticks) if ticks else None


def count_up(left: float, seconds: float) -> int:
    """How far a count of ``seconds`` has come with ``left`` of them to go: 1, then 2,
    then 3 (each a third of it). Every count in the game counts so, up to the moment on
    three: the start, each flip ("New cards on three") and play going on after a pause,
    the help, a window too small or a stop (at one keyboard and at a network table).

    >>> count_up(1.5, 1.5), count_up(0.9, 1.5), count_up(0.01, 1.5)
    (1, 2, 3)
    """
    third = seconds / 3
    if third <= 0:
        return 3
    return max(1, min(3, int((seconds - left) / third + 1e-6) + 1))


def resume_count(life: Lifecycle, loop_time: Callable[[], float] | None) -> int | None:
    """The count before play goes on, as shown: 1, 2, 3 (``None``: no count), read on the
    loop's clock (``None``: no loop yet)."""
    if loop_time is None or not life.stopped:
        return None  # (a count runs only while the clock stands still, as in play)
    left = life.count_left(loop_time())
    return None if left is None else count_up(left, life.count)


def count_text(shown: int) -> str:
    """A count as drawn between the play piles: ``1``, ``1  2``, ``1  2  3``."""
    return "  ".join(str(n) for n in range(1, shown + 1))


def countdown_text(table: Table, now: float) -> str | None:
    """``1``, ``1 2``, ``1 2 3`` as the count before a flip runs (``None``: no count)."""
    left = table.count_left(now)
    if left is None:
        return None
    return count_text(count_up(left, table.countdown))


def countdown_ticks(table: Table, now: float) -> float | None:
    """The game time after ``now`` at which the count's figure next changes (``None``: no
    count running). A figure a hair after ``now`` is still to come, though ``count_up``
    already shows it: the screen's timer is set for it and a frame drawn then, whatever
    was drawn now (a tick taken as come by a hair was never drawn when nothing else drew
    a frame: ``1``, then ``1  2  3``)."""
    if table.flip_at is None:
        return None
    step = table.countdown / 3
    start = table.flip_at - table.countdown
    for k in (1, 2):
        tick = start + k * step
        if tick > now:
            return tick
    return None


def draw_middle(view: Scene, palette: Palette, canvas: Canvas, lay: Layout) -> None:
    seen = view.seen
    y = lay.piles_y
    mid = y + lay.card_h // 2
    # Drawn at every frame, not a piece (``Canvas.piece``): every legal play changes them,
    # and a piece drawn again costs its bookkeeping on top of its drawing.
    _play_piles(view, palette, canvas, lay)
    _pile_marks(view, palette, canvas, lay)
    between_x = lay.pile_x[0] + lay.card_w
    between_w = lay.pile_x[1] - between_x
    count = countdown_text(view.table, view.now)
    if view.resume_count is not None:
        count = count_text(view.resume_count)
    if count is not None:
        canvas.put_centered(mid, between_x, between_w, count, palette.count)
    # The banner.
    headline = view.notices.headline
    if view.resume_count is not None:
        text = canvas.fit(canvas.width, _("Play goes on at three"))
        canvas.put_centered(lay.banner_y, 0, canvas.width, text, palette.count)
    elif view.waiting is not None and (headline is None or not headline.shown(seen.phase)):
        canvas.put_centered(lay.banner_y, 0, canvas.width, _start_line(view, canvas), palette.count)
    elif seen.phase is _STRESS:
        stress_keys = [key_label(k) for p in (0, 1) for k in view.keymap.keys_for(Intent.STRESS, p)]
        text = "  " + _("STRESS!") + "  "
        if stress_keys:
            text += _("first to hit {keys} wins").format(keys=_(" or ").join(stress_keys)) + "  "
        text = canvas.fit(canvas.width, text, "  " + _("STRESS!") + "  ")
        canvas.put_centered(lay.banner_y, 0, canvas.width, text, palette.stress)
    elif headline is not None and headline.shown(seen.phase):
        style = {"warn": palette.warn, "good": palette.good}.get(headline.kind, palette.banner)
        forms = [headline.text] if headline.short is None else [headline.text, headline.short]
        text = canvas.fit(canvas.width, *forms)
        canvas.put_centered(lay.banner_y, 0, canvas.width, text, style)
    elif seen.phase is _WAITING_FLIP:
        canvas.put_centered(lay.banner_y, 0, canvas.width, _("New cards on three"), palette.banner)


def _start_line(view: Scene, canvas: Canvas) -> str:
    """Before a round starts, on the banner: that it waits for the people at the table
    (each one's key is beside their row: ``_start_notice``)."""
    assert view.waiting is not None
    people = sum(kind == "human" for kind in view.kinds)  # at a network table, both
    if people < 2:
        whole = _("The round starts when you press your ready key")
    else:
        whole = _("The round starts when both press their ready keys")
    return canvas.fit(canvas.width, whole, _("Press your ready key to start"))


def _start_notice(view: Scene, player: int) -> tuple[str, ...] | None:
    """Before a round starts, beside a person's row: their ready key, or that they are
    ready (and who is still awaited)."""
    assert view.waiting is not None
    key = view.keymap.key_for(Intent.READY, player)
    if key is None and view.kinds[player] != "human":
        return None  # a computer is always ready
    if view.waiting[player]:
        if key is None:  # a person at the other terminal
            return (_("not ready yet"),)
        return (_("press {key} when ready").format(key=key_label(key)),)
    other = 1 - player
    if view.waiting[other]:
        if view.you[other]:
            return (_("ready: waiting for you"), _("ready"))
        return (_("ready: waiting for {name}").format(name=view.names[other]), _("ready"))
    return (_("ready"),)


def _play_piles(view: Scene, palette: Palette, canvas: Canvas, lay: Layout) -> None:
    """The two piles in the middle, with their sizes beside them."""
    y = lay.piles_y
    mid = y + lay.card_h // 2
    seen = view.seen
    flashes = view.notices.flashes
    sprites = canvas.cache.sprites
    for target, x in enumerate(lay.pile_x):
        top, count = seen.tops[target], seen.pile_sizes[target]
        flash = flashes[target]
        if top is not None and flash is not None and flash.player is not None:
            _flashed_card(canvas, palette, lay, y, x, top, flash.player, view.ascii)
        else:
            _card(canvas, palette, lay, y, x, top, count, view.ascii, stack=False)
        if top is None:
            continue
        size_key = size_key_of(palette, lay, target, count)
        cells = (sprites.get(size_key) or pile_size(canvas, size_key))[0]
        if target == 0:
            canvas.blit(mid, x - 2 - len(cells), cells)
        else:
            canvas.blit(mid, x + lay.card_w + 2, cells)
