"""``stress-tui serve``: the game served over SSH (asyncssh), each session's table drawn on
its channel through ``terminal/channel.py``'s endpoint (``docs/serve.md``).

Identity is the public key: any key is accepted, its fingerprint names the player
(``storage/keys.py``: the name it was first given, from its SSH user name); a client
without one is let in by keyboard-interactive with no question, and plays as an unrated
guest. A session is a command: none opens the lobby (``terminal/lobby.py``: the computer
at a level, the player's record; back to it when a match is left), ``play [bot:LEVEL]``
plays one match against the computer, ``new`` opens a table for two (``Table``: a
``net.host.Host`` on the loopback address), ``join CODE`` and ``watch CODE`` reach one as
the network's joiner and spectators do (all of these need a pty); ``stats``, ``replays``
and ``replay NAME`` answer in plain text, and ``forget`` says what forgetting the key
erases, ``forget NAME`` erases it (``keyrecord.forget``). The session's terminal is one
``ChannelEndpoint``, taken again by each screen it runs.

Nothing a client sends ends the server or another session: the ``Limits`` bound the
connections from one address, the sessions in all, each session's input bytes a second
(the rest is dropped) and its time without a key; a crash in one session's game ends that
session alone (status 1, the traceback on the server's standard error). SIGTERM or SIGINT
ends every game (each keeps its replay and record as at a local quit), waits for the
tables' rounds to be written (``Server.writer``), and then ends the server.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import signal
import socket
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from stress_tui.core.choices import COMPUTER, GUEST
from stress_tui.core.settings import Settings
from stress_tui.terminal import keyrecord, seats
from stress_tui.terminal.channel import FRAME_BUFFER, UNSAID_LOCALE, ChannelEndpoint
from stress_tui.terminal.lang import N_, _

if TYPE_CHECKING:
    from stress_tui.terminal.tables import Table

DEFAULT_LEVEL = "normal"
"""The computer's level when the session does not say."""

EXIT_USAGE = 2
EXIT_IDLE = 129
EXIT_STOPPED = 143

NO_SUCH_COMMAND = N_(
    "stress-tui: no such command here; try: play [bot:LEVEL], new [RULES], join CODE, "
    "watch CODE, stats, replays, replay NAME, or forget"
)
"""What a session asking for any other command is told."""

ROUND_TRIP_EVERY = 1.0
"""Seconds a connection's round trip, as the kernel last said it, is used before the kernel
is asked again: a table for two reads it for every frame's title and every key, and the
kernel's smallest over its window of minutes seldom moves."""

UNFIT_TERMS = frozenset({"", "dumb"})
"""Terminal types that cannot move the cursor: not played on."""


@dataclass(frozen=True)
class Limits:
    """What one client may take of the server (``docs/serve.md``)."""

    per_address: int = 4
    """Connections open at once from one address."""
    sessions: int = 64
    """Sessions open at once, from everyone."""
    tables: int = 32
    """Tables for two open at once (one a key), a table kept for its dropped opener
    included."""
    input_rate: int = 2048
    """Bytes a second a session's input may bring (a burst of twice as much); the rest is
    dropped."""
    idle: float = 600.0
    """Seconds a game goes on without a key before its session is ended."""
    login: float = 30.0
    """Seconds a client has to finish the SSH handshake and log in."""


class Bucket:
    """A token bucket: ``rate`` a second, at most ``2 * rate`` held."""

    def __init__(self, rate: int, now: float) -> None:
        self.rate = rate
        self.tokens = 2.0 * rate
        self.at = now

    def take(self, wanted: int, now: float) -> int:
        """How many of ``wanted`` bytes may pass now."""
        self.tokens = min(2.0 * self.rate, self.tokens + (now - self.at) * self.rate)
        self.at = now
        allowed = min(wanted, int(self.tokens))
        self.tokens -= allowed
        return allowed


