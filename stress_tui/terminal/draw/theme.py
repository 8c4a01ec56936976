"""How the table looks on this terminal: themes of colour roles, and the characters it can show.

A ``Theme`` is a table of roles (a card's face, a red suit, a player's name, a key hint, a
warning, ...), each an ``Ink``: its look in a 256-colour terminal, in a 16- or 8-colour one,
and without colour (bold, dim, reverse video only). Themes are data in ``THEMES`` (dark,
light, high contrast), chosen by name (``--theme``, the config file) or by the terminal's
background colour as the terminal says it (``choose_theme``). ``Ink.sgr``
turns a role into one SGR sequence for the terminal's number of colours.

``suits_encodable`` says whether the terminal's character set (from the locale, which is
what the terminal was told) can take the suit symbols; when it cannot, cards are drawn with
letters. Nothing here draws: the palette (the drawing layer) reads the styles.
"""

from __future__ import annotations

import codecs
import locale
import os
from collections.abc import Mapping
from dataclasses import dataclass

Colour = tuple[int, int]
"""A colour as (its number in a 256-colour terminal, its number among the 16 basic ones)."""

MONO_ATTRIBUTES = {"bold": "1", "dim": "2", "underline": "4", "reverse": "7"}
"""The attributes an ``Ink`` may use, and their SGR numbers."""


@dataclass(frozen=True, slots=True, eq=False)
class Ink:
    """One role's look, in each kind of terminal."""

    fg: Colour | None = None
    """The text's colour (``None``: the terminal's own foreground)."""
    bg: Colour | None = None
    """The cell's colour (``None``: the terminal's own background)."""
    attrs: tuple[str, ...] = ()
    """The attributes used with colours (``bold``, ``dim``, ``underline``, ``reverse``)."""
    basic_attrs: tuple[str, ...] | None = None
    """The attributes with the 16 basic colours, if not ``attrs``: bold turns the first 8
    into their bright forms in many terminals (xterm, the Linux console), which on a light
    background is paler."""
    mono: tuple[str, ...] = ()
    """The attributes used instead of colours (``bold``, ``dim``, ``underline``,
    ``reverse``): the whole look without colour."""
    plain_basic: bool = False
    """With the basic colours only (8 or 16), the look without colour (``mono``) instead:
    for a box, whose one calm colour in 256 would be a saturated pure blue or cyan there."""

    def params(self, colours: int) -> list[str]:
        """The SGR parameters for a terminal of ``colours`` colours (0: none)."""
        if colours < 8 or (colours < 256 and self.plain_basic):
            return [MONO_ATTRIBUTES[name] for name in self.mono]
        attrs = self.attrs
        if colours < 256 and self.basic_attrs is not None:
            attrs = self.basic_attrs
        params = [MONO_ATTRIBUTES[name] for name in attrs]
        for colour, base in ((self.fg, 30), (self.bg, 40)):
            if colour is None:
                continue
            rich, basic = colour
            if colours >= 256:
                params.append(f"{base + 8};5;{rich}")
            elif basic >= 8 and colours >= 16:
                params.append(str(base + 60 + basic - 8))
            else:
                params.append(str(base + basic % 8))
        return params

    def sgr(self, colours: int) -> str:
        """One SGR sequence that resets and then sets this look (``""``: plain)."""
        params = self.params(colours)
        return "\x1b[0;" + ";".join(params) + "m" if params else ""


def ink(
    fg: Colour | None = None,
    bg: Colour | None = None,
    attrs: str = "",
    mono: str = "",
    bold_basic: bool = True,
    plain_basic: bool = False,
) -> Ink:
    """An ``Ink`` written short: ``ink((160, 1), (231, 7), "bold", mono="reverse")``; without
    ``bold_basic``, not bold in the basic colours where it has a foreground colour; with
    ``plain_basic``, without colour in the basic colours (``Ink.plain_basic``)."""
    names = tuple(attrs.split())
    basic = None
    if not bold_basic and fg is not None and "bold" in names:
        basic = tuple(name for name in names if name != "bold")
    return Ink(fg, bg, names, basic, tuple(mono.split()), plain_basic)


