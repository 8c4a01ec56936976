"""``stress-tui serve`` under many players at once, and its key-to-screen time beside one
keyboard's, in one run.

    python bench/serve.py [--tables 100] [--seconds 20] [--n 40]

1. **Many tables.** One server (``stress-tui serve`` on 127.0.0.1, a free port, a data
   folder of this run). ``--tables`` SSH clients (asyncssh, in this process, one key for
   all) each open a session with a pty, ``play bot:normal``, answer the start-up questions
   as a terminal would, say ready, and then press a key of the one-player layout (a pile
   key, the stress key, the ready key) every 0.2 to 0.5 s, a person's pace, reading every
   frame the server draws: every table is in play, the computer at each playing its side.
   The figures: the server's resident memory with no session and with them all (the
   difference divided by the sessions: memory per session), and the CPU time the server
   process had over ``--seconds`` with every table in play, divided by the seconds and the
   tables (the share of one core each table takes). The clients run on the same machine
   and take CPU of their own (SSH's encryption both ways): their figure is printed beside.
2. **Key to screen.** The help key (``?``) opens and closes the help, ``--n`` times each
   way: at one keyboard (``python -m stress_tui --p2 bot:normal`` in an 80x24 pty) and
   over SSH on loopback (the real ``ssh`` client in an 80x24 pty, ``play bot:normal`` on a
   server of its own), in alternating blocks, each from writing the key into the pty until
   the screen read back shows the change (``bench/latency.py``'s ``measure_keys``).

Goals (issue 28): 100 tables at once on one core (each at most 1% of a core), key to
screen over loopback SSH at most 2x one keyboard's (median).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.latency import alternate, cpu_seconds, measure_keys, summarize
from tests.tty import TtySession

KEYS = "asdfjkl; gg"
"""What a bench player presses: the one-player layout's pile keys, stress, ready."""

HELP_SHOWN = "Everyone"
"""A word of the help screen (its keys for everyone)."""

BLOCK = 10
"""Keys measured in a row for one setting before the other has its turn."""


def start_server(data: Path, *flags: str) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "stress_tui",
            "serve",
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
            "--data-dir",
            str(data),
            *flags,
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "STRESS_TUI_CONFIG": str(data / "none.toml")},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    return process, int(line.split("ssh -t -p ")[1].split()[0])


