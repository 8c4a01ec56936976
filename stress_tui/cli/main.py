"""The command line: flags and config file become ``Settings``; errors become one line.

``stress-tui [flags]`` plays; ``stress-tui sim [flags]`` runs the headless simulator;
``stress-tui replay`` watches, checks and lists recorded rounds; ``stress-tui stats``
prints the record across matches.
Every setting comes from a flag if one is given, else from the config file, else from
the deck's defaults. Anything wrong (a flag, a combination, a config entry) is reported as
one line, ``stress-tui: WHERE: problem``, with exit status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import re
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from stress_tui import __version__
from stress_tui.cli.config import (
    ENV_VAR,
    RULE_FIELDS,
    RULE_KEYS,
    BadValue,
    Config,
    ConfigError,
    choose,
    default_path,
    load_config,
    load_keys,
    player_kind,
    player_names,
    show,
    split_rules_error,
    to_toml,
)
from stress_tui.core.cards import DECKS
from stress_tui.core.rules import Deal, FalseStress, Rules, RulesError, StressPenalty
from stress_tui.core.rulestext import plain_words
from stress_tui.core.settings import PLAYER_KINDS, Settings

PROG = "stress-tui"
"""The program's name, at the start of every error line."""

EXIT_USAGE = 2
"""The exit status for any bad flag, combination or config entry (and no terminal)."""

NOT_A_TERMINAL = "not a terminal (stdin and stdout must be a terminal to play; try --help)"
"""Why the game will not start with its input or output redirected."""

SIM_DEFAULT_PLAYER = "bot:normal"
"""Who plays a side in ``sim`` when ``--p1``/``--p2`` is not given."""

COMMANDS = ("sim", "replay", "stats")
"""The commands, after the flags of the game."""

EXIT_DIFFERS = 1
"""``replay --verify``: the replay does not re-simulate to its recorded end."""

MAX_SPEED = 100.0
"""The fastest a replay can be watched (``--speed``)."""


class UsageError(ValueError):
    """A bad flag or combination; the text is the whole complaint (``--row: ...``)."""


class _Exit(Exception):
    """``--help`` or ``--version`` has been answered: leave with this status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Parser(argparse.ArgumentParser):
    """An argument parser that reports a bad command line as one ``UsageError`` line and
    never exits the process itself."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(_one_line(self, message))

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise _Exit(status)


