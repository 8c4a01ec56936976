"""The palette: the style of everything on screen, as SGR sequences, for one terminal and
the player's choices (the theme, colour or not, two or four suit colours).

The styles come from one table of roles, the theme (``draw.theme``); the palette only picks
each role's form for the terminal's number of colours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stress_tui.terminal.draw.theme import DARK, Theme, styles

if TYPE_CHECKING:
    from blessed import Terminal


class Palette:
    """The styles of everything on screen, for a terminal, a theme and the player's
    choices."""

    def __init__(
        self,
        term: Terminal,
        colour: bool = True,
        four_colour: bool = False,
        theme: Theme = DARK,
    ) -> None:
        colours = term.number_of_colors if colour else 0
        self.colour = colours >= 8
        """Whether colours are used at all (not with ``NO_COLOR``, nor in a terminal of
        fewer than 8)."""
        self.theme = theme
        """The table of roles the styles come from."""
        self.colours = colours if self.colour else 0
        """The colours used: 256 (or more), 16, 8, or 0 (attributes only)."""
        role = styles(theme, self.colours)
        self.roles = role
        """Every role's style by name (``Theme.roles``)."""
        self.card_face = role["card_face"]
        black, red = role["black_suit"], role["red_suit"]
        self.suit_styles = {
            "S": black,
            "H": red,
            "C": role["clubs"] if four_colour else black,
            "D": role["diamonds"] if four_colour else red,
        }
        """Each suit's style on a card face, by the suit's letter (``S H C D``)."""
        self.joker = role["joker"]
        self.slot = role["slot"]
        self.title = role["title"]
        self.names = (role["name1"], role["name2"])
        self.hint = role["hint"]
        self.hint_key = role["hint_key"]
        self.warn = role["warn"]
        self.info = role["info"]
        self.good = role["good"]
        self.banner = role["banner"]
        self.stress = role["stress"]
        self.count = role["count"]
        self.panel = role["panel"]
        self.panel_title = role["panel_title"]
        self.panel_key = role["panel_key"]
        self.plain = ""
