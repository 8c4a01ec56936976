"""``stress-tui watch``: watch a match on the network."""

from __future__ import annotations

import argparse
from typing import Any

from stress_tui.cli import network
from stress_tui.cli.errors import PROG, _

SCREEN = True


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command

    watch = add_command(
        commands,
        "watch",
        usage=f"{PROG} watch HOST[:PORT] CODE",
        description=_("Watch a table someone opened with 'stress-tui host' (you only watch)."),
    )
    network.add_table_arguments(watch)
    return watch


run = network.run
