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

The core speaks no language: a complaint it makes (``Problem``: ``BadName`` here, the rules'
``RulesError``, the storage's ``StorageError``) keeps its English text, marked with ``N_``,
and the values that go into it apart, so that the edge that shows it says it in the
player's language (``problem.said(_)``); ``str(problem)`` is the English.
"""

from __future__ import annotations

from collections.abc import Callable

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


def N_(message: str) -> str:
    """Marks an English text for the catalogues where it is defined, unchanged (gettext's
    convention for a text translated later): the core speaks no language of its own, the
    terminal and the command line translate what they show (``terminal/lang.py``)."""
    return message


Say = Callable[[str], str]
"""How a text of the core is said: a translation (``terminal.lang._``), given by the edge
that shows it; the core's own is ``N_``, the English as written. The rule texts call it
``_``, so that the catalogues find their texts (``scripts/catalogues``)."""


class Term(str):
    """A word of the core that goes into a ``Problem``'s text and is said in the language
    the text is (``Term(N_("a folder"))``); any other value goes in as it is."""

    __slots__ = ()


class Problem(Exception):
    """A complaint in no language yet: an English ``text`` marked with ``N_`` and the
    ``values`` its ``{placeholders}`` take (or another ``Problem``'s), said in a language
    by ``said``.

    >>> problem = Problem(N_("{name} is longer than {n} characters"), name='"Bo"', n=16)
    >>> swedish = {"{name} is longer than {n} characters": "{name} är längre än {n} tecken"}
    >>> str(problem), problem.said(swedish.__getitem__)
    ('"Bo" is longer than 16 characters', '"Bo" är längre än 16 tecken')
    """

    text: str
    """The English, with its placeholders: the catalogues' key."""
    values: dict[str, object]
    """What goes into the placeholders (a ``Term`` or a ``Problem`` said too)."""

    def __init__(self, text: str | Problem, /, **values: object) -> None:
        if isinstance(text, Problem):  # another complaint, said as this kind
            values = {**text.values, **values}
            text = text.text
        super().__init__(text, values)
        self.text = text
        self.values = values

    def said(self, _: Say = N_) -> str:
        """The complaint in the language ``_`` translates into."""
        values = {
            name: value.said(_)
            if isinstance(value, Problem)
            else _(value)
            if isinstance(value, Term)
            else value
            for name, value in self.values.items()
        }
        return _(self.text).format(**values)

    def __str__(self) -> str:
        return self.said()


def said(error: BaseException, _: Say = N_) -> str:
    """An error's text in the language ``_`` translates into: a ``Problem`` said so, any
    other error as its English."""
    return error.said(_) if isinstance(error, Problem) else str(error)


class BadName(Problem, ValueError):
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
    import unicodedata  # loaded when a name is first checked: the default names need none

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
        raise BadName(N_("a name may not be empty"))
    if len(name) > MAX_NAME:
        raise BadName(N_("{name} is longer than {n} characters"), name=quoted(name), n=MAX_NAME)
    if not name.isprintable():
        raise BadName(N_("{name} has a character that cannot be shown"), name=quoted(name))
    if not draws_something(name):
        raise BadName(
            N_("{name} draws nothing on the screen (only marks or blanks)"), name=quoted(name)
        )
    return name
