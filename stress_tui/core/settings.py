"""Everything a launch decides: the rules, the players, the names and the display.

Made by the command line (flags over the config file over defaults) and handed to the app,
the simulator and the replayer. No terminal here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stress_tui.core.rules import Rules

PLAYER_KINDS = ("human", "bot:easy", "bot:normal", "bot:hard", "bot:expert")
"""What may sit at each side of the table."""


@dataclass(frozen=True)
class Settings:
    """What a launch of the game decides."""

    rules: Rules = field(default_factory=Rules)
    """The house rules."""
    seed: int | None = None
    """Seeds the deal; ``None`` draws a seed (shown on the result screen)."""
    names: tuple[str, str] = ("Player 1", "Player 2")
    """The players' names: player 1 sits at the top, player 2 at the bottom."""
    players: tuple[str, str] = ("human", "human")
    """Who plays each side: ``human`` or ``bot:LEVEL``."""
    ascii: bool = False
    """Draw suits as letters, for terminals without the glyphs."""
    four_colour: bool = False
    """A four-colour deck: clubs green, diamonds blue."""
    lang: str | None = None
    """The language the game speaks (``--lang``, the config file's ``lang``); ``None``: the
    environment's."""
    keymap: dict[str, dict[str, str]] | None = None
    """Key overrides from ``--keys`` or the config file (checked by ``keys``); ``None``
    keeps the default layout."""
