"""The command line: flags and config file become ``Settings``; errors become one line.

``stress-tui [flags]`` plays; ``stress-tui sim [flags]`` runs the headless simulator;
``stress-tui replay`` watches, checks and lists recorded rounds; ``stress-tui stats``
prints the record across matches.
Every setting comes from a flag if one is given, else from the config file, else from
the deck's defaults. Anything wrong (a flag, a combination, a config entry) is reported as
one line, ``stress-tui: WHERE: problem``, with exit status 2.

Each command imports what it uses where it uses it, and only its own command's flags are
made: ``--version`` loads nothing but this module and argparse, ``--help`` only what its
text is made from (the house-rule table). ``tests/test_startup.py`` checks what each
loads; ``bench/startup.py`` times them against ``python -c pass``.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import gc
import os
import re
import signal
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from stress_tui import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing only for the annotations: --version and --help load no typing
    from typing import Any, NoReturn, TextIO

    from stress_tui.cli.config import Config
    from stress_tui.core.houserules import HouseRule, RulesError
    from stress_tui.core.settings import Settings

PROG = "stress-tui"
"""The program's name, at the start of every error line."""

EXIT_USAGE = 2
"""The exit status for any bad flag, combination or config entry (and no terminal)."""


def _not_a_terminal() -> str:
    """Why the game will not start here: no Unix terminal on this system (no ``termios``:
    Windows outside WSL), or its input or output redirected."""
    if not _has_termios():
        return _(
            "needs a Unix terminal: Linux, macOS or a BSD (on Windows, WSL works); the "
            "other commands (sim, stats, replay --list and --verify) work here"
        )
    return _("not a terminal (stdin and stdout must be a terminal to play; try --help)")


def _has_termios() -> bool:
    """Whether this system has the terminal control the game drives the screen with."""
    try:
        import termios  # noqa: F401
    except ImportError:
        return False
    return True


SIM_DEFAULT_PLAYER = "bot:normal"
"""Who plays a side in ``sim`` when ``--p1``/``--p2`` is not given."""

COMMANDS = ("sim", "replay", "stats", "daily", "host", "join", "watch")
"""The commands, after the flags of the game."""

NET_COMMANDS = ("host", "join", "watch")
"""The commands that play across the network (their parsers are made together)."""

EXIT_DIFFERS = 1
"""``replay --verify``: the replay does not re-simulate to its recorded end."""

EXIT_DAILY_TAKEN = 1
"""``daily``: the player has had today's daily deal already."""

MAX_SPEED = 100.0
"""The fastest a replay can be watched (``--speed``)."""

EXIT_SIGINT = 128 + signal.SIGINT
"""A command stopped by Ctrl-C (130, as a shell reports it)."""

EXIT_PIPE = 128 + signal.SIGPIPE
"""Standard output was a pipe closed by its reader (141, what a shell reports for a
program that SIGPIPE ended, as git and the coreutils are): nothing more is said."""

EXIT_OUTPUT = 1
"""Standard output could not be written otherwise (a full disk): one line says why."""

EXIT_HANGUP = 128 + signal.SIGHUP
"""Standard output was a terminal that has gone (129, as a hangup): nobody is left to read
a line, so none is written."""

_GONE = (errno.EIO, errno.ENXIO)
"""What writing to a terminal that has closed fails with."""

POSITION_ENV = "STRESS_TUI_POSITION"
"""The test hook that starts a game at a position in notation (``terminal.app``)."""

MAX_LINE = 1000
"""The longest an error line may be, in characters, whatever it echoes."""

VERSION = f"{PROG} {__version__}"
"""What ``--version`` prints."""

CONFIG_VAR = "STRESS_TUI_CONFIG"
"""The environment variable that names another config file (``config.ENV_VAR``)."""

DATA_VAR = "STRESS_TUI_DATA_DIR"
"""The environment variable that names another data folder (``storage.files``)."""


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

    def format_help(self) -> str:
        # argparse's own words, in the player's language too.
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        return super().format_help().replace("usage: ", _("usage: "), 1)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # As argparse's own, with the width found without shutil (which loads bz2, lzma
        # and more).
        formatter: Callable[..., argparse.HelpFormatter] = self.formatter_class
        return formatter(prog=self.prog, width=_help_width())


def _(text: str) -> str:
    """``text`` in the player's language (``terminal.lang``, loaded when first asked)."""
    from stress_tui.terminal.lang import _ as translated

    return translated(text)


def _said(error: BaseException) -> str:
    """An error's text in the player's language (a ``core.text.Problem`` is said so)."""
    from stress_tui.core.text import said

    return said(error, _)


def _help_width() -> int:
    """The help's width, as argparse finds it: ``$COLUMNS``, else the terminal's, else
    80; less 2."""
    try:
        return int(os.environ["COLUMNS"]) - 2
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns - 2  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80 - 2


