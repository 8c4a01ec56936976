"""A session at a table for two on the SSH server (``terminal/server.py``,
``docs/serve.md``): opening one (``new [RULES]``), taking its other seat or watching it
(``join CODE``, ``watch CODE``), coming back to it after a dropped connection, and why a
key may not. The table itself is ``terminal/tables.py``'s.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from stress_tui.core.lifecycle import Stage
from stress_tui.net.addresses import as_typed
from stress_tui.terminal.lang import _

if TYPE_CHECKING:
    from stress_tui.core.rules import Rules
    from stress_tui.terminal.channel import ChannelEndpoint
    from stress_tui.terminal.server import Session
    from stress_tui.terminal.tables import Table


class Refused(Exception):
    """A key may not sit at a table after all: why, in the session's language."""


def join_line(session: Session, code: str) -> str:
    """What a friend types to join the table ``code``."""
    return ssh_line(session, "join", code, terminal=True)


def ssh_line(session: Session, *command: str, terminal: bool = False) -> str:
    """What a player types for ``command`` on this server (with ``-t``: it needs a
    terminal): its address as the player's connection reached it."""
    assert session.connection.conn is not None
    place = session.connection.conn.get_extra_info("sockname")
    address, port = (as_typed(str(place[0])), int(place[1])) if place else ("HOST", 22)
    return " ".join(["ssh", *(["-t"] if terminal else []), "-p", str(port), address, *command])


def needs_a_key(session: Session) -> str | None:
    """Why a guest cannot take a seat at a table for two (its rounds would be counted
    for nobody); ``None`` for a key."""
    if session.connection.fingerprint is not None:
        return None
    return _("a table for two needs a key (ssh-keygen, then ssh again)")


def no_table(session: Session) -> str | None:
    """Why the key may not open a table now: it is a guest, it has one open (or kept
    for it), the server has as many as it may; ``None`` where it may."""
    key = session.connection.fingerprint
    if key is None:
        return needs_a_key(session)
    for code, table in session.server.tables.items():
        if table.opener == key:
            return _("your table is open already; its code: {code}").format(code=code)
    if len(session.server.tables) >= session.server.limits.tables:
        return _("this server has as many tables as it may; try again later")
    return None


async def new_table(session: Session, asked: str) -> int:
    """``new [RULES]``: open a table for two (by ``RULES``, the rules in notation, such
    as ``jass`` or ``standard wins=5``; the standard deck's by default), its code to
    read aloud on the waiting screen, and play its match as its host; the table closes
    when its host leaves."""
    from stress_tui.core.notation import parse_rules
    from stress_tui.core.rules import Rules
    from stress_tui.core.text import said
    from stress_tui.terminal.server import EXIT_USAGE

    try:
        rules = parse_rules(asked) if asked else Rules()
    except ValueError as error:
        session.say(_("stress-tui: new: {why}").format(why=said(error, _)))
        return EXIT_USAGE
    refused = session.refused(no_table(session)) or session.unfit_terminal()
    if refused is not None:
        return refused
    name = await session.identity()
    if session.ended_with is not None:
        return session.ended_with
    return await host_table(session, session.take_terminal(), name, rules)


async def host_table(
    session: Session, endpoint: ChannelEndpoint, name: str, rules: Rules | None = None
) -> int:
    """A table opened on ``endpoint`` by ``name``'s key, by ``rules`` (the standard
    deck's by default), its match played there."""
    import os

    from stress_tui.core.rules import Rules
    from stress_tui.terminal.netplay import SEED_ENV
    from stress_tui.terminal.tables import ServedHost, Table

    seed = os.environ.get(SEED_ENV)  # a test hook, as for stress-tui host
    host = ServedHost(
        rules or Rules(),
        name,
        bind="127.0.0.1",
        port=0,
        seed=int(seed) if seed else None,
        say=_,
    )
    host.writer = session.server.writer
    await host.start()
    assert session.connection.fingerprint is not None
    table = Table(host, session.connection.fingerprint)
    session.server.tables[host.code] = table
    return await host_seat(session, endpoint, table, name)


