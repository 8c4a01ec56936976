"""``stress-tui serve`` played with the real OpenSSH client (``ssh``, Debian's
openssh-client) in pseudo-terminals, read back as the player would see it: a key plays the
computer, a guest plays unrated, a client that floods its input disturbs nobody else,
``stats`` over ``ssh -T`` is plain text, SIGTERM ends the server cleanly.

One server for the module, on a free port of 127.0.0.1 with a data folder of its own; each
test has keys of its own (``ssh-keygen``) and names no other test gives it (a name is kept
for the key that first gave it), so that each is a new player. A test that needs a server
started with limits of its own, or stopped, starts one.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.screen import pile_top, restore_problems, restored, say_ready
from tests.tty import TtySession

pytest.importorskip("asyncssh", reason="the serve extra (asyncssh) is not installed")

SSH = shutil.which("ssh")
KEYGEN = shutil.which("ssh-keygen")
pytestmark = pytest.mark.skipif(
    SSH is None or KEYGEN is None,
    reason="no OpenSSH client (ssh, ssh-keygen): apt-get install openssh-client",
)

SSH_OPTIONS = (
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    "-o",
    "BatchMode=no",
)


class Served:
    """A running ``stress-tui serve``: its port and data folder."""

    def __init__(self, process: subprocess.Popen[str], port: int, data: Path) -> None:
        self.process = process
        self.port = port
        self.data = data


def start_server(data: Path, *flags: str, env: dict[str, str] | None = None) -> Served:
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
        env={
            **os.environ,
            "STRESS_TUI_CONFIG": "/nonexistent/stress-tui-tests/config.toml",
            **(env or {}),
        },
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "ssh -t -p" in line, line
    port = int(line.split("ssh -t -p ")[1].split()[0])
    return Served(process, port, data)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The module's server; its tables for two are dealt from ``tests.nettable.SEED``."""
    from tests.nettable import SEED

    served = start_server(tmp_path_factory.mktemp("served"), env={"STRESS_TUI_NET_SEED": str(SEED)})
    yield served
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=20) == 0


def new_key(folder: Path) -> Path:
    key = folder / "key"
    assert KEYGEN is not None
    subprocess.run([KEYGEN, "-t", "ed25519", "-N", "", "-q", "-f", str(key)], check=True)
    return key


def ssh_argv(
    served: Served, key: Path | None, user: str, *command: str, pty: bool, lang: bool = False
) -> list[str]:
    """The ``ssh`` command line; ``lang``: it sends the ``LANG`` of its environment."""
    assert SSH is not None
    who = ["-i", str(key)] if key is not None else ["-o", "PubkeyAuthentication=no"]
    return [
        SSH,
        "-p",
        str(served.port),
        *who,
        *(["-o", "SendEnv=LANG"] if lang else []),
        *SSH_OPTIONS,
        "-t" if pty else "-T",
        f"{user}@127.0.0.1",
        *command,
    ]


def plain(served: Served, key: Path | None, user: str, *command: str) -> str:
    """A command over ``ssh -T``, no pty: what it printed."""
    done = subprocess.run(
        ssh_argv(served, key, user, *command, pty=False),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def at_table(s: TtySession) -> None:
    """Say ready, and wait for the flip's cards to land on the piles."""
    say_ready(s, timeout=10)
    s.wait_for(lambda: pile_top(s, 0) != "" and pile_top(s, 1) != "", 10, "the flip's cards")


def quit_restored(s: TtySession) -> None:
    """Ctrl-C quits, as at a local terminal; the client's terminal is as it was."""
    s.send("\x03")
    assert s.wait_exit(timeout=10) == 130
    assert restored(s.raw_log()), restore_problems(s.raw_log())
    assert s.tty_mode_restored()


def test_a_key_plays_the_computer_the_flip_lands_and_quitting_restores_the_terminal(
    server: Served, tmp_path: Path
) -> None:
    key = new_key(tmp_path)
    argv = ssh_argv(server, key, "alice", "play", "bot:expert", pty=True)
    with TtySession(argv) as s:
        s.wait_text("alice", timeout=10)
        assert "computer, expert" in s.text()
        at_table(s)  # the flip's cards land on the piles, on this screen
        quit_restored(s)
    shown = plain(server, key, "whoever", "stats")
    assert shown.startswith("alice (key SHA256:")  # the key keeps the name it was given


def test_the_game_speaks_the_language_the_client_sends_and_another_session_its_own(
    server: Served, tmp_path: Path
) -> None:
    key = new_key(tmp_path)
    german = ssh_argv(server, key, "gerd", "play", pty=True, lang=True)
    english = ssh_argv(server, key, "gerd", "play", pty=True)
    with TtySession(german, env={"LANG": "de_DE.UTF-8"}) as de, TtySession(english) as en:
        de.wait_text("Die Runde beginnt, wenn du deine Bereit-Taste drückst", timeout=10)
        en.wait_text("The round starts when you press your ready key", timeout=10)
        assert "\u2663" in en.text() or "\u2660" in en.text()  # no locale sent: the suits
        de.send("?")  # keys answered in the session's language too
        de.wait_text("Tasten", timeout=10)
        quit_restored(de)
        quit_restored(en)
    wrong = subprocess.run(
        ssh_argv(server, key, "gerd", "nonsense", pty=False, lang=True),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "LANG": "sv_SE.UTF-8"},
    )
    assert wrong.stdout.startswith("stress-tui: inget sådant kommando här")


