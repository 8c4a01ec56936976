"""What a key's SSH session reads of its own record on the server (``terminal/server.py``,
``docs/serve.md``): ``stats``, ``replays`` and ``replay NAME`` in plain text, and what the
lobby shows of the player; ``forget`` and the lobby's ``f``, which erase it
(``storage/forget.py``), and the server's daily pass that forgets keys not seen for long.
"""

from __future__ import annotations

import asyncio
import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from stress_tui.storage.files import StorageError
from stress_tui.terminal.lang import _

if TYPE_CHECKING:
    from stress_tui.storage.forget import Forgotten
    from stress_tui.storage.recent import RecentRound
    from stress_tui.terminal.screens.lobby import LobbyView
    from stress_tui.terminal.server import Server, Session

DAY = 24 * 60 * 60.0
"""Seconds between two passes that forget the keys not seen for long (``expire``)."""


async def lobby_view(session: Session, name: str) -> LobbyView:
    """What the lobby shows of the player: their record, rating and last rounds."""
    from stress_tui.terminal.screens.lobby import RECENT, LobbyView

    if session.connection.fingerprint is None:
        return LobbyView(name, guest=True)
    rounds, rating, recent = await record_of(session, name, RECENT)
    return LobbyView(name, guest=False, rounds=rounds, rating=rating, recent=recent)


async def record_of(
    session: Session, name: str, recent: int = 0
) -> tuple[tuple[int, int], int | None, list[RecentRound]]:
    """``name``'s rounds won and lost in the server's record, their rating (``None``: no
    rated round yet) and their last ``recent`` rounds, newest first: read by the name
    alone (``storage/recent.py``), off the event loop."""
    from stress_tui.storage.recent import own_record

    path = session.server.data / "record.sqlite"
    loop = asyncio.get_running_loop()
    own = await loop.run_in_executor(None, own_record, name, recent, path)
    won = sum(s.rounds_won for s in own.standings.values())
    lost = sum(s.rounds_lost for s in own.standings.values())
    rating = None if own.rating is None else round(own.rating.rating)
    return (won, lost), rating, own.recent


async def stats(session: Session) -> int:
    name = await session.identity()
    if session.connection.fingerprint is None:
        session.say(_("{name}: a guest (no key): unrated, no record").format(name=name))
        return 0
    (won, lost), rating, _recent = await record_of(session, name)
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


async def forget(session: Session, words: list[str]) -> int:
    """``forget``: what forgetting the key would erase, and the command that does it;
    ``forget NAME``, ``NAME`` the key's own name: forget it, for good
    (``storage/forget.py``). A guest has nothing kept to forget."""
    import shlex

    from stress_tui.storage.forget import forget_key
    from stress_tui.terminal.seats import ssh_line
    from stress_tui.terminal.server import EXIT_USAGE

    key = session.connection.fingerprint
    if key is None:
        from stress_tui.terminal.screens.lobby import NOTHING_TO_FORGET

        session.say(_(NOTHING_TO_FORGET))
        return 0
    name = await session.identity()
    if not words:
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(
            None, functools.partial(forget_key, key, session.server.data, erase=False)
        )
        session.say(
            _("{name} (key {fingerprint}): forgetting it erases, for good:").format(
                name=name, fingerprint=key
            )
        )
        for line in erased_lines(name, found):
            session.say("  " + line)
        confirm = ssh_line(session, "forget", shlex.quote(name))
        session.say(_("To forget it, type: {command}").format(command=confirm))
        return 0
    if " ".join(words) != " ".join(name.split()):
        session.say(
            _("stress-tui: forget takes this key's own name: forget {name}").format(name=name)
        )
        return EXIT_USAGE
    done = await forget_now(session)
    if isinstance(done, str):
        session.say("stress-tui: " + done)
        return 1
    session.say(_("{name} is forgotten on this server").format(name=name))
    for line in erased_lines(name, done):
        session.say("  " + line)
    return 0


async def forget_now(session: Session) -> Forgotten | str | None:
    """Forget the session's key (``None``: it was not known); why not, where its key has
    another session or a seat at a table on the server (a round there would be counted
    under its name after it was freed)."""
    from stress_tui.storage.forget import forget_key

    key = session.connection.fingerprint
    assert key is not None
    server = session.server
    if any(s is not session and s.connection.fingerprint == key for s in server.sessions) or any(
        key in (table.opener, table.seated) for table in server.tables.values()
    ):
        return _("this key has another session or a table open here; leave it, then forget")
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, forget_key, key, server.data)


async def forget_from_lobby(session: Session, name: str) -> str | None:
    """The lobby's ``f``, answered yes: the key forgotten, and said so after the lobby
    (``None``); or why not, for the lobby's note."""
    done = await forget_now(session)
    if isinstance(done, str):
        return done
    session.say(_("{name} is forgotten on this server").format(name=name))
    return None


def erased_lines(name: str, found: Forgotten | None) -> list[str]:
    """What forgetting ``name`` erases (or erased), a line each."""
    from stress_tui.core.choices import FORGOTTEN
    from stress_tui.core.words import shown_name
    from stress_tui.storage.forget import Forgotten

    found = found or Forgotten()
    forgotten = shown_name(FORGOTTEN, _)
    return [
        _("the key, and its name {name} (free for another key afterwards)").format(name=name),
        _("rounds deleted (against the computer or someone forgotten): {n}").format(
            n=found.deleted
        ),
        _("replays deleted: {n}").format(n=found.replays_deleted),
        _(
            "rounds against other people, kept in their record as played by {forgotten}, "
            "without your reactions or rating: {n}"
        ).format(forgotten=forgotten, n=found.kept),
        _("their replays, kept for them, your side named {forgotten}: {n}").format(
            forgotten=forgotten, n=found.replays_kept
        ),
    ]


async def expire(server: Server) -> None:
    """Forget every key not seen for the server's ``forget_after`` days, now and once a
    day, until cancelled; how many, on the server's standard error (no name)."""
    from stress_tui.storage.forget import forget_unseen

    loop = asyncio.get_running_loop()
    while True:
        try:
            done = await loop.run_in_executor(None, forget_unseen, server.forget_after, server.data)
        except (OSError, StorageError) as error:
            print(
                f"stress-tui serve: keys not seen could not be forgotten: {error}", file=sys.stderr
            )
        else:
            if done.keys:
                print(
                    f"stress-tui serve: forgot {done.keys} keys not seen for "
                    f"{server.forget_after} days",
                    file=sys.stderr,
                    flush=True,
                )
        await asyncio.sleep(DAY)
