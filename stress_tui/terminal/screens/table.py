"""The table itself: the players' rows and the middle, under every other screen."""

from __future__ import annotations

from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import GLOBAL_BINDINGS, REPLAY_BINDINGS, Scope
from stress_tui.terminal.lang import _
from stress_tui.terminal.layout import flipped, layout
from stress_tui.terminal.pieces import draw_middle, draw_player
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.base import BaseScreen


class TableScreen(BaseScreen):
    """The table: each player's row, the play piles, the countdown and the banner, and
    under it, on the window's last line (which the table leaves free at every size), the
    offer of the practice to a newcomer. Its keys are the key map's (the players' own,
    which the config may change) and these, which everyone shares: help, pause, quit at
    once, redraw."""

    TITLE = "table"
    NAME = "table"
    BINDINGS = tuple(b for b in GLOBAL_BINDINGS if b.scope is Scope.GLOBAL)

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        lay = layout(canvas.width, canvas.height, view.rules.row_size)
        assert lay is not None
        if view.bottom == 0:  # seen from player 1's chair: their row at the bottom
            lay = flipped(lay)
        for player in (0, 1):
            draw_player(view, palette, canvas, lay, player)
        draw_middle(view, palette, canvas, lay)
        if view.offer:
            footer(
                canvas,
                palette.info,
                _("New to Stress? stress-tui learn is a short practice against a slow computer"),
                _("New? stress-tui learn: a short practice"),
            )


def footer(canvas: Canvas, style: str, *forms: str) -> None:
    """A line on the window's last line, under the table, in the middle: the first of
    ``forms`` that fits (never cut mid-word)."""
    text = canvas.fit(canvas.width - 2, *forms)
    canvas.put_centered(canvas.height - 1, 0, canvas.width, text, style)


class ReplayTableScreen(TableScreen):
    """The table while a replay is watched, the replay's bar on its title line: nobody
    plays; Space pauses, the arrows step, + and - change the speed."""

    TITLE = "table, watching a replay"
    NAME = "replay"
    BINDINGS = tuple(b for b in REPLAY_BINDINGS if b.scope is Scope.GLOBAL)


TABLE = TableScreen()
"""The table, under every screen."""
