"""Text from outside the program (files, and peers over a network): made harmless to
show, and checked before it is taken as a name.

Whatever is read from a file or a peer may hold escape sequences that drive a terminal
(set the window title, write the clipboard with OSC 52, blank the screen), characters that
reorder the text around them (bidirectional overrides), or be of any length. ``harmless``
turns such a string into one that is safe to print anywhere: every character that is not
plainly printable becomes a visible escape (``\\u001B``, ``\\u202E``), and the text is cut to
a length. ``check_name`` is the stricter test a name must pass to be taken at all: not
empty, printable, not too long, and drawing something (a name of only combining marks or
blank glyphs such as U+2800 would be invisible on the table).

Only ``unicodedata``: no terminal is needed to decide, so the storage and network layers
use the same rules as the command line.
"""

from __future__ import annotations

import unicodedata

CUT = "..."
"""What stands for the part of a text that was cut off."""

SHOWN = 40
"""The longest a value from outside is echoed in a message, in characters."""

MAX_NAME = 16
"""The longest name a player may have, in characters."""

BLANK_GLYPHS = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers: letters (Lo) that draw nothing
    "\u2800"  # braille pattern blank: a symbol (So) that draws nothing
    "\u180e"  # Mongolian vowel separator (once a space)
)
"""Characters that Unicode counts as letters or symbols but that draw as blank space."""

_UNSEEN_CATEGORIES = frozenset({"Mn", "Me", "Mc", "Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})
"""Categories of characters that draw nothing on their own: combining marks (they draw on
the character before), control and format characters, spaces and separators."""


class BadName(ValueError):
    """A name that cannot be taken; the text says why (without saying where it came from)."""


_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def escape(char: str) -> str:
    r"""One character written as an escape that TOML and JSON readers know
    (``\t``, ``\u001B``, ``\U0001F600``).

    >>> print(escape("\x1b"), escape("\t"), escape("\u202e"))
    \u001B \t \u202E
    """
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\u{code:04X}" if code < 0x10000 else f"\\U{code:08X}"


def _cut(text: str, limit: int | None) -> str:
    if limit is None or len(text) <= limit:
        return text
    return text[: max(0, limit - len(CUT))] + CUT[: max(0, limit)]


def harmless(text: str, limit: int | None = SHOWN) -> str:
    r"""``text`` safe to print on any terminal: each character that is not printable
    (control characters, among them ESC and the C1 controls, DEL, format characters such
    as bidirectional overrides, line separators, surrogates, spaces other than the plain
    one) written as a visible escape, and the whole cut to ``limit`` characters (``None``:
    not cut), ``...`` marking the cut. Plain text comes back as it was.

    >>> print(harmless("Ann\x1b]52;c;ZXZpbA==\x07"))
    Ann\u001B]52;c;ZXZpbA==\u0007
    >>> harmless("x" * 50, limit=10)
    'xxxxxxx...'
    """
    text = _cut(text, limit)
    if text.isprintable():
        return text
    return _cut("".join(char if char.isprintable() else escape(char) for char in text), limit)


def quoted(text: str, limit: int | None = SHOWN) -> str:
    r"""``text`` as a double-quoted string, as TOML writes one (so it reads back as the same
    text when not cut), harmless to print, its inside cut to ``limit`` characters.

    >>> print(quoted('say "hi"\x1b[2J'))
    "say \"hi\"\u001B[2J"
    """
    inside = "".join(
        "\\" + char if char in '"\\' else char if char.isprintable() else escape(char)
        for char in _cut(text, limit)
    )
    return '"' + _cut(inside, limit) + '"'


def draws_something(text: str) -> bool:
    r"""Whether ``text`` shows at least one visible character: not only combining marks,
    format characters, spaces and blank glyphs (U+2800, the Hangul fillers).

    >>> draws_something("Bo"), draws_something("\u0301\u0301"), draws_something("\u2800")
    (True, False, False)
    """
    return any(
        char not in BLANK_GLYPHS and unicodedata.category(char) not in _UNSEEN_CATEGORIES
        for char in text
    )


def check_name(name: str) -> str:
    """A player's name, stripped, if it may be one: not empty, at most ``MAX_NAME``
    characters, every character printable, and drawing something. Otherwise ``BadName``
    saying why (the name echoed harmless and cut)."""
    name = name.strip()
    if not name:
        raise BadName("a name may not be empty")
    if len(name) > MAX_NAME:
        raise BadName(f"{quoted(name)} is longer than {MAX_NAME} characters")
    if not name.isprintable():
        raise BadName(f"{quoted(name)} has a character that cannot be shown")
    if not draws_something(name):
        raise BadName(f"{quoted(name)} draws nothing on the screen (only marks or blanks)")
    return name