class Server:
    """The sessions of one ``serve``: its limits, who is connected, the games running."""

    def __init__(self, limits: Limits, data: Path, forget_after: int = 0) -> None:
        self.limits = limits
        self.data = data
        self.forget_after = forget_after
        """Days a key may go unseen before it is forgotten (0: kept for ever)."""
        self.addresses: Counter[str] = Counter()
        self.sessions: set[Session] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.tables: dict[str, Table] = {}
        """The tables for two open now, by their join code."""
        self.writer = ThreadPoolExecutor(1, thread_name_prefix="stress-tui record")
        """The one thread the tables' rounds are written to the record and replays on, in
        order, so that a commit holds up no session (``net.hosted.HostedRounds.writer``)."""

    def connection(self) -> Connection:
        return Connection(self)

    def stop(self) -> None:
        """End every game (as SIGTERM would end a local one)."""
        for session in list(self.sessions):
            session.end(EXIT_STOPPED)

    def close_table(self, code: str) -> None:
        """Close the table ``code`` (its opener did not come back in time)."""
        task = asyncio.ensure_future(self.close_table_now(code))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close_table_now(self, code: str) -> None:
        """Close the table ``code``: everyone at it is told its host left."""
        table = self.tables.pop(code, None)
        if table is None:
            return
        if table.away is not None:
            table.away.cancel()
            table.away = None
        await table.host.leave()

    async def close_tables(self) -> None:
        """Close every table (the server stops)."""
        for code in list(self.tables):
            await self.close_table_now(code)


class Connection(asyncssh.SSHServer):
    """One client's SSH connection: its address counted, any key accepted."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = ""
        self.too_many = False
        self.fingerprint: str | None = None
        """The fingerprint of the key the client logged in with (``None``: a guest)."""
        self.user = ""
        self.rtt: float | None = None
        """The kernel's round trip as last asked (``round_trip``)."""
        self.rtt_asked = -ROUND_TRIP_EVERY
        """When the kernel was last asked (``time.monotonic``)."""

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else ""
        self.server.addresses[self.address] += 1
        self.too_many = self.server.addresses[self.address] > self.server.limits.per_address
        """Whether the address has more connections than it may (this one is turned away
        once SSH has begun, so that the client is told why)."""

    def round_trip(self) -> float | None:
        """The smallest round trip the kernel measured on this connection, in seconds
        (``net.pathrtt.kernel_rtt``, asked at most every ``ROUND_TRIP_EVERY``; ``None``:
        unknown)."""
        from stress_tui.net.pathrtt import kernel_rtt

        if self.conn is None:
            return None
        now = time.monotonic()
        if now >= self.rtt_asked + ROUND_TRIP_EVERY:
            self.rtt, self.rtt_asked = kernel_rtt(self.conn.get_extra_info("socket")), now
        return self.rtt

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.addresses[self.address] -= 1
        if self.server.addresses[self.address] <= 0:
            del self.server.addresses[self.address]

    def begin_auth(self, username: str) -> bool:
        if self.too_many:
            raise asyncssh.DisconnectError(
                asyncssh.DISC_TOO_MANY_CONNECTIONS, "too many connections from your address"
            )
        self.user = username
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.fingerprint = key.get_fingerprint("sha256")
        return True

    def kbdint_auth_supported(self) -> bool:
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.fingerprint = None  # no key: a guest
        return True

    def session_requested(self) -> Session | bool:
        if len(self.server.sessions) >= self.server.limits.sessions:
            return False
        return Session(self)


