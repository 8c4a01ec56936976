"""What a key is called: its name from a keystroke blessed read (``key_name``) or from a
config file (``normalize_key``), its label on screen (``key_label``); the complaint about a
key map that cannot be used (``KeyMapError``); and the filter that drops what a terminal
sends that is not a key press (``SequenceFilter``).
"""

from __future__ import annotations

from typing import Protocol

from stress_tui.core.text import N_, Problem


class KeyMapError(Problem, ValueError):
    """A key map that cannot be used: a key given twice, a missing action, an unknown name
    (an ``N_`` text and its values, said in the player's language where it is shown);
    ``side`` is the player's table it is about (``p1``, ``p2``), if it is one table's."""

    def __init__(self, text: str, /, side: str = "", **values: object) -> None:
        super().__init__(text, side=side, **values)
        self.side = side


_NAMED_KEYS = (
    "space",
    "enter",
    "tab",
    "backspace",
    "escape",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "insert",
    "delete",
    "pageup",
    "pagedown",
    *(f"f{n}" for n in range(1, 13)),
)
CONTROL_KEYS = ("ctrl+c", "ctrl+l", "ctrl+z")

_ALIASES = {
    "esc": "escape",
    "return": "enter",
    "del": "delete",
    "ins": "insert",
    "pgup": "pageup",
    "pgdn": "pagedown",
    "page_up": "pageup",
    "page_down": "pagedown",
    "semicolon": ";",
    "comma": ",",
    "period": ".",
    "dot": ".",
    "slash": "/",
    "backslash": "\\",
    "quote": "'",
    "apostrophe": "'",
    "minus": "-",
    "equals": "=",
    "equal": "=",
    "backquote": "`",
    "grave": "`",
    "lbracket": "[",
    "rbracket": "]",
    "spacebar": "space",
}

# blessed's names for the keys we know by name (``Keystroke.key_name``).
_BLESSED_NAMES = {
    "KEY_ENTER": "enter",
    "KEY_KP_ENTER": "enter",
    "KEY_ESCAPE": "escape",
    "KEY_TAB": "tab",
    "KEY_BACKSPACE": "backspace",
    "KEY_DELETE": "delete",
    "KEY_INSERT": "insert",
    "KEY_UP": "up",
    "KEY_DOWN": "down",
    "KEY_LEFT": "left",
    "KEY_RIGHT": "right",
    "KEY_HOME": "home",
    "KEY_END": "end",
    "KEY_PGUP": "pageup",
    "KEY_PGDOWN": "pagedown",
    "KEY_SPACE": "space",
    "KEY_CTRL_C": "ctrl+c",
    "KEY_CTRL_L": "ctrl+l",
    "KEY_CTRL_Z": "ctrl+z",
    **{f"KEY_F{n}": f"f{n}" for n in range(1, 13)},
}

# Kitty modifier bits that do not change what a key means to us: shift (the text already
# carries it), caps lock, num lock.
_IGNORED_MODIFIERS = 1 | 64 | 128


class KeystrokeLike(Protocol):
    """What ``key_name`` reads from a ``blessed.keyboard.Keystroke`` (the characters it was
    read from, as a ``str``)."""

    def __len__(self) -> int: ...
    def __hash__(self) -> int: ...

    @property
    def key_name(self) -> str | None: ...
    @property
    def value(self) -> str: ...
    @property
    def modifiers_bits(self) -> int: ...
    @property
    def released(self) -> bool: ...


def key_name(keystroke: KeystrokeLike) -> str | None:
    """The name of a key as the key map knows it, or ``None`` for a key it cannot name (a
    modifier alone, Alt+letter, a key release). Repeats are named like presses: the caller
    decides what to do with ``keystroke.repeated``.

    Works the same for legacy input (``q``, ``\\x03``) and the kitty keyboard protocol
    (``\\x1b[113u``, ``\\x1b[99;5u``).
    """
    if keystroke.released:
        return None
    known = _BLESSED_NAMES.get(keystroke.key_name or "")
    if known is not None:
        return known
    text = keystroke.value
    if len(text) != 1 or not text.isprintable():
        return None
    if keystroke.modifiers_bits & ~_IGNORED_MODIFIERS:
        return None
    if text == " ":
        return "space"
    return text.lower()


SINGLE_NAMES = 512
"""One-character keys a ``KeyNamer`` keeps the name of, at most."""


