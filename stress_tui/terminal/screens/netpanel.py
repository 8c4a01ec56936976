"""A network table's panel: waiting for a player, or why the match stands still (paused by
whom, a player dropped or away, the match over), with what the keys do there."""

from __future__ import annotations

from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Binding, Intent, Scope
from stress_tui.terminal.lang import N_
from stress_tui.terminal.scene import Overlay, Scene
from stress_tui.terminal.screens.base import ALWAYS, ModalScreen, panel
from stress_tui.terminal.screens.pause import PauseScreen


class NetPanelScreen(ModalScreen):
    """The network's waiting screen and pause: what the host says of the match, and its
    keys (Enter plays on, Esc gives up waiting or pauses, q leaves)."""

    TITLE = "a network table's panel"
    NAME = Overlay.PAUSE
    BINDINGS = (
        Binding("enter", Intent.CONFIRM, scope=Scope.MENU, description=N_("play on")),
        Binding("escape", Intent.PAUSE, scope=Scope.GLOBAL, description=N_("play on")),
        Binding("?", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
        Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
        Binding("q", Intent.MENU_QUIT, scope=Scope.MENU, description=N_("quit")),
        *ALWAYS,
    )

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        link = view.link
        if link is None or link.status is None:
            PauseScreen().draw(view, palette, canvas)
            return
        first, *more = link.status.split("\n")
        lines = [(first, palette.panel_title), *((line, palette.panel) for line in more)]
        panel(canvas, palette, [*lines, ("", ""), (link.keys, palette.panel_key)])
