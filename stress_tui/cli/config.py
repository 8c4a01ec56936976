"""The config file: where it lives, what it may say, how it is read and how it is printed.

``config.toml`` in the user's config directory for ``stress-tui`` (``platformdirs``), or the
file named by the environment variable ``STRESS_TUI_CONFIG``, may set default house rules,
names, players, display and key maps. Reading it checks every entry; a bad one raises
``ConfigError`` whose text is the whole complaint, ``PATH:LINE: key: problem``. The file is
never written: ``to_toml`` makes the text that ``--print-config`` prints.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from stress_tui.core.choices import PLAYER_KINDS, THEME_NAMES
from stress_tui.core.houserules import (
    BY_NAME,
    DECK_RULE,
    HOUSE_RULES,
    ROOMIEST,
    HouseRule,
    RulesError,
)
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.core.text import BadName, Term, check_name, harmless
from stress_tui.core.words import quoted, shown
from stress_tui.storage.files import MiB, Missing, StorageError, read_regular
from stress_tui.terminal.lang import N_, _

ENV_VAR = "STRESS_TUI_CONFIG"
"""The environment variable that names another config file (tests use it)."""

MAX_SIZE = 1 * MiB
"""The largest config or key file that is read (one is a few kilobytes)."""

TABLES = ("rules", "players", "display", "keys")
"""The tables a config file may have (besides the top-level ``names``)."""

PLAYER_SIDES = ("p1", "p2")
"""The players' keys in ``[players]`` and ``[keys.*]``."""


THEME_REFUSAL = N_("{value} is not a theme (choose from {choices})")
"""What a theme that is none of the themes is told (``choose``)."""

KEYBOARD_REFUSAL = N_("{value} is not a keyboard (choose from {choices})")
"""What a keyboard that is none of the presets is told (``choose``)."""


class ConfigError(ValueError):
    """A config or key file that cannot be used; the text is the whole one-line complaint
    (``PATH:LINE: key: problem``), without the program's name."""


class BadValue(ValueError):
    """A value that cannot be used, wherever it came from; the text says why, without
    naming the place (the caller knows if it was a flag or a file)."""


# --------------------------------------------------------------------------- values


def choose(value: object, choices: Iterable[str], refusal: str) -> str:
    """One of ``choices``, written in any case with any blanks around; otherwise
    ``BadValue`` saying ``refusal`` (a text with ``{value}`` and ``{choices}``, marked
    with ``N_``) in the player's language.

    >>> choose(" Light", ["dark", "light"], "{value} is not a theme (choose from {choices})")
    'light'
    """
    options = list(choices)
    word = _text(value).strip().lower()
    if word in options:
        return word
    raise BadValue(_(refusal).format(value=shown(value), choices=", ".join(options)))


def player_kind(text: str) -> str:
    """A player kind as written by a person: ``human``, ``bot:LEVEL``, or ``bot`` (the
    normal bot); case and surrounding blanks do not matter."""
    kind = text.strip().lower()
    if kind == "bot":
        kind = "bot:normal"
    if kind in PLAYER_KINDS:
        return kind
    raise BadValue(
        _("{text} is not a player (choose from {kinds})").format(
            text=shown(text), kinds=", ".join(PLAYER_KINDS)
        )
    )


def player_names(names: Iterable[str]) -> tuple[str, str]:
    """Two names, stripped, checked (``text.check_name``: not empty, printable, at most
    ``MAX_NAME`` long, drawing something), different from each other."""
    given = list(names)
    if len(given) != 2:
        raise BadValue(_("give exactly two names, not {n}").format(n=len(given)))
    try:
        got = [check_name(name) for name in given]
    except BadName as error:
        raise BadValue(error.said(_)) from None
    if got[0].casefold() == got[1].casefold():
        raise BadValue(_("the two names must differ, not both {name}").format(name=shown(got[0])))
    return got[0], got[1]


def _yes_no(value: object) -> bool:
    if not isinstance(value, bool):
        raise BadValue(_("must be true or false, not {value}").format(value=shown(value)))
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise BadValue(_("must be a string, not {value}").format(value=shown(value)))
    return value


