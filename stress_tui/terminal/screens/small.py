"""The note that the window is too small for the table (the round is held meanwhile)."""

from __future__ import annotations

from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.lang import _
from stress_tui.terminal.layout import minimum_size
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.base import BaseScreen


class TooSmallScreen(BaseScreen):
    """A window too small for the table: the size it needs, instead of everything else.
    It takes no keys of its own: the keys go on to the screen it hides (Esc still pauses),
    and it goes as soon as the window is large enough again."""

    TITLE = "window too small"
    NAME = "small"

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        draw_too_small(view, palette, canvas)


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
