"""What the network's commands share (``host``, ``join``, ``watch``: a table across two
terminals, docs/network.md): where the table is and its join code, and the run that
checks the name, the address and the code, then opens the network screen."""

from __future__ import annotations

import argparse

from stress_tui.cli.errors import EXIT_USAGE, UsageError, _, said
from stress_tui.cli.flags import add_screen_flags, listening


def add_table_arguments(command: argparse.ArgumentParser) -> None:
    """``HOST[:PORT] CODE``, the table joined or watched, and the screen's flags."""
    command.add_argument("address", metavar="HOST[:PORT]", help=_("where the table is"))
    command.add_argument("code", metavar="CODE", nargs="+", help=_("the join code (four words)"))
    add_screen_flags(command)


def run(args: argparse.Namespace, flagged: bool) -> int:
    """``host``, ``join`` or ``watch`` (``args.command``)."""
    import dataclasses

    from stress_tui.cli import tty
    from stress_tui.cli.main import terminal_output
    from stress_tui.cli.settings import load_config, settings_from_args
    from stress_tui.core.text import BadName, check_name, harmless
    from stress_tui.net.protocol import (
        ProtocolError,
        clean_name,
        normalize_code,
        parse_address,
    )

    config = load_config(flagged)
    command = args.command
    if getattr(args, "seed", None) is not None:
        raise UsageError(
            _("--seed: not with the host command (every round is dealt from a secret seed)")
        )
    name = getattr(args, "name", None) or ("Host" if command == "host" else "Guest")
    try:
        name = clean_name(check_name(name))
    except (BadName, ProtocolError) as error:
        raise UsageError(f"--name: {said(error)}") from None
    side = "p2" if command == "host" else "p1"
    players = {side: "human", ("p1" if side == "p2" else "p2"): "bot:normal"}
    settings = settings_from_args(args, dataclasses.replace(config, players=players))
    names = (name, name) if command != "host" else ("Guest", name)
    settings = dataclasses.replace(
        settings, names=names, players=(players["p1"], players["p2"]), seed=None
    )
    code = ""
    if command == "host":
        address, port = listening(args)
    else:
        try:
            address, port = parse_address(args.address)
        except ValueError as error:
            raise UsageError(f"{harmless(args.address)}: {said(error)}") from None
        try:
            code = normalize_code(" ".join(args.code))
        except ValueError as error:
            raise UsageError(f"CODE: {said(error)}") from None
    if tty.no_terminal():
        return EXIT_USAGE
    from stress_tui.terminal import netplay

    with terminal_output():
        if command == "host":
            return netplay.run_host(settings, name, port, address)
        return netplay.run_join(settings, address, port, code, name, watch=command == "watch")
