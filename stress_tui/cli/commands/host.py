"""``stress-tui host``: open a table on the network for a friend to join."""

from __future__ import annotations

import argparse
from typing import Any

from stress_tui.cli import network
from stress_tui.cli.errors import PROG, _
from stress_tui.cli.flags import add_listening_flags, add_rule_flags, add_screen_flags

SCREEN = True


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command
    from stress_tui.net import DEFAULT_PORT

    host = add_command(
        commands,
        "host",
        usage=f"{PROG} host [--port N] [--bind ADDRESS] [OPTION...]",
        description=_(
            "Open a table on the network: prints where to connect and a join code "
            "to read to your friend, then waits for them (Esc or q gives up). Your house rules "
            "are the table's. See docs/network.md (no encryption: on an untrusted network, use "
            "an SSH tunnel)."
        ),
    )
    add_rule_flags(host)
    net = add_listening_flags(host, DEFAULT_PORT)
    net.add_argument("--name", metavar="NAME", help=_("your name at the table; default: Host"))
    net.add_argument("--keys", metavar="FILE", help=_("a TOML file of keys ([keys.p2])"))
    add_screen_flags(host)
    return host


run = network.run
