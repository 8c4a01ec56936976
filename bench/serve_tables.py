"""Many SSH clients at once on one ``stress-tui serve``: the server's CPU per active table,
its memory per session, and a key to the screen over SSH on loopback beside the same key
at one keyboard, in one run.

    python bench/serve_tables.py [--tables 1 10 50 100] [--seconds 20] [--n 200] [--two]

**Tables.** One server (``python -m stress_tui serve`` on 127.0.0.1, a process and a
session of its own, as a service runs: its CPU and memory are its own, and where the
kernel shares the machine between sessions, ``sched_autogroup``, so is its share), and
clients added to it in steps (``--tables``): each an asyncssh client with a key of its
own, asking for an 80x24 pty and ``play bot:normal`` (an active table: a person against
the computer), ``PER_PROCESS`` of them to a process, each process a session of its own.
Each presses a key at a person's pace, one every ``GAP`` (100 to 300 ms, drawn at random):
a pile key of the one-player layout at random, sometimes the ready key (``g``) or Enter
(the next round, on the result); it plays badly (a pile key that does not fit locks it
out a moment) but never stops, and it reads everything the server sends. Once every
client of a step has its table, and ``SETTLE`` seconds later, the step is measured for
``--seconds``:

- the server's CPU per table: the time on a CPU of every thread of the server process
  (``/proc/PID/task/*/schedstat``, as ``bench/latency.py`` counts), over the seconds and
  the tables: a share of one core, and so how many such tables one core holds; beside it
  the time the server waited for a CPU while it could run (schedstat's second field), as
  a multiple of its time on one: where the machine gives the server less than it asks
  for, keys queue, and a server that reads several keys of a table at a turn draws once
  for them, so that its CPU per table then says less than it would need;
- memory per session: the server's resident memory (``/proc/PID/status``'s ``VmRSS``)
  at the step, less its resident memory with one table, over the sessions added: a
  share of the one-table server's;
- the help key's answer: every ``PROBE_EVERY`` keys a client presses ``?`` (the help,
  drawn at once whatever the table is doing; then ``?`` again, which closes it) and times
  it from its write until the first bytes back; the median at the step against the
  median at the first step (one table), in the same run: how much the tables slow a key;
- the keys pressed against a person's pace at every table: below 100%, the clients
  themselves did not keep up, and the step says less.

With ``--two`` the tables are tables for two (``docs/serve.md``): two clients each, one
opening it (``new``, its join code read from its waiting screen), the other joining it
(``join CODE``). There each client plays as a person does (``Person``): it reads the table
from its screen (a pyte screen fed with what it reads: its own row at the bottom, the two
play piles), waits a person's reaction, and presses the key of a card that fits, the
stress key when the piles show two equal ranks, the ready key when nothing fits, and Enter
on the result; one aimed key in twenty slips to another pile key (``SLIP``). Its reaction
is the game's own normal computer player's (``LEVELS["normal"]``'s ``look``: a lognormal,
median 0.8 s, within the bot's floor and cap), so that a client keys about as often as a
person who plays at that level. Keys at random, as against the computer, would be far from
a person here: a pile key at random fits about one time in seven, so such a player spends
most of the round locked out, its count in tenths drawn ten frames a second. Measured from
the server's replays of two tables for 30 s (``how_they_played``, printed at every run):
keys at random, every 0.1-0.3 s, gave 5 keys a second a player, 0.80 lockouts a second and
16 cards played in 55 s of rounds; these clients give about 1.2 keys and 0.7-0.8 cards a
second and 0.03-0.06 lockouts a second, 4-8% of their plays; the game's own levels against
each other (``sim``, 200 rounds each) make 0.5-1.3 plays a second and are locked out
0.04-0.07 times a second, 3-10% of their plays (their races lost past the race window). No
key is timed at a table for two: the help holds the match for both until one of them plays
on. Memory is then per session, two a table.

The server's standard error is read for sessions that crashed (none should).
``--profile FILE`` runs the tables' server under cProfile (wall-clock times).

**Key to screen.** As ``bench/net_latency.py`` measures the network's joiner against one
keyboard, in alternating blocks of keys, each program started afresh for each block:
``python -m stress_tui --p2 bot:normal`` in an 80x24 pty (pyte reads it, ``tests/tty.py``),
against the real OpenSSH client (``ssh -t ... play bot:normal``) in the same pty talking
to a second server on loopback, both at the position ``bot_proof_position`` (through the
``STRESS_TUI_POSITION`` test hook; the server's process has it, so every table there
starts at it): the key ``a`` plays the player's first pile onto the left pile again and
again, while the computer, whose row never fits the left pile and whose draw pile is
empty, plays nothing. The time is from writing the key into the pty until the screen
shows the card on the left pile, the keys ``HUMAN_GAP`` apart at least. Beside it, per
key, each process on the way (the game; the server and the ``ssh`` client) its time on a
CPU and its time waiting for one (schedstat, as above, from the gap before a block's first
key to the gap after its last): a key over SSH wakes three processes where one keyboard
wakes one, and on a busy machine each waits its turn. Needs ``ssh`` (Debian's
openssh-client); without it the key to screen is left out.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncssh
import pyte

from bench.bench_table import COLS, GAME, LAY, ROWS, label, left_top
from bench.latency import Usage, alternate, measure_keys, summarize
from stress_tui.core.cards import Card, Suit
from stress_tui.core.decks import RANK_NAMES
from stress_tui.players.bot import FLOOR, LEVELS, PLAY_CAP
from tests.screen import ScreenFilter, render_line, say_ready
from tests.tty import TtySession

GAP = (0.1, 0.3)
"""Seconds between a client's keys, drawn at random: a person's pace."""

KEYS = [*"asdfjkl;"] * 4 + ["g", "g", "\r"]
"""What a client presses: the one-player layout's pile keys (``docs/keys.md``), the ready
key now and then, and Enter, which goes on from a round's result."""