def _one_line(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's complaint, said as ``--flag: problem``."""
    message = " ".join(message.split())
    found = re.match(r"argument (\S+?): (.*)", message)
    if found:
        name, problem = found.group(1).split("/")[0], found.group(2)
        if name == "COMMAND":
            bad = re.search(r"invalid choice: '?([^' ]*)'?", problem)
            what = bad.group(1) if bad else "that"
            return f"{what}: no such command (the commands are {_and(COMMANDS)}; try --help)"
        if problem == "expected one argument":
            problem = "needs a value"
        return f"{name}: {problem.replace('argument ', '')}"
    found = re.match(r"unrecognized arguments: (\S+)", message)
    if found:
        word = found.group(1)
        if word.startswith("-"):
            flag = word.split("=")[0]
            options = [s for a in parser._actions for s in a.option_strings]
            close = difflib.get_close_matches(flag, options, n=1)
            hint = f"did you mean {close[0]}?" if close else "try --help"
            return f"{flag}: no such option ({hint})"
        return f"{word}: unexpected argument (try --help)"
    return message


# --------------------------------------------------------------------------- value types


def _type(check: Callable[[str], Any], name: str) -> Callable[[str], Any]:
    """An argparse ``type`` whose complaint (a ``BadValue``) becomes the flag's message."""

    def convert(text: str) -> Any:
        try:
            return check(text)
        except BadValue as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    convert.__name__ = name
    return convert


def _whole(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise BadValue(f"{show(text)} is not a whole number") from None


def _seed(text: str) -> int:
    seed = _whole(text)
    if not 0 <= seed < 2**64:
        raise BadValue(f"must be a whole number from 0 to {2**64 - 1}, not {seed}")
    return seed


def _seconds(text: str) -> float:
    try:
        seconds = float(text.strip())
    except ValueError:
        raise BadValue(f"{show(text)} is not a number of seconds") from None
    if seconds != seconds or seconds in (float("inf"), float("-inf")):
        raise BadValue(f"{show(text)} is not a number of seconds")
    return seconds


def _speed(text: str) -> float:
    try:
        speed = float(text.strip())
    except ValueError:
        raise BadValue(f"{show(text)} is not a number") from None
    if not 0 < speed <= MAX_SPEED:  # also refuses nan
        raise BadValue(f"must be more than 0 and at most {MAX_SPEED:g}, not {show(text)}")
    return speed


def _positive(text: str) -> int:
    count = _whole(text)
    if count < 1:
        raise BadValue(f"must be at least 1, not {count}")
    return count


def _choice(choices: Iterable[str], what: str) -> Callable[[str], str]:
    options = list(choices)

    def check(text: str) -> str:
        return choose(text, options, what)

    return check


def _names(text: str) -> tuple[str, str]:
    return player_names(text.split(","))


# --------------------------------------------------------------------------- help texts


def _deck_default(attribute: str, say: Callable[[Any], str] = str) -> str:
    """``the deck's: 3 for skat, 4 for the others``: a default that depends on the deck."""
    by_value: dict[str, list[str]] = {}
    for deck in DECKS.values():
        by_value.setdefault(say(getattr(deck, attribute)), []).append(deck.name)
    if len(by_value) == 1:
        return f"the deck's ({next(iter(by_value))} for every deck)"
    common = max(by_value, key=lambda value: len(by_value[value]))
    parts = [f"{value} for {_and(decks)}" for value, decks in by_value.items() if value != common]
    return f"the deck's: {', '.join(parts)}, {common} for the others"


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _on_off(value: bool) -> str:
    return "on" if value else "off"


def _deck_summary() -> str:
    parts = []
    for deck in DECKS.values():
        low, high = deck.ranks[0], deck.ranks[-1]
        twice = " twice" if deck.copies == 2 else ""
        parts.append(f"{deck.name} {len(deck)} ({low}..{'A' if high == 14 else high}{twice})")
    return ", ".join(parts)


def _metavar(choices: Iterable[str]) -> str:
    return "{" + ",".join(choices) + "}"


_DEFAULTS = Rules.for_deck("standard")


# --------------------------------------------------------------------------- flags


def add_rule_flags(parser: argparse.ArgumentParser) -> None:
    """Add the deck and house-rule flags (and ``--seed``), in two help groups.

    Every flag is left unset (``None``) when not given, so that the config file and the
    deck's defaults can fill in; ``settings_from_args`` does that.
    """
    deck = parser.add_argument_group("deck")
    deck.add_argument(
        "--deck",
        type=_type(_choice(DECKS, "a deck"), "deck"),
        metavar=_metavar(DECKS),
        help=f"the cards: {_deck_summary()}; default: standard",
    )
    deck.add_argument(
        "--jokers",
        type=_type(_whole, "jokers"),
        metavar="N",
        help=f"wild jokers added to each deck, 0 to 16; default: {_DEFAULTS.jokers}",
    )
    deals = [m.value for m in Deal]
    deck.add_argument(
        "--deal",
        type=_type(_choice(deals, "a deal"), "deal"),
        metavar=_metavar(deals),
        help="split: one deck is shuffled and halved; each: every player has a deck of "
        f"their own; default: {_deck_default('deal')}",
    )
    deck.add_argument(
        "--seed",
        type=_type(_seed, "seed"),
        metavar="N",
        help="deal the same cards every time; default: a new deal every time",
    )
    rules = parser.add_argument_group("house rules")
    rules.add_argument(
        "--row",
        type=_type(_whole, "row"),
        metavar="N",
        help="piles in each player's row (at most a player's cards less one); "
        f"default: {_deck_default('row_size')}",
    )
    rules.add_argument(
        "--stacking",
        action=argparse.BooleanOptionalAction,
        help="a card of a rank already in the row is stacked on it and the pile is played "
        "whole; --no-stacking gives every card its own place; default: on",
    )
    rules.add_argument(
        "--wrap",
        action=argparse.BooleanOptionalAction,
        help="the ranks go round, so the ace and the lowest card are neighbours; "
        "--no-wrap ends the ranks at both ends; default: on",
    )
    penalties = [m.value for m in StressPenalty]
    rules.add_argument(
        "--stress-penalty",
        type=_type(_choice(penalties, "a stress penalty"), "penalty"),
        metavar=_metavar(penalties),
        help="when stress is won: the slower player takes both play piles, or only the "
        "smaller one, or the faster gives the slower the larger one; "
        f"default: {_DEFAULTS.stress_penalty.value}",
    )
    falses = [m.value for m in FalseStress]
    rules.add_argument(
        "--false-stress",
        type=_type(_choice(falses, "a false-stress penalty"), "false_stress"),
        metavar=_metavar(falses),
        help="calling stress when there is none: the caller takes both play piles, or "
        "nothing happens, or the caller is locked out for --lockout seconds; "
        f"default: {_deck_default('false_stress')}",
    )
    rules.add_argument(
        "--stress-stop",
        action=argparse.BooleanOptionalAction,
        help="the Swiss stress stop: a player who sees the opponent about to make stress may "
        "call stop, and that play makes no stress; "
        f"default: {_deck_default('stress_stop', _on_off)}",
    )
    rules.add_argument(
        "--lockout",
        type=_type(_seconds, "lockout"),
        metavar="SECONDS",
        help="how long a player may not play after playing a card that does not fit, "
        f"0 to 60; default: {_DEFAULTS.lockout}",
    )
    rules.add_argument(
        "--wins",
        type=_type(_whole, "wins"),
        metavar="N",
        help=f"round wins that take the match, 1 to 99; default: {_deck_default('wins')}",
    )


def add_player_flags(
    parser: argparse.ArgumentParser, default_kind: str = "human", *, keys: bool = False
) -> None:
    """Add ``--p1``, ``--p2`` and ``--names`` (and ``--keys`` if asked) in a ``players``
    help group; ``default_kind`` is who plays a side not given, for the help text."""
    players = parser.add_argument_group("players")
    kinds = ", ".join(PLAYER_KINDS)
    for side, where in (("p1", "at the top"), ("p2", "at the bottom")):
        players.add_argument(
            f"--{side}",
            type=_type(player_kind, "player"),
            metavar="KIND",
            help=f"who plays {where}: {kinds} (bot alone is bot:normal); default: {default_kind}",
        )
    players.add_argument(
        "--names",
        type=_type(_names, "names"),
        metavar="NAME,NAME",
        help="the players' names, top player first, each 1 to 16 characters; "
        f"default: {', '.join(Settings().names)}",
    )
    if keys:
        players.add_argument(
            "--keys",
            metavar="FILE",
            help="a TOML file with [keys.p1] and/or [keys.p2] tables mapping actions to "
            "keys (see docs/keys.md); default: the config file's, else the default layout",
        )


def _epilog() -> str:
    text = (
        "Settings not given as flags come from the config file, then from the deck's "
        f"defaults. The config file is {default_path()} (the environment variable "
        f"{ENV_VAR} names another); --print-config prints one. 'stress-tui sim' plays "
        "bots against each other without a screen: see 'stress-tui sim --help'. Every "
        "round is recorded: 'stress-tui replay --list' lists them, 'stress-tui replay "
        "FILE' shows one again, 'stress-tui stats' prints the record of wins and best "
        "times."
    )
    return textwrap.fill(text, width=78, break_on_hyphens=False, break_long_words=False)


def build_parser() -> argparse.ArgumentParser:
    """The ``stress-tui`` argument parser (with its commands)."""
    return _build()[0]


def _build() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The main parser and its commands' parsers, by name."""
    parser = _Parser(
        prog=PROG,
        usage=(
            f"{PROG} [OPTION...]\n       {PROG} sim [OPTION...]\n"
            f"       {PROG} replay FILE [--speed X] | --verify FILE | --list\n"
            f"       {PROG} stats [--json]"
        ),
        description="The card game Stress, in real time, in the terminal.",
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
        add_help=False,
    )
    add_rule_flags(parser)
    add_player_flags(parser, keys=True)
    display = parser.add_argument_group("display")
    display.add_argument(
        "--ascii",
        action=argparse.BooleanOptionalAction,
        help="draw suits as letters (C D H S), for terminals without the symbols; default: off",
    )
    display.add_argument(
        "--four-colour",
        action=argparse.BooleanOptionalAction,
        help="a four-colour deck: clubs green and diamonds blue; default: off",
    )
    info = parser.add_argument_group("information")
    info.add_argument("-h", "--help", action="help", help="show this help and exit")
    info.add_argument(
        "--version",
        action="version",
        version=f"{PROG} {__version__}",
        help="show the version and exit",
    )
    shown = info.add_mutually_exclusive_group()
    shown.add_argument(
        "--rules",
        action="store_true",
        help="print the rules in effect in plain words and exit",
    )
    shown.add_argument(
        "--print-config",
        action="store_true",
        help="print the settings in effect as a config file and exit",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", help=argparse.SUPPRESS)
    sim = commands.add_parser(
        "sim",
        help="play bots against each other without a screen and print statistics",
        usage=f"{PROG} sim [OPTION...]",
        description="Play whole rounds between bots on a virtual clock, as fast as the "
        "machine allows, and print statistics. House rules come from the flags and the "
        "config file as for a game.",
        argument_default=argparse.SUPPRESS,
        allow_abbrev=False,
    )
    add_rule_flags(sim)
    add_player_flags(sim, default_kind=SIM_DEFAULT_PLAYER)
    run = sim.add_argument_group("simulation")
    run.add_argument(
        "--games",
        type=_type(_positive, "games"),
        metavar="N",
        default=100,
        help="rounds to play; default: 100",
    )
    run.add_argument(
        "--json",
        action="store_true",
        default=False,
        help="print one JSON object instead of a table",
    )
    replay = commands.add_parser(
        "replay",
        help="watch, check or list recorded rounds",
        usage=f"{PROG} replay FILE [--speed X] [--ascii] [--four-colour]\n"
        f"       {PROG} replay --verify FILE\n       {PROG} replay --list",
        description="Every round is recorded in the data directory "
        f"({_replay_dir()}). 'replay FILE' shows one on the table at its own pace "
        "(Space pauses and goes on, Right or . steps one action, q or Esc leaves); FILE "
        "is a path or a name from --list.",
        argument_default=argparse.SUPPRESS,
        allow_abbrev=False,
    )
    replay.add_argument("file", nargs="?", metavar="FILE", help="the replay to show or check")
    mode = replay.add_mutually_exclusive_group()
    mode.add_argument(
        "--verify",
        action="store_true",
        help="re-simulate FILE without a screen and say whether it ends exactly as "
        "recorded: exit 0 if so, 1 if not, 2 if the file cannot be read",
    )
    mode.add_argument(
        "--list",
        action="store_true",
        help="list the recent rounds, newest first: date, players, rules, winner, length "
        "and file name, one a line (files that cannot be read: one line each on stderr)",
    )
    replay.add_argument(
        "--speed",
        type=_type(_speed, "speed"),
        metavar="X",
        help=f"play back X times as fast (0.5: half as fast), up to {MAX_SPEED:g}; default: 1",
    )
    replay.add_argument(
        "--ascii",
        action=argparse.BooleanOptionalAction,
        help="draw suits as letters; default: the config file's, else off",
    )
    replay.add_argument(
        "--four-colour",
        action=argparse.BooleanOptionalAction,
        help="a four-colour deck; default: the config file's, else off",
    )
    stats = commands.add_parser(
        "stats",
        help="print the record across matches",
        usage=f"{PROG} stats [--json]",
        description="Print the record kept across matches, per player name and rule set: "
        "matches and rounds won and lost, the best reaction time and the shortest round "
        f"won ({_record_path()}).",
        argument_default=argparse.SUPPRESS,
        allow_abbrev=False,
    )
    stats.add_argument(
        "--json",
        action="store_true",
        help="print it as JSON, for scripts",
    )
    return parser, {"sim": sim, "replay": replay, "stats": stats}


def _replay_dir() -> Path:
    from stress_tui.storage.replay import replay_dir

    return replay_dir()


def _record_path() -> Path:
    from stress_tui.storage.record import record_path

    return record_path()


# --------------------------------------------------------------------------- settings


def settings_from_args(args: argparse.Namespace, config: Config) -> Settings:
    """The settings a parsed command line and a config file decide: each flag given
    overrides the config file, which overrides the deck's defaults. Raises
    ``UsageError`` or ``ConfigError`` (one line naming the flag or the file and key)."""
    settings_rules: dict[str, Any] = {}
    where: dict[str, tuple[str, str]] = {}
    for name, value in config.rules.items():
        settings_rules[name] = value
        key = RULE_FIELDS[name]
        where[name] = (config.where(f"rules.{key}"), key)
    for key, name in RULE_KEYS.items():
        value = getattr(args, key.replace("-", "_"), None)
        if value is not None:
            settings_rules[name] = value
            where[name] = (f"--{key}", f"--{key}")
    deck = settings_rules.pop("deck", "standard")
    try:
        rules = Rules.for_deck(deck, **settings_rules)
    except RulesError as error:
        raise _rules_error(error, where) from None

    names = getattr(args, "names", None) or config.names or Settings().names
    players = tuple(
        getattr(args, side, None) or config.players.get(side) or "human" for side in ("p1", "p2")
    )
    ascii_ = _first(getattr(args, "ascii", None), config.ascii, False)
    four_colour = _first(getattr(args, "four_colour", None), config.four_colour, False)
    keymap, key_files = _keymap(getattr(args, "keys", None), config)
    settings = Settings(
        rules=rules,
        seed=getattr(args, "seed", None),
        names=names,
        players=(players[0], players[1]),
        ascii=ascii_,
        four_colour=four_colour,
        keymap=keymap,
    )
    if keymap is not None:
        _check_keymap(settings, key_files)
    return settings


def _first(*values: bool | None) -> bool:
    return next(value for value in values if value is not None)


def _rules_error(error: RulesError, where: dict[str, tuple[str, str]]) -> Exception:
    """A ``RulesError`` (which names a ``Rules`` field) said with the flag or config entry
    that set that field."""
    name, message = split_rules_error(error)
    place, said = where.get(name, (f"--{RULE_FIELDS.get(name, 'deck')}",) * 2)
    message = re.sub(rf"\b{name}\b", said, message)
    text = f"{place}: {message}"
    if place.startswith("--"):
        return UsageError(text)
    return ConfigError(text)


def _keymap(
    keys: str | None, config: Config
) -> tuple[dict[str, dict[str, str]] | None, dict[str, Config]]:
    """The key overrides: the config file's, with each player's table in ``--keys FILE``
    replacing the config's for that player; and the file each player's table came from."""
    keymap = {side: dict(table) for side, table in (config.keymap or {}).items()}
    sources = dict.fromkeys(keymap, config)
    if keys is not None:
        if not Path(keys).exists():
            raise UsageError(f"--keys: no such file: {keys}")
        from_file = load_keys(Path(keys))
        for side, table in (from_file.keymap or {}).items():
            keymap[side] = dict(table)
            sources[side] = from_file
        sources[""] = from_file
    return (keymap or None), sources


def _check_keymap(settings: Settings, sources: dict[str, Config]) -> None:
    """Have the key module check the key map the game will use; its complaint becomes
    ``FILE:LINE: keys: ...``, blaming the file the player's table it names came from."""
    from stress_tui.terminal.keys import KeyMapError, keymap_for

    try:
        keymap_for(settings.players, settings.keymap)
    except KeyMapError as error:
        message = str(error)
        named = set(re.findall(r"\b(p[12])(?:\]|'s\b)", message))
        side = named.pop() if len(named) == 1 else ""  # else two players' keys clash
        source = sources.get(side) or sources.get("") or next(iter(sources.values()))
        line = source.lines.get(f"keys.{side}")
        place = f"{source.path}:{line}" if line is not None else f"{source.path}"
        raise ConfigError(f"{place}: keys: {message}") from None


# --------------------------------------------------------------------------- main


def _is_terminal() -> bool:
    try:
        return all(stream is not None and stream.isatty() for stream in (sys.stdin, sys.stdout))
    except ValueError:  # a closed stream
        return False


def _check_options(
    parser: argparse.ArgumentParser,
    commands: dict[str, argparse.ArgumentParser],
    argv: Sequence[str],
) -> None:
    """Refuse an unknown option before argparse takes its value for a command name."""
    current = parser
    skip = False
    for word in argv:
        if skip:
            skip = False
            continue
        if word == "--":
            return
        if word.startswith("-") and not re.fullmatch(r"-\d+(\.\d*)?|-\.\d+", word):
            flag = word.split("=", 1)[0]
            action = current._option_string_actions.get(flag)
            if action is None:
                current.error(f"unrecognized arguments: {flag}")
            if action.nargs == 0 and "=" in word:
                raise UsageError(f"{flag}: takes no value")
            skip = action.nargs is None and "=" not in word
        elif current is parser and word in commands:
            current = commands[word]


def _run(argv: list[str] | None) -> int:
    parser, commands = _build()
    argv = sys.argv[1:] if argv is None else argv
    _check_options(parser, commands, argv)
    args = parser.parse_args(argv)
    if args.command == "stats":
        _only_display_flags(args, "stats")
        return _stats(args)
    config = load_config()
    if args.command == "sim":
        return _sim(args, config)
    if args.command == "replay":
        _only_display_flags(args, "replay")
        return _replay(args, config)
    settings = settings_from_args(args, config)
    if args.print_config:
        sys.stdout.write(to_toml(settings))
        return 0
    if args.rules:
        sys.stdout.write("".join(line + "\n" for line in plain_words(settings.rules)))
        return 0
    if not _is_terminal():
        print(f"{PROG}: {NOT_A_TERMINAL}", file=sys.stderr)
        return EXIT_USAGE
    from stress_tui.terminal.app import run

    return run(settings)


def _sim(args: argparse.Namespace, config: Config) -> int:
    if args.rules or args.print_config:
        flag = "--rules" if args.rules else "--print-config"
        raise UsageError(f"{flag}: not with the sim command")
    for side in ("p1", "p2"):
        kind = getattr(args, side, None)
        if kind is None:
            setattr(args, side, SIM_DEFAULT_PLAYER)
        elif not kind.startswith("bot:"):
            bots = ", ".join(k for k in PLAYER_KINDS if k.startswith("bot:"))
            raise UsageError(f"--{side}: the simulator plays bots only (choose from {bots})")
    settings = settings_from_args(args, dataclasses.replace(config, players={}))
    from stress_tui.players.sim import run_cli

    return run_cli(settings, args.games, args.json)


def _only_display_flags(args: argparse.Namespace, command: str) -> None:
    """Refuse the game's flags (rules, players, seed) with a command that does not play:
    a replay has its own, and the record keeps every rule set."""
    if args.rules or args.print_config:
        flag = "--rules" if args.rules else "--print-config"
        raise UsageError(f"{flag}: not with the {command} command")
    for key in ("seed", "p1", "p2", "names", "keys", *RULE_KEYS):
        if getattr(args, key.replace("-", "_"), None) is not None:
            raise UsageError(f"--{key}: not with the {command} command")
    if command == "stats":
        for key in ("ascii", "four-colour"):
            if getattr(args, key.replace("-", "_"), None) is not None:
                raise UsageError(f"--{key}: not with the stats command")


def _replay(args: argparse.Namespace, config: Config) -> int:
    from stress_tui.storage import replay as replays
    from stress_tui.storage.files import StorageError

    given = getattr(args, "file", None)
    if getattr(args, "list", False):
        if given is not None:
            raise UsageError(f"{given}: --list takes no FILE")
        found, problems = replays.summaries()
        for line in replays.list_lines(found):
            print(line)
        for problem in problems:
            print(f"{PROG}: {problem}", file=sys.stderr)
        return 0
    if given is None:
        raise UsageError("replay: give a FILE (or --list; try stress-tui replay --help)")
    path = Path(given)
    if not path.exists() and path.name == given and (replays.replay_dir() / given).exists():
        path = replays.replay_dir() / given  # a name as --list shows it
    try:
        replay = replays.load(path)
    except StorageError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if getattr(args, "verify", False):
        verdict = replays.verify(replay)
        print(verdict.message)
        return 0 if verdict.ok else EXIT_DIFFERS
    if not _is_terminal():
        print(f"{PROG}: {NOT_A_TERMINAL}", file=sys.stderr)
        return EXIT_USAGE
    display = Settings(
        ascii=_first(getattr(args, "ascii", None), config.ascii, False),
        four_colour=_first(getattr(args, "four_colour", None), config.four_colour, False),
    )
    from stress_tui.terminal.playback import run

    return run(replay, getattr(args, "speed", 1.0), display)


def _stats(args: argparse.Namespace) -> int:
    from stress_tui.storage.files import StorageError
    from stress_tui.storage.record import Record, record_json, record_table

    try:
        record = Record.load()
    except StorageError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if getattr(args, "json", False):
        print(json.dumps(record_json(record), indent=2))
    else:
        print(record_table(record))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run ``stress-tui`` with ``argv`` (default: the process's arguments); return the exit
    status. Never raises for bad input: that is one line on stderr and status 2."""
    try:
        return _run(argv)
    except (UsageError, ConfigError) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except _Exit as done:
        return done.status


if __name__ == "__main__":
    sys.exit(main())
