"""The commands: one module each, ``stress_tui.cli.commands.NAME``, loaded only when its
command is asked for (the program's help reads every one's usage line).

Each module declares its arguments and its run:

- ``USAGE``: its line in the program's usage, after ``stress-tui``;
- ``declare(commands)``: makes its parser with ``cli.parser.add_command`` and adds its
  arguments (``play``, the game itself, adds them to the program's own parser instead);
- ``run(args, flagged) -> int``: does it and gives the exit status (``flagged``: whether
  ``--lang`` chose the language, so that the config file's does not);
- ``SCREEN = True`` if it draws a full screen (the screen turns the garbage collector back
  on after its first frame; any other command's run has it on from the start).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing only for the annotations
    from types import ModuleType

PLAY = "play"
"""The command that runs without a name: the game, with the program's own flags."""

COMMANDS = (
    "sim",
    "replay",
    "stats",
    "daily",
    "host",
    "join",
    "watch",
)
"""The named commands, in the order the help lists them (one line each)."""


def command(name: str) -> ModuleType:
    """The module of the command ``name`` (``PLAY`` or one of ``COMMANDS``)."""
    # __import__, the import statement's own path, so that ``python -X importtime`` lists
    # the command's module as it lists every other (``tests/test_startup.py``).
    return __import__(f"{__name__}.{name}", fromlist=["run"])