SLIP = 0.05
"""The share of a person's aimed pile keys that go to another pile key: a stated
assumption (a slip of the finger one key in twenty); their other misplays are races lost
to the opponent past the race window, which the two clients play out."""

PERSON = LEVELS["normal"]
"""Whose reaction a client at a table for two has: the game's normal computer player's."""

RANKS = {name: rank for rank, name in RANK_NAMES.items()}


class Person:
    """A client at a table for two, playing as a person does: the table read from its
    screen (its own row at the bottom, the play piles between the rows), a reaction, then
    the key for what it saw."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.filter = ScreenFilter()
        """What pyte would fail on or print as text, dropped (as in the tests)."""

    def read(self, data: bytes) -> None:
        """What the server wrote, onto the screen."""
        self.stream.feed(self.filter.feed(data))

    def reaction(self) -> float:
        """Seconds to the next key: ``PERSON``'s look, drawn as the bot draws it."""
        seconds = self.rng.lognormvariate(math.log(PERSON.look), PERSON.sigma)
        return min(max(seconds, FLOOR), PLAY_CAP)

    def rank(self, y: int, x: int) -> int | None:
        """The rank of the card drawn at (y, x), if one is."""
        label = render_line(self.screen.buffer[y], COLS)[x + 1 : x + LAY.card_w - 1].strip()
        return RANKS.get(label[:-1]) if label else None

    def key(self) -> str:
        """The key a person presses at the table as the screen shows it now."""
        step = LAY.card_w + LAY.gap
        row = [self.rank(LAY.rows_y[1], LAY.row_x + i * step) for i in range(4)]
        if row == [None] * 4:
            return "\r"  # no table: the result (Enter goes on)
        piles = [self.rank(LAY.piles_y, x) for x in LAY.pile_x]
        if piles[0] is not None and piles[0] == piles[1]:
            return " "  # stress
        keys = ("asdf", "jkl;")
        fits = [
            keys[target][i]
            for i, card in enumerate(row)
            for target, pile in enumerate(piles)
            if card is not None and pile is not None and (card - pile) % 13 in (1, 12)
        ]
        if not fits:
            return "g"  # ready to flip
        if self.rng.random() < SLIP:
            return self.rng.choice([k for k in "asdfjkl;" if k not in fits] or fits)
        return self.rng.choice(fits)


