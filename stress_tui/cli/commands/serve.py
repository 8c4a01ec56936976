"""``stress-tui serve``: serve the game over SSH, for anyone with an ``ssh`` client
(``docs/serve.md``; asyncssh, the ``serve`` extra)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from stress_tui.cli.errors import EXIT_USAGE, PROG, UsageError, _, said
from stress_tui.cli.flags import add_listening_flags, listening, positive, typed, whole

DEFAULT_PORT = 2222

HOST_KEY_FILE = "ssh_host_ed25519_key"

FORGET_AFTER = 365
"""Days a key may go unseen before the server forgets it (``--forget-after``; ``0``:
never): a year, so that a player who comes back now and then keeps their record."""


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
        usage=f"{PROG} serve [--port N] [--bind ADDRESS] [OPTION...]",
        description=_(
            "Serve the game over SSH: anyone with an ssh client gets a lobby with "
            "ssh -p PORT HOST, where they play the computer, open a table for two or join "
            "one with its code, and see their record (ssh -p PORT HOST stats as plain "
            "text). A player is their public key. Runs until SIGTERM. Needs the serve "
            "extra: pip install 'stress-tui[serve]'. See docs/serve.md."
        ),
    )
    net = add_listening_flags(serve, DEFAULT_PORT)
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
        type=typed(positive, "number"),
        metavar="N",
        help=_("connections open at once from one address; default: 4"),
    )
    limits.add_argument(
        "--max-sessions",
        type=typed(positive, "number"),
        metavar="N",
        help=_("sessions open at once, from everyone; default: 64"),
    )
    limits.add_argument(
        "--max-tables",
        type=typed(positive, "number"),
        metavar="N",
        help=_("tables for two open at once, one a key; default: 32"),
    )
    limits.add_argument(
        "--input-rate",
        type=typed(positive, "number"),
        metavar="BYTES",
        help=_("bytes a second a session's keys may bring, the rest dropped; default: 2048"),
    )
    limits.add_argument(
        "--idle",
        type=typed(positive, "number"),
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
    from stress_tui.net.addresses import EVERYWHERE, cannot_listen, listening_socket
    from stress_tui.storage.files import data_dir
    from stress_tui.terminal.server import Limits, host_key, serve

    bind, port = listening(args)
    try:
        sock = listening_socket(bind, port)
    except OSError as error:
        raise UsageError(said(cannot_listen(bind, port, error))) from None

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
    host = bind if bind not in ("", EVERYWHERE, "0.0.0.0") else socket.gethostname()

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
    return asyncio.run(serve(sock, key, limits, data, announce, forget_after))