def _check_alone(rule: HouseRule, value: object) -> None:
    """Check one rule's value on its own, with the ``Rules`` checks themselves: on the
    largest share a player can have, so that only a combination can still be refused."""
    roomy: dict[str, Any] = {**ROOMIEST, rule.field: value}
    try:
        Rules.for_deck(str(roomy.pop(DECK_RULE.field, DECK_RULE.default)), **roomy)
    except RulesError as error:
        if error.field != rule.name:  # cannot happen: the roomy rules are fine on their own
            raise RuntimeError(f"{error} under the roomiest rules") from error
        raise


# --------------------------------------------------------------------------- the file


@dataclass(frozen=True)
class Config:
    """What a config file says; every entry is checked, ``None`` where it says nothing."""

    path: Path | None = None
    """The file read; ``None`` when there was none."""
    rules: dict[str, Any] = field(default_factory=dict)
    """``Rules`` settings by field name (``row_size``), each checked on its own."""
    names: tuple[str, str] | None = None
    """The players' names."""
    players: dict[str, str] = field(default_factory=dict)
    """Player kinds by side (``p1``, ``p2``)."""
    ascii: bool | None = None
    """Draw suits as letters."""
    four_colour: bool | None = None
    """Use a four-colour deck."""
    lang: str | None = None
    """The language the game speaks (top-level ``lang``, a code of ``terminal.lang``)."""
    theme: str | None = None
    """The colour theme's name (``auto`` or one of ``THEMES``)."""
    keyboard: str | None = None
    """The keyboard layout the default keys are placed for (``[keys] keyboard``)."""
    keymap: dict[str, dict[str, str]] | None = None
    """``[keys.p1]`` and ``[keys.p2]``: action name to key name, by side."""
    lines: dict[str, int] = field(default_factory=dict)
    """The line of each entry, by dotted key (``rules.row``), where it could be found."""

    __hash__ = None  # type: ignore[assignment]  # (mypy expects a method)
    """Not hashable: its tables are dicts, which the hash a frozen dataclass is given
    would fail on; nothing hashes a config."""

    def where(self, key: str) -> str:
        """The place of an entry for a message: ``PATH:LINE: key`` (or ``PATH: key``)."""
        line = self.lines.get(key)
        place = f"{self.path}:{line}" if line is not None else f"{self.path}"
        return f"{place}: {key}"


def default_path() -> Path:
    """Where the config file is looked for: ``$STRESS_TUI_CONFIG`` if set and not empty,
    else ``config.toml`` in the user's config directory for ``stress-tui``."""
    named = os.environ.get(ENV_VAR, "")
    if named:
        return Path(named).expanduser()
    return Path(platformdirs.user_config_dir("stress-tui")) / "config.toml"


def load_config(path: Path | None = None) -> Config:
    """Read and check the config file (``default_path()`` unless given). A missing file is
    an empty config; anything wrong with it raises ``ConfigError``."""
    path = default_path() if path is None else path
    text = _read(path, missing_ok=True)
    if text is None:
        return Config()
    return _Reader(path, text, TABLES).config()


def load_keys(path: Path, flag: str | None = None) -> Config:
    """Read and check a key file (``--keys FILE``): only ``[keys.p1]`` and ``[keys.p2]``.
    Returns a ``Config`` with only ``keymap`` (and ``path``, ``lines``) set. A file that
    is not there is said as ``FLAG: no such file: PATH`` when ``flag`` names the option
    that gave it."""
    text = _read(path, missing_ok=False, flag=flag)
    assert text is not None
    return _Reader(path, text, ("keys",)).config()


