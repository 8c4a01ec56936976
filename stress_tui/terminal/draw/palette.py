"""The palette: the style of everything on screen, as SGR sequences, for one terminal and
the player's choices (colour or not, two or four suit colours).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from blessed import Terminal

_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def _style(term: Terminal, *parts: str) -> str:
    """One SGR sequence that resets and then sets ``parts`` (when they are all SGR)."""
    text = "".join(parts)
    if not text:
        return ""
    params = []
    pos = 0
    for match in _SGR.finditer(text):
        if match.start() != pos:
            return term.normal + text
        params.append(match.group(1) or "0")
        pos = match.end()
    if pos != len(text):
        return term.normal + text
    return "\x1b[0;" + ";".join(params) + "m"


class Palette:
    """The styles of everything on screen, for a terminal and the player's choices."""

    def __init__(self, term: Terminal, colour: bool = True, four_colour: bool = False) -> None:
        colours = term.number_of_colors if colour else 0
        self.colour = colours >= 8
        """Whether colours are used at all (not with ``NO_COLOR``)."""
        s = term
        bold, rev, dim = s.bold, s.reverse, s.dim

        def fg(rich: int, basic: int) -> str:
            return str(cast("Callable[[int], str]", s.color)(rich if colours >= 256 else basic))

        def bg(rich: int, basic: int) -> str:
            paint = cast("Callable[[int], str]", s.on_color)
            return str(paint(rich if colours >= 256 else basic))

        if self.colour:
            face = bg(231, 7)
            self.card_face = _style(s, face)
            black = _style(s, fg(16, 0), face)
            red = _style(s, fg(160, 1), face)
            self.suit_styles = {
                "S": black,
                "H": red,
                "C": _style(s, fg(28, 2), face) if four_colour else black,
                "D": _style(s, fg(20, 4), face) if four_colour else red,
            }
            """Each suit's style on a card face, by the suit's letter (``S H C D``)."""
            self.joker = _style(s, bold, fg(90, 5), face)
            self.slot = _style(s, fg(242, 7))
            self.title = _style(s, bold, rev)
            self.names = (_style(s, bold, fg(45, 6)), _style(s, bold, fg(220, 3)))
            self.hint = _style(s, fg(250, 7))
            self.hint_key = _style(s, bold, fg(231, 7))
            self.warn = _style(s, bold, fg(208, 3))
            self.info = _style(s, fg(117, 6))
            self.good = _style(s, bold, fg(120, 2))
            self.banner = _style(s, bold)
            self.stress = _style(s, bold, fg(231, 7), bg(160, 1))
            self.count = _style(s, bold, fg(226, 3))
            self.panel = _style(s, fg(231, 7), bg(24, 4))
            self.panel_title = _style(s, bold, fg(226, 3), bg(24, 4))
            self.panel_key = _style(s, bold, fg(231, 7), bg(24, 4))
        else:
            self.card_face = _style(s, rev)
            card = _style(s, rev)
            self.suit_styles = dict.fromkeys("SHCD", card)
            self.joker = _style(s, bold, rev)
            self.slot = _style(s, dim)
            self.title = _style(s, bold, rev)
            self.names = (_style(s, bold), _style(s, bold))
            self.hint = ""
            self.hint_key = _style(s, bold)
            self.warn = _style(s, bold)
            self.info = ""
            self.good = _style(s, bold)
            self.banner = _style(s, bold)
            self.stress = _style(s, bold, rev)
            self.count = _style(s, bold)
            self.panel = _style(s, rev)
            self.panel_title = _style(s, bold, rev)
            self.panel_key = _style(s, bold, rev)
        self.plain = ""
