"""The title line: the game's name (or that a replay is watched, or who is at a network
table and the connection's delay), the rules in a line, and the keys everyone has, made
from the bindings (``keys.title_hint``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stress_tui.core.rulestext import short_line
from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Intent, title_hint
from stress_tui.terminal.lang import N_, _
from stress_tui.terminal.layout import Layout
from stress_tui.terminal.scene import Scene

if TYPE_CHECKING:
    from stress_tui.terminal.netplay import LinkBar
    from stress_tui.terminal.playback import ReplayBar


def draw_title(view: Scene, palette: Palette, canvas: Canvas, lay: Layout) -> None:
    """The title line: the game, the rules in play, the keys everyone has."""
    if view.replay is not None:
        _replay_title(view, view.replay, palette, canvas, lay)
        return
    if view.link is not None:
        _link_title(view, view.link, palette, canvas, lay)
        return
    key = (
        "title",
        canvas.width,
        view.rules.stamp,
        view.keymap.stamp,
        view.ascii_note,
        view.daily,
        palette.title,
        palette.hint,
    )
    rows = canvas.cache.sprites.get(key) or canvas.sprite(  # (Canvas.sprite only to draw it)
        key, canvas.width, 1, _draw_title, view, palette
    )
    canvas.blit(lay.title_y, 0, rows[0])


def _replay_title(
    view: Scene, bar: ReplayBar, palette: Palette, canvas: Canvas, lay: Layout
) -> None:
    """A replay's title line: that it is one, who played, how fast it runs, whether it is
    paused, the rules; the keys on the right."""
    y = lay.title_y
    going = {Intent.PAUSE: N_("go on")} if bar.paused else None
    keys = title_hint(view.keymap.bindings, going)
    x = canvas.put(y, 0, _(" REPLAY "), palette.title)
    state = f" x{bar.speed:g}  {bar.done}/{bar.total}"
    if bar.paused:
        x = canvas.put(y, x, state + "  ", palette.hint)
        x = canvas.put(y, x, _("PAUSED"), palette.warn)
    else:
        x = canvas.put(y, x, state, palette.hint)
    right = canvas.width - canvas.text_width(keys) - 1
    who = "  " + _("{first} v {second}").format(first=view.names[0], second=view.names[1])
    room = right - x - 2
    if room > 8:
        x = canvas.put(y, x, canvas.clip(who, room), palette.plain)
    room = right - x - 4
    if room > 8:
        canvas.put(y, x + 2, canvas.fit(room, _rule_line(view, room)), palette.hint)
    canvas.put(y, right, keys, palette.hint)


def _link_title(view: Scene, link: LinkBar, palette: Palette, canvas: Canvas, lay: Layout) -> None:
    """A network table's title line: who plays whom, the connection's delay, the rules;
    the table's keys on the right, from its bindings, as at one keyboard. Made again only
    when what it says changes (a frame of a table for two is mostly a count going down)."""
    delay = (
        _("delay ...")
        if link.delay_ms is None
        else _("delay {ms} ms").format(ms=f"{link.delay_ms:.0f}")
    )
    key = (
        "link title",
        canvas.width,
        link.role,
        delay,
        view.names,
        view.rules.stamp,
        view.keymap.stamp,
        view.ascii_note,
        palette.title,
        palette.plain,
        palette.hint,
    )
    rows = canvas.sprite(key, canvas.width, 1, _draw_link_title, view, link, delay, palette)
    canvas.blit(lay.title_y, 0, rows[0])


def _draw_link_title(
    canvas: Canvas, view: Scene, link: LinkBar, delay: str, palette: Palette
) -> None:
    y = 0
    bindings = view.keymap.bindings
    if link.role == "watch":  # a spectator's Esc pauses nothing: the match is the players'
        bindings = tuple(b for b in bindings if b.intent is not Intent.PAUSE)
    right = title_hint(bindings)
    keys_x = canvas.width - canvas.text_width(right) - 1
    x = canvas.put(y, 0, _(" STRESS "), palette.title)
    who = {"host": _("hosting"), "join": _("joined"), "watch": _("watching")}.get(link.role, "")
    players = _("{first} v {second}").format(first=view.names[0], second=view.names[1])
    # The delay whole, two columns clear of the keys: on a narrow line the role goes
    # first, then who plays whom (their names are beside the rows too).
    for lead in (f" {who}  {players}  ", f" {players}  ", " "):
        if x + canvas.text_width(lead + delay) + 2 <= keys_x:
            break
    x = canvas.put(y, x, lead, palette.plain)
    x = canvas.put(y, x, delay, palette.hint)
    room = keys_x - x - 4  # the rules two columns clear of the delay and of the keys
    if room > 8:
        canvas.put(y, x + 2, canvas.fit(room, _rule_line(view, room)), palette.hint)
    canvas.put(y, keys_x, right, palette.hint)


def _rule_line(view: Scene, room: int) -> str:
    """The rules in a line of at most ``room`` columns, with why the suits are letters if
    the terminal chose that and there is room for it beside some of the rules."""
    if view.ascii_note is None:
        return short_line(view.rules, room, _)
    note = f"; {_(view.ascii_note)}"
    line = short_line(view.rules, room - len(note), _)
    return line + note if line else short_line(view.rules, room, _)


def _draw_title(canvas: Canvas, view: Scene, palette: Palette) -> None:
    """The game's name, the daily deal's day if it is one, the rules (in short forms where
    the line is narrow, never cut mid-word), and the keys everyone has on the right."""
    right = title_hint(view.keymap.bindings)
    x = canvas.put(0, 0, _(" STRESS "), palette.title)
    if view.daily is not None:
        x = canvas.put(0, x + 1, _("daily deal of {day}").format(day=view.daily), palette.plain)
    room = canvas.width - x - canvas.text_width(right) - 5
    if room > 8:  # the rules said short rather than cut (the match length kept), three
        # columns clear of the keys on the right
        canvas.put(0, x + 1, canvas.fit(room, _rule_line(view, room)), palette.hint)
    canvas.put(0, canvas.width - canvas.text_width(right) - 1, right, palette.hint)