ROLES: dict[str, str] = {
    "card_face": "A card's face (its background colour).",
    "black_suit": "Spades and clubs on the face.",
    "red_suit": "Hearts and diamonds on the face.",
    "clubs": "Clubs in a four-colour deck.",
    "diamonds": "Diamonds in a four-colour deck.",
    "joker": "A joker on the face.",
    "slot": "The dots of an empty place.",
    "title": "The game's name on the title line.",
    "name1": "Player 1's name (and what marks their cards).",
    "name2": "Player 2's name (and what marks their cards).",
    "hint": "Key hints, labels and counts: text a player reads in passing.",
    "hint_key": "A key's letter in a hint.",
    "warn": "Something went wrong: a refused play, a lockout, a warning.",
    "info": "Something to know: ready, waiting, the computer's level.",
    "good": "Something went well: stress won.",
    "banner": "The line between the rows.",
    "stress": "The stress banner.",
    "count": "The count before a flip or a start.",
    "panel": "A box over the table (pause, help, result).",
    "panel_title": "A heading in a box.",
    "panel_key": "The keys said in a box.",
}
"""Every colour role on screen, by the name the palette reads it by, and what it colours."""


@dataclass(frozen=True, eq=False)
class Theme:
    """Every colour role on screen, for one kind of terminal background."""

    name: str
    """Its name for ``--theme`` and the config file."""
    summary: str
    """What it is for, in a few words."""
    light: bool
    """Made for a light background (what the contrast checks assume)."""
    roles: Mapping[str, Ink]
    """Each role's look, by its name in ``ROLES`` (each role there, and no other)."""


_MONO_ROLES: dict[str, str] = {
    "card_face": "reverse",
    "black_suit": "reverse",
    "red_suit": "reverse",
    "clubs": "reverse",
    "diamonds": "reverse",
    "joker": "bold reverse",
    "slot": "dim",
    "title": "bold reverse",
    "hint": "",
    "hint_key": "bold",
    "warn": "bold",
    "info": "",
    "good": "bold",
    "banner": "bold",
    "stress": "bold reverse",
    "count": "bold",
    "panel": "reverse",
    "panel_title": "bold reverse",
    "panel_key": "bold reverse",
}
"""Every role's look without colour (the same in every theme): cards and boxes in reverse
video, what matters in bold."""


def _theme(
    name: str,
    summary: str,
    light: bool,
    colours: Mapping[str, tuple[Colour | None, Colour | None, str]],
    names: tuple[Colour | None, Colour | None],
    mono: Mapping[str, str] = _MONO_ROLES,
    bold_basic: bool = True,
) -> Theme:
    """A theme from a table: role -> (fg, bg, attributes), each role's look without colour
    from ``mono``; the names are bold in the two colours ``names``. Without ``bold_basic``,
    coloured text is not bold in the basic colours (which bold would brighten)."""
    looks = {  # the boxes in reverse video where only 8 or 16 colours are
        role: ink(fg, bg, attrs, mono[role], bold_basic, plain_basic=role in PANEL_ROLES)
        for role, (fg, bg, attrs) in colours.items()
    }
    looks["name1"] = ink(names[0], None, "bold", "bold", bold_basic)
    looks["name2"] = ink(names[1], None, "bold", "bold", bold_basic)
    if looks.keys() != ROLES.keys():  # a role left out or not known: a theme to mend
        raise ValueError(f"theme {name}: roles unlike ROLES's: {looks.keys() ^ ROLES.keys()}")
    return Theme(name, summary, light, {role: looks[role] for role in ROLES})


PANEL_ROLES = ("panel", "panel_title", "panel_key")
"""The roles of a box over the table (pause, help, the result)."""

WHITE_FACE: Colour = (231, 7)
GREY_FACE: Colour = (253, 7)
BLUE_PANEL: Colour = (24, 4)

DARK = _theme(
    "dark",
    "for a dark background",
    False,
    {
        "card_face": (None, WHITE_FACE, ""),
        "black_suit": ((16, 0), WHITE_FACE, ""),
        "red_suit": ((160, 1), WHITE_FACE, ""),
        # With 8 colours no green reads on the white face: clubs stay black there.
        "clubs": ((28, 0), WHITE_FACE, ""),
        "diamonds": ((20, 4), WHITE_FACE, ""),
        "joker": ((90, 4), WHITE_FACE, ""),
        "slot": ((244, 7), None, ""),
        "title": (None, None, "bold reverse"),
        "hint": ((250, 7), None, ""),
        # The terminal's own text colour, bold: white on a dark background as before, and
        # still black on a white one where the terminal did not say (tmux 3.3a), so that
        # the keys under the cards never vanish.
        "hint_key": (None, None, "bold"),
        "warn": ((208, 3), None, "bold"),
        "info": ((117, 6), None, ""),
        "good": ((120, 2), None, "bold"),
        "banner": (None, None, "bold"),
        "stress": ((231, 7), (160, 1), "bold"),
        "count": ((226, 3), None, "bold"),
        "panel": ((231, 7), BLUE_PANEL, ""),
        "panel_title": ((226, 3), BLUE_PANEL, "bold"),
        "panel_key": ((231, 7), BLUE_PANEL, "bold"),
    },
    ((45, 6), (220, 3)),
)
"""Light text on a dark background (the terminal's default in most emulators)."""

