"""``stress-tui host``: open a table on the network for a friend to join."""

from __future__ import annotations

import argparse
from typing import Any

from stress_tui.cli import network
from stress_tui.cli.errors import PROG, _
from stress_tui.cli.flags import add_rule_flags, add_screen_flags, typed, whole

SCREEN = True


def _port(text: str) -> int:
    from stress_tui.cli.config import BadValue

    port = whole(text)
    if not 0 <= port <= 65535:
        raise BadValue(
            _("must be a port from 1 to 65535 (0: any free one), not {value}").format(value=port)
        )
    return port


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command
    from stress_tui.net import DEFAULT_PORT

    host = add_command(
        commands,
        "host",
        usage=f"{PROG} host [--port N] [--bind ADDRESS] [--name NAME] [rule flags]",
        description=_(
            "Open a table on the network: prints where to connect and a join code "
            "to read to your friend, then waits for them (Esc or q gives up). Your house rules "
            "are the table's. See docs/network.md (no encryption: on an untrusted network, use "
            "an SSH tunnel)."
        ),
    )
    add_rule_flags(host)
    net = host.add_argument_group(_("network"))
    net.add_argument(
        "--port",
        type=typed(_port, "port"),
        metavar="N",
        help=_("the port to listen on; default: {port}").format(port=DEFAULT_PORT),
    )
    net.add_argument(
        "--bind",
        metavar="ADDRESS",
        help=_(
            "the address to listen on (127.0.0.1: this machine only; 0.0.0.0: its IPv4 "
            "addresses only); default: ::, every address of this machine, IPv4 and IPv6"
        ),
    )
    net.add_argument("--name", metavar="NAME", help=_("your name at the table; default: Host"))
    net.add_argument("--keys", metavar="FILE", help=_("a TOML file of keys ([keys.p2])"))
    add_screen_flags(host)
    return host


run = network.run