def _one_line(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's complaint, said as ``--flag: problem``."""
    message = " ".join(message.split())
    from stress_tui.core.text import harmless
    from stress_tui.core.words import listed

    found = re.match(r"argument (\S+?): (.*)", message)
    if found:
        name, problem = found.group(1).split("/")[0], found.group(2)
        if name == "COMMAND":
            bad = re.search(r"invalid choice: '?([^' ]*)'?", problem)
            what = harmless(bad.group(1)) if bad else _("that")
            return _("{what}: no such command (the commands are {commands}; try --help)").format(
                what=what, commands=listed(COMMANDS, _)
            )
        return f"{name}: {_argparse_problem(problem)}"
    found = re.match(r"the following arguments are required: (.*)", message)
    if found:
        return _("the following arguments are required: {names}").format(
            names=harmless(found.group(1))
        )
    found = re.match(r"unrecognized arguments: (\S+)", message)
    if found:
        word = harmless(found.group(1))
        if word.startswith("-"):
            import difflib

            flag = word.split("=")[0]
            options = [s for a in parser._actions for s in a.option_strings]
            close = difflib.get_close_matches(flag, options, n=1)
            hint = _("did you mean {flag}?").format(flag=close[0]) if close else _("try --help")
            return _("{flag}: no such option ({hint})").format(flag=flag, hint=hint)
        return _("{word}: unexpected argument (try --help)").format(word=word)
    return message


def _argparse_problem(problem: str) -> str:
    """argparse's complaint about one argument (after ``argument --flag:``) in the player's
    language: argparse says it in English (its texts go through gettext's default domain,
    which the game leaves alone), so its few fixed phrases are said again here; the
    program's own complaints (a value's ``BadValue``) come through as they are."""
    from stress_tui.core.text import harmless

    if problem == "expected one argument":
        return _("needs a value")
    if problem == "expected at least one argument":
        return _("needs at least one value")
    found = re.fullmatch(r"not allowed with argument (\S+?)(?:/\S+)?", problem)
    if found:
        return _("not allowed with {flag}").format(flag=found.group(1))
    if re.fullmatch(r"ignored explicit argument .*", problem):
        return _("takes no value")
    found = re.fullmatch(r"invalid choice: '?(.*?)'? \(choose from (.*)\)", problem)
    if found:
        return _("{value} is not one of {choices}").format(
            value=harmless(found.group(1)), choices=found.group(2).replace("'", "")
        )
    return problem


# --------------------------------------------------------------------------- value types


def _type(check: Callable[[str], Any], name: str) -> Callable[[str], Any]:
    """An argparse ``type`` whose complaint (a ``BadValue``, or a ``RulesError`` about the
    flag's rule) becomes the flag's message."""

    def convert(text: str) -> Any:
        from stress_tui.cli.config import BadValue
        from stress_tui.core.houserules import RulesError

        try:
            return check(text)
        except BadValue as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        except RulesError as error:
            raise argparse.ArgumentTypeError(error.said_as(f"--{error.field}", _)) from None

    convert.__name__ = name
    return convert


def _whole(text: str) -> int:
    from stress_tui.cli.config import BadValue
    from stress_tui.core.words import shown

    try:
        return int(text.strip())
    except ValueError:
        raise BadValue(_("{value} is not a whole number").format(value=shown(text))) from None


MAX_ROUND = 10_000
"""The latest round of a match ``--seed SEED/N`` can name."""


def _seed(text: str) -> tuple[int, int]:
    """``SEED`` or ``SEED/N`` (round N of the match dealt from SEED, as the result screen
    says it)."""
    from stress_tui.cli.config import BadValue

    number, slash, round_text = text.strip().partition("/")
    seed = _whole(number)
    if not 0 <= seed < 2**64:
        raise BadValue(
            _("must be a whole number from 0 to {top}, not {value}").format(
                top=2**64 - 1, value=seed
            )
        )
    if not slash:
        return seed, 1
    round_number = _whole(round_text)
    if not 1 <= round_number <= MAX_ROUND:
        raise BadValue(
            _("the round after / must be from 1 to {top}, not {value}").format(
                top=MAX_ROUND, value=round_number
            )
        )
    return seed, round_number


def _speed(text: str) -> float:
    from stress_tui.cli.config import BadValue
    from stress_tui.core.words import shown

    try:
        speed = float(text.strip())
    except ValueError:
        raise BadValue(_("{value} is not a number").format(value=shown(text))) from None
    if not 0 < speed <= MAX_SPEED:  # also refuses nan
        raise BadValue(
            _("must be more than 0 and at most {top}, not {value}").format(
                top=f"{MAX_SPEED:g}", value=shown(text)
            )
        )
    return speed


def _positive(text: str) -> int:
    from stress_tui.cli.config import BadValue

    count = _whole(text)
    if count < 1:
        raise BadValue(_("must be at least 1, not {value}").format(value=count))
    return count


def _names(text: str) -> tuple[str, str]:
    from stress_tui.cli.config import player_names

    return player_names(text.split(","))


def _player(text: str) -> str:
    from stress_tui.cli.config import player_kind

    return player_kind(text)


# --------------------------------------------------------------------------- flags


def add_rule_flags(parser: argparse.ArgumentParser) -> None:
    """Add a flag for every house rule (``HOUSE_RULES``) and ``--seed``, in two help groups.

    Every flag is left unset (``None``) when not given, so that the config file and the
    deck's defaults can fill in; ``settings_from_args`` does that.
    """
    from stress_tui.core.houserules import DECK_RULE, HOUSE_RULES

    groups = {
        name: parser.add_argument_group(_(name))
        for name in dict.fromkeys(rule.group for rule in HOUSE_RULES)
    }
    for rule in HOUSE_RULES:
        _add_rule_flag(groups[rule.group], rule)
    groups[DECK_RULE.group].add_argument(
        "--seed",
        type=_type(_seed, "seed"),
        metavar="N[/R]",
        help=_(
            "deal the same cards every time; N/R starts at round R of that match, as the "
            "result screen says (--seed 12/3); default: a new deal every time"
        ),
    )


def _add_rule_flag(group: argparse._ArgumentGroup, rule: HouseRule) -> None:
    from stress_tui.core.houserules import Switch

    if isinstance(rule.kind, Switch):
        group.add_argument(rule.flag, action=argparse.BooleanOptionalAction, help=_rule_help(rule))
    else:
        group.add_argument(
            rule.flag,
            type=_type(rule.read, rule.name),
            metavar=rule.kind.metavar,
            help=_rule_help(rule),
        )


def _rule_help(rule: HouseRule) -> str:
    """A rule flag's help (``HouseRule.help_text``) in the player's language."""
    return rule.help_text(_)


def add_player_flags(
    parser: argparse.ArgumentParser, default_kind: str = "human", *, keys: bool = False
) -> None:
    """Add ``--p1``, ``--p2`` and ``--names`` (and ``--keys`` if asked) in a ``players``
    help group; ``default_kind`` is who plays a side not given, for the help text."""
    from stress_tui.core.choices import DEFAULT_NAMES, PLAYER_KINDS

    players = parser.add_argument_group(_("players"))
    kinds = ", ".join(PLAYER_KINDS)
    for side, where in (
        ("p1", _("at the top (at the bottom against the computer)")),
        ("p2", _("at the bottom")),
    ):
        players.add_argument(
            f"--{side}",
            type=_type(_player, "player"),
            metavar="KIND",
            help=_(
                "who plays {where}: {kinds} (bot alone is bot:normal); default: {default}"
            ).format(where=where, kinds=kinds, default=default_kind),
        )
    players.add_argument(
        "--names",
        type=_type(_names, "names"),
        metavar="NAME,NAME",
        help=_(
            "the players' names, p1's first, each 1 to 16 characters; default: {names} "
            "(You and Computer against the computer)"
        ).format(names=", ".join(DEFAULT_NAMES)),
    )
    if keys:
        from stress_tui.core.keyboards import DEFAULT_KEYBOARD, KEYBOARDS

        boards = "; ".join(f"{board.name}: {board.title}" for board in KEYBOARDS.values())
        players.add_argument(
            "--keyboard",
            type=_type(lambda text: _choose(text, KEYBOARDS, "keyboard"), "keyboard"),
            metavar="{" + ",".join(KEYBOARDS) + "}",
            help=_(
                "the keyboard the keys are placed for ({keyboards}); default: the config "
                "file's, else {default}"
            ).format(keyboards=boards, default=DEFAULT_KEYBOARD),
        )
        players.add_argument(
            "--keys",
            metavar="FILE",
            help=_(
                "a TOML file with [keys.p1] and/or [keys.p2] tables mapping actions to "
                "keys (see docs/keys.md); default: the config file's, else the default layout"
            ),
        )


def _choose(text: str, choices: Iterable[str], what: str) -> str:
    from stress_tui.cli.config import KEYBOARD_REFUSAL, THEME_REFUSAL, choose

    return choose(text, choices, THEME_REFUSAL if what == "theme" else KEYBOARD_REFUSAL)


def add_display_flags(parser: argparse._ActionsContainer, from_config: bool = False) -> None:
    """Add ``--theme``, ``--ascii`` and ``--four-colour``; ``from_config``: their defaults
    come from the config file first (said so)."""
    from stress_tui.core.choices import DEFAULT_THEME, THEME_NAMES

    config = _("the config file's, else ") if from_config else ""
    parser.add_argument(
        "--theme",
        type=_type(lambda text: _choose(text, THEME_NAMES, "theme"), "theme"),
        metavar="{" + ",".join(THEME_NAMES) + "}",
        help=_(
            "the colours: auto asks the terminal for its background colour; dark: for a "
            "dark background; light: for a light one; high-contrast: the terminal's own "
            "colours, bold and reverse video; default: {default}"
        ).format(default=config + DEFAULT_THEME),
    )
    parser.add_argument(
        "--ascii",
        action=argparse.BooleanOptionalAction,
        help=_(
            "draw suits as letters (C D H S); --no-ascii draws the symbols; default: {default}"
        ).format(default=config + _("letters where the terminal's character set has no suits")),
    )
    parser.add_argument(
        "--four-colour",
        action=argparse.BooleanOptionalAction,
        help=_("a four-colour deck: clubs green and diamonds blue; default: {default}").format(
            default=config + _("off")
        ),
    )


def _epilog() -> str:
    # Where the config file is, said without looking for it (that takes platformdirs,
    # and with it pathlib, tempfile, shutil, bz2, lzma, urllib...): --print-config says.
    text = _(
        "Settings not given as flags come from the config file, then from the deck's "
        "defaults. The config file is config.toml in the folder for stress-tui among your "
        "settings (~/.config/stress-tui on Linux; the environment variable {variable} "
        "names another); --print-config prints one, with where to save it. "
        "'stress-tui sim' plays "
        "bots against each other without a screen: see 'stress-tui sim --help'. Every "
        "round is recorded: 'stress-tui replay --list' lists them, 'stress-tui replay "
        "FILE' shows one again, 'stress-tui stats' prints the record of wins and best "
        "times."
    ).format(variable=CONFIG_VAR)
    return textwrap.fill(text, width=78, break_on_hyphens=False, break_long_words=False)


def build_parser() -> argparse.ArgumentParser:
    """The ``stress-tui`` argument parser (with every command)."""
    return _build()[0]


def _build(
    argv: Sequence[str] | None = None,
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The main parser and its commands' parsers, by name: with ``argv``, only the parser
    of the command it names (if any), since the others' flags would only cost time (and
    the network commands' need the network's protocol)."""
    parser = _Parser(
        prog=PROG,
        usage=(
            f"{PROG} [OPTION...]\n       {PROG} sim [OPTION...]\n"
            f"       {PROG} replay FILE [--speed X] | --verify FILE | --list\n"
            f"       {PROG} stats [--json | --chart [NAME]]\n"
            f"       {PROG} daily [--name NAME]\n"
            f"       {PROG} host [--port N] [--name NAME] [OPTION...]\n"
            f"       {PROG} join HOST[:PORT] CODE [--name NAME]\n"
            f"       {PROG} watch HOST[:PORT] CODE"
        ),
        description=_("The card game Stress, in real time, in the terminal."),
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
        add_help=False,
    )
    add_rule_flags(parser)
    add_player_flags(parser, keys=True)
    display = parser.add_argument_group(_("display"))
    add_display_flags(display)
    _add_lang_flag(display, top=True)
    info = parser.add_argument_group(_("information"))
    _add_help_flag(info)
    info.add_argument(
        "-V",
        "--version",
        action="version",
        version=VERSION,
        help=_("show the version and exit"),
    )
    shown = info.add_mutually_exclusive_group()
    shown.add_argument(
        "--rules",
        action="store_true",
        help=_("print the rules in effect in plain words and exit"),
    )
    shown.add_argument(
        "--print-config",
        action="store_true",
        help=_("print the settings in effect as a config file and exit"),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", help=argparse.SUPPRESS)
    wanted: Iterable[str] = COMMANDS if argv is None else filter(None, [_command(parser, argv)])
    made: dict[str, argparse.ArgumentParser] = {}
    for name in wanted:
        if name not in made:
            made.update(
                _net_parsers(commands) if name in NET_COMMANDS else {name: _MAKERS[name](commands)}
            )
    return parser, made


def _command(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not a flag of ``parser`` or a
    flag's value, if that is a command."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "--":
            return None
        elif word.startswith("-") and not re.fullmatch(r"-\d+(\.\d*)?|-\.\d+", word):
            action = parser._option_string_actions.get(word.split("=", 1)[0])
            skip = action is not None and action.nargs is None and "=" not in word
        else:
            return word if word in COMMANDS else None
    return None


def _add_command(commands: Any, name: str, **texts: str) -> argparse.ArgumentParser:
    """A command's parser (its ``help``, ``usage`` and ``description`` in ``texts``): a flag
    not given leaves nothing in the namespace, so that the config file's value shows
    through, and no flag is taken for an abbreviation of another."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name, argument_default=argparse.SUPPRESS, allow_abbrev=False, add_help=False, **texts
    )
    _add_help_flag(parser)
    return parser


