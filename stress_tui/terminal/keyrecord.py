"""What a key's SSH session reads of its own record on the server (``terminal/server.py``,
``docs/serve.md``): ``stats``, ``replays`` and ``replay NAME`` in plain text, and what the
lobby shows of the player.
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import TYPE_CHECKING

from stress_tui.terminal.lang import _

if TYPE_CHECKING:
    from stress_tui.terminal.screens.lobby import LobbyView
    from stress_tui.terminal.server import Session


async def lobby_view(session: Session, name: str) -> LobbyView:
    """What the lobby shows of the player: their record, rating and last rounds."""
    from stress_tui.terminal.screens.lobby import RECENT, LobbyView

    if session.connection.fingerprint is None:
        return LobbyView(name, guest=True)
    from stress_tui.storage.recent import recent_rounds

    loop = asyncio.get_running_loop()
    rounds, rating = await record_of(session, name)
    path = session.server.data / "record.sqlite"
    recent = await loop.run_in_executor(None, recent_rounds, name, RECENT, path)
    return LobbyView(name, guest=False, rounds=rounds, rating=rating, recent=recent)


async def record_of(session: Session, name: str) -> tuple[tuple[int, int], int | None]:
    """``name``'s rounds won and lost in the server's record, and their rating
    (``None``: no rated round yet)."""
    from stress_tui.storage.record import Record

    path = session.server.data / "record.sqlite"
    loop = asyncio.get_running_loop()
    record = await loop.run_in_executor(None, functools.partial(Record.load, path, histories=False))
    standings = record.standings.get(name, {})
    won = sum(s.rounds_won for s in standings.values())
    lost = sum(s.rounds_lost for s in standings.values())
    rating = record.ratings.get(name)
    if rating is None or not rating.rated_rounds:
        return (won, lost), None
    return (won, lost), round(rating.rating.rating)


async def stats(session: Session) -> int:
    name = await session.identity()
    if session.connection.fingerprint is None:
        session.say(_("{name}: a guest (no key): unrated, no record").format(name=name))
        return 0
    (won, lost), rating = await record_of(session, name)
    session.say(
        _("{name} (key {fingerprint})").format(
            name=name, fingerprint=session.connection.fingerprint
        )
    )
    session.say(
        _("rounds: {rounds}, won {won}, lost {lost}").format(rounds=won + lost, won=won, lost=lost)
    )
    if rating is not None:
        session.say(_("rating: {rating}").format(rating=rating))
    return 0


async def replays(session: Session) -> int:
    """``replays``: the key's own replays on this server, newest first, one a line:
    the name ``replay NAME`` takes, when, against whom, how it went."""
    name = await session.identity()
    if session.connection.fingerprint is None:
        session.say(_("{name}: a guest (no key): unrated, no record").format(name=name))
        return 0
    from stress_tui.core.words import shown_name
    from stress_tui.storage.keyreplays import key_replays

    loop = asyncio.get_running_loop()
    found = await loop.run_in_executor(None, key_replays, name, session.server.data / "replays")
    if not found:
        session.say(_("{name}: no replays on this server yet").format(name=name))
    for replay in found:
        against = shown_name(replay.opponent, _)
        if replay.opponent_kind.startswith("bot:"):
            against += " (" + _(replay.opponent_kind[4:]) + ")"
        if not replay.ended:
            went = _("(cut short)")
        elif replay.won is None:
            went = _("drawn")
        else:
            went = _("won") if replay.won else _("lost")
        when = replay.started[:16].replace("T", " ")
        session.say(f"{replay.name}  {when}  {_('against {name}').format(name=against)}  {went}")
    return 0


async def replay(session: Session, words: list[str]) -> int:
    """``replay NAME``: the bytes of the key's replay ``NAME``, as it is kept (``>
    file.jsonl``); a name that is not one of the key's replays is refused (status
    1), whatever it says."""
    from stress_tui.terminal.server import EXIT_USAGE

    if len(words) != 1:
        session.say(_("stress-tui: replay NAME, the NAME as replays lists it"))
        return EXIT_USAGE
    name = await session.identity()
    from stress_tui.core.text import harmless
    from stress_tui.storage.keyreplays import key_replay

    folder = session.server.data / "replays"
    path = None
    if session.connection.fingerprint is not None:
        loop = asyncio.get_running_loop()
        path = await loop.run_in_executor(None, key_replay, name, words[0], folder)
    if path is None:
        session.say(
            _("stress-tui: no replay of yours is called {name} (replays lists them)").format(
                name=harmless(words[0], 60)
            )
        )
        return 1
    await send_file(session, path)
    return 0


async def send_file(session: Session, path: Path) -> None:
    """Send the file at ``path`` as it is, as fast as the client takes it."""
    from stress_tui.storage.files import open_regular
    from stress_tui.storage.replay import MAX_SIZE

    loop = asyncio.get_running_loop()
    with open_regular(path, MAX_SIZE) as file:
        while not session.lost:
            chunk = await loop.run_in_executor(None, file.read, 64 * 1024)
            if not chunk:
                break
            session.chan.write(chunk)
            await session.writable.wait()
