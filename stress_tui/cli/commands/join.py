"""``stress-tui join``: take the other seat at a table on the network."""

from __future__ import annotations

import argparse
from typing import Any

from stress_tui.cli import network
from stress_tui.cli.errors import PROG, _

SCREEN = True


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command

    join = add_command(
        commands,
        "join",
        usage=f"{PROG} join HOST[:PORT] CODE [--name NAME]",
        description=_(
            "Join a table someone opened with 'stress-tui host': HOST is their "
            "machine's name or address, CODE the four words they read to you."
        ),
    )
    network.add_table_arguments(join)
    join.add_argument("--name", metavar="NAME", help=_("your name at the table; default: Guest"))
    join.add_argument("--keys", metavar="FILE", help=_("a TOML file of keys ([keys.p1])"))
    return join


run = network.run