def _add_help_flag(parser: argparse._ActionsContainer) -> None:
    """``-h``/``--help``, said in the player's language (argparse's own says "show this
    help message and exit" in English)."""
    parser.add_argument("-h", "--help", action="help", help=_("show this help and exit"))


def _sim_parser(commands: Any) -> argparse.ArgumentParser:
    sim = _add_command(
        commands,
        "sim",
        help=_("play bots against each other without a screen and print statistics"),
        usage=f"{PROG} sim [OPTION...]",
        description=_(
            "Play whole rounds between bots on a virtual clock, as fast as the "
            "machine allows, and print statistics. House rules come from the flags and the "
            "config file as for a game."
        ),
    )
    add_rule_flags(sim)
    add_player_flags(sim, default_kind=SIM_DEFAULT_PLAYER)
    _add_lang_flag(sim, top=False)
    run = sim.add_argument_group(_("simulation"))
    run.add_argument(
        "--games",
        type=_type(_positive, "games"),
        metavar="N",
        default=100,
        help=_("rounds to play; default: 100"),
    )
    run.add_argument(
        "--json",
        action="store_true",
        default=False,
        help=_("print one JSON object instead of a table"),
    )
    run.add_argument(
        "--jobs",
        type=_type(_positive, "jobs"),
        metavar="N",
        help=_(
            "rounds played at once, each process its own (the results are the same "
            "for any N); default: one per core"
        ),
    )
    run.add_argument(
        "--rate-levels",
        action="store_true",
        default=False,
        help=_(
            "measure the computer levels' ratings instead: --games rounds of every level "
            "against every other, each way round, and the ratings that fit who won "
            "(docs/ratings.md); --p1 and --p2 are not used"
        ),
    )
    return sim


