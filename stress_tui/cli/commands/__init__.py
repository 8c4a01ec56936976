"""The commands: one module each, ``stress_tui.cli.commands.NAME``, loaded only when its
command is asked for, and listed in ``COMMANDS`` with its line in the program's usage and
what it does in a line (the program's own ``--help`` lists them so, loading none).

Each module declares its arguments and its run:

- ``declare(commands)``: makes its parser with ``cli.parser.add_command`` and adds its
  arguments (``play``, the game itself, adds them to the program's own parser instead);
- ``run(args, flagged) -> int``: does it and gives the exit status (``flagged``: whether
  ``--lang`` chose the language, so that the config file's does not);
- ``SCREEN = True`` if it draws a full screen.
"""

from __future__ import annotations

from types import ModuleType

from stress_tui.core.text import N_

PLAY = "play"
"""The command that runs without a name: the game, with the program's own flags."""

COMMANDS = {
    "sim": (
        "[OPTION...]",
        N_("play bots against each other without a screen and print statistics"),
    ),
    "replay": (
        "FILE [--speed X] | --verify FILE | --list",
        N_("watch, check or list recorded rounds"),
    ),
    "stats": ("[--json | --chart [NAME]]", N_("print the record across matches")),
    "daily": ("[--name NAME]", N_("play the daily deal: the same cards for everyone today")),
    "learn": (
        "[--keyboard NAME] [--keys FILE]",
        N_("a short practice against a slow computer that says what to do next"),
    ),
    "host": (
        "[--port N] [--name NAME] [OPTION...]",
        N_("open a table on the network for a friend to join"),
    ),
    "join": (
        "HOST[:PORT] CODE [--name NAME]",
        N_("take the other seat at a table on the network"),
    ),
    "watch": ("HOST[:PORT] CODE", N_("watch a match on the network")),
    "serve": (
        "[--port N] [--bind ADDRESS] [OPTION...]",
        N_("serve the game over SSH"),
    ),
}
"""The named commands, in the order the help lists them: each one's line in the program's
usage, and what it does (an ``N_`` text)."""

PLAY_ABOUT = N_(
    "the game, at one keyboard or against the computer (the command when none is named): "
    "its flags choose the deck, the house rules, the players and the display"
)
"""What the game does, in the program's list of commands (``COMMANDS``' second texts)."""


def command(name: str) -> ModuleType:
    """The module of the command ``name`` (``PLAY`` or one of ``COMMANDS``)."""
    # __import__, the import statement's own path, so that ``python -X importtime`` lists
    # the command's module as it lists every other (``tests/test_startup.py``).
    return __import__(f"{__name__}.{name}", fromlist=["run"])
