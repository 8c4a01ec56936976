"""Keyboard layouts: what the keys a US keyboard has in the places the default keys use
type on other national keyboards, so that the keys can be put back under the same fingers.

Pure data (the terminal's key map, ``terminal/keys.py``, is drawn from it; the command
line names the layouts from it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from stress_tui.core.text import N_


@dataclass(frozen=True, slots=True, eq=False)
class Keyboard:
    """A national keyboard layout: what the keys where a US keyboard has the layouts' keys
    type there. The layouts are drawn for the place of each key on the keyboard, so a
    German or French player's fingers sit where a US player's do."""

    name: str
    """Its name for ``--keyboard`` and the config file (``us``, ``de``, ...)."""
    title: str
    """What it is, in a few words (for the help screen and ``--help``; marked, said in the
    language where shown)."""
    short: str
    """What it is in a word, as in "a German keyboard" (marked, said where shown)."""
    moved: Mapping[str, str | None] = field(default_factory=dict)
    """US key -> the character the same key types here (``None``: nothing usable: a dead
    key, or one that needs Shift); keys not named type what they type in the US."""

    def translate(self, key: str) -> str | None:
        """The key at the place of the US keyboard's ``key``, here."""
        return self.moved.get(key, key)


KEYBOARDS: dict[str, Keyboard] = {
    board.name: board
    for board in (
        Keyboard("us", N_("US or UK QWERTY"), N_("US")),
        Keyboard(
            "de",
            N_("German, Austrian or Swiss QWERTZ"),
            N_("German"),
            {";": "ö", "'": "ä", "[": "ü", "y": "z", "z": "y"},
        ),
        Keyboard("se", N_("Swedish or Finnish"), N_("Swedish"), {";": "ö", "'": "ä", "[": "å"}),
        Keyboard("no", N_("Norwegian"), N_("Norwegian"), {";": "ø", "'": "æ", "[": "å"}),
        Keyboard("dk", N_("Danish"), N_("Danish"), {";": "æ", "'": "ø", "[": "å"}),
        Keyboard(
            "fr",
            N_("French or Belgian AZERTY"),
            N_("French"),
            {
                "q": "a",
                "a": "q",
                "w": "z",
                "z": "w",
                ";": "m",
                "m": ",",
                ",": ";",
                ".": ":",
                "[": None,  # the circumflex: a dead key, which types nothing alone
                "'": "ù",
            },
        ),
    )
}
"""The keyboard layouts the default keys are given for, by name. The key right of L, which
player 2 and a player alone use for their fourth pile, is ``;`` only on US keyboards (where
German and Swedish ones have ``ö``, it would need Shift there); AZERTY moves Q, W, A, Z and
the punctuation of the bottom row."""

DEFAULT_KEYBOARD = "us"
"""The keyboard assumed when none is chosen."""

LANGUAGE_KEYBOARDS = {"sv": "se", "de": "de"}
"""The keyboard assumed for a player who speaks a language (by its code), where none is
chosen: the Swedish or German one."""