def _replay_parser(commands: Any) -> argparse.ArgumentParser:
    replay = _add_command(
        commands,
        "replay",
        help=_("watch, check or list recorded rounds"),
        usage=f"{PROG} replay FILE [--speed X] [--theme T] [--ascii] [--four-colour]\n"
        f"       {PROG} replay --verify FILE\n       {PROG} replay --list",
        description=_(
            "Every round is recorded in the folder replays in the data folder for "
            "stress-tui (~/.local/share/stress-tui on Linux, or ${variable}). 'replay FILE' "
            "shows one on the table at its own pace "
            "(Space pauses and goes on, Right or . steps one action, q or Esc leaves); FILE "
            "is a path or a name from --list."
        ).format(variable=DATA_VAR),
    )
    replay.add_argument("file", nargs="?", metavar="FILE", help=_("the replay to show or check"))
    mode = replay.add_mutually_exclusive_group()
    mode.add_argument(
        "--verify",
        action="store_true",
        help=_(
            "re-simulate FILE without a screen and say whether it ends exactly as "
            "recorded: exit 0 if so, 1 if not, 2 if the file cannot be read"
        ),
    )
    mode.add_argument(
        "--list",
        action="store_true",
        help=_(
            "list the recent rounds, newest first: date, players, rules, winner, length "
            "and file name, one a line (files that cannot be read: one line each on stderr)"
        ),
    )
    replay.add_argument(
        "--speed",
        type=_type(_speed, "speed"),
        metavar="X",
        help=_("play back X times as fast (0.5: half as fast), up to {top}; default: 1").format(
            top=f"{MAX_SPEED:g}"
        ),
    )
    _display_flags(replay)
    return replay


def _stats_parser(commands: Any) -> argparse.ArgumentParser:
    stats = _add_command(
        commands,
        "stats",
        help=_("print the record across matches"),
        usage=f"{PROG} stats [--json | --chart [NAME]]",
        description=_(
            "Print the record kept across matches, per player name and rule set: "
            "matches and rounds won and lost, the best reaction time and the shortest round "
            "won (record.sqlite in the data folder for stress-tui: ~/.local/share/stress-tui "
            "on Linux, or ${variable}); then every person's rating (Glicko-2: the rating and "
            "its deviation, how much it moved over the last matches, the computer level it "
            "is nearest, the daily streak) and the computer levels' fixed ratings "
            "(docs/ratings.md)."
        ).format(variable=DATA_VAR),
    )
    _add_lang_flag(stats, top=False)
    shown_as = stats.add_mutually_exclusive_group()
    shown_as.add_argument(
        "--json",
        action="store_true",
        help=_("print it as JSON, for scripts"),
    )
    shown_as.add_argument(
        "--chart",
        nargs="?",
        const="",
        metavar="NAME",
        help=_(
            "draw each person's rating and median reaction over their last rounds "
            "(or NAME's alone), in braille dots, or in ASCII where the output cannot show them"
        ),
    )
    return stats


def _daily_parser(commands: Any) -> argparse.ArgumentParser:
    daily = _add_command(
        commands,
        "daily",
        help=_("play the daily deal: the same cards for everyone today"),
        usage=f"{PROG} daily [--name NAME] [--keys FILE] [--ascii] [--four-colour]",
        description=_(
            "Play today's daily deal (the local date): one round dealt from the "
            "date alone, the same cards for everyone on any machine, against the computer at "
            "the normal level, by the standard deck's rules. Once a day per name: the day is "
            "taken when the cards are dealt, and a second daily the same day is refused "
            "(exit 1). The result screen shows the day's result, the daily streak and the "
            "best streak; the replay can be checked by anyone with 'replay --verify' "
            "(docs/ratings.md)."
        ),
    )
    daily.add_argument(
        "--name",
        metavar="NAME",
        help=_(
            "your name (the daily is once a day per name), 1 to 16 characters; default: "
            "the config file's first name, else Player 1"
        ),
    )
    daily.add_argument("--keys", metavar="FILE", help=_("a TOML file of keys ([keys.p1])"))
    _display_flags(daily)
    return daily


_MAKERS: dict[str, Callable[[Any], argparse.ArgumentParser]] = {
    "sim": _sim_parser,
    "replay": _replay_parser,
    "stats": _stats_parser,
    "daily": _daily_parser,
}
"""How each command's parser is made (the network's: ``_net_parsers``)."""


