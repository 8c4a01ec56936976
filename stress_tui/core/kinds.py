"""The kinds of house-rule values: how a value is read (from a flag, the notation, a config
file), checked and written: a whole number, seconds, a switch, a choice among words.
``core/houserules.py`` gives each rule its kind.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from stress_tui.core.text import Problem
from stress_tui.core.words import N_, Say, number, quoted, shown


class BadValue(Problem, ValueError):
    """A value a kind of setting cannot take; the text says why, without the rule's name
    (an ``N_`` text and its values, said in the player's language by the edge)."""


@dataclass(frozen=True, slots=True, eq=False)
class Whole:
    """A whole number from ``low`` up to ``high`` (no end above if ``None``)."""

    low: int
    """The smallest allowed."""
    high: int | None = None
    """The largest allowed."""
    metavar: ClassVar[str | None] = "N"
    """What the flag's value is called in ``--help``."""

    def from_text(self, text: str) -> int:
        """The value a flag or the notation writes."""
        try:
            return int(text.strip())
        except ValueError:
            raise BadValue(N_("{value} is not a whole number"), value=shown(text)) from None

    def from_toml(self, value: object) -> int:
        """The value a config file gives (any TOML value)."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadValue(N_("must be a whole number, not {value}"), value=shown(value))
        return value

    def coerce(self, value: object) -> object:
        """The value as ``Rules`` keeps it (``problem`` says if it is not one)."""
        return value

    def problem(self, value: object) -> Problem | None:
        """What is wrong with a value of the field, or ``None``."""
        if isinstance(value, bool) or not isinstance(value, int):
            return BadValue(N_("must be a whole number, not {value}"), value=shown(value))
        if self.high is None:
            if value >= self.low:
                return None
            return BadValue(N_("must be at least {low}, not {value}"), low=self.low, value=value)
        if not self.low <= value <= self.high:
            return BadValue(
                N_("must be between {low} and {high}, not {value}"),
                low=self.low,
                high=self.high,
                value=value,
            )
        return None

    def write(self, value: Any) -> str:
        """The value in the notation (and in help texts)."""
        return str(value)

    def toml(self, value: Any) -> str:
        """The value in a config file."""
        return str(value)

    def span(self, _: Say = N_) -> str:
        """The allowed values, for help texts: ``, 0 to 16`` (empty if there is no end)."""
        if self.high is None:
            return ""
        return _(", {low} to {high}").format(low=self.low, high=self.high)


@dataclass(frozen=True, slots=True, eq=False)
class Seconds:
    """A time in seconds from ``low`` to ``high``."""

    low: float
    """The shortest allowed."""
    high: float
    """The longest allowed."""
    metavar: ClassVar[str | None] = "SECONDS"
    """What the flag's value is called in ``--help``."""

    def from_text(self, text: str) -> float:
        """The value a flag or the notation writes."""
        try:
            value = float(text.strip())
        except ValueError:
            raise BadValue(N_("{value} is not a number of seconds"), value=shown(text)) from None
        if not math.isfinite(value):
            raise BadValue(N_("{value} is not a number of seconds"), value=shown(text))
        return value

    def from_toml(self, value: object) -> float:
        """The value a config file gives (any TOML value)."""
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            raise BadValue(N_("must be a number of seconds, not {value}"), value=shown(value))
        return float(value)

    def coerce(self, value: object) -> object:
        """The value as ``Rules`` keeps it: a whole number of seconds becomes a float."""
        if isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        return value

    def problem(self, value: object) -> Problem | None:
        """What is wrong with a value of the field, or ``None``."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return BadValue(N_("must be a number of seconds, not {value}"), value=shown(value))
        if not self.low <= value <= self.high:
            return BadValue(
                N_("must be between {low} and {high} seconds, not {value}"),
                low=number(self.low),
                high=number(self.high),
                value=value,
            )
        return None

    def write(self, value: Any) -> str:
        """The value in the notation (and in help texts), exactly."""
        return number(value)

    def toml(self, value: Any) -> str:
        """The value in a config file."""
        return repr(float(value))

    def span(self, _: Say = N_) -> str:
        """The allowed values, for help texts."""
        return _(", {low} to {high}").format(low=number(self.low), high=number(self.high))


class Switch:
    """On or off."""

    metavar: ClassVar[str | None] = None
    """A switch is a flag with a ``--no-`` partner, without a value."""

    def span(self, _: Say = N_) -> str:
        """Nothing to say about the allowed values."""
        return ""

    def from_text(self, text: str) -> bool:
        """``on`` or ``off``, as the notation writes it."""
        word = text.strip().lower()
        if word not in ("on", "off"):
            raise BadValue(N_("{value} is not on or off"), value=shown(text))
        return word == "on"

    def from_toml(self, value: object) -> bool:
        """The value a config file gives (any TOML value)."""
        if not isinstance(value, bool):
            raise BadValue(N_("must be true or false, not {value}"), value=shown(value))
        return value

    def coerce(self, value: object) -> object:
        """The value as ``Rules`` keeps it."""
        return value

    def problem(self, value: object) -> Problem | None:
        """What is wrong with a value of the field, or ``None``."""
        if isinstance(value, bool):
            return None
        return BadValue(N_("must be on or off, not {value}"), value=shown(value))

    def write(self, value: Any) -> str:
        """The value in the notation (and in help texts)."""
        return "on" if value else "off"

    def toml(self, value: Any) -> str:
        """The value in a config file."""
        return "true" if value else "false"


@dataclass(frozen=True, slots=True, eq=False)
class Choice:
    """One of a few words; ``options`` gives the value each word stands for."""

    options: Mapping[str, object]
    """Each word and its value (an enum member, or the word itself)."""
    refusal: str
    """What a word that is none of them is told, an ``N_`` text with ``{value}`` and
    ``{choices}``: ``{value} is not a deal (choose from {choices})``."""

    @classmethod
    def of(cls, kind: type[enum.Enum], refusal: str) -> Choice:
        """A choice among an enum's members, by their values."""
        return cls({str(member.value): member for member in kind}, refusal)

    def span(self, _: Say = N_) -> str:
        """The metavar lists the words already."""
        return ""

    @property
    def metavar(self) -> str:
        """``{split,each}``."""
        return "{" + ",".join(self.options) + "}"

    def _word(self, value: object) -> str | None:
        """The word of a value that is one of the options exactly, else ``None``."""
        for word, option in self.options.items():
            if value is option or (type(value) is type(option) and value == option):
                return word
        return None

    def _refused(self, value: object) -> BadValue:
        return BadValue(self.refusal, value=shown(value), choices=", ".join(self.options))

    def from_text(self, text: str) -> object:
        """One of the words, in any case, with any blanks around."""
        word = text.strip().lower()
        if word not in self.options:
            raise self._refused(text)
        return self.options[word]

    def from_toml(self, value: object) -> object:
        """The value a config file gives (any TOML value)."""
        if not isinstance(value, str):
            raise BadValue(N_("must be a string, not {value}"), value=shown(value))
        return self.from_text(value)

    def coerce(self, value: object) -> object:
        """The value as ``Rules`` keeps it: a word becomes the option it names."""
        if self._word(value) is None and isinstance(value, str):
            if value not in self.options:
                raise self._refused(value)
            return self.options[value]
        return value

    def problem(self, value: object) -> Problem | None:
        """What is wrong with a value of the field, or ``None``."""
        return None if self._word(value) is not None else self._refused(value)

    def write(self, value: Any) -> str:
        """The value's word."""
        word = self._word(value)
        assert word is not None, value
        return word

    def toml(self, value: Any) -> str:
        """The value in a config file."""
        return quoted(self.write(value))


Kind = Whole | Seconds | Switch | Choice
"""How a house rule's values are read, checked and written."""
