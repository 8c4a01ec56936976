"""A frame: the title line, then the screen on top (the table, or a screen over it), drawn
from a ``Scene``. A screen over the table (help, pause, the result) has the window to itself
under the title line, blank around its box, so that no part of the table shows through or
beside it half cut; a window too small for the table shows only that.

``render`` draws on a canvas (``draw.canvas``) and returns the frame's rows of cells;
``draw.encode`` then turns the difference from the last frame into the text to write.
"""

from __future__ import annotations

from stress_tui.terminal.draw.canvas import Canvas, Frame
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.layout import flipped, layout
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.table import TABLE
from stress_tui.terminal.title import draw_title


def render(view: Scene, palette: Palette, canvas: Canvas) -> Frame:
    """Draw ``view`` on ``canvas`` (a blank canvas of the screen's size); return its rows."""
    lay = layout(canvas.width, canvas.height, view.rules.row_size)
    if lay is None:
        from stress_tui.terminal.screens.small import TooSmallScreen  # (when one shows)

        TooSmallScreen().draw(view, palette, canvas)
        return canvas.frame()
    if view.bottom == 0:  # seen from player 1's chair: their row at the bottom
        lay = flipped(lay)
    draw_title(view, palette, canvas, lay)
    (view.overlay or view.table_screen or TABLE).draw(view, palette, canvas)
    return canvas.frame()