def _display_flags(parser: argparse.ArgumentParser) -> None:
    add_display_flags(parser, from_config=True)
    _add_lang_flag(parser, top=False)


def _net_parsers(commands: Any) -> dict[str, argparse.ArgumentParser]:
    """``host``, ``join`` and ``watch``: a table across two terminals (docs/network.md)."""
    from stress_tui.net import DEFAULT_PORT

    host = _add_command(
        commands,
        "host",
        help=_("open a table on the network for a friend to join"),
        usage=f"{PROG} host [--port N] [--bind ADDRESS] [--name NAME] [rule flags]",
        description=_(
            "Open a table on the network: prints where to connect and a join code "
            "to read to your friend, then waits for them (Esc or q gives up). Your house rules "
            "are the table's. See docs/network.md (no encryption: on an untrusted network, use "
            "an SSH tunnel)."
        ),
    )
    add_rule_flags(host)
    net = host.add_argument_group(_("network"))
    net.add_argument(
        "--port",
        type=_type(_port, "port"),
        metavar="N",
        help=_("the port to listen on; default: {port}").format(port=DEFAULT_PORT),
    )
    net.add_argument(
        "--bind",
        metavar="ADDRESS",
        help=_(
            "the address to listen on (127.0.0.1: this machine only); default: 0.0.0.0, "
            "every address of this machine"
        ),
    )
    net.add_argument("--name", metavar="NAME", help=_("your name at the table; default: Host"))
    net.add_argument("--keys", metavar="FILE", help=_("a TOML file of keys ([keys.p2])"))
    _display_flags(host)
    join = _add_command(
        commands,
        "join",
        help=_("take the other seat at a table on the network"),
        usage=f"{PROG} join HOST[:PORT] CODE [--name NAME]",
        description=_(
            "Join a table someone opened with 'stress-tui host': HOST is their "
            "machine's name or address, CODE the four words they read to you."
        ),
    )
    watch = _add_command(
        commands,
        "watch",
        help=_("watch a match on the network"),
        usage=f"{PROG} watch HOST[:PORT] CODE",
        description=_("Watch a table someone opened with 'stress-tui host' (you only watch)."),
    )
    for command in (join, watch):
        command.add_argument("address", metavar="HOST[:PORT]", help=_("where the table is"))
        command.add_argument(
            "code", metavar="CODE", nargs="+", help=_("the join code (four words)")
        )
        _display_flags(command)
    join.add_argument("--name", metavar="NAME", help=_("your name at the table; default: Guest"))
    join.add_argument("--keys", metavar="FILE", help=_("a TOML file of keys ([keys.p1])"))
    return {"host": host, "join": join, "watch": watch}


def _port(text: str) -> int:
    from stress_tui.cli.config import BadValue

    port = _whole(text)
    if not 0 <= port <= 65535:
        raise BadValue(
            _("must be a port from 1 to 65535 (0: any free one), not {value}").format(value=port)
        )
    return port


# --------------------------------------------------------------------------- settings


def _language_keyboard() -> str:
    """The keyboard assumed when neither ``--keyboard`` nor the config names one: the
    Swedish or German one for a player who speaks the language (issue 18)."""
    from stress_tui.core.keyboards import DEFAULT_KEYBOARD
    from stress_tui.terminal.lang import language

    return {"sv": "se", "de": "de"}.get(language(), DEFAULT_KEYBOARD)


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
        value = getattr(args, _dest(rule.name), None)
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
    keymap, key_files = _keymap(getattr(args, "keys", None), config)
    seed = getattr(args, "seed", None)
    settings = Settings(
        rules=rules,
        seed=None if seed is None else seed[0],
        first_round=1 if seed is None else seed[1],
        names=names,
        players=(players[0], players[1]),
        lang=getattr(args, "lang", None) or config.lang,
        keyboard=getattr(args, "keyboard", None) or config.keyboard or _language_keyboard(),
        keymap=keymap,
        **_display(args, config),
    )
    if keymap is not None:
        _check_keymap(settings, key_files)
    return settings


def _display(args: argparse.Namespace, config: Config) -> dict[str, Any]:
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


def _dest(name: str) -> str:
    """The attribute argparse keeps a flag's value in: ``stress_penalty``."""
    return name.replace("-", "_")


def _rules_error(error: RulesError, where: dict[str, tuple[str, str]]) -> Exception:
    """A ``RulesError`` said with the flag or config entry that set the rule it is about
    (its ``field``); a rule left at the deck's default is named by its flag."""
    from stress_tui.cli.config import ConfigError

    place, said = where.get(error.field, (f"--{error.field}",) * 2)
    text = f"{place}: {error.said_as(said, _)}"
    if place.startswith("--"):
        return UsageError(text)
    return ConfigError(text)