def test_a_client_without_a_key_plays_as_an_unrated_guest(server: Served) -> None:
    argv = ssh_argv(server, None, "carl", "play", pty=True)
    with TtySession(argv) as s:
        s.wait_text("Guest", timeout=10)
        assert "computer, normal" in s.text()
        at_table(s)
        quit_restored(s)
    assert plain(server, None, "carl", "stats") == "Guest: a guest (no key): unrated, no record\n"


def test_a_client_flooding_its_input_does_not_disturb_another_session(
    server: Served, tmp_path: Path
) -> None:
    (tmp_path / "flood").mkdir()
    (tmp_path / "calm").mkdir()
    flood_key, calm_key = new_key(tmp_path / "flood"), new_key(tmp_path / "calm")
    flooding = TtySession(ssh_argv(server, flood_key, "flood", "play", pty=True))
    calm = TtySession(ssh_argv(server, calm_key, "calm", "play", "bot:expert", pty=True))
    with flooding, calm:
        flooding.wait_text("flood", timeout=10)
        calm.wait_text("calm", timeout=10)
        say_ready(calm, timeout=10)
        junk = b"x\x1b[" * 3000
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline:
            flooding.send(junk)  # far past the input limit: dropped at the server
            flooding.pump(0.01)
            calm.pump(0.01)
        calm.wait_for(lambda: pile_top(calm, 0) != "", 10, "the flip's cards")
        mark = len(calm.log)
        calm.send("?")  # and its keys are answered at once: the help
        calm.wait_for(lambda: b"help" in calm.raw_log(mark).lower(), 5, "the help")
        quit_restored(calm)
        quit_restored(flooding)


TCP_INFO_DATA_SEGS_IN = 152
"""Byte offset of ``tcpi_data_segs_in`` (``__u32``, Linux 4.6 and later) in Linux's
``struct tcp_info``: the segments received that carried data (not bare acknowledgements),
after ``segs_out`` and ``segs_in`` at 136, ``notsent_bytes`` and ``min_rtt``."""