LIGHT = _theme(
    "light",
    "for a light background",
    True,
    {
        # A grey face, so that a card has edges on a white terminal.
        "card_face": (None, GREY_FACE, ""),
        "black_suit": ((16, 0), GREY_FACE, ""),
        "red_suit": ((124, 1), GREY_FACE, ""),
        # With 8 colours no green reads on the grey face: clubs stay black there.
        "clubs": ((22, 0), GREY_FACE, ""),
        "diamonds": ((20, 4), GREY_FACE, ""),
        "joker": ((90, 4), GREY_FACE, "bold"),
        "slot": ((242, 0), None, ""),
        "title": (None, None, "bold reverse"),
        "hint": ((240, 0), None, ""),
        "hint_key": (None, None, "bold"),
        "warn": ((124, 1), None, "bold"),
        "info": ((24, 4), None, ""),
        "good": ((28, 4), None, "bold"),
        "banner": (None, None, "bold"),
        "stress": ((231, 7), (124, 1), "bold"),
        "count": ((130, 4), None, "bold"),
        "panel": ((231, 7), BLUE_PANEL, ""),
        "panel_title": ((226, 3), BLUE_PANEL, "bold"),
        "panel_key": ((231, 7), BLUE_PANEL, "bold"),
    },
    ((25, 4), (130, 5)),
    bold_basic=False,
)
"""Dark text on a light background (macOS Terminal's default, plain xterm's): no white or
yellow text, and grey card faces with edges."""

HIGH_CONTRAST = _theme(
    "high-contrast",
    "the terminal's own colours, bold and reverse video",
    False,
    {
        "card_face": (None, (231, 7), ""),
        "black_suit": ((16, 0), (231, 7), "bold"),
        "red_suit": ((124, 1), (231, 7), "bold"),
        "clubs": ((22, 0), (231, 7), "bold"),
        "diamonds": ((20, 4), (231, 7), "bold"),
        "joker": ((90, 4), (231, 7), "bold"),
        "slot": (None, None, ""),
        "title": (None, None, "bold reverse"),
        "hint": (None, None, ""),
        "hint_key": (None, None, "bold"),
        "warn": (None, None, "bold reverse"),
        "info": (None, None, ""),
        "good": (None, None, "bold"),
        "banner": (None, None, "bold"),
        "stress": (None, None, "bold reverse"),
        "count": (None, None, "bold reverse"),
        "panel": (None, None, "reverse"),
        "panel_title": (None, None, "bold reverse"),
        "panel_key": (None, None, "bold reverse"),
    },
    (None, None),
    {**_MONO_ROLES, "warn": "bold reverse", "count": "bold reverse"},
    bold_basic=False,
)
"""Text only in the terminal's own foreground colour (the most contrast it has, on any
background), emphasis by bold and reverse video; only the cards have colours: black and
dark red on white."""

THEMES: dict[str, Theme] = {theme.name: theme for theme in (DARK, LIGHT, HIGH_CONTRAST)}
"""The themes by name."""

AUTO = "auto"
"""The theme name that asks the terminal for its background."""

THEME_CHOICES = (AUTO, *THEMES)
"""What ``--theme`` and the config file's ``display.theme`` take."""


def styles(theme: Theme, colours: int) -> dict[str, str]:
    """Every role's SGR sequence for a terminal of ``colours`` colours (0: none)."""
    return {role: look.sgr(colours) for role, look in theme.roles.items()}


# ----------------------------------------------------------------------------- the background


def background_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """``light`` or ``dark`` from ``COLORFGBG`` (``15;0``: white on black), which rxvt,
    Konsole and others set; ``None`` if it does not say."""
    value = (os.environ if environ is None else environ).get("COLORFGBG", "")
    last = value.split(";")[-1].strip()
    if not last.isdigit():
        return None
    return "light" if int(last) in (7, 15) else "dark"


def is_light(rgb: tuple[int, int, int]) -> bool:
    """Whether a background colour (0-255 a channel) is light: its relative luminance is
    above the middle grey's."""
    return relative_luminance(rgb) > relative_luminance((0x80, 0x80, 0x80))


