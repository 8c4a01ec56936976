"""The overlays drawn over the table: the help screen, the pause box, the round's result
with its statistics, and the note that the window is too small.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from stress_tui.core.rulestext import plain_words
from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Intent, key_label
from stress_tui.terminal.layout import minimum_size
from stress_tui.terminal.scene import Result, Scene

if TYPE_CHECKING:  # a round's statistics, loaded once a round has ended
    from stress_tui.core.stats import PlayerStats, RoundStats


def draw_too_small(view: Scene, palette: Palette, canvas: Canvas) -> None:
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


_OTHER_KEYS = {
    Intent.STRESS: "stress",
    Intent.READY: "ready to flip",
    Intent.STOP: "stress stop",
    Intent.TOGETHER: "equal cards together, then a pile key:",
}
"""What the help calls a player's keys besides the piles'."""


def _player_keys_lines(view: Scene, player: int) -> list[tuple[str, str]]:
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

    others = [f"{_OTHER_KEYS[intent]} {key}" for intent, key in view.other_keys(player)]
    return [
        (head, "title"),
        (f"  piles 1-{size} onto the left pile:  {row(Intent.LEFT)}", ""),
        (f"  piles 1-{size} onto the right pile: {row(Intent.RIGHT)}", ""),
        ("  " + "   ".join(others), ""),
    ]


def help_lines(view: Scene, width: int) -> list[tuple[str, str]]:
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
        more.append("Up/PgUp: earlier")
    if first + room < len(lines):
        more.append("Down/PgDn: more")
    footer = "Paused.  ? or Esc: back to the game"
    if view.menu_keys:
        footer += "   q: quit"
        if more:
            footer += "   " + "  ".join(more)
    if view.question is not None:
        footer = view.question
    styles = {"title": palette.panel_title, "": palette.panel}
    panel = [(t, styles[k]) for t, k in shown]
    panel += [("", ""), (footer, palette.panel_key)]
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
            ("Paused", palette.panel_title),
            ("", ""),
            (_pause_keys(view), palette.panel_key),
        ],
    )


def _pause_keys(view: Scene) -> str:
    """The pause box's keys: only those it takes yet, or the question it asks."""
    if view.question is not None:
        return view.question
    if not view.menu_keys:
        return "Esc: play on    ?: help"
    return "Esc or Enter: play on    ?: help    q: quit"


def draw_result(view: Scene, palette: Palette, canvas: Canvas) -> None:
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
    shown = f"{go}    q: quit" if result.keys_live else ""
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
            ("(a taller window shows the statistics)", palette.panel),
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