def data_segments_in(sock: socket.socket) -> int:
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    return int(struct.unpack_from("=I", info, TCP_INFO_DATA_SEGS_IN)[0])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's TCP_INFO")
def test_each_frame_reaches_the_client_in_one_tcp_segment(server: Served) -> None:
    """A frame wakes the client once: the SSH packets the server makes of it (asyncssh
    sends an empty ``MSG_IGNORE`` before each) leave together. The client here is
    asyncssh's, which tells each channel message it reads, one a frame."""
    import asyncssh

    class Screen(asyncssh.SSHClientSession[bytes]):
        def __init__(self) -> None:
            self.frames = 0
            self.shown = bytearray()

        def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
            self.frames += 1
            self.shown += data

    async def until(check: Callable[[], bool], what: str) -> None:
        for _ in range(1000):
            if check():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"no {what}")

    screen = Screen()

    async def play() -> tuple[int, int]:
        key = asyncssh.generate_private_key("ssh-ed25519")
        async with asyncssh.connect(
            "127.0.0.1", server.port, username="fay", client_keys=[key], known_hosts=None
        ) as conn:
            chan, _ = await conn.create_session(
                lambda: screen,
                "play bot:normal",
                term_type="xterm-256color",
                term_size=(80, 24),
                encoding=None,
            )

            async def help_opened_and_closed() -> None:  # two frames at least
                mark = len(screen.shown)
                chan.write(b"?")
                await until(lambda: b"help" in screen.shown[mark:].lower(), "the help")
                drawn = screen.frames
                chan.write(b"?")
                await until(lambda: screen.frames > drawn, "the table again")

            chan.write(b"\x1b[1;1R")  # the start-up questions answered
            await until(lambda: b"fay" in screen.shown, "the table")
            sock = conn.get_extra_info("socket")
            frames, segments = screen.frames, data_segments_in(sock)
            for _ in range(5):
                await help_opened_and_closed()
            frames, segments = screen.frames - frames, data_segments_in(sock) - segments
            chan.close()
            return frames, segments

    frames, segments = asyncio.run(play())
    assert frames >= 10
    assert segments <= frames + 1  # one more: a frame whose segment was not yet read


def test_stats_over_ssh_without_a_terminal_is_plain_text(server: Served, tmp_path: Path) -> None:
    key = new_key(tmp_path)
    shown = plain(server, key, "dora", "stats")
    lines = shown.splitlines()
    assert lines[0].startswith("dora (key SHA256:")
    assert lines[1] == "rounds: 0, won 0, lost 0"
    assert "\x1b" not in shown