def _read(path: Path, *, missing_ok: bool, flag: str | None = None) -> str | None:
    """The text of a config or key file: only a regular file, read without blocking, of
    at most ``MAX_SIZE`` bytes (``storage.files.read_regular``)."""
    what = Term(N_("a key file") if flag else N_("a config file"))
    try:
        data = read_regular(path, MAX_SIZE, what)
    except Missing:
        if missing_ok:
            return None
        if flag:
            raise ConfigError(
                _("{flag}: no such file: {path}").format(flag=flag, path=path)
            ) from None
        raise ConfigError(_("{path}: cannot read: no such file").format(path=path)) from None
    except StorageError as error:
        raise ConfigError(error.said(_)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: " + _("not UTF-8 text")) from None


def _toml_module() -> Any:
    """``tomllib`` (3.11 on) or its backport ``tomli`` (3.10)."""
    return importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")


# This module's patterns are strings: ``re`` compiles each and keeps it the first time a
# file is read (a start without a config file never needs them).
_AT_LINE = r"\s*\(at line (\d+), column (\d+)\)\s*$"


def _parse_toml(path: Path, text: str) -> dict[str, Any]:
    toml = _toml_module()
    try:
        data: dict[str, Any] = toml.loads(text)
    except RecursionError:  # arrays or inline tables nested thousands deep
        raise ConfigError(f"{path}: " + _("not valid TOML: nested too deep")) from None
    except toml.TOMLDecodeError as error:
        message = str(error).splitlines()[0] if str(error) else "syntax error"
        found = re.search(_AT_LINE, message)
        if found:
            message = message[: found.start()] + f" (column {found.group(2)})"
            place = f"{path}:{found.group(1)}"
            raise ConfigError(
                place + ": " + _("not valid TOML: {why}").format(why=message)
            ) from None
        raise ConfigError(f"{path}: " + _("not valid TOML: {why}").format(why=message)) from None
    return data


_BARE_OR_QUOTED = r"(?:[A-Za-z0-9_-]+|\"(?:[^\"\\]|\\.)*\"|'[^']*')"
_KEY_LINE = rf"^\s*({_BARE_OR_QUOTED}(?:\s*\.\s*{_BARE_OR_QUOTED})*)\s*="
_HEADER_LINE = rf"^\s*\[\[?\s*({_BARE_OR_QUOTED}(?:\s*\.\s*{_BARE_OR_QUOTED})*)\s*\]\]?\s*(?:#.*)?$"


def _key_parts(text: str) -> tuple[str, ...]:
    return tuple(
        part[1:-1] if part[:1] in "\"'" else part for part in re.findall(_BARE_OR_QUOTED, text)
    )


def find_line(text: str, key: tuple[str, ...]) -> int | None:
    """The line (from 1) where the entry ``key`` (a dotted path) is written, or failing
    that the line of the table or inline table that holds it; ``None`` if not found.

    >>> find_line("a = 1\\n[rules]\\n# row = 3\\nrow = 4\\n", ("rules", "row"))
    4
    """
    table: tuple[str, ...] = ()
    near: int | None = None
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is not None:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        header = re.match(_HEADER_LINE, line)
        if header:
            table = _key_parts(header.group(1))
            path = table
        else:
            entry = re.match(_KEY_LINE, line)
            if not entry:
                continue
            path = table + _key_parts(entry.group(1))
            rest = line[entry.end() :]
            for quotes in ('"""', "'''"):
                if rest.count(quotes) % 2 == 1:
                    in_string = quotes
        if path == key:
            return number
        if near is None and (path == key[: len(path)] or key == path[: len(key)]):
            near = number
    return near


class _Reader:
    """Checks the parsed TOML of one file, entry by entry, and builds a ``Config``."""

    def __init__(self, path: Path, text: str, tables: tuple[str, ...]) -> None:
        self.path = path
        self.text = text
        self.tables = tables
        self.lines: dict[str, int] = {}

    def fail(self, key: tuple[str, ...], problem: str) -> ConfigError:
        line = find_line(self.text, key)
        place = f"{self.path}:{line}" if line is not None else str(self.path)
        return ConfigError(f"{place}: {'.'.join(harmless(part) for part in key)}: {problem}")

    def note(self, key: tuple[str, ...]) -> None:
        line = find_line(self.text, key)
        if line is not None:
            self.lines[".".join(key)] = line

    def unknown(self, key: tuple[str, ...], known: Iterable[str], what: str) -> ConfigError:
        import difflib

        options = list(known)
        close = difflib.get_close_matches(key[-1], options, n=1)
        hint = _("did you mean {name}? ").format(name=close[0]) if close else ""
        unknown = _("unknown table ({hint}known: {known})") if what == "table" else None
        unknown = unknown or _("unknown key ({hint}known: {known})")
        return self.fail(key, unknown.format(hint=hint, known=", ".join(options)))

    def table(self, key: tuple[str, ...], value: object) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, _("must be a table, not {value}").format(value=shown(value)))
        return value

    def config(self) -> Config:
        data = _parse_toml(self.path, self.text)
        allowed = [*self.tables, *(["names", "lang"] if "rules" in self.tables else [])]
        for name, value in data.items():
            if name not in allowed:
                raise self.unknown((name,), allowed, "table" if isinstance(value, dict) else "key")
        rules: dict[str, Any] = {}
        names: tuple[str, str] | None = None
        players: dict[str, str] = {}
        display: dict[str, Any] = {}
        keymap: dict[str, dict[str, str]] | None = None
        if "names" in data:
            names = self.names(data["names"])
        lang = self.lang(data["lang"]) if "lang" in data else None
        if "rules" in data:
            rules = self.rules(self.table(("rules",), data["rules"]))
        if "players" in data:
            players = self.players(self.table(("players",), data["players"]))
        if "display" in data:
            display = self.display(self.table(("display",), data["display"]))
        keyboard: str | None = None
        if "keys" in data:
            keys = dict(self.table(("keys",), data["keys"]))
            if "keyboard" in keys:
                keyboard = self.keyboard(keys.pop("keyboard"))
            keymap = self.keys(keys) if keys else None
        return Config(
            path=self.path,
            rules=rules,
            names=names,
            players=players,
            ascii=display.get("ascii"),
            four_colour=display.get("four-colour"),
            lang=lang,
            theme=display.get("theme"),
            keyboard=keyboard,
            keymap=keymap,
            lines=self.lines,
        )

    def names(self, value: object) -> tuple[str, str]:
        key = ("names",)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            two = _("must be a list of two strings, not {value}")
            raise self.fail(key, two.format(value=shown(value)))
        try:
            names = player_names(value)
        except BadValue as error:
            raise self.fail(key, str(error)) from None
        self.note(key)
        return names

    def lang(self, value: object) -> str:
        from stress_tui.terminal.lang import BadLanguage, language_code

        key = ("lang",)
        try:
            code = language_code(_text(value))
        except (BadValue, BadLanguage) as error:
            raise self.fail(key, str(error)) from None
        self.note(key)
        return code

    def rules(self, table: Mapping[str, Any]) -> dict[str, Any]:
        rules: dict[str, Any] = {}
        for name, value in table.items():
            key = ("rules", name)
            rule = BY_NAME.get(name)
            if rule is None:
                raise self.unknown(key, BY_NAME, "key")
            try:
                rules[rule.field] = checked = rule.read_toml(value)
                _check_alone(rule, checked)
            except RulesError as error:
                raise self.fail(key, error.said_as(name, _)) from None
            self.note(key)
        return rules

    def players(self, table: Mapping[str, Any]) -> dict[str, str]:
        players: dict[str, str] = {}
        for name, value in table.items():
            key = ("players", name)
            if name not in PLAYER_SIDES:
                raise self.unknown(key, PLAYER_SIDES, "key")
            try:
                players[name] = player_kind(_text(value))
            except BadValue as error:
                raise self.fail(key, str(error)) from None
            self.note(key)
        return players

    def display(self, table: Mapping[str, Any]) -> dict[str, Any]:
        display: dict[str, Any] = {}
        known = ("theme", "ascii", "four-colour")
        for name, value in table.items():
            key = ("display", name)
            if name not in known:
                raise self.unknown(key, known, "key")
            try:
                if name == "theme":
                    display[name] = choose(value, THEME_NAMES, THEME_REFUSAL)
                else:
                    display[name] = _yes_no(value)
            except BadValue as error:
                raise self.fail(key, str(error)) from None
            self.note(key)
        return display

    def keyboard(self, value: object) -> str:
        from stress_tui.core.keyboards import KEYBOARDS

        key = ("keys", "keyboard")
        try:
            board = choose(value, KEYBOARDS, KEYBOARD_REFUSAL)
        except BadValue as error:
            raise self.fail(key, str(error)) from None
        self.note(key)
        return board

    def keys(self, table: Mapping[str, Any]) -> dict[str, dict[str, str]]:
        keymap: dict[str, dict[str, str]] = {}
        for side, actions in table.items():
            key = ("keys", side)
            if side not in PLAYER_SIDES:
                raise self.unknown(key, (*PLAYER_SIDES, "keyboard"), "table")
            keymap[side] = {}
            for action, name in self.table(key, actions).items():
                if not isinstance(name, str):
                    not_key = _("must be a key name, not {value}").format(value=shown(name))
                    raise self.fail((*key, action), not_key)
                keymap[side][action] = name
            self.note(key)
        return keymap


