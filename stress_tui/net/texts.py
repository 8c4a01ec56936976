"""What the host says to the other end, by key: each side reads it in its own language.

The host and the joiner may speak different languages, so a line the host makes for both
screens (who left, why a connection ended, why a join was refused) travels as a ``Said``:
a key of ``TEXTS`` and its arguments, ``{"key": "left", "args": {"name": "Bo"}}``. The
side that shows it looks the key up and says it through its own translation (``tell``,
given ``terminal.lang._``). Everything in a ``Said`` from the other end is checked before
it is used (``said_from_json``: the key's spelling, at most a few arguments, each a short
text or a finite number), and its texts are made harmless when shown; a key this version
does not know (or whose arguments are not the ones its text has) is said as a line of our
own naming the key, never the other side's text.

The English of each key is marked with ``N_``, so that ``scripts/catalogues`` finds it. A
protocol error's details (``error``) are technical and stay English.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from stress_tui.core.text import harmless
from stress_tui.core.words import N_, Say, shown_name

Value = str | int | float
"""An argument of a ``Said``: a short text or a number."""

TEXTS: dict[str, str] = {
    "left": N_("{name} left"),
    "lost": N_("{name}'s connection was lost"),
    "lost-silent": N_("{name}'s connection was lost (no answer for {s} s)"),
    "lost-stopped": N_("{name}'s connection was lost (it stopped reading)"),
    "lost-error": N_("{name}'s connection was lost ({why})"),
    "back": N_("{name} is back"),
    "gone": N_("{name} did not come back: the match ends unscored"),
    "busy": N_("busy: too many connections at once"),
    "busy-address": N_("busy: too many connections from your address at once"),
    "barred": N_("too many wrong codes from your address: try again in {s} s"),
    "wrong-code": N_("wrong join code"),
    "wrong-code-wait": N_("wrong join code (the next try from your address in {s} s)"),
    "over": N_("the match is over"),
    "watchers": N_("enough spectators already"),
    "full": N_("the table is full: {name} is playing (stress-tui watch to watch)"),
    "slow": N_("too slow to say hello"),
    "version": N_(
        "protocol version {theirs} meets version {ours}: both players need the same "
        "stress-tui version"
    ),
    "error": "{why}",
}
"""Every line the host sends, by key, in English (``error``: a protocol error's details,
technical, not translated)."""

UNKNOWN = N_("the other side said something this version cannot show ({key})")
"""Said instead of a ``Said`` whose key this version does not know."""

MAX_ARGS = 4
"""Arguments a ``Said`` from the other end may have."""

MAX_ARG_TEXT = 200
"""Characters an argument's text may have."""

_KEY_CHARS = frozenset(string.ascii_lowercase + string.digits + "-")
_NAME_CHARS = frozenset(string.ascii_lowercase + "_")


def fields(template: str) -> frozenset[str]:
    """The placeholders of a text.

    >>> sorted(fields("{name} left after {s} s"))
    ['name', 's']
    """
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


@dataclass(frozen=True)
class Said:
    """A line by key and arguments, said in each reader's language (``tell``)."""

    key: str
    """A key of ``TEXTS`` (or, from a newer program, one this version does not know)."""
    args: Mapping[str, Value] = field(default_factory=dict)
    """The values of the text's placeholders."""

    def to_json(self) -> dict[str, Any]:
        """As the wire carries it."""
        return {"key": self.key, "args": dict(self.args)}

    def tell(self, _: Say = N_) -> str:
        """The line in the language of ``_`` (English with ``N_``), harmless to show."""
        template = TEXTS.get(self.key)
        if template is None or fields(template) != set(self.args):
            return _(UNKNOWN).format(key=harmless(self.key, limit=32))
        values = {
            name: _shown(
                shown_name(value, _) if name == "name" and isinstance(value, str) else value
            )
            for name, value in self.args.items()
        }
        said = template if self.key == "error" else _(template)
        try:
            return said.format(**values)
        except (KeyError, IndexError, ValueError):  # a translation with other placeholders
            return template.format(**values)

    def __str__(self) -> str:
        return self.tell()


def said(key: str, **args: Value) -> Said:
    """A ``Said`` of one of ``TEXTS`` (``KeyError`` for a key we do not have: a bug)."""
    template = TEXTS[key]
    assert fields(template) == set(args), (key, sorted(args))
    return Said(key, args)


def _shown(value: Value) -> str:
    if isinstance(value, str):
        return harmless(value, limit=MAX_ARG_TEXT)
    if isinstance(value, float) and value != int(value):
        return f"{value:g}"
    return str(int(value))


def said_from_json(value: object) -> Said:
    """A ``Said`` from the other end, checked: ``ValueError`` saying what is wrong."""
    if not isinstance(value, dict) or set(value) != {"key", "args"}:
        raise ValueError("a said line is an object of key and args")
    key, args = value["key"], value["args"]
    if not isinstance(key, str) or not 0 < len(key) <= 32 or not set(key) <= _KEY_CHARS:
        raise ValueError("a said line's key is not as it must be")
    if not isinstance(args, dict) or len(args) > MAX_ARGS:
        raise ValueError("a said line's args are not as they must be")
    for name, arg in args.items():
        if not 0 < len(name) <= 16 or not set(name) <= _NAME_CHARS:
            raise ValueError("a said line's argument name is not as it must be")
        if isinstance(arg, str):
            if len(arg) > MAX_ARG_TEXT:
                raise ValueError("a said line's argument is too long")
        elif type(arg) not in (int, float) or not math.isfinite(arg) or abs(arg) > 1e9:
            raise ValueError("a said line's argument is not a text or a number")
    return Said(key, dict(args))


def is_said(value: Any) -> bool:
    """Whether ``value`` is a ``Said`` as the wire carries it (for a schema)."""
    try:
        said_from_json(value)
    except ValueError:
        return False
    return True


UNVERSIONED = ("busy", "busy-address", "barred", "slow")
"""Refusals the host may send before a hello has shown it the other end's version: these go
in English only, in the shape every version reads (``Host._refuse``), and the other end
knows them again by their English (``recognize``)."""


def recognize(text: object) -> Said | None:
    """One of ``UNVERSIONED`` from its English (its numbers taken back out), so that it can
    be said in the reader's language; ``None``: not one of them.

    >>> recognize("too many wrong codes from your address: try again in 4 s")
    Said(key='barred', args={'s': 4})
    """
    if not isinstance(text, str):
        return None
    for key in UNVERSIONED:
        pattern = "".join(
            re.escape(literal) + ("" if name is None else f"(?P<{name}>[0-9]{{1,9}})")
            for literal, name, _, _ in string.Formatter().parse(TEXTS[key])
        )
        found = re.fullmatch(pattern, text)
        if found is not None:
            return Said(key, {name: int(value) for name, value in found.groupdict().items()})
    return None