PROBE = "?"
"""The key a client times, every ``PROBE_EVERY`` keys, and presses again as its next key:
the help, which is drawn at once whatever the table is doing (a pile key may draw
nothing: a key pressed while its player is locked out waits for the lockout's next
count), and closed again."""

PROBE_EVERY = 10

SETTLE = 3.0
"""Seconds from the last client of a step having its table to the measuring."""

BLOCK = 20
"""Keys measured in a row for one setting before the other has its turn."""

WARMUP = 3

SSH_OPTIONS = (
    *("-o", "StrictHostKeyChecking=no"),
    *("-o", "UserKnownHostsFile=/dev/null"),
    *("-o", "LogLevel=ERROR"),
    *("-o", "BatchMode=yes"),
)


def scheduled(pid: int) -> tuple[float, float]:
    """The seconds every thread of process ``pid`` has had on a CPU so far, and waited for
    one while it could run (``/proc/PID/task/*/schedstat``'s first two fields)."""
    ran = waited = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        with suppress(OSError, ValueError, IndexError):  # a thread that ended
            fields = stat.read_text().split()
            ran, waited = ran + int(fields[0]), waited + int(fields[1])
    return ran / 1e9, waited / 1e9


def rss_kib(pid: int) -> int:
    """The resident memory of process ``pid``, in KiB (``/proc/PID/status``'s ``VmRSS``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


@dataclass
class Served:
    """A ``stress-tui serve`` running in a process of its own."""

    process: subprocess.Popen[str]
    port: int

    @property
    def pid(self) -> int:
        return self.process.pid


@contextmanager
def serving(
    data: Path, sessions: int, env: Mapping[str, str] | None = None, profile: str | None = None
) -> Iterator[Served]:
    """A server on 127.0.0.1 (a free port) taking ``sessions`` sessions, all from this
    machine's one address, its standard error in ``data/server.err``; SIGTERM at the
    end. With ``profile``, it runs under cProfile, its figures written there."""
    errors = (data / "server.err").open("w")
    profiled = [] if profile is None else ["-m", "cProfile", "-o", profile]
    process = subprocess.Popen(
        [
            sys.executable,
            *profiled,
            "-m",
            "stress_tui",
            "serve",
            *("--port", "0", "--bind", "127.0.0.1", "--data-dir", str(data)),
            *("--max-per-address", str(sessions), "--max-sessions", str(sessions)),
            *("--max-tables", str(sessions)),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=errors,
        start_new_session=True,  # as a service is: a share of the machine of its own
        text=True,
        env={
            **os.environ,
            "STRESS_TUI_CONFIG": str(data / "no-config.toml"),
            **(env or {}),
        },
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if "ssh -t -p " not in line:
            raise RuntimeError(f"the server did not start: {line!r}")
        yield Served(process, int(line.split("ssh -t -p ")[1].split()[0]))
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        errors.close()


# ---------------------------------------------------------------------- the tables


class Player(asyncssh.SSHClientSession[bytes]):
    """One client's session: what it read, and how long each probe took to bring bytes."""

    def __init__(self) -> None:
        self.read = 0
        """Bytes read so far."""
        self.frames = 0
        """Pieces of data read so far: the frames the server wrote, one a write."""
        self.keys = 0
        """Keys pressed so far."""
        self.sent_at: float | None = None
        """When the probe not yet answered was written."""
        self.answers: list[float] = []
        """Seconds from each probe to the first bytes after it."""
        self.started = asyncio.Event()
        """Set at the first bytes: the table is there."""
        self.closed = asyncio.Event()
        self.seen = bytearray()
        """The first bytes read (where an opener finds its table's code)."""
        self.person: Person | None = None
        """At a table for two, the person whose screen this is."""

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.read += len(data)
        self.frames += 1
        if len(self.seen) < 64 * 1024:
            self.seen += data
        if self.person is not None:
            self.person.read(data)
        if self.sent_at is not None:  # the probe's answer
            self.answers.append(time.perf_counter() - self.sent_at)
            self.sent_at = None
        self.started.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self.started.set()


