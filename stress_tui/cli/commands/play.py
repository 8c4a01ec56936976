"""``stress-tui [flags]``: the game, at one keyboard or against the computer; or, with
``--rules`` or ``--print-config``, the rules or the settings it would be played by."""

from __future__ import annotations

import argparse
import os
import sys

from stress_tui.cli.errors import EXIT_USAGE, UsageError, _, said
from stress_tui.cli.flags import add_display_flags, add_lang_flag, add_player_flags, add_rule_flags

SCREEN = True

POSITION_ENV = "STRESS_TUI_POSITION"
"""The test hook that starts a game at a position in notation (``terminal.app``)."""


def declare(parser: argparse.ArgumentParser) -> None:
    """The game's flags, on the program's own parser."""
    from stress_tui.cli.parser import add_information_flags

    add_rule_flags(parser)
    add_player_flags(parser, keys=True)
    display = parser.add_argument_group(_("display"))
    add_display_flags(display)
    add_lang_flag(display, top=True)
    info = parser.add_argument_group(_("information"))
    add_information_flags(info)
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


def run(args: argparse.Namespace, flagged: bool) -> int:
    from stress_tui.cli import tty
    from stress_tui.cli.main import terminal_output
    from stress_tui.cli.settings import check_row_playable, load_config, settings_from_args

    config = load_config(flagged)
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
    if tty.no_terminal():
        return EXIT_USAGE
    from stress_tui.storage.offers import offer_practice
    from stress_tui.terminal.app import run as play

    offer = "human" in settings.players and offer_practice()
    with terminal_output():
        return play(settings, offer=offer)


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
                variable=POSITION_ENV, why=harmless(said(error), 200)
            )
        ) from None
