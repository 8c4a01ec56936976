"""A network table's panel: waiting for a player, or why the match stands still (paused by
whom, a player dropped or away, the match over), with what the keys do there."""

from __future__ import annotations

import re
import textwrap
from typing import ClassVar

from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Binding, Intent, Scope, key_hint
from stress_tui.terminal.lang import N_
from stress_tui.terminal.scene import Overlay, Scene
from stress_tui.terminal.screens.base import ALWAYS, ModalScreen, panel
from stress_tui.terminal.screens.pause import PauseScreen

QUIT_ONLY = (Binding("q", Intent.MENU_QUIT, scope=Scope.MENU, hint=N_("quit")),)
"""What a network panel's hint offers where only leaving is up to this end: a spectator,
a match over, or one standing still until the host or the other player moves it."""


FIGURE_AND_UNIT = re.compile(r"(?<=\d) (?=m?s\b)")
"""The space between a figure and its unit (``58 s``, ``40 ms``): no panel line breaks there."""


class NetPanelScreen(ModalScreen):
    """A network table's pause: what the host says of the match (paused by whom, a player
    away or dropped, the match over), and its keys (Enter plays on, Esc pauses, q leaves),
    its hint from its bindings; where only leaving is up to this end, that alone."""

    TITLE = "a network table's pause"
    NAME = Overlay.PAUSE
    BINDINGS: ClassVar[tuple[Binding, ...]] = (
        Binding(
            "enter", Intent.CONFIRM, scope=Scope.MENU, description=N_("play on"), hint=N_("play on")
        ),
        Binding("escape", Intent.PAUSE, scope=Scope.GLOBAL, description=N_("play on")),
        Binding("?", Intent.HELP, scope=Scope.GLOBAL, description=N_("help"), hint=N_("help")),
        Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
        Binding("q", Intent.MENU_QUIT, scope=Scope.MENU, description=N_("quit"), hint=N_("quit")),
        *ALWAYS,
    )

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        link = view.link
        if link is None or link.status is None:
            PauseScreen().draw(view, palette, canvas)
            return
        first, *more = link.status.split("\n")
        said = [(first, palette.panel_title), *((line, palette.panel) for line in more)]
        room = canvas.width - 6
        lines = [(part, style) for line, style in said for part in _wrapped(line, room)]
        keys = key_hint(QUIT_ONLY if link.quit_only else self.BINDINGS)
        panel(canvas, palette, [*lines, ("", ""), (keys, palette.panel_key)])


class NetWaitingScreen(NetPanelScreen):
    """The network's waiting screen: the host's table open, waiting for a player, with the
    line they join with; Esc or q gives up waiting."""

    TITLE = "a network table, waiting for a player"
    BINDINGS = (
        Binding(
            "escape",
            Intent.PAUSE,
            scope=Scope.GLOBAL,
            description=N_("give up"),
            hint=N_("give up"),
        ),
        Binding(
            "q", Intent.MENU_QUIT, scope=Scope.MENU, description=N_("give up"), hint=N_("give up")
        ),
        Binding("?", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
        Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
        *ALWAYS,
    )


def _wrapped(line: str, room: int) -> list[str]:
    """``line`` over as many lines of ``room`` columns as it needs: never a word dropped
    (the join line's last word is the table's code), broken after its colon first
    ("the connection to the host was lost:", "trying again, 58 s"), never between a
    figure and its unit."""
    if len(line) > room and ": " in line:
        head, tail = line.split(": ", 1)
        return [*_wrapped(head + ":", room), *_wrapped(tail, room)]
    kept = FIGURE_AND_UNIT.sub("\u00a0", line)
    parts = textwrap.wrap(kept, room, break_long_words=False, break_on_hyphens=False)
    return [part.replace("\u00a0", " ") for part in parts] or [line]