CODE = re.compile(rb"join ([a-z]+(?:-[a-z]+){3})")
"""A table's join code on its opener's waiting screen."""


async def play(
    port: int,
    index: int,
    stop: asyncio.Event,
    players: list[Player],
    table: asyncio.Future[str] | None = None,
    opens: bool = False,
) -> None:
    """One client with a key of its own at its table, pressing keys until ``stop``: the
    computer's, or with ``table`` a table for two, which it opens (``opens``: the code
    read from its screen is ``table``'s result) or joins (``table``'s code)."""
    command = "play bot:normal"
    if table is not None:
        command = "new" if opens else "join " + await table
    key = asyncssh.generate_private_key("ssh-ed25519")
    rng = random.Random(index)
    async with asyncssh.connect(
        "127.0.0.1",
        port,
        username=f"bot{index}",
        client_keys=[key],
        known_hosts=None,
        keepalive_interval=0,
    ) as conn:
        chan, session = await conn.create_session(
            Player,
            command,
            term_type="xterm-256color",
            term_size=(COLS, ROWS),
            encoding=None,
        )
        assert isinstance(session, Player)
        player = session
        if table is not None:
            player.person = person = Person(rng)
        players.append(player)
        await player.started.wait()
        if table is not None and opens:
            while not (found := CODE.search(player.seen)):
                if player.closed.is_set():
                    raise RuntimeError("a table closed before its code was read")
                await asyncio.sleep(0.05)
            table.set_result(found.group(1).decode())
        while not stop.is_set() and not player.closed.is_set():
            wait = rng.uniform(*GAP) if table is None else person.reaction()
            with suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), wait)
            if stop.is_set() or player.closed.is_set():
                break
            player.keys += 1
            if table is not None:
                chan.write(person.key().encode())
                continue
            probe = player.keys % PROBE_EVERY in (0, 1)  # the help opened, then closed
            if probe:
                player.sent_at = time.perf_counter()
            chan.write((PROBE if probe else rng.choice(KEYS)).encode())
        chan.close()


async def clients(port: int, first: int, count: int, two: bool = False) -> None:
    """``count`` clients (keys ``first`` on) at their tables on the server at ``port``
    (with ``two``, tables for two: each pair of clients at one, the first opening it),
    told what to do on standard input, a line at a time: ``mark`` (from now on), ``report``
    (what the clients did since the mark: one line of JSON), or the end of the input
    (leave). Says ``ready`` once every client has its table."""
    import json

    stop = asyncio.Event()
    players: list[Player] = []
    tasks = []
    for i in range(count):
        if two and i % 2 == 0:
            table: asyncio.Future[str] | None = asyncio.get_running_loop().create_future()
        elif not two:
            table = None
        opens = two and i % 2 == 0
        tasks.append(asyncio.create_task(play(port, first + i, stop, players, table, opens)))
    loop = asyncio.get_running_loop()
    try:
        while len(players) < count:
            failed = [t for t in tasks if t.done() and t.exception() is not None]
            if failed:
                raise RuntimeError(f"a client failed: {failed[0].exception()!r}")
            await asyncio.sleep(0.05)
        await asyncio.wait_for(asyncio.gather(*(p.started.wait() for p in players)), 60)
        print("ready", flush=True)
        marks = (0, 0, 0, 0)
        while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
            keys = sum(p.keys for p in players)
            read = sum(p.read for p in players)
            frames = sum(p.frames for p in players)
            closed = sum(p.closed.is_set() for p in players)
            if line == "mark":
                for p in players:
                    p.answers.clear()
                marks = (keys, read, frames, closed)
                print("marked", flush=True)
            elif line == "report":
                answers = [a for p in players for a in p.answers]
                keys, read, frames = keys - marks[0], read - marks[1], frames - marks[2]
                closed -= marks[3]
                print(json.dumps([answers, keys, read, frames, closed]), flush=True)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)


