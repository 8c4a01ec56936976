"""The result screen: who won the round (or the match), the score, the round's statistics
and charts, its files; and ``Result``, what it shows."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from stress_tui.core.words import decimal
from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Binding, Intent, Scope, key_hint
from stress_tui.terminal.lang import N_, _, ngettext
from stress_tui.terminal.scene import Overlay, Scene
from stress_tui.terminal.screens.base import ALWAYS, ModalScreen, panel

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
    """What Enter does instead of the next round or the rematch, as its key hint says it
    (``N_``; the daily's: leave)."""
    charts: tuple[tuple[str, tuple[Point, ...]], ...] = ()
    """The people the round rated, each with their last rated rounds: drawn as charts of
    their rating and median reaction when the window has room."""


class ResultScreen(ModalScreen):
    """A round's result: Enter goes on (the next round, a rematch), q quits; neither works
    until the lifecycle says the result takes keys."""

    TITLE = "result"
    NAME = Overlay.RESULT
    BINDINGS: ClassVar[tuple[Binding, ...]] = (
        Binding(
            "enter", Intent.CONFIRM, scope=Scope.MENU, description=N_("go on"), hint=N_("go on")
        ),
        Binding("q", Intent.MENU_QUIT, scope=Scope.MENU, description=N_("quit"), hint=N_("quit")),
        Binding("?", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
        Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
        *ALWAYS,
    )

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        assert view.result is not None
        draw_result(view, palette, canvas, self.keys(view.result))

    def keys(self, result: Result) -> str:
        """Its key hint: what Enter goes on to (the next round, the rematch, or what the
        result says instead), and quitting."""
        going = result.again or (N_("rematch") if result.match_over else N_("next round"))
        return key_hint(self.BINDINGS, instead={Intent.CONFIRM: going})


class ReplayResultScreen(ResultScreen):
    """The end of a replay: Enter watches it again, q or Esc leaves."""

    TITLE = "result, watching a replay"
    BINDINGS = (
        Binding(
            "enter",
            Intent.CONFIRM,
            scope=Scope.MENU,
            description=N_("watch again"),
            hint=N_("watch again"),
        ),
        Binding(
            "q", Intent.MENU_QUIT, scope=Scope.GLOBAL, description=N_("leave"), hint=N_("leave")
        ),
        Binding(
            "escape",
            Intent.MENU_QUIT,
            scope=Scope.GLOBAL,
            description=N_("leave"),
            hint=N_("leave"),
        ),
        *ALWAYS,
    )

    def keys(self, result: Result) -> str:
        return key_hint(self.BINDINGS)


def draw_result(view: Scene, palette: Palette, canvas: Canvas, go: str) -> None:
    """The result, with the screen's key hint ``go`` (once its keys work)."""
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
    shown = go if result.keys_live else ""
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
    panel(canvas, palette, lines, min_w=40)


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
    """``0.41s`` (``0,41s`` in Swedish and German), ``-`` for none."""
    return "-" if value is None else decimal(value, 2, _) + "s"


def _with_times(count: int, times: Sequence[float]) -> str:
    """``2 (0.41s 0.38s)``: a count and the reaction times of the calls behind it."""
    if not times:
        return str(count)
    return f"{count} (" + " ".join(_seconds(t) for t in times) + ")"


def _fit(text: str, width: int) -> str:
    """A cell cut to ``width``: a list of times that does not fit keeps its count and
    its fastest time."""
    if len(text) <= width:
        return text
    count, _open, times = text.partition(" (")
    if times:
        best = min(float(t.rstrip("s)").replace(",", ".")) for t in times.split())
        short = f"{count} (" + _("best {time}").format(time=_seconds(best)) + ")"
        if len(short) <= width:
            return short
    return text[:width]


def _clock(seconds: float) -> str:
    """``1:23.4``: minutes and seconds."""
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}:{rest:04.1f}"