def test_the_game_asks_for_a_terminal_and_an_unknown_command_is_refused(
    server: Served, tmp_path: Path
) -> None:
    key = new_key(tmp_path)
    unknown = (
        "no such command here; try: play [bot:LEVEL], new [RULES], join CODE, watch CODE, "
        "stats, replays, replay NAME, or forget"
    )
    for command, said in (("play", "needs a terminal"), ("rm -rf /", unknown)):
        done = subprocess.run(
            ssh_argv(server, key, "eve", *command.split(), pty=False),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 2 and said in done.stdout


def stop(served: Served) -> int:
    served.process.send_signal(signal.SIGTERM)
    return served.process.wait(timeout=20)


def test_a_game_without_a_key_for_the_idle_limit_ends_and_says_why(tmp_path: Path) -> None:
    served = start_server(tmp_path / "data", "--idle", "2")
    try:
        key = new_key(tmp_path)
        with TtySession(ssh_argv(served, key, "ida", "play", pty=True)) as s:
            s.wait_text("ida", timeout=10)
            next_key = time.monotonic()
            keys_until = next_key + 4.0  # twice the limit, a key every half second
            while next_key < keys_until:
                s.send("?")
                next_key += 0.5
                while (left := next_key - time.monotonic()) > 0:
                    s.pump(left)  # its frame read, and nothing sent until the next key's time
            assert s.alive() and "without a key" not in s.text()
            s.wait_text("the game ended after 2 seconds without a key", timeout=15)
            assert s.wait_exit(timeout=10) == 129
            assert restored(s.raw_log()), restore_problems(s.raw_log())
            assert s.tty_mode_restored()
    finally:
        assert stop(served) == 0


@pytest.mark.parametrize("limit", ["--max-per-address", "--max-sessions"])
def test_past_a_limit_the_next_client_is_turned_away_and_a_place_comes_free_when_a_game_ends(
    tmp_path: Path, limit: str
) -> None:
    """Past the limit the next client is turned away and the game there goes on; its
    place comes free when that game is quit, and when a client vanishes mid-game."""
    served = start_server(tmp_path / "data", limit, "1")
    keys = keys_of(tmp_path, "ann", "val")
    try:
        with TtySession(ssh_argv(served, keys["ann"], "ann", "play", pty=True)) as s:
            s.wait_text("ann", timeout=10)
            turned_away = subprocess.run(
                ssh_argv(served, keys["ann"], "ann", "stats", pty=False),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=30,
            )
            assert turned_away.returncode == 255 and turned_away.stdout == ""
            assert ("too many connections" in turned_away.stderr) == (limit == "--max-per-address")
            at_table(s)  # the game there goes on
            quit_restored(s)
        assert plain(served, keys["ann"], "ann", "stats").startswith("ann (key")  # room again
        with TtySession(ssh_argv(served, keys["val"], "val", "play", pty=True)) as s:
            at_table(s)
            s.child.kill(signal.SIGKILL)  # no goodbye: the connection just ends
            s.wait_exit(timeout=10)
        deadline = time.monotonic() + 10
        while True:  # its game ends and its session goes; the next player gets the place
            done = subprocess.run(
                ssh_argv(served, keys["val"], "val", "stats", pty=False),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=30,
            )
            if done.returncode == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert done.stdout.startswith("val (key"), done.stderr
        assert served.process.poll() is None
    finally:
        assert stop(served) == 0
    (part,) = kept_for(served, "val")  # its round kept as far as it went
    assert part.name.endswith(".jsonl.part")


def play_out_the_round(s: TtySession) -> None:
    """Say ready (the solo layout's g) whenever the table waits for a flip, and play no
    card: the computer plays its last card and wins the round."""
    said = [0.0]

    def won() -> bool:
        if "Computer wins the round!" in s.text():
            return True
        if time.monotonic() - said[0] > 0.4:
            s.send("g")
            said[0] = time.monotonic()
        return False

    s.wait_for(won, 180, "the computer to win the round")


def test_plain_ssh_opens_the_lobby_a_round_there_is_counted_for_the_key_and_q_leaves(
    server: Served, tmp_path: Path
) -> None:
    key = new_key(tmp_path)
    with TtySession(ssh_argv(server, key, "lena", pty=True)) as s:
        s.wait_text("play the computer, expert", timeout=10)
        assert "lena" in s.row(0) and "rounds: 0, won 0, lost 0" in s.text()
        s.send("w")  # a table's code to watch, typed in the lobby: none here has it
        s.wait_text("The code of the table to watch", timeout=10)
        s.send("otter maple drum velvet\r")
        s.wait_text("no table on this server has the code otter-maple-drum-velvet", timeout=10)
        s.send("4")
        s.wait_text("computer, expert", timeout=10)
        play_out_the_round(s)
        s.wait_text("q: quit", timeout=10)  # the result takes keys
        s.send("q")
        s.wait_text("Quit this match?", timeout=10)
        s.send("y")
        # Back in the lobby, the round counted for the key and listed.
        s.wait_text("rounds: 1, won 0, lost 1", timeout=20)
        assert "lost against Computer (expert)" in s.text()
        s.send("q")
        assert s.wait_exit(timeout=10) == 0
        assert restored(s.raw_log()), restore_problems(s.raw_log())
        assert s.tty_mode_restored()
    assert plain(server, key, "lena", "stats").splitlines()[1] == "rounds: 1, won 0, lost 1"


def test_replays_lists_the_keys_own_and_replay_sends_one_as_it_is_kept(
    server: Served, tmp_path: Path
) -> None:
    key = new_key(tmp_path)
    assert plain(server, key, "rhea", "stats").startswith("rhea (key")
    folder = server.data / "replays"
    folder.mkdir(exist_ok=True)
    mine = folder / "20261202-011044-424242.jsonl"
    header: dict[str, object] = {"names": ["rhea", "Computer"], "players": ["human", "bot:hard"]}
    header["started"] = "2026-12-02T01:10:44+00:00"
    mine.write_text(json.dumps(header) + '\n{"end": true, "winner": 0, "t": 30.0}\n')
    theirs = folder / "20261202-011044-434343.jsonl"
    theirs.write_text(json.dumps({**header, "names": ["zoe", "Computer"]}) + "\n")
    listed = plain(server, key, "rhea", "replays")
    assert listed == f"{mine.name}  2026-12-02 01:10  against Computer (hard)  won\n"
    sent = subprocess.run(
        ssh_argv(server, key, "rhea", "replay", mine.name, pty=False),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=30,
    )
    assert sent.returncode == 0 and sent.stdout == mine.read_bytes()
    for name in (theirs.name, "../keys.sqlite", "/etc/passwd", f"../replays/{mine.name}"):
        refused = subprocess.run(
            ssh_argv(server, key, "rhea", "replay", name, pty=False),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert refused.returncode == 1, name
        assert refused.stdout == (
            f"stress-tui: no replay of yours is called {name} (replays lists them)\n"
        )


def at_one_table(
    served: Served, keys: dict[str, Path], opener: str = "ann", joiner: str = "bo"
) -> tuple[TtySession, TtySession, str]:
    """``opener`` opens a table, ``joiner`` joins it with its code, both say ready (each
    with its key in ``keys``): after the first flip, their sessions and the code."""
    from tests.nettable import first_flip, press_ready, wait_all

    opens = TtySession(ssh_argv(served, keys[opener], opener, "new", pty=True))
    found: list[str] = []

    def the_code() -> bool:
        found[:] = re.findall(r"join ([a-z]+-[a-z]+-[a-z]+-[a-z]+)", opens.text())
        return bool(found)

    try:
        wait_all(the_code, "the code to read aloud", opens)
        assert f"ssh -t -p {served.port} 127.0.0.1 join {found[0]}" in opens.text()
        joins = TtySession(ssh_argv(served, keys[joiner], joiner, "join", found[0], pty=True))
    except BaseException:
        opens.close()
        raise
    title = f"{joiner} v {opener}"
    try:
        wait_all(lambda: title in joins.row(0) and title in opens.row(0), "join", opens, joins)
        press_ready(joins, opens)
        wait_all(lambda: f"ready: waiting for {opener}" in opens.text(), "ready", opens, joins)
        press_ready(opens, joins)
        first_flip(opens, joins)
    except BaseException:
        opens.close()
        joins.close()
        raise
    return opens, joins, found[0]


def keys_of(tmp_path: Path, *names: str) -> dict[str, Path]:
    """A key of its own for each of ``names``."""
    keys = {}
    for who in names:
        (tmp_path / who).mkdir()
        keys[who] = new_key(tmp_path / who)
    return keys


def kept_for(served: Served, name: str) -> list[Path]:
    """The replays in ``served``'s folder (``.part`` ones too) of a round ``name`` played."""
    return [
        path
        for path in (served.data / "replays").glob("*.jsonl*")
        if name in json.loads(path.read_text().splitlines()[0])["names"]
    ]


def test_two_keys_play_one_table_a_third_watches_and_a_dropped_player_gets_it_back(
    server: Served, tmp_path: Path
) -> None:
    from tests.nettable import count_over, right_pile_size, wait_all

    keys = keys_of(tmp_path, "ada", "ben", "cai")  # names no other test gives the server
    ada, ben, code = at_one_table(server, keys, "ada", "ben")
    sessions = [ada, ben]
    try:
        cai = TtySession(ssh_argv(server, keys["cai"], "cai", "watch", code, pty=True))
        sessions.append(cai)
        wait_all(lambda: "watching" in cai.row(0), "the spectator's table", cai, ada, ben)
        # ben's connection drops: the round pauses, the seat is kept for ben's key alone.
        ben.child.kill(signal.SIGKILL)
        wait_all(lambda: "waiting for ben to come back" in ada.text(), "the drop", ada, cai)
        taken = subprocess.run(
            ssh_argv(server, keys["cai"], "cai", "join", code, pty=True),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert taken.returncode == 1 and "the seat at this table is taken" in taken.stdout
        again = TtySession(ssh_argv(server, keys["ben"], "ben", "join", code, pty=True))
        sessions.append(again)
        wait_all(  # ben's own log says the count came and went: his key plays
            lambda: (
                count_over(again, 0)
                and "Play goes on" not in ada.text()
                and right_pile_size(again) == "1"
            ),
            "the table again on both screens",
            ada,
            again,
            cai,
        )
        again.send("k")  # ben's second pile onto the right pile: on every screen
        wait_all(
            lambda: right_pile_size(ada) == "2" and right_pile_size(cai) == "2",
            "ben's card on ada's and cai's screens",
            ada,
            again,
            cai,
        )
        # The table writes the round's replay when it ends, and counts it once; the
        # players' ends keep none of their own (a second copy, counted a second time).
        assert not kept_for(server, "ada") and not kept_for(server, "ben")
    finally:
        for session in sessions:
            session.close()


def test_the_opener_whose_connection_drops_gets_the_table_back_with_the_same_key(
    server: Served, tmp_path: Path
) -> None:
    from tests.nettable import count_over, right_pile_size, wait_all

    keys = keys_of(tmp_path, "kim", "lou", "max")  # names no other test gives the server
    kim, lou, code = at_one_table(server, keys, "kim", "lou")
    sessions = [kim, lou]
    try:
        kim.child.kill(signal.SIGKILL)  # kim's connection drops
        wait_all(lambda: "kim cannot see the table" in lou.text(), "the hold", lou)
        taken = subprocess.run(  # another key cannot take kim's seat
            ssh_argv(server, keys["max"], "max", "join", code, pty=True),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert taken.returncode == 1 and "the seat at this table is taken" in taken.stdout
        since = len(lou.log)
        back = TtySession(ssh_argv(server, keys["kim"], "kim", "join", code, pty=True))
        sessions.append(back)
        wait_all(  # lou's own log says the count came and went: lou's key plays
            lambda: (
                "cannot see the table" not in lou.text()
                and count_over(lou, since)
                and "Play goes on" not in back.text()
                and right_pile_size(back) == "1"
            ),
            "kim's table again, play going on",
            back,
            lou,
        )
        lou.send("k")  # lou's card lands on kim's new screen
        wait_all(lambda: right_pile_size(back) == "2", "lou's card on kim's screen", back, lou)
        back.send("\x03")  # kim leaves on purpose (Ctrl-C): the table closes, lou is told
        wait_all(lambda: "kim left" in lou.text(), "kim gone", back, lou)
    finally:
        for session in sessions:
            session.close()


def test_sigterm_ends_every_game_saying_so_and_the_next_start_keeps_its_key_forgets_an_old_one(
    tmp_path: Path,
) -> None:
    """SIGTERM ends each game, a game against the computer saying so, and each table for
    two; each round is kept as far as it went (a table's once, by its host); then the
    server ends (status 0), with or without a game. The host key made at the first start
    (private) is kept for the next, and that start, told to forget keys not seen for 30
    days, forgets one last seen long ago and none of those just seen (one server start
    for both, where the forgetting started a server of its own)."""
    served = start_server(tmp_path / "data")
    key_file = tmp_path / "data" / "ssh_host_ed25519_key"
    first = key_file.read_bytes()
    assert key_file.stat().st_mode & 0o777 == 0o600
    keys = keys_of(tmp_path, "ann", "bo", "cy")
    ann, bo, _code = at_one_table(served, keys)
    try:
        with TtySession(ssh_argv(served, keys["cy"], "cy", "play", pty=True)) as s:
            at_table(s)
            served.process.send_signal(signal.SIGTERM)
            s.wait_text("the server is stopping; the round is kept as far as it went", timeout=10)
            assert s.wait_exit(timeout=10) == 143
            assert restored(s.raw_log()), restore_problems(s.raw_log())
            assert s.tty_mode_restored()
        assert served.process.wait(timeout=20) == 0
    finally:
        ann.close()
        bo.close()
    parts = list((tmp_path / "data" / "replays").iterdir())  # each round as far as it went
    assert all(part.name.endswith(".jsonl.part") for part in parts)
    assert sorted(json.loads(part.read_text().splitlines()[0])["names"] for part in parts) == [
        ["bo", "ann"],  # the table's, written by its host, once
        ["cy", "Computer"],
    ]
    import sqlite3

    import asyncssh

    from stress_tui.storage.keys import name_for

    data = tmp_path / "data"
    olga = new_key(tmp_path)
    fingerprint = asyncssh.read_public_key(f"{olga}.pub").get_fingerprint("sha256")
    assert name_for(fingerprint, "olga", data / "keys.sqlite") == "olga"  # as a visit notes it
    a_round_between(data, ["olga", "pia"], 0)
    with sqlite3.connect(data / "keys.sqlite") as db:  # the visit long ago
        db.execute("UPDATE keys SET last_seen = '2020-01-01T00:00:00+00:00' WHERE name = 'olga'")
        others = db.execute("SELECT name FROM keys WHERE name != 'olga'").fetchall()
    assert sorted(name for (name,) in others) == ["ann", "bo", "cy"]
    again = start_server(data, "--forget-after", "30")
    try:
        assert key_file.read_bytes() == first  # kept, not made again
        deadline = time.monotonic() + 30
        while True:
            with sqlite3.connect(data / "keys.sqlite") as db:
                if not db.execute("SELECT 1 FROM keys WHERE name = 'olga'").fetchall():
                    left = db.execute("SELECT name FROM keys").fetchall()
                    break
            assert time.monotonic() < deadline, "the key was not forgotten"
            time.sleep(0.1)
        assert sorted(name for (name,) in left) == ["ann", "bo", "cy"]  # seen just now
        shown = plain(again, olga, "olga", "stats").splitlines()
        assert shown[0].startswith("olga (key") and shown[1] == "rounds: 0, won 0, lost 0"
    finally:
        assert stop(again) == 0  # with no game


def test_tables_and_spectators_past_their_limits_are_refused_saying_why_and_the_lobby_stays(
    tmp_path: Path,
) -> None:
    """A key opens one table at a time, a guest none, and the server no more than its
    limit; a table takes so many spectators, and the next, asking in the lobby, is told
    why there and stays in the lobby."""
    from tests.nettable import wait_all

    served = start_server(tmp_path / "data", "--max-tables", "1", "--max-per-address", "8")
    keys = keys_of(tmp_path, "ann", "bo", "cy")
    ann = TtySession(ssh_argv(served, keys["ann"], "ann", "new", pty=True))
    sessions = [ann]
    try:
        wait_all(lambda: "Waiting for a player" in ann.text(), "ann's table", ann)
        code = re.findall(r"join ([a-z]+-[a-z]+-[a-z]+-[a-z]+)", ann.text())[0]
        for who, said in (
            ("ann", f"stress-tui: your table is open already; its code: {code}"),
            ("cy", "stress-tui: this server has as many tables as it may; try again later"),
            (None, "stress-tui: a table for two needs a key (ssh-keygen, then ssh again)"),
        ):
            done = subprocess.run(
                ssh_argv(served, keys[who] if who else None, who or "guest", "new", pty=False),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=30,
            )
            assert (done.returncode, done.stdout) == (1, said + "\n"), who
        for _ in range(4):  # as many spectators as a table takes
            sessions.append(TtySession(ssh_argv(served, keys["bo"], "bo", "watch", code, pty=True)))
            wait_all(lambda: "watching" in sessions[-1].row(0), "a spectator", *sessions)
        cy = TtySession(ssh_argv(served, keys["cy"], "cy", pty=True))
        sessions.append(cy)
        wait_all(lambda: "play the computer, easy" in cy.text(), "cy's lobby", *sessions)
        cy.send("w")
        wait_all(lambda: "The code of the table to watch" in cy.text(), "the code asked", cy)
        cy.send(code + "\r")
        wait_all(lambda: "enough spectators already" in cy.text(), "the refusal", *sessions)
        assert "play the computer, easy" in cy.text()  # still the lobby
        cy.send("q")
        assert cy.wait_exit(timeout=10) == 0
    finally:
        for session in sessions:
            session.close()
        assert stop(served) == 0


def test_a_table_is_opened_by_the_rules_its_opener_names_and_unknown_rules_are_refused(
    server: Served, tmp_path: Path
) -> None:
    from tests.nettable import wait_all

    key = new_key(tmp_path)
    wrong = subprocess.run(
        ssh_argv(server, key, "jo", "new", "nosuchdeck", pty=False),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert wrong.returncode == 2
    assert wrong.stdout.startswith('stress-tui: new: rules: deck: "nosuchdeck" is not a deck')
    argv = ssh_argv(server, key, "jo", "new", "jass", "wins=2", pty=True)
    with TtySession(argv, rows=30, cols=140) as s:  # room on the title line for the rules
        wait_all(lambda: "Waiting for a player" in s.text(), "jo's table", s)
        assert "jass, row 4" in s.row(0) and "2 wins" in s.row(0), s.row(0)
        s.send("q")
        assert s.wait_exit(timeout=10) == 0


def a_round_between(data: Path, names: list[str], winner: int) -> Path:
    """A round between two keys' names as a table for two counts it: in the record of the
    server whose data folder is ``data``, and its replay in its folder."""
    from stress_tui.core.stats import PlayerStats, RoundStats
    from stress_tui.storage.record import count_round

    stats = (PlayerStats(reactions=[0.5]), PlayerStats(reactions=[0.6]))
    record = data / "record.sqlite"
    count_round((names[0], names[1]), "standard", RoundStats(stats, winner, 20.0), True, record)
    folder = data / "replays"
    folder.mkdir(exist_ok=True)
    path = folder / "20261201-090000-000042.jsonl"
    header = {"names": names, "players": ["human", "human"], "started": "2026-12-01T09:00:00+00:00"}
    path.write_text(json.dumps(header) + f'\n{{"end": true, "winner": {winner}, "t": 20.0}}\n')
    return path


def test_a_key_that_played_forgets_itself_its_name_is_free_and_its_opponents_stats_add_up(
    server: Served, tmp_path: Path
) -> None:
    keys = {}
    for who in ("mira", "nils", "again"):
        (tmp_path / who).mkdir()
        keys[who] = new_key(tmp_path / who)
    assert plain(server, keys["nils"], "nils", "stats").startswith("nils (key")
    shared = a_round_between(server.data, ["mira", "nils"], 1)  # nils won
    nils_before = plain(server, keys["nils"], "nils", "stats")
    assert nils_before.splitlines()[1:] == ["rounds: 1, won 1, lost 0", "rating: 1662"]
    assert plain(server, None, "guest", "forget") == (
        "a guest (no key): nothing kept here is tied to you; nothing to forget\n"
    )
    with TtySession(ssh_argv(server, keys["mira"], "mira", pty=True)) as s:
        s.wait_text("play the computer, expert", timeout=10)
        assert "rounds: 1, won 0, lost 1" in s.text()
        s.send("4")
        s.wait_text("computer, expert", timeout=10)
        play_out_the_round(s)
        s.wait_text("q: quit", timeout=10)
        s.send("q")
        s.wait_text("Quit this match?", timeout=10)
        s.send("y")
        s.wait_text("rounds: 2, won 0, lost 2", timeout=20)
        (played,) = [
            line.split()[0]
            for line in plain(server, keys["mira"], "mira", "replays").splitlines()
            if "Computer (expert)" in line
        ]
        # Without a terminal: what would be erased, and the command that does it.
        asked = plain(server, keys["mira"], "mira", "forget").splitlines()
        assert asked[0].startswith("mira (key SHA256:") and asked[0].endswith("for good:")
        assert asked[1:] == [
            "  the key, and its name mira (free for another key afterwards)",
            "  rounds deleted (against the computer or someone forgotten): 1",
            "  replays deleted: 1",
            "  rounds against other people, kept in their record as played by (forgotten),"
            " without your reactions or rating: 1",
            "  their replays, kept for them, your side named (forgotten): 1",
            f"To forget it, type: ssh -p {server.port} 127.0.0.1 forget mira",
        ]
        for name, status, said in (
            ("nils", 2, "stress-tui: forget takes this key's own name: forget mira"),
            ("mira", 1, "stress-tui: this key has another session or a table open here; leave it"),
        ):
            done = subprocess.run(
                ssh_argv(server, keys["mira"], "mira", "forget", name, pty=False),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=30,
            )
            assert done.returncode == status and done.stdout.startswith(said), name
        # In the lobby: f asks, y forgets, and the session ends saying so.
        s.send("f")
        s.wait_text("Forget mira for good", timeout=10)
        s.send("y")
        assert s.wait_exit(timeout=20) == 0
        assert "mira is forgotten on this server" in s.text()
    # The name is free: another key offering it gets it, with nothing under it.
    assert plain(server, keys["again"], "mira", "stats").splitlines()[1:] == [
        "rounds: 0, won 0, lost 0"
    ]
    assert (
        plain(server, keys["again"], "mira", "replays") == "mira: no replays on this server yet\n"
    )
    # The replay of mira's round against the computer is gone; nils's replay of their
    # round stays, mira's side of it named (forgotten); nils's stats are as they were.
    assert not (server.data / "replays" / played).exists()
    assert json.loads(shared.read_text().splitlines()[0])["names"] == ["(forgotten)", "nils"]
    assert plain(server, keys["nils"], "nils", "stats") == nils_before