def _keymap(
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


def _check_keymap(settings: Settings, sources: dict[str, Config]) -> None:
    """Have the key module check the key map the game will use; its complaint becomes
    ``FILE:LINE: keys: ...``, blaming the file the player's table it names came from."""
    from stress_tui.cli.config import ConfigError
    from stress_tui.terminal.keys import KeyMapError, settings_keymap

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
    from stress_tui.terminal.keys import ROW_FIELD, unplayable_row

    text = unplayable_row(settings)
    if text is None:
        return
    rule = BY_FIELD[ROW_FIELD]
    if getattr(args, _dest(rule.name), None) is None and ROW_FIELD in config.rules:
        raise ConfigError(f"{config.where(f'rules.{rule.name}')}: {text}")
    raise UsageError(f"{rule.flag}: {text}")


# --------------------------------------------------------------------------- main


def _is_terminal() -> bool:
    """Whether stdin and stdout are a terminal the game can drive (a Unix one)."""
    if not _has_termios():
        return False
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
                raise UsageError(_("{flag}: takes no value").format(flag=flag))
            skip = action.nargs is None and "=" not in word
        elif current is parser and word in commands:
            current = commands[word]


def _lang_flag(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (its last), looked for before the flags are made,
    since their help is written in the language chosen."""
    found = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif word.startswith("--lang="):
            found = word.split("=", 1)[1]
    return found


def _speak(argv: Sequence[str]) -> bool:
    """Speak the language ``--lang`` names (``UsageError`` if the game does not speak
    it); whether it named one."""
    code = _lang_flag(argv)
    if code is None:
        return False
    from stress_tui.terminal.lang import BadLanguage, choose

    try:
        choose(code)
    except BadLanguage as error:
        raise UsageError(f"--lang: {error}") from None
    return True


def _speak_config(config: Config) -> None:
    """Speak the config file's ``lang`` (when no ``--lang`` was given)."""
    if config.lang is not None:
        from stress_tui.terminal.lang import choose

        choose(config.lang)


def _add_lang_flag(parser: argparse.ArgumentParser | argparse._ArgumentGroup, top: bool) -> None:
    parser.add_argument(
        "--lang",
        metavar="LANG",
        default=None if top else argparse.SUPPRESS,
        help=_(
            "the language of the game: en, sv (svenska) or de (Deutsch); default: the "
            "config file's lang, else the environment's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)"
        ),
    )


def _run(argv: list[str]) -> int:
    flagged = _speak(argv)
    parser, commands = _build(argv)
    _check_options(parser, commands, argv)
    args = parser.parse_args(argv)
    if args.command not in (None, "replay", *NET_COMMANDS):
        gc.enable()  # no screen to warm up (see main)
    if args.command == "stats":
        _only_display_flags(args, "stats")
        if not flagged:
            from stress_tui.cli.config import load_config

            _speak_config(load_config())
        return _stats(args)
    from stress_tui.cli.config import load_config

    config = load_config()
    if not flagged:
        _speak_config(config)
    if args.command == "sim":
        return _sim(args, config)
    if args.command == "replay":
        _only_display_flags(args, "replay")
        return _replay(args, config)
    if args.command in ("host", "join", "watch"):
        return _network(args, config)
    if args.command == "daily":
        return _daily(args, config)
    settings = settings_from_args(args, config)
    if args.print_config:
        from stress_tui.cli.config import to_toml

        sys.stdout.write(to_toml(settings))
        return 0
    if args.rules:
        from stress_tui.core.rulestext import plain_words

        sys.stdout.write("".join(line + "\n" for line in plain_words(settings.rules, _)))
        return 0
    _check_position()
    check_row_playable(settings, args, config)
    if not _is_terminal():
        _say(_not_a_terminal())
        return EXIT_USAGE
    from stress_tui.terminal.app import run

    with _terminal_output():
        return run(settings)


def _check_position() -> None:
    """Refuse a ``STRESS_TUI_POSITION`` that is not a position, saying what is wrong with
    it, before the game takes the terminal."""
    position = os.environ.get(POSITION_ENV)
    if not position:
        return
    from stress_tui.core.notation import NotationError, parse_position
    from stress_tui.core.text import harmless

    try:
        parse_position(position)
    except NotationError as error:
        raise UsageError(
            _("{variable}: not a position in notation ({why}); see docs/notation.md").format(
                variable=POSITION_ENV, why=harmless(_said(error), 200)
            )
        ) from None


def _sim(args: argparse.Namespace, config: Config) -> int:
    import dataclasses

    from stress_tui.core.choices import PLAYER_KINDS

    if args.rules or args.print_config:
        raise _not_with(args, "sim")
    if args.rate_levels:
        for side in ("p1", "p2"):
            if getattr(args, side, None) is not None:
                raise UsageError(
                    _("--{side}: not with --rate-levels (it plays every level)").format(side=side)
                )
    for side in ("p1", "p2"):
        kind = getattr(args, side, None)
        if kind is None:
            setattr(args, side, SIM_DEFAULT_PLAYER)
        elif not kind.startswith("bot:"):
            bots = ", ".join(k for k in PLAYER_KINDS if k.startswith("bot:"))
            raise UsageError(
                _("--{side}: the simulator plays bots only (choose from {bots})").format(
                    side=side, bots=bots
                )
            )
    settings = settings_from_args(args, dataclasses.replace(config, players={}))
    if settings.first_round != 1:
        raise UsageError(_("--seed: the simulator takes a seed, not a round (no /R)"))
    if args.rate_levels:
        from stress_tui.players import anchors

        return anchors.run_cli(settings, args.games, args.json, getattr(args, "jobs", None), _)
    from stress_tui.players.sim import run_cli

    return run_cli(settings, args.games, args.json, getattr(args, "jobs", None), _)


def _only_display_flags(args: argparse.Namespace, command: str) -> None:
    """Refuse the game's flags (rules, players, seed) with a command that does not play:
    a replay has its own, and the record keeps every rule set."""
    from stress_tui.core.houserules import HOUSE_RULES

    if args.rules or args.print_config:
        raise _not_with(args, command)
    for key in (
        "seed",
        "p1",
        "p2",
        "names",
        "keys",
        "keyboard",
        *(rule.name for rule in HOUSE_RULES),
    ):
        if getattr(args, _dest(key), None) is not None:
            raise _not_with_command(f"--{key}", command)
    if command == "stats":
        for key in ("ascii", "four-colour", "theme"):
            if getattr(args, _dest(key), None) is not None:
                raise _not_with_command(f"--{key}", command)


def _not_with(args: argparse.Namespace, command: str) -> UsageError:
    """``--rules`` or ``--print-config`` given to ``command``, which has no use for them."""
    return _not_with_command("--rules" if args.rules else "--print-config", command)


def _not_with_command(flag: str, command: str) -> UsageError:
    return UsageError(
        _("{flag}: not with the {command} command").format(flag=flag, command=command)
    )


def _replay(args: argparse.Namespace, config: Config) -> int:
    from pathlib import Path

    from stress_tui.core.settings import Settings
    from stress_tui.core.text import harmless
    from stress_tui.storage import replay as replays
    from stress_tui.storage.files import StorageError

    given = getattr(args, "file", None)
    if getattr(args, "list", False):
        if given is not None:
            raise UsageError(_("{file}: --list takes no FILE").format(file=harmless(given)))
        found, problems = replays.summaries(_=_)
        for line in replays.list_lines(found, _output_width(), display_width(), _):
            print(line)
        for problem in problems:
            _say(problem)
        return 0
    if given is None:
        raise UsageError(_("replay: give a FILE (or --list; try stress-tui replay --help)"))
    if not given:
        raise UsageError(_("replay: FILE is empty (give a replay's path or a name from --list)"))
    path = Path(given)
    if not path.exists() and path.name == given and (replays.replay_dir() / given).exists():
        path = replays.replay_dir() / given  # a name as --list shows it
    try:
        replay = replays.load(path)
    except StorageError as error:
        _say(_said(error))
        return EXIT_USAGE
    if getattr(args, "verify", False):
        verdict = replays.verify(replay)
        if verdict.ok and "daily" in replay.header:
            from stress_tui.core.text import N_, Problem
            from stress_tui.players.daily import computer_problem

            wrong = computer_problem(replay.new_game(), replay.actions, replay.seed)
            if wrong is not None:
                said = Problem(N_("{path}: {why}"), path=replay.path, why=wrong)
                verdict = replays.Verdict(False, said)
        print(harmless(verdict.said.said(_), None))
        return 0 if verdict.ok else EXIT_DIFFERS
    if replay.sealed:  # a network joiner's round whose seed never came: nothing to deal
        try:
            replay.new_game()
        except StorageError as error:
            _say(_said(error))
        return EXIT_USAGE
    if not _is_terminal():
        _say(_not_a_terminal())
        return EXIT_USAGE
    display = Settings(**_display(args, config))
    from stress_tui.terminal.playback import run

    with _terminal_output():
        return run(replay, getattr(args, "speed", 1.0), display)


def _network(args: argparse.Namespace, config: Config) -> int:
    """``host``, ``join`` and ``watch``."""
    import dataclasses

    from stress_tui.core.text import BadName, check_name, harmless
    from stress_tui.net import DEFAULT_PORT
    from stress_tui.net.protocol import (
        ProtocolError,
        clean_name,
        normalize_code,
        parse_address,
    )

    command = args.command
    if getattr(args, "seed", None) is not None:
        raise UsageError(
            _("--seed: not with the host command (every round is dealt from a secret seed)")
        )
    name = getattr(args, "name", None) or ("Host" if command == "host" else "Guest")
    try:
        name = clean_name(check_name(name))
    except (BadName, ProtocolError) as error:
        raise UsageError(f"--name: {_said(error)}") from None
    side = "p2" if command == "host" else "p1"
    players = {side: "human", ("p1" if side == "p2" else "p2"): "bot:normal"}
    settings = settings_from_args(args, dataclasses.replace(config, players=players))
    names = (name, name) if command != "host" else ("Guest", name)
    settings = dataclasses.replace(
        settings, names=names, players=(players["p1"], players["p2"]), seed=None
    )
    address, port, code = "", getattr(args, "port", DEFAULT_PORT), ""
    if command != "host":
        try:
            address, port = parse_address(args.address)
        except ValueError as error:
            raise UsageError(f"{harmless(args.address)}: {_said(error)}") from None
        try:
            code = normalize_code(" ".join(args.code))
        except ValueError as error:
            raise UsageError(f"CODE: {_said(error)}") from None
    if not _is_terminal():
        _say(_not_a_terminal())
        return EXIT_USAGE
    from stress_tui.terminal import netplay

    with _terminal_output():
        if command == "host":
            return netplay.run_host(settings, name, port, getattr(args, "bind", "0.0.0.0"))
        return netplay.run_join(settings, address, port, code, name, watch=command == "watch")


def _daily(args: argparse.Namespace, config: Config) -> int:
    """``daily``: today's deal against the computer, once a day per name."""
    import datetime

    from stress_tui.core.daily import COMPUTER_NAME, PLAYERS, daily_rules, daily_seed
    from stress_tui.core.houserules import HOUSE_RULES
    from stress_tui.core.settings import Settings
    from stress_tui.core.text import BadName, check_name, harmless
    from stress_tui.storage.files import StorageError, reason
    from stress_tui.storage.record import DailyTaken, claim_daily

    for key in ("seed", "p1", "p2", "names", *(rule.name for rule in HOUSE_RULES)):
        if getattr(args, _dest(key), None) is not None:
            raise UsageError(
                _("--{flag}: not with the daily command (the same deal for everyone)").format(
                    flag=key
                )
            )
    if args.rules or args.print_config:
        raise _not_with(args, "daily")
    given = getattr(args, "name", None)
    try:
        name = check_name(given if given is not None else (config.names or Settings().names)[0])
    except BadName as error:
        raise UsageError(f"--name: {_said(error)}") from None
    if name.casefold() == COMPUTER_NAME.casefold():
        raise UsageError(
            _("--name: {name} is the computer's name at the daily").format(name=COMPUTER_NAME)
        )
    day = datetime.date.today().isoformat()
    keymap, key_files = _keymap(getattr(args, "keys", None), config)
    settings = Settings(
        rules=daily_rules(),
        seed=daily_seed(day),
        names=(name, COMPUTER_NAME),
        players=PLAYERS,
        keymap=keymap,
        **_display(args, config),
    )
    if keymap is not None:
        _check_keymap(settings, key_files)
    if not _is_terminal():
        _say(_not_a_terminal())
        return EXIT_USAGE
    try:
        claim_daily(name, day)
    except DailyTaken as taken:
        how = {True: _("won"), False: _("lost"), None: _("left before the end")}[taken.won]
        line = _("daily: {name} has had today's daily deal ({how}); the next is tomorrow's")
        _say(line.format(name=harmless(name), how=how))
        return EXIT_DAILY_TAKEN
    except StorageError as error:
        _say(_("daily: the record keeps each daily once a day: {why}").format(why=_said(error)))
        return EXIT_USAGE
    except OSError as error:
        _say(
            _("daily: the record keeps each daily once a day, and cannot be written: {why}").format(
                why=reason(error)
            )
        )
        return EXIT_USAGE
    from stress_tui.terminal.app import run_daily

    with _terminal_output():
        return run_daily(settings, day)


def _stats(args: argparse.Namespace) -> int:
    import datetime
    import json

    from stress_tui.storage.files import StorageError, reason
    from stress_tui.storage.ratings import ratings_json, ratings_table
    from stress_tui.storage.record import Record, record_json, record_path, record_table
    from stress_tui.terminal.draw.chart import can_encode

    try:
        record = Record.load()
    except StorageError as error:
        _say(_said(error))
        return EXIT_USAGE
    except OSError as error:  # locked by another program past the wait, a read error
        _say(_("{path}: cannot read: {why}").format(path=record_path(), why=reason(error)))
        return EXIT_OUTPUT
    today = datetime.date.today().isoformat()
    encoding = getattr(sys.stdout, "encoding", None)
    chart = getattr(args, "chart", None)
    if chart is not None:
        return _charts(record.ratings, chart, ascii_=not can_encode(encoding))
    if getattr(args, "json", False):
        print(json.dumps({**record_json(record), **ratings_json(record.ratings, today)}, indent=2))
    elif not record.standings:
        print(record_table(record, display_width(), _))
    else:
        plus_minus = "±" if can_encode(encoding, "±") else "+-"
        print(record_table(record, display_width(), _))
        print()
        print(ratings_table(record.ratings, today, display_width(), plus_minus, _))
    return 0


def _charts(ratings: Mapping[str, Any], name: str, ascii_: bool) -> int:
    """``stats --chart [NAME]``: every person's chart (or NAME's), in ASCII if asked."""
    from stress_tui.core.text import harmless
    from stress_tui.core.words import shown_name
    from stress_tui.terminal.ratingchart import rating_chart

    if name and name not in ratings:  # a name nobody gave, as the stats table shows it
        name = next((key for key in ratings if shown_name(key, _) == name), name)
    if name and name not in ratings:
        who = repr(harmless(name, 20))
        raise UsageError(_("--chart: nobody named {name} in the record").format(name=who))
    chosen = [name] if name else sorted(ratings)
    if not chosen:
        print(_("No rounds rated yet."))
        return 0
    width = _output_width() or 80
    measure = display_width()
    charts = [
        "\n".join(rating_chart(who, ratings[who].history, width, ascii=ascii_, measure=measure))
        for who in chosen
    ]
    print("\n\n".join(charts))
    return 0


def _output_width() -> int | None:
    """The columns of the terminal the output goes to (``COLUMNS`` if set); ``None`` when
    it goes to a file or a pipe and nobody said."""
    import shutil

    if os.environ.get("COLUMNS", "").strip().isdigit():
        return max(20, int(os.environ["COLUMNS"]))
    try:
        if sys.stdout is not None and sys.stdout.isatty():
            return shutil.get_terminal_size().columns
    except ValueError:
        pass
    return None


def display_width() -> Callable[[str], int]:
    """How many columns a text takes on a terminal (blessed's ``length``: a CJK character
    two), without asking the terminal anything."""
    import io

    from blessed import Terminal

    return Terminal(kind="dumb", stream=io.StringIO(), force_styling=False).length


# --------------------------------------------------------------------------- output


def _say(message: str) -> None:
    """One error line on stderr: ``stress-tui: MESSAGE``, harmless to the terminal and
    cut to ``MAX_LINE`` characters, whatever it echoes."""
    from stress_tui.core.text import harmless

    with contextlib.suppress(OSError):  # stderr itself gone: nothing left to tell
        print(f"{PROG}: {harmless(message, MAX_LINE)}", file=sys.stderr)


def _escaped(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: the characters an encoding lacks as escapes that TOML and
    JSON read back (``\\u00EB``), so that ``--print-config`` stays a config file."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    from stress_tui.core.text import escape

    return "".join(escape(c) for c in error.object[error.start : error.end]), error.end


codecs.register_error("stress-tui-escape", _escaped)


class _OutputFailed(Exception):
    """Standard output could not be written; ``error`` says why."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


class _Output:
    """Standard output for the commands (not the game, which owns the terminal): a
    character its encoding lacks (an ASCII-only locale) is written as an escape
    (``\\u00EB``) instead of failing, and a write that fails raises ``_OutputFailed``,
    told apart from every other error."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            try:
                return self.stream.write(text)
            except UnicodeEncodeError:
                encoding = getattr(self.stream, "encoding", None) or "ascii"
                safe = text.encode(encoding, "stress-tui-escape").decode(encoding)
                return self.stream.write(safe)
        except OSError as error:
            raise _OutputFailed(error) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as error:
            raise _OutputFailed(error) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


@contextlib.contextmanager
def _terminal_output() -> Iterator[None]:
    """Standard output as it is, for the game and the replay viewer, which own it."""
    guarded = sys.stdout
    if isinstance(guarded, _Output):
        sys.stdout = guarded.stream
    try:
        yield
    finally:
        sys.stdout = guarded


def _output_failed(error: OSError, stream: TextIO) -> int:
    """Say (unless it is a pipe closed by its reader) that standard output could not be
    written; point it at the null device, so that nothing tries again at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    if error.errno == errno.EPIPE:
        return EXIT_PIPE
    if error.errno in _GONE:  # the game's last bytes after its window closed, say
        return EXIT_HANGUP
    words = (error.strerror or str(error)).lower()
    _say(_("cannot write the output: {why}").format(why=words))
    return EXIT_OUTPUT


def main(argv: list[str] | None = None) -> int:
    """Run ``stress-tui`` with ``argv`` (default: the process's arguments); return the exit
    status. Never raises for bad input: that is one line on stderr and status 2. Output
    that cannot be written is one line and status 1 (a closed pipe: no line, 141); Ctrl-C
    is status 130."""
    stream = sys.stdout
    sys.stdout = _Output(stream)
    try:
        status = _answer(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()
        return status
    except _OutputFailed as failed:
        return _output_failed(failed.error, stream)
    except KeyboardInterrupt:
        return EXIT_SIGINT
    finally:
        sys.stdout = stream


def _answer(argv: list[str]) -> int:
    """What ``main`` does, its output aside."""
    if argv in (["--version"], ["-V"]):  # answered without making the flags (the rule table)
        print(VERSION)
        return 0
    # Start-up makes many objects that live as long as the program (modules, classes, the
    # rule table) and frees few: the garbage collector's passes over them meanwhile are
    # wasted (about 6 ms of a game's start here). A screen turns it back on once its first
    # frame is up and all that is frozen (``Screen.warm_up``); other commands at once.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(argv)
    except _Exit as done:
        return done.status
    except (UsageError, _config_error()) as error:  # looked up only when one is raised
        _say(str(error))
        return EXIT_USAGE
    finally:
        if enabled:
            gc.enable()


def _config_error() -> type[Exception]:
    from stress_tui.cli.config import ConfigError

    return ConfigError


if __name__ == "__main__":
    sys.exit(main())