PER_PROCESS = 25
"""Clients one process of them plays: each process is a session of its own (its own
share of the machine where the kernel shares it between sessions, ``sched_autogroup``),
so that the clients keep a person's pace beside a loaded server."""


@dataclass
class Step:
    """What one step of the tables measured."""

    tables: int
    sessions: int
    seconds: float
    cpu: float
    """The server's CPU seconds over the step."""
    waited: float
    """The seconds the server waited for a CPU while it could run, over the step."""
    rss: int
    """The server's resident memory at the step, KiB."""
    answers: list[float] = field(default_factory=list)
    keys: int = 0
    read: int = 0
    frames: int = 0
    """Frames the clients read (``Player.frames``)."""
    closed: int = 0
    """Clients whose session ended during the step (none should)."""

    @property
    def share(self) -> float:
        """The server's CPU per table, a share of one core."""
        return self.cpu / self.seconds / self.tables

    @property
    def pace(self) -> float:
        """The keys pressed, against a person's pace at every table (one key every mean
        ``GAP``, or at a table for two every mean reaction)."""
        return self.keys / (self.sessions * self.seconds / mean_gap(self.sessions > self.tables))


def mean_gap(two: bool) -> float:
    """A client's mean seconds between keys (with ``two``, at a table for two: a
    ``Person``'s mean reaction, the lognormal's median times exp(sigma squared / 2))."""
    if two:
        return PERSON.look * math.exp(PERSON.sigma**2 / 2)
    return statistics.fmean(GAP)


def how_they_played(data: Path) -> str:
    """How the players of the rounds the server kept in ``data`` played (every round,
    unfinished ones too): their actions, cards and lockouts a second, and the share of
    their plays that locked them out."""
    from stress_tui.core.actions import Flip, Play
    from stress_tui.core.stats import round_stats
    from stress_tui.storage.replay import load

    seconds = actions = plays = cards = lockouts = 0.0
    for path in data.rglob("*.jsonl*"):
        replay = load(path)
        stats = round_stats(replay.new_game(), replay.actions)
        seconds += 2 * stats.seconds  # a player's seconds
        actions += sum(not isinstance(a, Flip) for a in replay.actions)
        plays += sum(isinstance(a, Play) for a in replay.actions)
        cards += sum(p.cards_played for p in stats.players)
        lockouts += sum(p.lockouts for p in stats.players)
    if not seconds:
        return "no round kept"
    return (
        f"a player's actions {actions / seconds:.2f} a second, cards played"
        f" {cards / seconds:.2f} a second, lockouts {lockouts / seconds:.3f} a second"
        f" ({100 * lockouts / max(plays, 1):.0f}% of {plays:.0f} plays)"
    )


def tell(process: subprocess.Popen[str], line: str) -> str:
    """Tell a process of clients ``line``; its answer."""
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(line + "\n")
    process.stdin.flush()
    answer = process.stdout.readline()
    if not answer:
        raise RuntimeError("a process of clients ended")
    return answer.strip()


