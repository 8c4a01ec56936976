"""``stress-tui replay``: a recorded round shown again on the table, checked without a
screen (``--verify``), or the recent rounds listed (``--list``)."""

from __future__ import annotations

import argparse
from typing import Any

from stress_tui.cli.errors import DATA_VAR, EXIT_USAGE, PROG, UsageError, _, said, say
from stress_tui.cli.flags import add_screen_flags, only_display_flags, typed

SCREEN = True

EXIT_DIFFERS = 1
"""``--verify``: the replay does not re-simulate to its recorded end."""

MAX_SPEED = 100.0
"""The fastest a replay can be watched (``--speed``)."""


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


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command

    replay = add_command(
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
        type=typed(_speed, "speed"),
        metavar="X",
        help=_("play back X times as fast (0.5: half as fast), up to {top}; default: 1").format(
            top=f"{MAX_SPEED:g}"
        ),
    )
    add_screen_flags(replay)
    return replay


def run(args: argparse.Namespace, flagged: bool) -> int:
    from pathlib import Path

    from stress_tui.cli import tty
    from stress_tui.cli.main import terminal_output
    from stress_tui.cli.settings import display, load_config
    from stress_tui.core.settings import Settings
    from stress_tui.core.text import harmless
    from stress_tui.storage import replay as replays
    from stress_tui.storage.files import StorageError

    config = load_config(flagged)
    only_display_flags(args, "replay")
    given = getattr(args, "file", None)
    if getattr(args, "list", False):
        if given is not None:
            raise UsageError(_("{file}: --list takes no FILE").format(file=harmless(given)))
        found, problems = replays.summaries(_=_)
        if not found and not problems:
            folder = harmless(str(replays.replay_dir()), None)
            print(
                _("No rounds recorded yet (the replays are kept in {folder}).").format(
                    folder=folder
                )
            )
        for line in replays.list_lines(found, tty.output_width(), tty.display_width(), _):
            print(line)
        for problem in problems:
            say(problem)
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
        say(said(error))
        return EXIT_USAGE
    if getattr(args, "verify", False):
        verdict = replays.verify(replay)
        if verdict.ok and "daily" in replay.header:
            from stress_tui.core.text import N_, Problem
            from stress_tui.players.daily import computer_problem

            wrong = computer_problem(replay.new_game(), replay.actions, replay.seed)
            if wrong is not None:
                found_wrong = Problem(N_("{path}: {why}"), path=replay.path, why=wrong)
                verdict = replays.Verdict(False, found_wrong)
        print(harmless(verdict.said.said(_), None))
        return 0 if verdict.ok else EXIT_DIFFERS
    if replay.sealed:  # a network joiner's round whose seed never came: nothing to deal
        try:
            replay.new_game()
        except StorageError as error:
            say(said(error))
        return EXIT_USAGE
    if tty.no_terminal():
        return EXIT_USAGE
    from stress_tui.terminal.playback import run as watch

    with terminal_output():
        return watch(replay, getattr(args, "speed", 1.0), Settings(**display(args, config)))
