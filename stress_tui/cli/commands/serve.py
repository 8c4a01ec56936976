"""``stress-tui serve``: serve the game over SSH, for anyone with an ``ssh`` client
(``docs/serve.md``; asyncssh, the ``serve`` extra)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from stress_tui.cli.errors import EXIT_USAGE, PROG, _
from stress_tui.cli.flags import typed, whole

DEFAULT_PORT = 2222

HOST_KEY_FILE = "ssh_host_ed25519_key"

FORGET_AFTER = 365
"""Days a key may go unseen before the server forgets it (``--forget-after``; ``0``:
never): a year, so that a player who comes back now and then keeps their record."""


def _port(text: str) -> int:
    from stress_tui.cli.config import BadValue

    port = whole(text)
    if not 0 <= port <= 65535:
        raise BadValue(
            _("must be a port from 1 to 65535 (0: any free one), not {value}").format(value=port)
        )
    return port


def _positive(text: str) -> int:
    from stress_tui.cli.config import BadValue

    value = whole(text)
    if value < 1:
        raise BadValue(_("must be 1 or more, not {value}").format(value=value))
    return value


def _days(text: str) -> int:
    from stress_tui.cli.config import BadValue

    value = whole(text)
    if value < 0:
        raise BadValue(_("must be 0 or more (0: kept for ever), not {value}").format(value=value))
    return value


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command

    serve = add_command(
        commands,
        "serve",
        usage=f"{PROG} serve [--port N] [--bind ADDRESS] [--host-key FILE] [--data-dir DIR]",
        description=_(
            "Serve the game over SSH: anyone with an ssh client gets a lobby with "
            "ssh -p PORT HOST, where they play the computer, open a table for two or join "
            "one with its code, and see their record (ssh -p PORT HOST stats as plain "
            "text). A player is their public key. Runs until SIGTERM. Needs the serve "
            "extra: pip install 'stress-tui[serve]'. See docs/serve.md."
        ),
    )
    net = serve.add_argument_group(_("network"))
    net.add_argument(
        "--port",
        type=typed(_port, "port"),
        default=DEFAULT_PORT,
        metavar="N",
        help=_("the port to listen on (0: any free one, printed); default: {port}").format(
            port=DEFAULT_PORT
        ),
    )
    net.add_argument(
        "--bind",
        default="",
        metavar="ADDRESS",
        help=_("the address to listen on; default: every address of this machine"),
    )
    net.add_argument(
        "--host-key",
        metavar="FILE",
        help=_(
            "the server's SSH host key, made there on first start; default: {file} in the "
            "data folder"
        ).format(file=HOST_KEY_FILE),
    )
    net.add_argument(
        "--data-dir",
        metavar="DIR",
        help=_("where the server keeps its host key, players' keys, record and replays"),
    )
    net.add_argument(
        "--forget-after",
        type=typed(_days, "days"),
        default=FORGET_AFTER,
        metavar="DAYS",
        help=_(
            "forget a key not seen for this many days, as its forget command would (0: "
            "never); default: {days}"
        ).format(days=FORGET_AFTER),
    )
    limits = serve.add_argument_group(_("limits"))
    limits.add_argument(
        "--max-per-address",
        type=typed(_positive, "number"),
        metavar="N",
        help=_("connections open at once from one address; default: 4"),
    )
    limits.add_argument(
        "--max-sessions",
        type=typed(_positive, "number"),
        metavar="N",
        help=_("sessions open at once, from everyone; default: 64"),
    )
    limits.add_argument(
        "--max-tables",
        type=typed(_positive, "number"),
        metavar="N",
        help=_("tables for two open at once, one a key; default: 32"),
    )
    limits.add_argument(
        "--input-rate",
        type=typed(_positive, "number"),
        metavar="BYTES",
        help=_("bytes a second a session's keys may bring, the rest dropped; default: 2048"),
    )
    limits.add_argument(
        "--idle",
        type=typed(_positive, "number"),
        metavar="SECONDS",
        help=_("seconds a game goes on without a key before it is ended; default: 600"),
    )
    return serve


def run(args: argparse.Namespace, flagged: bool) -> int:
    import asyncio
    import dataclasses
    import os
    import socket
    from pathlib import Path

    from stress_tui.cli.settings import load_config

    if not flagged:
        load_config(flagged)  # for its language alone
    try:
        import asyncssh  # noqa: F401
    except ImportError:
        print(
            "stress-tui: " + _("serve needs asyncssh: pip install 'stress-tui[serve]'"),
            file=sys.stderr,
        )
        return EXIT_USAGE
    from stress_tui.storage.files import data_dir
    from stress_tui.terminal.server import Limits, host_key, serve

    folder: str | None = getattr(args, "data_dir", None)
    data = Path(folder).resolve() if folder else data_dir()
    os.environ["STRESS_TUI_DATA_DIR"] = str(data)  # the games' replays and record go there
    data.mkdir(parents=True, exist_ok=True)
    key_file: str | None = getattr(args, "host_key", None)
    key = host_key(Path(key_file) if key_file else data / HOST_KEY_FILE)
    chosen = {
        "per_address": getattr(args, "max_per_address", None),
        "sessions": getattr(args, "max_sessions", None),
        "tables": getattr(args, "max_tables", None),
        "input_rate": getattr(args, "input_rate", None),
        "idle": getattr(args, "idle", None),
    }
    limits = dataclasses.replace(Limits(), **{k: v for k, v in chosen.items() if v is not None})
    host = args.bind if args.bind not in ("", "::", "0.0.0.0") else socket.gethostname()

    def announce(port: int) -> None:
        print(
            _("stress-tui: serving on port {port}; players type: ssh -t -p {port} {host}").format(
                port=port, host=host
            ),
            flush=True,
        )
        print(
            _("host key: {fingerprint}").format(fingerprint=key.get_fingerprint("sha256")),
            flush=True,
        )

    forget_after: int = getattr(args, "forget_after", FORGET_AFTER)
    return asyncio.run(serve(args.bind, args.port, key, limits, data, announce, forget_after))
