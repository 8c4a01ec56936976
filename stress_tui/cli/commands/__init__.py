"""The commands: one module each, ``stress_tui.cli.commands.NAME``, loaded only when its
command is asked for, and listed in ``COMMANDS`` with its line in the program's usage.

Each module declares its arguments and its run:

- ``declare(commands)``: makes its parser with ``cli.parser.add_command`` and adds its
  arguments (``play``, the game itself, adds them to the program's own parser instead);
- ``run(args, flagged) -> int``: does it and gives the exit status (``flagged``: whether
  ``--lang`` chose the language, so that the config file's does not);
- ``SCREEN = True`` if it draws a full screen.
"""

from __future__ import annotations

from types import ModuleType

PLAY = "play"
"""The command that runs without a name: the game, with the program's own flags."""

COMMANDS = {
    "sim": "[OPTION...]",
    "replay": "FILE [--speed X] | --verify FILE | --list",
    "stats": "[--json | --chart [NAME]]",
    "daily": "[--name NAME]",
    "learn": "[--keyboard NAME] [--keys FILE]",
    "host": "[--port N] [--name NAME] [OPTION...]",
    "join": "HOST[:PORT] CODE [--name NAME]",
    "watch": "HOST[:PORT] CODE",
    "serve": "[--port N] [--bind ADDRESS] [--host-key FILE] [--data-dir DIR]",
}
"""The named commands, one line each: its name and its line in the program's usage, in
the order the help lists them."""


def command(name: str) -> ModuleType:
    """The module of the command ``name`` (``PLAY`` or one of ``COMMANDS``)."""
    # __import__, the import statement's own path, so that ``python -X importtime`` lists
    # the command's module as it lists every other (``tests/test_startup.py``).
    return __import__(f"{__name__}.{name}", fromlist=["run"])