def tables(port: int, pid: int, steps: list[int], seconds: float, two: bool) -> list[Step]:
    """Clients added to the server at ``port`` (process ``pid``) up to each of ``steps``
    tables (with ``two``, tables for two: two clients each), in processes of at most
    ``PER_PROCESS`` clients, each step measured for ``seconds``."""
    import json

    processes: list[subprocess.Popen[str]] = []
    taken: list[Step] = []
    have = 0
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    try:
        seats = 2 if two else 1
        for count in steps:
            started = []
            while have < count * seats:
                more = min(PER_PROCESS - PER_PROCESS % seats, count * seats - have)
                argv = [sys.executable, __file__, "--clients", str(port), str(have), str(more)]
                argv += ["--two"] if two else []
                process = subprocess.Popen(
                    argv,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    env=env,
                    start_new_session=True,
                )
                processes.append(process)
                started.append(process)
                have += more
            for process in started:
                assert process.stdout is not None
                if process.stdout.readline().strip() != "ready":
                    raise RuntimeError("a process of clients did not get its tables")
            time.sleep(SETTLE)
            for process in processes:
                tell(process, "mark")
            (ran, waited), start = scheduled(pid), time.perf_counter()
            time.sleep(seconds)
            (ran_now, waited_now), elapsed = scheduled(pid), time.perf_counter() - start
            step = Step(
                count, count * seats, elapsed, ran_now - ran, waited_now - waited, rss_kib(pid)
            )
            for process in processes:
                answers, keys, read, frames, closed = json.loads(tell(process, "report"))
                step.answers += answers
                step.keys += keys
                step.read += read
                step.frames += frames
                step.closed += closed
            taken.append(step)
            print(
                f"  {count:4} tables: server CPU {100 * step.share:.2f}% of one core a table,"
                f" RSS {step.rss} KiB, keys at {100 * step.pace:.0f}% of a person's pace",
                file=sys.stderr,
                flush=True,
            )
    finally:
        for process in processes:
            assert process.stdin is not None
            process.stdin.close()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return taken


# ---------------------------------------------------------------------- key to screen


def bot_proof_position() -> tuple[str, list[Card]]:
    """A position where ``a`` (the one-player layout's key for the first pile onto the
    left pile) plays the player's first pile onto the left pile again and again, and the
    computer has nothing to play: the left pile shows a 2♠ and the cards landing on it go
    up to an 8 and down to a 2, twice, so that it never shows a rank next to the computer's
    row (10 to K), whose draw pile is empty; the right pile is empty. Returns the position
    and the cards that will land, in order."""
    cycle = [3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2]
    suits = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]
    left = Card(2, Suit.SPADES)
    used = {left}
    run: list[Card] = []
    for rank in cycle * 2:
        card = next(Card(rank, s) for s in suits if Card(rank, s) not in used)
        used.add(card)
        run.append(card)
    p1_row = [Card(9, Suit.CLUBS), Card(9, Suit.DIAMONDS), Card(14, Suit.CLUBS)]
    p2_row = [Card(rank, Suit.CLUBS) for rank in (10, 11, 12, 13)]
    p1_draw = list(reversed(run[1:]))  # the last card is drawn first
    position = (
        "rules: standard stacking=off lockout=0; phase: playing;"
        f" p1 row: {run[0]} | {' | '.join(map(str, p1_row))};"
        f" p1 draw: {' '.join(map(str, p1_draw))};"
        f" piles: {left} | -;"
        f" p2 row: {' | '.join(map(str, p2_row))}; p2 draw: -"
    )
    return position, run


def keys_block(s: TtySession, run: list[Card], count: int, usage: list[Usage]) -> list[float]:
    """``count`` samples of ``a`` played onto the left pile in session ``s``; ``usage``
    as ``measure_keys`` has it."""
    s.wait_for(lambda: left_top(s) == "2♠", 20, "the position")
    say_ready(s, timeout=10)  # the round waits for the person at the table
    return measure_keys(
        s,
        lambda _s, _i: "a",
        lambda s, i, _k: left_top(s) == label(run[i]),
        count,
        warmup=WARMUP,
        usage=usage,
    )