# --------------------------------------------------------------------------- printing


def toml_key(name: str) -> str:
    """``name`` as a TOML key: bare where it may be, quoted otherwise."""
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else quoted(name)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return quoted(value)
    return str(value)


def to_toml(settings: Settings, path: Path | None = None) -> str:
    """The settings as a config file that gives the same settings when read back.

    Rules at the deck's default are written as comments, so that the saved file keeps
    following the deck (``--deck skat`` then still plays rows of three). The seed is not
    kept: it belongs to one launch.
    """
    from stress_tui.core.keyboards import KEYBOARDS
    from stress_tui.terminal.keys import settings_layout  # --print-config's alone

    path = default_path() if path is None else path
    rules = settings.rules
    defaults = rules.defaults()
    out = [
        "# stress-tui settings; flags given at launch override what is here.",
        f"# Save as {path}",
        f"# (or name another file in the environment variable {ENV_VAR}).",
        "",
        f"names = [{quoted(settings.names[0])}, {quoted(settings.names[1])}]",
        *(
            ['# lang = "sv"   # en, sv, de; left out: the environment\'s (LANGUAGE, LANG...)']
            if settings.lang is None
            else [f"lang = {quoted(settings.lang)}   # en, sv, de"]
        ),
        "",
        "[rules]",
        f"deck = {quoted(rules.deck)}",
        "# Lines starting with # are the deck's defaults: remove the # to keep a value",
        "# whatever the deck.",
    ]
    for rule in HOUSE_RULES:
        if rule is DECK_RULE:
            continue
        value = getattr(rules, rule.field)
        line = f"{rule.name} = {rule.kind.toml(value)}"
        out.append(line if value != getattr(defaults, rule.field) else "# " + line)
    out += [
        "",
        "[players]",
        "# human, or bot:easy, bot:normal, bot:hard, bot:expert",
        f"p1 = {quoted(settings.players[0])}",
        f"p2 = {quoted(settings.players[1])}",
        "",
        "[display]",
        f"theme = {quoted(settings.theme)}   # {', '.join(THEME_NAMES)}",
        *(
            ["# ascii = false   # true: letters; left out: letters where the terminal has no suits"]
            if settings.ascii is None
            else [f"ascii = {_toml_value(settings.ascii)}"]
        ),
        f"four-colour = {_toml_value(settings.four_colour)}",
    ]
    keymap = settings.keymap or {}
    out += [
        "",
        "[keys]",
        f"keyboard = {quoted(settings.keyboard)}   # {', '.join(KEYBOARDS)}",
        "",
        "# [keys.p1] and [keys.p2] give a player's every action a key (docs/keys.md);",
        "# a player without a table keeps the default layout, shown commented out.",
    ]
    layout = settings_layout(settings)
    for side in PLAYER_SIDES:
        table = keymap.get(side)
        comment = "" if table is not None else "# "
        if table is None:
            table = layout.get(side)
            if table is None:
                continue
        out += ["", f"{comment}[keys.{side}]"]
        for action, key_name in table.items():
            out.append(f"{comment}{toml_key(action)} = {quoted(key_name)}")
    return "\n".join(out) + "\n"