class Session(asyncssh.SSHServerSession[bytes]):
    """One session: a command, or a game on the client's terminal."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.server = connection.server
        self.server.sessions.add(self)
        self.loop = asyncio.get_running_loop()
        """The server's loop, kept: asking for it costs a system call each time (Python
        checks the process's id), and a key would ask three times."""
        self.chan: Any = None
        self.command = ""
        self.pty: tuple[str, int, int] | None = None
        """The client's terminal type, width and height (``None``: no pty asked for)."""
        self.endpoint: ChannelEndpoint | None = None
        self.bucket: Bucket | None = None
        self.idle: asyncio.TimerHandle | None = None
        """The idle limit's timer, once the game has the terminal (``set_idle``)."""
        self.last_key = 0.0
        """When the client's last key came (the loop's time)."""
        self.ended_with: int | None = None
        self.sent: dict[str, str] = {}
        """The environment the client's ``ssh`` sent (``LANG``, ``COLORFGBG``...)."""
        self.writable = asyncio.Event()
        """Set while the channel takes more output (a file sent waits for it)."""
        self.writable.set()
        self.lost = False
        """Whether the connection has gone."""
        self.context: contextvars.Context | None = None
        """The session's own context (its language): what the channel says is handled in
        it (``later``)."""

    # ------------------------------------------------------------------ asyncssh's calls

    def connection_made(self, chan: Any) -> None:
        self.chan = chan
        chan.set_write_buffer_limits(high=FRAME_BUFFER, low=FRAME_BUFFER // 4)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], _m: Any) -> bool:
        self.pty = (term_type, term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def session_started(self) -> None:
        task = asyncio.ensure_future(self.run())
        self.server.tasks.add(task)
        task.add_done_callback(self.server.tasks.discard)

    def data_received(self, data: bytes, datatype: Any) -> None:
        now = self.loop.time()
        if self.bucket is None:
            self.bucket = Bucket(self.server.limits.input_rate, now)
        allowed = self.bucket.take(len(data), now)
        if allowed and self.endpoint is not None:
            self.later(self.endpoint.data, data[:allowed])
            self.last_key = now

    def terminal_size_changed(self, width: int, height: int, _pw: int, _ph: int) -> None:
        if self.endpoint is not None:
            self.later(self.endpoint.resize, width, height)

    def eof_received(self) -> bool:
        self.gone()
        return True  # half open: a command's answer still goes out

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self.writable.set()
        self.gone()
        self.server.sessions.discard(self)

    def pause_writing(self) -> None:
        self.writable.clear()
        if self.endpoint is not None:
            self.endpoint.pause()

    def resume_writing(self) -> None:
        self.writable.set()
        if self.endpoint is not None:
            self.later(self.endpoint.drained)

    # ------------------------------------------------------------------ ours

    def later(self, callback: Callable[..., object], *args: object) -> None:
        """Run ``callback(*args)`` on the loop's next turn, in the session's context."""
        self.loop.call_soon(callback, *args, context=self.context)

    def gone(self) -> None:
        if self.idle is not None:
            self.idle.cancel()
        if self.endpoint is not None:
            self.later(self.endpoint.hang_up)

    def end(self, code: int) -> None:
        self.ended_with = code
        if self.endpoint is not None:
            self.later(self.endpoint.end, code)

    def set_idle(self) -> None:
        """Watch for the idle limit from now on: the game ends once that long has gone by
        without a key. A key only notes its time; the timer, when due, looks whether one
        came meanwhile and waits again from it."""
        if self.idle is not None:
            self.idle.cancel()
        self.last_key = self.loop.time()
        self.idle_from(self.last_key)

    def idle_from(self, key: float) -> None:
        due = key + self.server.limits.idle
        self.idle = self.loop.call_at(due, self.idle_due, due)

    def idle_due(self, due: float) -> None:
        if self.last_key + self.server.limits.idle <= due:
            self.end(EXIT_IDLE)
        else:
            self.idle_from(self.last_key)

    def say(self, line: str) -> None:
        if self.pty is not None:  # at the start of a line, wherever the cursor was left
            line = "\r" + line + "\r\n"
        else:
            line += "\n"
        self.chan.write(line.encode("utf-8", "replace"))

    async def run(self) -> None:
        words = self.command.split()
        code = EXIT_USAGE
        try:
            self.speak_the_clients()
            if not words:
                code = await self.lobby()
            elif words[0] == "play":
                code = await self.play(words[1:])
            elif words == ["stats"]:
                code = await keyrecord.stats(self)
            elif words[0] == "new":
                code = await seats.new_table(self, " ".join(words[1:]))
            elif words[0] in ("join", "watch"):
                code = await seats.at_table(self, words[1:], watch=words[0] == "watch")
            elif words == ["replays"]:
                code = await keyrecord.replays(self)
            elif words[0] == "replay":
                code = await keyrecord.replay(self, words[1:])
            elif words[0] == "forget":
                code = await keyrecord.forget(self, words[1:])
            else:
                self.say(_(NO_SUCH_COMMAND))
        except Exception as error:  # one session's crash ends that session alone
            print(f"stress-tui serve: a session crashed: {error!r}", file=sys.stderr)
            traceback.print_exc()
            code = 1
        finally:
            self.server.sessions.discard(self)
        if self.chan is not None:
            self.chan.exit(code)

    def speak_the_clients(self) -> None:
        """Speak the language the client's environment asks for (``LANG`` and the others
        gettext reads, where its ``ssh`` sends them), else the server's, in this session."""
        from stress_tui.terminal.lang import ENVIRONMENT, from_environment, speak_here

        sent = self.chan.get_environment()
        asked = {name: str(sent[name]) for name in ENVIRONMENT if name in sent}
        if asked:
            speak_here(from_environment(asked))
        self.sent = {str(name): str(value) for name, value in sent.items()}
        self.context = contextvars.copy_context()

    async def identity(self) -> str:
        """The player's name: the key's, or the guest's."""
        fingerprint = self.connection.fingerprint
        if fingerprint is None:
            return GUEST
        from stress_tui.storage.keys import name_for

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, name_for, fingerprint, self.connection.user, self.server.data / "keys.sqlite"
        )

    def unfit_terminal(self) -> int | None:
        """Where the session cannot show a screen (no pty, or a terminal that cannot move
        its cursor): says why and gives the exit status; ``None`` where it can."""
        if self.pty is None:
            self.say(_("stress-tui: the game needs a terminal: ssh -t"))
            return EXIT_USAGE
        kind = self.pty[0]
        if kind in UNFIT_TERMS:
            self.say(
                _("stress-tui: this terminal cannot move its cursor (TERM={term})").format(
                    term=kind or "?"
                )
            )
            return EXIT_USAGE
        return None

    def take_terminal(self) -> ChannelEndpoint:
        """The client's terminal as the session's endpoint, for every screen it runs."""
        assert self.pty is not None
        _kind, width, height = self.pty
        self.endpoint = ChannelEndpoint(self.chan, width, height)
        self.endpoint.environ = {**UNSAID_LOCALE, **self.sent}  # its COLORFGBG, its locale
        self.set_idle()
        return self.endpoint

    async def play(self, words: list[str]) -> int:
        """``play [bot:LEVEL]``: one match against the computer, then the session ends."""
        from stress_tui.players.bot import LEVELS

        level = DEFAULT_LEVEL
        if words:
            wanted = words[0].removeprefix("bot:")
            if len(words) > 1 or wanted not in LEVELS:
                self.say(
                    _("stress-tui: play bot:LEVEL, the level one of: {levels}").format(
                        levels=", ".join(LEVELS)
                    )
                )
                return EXIT_USAGE
            level = wanted
        unfit = self.unfit_terminal()
        if unfit is not None:
            return unfit
        name = await self.identity()
        if self.ended_with is not None:
            return self.ended_with
        endpoint = self.take_terminal()
        code = await self.game(endpoint, name, level)
        self.say_why_it_ended(endpoint)
        return code

    async def lobby(self) -> int:
        """The lobby, and each match chosen there (``terminal/lobby.py``'s ``visit``)."""
        from stress_tui.terminal.lobby import visit

        return await visit(self)

    async def game(self, endpoint: ChannelEndpoint, name: str, level: str) -> int:
        """A match against the computer at ``level`` on ``endpoint``; its exit status (0:
        the player left it)."""
        from stress_tui.terminal.app import App

        settings = here(players=("human", f"bot:{level}"), names=(name, COMPUTER))
        app = App(endpoint, settings)
        if self.connection.fingerprint is None:
            app.log.record_off = "guest"  # a guest's rounds are neither counted nor rated
        return await app.main()

    def say_why_it_ended(self, endpoint: ChannelEndpoint) -> None:
        """After the screens, on the client's own screen: why the server ended them."""
        if endpoint.gone:
            return
        if self.ended_with == EXIT_IDLE:
            self.say(
                _("stress-tui: the game ended after {seconds} seconds without a key").format(
                    seconds=f"{self.server.limits.idle:g}"
                )
            )
        elif self.ended_with == EXIT_STOPPED:
            self.say(_("stress-tui: the server is stopping; the round is kept as far as it went"))

    def refused(self, why: str | None) -> int | None:
        """``why`` said, and the exit status for it (``None``: nothing refused)."""
        if why is None:
            return None
        self.say("stress-tui: " + why)
        return 1


def here(**fields: Any) -> Settings:
    """A session's settings: ``fields``, the keys placed for the keyboard of the language
    the session speaks (as a local game's are, where neither a flag nor the config file
    names one)."""
    from stress_tui.core.keyboards import DEFAULT_KEYBOARD, LANGUAGE_KEYBOARDS
    from stress_tui.terminal.lang import language

    return Settings(keyboard=LANGUAGE_KEYBOARDS.get(language(), DEFAULT_KEYBOARD), **fields)


def host_key(path: Path) -> asyncssh.SSHKey:
    """The server's host key at ``path``: made (ed25519, mode 0600) if there is none."""
    import os

    try:
        return asyncssh.read_private_key(path)
    except FileNotFoundError:
        pass
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(key.export_private_key())
    return key


async def serve(
    sock: socket.socket,
    key: asyncssh.SSHKey,
    limits: Limits,
    data: Path,
    announce: Any,
    forget_after: int = 0,
) -> int:
    """Serve on ``sock`` (``net.addresses.listening_socket``'s) until SIGTERM or SIGINT,
    each handled as before once it ends; ``announce(port)`` once listening; the keys not
    seen for ``forget_after`` days forgotten at the start and once a day (0: never). The
    exit status."""
    server = Server(limits, data, forget_after)
    expiring = asyncio.ensure_future(keyrecord.expire(server)) if forget_after else None
    acceptor = await asyncssh.create_server(
        server.connection,
        sock=sock,
        server_host_keys=[key],
        encoding=None,
        line_editor=False,
        login_timeout=limits.login,
        keepalive_interval=30,
        keepalive_count_max=4,
    )
    loop = asyncio.get_running_loop()
    stopping = loop.create_future()

    def stop() -> None:
        if not stopping.done():
            stopping.set_result(None)

    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    for sig in previous:
        loop.add_signal_handler(sig, stop)
    announce(acceptor.sockets[0].getsockname()[1])
    # What the server holds for its life (its modules, asyncssh's, the listener) is left
    # out of the garbage collector's full passes from now on: each then walks the
    # sessions' objects alone (at ten tables for two, two fifths of what it walked), as
    # does the full pass a game against the computer asks for before each round.
    gc.freeze()
    try:
        await stopping
    finally:
        if expiring is not None:
            expiring.cancel()
        acceptor.close()
        server.stop()
        if server.tasks:
            await asyncio.wait(set(server.tasks), timeout=5.0)
        await server.close_tables()
        await asyncio.to_thread(server.writer.shutdown)  # every round written
        await acceptor.wait_closed()
        gc.unfreeze()
        for sig, handler in previous.items():  # every game over: each signal as it was
            loop.remove_signal_handler(sig)  # which leaves it at SIG_DFL
            if handler is not None:
                signal.signal(sig, handler)
    return 0
