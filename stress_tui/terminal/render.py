"""A frame of the table: the pieces, or the title and an overlay instead of them, drawn
from a ``Scene``. An overlay (help, pause, the result) has the screen to itself, blank
around its box, so that no part of the table shows through or beside it half cut.

``render`` draws on a canvas (``draw.canvas``) and returns the frame's rows of cells;
``draw.encode`` then turns the difference from the last frame into the text to write.
"""

from __future__ import annotations

from stress_tui.terminal.draw.canvas import Canvas, Frame
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.layout import flipped, layout
from stress_tui.terminal.pieces import draw_middle, draw_player, draw_title
from stress_tui.terminal.scene import Overlay, Scene


def render(view: Scene, palette: Palette, canvas: Canvas) -> Frame:
    """Draw ``view`` on ``canvas`` (a blank canvas of the screen's size); return its rows."""
    lay = layout(canvas.width, canvas.height, view.rules.row_size)
    if lay is None:
        from stress_tui.terminal import overlays  # (not before one shows: see below)

        overlays.draw_too_small(view, palette, canvas)
        return canvas.frame()
    if view.bottom == 0:  # seen from player 1's chair: their row at the bottom
        lay = flipped(lay)
    draw_title(view, palette, canvas, lay)
    if view.overlay is None:  # an overlay hides the table: nothing shows through its box
        for player in (0, 1):
            draw_player(view, palette, canvas, lay, player)
        draw_middle(view, palette, canvas, lay)
        return canvas.frame()
    # The overlays' module loads when one first shows: a game's first frame has none.
    from stress_tui.terminal import overlays

    if view.overlay == Overlay.HELP:
        overlays.draw_help(view, palette, canvas)
    elif view.overlay == Overlay.PAUSE:
        overlays.draw_pause(view, palette, canvas)
    elif view.overlay == Overlay.RESULT and view.result is not None:
        overlays.draw_result(view, palette, canvas)
    return canvas.frame()