def stop_server(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


def resident_kb(pid: int) -> int:
    """The process's resident memory (``VmRSS``), in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


# -- many tables ------------------------------------------------------------------------


class Player:
    """One bench player's SSH session: it answers the start-up questions and reads every
    frame; ``press`` sends a key."""

    def __init__(self) -> None:
        import asyncssh

        class Session(asyncssh.SSHClientSession[bytes]):
            def data_received(inner, data: bytes, datatype: Any) -> None:
                self.bytes += len(data)
                if not self.answered and b"\x1b[6n" in data:
                    self.answered = True
                    assert self.chan is not None
                    self.chan.write(b"\x1b[1;1R")

        self.session_class = Session
        self.chan: Any = None
        self.answered = False
        self.bytes = 0


async def play(port: int, key: Any, player: Player, stop: asyncio.Event) -> None:
    import asyncssh

    conn = await asyncssh.connect(
        "127.0.0.1", port, username="bench", client_keys=[key], known_hosts=None
    )
    async with conn:
        chan, _ = await conn.create_session(
            player.session_class,
            "play bot:normal",
            term_type="xterm-256color",
            term_size=(80, 24),
            encoding=None,
        )
        player.chan = chan
        rng = random.Random(id(player))
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), rng.uniform(0.2, 0.5))
            except asyncio.TimeoutError:
                chan.write(rng.choice(KEYS).encode())
        chan.write(b"\x03")
        await chan.wait_closed()


async def many_tables(tables: int, seconds: float) -> dict[str, float]:
    import asyncssh

    data = Path(tempfile.mkdtemp(prefix="stress-serve-bench-"))
    limit = str(tables + 8)
    process, port = start_server(
        data, "--max-sessions", limit, "--max-per-address", limit, "--input-rate", "4096"
    )
    try:
        await asyncio.sleep(1.0)
        idle_kb = resident_kb(process.pid)
        key = asyncssh.generate_private_key("ssh-ed25519")
        stop = asyncio.Event()
        players = [Player() for _ in range(tables)]
        tasks = []
        for i, player in enumerate(players):
            tasks.append(asyncio.ensure_future(play(port, key, player, stop)))
            if i % 10 == 9:
                await asyncio.sleep(0.5)  # handshakes ten at a time
        deadline = time.monotonic() + 120
        while sum(p.answered for p in players) < tables and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        playing = sum(p.answered for p in players)
        await asyncio.sleep(3.0)  # every table past its start
        full_kb = resident_kb(process.pid)
        before, ours_before, wall = cpu_seconds(process.pid), time.process_time(), time.monotonic()
        each_before = [p.bytes for p in players]
        await asyncio.sleep(seconds)
        elapsed = time.monotonic() - wall
        used = cpu_seconds(process.pid) - before
        ours = time.process_time() - ours_before
        drawn = sum(p.bytes for p in players) - sum(each_before)
        active = sum(p.bytes > b for p, b in zip(players, each_before, strict=True))
        stop.set()
        await asyncio.wait(tasks, timeout=30)
        return {
            "tables": float(playing),
            "active": float(active),
            "idle_kb": float(idle_kb),
            "full_kb": float(full_kb),
            "per_session_kb": (full_kb - idle_kb) / max(playing, 1),
            "server_cores": used / elapsed,
            "per_table_core": used / elapsed / max(playing, 1),
            "clients_cores": ours / elapsed,
            "frames_kb_s": drawn / elapsed / 1024,
        }
    finally:
        stop_server(process)
        shutil.rmtree(data, ignore_errors=True)


# -- key to screen ----------------------------------------------------------------------


def help_toggled(s: TtySession, i: int, _key: object) -> bool:
    """Whether the screen shows what the ``i``-th ``?`` made it: the help, or the table."""
    return (HELP_SHOWN in s.text()) == (i % 2 == 0)


def keyboard_block(count: int) -> list[float]:
    data = tempfile.mkdtemp(prefix="stress-serve-bench-")
    env: dict[str, str | None] = {"STRESS_TUI_DATA_DIR": data}
    with TtySession(args=["--p2", "bot:normal", "--seed", "12"], env=env) as s:
        s.wait_text("STRESS", timeout=10)
        return measure_keys(s, lambda _s, _i: "?", help_toggled, count, warmup=2)


class SshBlock:
    """Key-to-screen samples over SSH: the real ``ssh`` client against a server kept for
    the run (each block a new session)."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="stress-serve-bench-"))
        self.process, self.port = start_server(self.folder / "data")
        self.key = self.folder / "key"
        keygen = shutil.which("ssh-keygen")
        assert keygen is not None, "no ssh-keygen: apt-get install openssh-client"
        subprocess.run([keygen, "-t", "ed25519", "-N", "", "-q", "-f", str(self.key)], check=True)

    def __call__(self, count: int) -> list[float]:
        ssh = shutil.which("ssh")
        assert ssh is not None, "no ssh: apt-get install openssh-client"
        argv = [
            ssh,
            "-p",
            str(self.port),
            "-i",
            str(self.key),
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "LogLevel=ERROR",
            "-t",
            "bench@127.0.0.1",
            "play",
            "bot:normal",
        ]
        with TtySession(argv) as s:
            s.wait_text("STRESS", timeout=15)
            return measure_keys(s, lambda _s, _i: "?", help_toggled, count, warmup=2)

    def close(self) -> None:
        stop_server(self.process)
        shutil.rmtree(self.folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100, help="tables at once (default 100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU window (default 20)")
    parser.add_argument("--n", type=int, default=40, help="key samples of each (default 40)")
    args = parser.parse_args(argv)
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    found = asyncio.run(many_tables(args.tables, args.seconds))
    print(
        f"{found['tables']:.0f} tables at once (asked {args.tables}), "
        f"{found['active']:.0f} of them drawing frames over the window"
    )
    print(
        f"  server memory: {found['idle_kb']:.0f} kB idle, {found['full_kb']:.0f} kB with them "
        f"all: {found['per_session_kb']:.0f} kB a session"
    )
    print(
        f"  server CPU: {found['server_cores'] * 100:.1f}% of a core for all, "
        f"{found['per_table_core'] * 100:.2f}% a table (goal: at most 1%); "
        f"the bench's clients {found['clients_cores'] * 100:.1f}%; "
        f"frames sent {found['frames_kb_s']:.0f} kB/s"
    )
    ssh_block = SshBlock()
    try:
        keyboard, over_ssh = alternate(keyboard_block, ssh_block, args.n, BLOCK)
    finally:
        ssh_block.close()
    one, remote = summarize(keyboard), summarize(over_ssh)
    print("key to screen (the help key, pty + pyte, 80x24), alternating blocks")
    print(f"  one keyboard          {one.format()}")
    print(f"  over SSH on loopback  {remote.format()}")
    print(
        f"  SSH / one keyboard: median {remote.median / one.median:.2f}x (goal: at most 2x), "
        f"p99 {remote.p99 / one.p99:.2f}x"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