def on_a_cpu(pid: int) -> float:
    return scheduled(pid)[0]


def waiting(pid: int) -> float:
    return scheduled(pid)[1]


@dataclass
class KeyPath:
    """What the processes a key goes through used per key, block by block: each one's
    time on a CPU and waiting for one (``Usage``), by name."""

    used: dict[str, tuple[Usage, Usage]] = field(default_factory=dict)

    def of(self, name: str, pid: int | None = None) -> list[Usage]:
        """The two ``Usage`` of ``name`` (``pid``: that process's, else the session's)."""
        if name not in self.used:
            ran: Callable[[int], float] = on_a_cpu
            wait: Callable[[int], float] = waiting
            if pid is not None:
                ran, wait = (lambda _: on_a_cpu(pid)), (lambda _: waiting(pid))
            self.used[name] = (Usage(ran), Usage(wait))
        return list(self.used[name])

    def said(self) -> str:
        return ", ".join(
            f"{name} {1000 * statistics.median(ran.per_key):.2f} ms on a CPU and"
            f" {1000 * statistics.median(wait.per_key):.2f} ms waiting for one"
            for name, (ran, wait) in self.used.items()
        )


def keyboard_block(count: int, data: Path, used: KeyPath) -> list[float]:
    """``count`` samples at one keyboard."""
    position, run = bot_proof_position()
    env: dict[str, str | None] = {
        "STRESS_TUI_POSITION": position,
        "STRESS_TUI_DATA_DIR": str(data),
    }
    with TtySession(GAME, args=["--p2", "bot:normal"], rows=ROWS, cols=COLS, env=env) as s:
        return keys_block(s, run, count, used.of("the game"))


def ssh_block(count: int, served: Served, key: Path, used: KeyPath) -> list[float]:
    """``count`` samples over SSH on loopback: ``ssh -t`` in the pty, ``play bot:normal``."""
    _, run = bot_proof_position()
    ssh = shutil.which("ssh")
    assert ssh is not None
    argv = [ssh, "-p", str(served.port), "-i", str(key), *SSH_OPTIONS, "-t", "player@127.0.0.1"]
    with TtySession(argv, args=["play", "bot:normal"], rows=ROWS, cols=COLS) as s:
        usage = used.of("the server", served.pid) + used.of("ssh")
        return keys_block(s, run, count, usage)


def key_to_screen(n: int, data: Path) -> tuple[list[float], list[float], KeyPath, KeyPath]:
    """``n`` samples each, at one keyboard and over SSH, in alternating blocks, and what
    the processes on each way used per key."""
    position, _ = bot_proof_position()
    key = data / "player_key"
    asyncssh.generate_private_key("ssh-ed25519").write_private_key(str(key))
    key.chmod(0o600)
    served_data = data / "served"
    served_data.mkdir()
    local, remote = KeyPath(), KeyPath()
    with serving(served_data, 8, env={"STRESS_TUI_POSITION": position}) as served:
        one, net = alternate(
            lambda count: keyboard_block(count, data, local),
            lambda count: ssh_block(count, served, key, remote),
            n,
            BLOCK,
        )
    return one, net, local, remote