class KeyNamer:
    """``key_name`` for the keys of one terminal, a key of one character named once: such
    a key is the same whatever comes before or after it (the kitty keyboard protocol's
    keys, with their presses and releases, are sequences), but what blessed calls it
    depends on the terminal (``^Z`` is a key of its own in some terminfo entries)."""

    def __init__(self) -> None:
        self.single: dict[KeystrokeLike, str | None] = {}
        """Each one-character key's name, as ``key_name`` gave it."""

    def __call__(self, keystroke: KeystrokeLike) -> str | None:
        if len(keystroke) != 1:
            return key_name(keystroke)
        single = self.single
        if keystroke in single:
            return single[keystroke]
        name = key_name(keystroke)
        if len(single) < SINGLE_NAMES:
            single[keystroke] = name
        return name


def normalize_key(name: str) -> str:
    """A key name from a config file in the canonical form; ``KeyMapError`` if unknown.

    >>> normalize_key("Q"), normalize_key("semicolon"), normalize_key("Esc")
    ('q', ';', 'escape')
    """
    if not isinstance(name, str):
        raise KeyMapError(N_("a key name must be text, not {name}"), name=repr(name))
    if len(name) == 1:
        if name.isprintable() and name != " ":
            return name.lower()
        raise KeyMapError(
            N_("unknown key name {name} (write 'space' for the space bar)"), name=repr(name)
        )
    lowered = name.strip().lower()
    lowered = _ALIASES.get(lowered, lowered)
    if lowered in _NAMED_KEYS or lowered in CONTROL_KEYS:
        return lowered
    if len(lowered) == 1 and lowered.isprintable():
        return lowered
    raise KeyMapError(
        N_("unknown key name {name} (a single character, or one of {names})"),
        name=repr(name),
        names=", ".join(_NAMED_KEYS),
    )


_SHORT_NAMES = {
    "space": "Spc",
    "enter": "Ent",
    "tab": "Tab",
    "backspace": "BkSp",
    "escape": "Esc",
    "up": "Up",
    "down": "Dn",
    "left": "Lt",
    "right": "Rt",
    "home": "Home",
    "end": "End",
    "insert": "Ins",
    "delete": "Del",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "ctrl+c": "^C",
    "ctrl+l": "^L",
    "ctrl+z": "^Z",
}


def key_label(key: str) -> str:
    """A key as written on screen: ``q``, ``;``, ``Spc``, ``Esc``, ``F1``, ``^C``."""
    if key in _SHORT_NAMES:
        return _SHORT_NAMES[key]
    if len(key) > 1 and key[0] == "f" and key[1:].isdigit():
        return key.upper()
    return key


class SequenceFilter:
    """Drops what a terminal sends that is not a key press: the rest of an escape sequence
    blessed does not know (a mouse report, focus in and out, a late answer to a query), and
    everything inside a bracketed paste.

    blessed hands such a sequence over as a ``CSI`` keystroke (``ESC [``) followed by each
    of its remaining characters as keys of their own: without this filter the ``m`` that
    ends a mouse report would call player 2's stress. A control sequence is parameter
    characters (``0``-``?``), then intermediates (space to ``/``), then one final
    character (``@`` to ``~``), which ends it.
    """

    PASTE_START = "200~"
    PASTE_END = "201~"

    def __init__(self) -> None:
        self._sequence: str | None = None
        """The characters of an unknown sequence read so far (``None``: not in one)."""
        self._pasting = False
        """Inside a bracketed paste."""

    def passes(self, keystroke: KeystrokeLike) -> bool:
        """Whether this keystroke is a key press to act on."""
        if self._sequence is not None:
            text = keystroke.value if keystroke.key_name is None else ""
            if len(text) != 1 or not " " <= text <= "~":
                self._sequence = None  # not part of a sequence after all
            else:
                self._sequence += text
                if "@" <= text <= "~":
                    self._end(self._sequence)
                return False
        if len(keystroke) > 1 and keystroke.key_name == "CSI":  # (never one character)
            self._sequence = ""
            return False
        return not self._pasting

    def burst_over(self) -> None:
        """No more input is waiting: a sequence or paste cut off here is over (a terminal
        sends each at once; one whose end never comes must not leave the game deaf)."""
        self._sequence = None
        self._pasting = False

    def _end(self, sequence: str) -> None:
        self._sequence = None
        if sequence == self.PASTE_START:
            self._pasting = True
        elif sequence == self.PASTE_END:
            self._pasting = False
