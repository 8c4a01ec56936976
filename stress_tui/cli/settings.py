"""Flags and the config file become ``Settings``: each flag given overrides the config
file, which overrides the deck's defaults; a bad entry is one line naming the flag or the
file and key where it was set."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from stress_tui.cli.errors import UsageError, _
from stress_tui.cli.flags import dest

if TYPE_CHECKING:
    from stress_tui.cli.config import Config
    from stress_tui.core.houserules import RulesError
    from stress_tui.core.settings import Settings


def load_config(flagged: bool) -> Config:
    """The config file, read; its ``lang`` spoken from now on unless ``--lang`` was given
    (``flagged``)."""
    from stress_tui.cli.config import load_config as load

    config = load()
    if not flagged:
        speak_config(config)
    return config


def speak_config(config: Config) -> None:
    """Speak the config file's ``lang`` (when no ``--lang`` was given)."""
    if config.lang is not None:
        from stress_tui.terminal.lang import choose

        choose(config.lang)


def keyboard_from(args: argparse.Namespace, config: Config) -> str:
    """The keyboard the default keys are placed for: ``--keyboard``, else the config
    file's, else the language's (``_language_keyboard``)."""
    return getattr(args, "keyboard", None) or config.keyboard or _language_keyboard()


def _language_keyboard() -> str:
    """The keyboard assumed when neither ``--keyboard`` nor the config names one: the
    Swedish or German one for a player who speaks the language."""
    from stress_tui.core.keyboards import DEFAULT_KEYBOARD, LANGUAGE_KEYBOARDS
    from stress_tui.terminal.lang import language

    return LANGUAGE_KEYBOARDS.get(language(), DEFAULT_KEYBOARD)


def settings_from_args(args: argparse.Namespace, config: Config) -> Settings:
    """The settings a parsed command line and a config file decide: each flag given
    overrides the config file, which overrides the deck's defaults. Raises
    ``UsageError`` or ``ConfigError`` (one line naming the flag or the file and key)."""
    from stress_tui.core.houserules import BY_FIELD, DECK_RULE, HOUSE_RULES, RulesError
    from stress_tui.core.rules import Rules
    from stress_tui.core.settings import Settings, default_names

    settings_rules: dict[str, Any] = {}
    where: dict[str, tuple[str, str]] = {}
    for field, value in config.rules.items():
        settings_rules[field] = value
        name = BY_FIELD[field].name
        where[name] = (config.where(f"rules.{name}"), name)
    for rule in HOUSE_RULES:
        value = getattr(args, dest(rule.name), None)
        if value is not None:
            settings_rules[rule.field] = value
            where[rule.name] = (rule.flag, rule.flag)
    deck = settings_rules.pop(DECK_RULE.field, DECK_RULE.default)
    try:
        rules = Rules.for_deck(deck, **settings_rules)
    except RulesError as error:
        raise _rules_error(error, where) from None

    players = tuple(
        getattr(args, side, None) or config.players.get(side) or "human" for side in ("p1", "p2")
    )
    names = getattr(args, "names", None) or config.names or default_names((players[0], players[1]))
    keymap, key_files = keymap_from(getattr(args, "keys", None), config)
    seed = getattr(args, "seed", None)
    settings = Settings(
        rules=rules,
        seed=None if seed is None else seed[0],
        first_round=1 if seed is None else seed[1],
        names=names,
        players=(players[0], players[1]),
        lang=getattr(args, "lang", None) or config.lang,
        keyboard=keyboard_from(args, config),
        keymap=keymap,
        **display(args, config),
    )
    if keymap is not None:
        check_keymap(settings, key_files)
    return settings


def display(args: argparse.Namespace, config: Config) -> dict[str, Any]:
    """The display's settings (``Settings`` fields): each flag given over the config file
    over the default (suits as letters: left ``None``, the terminal decides)."""
    from stress_tui.core.settings import Settings

    ascii_ = getattr(args, "ascii", None)
    return {
        "ascii": config.ascii if ascii_ is None else ascii_,
        "four_colour": _first(getattr(args, "four_colour", None), config.four_colour, False),
        "theme": getattr(args, "theme", None) or config.theme or Settings().theme,
    }


def _first(*values: bool | None) -> bool:
    return next(value for value in values if value is not None)


def _rules_error(error: RulesError, where: dict[str, tuple[str, str]]) -> Exception:
    """A ``RulesError`` said with the flag or config entry that set the rule it is about
    (its ``field``); a rule left at the deck's default is named by its flag."""
    from stress_tui.cli.config import ConfigError

    place, said = where.get(error.field, (f"--{error.field}",) * 2)
    text = f"{place}: {error.said_as(said, _)}"
    if place.startswith("--"):
        return UsageError(text)
    return ConfigError(text)


def keymap_from(
    keys: str | None, config: Config
) -> tuple[dict[str, dict[str, str]] | None, dict[str, Config]]:
    """The key overrides: the config file's, with each player's table in ``--keys FILE``
    replacing the config's for that player; and the file each player's table came from."""
    from pathlib import Path

    from stress_tui.cli.config import load_keys

    keymap = {side: dict(table) for side, table in (config.keymap or {}).items()}
    sources = dict.fromkeys(keymap, config)
    if keys is not None:
        if not keys:
            raise UsageError(_("--keys: needs a file name, not an empty one"))
        from_file = load_keys(Path(keys), flag="--keys")
        for side, table in (from_file.keymap or {}).items():
            keymap[side] = dict(table)
            sources[side] = from_file
        sources[""] = from_file
    return (keymap or None), sources


def check_keymap(settings: Settings, sources: dict[str, Config]) -> None:
    """Have the key module check the key map the game will use; its complaint becomes
    ``FILE:LINE: keys: ...``, blaming the file the player's table it names came from."""
    from stress_tui.cli.config import ConfigError
    from stress_tui.terminal.keynames import KeyMapError
    from stress_tui.terminal.keys import settings_keymap

    try:
        settings_keymap(settings)
    except KeyMapError as error:
        message = error.said(_)
        side = error.side  # empty where two players' keys clash
        source = sources.get(side) or sources.get("") or next(iter(sources.values()))
        line = source.lines.get(f"keys.{side}")
        place = f"{source.path}:{line}" if line is not None else f"{source.path}"
        raise ConfigError(f"{place}: keys: {message}") from None


def check_row_playable(settings: Settings, args: argparse.Namespace, config: Config) -> None:
    """Refuse a row that a person at the table has no keys for (``--row 6`` with five
    piles' keys), naming where the row was set: the flag, or the config file's place."""
    from stress_tui.cli.config import ConfigError
    from stress_tui.core.houserules import BY_FIELD
    from stress_tui.terminal.keynotes import ROW_FIELD, unplayable_row

    text = unplayable_row(settings)
    if text is None:
        return
    rule = BY_FIELD[ROW_FIELD]
    if getattr(args, dest(rule.name), None) is None and ROW_FIELD in config.rules:
        raise ConfigError(f"{config.where(f'rules.{rule.name}')}: {text}")
    raise UsageError(f"{rule.flag}: {text}")