async def host_seat(session: Session, endpoint: ChannelEndpoint, table: Table, name: str) -> int:
    """The opener's seat at ``table`` played on ``endpoint``. Left on purpose, the
    table closes; the connection dropped, the match is held (the opener cannot see
    the table) and the table kept ``REJOIN_SECONDS`` for the opener's key to come back
    (``join CODE``); then it closes."""
    from stress_tui.net.host import HOST_SEAT
    from stress_tui.net.hosted import REJOIN_SECONDS
    from stress_tui.terminal.netplay import NetScreen
    from stress_tui.terminal.server import here

    host = table.host
    host.paths[HOST_SEAT] = session.connection.round_trip
    if table.away is not None:  # back: the hold goes, a count on every screen
        table.away.cancel()
        table.away = None
        host.resume(HOST_SEAT, hold=True)
    settings = here(players=("human", "human"), names=(name, name))
    screen = NetScreen(
        endpoint, settings, model=host, seat=HOST_SEAT, join_line=join_line(session, host.code)
    )
    try:
        return await screen.main()
    finally:
        host.on_change = None
        if endpoint.gone and host.life.stage is not Stage.GONE:
            host.pause(HOST_SEAT, hold=True)
            loop = asyncio.get_running_loop()
            table.away = loop.call_later(REJOIN_SECONDS, session.server.close_table, host.code)
        else:
            await session.server.close_table_now(host.code)


async def at_table(session: Session, words: list[str], watch: bool) -> int:
    """``join CODE`` or ``watch CODE``: take the other seat of the table ``CODE`` on
    this server (only the key that first took it, once taken), or watch it."""
    from stress_tui.net.protocol import normalize_code
    from stress_tui.terminal.server import EXIT_USAGE

    try:
        code = normalize_code(" ".join(words))
    except ValueError as error:
        from stress_tui.core.text import said

        session.say("stress-tui: " + said(error, _))
        return EXIT_USAGE
    refused = session.refused(no_seat(session, code, watch)) or session.unfit_terminal()
    if refused is not None:
        return refused
    name = await session.identity()
    if session.ended_with is not None:
        return session.ended_with
    endpoint = session.take_terminal()
    try:
        return await sit_at(session, endpoint, name, code, watch)
    except Refused as refused:
        session.say(f"stress-tui: {refused}")
        return 1


def no_seat(session: Session, code: str, watch: bool) -> str | None:
    """Why the key may not sit at (or watch) the table ``code``: it is not here, its
    seat is another key's; ``None`` where it may."""
    table = session.server.tables.get(code)
    if table is None:
        return _("no table on this server has the code {code}").format(code=code)
    if watch:
        return None
    key = session.connection.fingerprint
    if key is not None and key == table.opener:
        return None if table.away is not None else _("the seat at this table is taken")
    if key is not None and table.seated not in (None, key):
        return _("the seat at this table is taken")
    return needs_a_key(session)


async def sit_at(
    session: Session, endpoint: ChannelEndpoint, name: str, code: str, watch: bool
) -> int:
    """The table ``code`` played (or watched) on ``endpoint``; ``Refused`` where the key
    may not sit there after all (the table gone meanwhile, the table's own refusal)."""
    from stress_tui.net.client import JoinError
    from stress_tui.terminal.netplay import NetScreen
    from stress_tui.terminal.server import here
    from stress_tui.terminal.tables import ServedClient

    why = no_seat(session, code, watch)  # it may have gone meanwhile
    if why is not None:
        raise Refused(why)
    table = session.server.tables[code]
    key = session.connection.fingerprint
    if not watch and key == table.opener:  # the opener back at their own table
        return await host_seat(session, endpoint, table, name)
    role = "watch" if watch else "play"
    path = session.connection.round_trip
    client = ServedClient(
        table.host, "127.0.0.1", table.host.port, code, name, role=role, say=_, path=path
    )
    try:
        await client.connect()
    except JoinError as error:
        raise Refused(str(error)) from None
    if not watch:
        from stress_tui.net.host import JOINER_SEAT

        table.seated = key
        table.host.paths[JOINER_SEAT] = session.connection.round_trip
    settings = here(players=("human", "human"), names=(name, name))
    screen = NetScreen(endpoint, settings, model=client, seat=client.seat)
    try:
        return await screen.main()
    finally:
        if endpoint.gone and not watch:
            # The connection dropped: the seat is kept for the key a while (the host's
            # REJOIN_SECONDS), as for a joiner whose network went away.
            if client.task is not None:
                client.task.cancel()
            client._close()
        else:
            await client.leave()
