"""What a launch chooses among, as plain data the help prints: who may sit at each side of
the table, the colour themes, and the names of players nobody named.

``Settings`` (``core/settings.py``) takes its defaults from here.
"""

from __future__ import annotations

from stress_tui.core.text import N_

PLAYER_KINDS = ("human", "bot:easy", "bot:normal", "bot:hard", "bot:expert")
"""What may sit at each side of the table."""

DEFAULT_PLAYERS = ("human", "human")
"""Who plays each side when nobody says."""

DEFAULT_NAMES = (N_("Player 1"), N_("Player 2"))
"""The players' names when nobody names them and neither is the computer."""

YOU = N_("You")
"""The name of the person at this keyboard when nobody named them (against the computer)."""

COMPUTER = N_("Computer")
"""The computer's name when nobody named it."""

HOST, GUEST = N_("Host"), N_("Guest")
"""The names of the two seats at a network table when nobody named them."""

OPEN_SEAT, SPECTATOR = N_("(open seat)"), N_("spectator")
"""What a network table calls the joiner's seat before anyone sits in it, and a spectator."""

FORGOTTEN = N_("(forgotten)")
"""Who played a round, in the SSH server's record, for a player who has since been
forgotten (``storage/forget.py``): one name for every forgotten player."""

UNNAMED = frozenset((*DEFAULT_NAMES, YOU, COMPUTER, HOST, GUEST, OPEN_SEAT, SPECTATOR, FORGOTTEN))
"""The names given to players nobody named. Each is a fixed key, not a word to show: the
settings, the replays and the record keep it as it is (as every earlier version wrote it,
so an old record's ``You`` is the same person as today's), and a screen or a table says it
in the player's language (``words.shown_name``). A name a person gives is theirs and is
never translated."""

THEME_NAMES = ("auto", "dark", "light", "high-contrast")
"""The colour themes a launch may ask for (``terminal/draw/theme.py`` has them; ``auto``:
the one for the terminal's background)."""

DEFAULT_THEME = "auto"
"""The theme when none is chosen."""
