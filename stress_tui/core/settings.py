"""Everything a launch decides: the rules, the players, the names and the display.

Made by the command line (flags over the config file over defaults) and handed to the app,
the simulator and the replayer. No terminal here. What a launch chooses among (the kinds
of players, the themes) and the defaults are ``core/choices.py``'s, the house rules'
``core/houserules.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stress_tui.core.choices import COMPUTER, DEFAULT_NAMES, DEFAULT_PLAYERS, DEFAULT_THEME, YOU
from stress_tui.core.keyboards import DEFAULT_KEYBOARD
from stress_tui.core.rules import Rules


def default_names(players: tuple[str, str]) -> tuple[str, str]:
    """The names of players nobody named: ``You`` and ``Computer`` for a person against the
    computer, ``Player 1`` and ``Player 2`` otherwise (keys, kept as they are and said in
    the player's language where shown: ``words.shown_name``).

    >>> default_names(("bot:hard", "human"))
    ('Computer', 'You')
    """
    humans = [kind == "human" for kind in players]
    if humans.count(True) == 1:
        return (YOU, COMPUTER) if humans[0] else (COMPUTER, YOU)
    return DEFAULT_NAMES


@dataclass(frozen=True)
class Settings:
    """What a launch of the game decides."""

    rules: Rules = field(default_factory=Rules)
    """The house rules."""
    seed: int | None = None
    """Seeds the deal; ``None`` draws a seed (shown on the result screen)."""
    first_round: int = 1
    """The round of the seed's match the game starts at (``--seed 12/3``: the third)."""
    names: tuple[str, str] = DEFAULT_NAMES
    """The players' names. Player 1 sits at the top and player 2 at the bottom, except that a
    person against the computer sits at the bottom whichever side they play."""
    players: tuple[str, str] = DEFAULT_PLAYERS
    """Who plays each side: ``human`` or ``bot:LEVEL``."""
    ascii: bool | None = None
    """Draw suits as letters, for terminals without the glyphs (``None``: when the
    terminal's character set has no suits)."""
    four_colour: bool = False
    """A four-colour deck: clubs green, diamonds blue."""
    lang: str | None = None
    """The language the game speaks (``--lang``, the config file's ``lang``); ``None``: the
    environment's."""
    theme: str = DEFAULT_THEME
    """The colour theme by name (``auto``: the one for the terminal's background)."""
    keyboard: str = DEFAULT_KEYBOARD
    """The keyboard layout the default keys are placed for (``us``, ``de``, ``fr``...)."""
    keymap: dict[str, dict[str, str]] | None = None
    """Key overrides from ``--keys`` or the config file (checked by ``keys``); ``None``
    keeps the default layout."""

    __hash__ = None  # type: ignore[assignment]  # (mypy expects a method)
    """Not hashable: ``keymap`` is a dict, which the hash a frozen dataclass is given
    would fail on; nothing hashes settings."""