def asks_terminal(name: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the theme ``name`` is chosen by the terminal's background as the terminal
    says it (``auto``, and ``COLORFGBG`` does not say)."""
    return name == AUTO and background_from_env(environ) is None


def choose_theme(
    name: str,
    said: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[Theme, str]:
    """The theme called ``name``, or for ``auto`` the one for the terminal's background
    (``COLORFGBG``, else ``said``: ``light`` or ``dark`` as the terminal answered, else
    dark); and how it was chosen, in a few words (``asked the terminal``, ``chosen``...)."""
    if name != AUTO:
        return THEMES[name], "chosen"
    from_env = background_from_env(environ)
    if from_env is not None:
        return (LIGHT if from_env == "light" else DARK), "from COLORFGBG"
    if said is None:
        return DARK, "the terminal did not say its background"
    return (LIGHT if said == "light" else DARK), "the terminal's background"


# ----------------------------------------------------------------------------- contrast


def xterm_rgb(number: int) -> tuple[int, int, int]:
    """The colour an xterm shows for colour ``number`` of 256 (its default palette)."""
    basic = (
        (0x00, 0x00, 0x00),
        (0xCD, 0x00, 0x00),
        (0x00, 0xCD, 0x00),
        (0xCD, 0xCD, 0x00),
        (0x00, 0x00, 0xEE),
        (0xCD, 0x00, 0xCD),
        (0x00, 0xCD, 0xCD),
        (0xE5, 0xE5, 0xE5),
        (0x7F, 0x7F, 0x7F),
        (0xFF, 0x00, 0x00),
        (0x00, 0xFF, 0x00),
        (0xFF, 0xFF, 0x00),
        (0x5C, 0x5C, 0xFF),
        (0xFF, 0x00, 0xFF),
        (0x00, 0xFF, 0xFF),
        (0xFF, 0xFF, 0xFF),
    )
    if number < 16:
        return basic[number]
    if number < 232:
        steps = (0x00, 0x5F, 0x87, 0xAF, 0xD7, 0xFF)
        n = number - 16
        return steps[n // 36], steps[n // 6 % 6], steps[n % 6]
    grey = 8 + (number - 232) * 10
    return grey, grey, grey


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2's relative luminance of a colour (0-255 a channel)."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2's contrast ratio of two colours: 1 (the same) to 21 (black on white); text
    wants 4.5 or more.

    >>> round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1)
    21.0
    """
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# ----------------------------------------------------------------------------- characters


SUITS_TEXT = "\u2660\u2665\u2666\u2663"
"""The suit symbols the cards use (spades, hearts, diamonds, clubs)."""


def terminal_encoding(environ: Mapping[str, str] | None = None) -> str:
    """The character set the terminal was told to use, from the locale variables
    (``LC_ALL``, else ``LC_CTYPE``, else ``LANG``), as a Python codec name. Python's own
    UTF-8 mode (on by itself in the C locale) does not change what the terminal shows, so
    the locale is read as the terminal would: no codeset in a C or POSIX locale is ASCII;
    a locale without one (``de_DE``) is its language's traditional set, as the C library
    says; an ``LC_CTYPE`` that Python coerced itself is passed over (``_COERCED``)."""
    env = os.environ if environ is None else environ
    names = ["LC_ALL", "LC_CTYPE", "LANG"]
    if env.get("LC_CTYPE") in _COERCED and not env.get("LC_ALL") and env.get("LANG"):
        names.remove("LC_CTYPE")  # Python's own C locale coercion, not the user's choice
    value = ""
    for name in names:
        value = env.get(name, "")
        if value:
            break
    if not value or value in ("C", "POSIX"):
        return "ascii"
    codeset = value.partition(".")[2].partition("@")[0]
    if not codeset:
        codeset = _libc_codeset(value)
    try:
        return codecs.lookup(codeset).name
    except LookupError:
        return "ascii"


_COERCED = ("C.UTF-8", "C.utf8", "UTF-8")
"""What Python sets ``LC_CTYPE`` to when the locale it is given does not exist or is C
(PEP 538): it says nothing about the terminal, so ``LANG`` is read instead."""


def _libc_codeset(value: str) -> str:
    """The codeset the C library gives a locale named without one (``de_DE``: ISO-8859-1)."""
    saved = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, value)
        return locale.nl_langinfo(locale.CODESET)
    except (locale.Error, AttributeError):
        return "ascii"
    finally:
        locale.setlocale(locale.LC_CTYPE, saved)


def can_encode(text: str, encoding: str) -> bool:
    """Whether ``text`` can be written in ``encoding``."""
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def suits_encodable(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the terminal can show the suit symbols (else cards use letters)."""
    return can_encode(SUITS_TEXT, terminal_encoding(environ))
