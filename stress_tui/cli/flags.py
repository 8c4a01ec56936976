"""The flags more than one command takes: the house rules and ``--seed``, the players,
the display and the language, where ``host`` and ``serve`` listen, with the types that
read their values; and the refusal of the game's flags where a command has no use for them.

Each adds its flags to a parser; a flag not given is left unset (``None``), so that the
config file and the deck's defaults can fill in (``cli.settings``); ``--port`` alone has
its command's default.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from stress_tui.cli.errors import UsageError, _, not_with_command

if TYPE_CHECKING:
    from stress_tui.core.houserules import HouseRule

MAX_ROUND = 10_000
"""The latest round of a match ``--seed SEED/N`` can name."""


# --------------------------------------------------------------------------- value types


def typed(check: Callable[[str], Any], name: str) -> Callable[[str], Any]:
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


def whole(text: str) -> int:
    """A whole number."""
    from stress_tui.cli.config import BadValue
    from stress_tui.core.words import shown

    try:
        return int(text.strip())
    except ValueError:
        raise BadValue(_("{value} is not a whole number").format(value=shown(text))) from None


def positive(text: str) -> int:
    """A whole number, at least 1."""
    from stress_tui.cli.config import BadValue

    count = whole(text)
    if count < 1:
        raise BadValue(_("must be at least 1, not {value}").format(value=count))
    return count


def _port(text: str) -> int:
    """A port to listen on (0: any free one)."""
    from stress_tui.cli.config import BadValue

    port = whole(text)
    if not 0 <= port <= 65535:
        raise BadValue(
            _("must be a port from 1 to 65535 (0: any free one), not {value}").format(value=port)
        )
    return port


def _seed(text: str) -> tuple[int, int]:
    """``SEED`` or ``SEED/N`` (round N of the match dealt from SEED, as the result screen
    says it)."""
    from stress_tui.cli.config import BadValue

    number, slash, round_text = text.strip().partition("/")
    seed = whole(number)
    if not 0 <= seed < 2**64:
        raise BadValue(
            _("must be a whole number from 0 to {top}, not {value}").format(
                top=2**64 - 1, value=seed
            )
        )
    if not slash:
        return seed, 1
    round_number = whole(round_text)
    if not 1 <= round_number <= MAX_ROUND:
        raise BadValue(
            _("the round after / must be from 1 to {top}, not {value}").format(
                top=MAX_ROUND, value=round_number
            )
        )
    return seed, round_number


def _names(text: str) -> tuple[str, str]:
    from stress_tui.cli.config import player_names

    return player_names(text.split(","))


def _player(text: str) -> str:
    from stress_tui.cli.config import player_kind

    return player_kind(text)


def _choose(text: str, choices: Iterable[str], what: str) -> str:
    from stress_tui.cli.config import KEYBOARD_REFUSAL, THEME_REFUSAL, choose

    return choose(text, choices, THEME_REFUSAL if what == "theme" else KEYBOARD_REFUSAL)


def dest(name: str) -> str:
    """The attribute argparse keeps a flag's value in: ``stress_penalty``."""
    return name.replace("-", "_")


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
        type=typed(_seed, "seed"),
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
            type=typed(rule.read, rule.name),
            metavar=rule.kind.metavar,
            help=_rule_help(rule),
        )


def _rule_help(rule: HouseRule) -> str:
    """A rule flag's help (``HouseRule.help_text``) in the player's language."""
    return rule.help_text(_)


def add_listening_flags(parser: argparse.ArgumentParser, port: int) -> argparse._ArgumentGroup:
    """The network group of a command that listens, ``host`` or ``serve``: ``--port N``
    (``port`` unless told) and ``--bind ADDRESS`` (every address unless told: read it with
    ``listening``); the group, for the command's other flags."""
    net = parser.add_argument_group(_("network"))
    net.add_argument(
        "--port",
        type=typed(_port, "port"),
        default=port,
        metavar="N",
        help=_("the port to listen on (0: any free one, printed); default: {port}").format(
            port=port
        ),
    )
    net.add_argument(
        "--bind",
        metavar="ADDRESS",
        help=_(
            "the address to listen on (127.0.0.1: this machine only; 0.0.0.0: its IPv4 "
            "addresses only); default: ::, every address of this machine, IPv4 and IPv6"
        ),
    )
    return net