# ---------------------------------------------------------------------- the run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tables",
        type=int,
        nargs="+",
        default=[1, 10, 50, 100],
        help="the steps: tables at once (default 1 10 50 100; the first is the reference)",
    )
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="seconds each step is measured (default 20)"
    )
    parser.add_argument(
        "--n", type=int, default=200, help="key-to-screen samples of each (default 200; 0: none)"
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="run the tables' server under cProfile, into FILE"
    )
    parser.add_argument(
        "--two", action="store_true", help="tables for two (new, join CODE), two clients each"
    )
    parser.add_argument("--clients", nargs=3, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.clients:  # a process of clients (``tables``)
        port, first, count = args.clients
        asyncio.run(clients(port, first, count, args.two))
        return 0
    steps = sorted(set(args.tables))
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="stress-serve-bench-") as folder:
        data = Path(folder)
        served_data = data / "tables"
        served_data.mkdir()
        sessions = steps[-1] * (2 if args.two else 1) + 4
        with serving(served_data, sessions, profile=args.profile) as served:
            idle_rss = rss_kib(served.pid)
            taken = tables(served.port, served.pid, steps, args.seconds, args.two)
        crashed = (served_data / "server.err").read_text().count("a session crashed")
        played = how_they_played(served_data)
        loads.append(os.getloadavg()[0])
        one: list[float] = []
        net: list[float] = []
        at_one = over_ssh = KeyPath()
        if args.n and shutil.which("ssh"):
            one, net, at_one, over_ssh = key_to_screen(args.n, data)
        loads.append(os.getloadavg()[0])

    first, last = taken[0], taken[-1]
    reference = statistics.median(first.answers or [math.nan])
    kind = "tables for two, two clients each" if args.two else "clients against the computer"
    pace = f"{GAP[0]:g}-{GAP[1]:g} s"
    if args.two:
        pace = f"a person's reaction, {mean_gap(True):.2f} s on average"
    print(f"tables at once on one server ({kind}, a key every {pace})")
    print(f"  the server idle: RSS {idle_rss} KiB")
    for step in taken:
        added = step.sessions - first.sessions
        per_session = (step.rss - first.rss) / added if added else 0.0
        answer = statistics.median(step.answers or [math.nan])
        print(
            f"  {step.tables:4} tables: CPU {100 * step.share:.3f}% of one core a table"
            f" ({step.cpu:.2f} s over {step.seconds:.1f} s, and {step.waited:.2f} s waiting"
            f" for a CPU): one core holds {1 / step.share:.0f}; RSS {step.rss} KiB,"
            f" {per_session:.0f} KiB a session added; the help key's answer median"
            f" {1000 * answer:.2f} ms"
            f" ({len(step.answers)} keys); keys at {100 * step.pace:.0f}% of a person's pace,"
            f" {step.read / step.seconds / step.tables:.0f} B/s a table read,"
            f" a session {step.frames / step.seconds / step.sessions:.1f} frames/s and"
            f" {step.read / step.seconds / step.sessions:.0f} B/s,"
            f" {step.closed} sessions ended"
        )
    for step in taken:
        print(
            f"at {step.tables} tables: CPU per table {100 * step.share:.3f}% of one core"
            f" (one core holds {1 / step.share:.0f} tables; goal: at least 100), waiting"
            f" for a CPU {step.waited / step.cpu:.2f}x its time on one"
        )
    if last is not first:
        per_session = (last.rss - first.rss) / (last.sessions - first.sessions)
        print(
            f"memory a session ({first.tables} to {last.tables} tables): {per_session:.0f} KiB,"
            f" {100 * per_session / first.rss:.2f}% of the server's RSS at {first.tables}"
        )
        print(
            f"the help key's answer at {last.tables} tables / at {first.tables}:"
            f" median {statistics.median(last.answers or [math.nan]) / reference:.2f}x"
        )
    if one and net:
        local, remote = summarize(one), summarize(net)
        print("key to screen (pty + pyte, 80x24, against bot:normal), alternating blocks")
        print(f"  one keyboard            {local.format()}")
        print(f"  ssh -t over loopback    {remote.format()}")
        print(
            f"  ssh / one keyboard: median {remote.median / local.median:.2f}x,"
            f" p99 {remote.p99 / local.p99:.2f}x  (goal: within 2x)"
        )
        print("  per key (schedstat, every thread, median of the blocks):")
        print(f"    one keyboard: {at_one.said()}")
        print(f"    ssh: {over_ssh.said()}")
    print(f"how the clients played (the server's replays): {played}")
    print(f"sessions crashed on the server: {crashed}")
    print(f"load average {min(loads):.1f}-{max(loads):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
