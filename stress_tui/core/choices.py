"""What a launch chooses among, as plain data the help prints: who may sit at each side of
the table, the colour themes, and the names of players nobody named.

``Settings`` (``core/settings.py``) takes its defaults from here. No dataclass here, nor
anything that imports one: ``--help`` loads this module.
"""

from __future__ import annotations

PLAYER_KINDS = ("human", "bot:easy", "bot:normal", "bot:hard", "bot:expert")
"""What may sit at each side of the table."""

DEFAULT_PLAYERS = ("human", "human")
"""Who plays each side when nobody says."""

DEFAULT_NAMES = ("Player 1", "Player 2")
"""The players' names when nobody names them and neither is the computer."""

THEME_NAMES = ("auto", "dark", "light", "high-contrast")
"""The colour themes a launch may ask for (``terminal/draw/theme.py`` has them; ``auto``:
the one for the terminal's background)."""

DEFAULT_THEME = "auto"
"""The theme when none is chosen."""
