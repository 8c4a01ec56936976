"""The pause box: the round stands still until a player goes on (after a count)."""

from __future__ import annotations

from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Binding, Intent, Scope, key_hint
from stress_tui.terminal.lang import N_, _
from stress_tui.terminal.scene import Overlay, Scene
from stress_tui.terminal.screens.base import ALWAYS, ModalScreen, panel


class PauseScreen(ModalScreen):
    """The round paused (Esc, or a game brought back with ``fg``): Esc or Enter plays on."""

    TITLE = "pause"
    NAME = Overlay.PAUSE
    BINDINGS = (
        Binding(
            "escape",
            Intent.PAUSE,
            scope=Scope.GLOBAL,
            description=N_("play on"),
            hint=N_("play on"),
        ),
        Binding(
            "enter", Intent.CONFIRM, scope=Scope.MENU, description=N_("play on"), hint=N_("play on")
        ),
        Binding("?", Intent.HELP, scope=Scope.GLOBAL, description=N_("help"), hint=N_("help")),
        Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
        Binding("q", Intent.MENU_QUIT, scope=Scope.MENU, description=N_("quit"), hint=N_("quit")),
        *ALWAYS,
    )

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        panel(
            canvas,
            palette,
            [
                (_("Paused"), palette.panel_title),
                ("", ""),
                (view.question or key_hint(self.BINDINGS, view.menu_keys), palette.panel_key),
            ],
        )
