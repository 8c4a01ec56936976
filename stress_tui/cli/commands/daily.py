"""``stress-tui daily``: today's deal against the computer, once a day per name."""

from __future__ import annotations

import argparse
from typing import Any

from stress_tui.cli.errors import EXIT_USAGE, PROG, UsageError, _, said, say
from stress_tui.cli.flags import add_screen_flags, dest, not_with

SCREEN = True

EXIT_TAKEN = 1
"""The player has had today's daily deal already."""


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command

    daily = add_command(
        commands,
        "daily",
        usage=f"{PROG} daily [--name NAME] [--keys FILE] [OPTION...]",
        description=_(
            "Play today's daily deal (the local date): one round dealt from the "
            "date alone, the same cards for everyone on any machine, against the computer at "
            "the normal level, by the standard deck's rules. Once a day per name: the day is "
            "taken when its first card is played, and a second daily the same day is refused "
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
            "the config file's first name, else You, as in a game against the computer"
        ),
    )
    daily.add_argument("--keys", metavar="FILE", help=_("a TOML file of keys ([keys.p1])"))
    add_screen_flags(daily)
    return daily


def run(args: argparse.Namespace, flagged: bool) -> int:
    import datetime

    from stress_tui.cli import tty
    from stress_tui.cli.main import terminal_output
    from stress_tui.cli.settings import check_keymap, display, keymap_from, load_config
    from stress_tui.core.choices import YOU
    from stress_tui.core.daily import BOT_SIDE, COMPUTER_NAME, PLAYERS, daily_rules, daily_seed
    from stress_tui.core.houserules import HOUSE_RULES
    from stress_tui.core.settings import Settings, default_names
    from stress_tui.core.text import BadName, check_name, harmless
    from stress_tui.storage.files import StorageError, reason
    from stress_tui.storage.pending import catch_up
    from stress_tui.storage.record import DailyTaken, check_daily

    config = load_config(flagged)
    for key in ("seed", "p1", "p2", "names", *(rule.name for rule in HOUSE_RULES)):
        if getattr(args, dest(key), None) is not None:
            raise UsageError(
                _("--{flag}: not with the daily command (the same deal for everyone)").format(
                    flag=key
                )
            )
    if args.rules or args.print_config:
        raise not_with(args, "daily")
    given = getattr(args, "name", None)
    try:
        person = (config.names or default_names(PLAYERS))[1 - BOT_SIDE]
        name = check_name(given if given is not None else person)
    except BadName as error:
        raise UsageError(f"--name: {said(error)}") from None
    if name.casefold() == COMPUTER_NAME.casefold():
        raise UsageError(
            _("--name: {name} is the computer's name at the daily").format(name=COMPUTER_NAME)
        )
    day = datetime.date.today().isoformat()
    keymap, key_files = keymap_from(getattr(args, "keys", None), config)
    settings = Settings(
        rules=daily_rules(),
        seed=daily_seed(day),
        names=(name, COMPUTER_NAME),
        players=PLAYERS,
        keymap=keymap,
        **display(args, config),
    )
    if keymap is not None:
        check_keymap(settings, key_files)
    if tty.no_terminal():
        return EXIT_USAGE
    catch_up()  # an earlier daily left uncounted is counted before today's is checked
    try:
        check_daily(name, day)
    except DailyTaken as taken:
        how = {True: _("won"), False: _("lost"), None: _("left before the end")}[taken.won]
        if name == YOU:  # the person nobody named is spoken to
            line = _("daily: you have had today's daily deal ({how}); the next is tomorrow's")
        else:
            line = _("daily: {name} has had today's daily deal ({how}); the next is tomorrow's")
        say(line.format(name=harmless(name), how=how))
        return EXIT_TAKEN
    except StorageError as error:
        say(_("daily: the record keeps each daily once a day: {why}").format(why=said(error)))
        return EXIT_USAGE
    except OSError as error:
        say(
            _("daily: the record keeps each daily once a day, and cannot be written: {why}").format(
                why=reason(error)
            )
        )
        return EXIT_USAGE
    from stress_tui.terminal.app import run_daily

    with terminal_output():
        return run_daily(settings, day)