def listening(args: argparse.Namespace) -> tuple[str, int]:
    """Where a command of ``add_listening_flags`` listens: its address and port."""
    from stress_tui.net.addresses import EVERYWHERE

    return getattr(args, "bind", EVERYWHERE), args.port


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
            type=typed(_player, "player"),
            metavar="KIND",
            help=_(
                "who plays {where}: {kinds} (bot alone is bot:normal); default: {default}"
            ).format(where=where, kinds=kinds, default=default_kind),
        )
    players.add_argument(
        "--names",
        type=typed(_names, "names"),
        metavar="NAME,NAME",
        help=_(
            "the players' names, p1's first, each 1 to 16 characters; default: {names} "
            "(You and Computer against the computer)"
        ).format(names=", ".join(DEFAULT_NAMES)),
    )
    if keys:
        add_keyboard_flag(players)
        players.add_argument(
            "--keys",
            metavar="FILE",
            help=_(
                "a TOML file with [keys.p1] and/or [keys.p2] tables mapping actions to "
                "keys (see docs/keys.md); default: the config file's, else the default layout"
            ),
        )


def add_keyboard_flag(parser: argparse._ActionsContainer) -> None:
    """Add ``--keyboard``: the keyboard the default keys are placed for."""
    from stress_tui.core.keyboards import DEFAULT_KEYBOARD, KEYBOARDS

    boards = "; ".join(f"{board.name}: {_(board.title)}" for board in KEYBOARDS.values())
    parser.add_argument(
        "--keyboard",
        type=typed(lambda text: _choose(text, KEYBOARDS, "keyboard"), "keyboard"),
        metavar="{" + ",".join(KEYBOARDS) + "}",
        help=_(
            "the keyboard the keys are placed for ({keyboards}); default: the config "
            "file's, else the language's (de in German, se in Swedish), else {default}"
        ).format(keyboards=boards, default=DEFAULT_KEYBOARD),
    )


def add_display_flags(parser: argparse._ActionsContainer, from_config: bool = False) -> None:
    """Add ``--theme``, ``--ascii`` and ``--four-colour``; ``from_config``: their defaults
    come from the config file first (said so)."""
    from stress_tui.core.choices import DEFAULT_THEME, THEME_NAMES

    config = _("the config file's, else ") if from_config else ""
    parser.add_argument(
        "--theme",
        type=typed(lambda text: _choose(text, THEME_NAMES, "theme"), "theme"),
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


def add_lang_flag(parser: argparse.ArgumentParser | argparse._ArgumentGroup, top: bool) -> None:
    """Add ``--lang`` (``top``: the program's own, left ``None`` when not given)."""
    parser.add_argument(
        "--lang",
        metavar="LANG",
        default=None if top else argparse.SUPPRESS,
        help=_(
            "the language of the game: en, sv (svenska) or de (Deutsch); default: the "
            "config file's lang, else the environment's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)"
        ),
    )


def add_screen_flags(parser: argparse.ArgumentParser) -> None:
    """The display's flags and ``--lang`` of a command that draws a screen (their
    defaults the config file's)."""
    add_display_flags(parser, from_config=True)
    add_lang_flag(parser, top=False)


# --------------------------------------------------------------------------- refusals


def not_with(args: argparse.Namespace, command: str) -> UsageError:
    """``--rules`` or ``--print-config`` given to ``command``, which has no use for them."""
    return not_with_command("--rules" if args.rules else "--print-config", command)


def only_display_flags(args: argparse.Namespace, command: str) -> None:
    """Refuse the game's flags (rules, players, seed) with a command that does not play:
    a replay has its own, and the record keeps every rule set."""
    from stress_tui.core.houserules import HOUSE_RULES

    if args.rules or args.print_config:
        raise not_with(args, command)
    for key in (
        "seed",
        "p1",
        "p2",
        "names",
        "keys",
        "keyboard",
        *(rule.name for rule in HOUSE_RULES),
    ):
        if getattr(args, dest(key), None) is not None:
            raise not_with_command(f"--{key}", command)
    if command == "stats":
        for key in ("ascii", "four-colour", "theme"):
            if getattr(args, dest(key), None) is not None:
                raise not_with_command(f"--{key}", command)
