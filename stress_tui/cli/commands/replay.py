"""``stress-tui replay``: a recorded round shown again on the table, checked without a
screen (``--verify``), or the recent rounds listed (``--list``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stress_tui.cli.errors import DATA_VAR, EXIT_USAGE, PROG, UsageError, _, said, say
from stress_tui.cli.flags import add_screen_flags, only_display_flags, typed
from stress_tui.core.text import N_, Say, harmless
from stress_tui.core.words import shown_name

if TYPE_CHECKING:  # the storage loads when the command runs, not for its help
    from stress_tui.storage.listing import Summary

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
        usage=f"{PROG} replay FILE [--speed X] [OPTION...]\n"
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
    from stress_tui.storage import listing
    from stress_tui.storage import replay as replays
    from stress_tui.storage import verify as checks
    from stress_tui.storage.files import StorageError

    config = load_config(flagged)
    only_display_flags(args, "replay")
    given = getattr(args, "file", None)
    if getattr(args, "list", False):
        if given is not None:
            raise UsageError(_("{file}: --list takes no FILE").format(file=harmless(given)))
        found, problems = listing.summaries(_=_)
        if not found and not problems:
            folder = harmless(str(replays.replay_dir()), None)
            print(
                _("No rounds recorded yet (the replays are kept in {folder}).").format(
                    folder=folder
                )
            )
        for line in list_lines(found, tty.output_width(), tty.display_width(), _):
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
        verdict = checks.verify(replay)
        if verdict.ok and "daily" in replay.header:
            from stress_tui.core.text import N_, Problem
            from stress_tui.players.daily import computer_problem

            wrong = computer_problem(replay.new_game(), replay.actions, replay.seed)
            if wrong is not None:
                found_wrong = Problem(N_("{path}: {why}"), path=replay.path, why=wrong)
                verdict = checks.Verdict(False, found_wrong)
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


def list_lines(
    found: list[Summary],
    width: int | None = None,
    measure: Callable[[str], int] = len,
    _: Say = N_,
) -> list[str]:
    """``replay --list``: one line a round, in columns (date, players, rules, winner,
    length, file name); ``_`` says a winner that is no name (``nobody``, ``(cut short)``,
    ``(being played)``).
    With ``width``, every line fits in that many columns (as ``measure`` counts them) as
    far as it can: the players are said by name only, then the rules lose their last words
    (``...`` says so), then the date its year; the file name is always whole (about 75
    columns are the least a line then takes)."""
    unnamed = {N_("nobody"), N_("(cut short)"), N_("(sealed)"), N_("(being played)")}
    if not found:
        return []
    rows = [  # a file name is outside text too: the folder may hold any
        [
            date_shown(s),
            _players(s, _),
            rules_said(s.rules, _),
            _(s.winner) if s.winner in unnamed else shown_name(s.winner, _),
            length_shown(s),
            harmless(s.path.name, None),
        ]
        for s in found
    ]
    if width is not None:
        _narrow(rows, [_names_only(s, _) for s in found], width, measure)
    widths = [max(measure(row[i]) for row in rows) for i in range(5)]
    return [
        "  ".join(cell + " " * (w - measure(cell)) for cell, w in zip(row, widths, strict=False))
        + "  "
        + row[5]
        for row in rows
    ]


def _narrow(
    rows: list[list[str]], names: list[str], width: int, measure: Callable[[str], int]
) -> None:
    """Shorten the players and rules columns of ``rows`` so that each line fits."""

    def line_width() -> int:
        widths = [max(measure(row[i]) for row in rows) for i in range(5)]
        return sum(widths) + 2 * 5 + max(measure(row[5]) for row in rows)

    if line_width() > width:
        for row, names_only in zip(rows, names, strict=True):
            row[1] = names_only
    excess = line_width() - width
    if excess <= 0:
        return
    room = max(measure(row[2]) for row in rows) - excess
    for row in rows:
        row[2] = _words(row[2], max(room, 3), measure)
    if line_width() > width:  # narrower still: the date without its year
        for row in rows:
            row[0] = row[0][5:] if len(row[0]) == len("2024-01-31 12:00") else row[0]


def _words(text: str, room: int, measure: Callable[[str], int]) -> str:
    """``text`` in ``room`` columns: whole, or its first words and ``...``."""
    if measure(text) <= room:
        return text
    words = text.split(" ")
    while words and measure(" ".join(words) + " ...") > room:
        words.pop()
    return " ".join([*words, "..."])


def _players(summary: Summary, _: Say = N_) -> str:
    """``Ann (human) vs Bo (bot:hard)``, the names and kinds said with ``_``."""
    first, second = (
        f"{shown_name(name, _)} ({kind_said(kind, _)})"
        for name, kind in zip(summary.names, summary.kinds, strict=True)
    )
    return _("{first} vs {second}").format(first=first, second=second)


def _names_only(summary: Summary, _: Say = N_) -> str:
    """``Ann vs Bo``: the players by name only, for a narrow line."""
    first, second = (shown_name(name, _) for name in summary.names)
    return _("{first} vs {second}").format(first=first, second=second)


def date_shown(summary: Summary) -> str:
    """When the round began, in local time to the minute."""
    from datetime import datetime

    try:
        when = datetime.fromisoformat(summary.started).astimezone()
    except ValueError:
        return summary.started
    return when.strftime("%Y-%m-%d %H:%M")


def length_shown(summary: Summary) -> str:
    """How long the round lasted, as ``m:ss.s``."""
    if summary.seconds is None:
        return "-"
    minutes, seconds = divmod(summary.seconds, 60)
    return f"{int(minutes)}:{seconds:04.1f}"


HUMAN, BOT = N_("human"), N_("bot:{level}")
"""How ``replay --list`` says who played a side (``Summary.kinds``)."""


def kind_said(kind: str, _: Say = N_) -> str:
    """``human``, ``bot:hard``, said with ``_`` (Swedish ``dator: svår``); a kind this
    version does not know as it is kept."""
    if kind == "human":
        return _(HUMAN)
    if kind.startswith("bot:"):
        return _(BOT).format(level=_(kind[4:]))
    return kind


def rules_said(rules: str, _: Say = N_) -> str:
    """A replay's rules (notation) in the words of the table's rule line
    (``standard, row 4, to 5 wins``), said with ``_``; notation this version cannot read
    as it is kept."""
    from stress_tui.core.notation import NotationError, parse_rules
    from stress_tui.core.rulestext import short_line

    try:
        return short_line(parse_rules(rules), 1000, _)
    except (NotationError, ValueError):
        return rules
