"""``stress-tui learn``: a short practice against a slow computer, a line under the table
saying what to do next."""

from __future__ import annotations

import argparse
from typing import Any

from stress_tui.cli.errors import EXIT_USAGE, PROG, UsageError, _
from stress_tui.cli.flags import add_keyboard_flag, add_screen_flags, dest, not_with

SCREEN = True


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command

    learn = add_command(
        commands,
        "learn",
        usage=f"{PROG} learn [--keyboard NAME] [--keys FILE] [OPTION...]",
        description=_(
            "A first game: one round against a slow computer, dealt so that every lesson "
            "happens, with a line under the table saying what to do next with your keys: "
            "a card one rank up, one down, an ace on a king or a two, making stress and "
            "calling it, your ready key when no card fits; then the round played out. The "
            "computer waits while you learn. A practice is not recorded and not counted "
            "in the statistics or the ratings. Plain stress-tui offers it once, at the "
            "first game of someone with no record."
        ),
    )
    add_keyboard_flag(learn)
    learn.add_argument("--keys", metavar="FILE", help=_("a TOML file of keys ([keys.p1])"))
    add_screen_flags(learn)
    return learn


def run(args: argparse.Namespace, flagged: bool) -> int:
    from stress_tui.cli import tty
    from stress_tui.cli.main import terminal_output
    from stress_tui.cli.settings import (
        check_keymap,
        display,
        keyboard_from,
        keymap_from,
        load_config,
    )
    from stress_tui.core.choices import COMPUTER, YOU
    from stress_tui.core.houserules import HOUSE_RULES
    from stress_tui.core.notation import parse_position
    from stress_tui.core.settings import Settings
    from stress_tui.players.learn import DEAL, PLAYERS, SEED

    config = load_config(flagged)
    for key in ("seed", "p1", "p2", "names", *(rule.name for rule in HOUSE_RULES)):
        if getattr(args, dest(key), None) is not None:
            raise UsageError(
                _("--{flag}: not with the learn command (the practice has its own deal)").format(
                    flag=key
                )
            )
    if args.rules or args.print_config:
        raise not_with(args, "learn")
    keymap, key_files = keymap_from(getattr(args, "keys", None), config)
    settings = Settings(
        rules=parse_position(DEAL).rules,
        seed=SEED,
        names=(YOU, COMPUTER),
        players=PLAYERS,
        keyboard=keyboard_from(args, config),
        keymap=keymap,
        **display(args, config),
    )
    if keymap is not None:
        check_keymap(settings, key_files)
    if tty.no_terminal():
        return EXIT_USAGE
    from stress_tui.storage.offers import practised
    from stress_tui.terminal.learn import run_learn

    practised()  # offered no more
    with terminal_output():
        return run_learn(settings)
