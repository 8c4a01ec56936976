"""The overlays drawn over the table: the help screen, the pause box, the round's result
with its statistics (``Result``, what that screen shows), and the note that the window is
too small. Loaded when one first shows: a game's first frame has none.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stress_tui.core.keyboards import KEYBOARDS
from stress_tui.core.rulestext import plain_words
from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Intent, key_label
from stress_tui.terminal.lang import N_, _, ngettext
from stress_tui.terminal.layout import minimum_size
from stress_tui.terminal.scene import Scene

if TYPE_CHECKING:  # a round's statistics and ratings, loaded once a round has ended
    from stress_tui.core.stats import PlayerStats, RoundStats
    from stress_tui.storage.ratings import Point


@dataclass
class Result:
    """The end of a round, for the result screen."""

    winner: int | None
    """Who won the round (``None``: drawn, for nobody)."""
    match_over: bool
    """Whether that round won the match."""
    keys_live: bool = False
    """Whether the result screen takes keys yet (a moment after the round ends)."""
    stats: RoundStats | None = None
    """Both players' statistics of the round."""
    notes: tuple[str, ...] = ()
    """Lines about the round's files: where its replay went, what could not be saved."""
    headline: str | None = None
    """Said instead of who won (why a round was drawn; a replay that stops before the
    end)."""
    again: str | None = None
    """What Enter does instead of the next round (a replay: watch it again)."""
    charts: tuple[tuple[str, tuple[Point, ...]], ...] = ()
    """The people the round rated, each with their last rated rounds: drawn as charts of
    their rating and median reaction when the window has room."""


