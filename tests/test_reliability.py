"""Trying hard to break the real program: bad input, resizes, signals, a crash, long play,
broken files. Nothing may crash, freeze, lose a card or leave the terminal broken.

Every test here runs ``python -m stress_tui`` (or the same under ``bench.fuzz.audited_main``,
which only counts the cards of every round from inside the process) in a pseudo-terminal,
for what only a real terminal and a real process show. The same kinds of trouble played
in-process: ``tests/test_hostile_keys.py`` (bytes at the keyboard), ``tests/test_leaving.py``
(every phase ended, stopped and continued), ``tests/test_broken_files.py`` (broken and
damaged files), ``tests/test_sim.py`` (``stress-tui sim`` on every deck). The long
versions are in ``bench/`` (``fuzz.py``, ``resize_storm.py``, ``soak.py``) and in
``-m slow``; figures and the commands that reproduce them are in ``docs/reliability.md``.

Positions and seeds (default rules unless said):

- ``--seed 12``: the first flip (1.2 s in) shows 10♣ | 4♥; ``after_first_flip(12)`` is that
  table at once (``STRESS_TUI_POSITION``). Player 1's ``q`` puts the J♠ on the 10♣.
- ``after_first_flip(6)``: player 1's ``w`` (Q♠ onto the K♣) opens stress.
- ``LAST_CARD``: player 1's ``q`` plays their last card: the result screen.
- ``--deck skat --wins 1 --seed 55``, two expert computers: a round of about 4 s that player
  2 wins (what ``test_app_e2e`` uses for the files a round writes).

A test whose docstring names a finding (F1, F2...) guards against it: docs/reliability.md,
"Findings", has its cause and fix.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pyte
import pytest

from bench.fuzz import (
    CLEAR,
    NO_CONFIG,
    REDRAW,
    REPO,
    parse_stream,
    private_env,
    run_fuzz,
    wait_table,
)
from bench.resize_storm import after_first_flip, run_storm
from tests.screen import ScreenFilter, has_people, restore_problems, restored, say_ready, settle
from tests.test_leaving import enter_phase, phase_env, shows
from tests.tty import JOB_SHELL, AnsweringScreen, TtySession, job_pid

SKAT_BOTS = (
    "--deck",
    "skat",
    "--wins",
    "1",
    "--p1",
    "bot:expert",
    "--p2",
    "bot:expert",
    "--seed",
    "215",
)
"""Two expert computers, a round of about 6 s (player 2 wins)."""

# ----------------------------------------------------------------------------- helpers


@contextlib.contextmanager
def game(
    tmp_path: Path,
    args: tuple[str, ...] = ("--seed", "12"),
    env: dict[str, str | None] | None = None,
    job: bool = False,
) -> Iterator[TtySession]:
    """The real program (``python -m stress_tui ARGS``) in an 80x24 pty, home, XDG
    directories and data directory all in ``tmp_path``; after its first whole frame. With
    ``job``, as a job of a shell with job control (its pid: ``job_pid(tmp_path / "pid")``)."""
    full_env = {**private_env(tmp_path), **(env or {})}
    command = None
    if job:
        command = [*JOB_SHELL, sys.executable, "-m", "stress_tui"]
        full_env["JOBSHELL_PID_FILE"] = str(tmp_path / "pid")
    with TtySession(command, args=args, env=full_env, cwd=REPO) as s:
        wait_table(s)
        if has_people(args):
            say_ready(s)  # the round starts when the people at the table say so
        yield s


def data_dir(tmp_path: Path) -> Path:
    """Where ``private_env`` puts replays and the record."""
    return tmp_path / "stress_tui_data_dir"


def assert_restored(s: TtySession, log: bytes | None = None) -> None:
    log = s.raw_log() if log is None else log
    assert restored(log), restore_problems(log)
    assert s.tty_mode_restored(), "the tty mode (echo, canonical input) was not restored"


def proc_state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def wait_stopped(s: TtySession, timeout: float = 3.0, pid: int | None = None) -> None:
    deadline = time.monotonic() + timeout
    while proc_state(s.pid if pid is None else pid) != "T":
        assert time.monotonic() < deadline, "the program did not stop"
        s.pump(0.01)


def answers(s: TtySession, within: float) -> float | None:
    """Seconds until Ctrl-L is answered with a full redraw, or None if not ``within``."""
    mark = len(s.log)
    start = time.perf_counter()
    s.send(REDRAW)
    deadline = time.monotonic() + within
    while CLEAR not in s.log[mark:]:
        if time.monotonic() > deadline or s.eof:
            return None
        s.pump(0.01)
    return time.perf_counter() - start


def left_pile(s: TtySession) -> str:
    """The top card of the left play pile at 80x24 (``10♣``), or ``""``."""
    from stress_tui.terminal.layout import layout

    lay = layout(80, 24, 4)
    assert lay is not None
    x = lay.pile_x[0]
    return s.row(lay.piles_y)[x + 1 : x + lay.card_w - 1].strip()


# ----------------------------------------------------------------------------- input fuzz


def test_fuzz_with_keys_leaves_the_game_answering_counting_and_restored(
    tmp_path: Path,
) -> None:
    """12,000 random bytes of keys (both players', others, controls, every sequence blessed
    knows as a key, kitty reports, Alt+key, UTF-8, a lone Esc) in bursts of 512, each sent
    as soon as the program has taken the one before."""
    samples = 10
    result = run_fuzz(12_000, seed=7, folder=tmp_path, profile="known", latency_samples=samples)
    summary = result.summary()
    assert result.failure is None, summary
    # Every Ctrl-L after the fuzz is answered with a whole frame (each waited for as a state);
    # how fast, against before the fuzz, is bench/fuzz.py's to measure: a time read here
    # moves with the machine's load, whatever the code does.
    assert result.alive_after and len(result.after_ms) == samples, summary
    assert result.screen_cards == result.deck_cards == 52, summary
    assert result.rounds and all(r["same"] for r in result.rounds), summary
    assert result.exit_code == 130 and result.restored, summary


def test_the_fuzz_stream_holds_no_quitting_key_and_predicts_no_stall() -> None:
    """The harness itself: the ``known`` streams parse to no ``q``, Ctrl-C, Ctrl-Z or Ctrl-L
    and no escape-delay stall; the ``all`` streams have sequences that stall."""
    from bench.fuzz import FORBIDDEN_KEYS, safe_stream

    _, stream, parsed = safe_stream(20_000, 7, "known")
    assert not FORBIDDEN_KEYS & set(parsed.names) and parsed.stalls == 0
    assert all(stream.counts.values())
    assert parse_stream(b"\x1b[<0;10;5M").stalls == 1
    _, _, everything = safe_stream(5_000, 7, "all")
    assert everything.stalls > 0


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["known", "all"])
def test_fuzz_100k_bytes(tmp_path: Path, profile: str) -> None:
    """The full fuzz (``python bench/fuzz.py --bytes 100000 --profile PROFILE``): ``all``
    has every kind of input, unknown sequences and invalid UTF-8 too."""
    result = run_fuzz(100_000, seed=1, folder=tmp_path, profile=profile, drain_timeout=5)
    assert result.held, result.summary()


# ----------------------------------------------------------------------------- resize storms


@pytest.mark.parametrize("phase", ["countdown", "playing", "stress", "result"])
def test_a_resize_storm_leaves_the_table_whole_at_the_final_size(
    tmp_path: Path,
    phase: str,
) -> None:
    """100 size changes, 1x1, 1xN, Nx1 and 0x0 among them, half of them each drawn before the
    next, half a flood; then 100x30: the table whole, the same as a full redraw, every card
    there, the terminal restored on Ctrl-C."""
    result = run_storm(phase, 100, tmp_path, seed=3)
    assert result.held, result.summary()


@pytest.mark.slow
@pytest.mark.parametrize("phase", ["countdown", "playing", "stress", "result"])
def test_a_storm_of_a_thousand_resizes(tmp_path: Path, phase: str) -> None:
    result = run_storm(phase, 1000, tmp_path, seed=1)
    assert result.held, result.summary()


# ----------------------------------------------------------------------------- signals

EXIT_STATUS = {
    signal.SIGINT: 130,
    signal.SIGTERM: 143,
    signal.SIGHUP: 129,
    signal.SIGPIPE: 141,
}
"""128 plus the signal's number, as a shell reports a program the signal ended. SIGPIPE
included: the game has no pipe to lose, so a SIGPIPE can only come from outside, and then
it ends the game like SIGTERM does (see docs/reliability.md)."""


@pytest.mark.parametrize(
    ("sig", "phase"),
    [
        (signal.SIGINT, "countdown"),
        (signal.SIGTERM, "playing"),
        (signal.SIGHUP, "stress"),
        (signal.SIGPIPE, "help"),
    ],
    ids=lambda value: value.name if isinstance(value, signal.Signals) else value,
)
def test_a_signal_restores_the_terminal_and_exits_with_its_status(
    tmp_path: Path,
    phase: str,
    sig: signal.Signals,
) -> None:
    """Each signal that asks the game to stop, in a phase of its own (every phase, in-process:
    ``tests/test_leaving.py``). Python starts with SIGPIPE ignored; at one keyboard the game
    ends on ``kill -PIPE`` as on the other signals (docs/reliability.md, F7)."""
    args = ("--seed", "12")
    with game(tmp_path, args, phase_env(phase)) as s:
        enter_phase(s, phase)
        s.child.kill(sig)
        try:
            code = s.wait_exit(timeout=10)  # a hang; how soon: bench/input_bounds.py
        except AssertionError:
            code = None
        assert code == EXIT_STATUS[sig], f"{sig.name}: exit {code} (None: still running)"
        assert_restored(s)


def test_ctrl_z_restores_the_terminal_then_fg_brings_the_table_back_whole(
    tmp_path: Path,
) -> None:
    """Ctrl-Z (the terminal's SIGTSTP) during a round, the game a job of a shell with job
    control: while stopped the terminal is as it was before the game; on SIGCONT (``fg``)
    the whole screen comes back as it was, paused, and Enter plays on after a count; the
    next play lands. Every phase, and a stop the game cannot see, in-process:
    ``tests/test_leaving.py``."""
    with game(tmp_path, ("--seed", "12"), phase_env("playing"), job=True) as s:
        pid = job_pid(tmp_path / "pid")
        enter_phase(s, "playing")
        settle(s)
        before = s.screen.display[:]
        mark = len(s.log)
        s.send(b"\x1a")
        wait_stopped(s, pid=pid)
        s.pump(0.05)
        assert_restored(s, s.raw_log(mark))
        mark = len(s.log)
        os.kill(pid, signal.SIGCONT)
        s.wait_for(
            lambda: b"\x1b[?1049h" in s.raw_log(mark) and "Enter: play on" in s.text(),
            timeout=3,
            what="the paused table, taking its keys",
        )
        s.send("\r")
        s.wait_text("Play goes on", timeout=2)
        s.wait_for(lambda: "Play goes on" not in s.text(), timeout=3, what="the count")
        s.wait_for(lambda: shows(s, "playing"), timeout=3, what="the table again")
        settle(s)
        assert s.screen.display == before
        s.send("q")
        s.wait_for(lambda: left_pile(s) == "J♠", timeout=2, what="J♠ on the left pile")
        s.send(b"\x03")
        assert s.wait_exit() == 130
        assert_restored(s)


def test_ctrl_backslash_restores_the_terminal_and_exits_131(tmp_path: Path) -> None:
    """Ctrl-\\ (SIGQUIT from the terminal) ends the game with 131 and the terminal as it
    was: not in the alternate screen, cursor shown, echo on (docs/reliability.md, F6)."""
    with game(tmp_path) as s:
        s.send(b"\x1c")
        assert s.wait_exit() == 131
        assert_restored(s)


def close_the_terminal(controlling: bool, env: dict[str, str] | None = None) -> int:
    """Start the game in a pty, wait for its table, close the pty's master side (a
    terminal window closed) and return the game's exit status. ``controlling``: the pty
    is the game's controlling terminal, so the kernel also sends SIGHUP; otherwise the
    game learns of it only from its reads and writes failing."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, b"\x18\x00\x50\x00\x00\x00\x00\x00")  # 24x80

    def controlling_tty() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLORTERM")}
    environ.update(
        {
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            **NO_CONFIG,
            "STRESS_TUI_DATA_DIR": "/nonexistent/stress-tui-reliability",
            **(env or {}),
        }
    )
    child = subprocess.Popen(
        [sys.executable, "-m", "stress_tui", "--seed", "12"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=REPO,
        env=environ,
        start_new_session=True,
        preexec_fn=controlling_tty if controlling else None,
    )
    os.close(slave)

    def reply(data: bytes) -> None:
        os.write(master, data)

    screen = AnsweringScreen(80, 24, reply)
    stream, screen_filter = pyte.ByteStream(screen), ScreenFilter()
    try:
        deadline = time.monotonic() + 10
        while "draw" not in "\n".join(screen.display):
            assert time.monotonic() < deadline, "no table"
            if select.select([master], [], [], 0.05)[0]:
                stream.feed(screen_filter.feed(os.read(master, 65536)))
        os.close(master)
        master = -1
        return child.wait(timeout=2)
    finally:
        if master >= 0:
            os.close(master)
        if child.poll() is None:
            child.kill()
            child.wait()


def test_closing_the_terminal_ends_the_game_promptly_with_129() -> None:
    """A real hangup: the pty's master side is closed (a terminal window closed), so the
    kernel sends SIGHUP and every later read or write fails."""
    assert close_the_terminal(controlling=True) == 129


def test_a_keyboard_that_ends_is_a_hangup_not_a_crash() -> None:
    """When the terminal closes, the game's next read of the keyboard may find its end
    (blessed's ``getch`` raises EOFError) before the SIGHUP is handled: a hangup (129),
    not a bug (docs/reliability.md, F16). Here the pty is not the game's controlling
    terminal, so no SIGHUP comes at all, and the table waits for keys with no count
    running (nothing to write): the read is the only way the game can learn of it."""
    assert (
        close_the_terminal(controlling=False, env={"STRESS_TUI_POSITION": after_first_flip(12)})
        == 129
    )


# ----------------------------------------------------------------------------- a crash


def crash_session(tmp_path: Path, stderr: Path) -> TtySession:
    """The game with the crash hook, its standard error going to ``stderr``."""
    argv = [
        "sh",
        "-c",
        'exec "$@" 2>"$STRESS_TUI_STDERR"',
        "sh",
        sys.executable,
        "-m",
        "stress_tui",
        "--seed",
        "12",
        # Computers: the round starts at once (people would first say they are ready, and
        # their first key is the crash).
        "--p1",
        "bot:easy",
        "--p2",
        "bot:easy",
    ]
    env = {**private_env(tmp_path), "STRESS_TUI_TEST_CRASH": "1", "STRESS_TUI_STDERR": str(stderr)}
    return TtySession(argv, env=env, cwd=REPO)


def test_a_crash_restores_the_terminal_and_puts_the_traceback_on_stderr(
    tmp_path: Path,
) -> None:
    """The crash hook raises inside the loop: exit 1, the terminal restored, on standard
    error (not on the screen) one line that says stress-tui stopped because of a bug
    (docs/reliability.md, F8) then the traceback, and the round's replay left readable.
    (That the terminal is restored before the traceback is printed: ``test_app_e2e``.)"""
    from stress_tui.storage.replay import load

    err = tmp_path / "stderr.txt"
    with crash_session(tmp_path, err) as s:
        wait_table(s)
        s.wait_for(lambda: "1 card" in s.text(), timeout=3, what="the flip")  # recorded
        s.send("x")
        assert s.wait_exit() == 1
        assert_restored(s)
        assert b"Traceback" not in s.raw_log()
    text = err.read_text()
    first = text.splitlines()[0]
    assert first.startswith("stress-tui: ") and "RuntimeError" in first, first
    assert "Traceback (most recent call last)" in text
    assert text.rstrip().endswith(
        "RuntimeError: STRESS_TUI_TEST_CRASH: a crash on the first key, as asked"
    )
    (part,) = (data_dir(tmp_path) / "replays").iterdir()
    assert part.name.endswith(".jsonl.part")
    assert load(part).end is None


# ----------------------------------------------------------------------------- long play


@pytest.mark.slow
def test_a_short_soak_of_bots_in_the_real_table(tmp_path: Path) -> None:
    """25 s of ``bench/soak.py`` (skat to one win, seed 55: the first round ends in about
    4 s, then rematches): the next round begins, every round's cards counted inside, the
    table never silent for long, the terminal restored."""
    from bench.soak import run_soak

    result = run_soak(
        25,
        tmp_path,
        interval=1.0,
        seed=55,
        audit=True,
        extra_args=("--deck", "skat", "--wins", "1"),
    )
    assert result.failure is None and result.rounds >= 1, result.summary()
    assert len(result.inside) >= 2 and all(r["same"] for r in result.inside), result.summary()
    assert result.exit_code == 130 and not result.restore_problems, result.summary()
    assert result.tty_mode_restored and result.longest_silence < 5, result.summary()
    assert result.files_steady, result.summary()


# ----------------------------------------------------------------------------- files


def tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_a_round_writes_only_whole_files_and_a_kill_in_the_next_leaves_them_whole(
    tmp_path: Path,
) -> None:
    """A real round between computers: the config file is read and left as it was; the
    only files written anywhere (home, XDG directories) are the round's replay and the
    record, both whole, no temporary file left. Then SIGKILL (nothing can be cleaned up)
    in the middle of the next round: its replay ``.part`` reads (cut short, its last line
    at worst torn), the finished replay and the record are untouched. (The module-level
    kill test at five points of writing: ``tests/test_replay.py``.)"""
    from stress_tui.storage.record import Record
    from stress_tui.storage.replay import load
    from stress_tui.storage.verify import verify

    config = tmp_path / "config.toml"
    config.write_text('names = ["Ann", "Bo"]\n')
    os.utime(config, ns=(1_000_000_000, 1_000_000_000))
    before = tree(tmp_path)
    data = data_dir(tmp_path).name
    with game(tmp_path, SKAT_BOTS, {"STRESS_TUI_CONFIG": str(config)}) as s:
        s.wait_text("Enter: rematch", timeout=30)
        written = tree(tmp_path)
        new = sorted(set(written) - set(before))
        assert len(new) == 2 and new[0] == f"{data}/record.sqlite", new
        assert new[1].startswith(f"{data}/replays/") and new[1].endswith(".jsonl"), new
        assert verify(load(tmp_path / new[1])).ok
        record = Record.load(tmp_path / new[0])
        assert record.rows() == []  # computers, counted apart from people, by level
        assert [level for level, _, _ in record.computer_rows()] == ["expert"]
        s.send("\r")  # the next match's first round, recorded as it is played
        folder = data_dir(tmp_path) / "replays"
        s.wait_for(
            lambda: (
                any(p.name.endswith(".part") for p in folder.iterdir()) and "1 card" in s.text()
            ),
            timeout=5,
            what="the next round under way",
        )
        s.child.kill(signal.SIGKILL)
        assert s.wait_exit() == -signal.SIGKILL
    assert config.read_bytes() == before["config.toml"]
    assert config.stat().st_mtime_ns == 1_000_000_000
    after = tree(tmp_path)
    (part,) = sorted(set(after) - set(written))
    assert part.startswith(f"{data}/replays/") and part.endswith(".jsonl.part"), part
    assert load(tmp_path / part).end is None
    assert {k: after[k] for k in new} == {k: written[k] for k in new}


# ----------------------------------------------------------------------------- the record held


def hold_locked(record: Path) -> subprocess.Popen[str]:
    """Another program that holds the record locked (an exclusive transaction) until a
    line is written to it (or its input closes); returned once it holds it."""
    code = (
        "import sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "db.execute('BEGIN EXCLUSIVE')\n"
        "print('locked', flush=True)\n"
        "sys.stdin.readline()\n"
        "db.execute('ROLLBACK')\n"
    )
    locker = subprocess.Popen(
        [sys.executable, "-c", code, str(record)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert locker.stdout is not None and locker.stdout.readline() == "locked\n"
    return locker


def test_a_record_held_locked_across_a_rounds_end_freezes_nothing_and_loses_no_round(
    data: Path,
) -> None:
    """Another program holds the record across a round's end: the table answers Ctrl-L
    while it holds it, the result says the round will be counted, then, once it lets go,
    that it is, and every round of the session is counted (docs/reliability.md)."""
    from stress_tui.storage.record import Record
    from tests.test_app_e2e import game
    from tests.test_app_files import BOTS, BOTS_SEED

    record = data / "record.sqlite"
    with game(BOTS_SEED, args=BOTS) as s:
        for number in range(1, 6):  # five rounds, each a match of one (Enter: a rematch)
            if number == 2:  # the record exists: another program takes it
                locker = hold_locked(record)
            s.wait_text("wins the match!", timeout=60)
            if number == 2:
                try:
                    s.wait_text("record: busy", timeout=10)
                    times = [answers(s, within=5.0) for _ in range(3)]  # the record held
                    assert all(t is not None for t in times), f"Ctrl-L unanswered: {times}"
                finally:
                    locker.communicate("\n", timeout=30)  # the record free again
                s.wait_text("record: counted", timeout=30)  # the locked round, now it is free
            s.wait_text("Enter: rematch", timeout=5)
            if number < 5:
                s.send("\r")
                s.wait_for(lambda: "wins the match!" not in s.text(), timeout=10, what="a round")
        s.send("q")
        assert s.wait_exit(timeout=10) == 0
    expert = Record.load(record).computer_rows()
    assert [(level, st.rounds_won + st.rounds_lost) for level, _, st in expert] == [("expert", 10)]