def draw_too_small(view: Scene, palette: Palette, canvas: Canvas) -> None:
    min_w, min_h = minimum_size(view.rules.row_size)
    lines = [
        (_("Make the window larger"), palette.warn),
        (
            _("the table needs {needed}, this is {size}").format(
                needed=f"{min_w}x{min_h}", size=f"{canvas.width}x{canvas.height}"
            ),
            "",
        ),
        (_("(the round is paused)"), ""),
    ]
    top = max(0, (canvas.height - len(lines)) // 2)
    for i, (text, style) in enumerate(lines):
        if canvas.width < canvas.text_width(text):
            words = {
                0: _("Too small"),
                1: _("need {needed}").format(needed=f"{min_w}x{min_h}"),
                2: _("paused"),
            }
            text = words[i]
        canvas.put_centered(top + i, 0, canvas.width, text, style)


def _panel(
    canvas: Canvas, palette: Palette, lines: Sequence[tuple[str, str]], min_w: int = 30
) -> None:
    """A box of lines (text, style) in the middle of the screen."""
    width = min(canvas.width - 2, max(min_w, *(canvas.text_width(t) + 4 for t, _style in lines)))
    height = min(canvas.height, len(lines) + 2)
    x = (canvas.width - width) // 2
    y = (canvas.height - height) // 2
    for dy in range(height):
        canvas.fill(y + dy, x, width, palette.panel)
    for i, (text, style) in enumerate(lines[: height - 2]):
        canvas.put(y + 1 + i, x + 2, canvas.fit(width - 4, text), style or palette.panel)


_OTHER_KEYS = {
    Intent.STRESS: N_("stress"),
    Intent.READY: N_("ready to flip"),
    Intent.STOP: N_("stress stop"),
    Intent.TOGETHER: N_("equal cards together, then a pile key:"),
}
"""What the help calls a player's keys besides the piles'."""


def _player_keys_lines(view: Scene, player: int) -> list[tuple[str, str]]:
    keys = view.keymap
    name = view.names[player]
    where = _("bottom row") if player == view.bottom else _("top row")
    head = f"{name} ({where})"
    if not keys.has_player(player):
        kind = view.kinds[player]
        if kind == "human":  # a network table: the other player's keys are at their end
            return [(_("{who}: plays from the other terminal").format(who=head), "title")]
        level = kind[4:] if kind.startswith("bot:") else kind
        return [(_("{who}: the computer ({level})").format(who=head, level=_(level)), "title")]
    size = view.rules.row_size

    def row(intent: Intent) -> str:
        return " ".join(key_label(keys.key_for(intent, player, i) or "-") for i in range(size))

    others = [f"{_(_OTHER_KEYS[intent])} {key}" for intent, key in view.other_keys(player)]
    return [
        (head, "title"),
        (
            "  "
            + _("piles 1-{size} onto the left pile:").format(size=size)
            + "  "
            + row(Intent.LEFT),
            "",
        ),
        (
            "  "
            + _("piles 1-{size} onto the right pile:").format(size=size)
            + " "
            + row(Intent.RIGHT),
            "",
        ),
        ("  " + "   ".join(others), ""),
    ]


def _replay_help_lines(view: Scene) -> list[tuple[str, str]]:
    """The replay viewer's keys, one intent a line, from its key map."""
    keys = view.keymap
    lines: list[tuple[str, str]] = [(_("Watching a replay"), "title")]
    for intent, what in (
        (Intent.PAUSE, _("pause, and go on")),
        (Intent.STEP, _("one action on (paused)")),
        (Intent.STEP_BACK, _("one action back (paused)")),
        (Intent.FASTER, _("faster")),
        (Intent.SLOWER, _("slower")),
        (Intent.HELP, _("these keys, and back")),
        (Intent.MENU_QUIT, _("leave")),
        (Intent.CONFIRM, _("watch it again (at the end)")),
    ):
        found = keys.keys_for(intent)
        if found:
            names = _(" or ").join(key_label(k) for k in found)
            lines.append((f"  {names}: {what}", ""))
    return lines


def help_lines(view: Scene, width: int) -> list[tuple[str, str]]:
    """The help screen's lines (text, kind) for a panel ``width`` columns wide; the kind is
    ``title`` or ``""``."""
    keys = view.keymap
    if view.replay is not None:
        return _replay_help_lines(view)
    lines: list[tuple[str, str]] = []
    for player in (0, 1) if view.bottom == 1 else (1, 0):  # the top row's player first
        lines += _player_keys_lines(view, player)
    shared = []
    for intent, what in (
        (Intent.HELP, _("help")),
        (Intent.PAUSE, _("pause")),
        (Intent.QUIT, _("quit")),
        (Intent.REDRAW, _("redraw")),
    ):
        found = keys.keys_for(intent)
        if found:
            shared.append(f"{what} {' '.join(key_label(k) for k in found)}")
    lines.append((_("Everyone"), "title"))
    lines.append(("  " + "   ".join(shared) + "   " + _("suspend ^Z"), ""))
    board = KEYBOARDS.get(view.keyboard)
    if board is not None and any(keys.has_player(p) for p in (0, 1)):
        lines.append(
            (
                "  "
                + _("keys placed for a {keyboard} keyboard (--keyboard: {names})").format(
                    keyboard=board.title, names=", ".join(KEYBOARDS)
                ),
                "",
            )
        )
    lines.append(("", ""))
    lines.append((_("The rules in play"), "title"))
    for sentence in plain_words(view.rules, _):
        for part in textwrap.wrap(sentence, width - 2) or [""]:
            lines.append(("  " + part, ""))
    # A line too long for the panel (a longer language) goes on at the next, between words.
    fitted: list[tuple[str, str]] = []
    for text, kind in lines:
        if len(text) <= width:
            fitted.append((text, kind))
            continue
        indent = "    " if text.startswith("  ") else "  "
        parts = textwrap.wrap(text, width, subsequent_indent=indent, drop_whitespace=False)
        fitted += [(part.rstrip()[:width], kind) for part in parts]
    return fitted


def help_page(view: Scene, width: int, height: int, offset: int) -> tuple[int, int]:
    """The first help line shown (``offset`` kept in range) and how many fit."""
    total = len(help_lines(view, width))
    room = max(1, height - 6)
    return max(0, min(offset, total - room)), room


def draw_help(view: Scene, palette: Palette, canvas: Canvas) -> None:
    width = min(canvas.width - 6, 90)
    lines = help_lines(view, width)
    first, room = help_page(view, width, canvas.height, view.help_offset)
    shown = lines[first : first + room]
    more = []
    if first > 0:
        more.append(_("Up/PgUp: earlier"))
    if first + room < len(lines):
        more.append(_("Down/PgDn: more"))
    parts = [_("Paused.  ? or Esc: back to the game")]
    if view.replay is not None:
        parts = [_("?: back to the replay"), _("q or Esc: leave")]
    elif view.menu_keys:
        parts.append(_("q: quit"))
        if more:
            parts.append("  ".join(more))
    # As many of the keys as the panel holds, whole (a longer language has less room).
    while len(parts) > 1 and canvas.text_width("   ".join(parts)) > width:
        parts.pop()
    footer = "   ".join(parts)
    if view.question is not None:
        footer = view.question
    styles = {"title": palette.panel_title, "": palette.panel}
    panel = [(t, styles[k]) for t, k in shown]
    panel += [("", ""), (canvas.fit(width, footer), palette.panel_key)]
    _panel(canvas, palette, panel, min_w=width + 4)


def draw_pause(view: Scene, palette: Palette, canvas: Canvas) -> None:
    link = view.link
    if link is not None and link.status is not None:
        first, *more = link.status.split("\n")
        lines = [(first, palette.panel_title), *((line, palette.panel) for line in more)]
        _panel(canvas, palette, [*lines, ("", ""), (link.keys, palette.panel_key)])
        return
    _panel(
        canvas,
        palette,
        [
            (_("Paused"), palette.panel_title),
            ("", ""),
            (_pause_keys(view), palette.panel_key),
        ],
    )


def _pause_keys(view: Scene) -> str:
    """The pause box's keys: only those it takes yet, or the question it asks."""
    if view.question is not None:
        return view.question
    if not view.menu_keys:
        return _("Esc: play on    ?: help")
    return _("Esc or Enter: play on    ?: help    q: quit")


def draw_result(view: Scene, palette: Palette, canvas: Canvas) -> None:
    result = view.result
    assert result is not None
    names = view.names
    s1, s2 = view.score
    if result.headline is not None:
        head = result.headline
    elif result.winner is None:
        head = _("A drawn round, for nobody: the next is dealt")
    else:
        if view.you[result.winner]:
            head = _("You win the match!") if result.match_over else _("You win the round!")
        else:
            won = _("{name} wins the match!") if result.match_over else _("{name} wins the round!")
            head = won.format(name=names[result.winner])
    wins = view.rules.wins
    first_to = ngettext("(first to {wins} win)", "(first to {wins} wins)", wins).format(wins=wins)
    score = f"{names[0]} {s1} : {s2} {names[1]}   {first_to}"
    if result.again is not None:
        go = _("Enter: {what}").format(what=result.again)
    else:
        go = _("Enter: rematch") if result.match_over else _("Enter: next round")
    about = []
    if result.stats is not None:
        about.append(_("round {time}").format(time=_clock(result.stats.seconds)))
    if view.seed is not None:
        about.append(_("--seed {seed} deals this round again").format(seed=view.seed))
    top = [(head, palette.panel_title), ("", ""), (score, palette.panel)]
    table = (
        []
        if result.stats is None
        else [
            (text, palette.panel_title if i == 0 else palette.panel)
            for i, text in enumerate(
                stats_lines(result.stats, names, canvas.width - 8, canvas.text_width)
            )
        ]
    )
    # Notes that are longer than the panel (a longer language) go on at the next line.
    room_w = max(20, canvas.width - 6)
    notes = [
        (part, palette.panel)
        for text in ("   ".join(about), *result.notes)
        if text
        for part in textwrap.wrap(text, room_w, subsequent_indent="  ", break_on_hyphens=False)
    ]
    shown = f"{go}    {_('q: quit')}" if result.keys_live else ""
    keys = [(shown if view.question is None else view.question, palette.panel_key)]
    blank = [("", "")]
    room = canvas.height - 2
    lines = [*top, *blank, *table, *blank, *notes, *blank, *keys]
    charts = _chart_lines(view, result, min(canvas.width - 8, 72), canvas.text_width)
    if charts and len(lines) + len(charts) + 1 <= room:  # a tall window: the charts too
        drawn = [(text, palette.panel) for text in charts]
        lines = [*top, *blank, *table, *blank, *drawn, *blank, *notes, *blank, *keys]
    if len(lines) > room:  # a low window: no blank lines around the statistics
        lines = [*top, *blank, *table, *notes, *keys]
    if len(lines) > room:  # lower still: the statistics go
        lines = [
            *top,
            *blank,
            (_("(a taller window shows the statistics)"), palette.panel),
            *notes,
            *keys,
        ]
    if len(lines) > room:
        lines = [*top, *keys]
    _panel(canvas, palette, lines, min_w=40)


def _chart_lines(
    view: Scene, result: Result, width: int, measure: Callable[[str], int]
) -> list[str]:
    """The rated people's charts (rating and median reaction), a blank line between."""
    if not result.charts:
        return []
    from stress_tui.terminal.ratingchart import rating_chart

    lines: list[str] = []
    for name, points in result.charts:
        if lines:
            lines.append("")
        lines += rating_chart(name, points, width, ascii=view.ascii, measure=measure)
    return lines


_STATS_ROWS: tuple[tuple[str, Callable[[PlayerStats], str]], ...] = (
    (N_("cards played"), lambda p: str(p.cards_played)),
    (N_("longest chain"), lambda p: str(p.longest_chain)),
    (N_("median reaction"), lambda p: _seconds(p.median_reaction)),
    (N_("stresses won"), lambda p: _with_times(p.stresses_won, p.won_reactions)),
    (N_("stresses lost"), lambda p: _with_times(p.stresses_lost, p.late_reactions)),
    (N_("false calls"), lambda p: str(p.false_calls)),
    (N_("misplays"), lambda p: str(p.misplays)),
    (N_("lockouts"), lambda p: str(p.lockouts)),
)


def stats_lines(
    stats: RoundStats,
    names: tuple[str, str],
    width: int = 72,
    measure: Callable[[str], int] = len,
) -> list[str]:
    """The round's statistics as a small table at most ``width`` columns wide: a line of
    names, then a line per measure (cards played, longest chain, median reaction, stresses
    won and lost with the calls' reaction times, false calls, misplays, lockouts). Columns
    are padded to the width text takes on screen as ``measure`` finds it (a name in CJK
    characters takes two columns a character)."""
    labels = [_(label) for label, _measure in _STATS_ROWS]
    label_w = max(measure(label) for label in labels) + 2

    def pad(text: str, room: int) -> str:
        return text + " " * max(0, room - measure(text))

    def clip(text: str, room: int) -> str:
        while text and measure(text) > room:
            text = text[:-1]
        return text

    column = max(8, min(22, (width - label_w) // 2))
    lines = [
        pad("", label_w) + pad(clip(names[0], column - 1), column) + clip(names[1], column - 1)
    ]
    for label, (_label, measure_of) in zip(labels, _STATS_ROWS, strict=True):
        cells = [_fit(measure_of(player), column - 1) for player in stats.players]
        lines.append(pad(label, label_w) + pad(cells[0], column) + cells[1])
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
    count, _open, times = text.partition(" (")
    if times:
        best = min(float(t.rstrip("s)")) for t in times.split())
        short = f"{count} (" + _("best {time}").format(time=f"{best:.2f}s") + ")"
        if len(short) <= width:
            return short
    return text[:width]


def _clock(seconds: float) -> str:
    """``1:23.4``: minutes and seconds."""
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:04.1f}"
