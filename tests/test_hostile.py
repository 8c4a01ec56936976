"""Hostile files and output that cannot be written, tried on the real program: every one
gives one clear line and the conventional exit status, at once; nothing read from a file
reaches the terminal raw.

Here is what needs a process of its own: a file that is not a file (a FIFO, a device, a
huge file, read within a memory limit), a closed pipe, a full disk, a closed terminal,
Ctrl-C, an ASCII-only standard output, a garbage position before the terminal is taken.
Commands that draw nothing run as plain subprocesses (their bytes checked); the game and
the replay viewer run in a pseudo-terminal (``tests/tty.py``). Crafted text in files and
flags is tried in-process: ``tests/test_hostile_text.py``.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from stress_tui.storage.record import count_round
from tests.screen import restore_problems, restored, say_ready
from tests.test_hostile_text import NO_CONFIG, craft_header, not_a_file, one_line, record_round
from tests.test_stats import won_by
from tests.tty import TtySession

REPO = Path(__file__).resolve().parents[1]


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a command: the test's own data folder and no config file."""
    return {
        **os.environ,
        "STRESS_TUI_DATA_DIR": str(tmp_path / "data"),
        "STRESS_TUI_CONFIG": NO_CONFIG,
        **extra,
    }


MEMORY = 512 * 2**20
"""The address space a command gets: a reader that tried to hold a hostile file whole
would fail (``MemoryError``, exit 1) instead of passing."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def stress_tui(
    tmp_path: Path,
    *args: str,
    stdout: int | None = subprocess.PIPE,
    timeout: float = 30,
    **extra: str,
) -> subprocess.CompletedProcess[bytes]:
    """``stress-tui ARGS`` without a terminal, in ``MEMORY``; output as bytes."""
    return subprocess.run(
        [sys.executable, "-m", "stress_tui", *args],
        cwd=REPO,
        env=env_for(tmp_path, **extra),
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        timeout=timeout,
        preexec_fn=_limit_memory,
    )


# ----------------------------------------------------------------------------- point 4


def test_a_crafted_replay_s_names_are_shown_harmless_in_the_viewer(tmp_path: Path) -> None:
    """The replay viewer draws the names read from the file: in a pseudo-terminal, the
    crafted sequences are never written (the title, the clipboard, the clear), and the
    names show as visible escapes."""
    path = record_round(tmp_path / "data" / "replays")
    craft_header(path, names=["A\x1b]0;PW\x07", "B\x1b]52;c;eA==\x07"])
    env = {"STRESS_TUI_DATA_DIR": str(tmp_path / "data"), "STRESS_TUI_CONFIG": NO_CONFIG}
    with TtySession(args=["replay", str(path)], env=env) as s:
        s.wait_for(lambda: "REPLAY" in s.row(0), timeout=10, what="the replay's title")
        s.wait_text("A\\u001B]0;PW\\u0007", timeout=5)
        s.send("q")
        assert s.wait_exit() == 0
        log = s.raw_log()
    assert b"]0;PW" not in log.replace(b"\\u001B]0;PW", b"")
    assert b"\x1b]52" not in log and b"\x1b]0;" not in log
    assert restored(log), restore_problems(log)


# ----------------------------------------------------------------------------- point 6


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _huge(path: Path) -> None:
    with path.open("wb") as file:  # sparse: 8 GiB on paper, nothing on disk
        file.truncate(8 * 2**30)


HOSTILE: dict[str, tuple[Callable[[Path], object], str]] = {
    "fifo": (_fifo, "is a named pipe (FIFO), not"),
    "dev-zero": (lambda p: p.symlink_to("/dev/zero"), "is a device, not"),
    "huge": (_huge, "is 8 GiB, larger than"),
}
"""Files that are not files that a reader could hang on or fill its memory with, each made
at a path, and what the line about it says (a folder and a loop of links, in-process:
``tests/test_hostile_text.py``)."""


@pytest.mark.parametrize("case", list(HOSTILE))
@pytest.mark.parametrize("role", ["config", "keys", "replay-verify", "replay-list"])
def test_a_file_that_is_not_a_file_is_one_line_at_once(
    tmp_path: Path, case: str, role: str
) -> None:
    """A FIFO, ``/dev/zero`` or a huge file as the config file, the ``--keys`` file or a
    replay neither hangs the program nor eats memory. Only a regular file is read, opened
    so that opening cannot block, up to a size limit: one clear line, exit 2, at once (the
    10 s timeout is a hang, never reached)."""
    make, said = HOSTILE[case]
    not_a_file(
        tmp_path, make, said, role, lambda *a, **e: stress_tui(tmp_path, *a, timeout=10, **e)
    )


def test_replay_verify_dev_zero_answers_at_once_in_little_memory(tmp_path: Path) -> None:
    """``replay --verify /dev/zero`` and a replay whose one line is 15 MB: one line each,
    within ``MEMORY``, at once."""
    line = one_line(stress_tui(tmp_path, "replay", "--verify", "/dev/zero", timeout=10))
    assert line == "stress-tui: /dev/zero: is a device, not a replay"
    long = tmp_path / "long.jsonl"
    long.write_bytes(b'{"format":"stress-tui replay","version":1,"x":"' + b"y" * 15 * 2**20)
    line = one_line(stress_tui(tmp_path, "replay", "--verify", str(long), timeout=10))
    assert line.endswith(":1: a line longer than 64 KiB")


def long_replay(path: Path, actions: int) -> None:
    """A replay of a round with a great many actions (players saying ready, again and
    again): seconds of work to read and re-simulate."""
    header = {
        "format": "stress-tui replay",
        "version": 1,
        "seed": 1,
        "rules": "standard",
        "names": ["Ann", "Bo"],
    }
    line = b'{"t":1.5,"a":"ready","p":0}\n'
    path.write_bytes(json.dumps(header).encode() + b"\n" + line * actions)


def test_ctrl_c_stops_a_long_replay_verify_at_once(tmp_path: Path) -> None:
    """Ctrl-C while ``replay --verify`` reads a long replay (in a pseudo-terminal, where
    Ctrl-C is the terminal's SIGINT to the program): exit 130, no traceback."""
    path = tmp_path / "long.jsonl"
    long_replay(path, 550_000)  # just under 16 MiB
    env = {"STRESS_TUI_DATA_DIR": str(tmp_path / "data"), "STRESS_TUI_CONFIG": NO_CONFIG}
    with TtySession(args=["replay", "--verify", str(path)], env=env) as s:
        fd = Path(f"/proc/{s.pid}/fd")

        def reading() -> bool:
            return any(
                os.path.realpath(link) == str(path) for link in fd.iterdir() if link.is_symlink()
            )

        s.wait_for(reading, timeout=10, what="the replay open")
        s.send("\x03")
        assert s.wait_exit(timeout=5) == 130
        assert "Traceback" not in s.text() and "KeyboardInterrupt" not in s.text()


@pytest.mark.parametrize("name", ["record.json", "record.sqlite"])
def test_a_fifo_as_the_record_never_hangs_the_game(tmp_path: Path, name: str) -> None:
    """With a FIFO as ``record.json`` the game starts, says once that the record cannot be
    read, and plays; so with the database."""
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / name)
    env = {"STRESS_TUI_DATA_DIR": str(data), "STRESS_TUI_CONFIG": NO_CONFIG}
    with TtySession(args=["--seed", "12"], env=env) as s:
        say_ready(s)  # the record is first read when the round's first action is kept
        s.wait_text("The record file cannot be read", timeout=10)
        s.send("\x03")
        assert s.wait_exit() == 130
    assert (data / name).is_fifo()


# ----------------------------------------------------------------------------- point 12


def test_an_ascii_only_stdout_shows_other_characters_as_escapes(tmp_path: Path) -> None:
    """With an ASCII-only stdout, ``stats``, ``replay --list``, ``replay --verify`` and
    ``--print-config`` write a non-ASCII name with a character ASCII lacks as an escape
    (``\\u00EB``) that TOML and JSON read back: ``--print-config``'s output is still a
    config file."""
    folder = tmp_path / "data" / "replays"
    path = record_round(folder, names=("Zoë", "Bø"))
    count_round(("Zoë", "Bø"), "skat", won_by(0), False, tmp_path / "data" / "record.sqlite")
    for argv in (["stats"], ["replay", "--list"], ["replay", "--verify", str(path)]):
        done = stress_tui(tmp_path, *argv, PYTHONIOENCODING="ascii")
        assert (done.returncode, done.stderr) == (0, b""), done.stderr[-300:]
        # --verify names the winner alone, whichever of the two won the recorded round.
        assert b"Zo\\u00EB" in done.stdout or b"B\\u00F8" in done.stdout, done.stdout
        assert done.stdout.isascii()
    printed = stress_tui(tmp_path, "--names", "Zoë,Bø", "--print-config", PYTHONIOENCODING="ascii")
    assert printed.returncode == 0 and printed.stdout.isascii()
    config = tmp_path / "config.toml"
    config.write_bytes(printed.stdout)
    again = stress_tui(tmp_path, "--print-config", STRESS_TUI_CONFIG=str(config))
    assert b'names = ["Zo\xc3\xab", "B\xc3\xb8"]' in again.stdout


OUTPUT_COMMANDS = {
    "help": ["--help"],
    "version": ["--version"],
    "print-config": ["--print-config"],
    "rules": ["--rules"],
    "stats": ["stats"],
    "replay-list": ["replay", "--list"],
    "replay-verify": ["replay", "--verify", "REPLAY"],
    "sim": ["sim", "--games", "30", "--seed", "1"],
}


def _argv(tmp_path: Path, name: str) -> list[str]:
    folder = tmp_path / "data" / "replays"
    path = record_round(folder)
    return [str(path) if word == "REPLAY" else word for word in OUTPUT_COMMANDS[name]]


@pytest.mark.parametrize("name", list(OUTPUT_COMMANDS))
def test_output_on_a_full_disk_is_one_line_and_status_1(tmp_path: Path, name: str) -> None:
    """Stdout on ``/dev/full`` (``--help > /dev/full`` too): one line, status 1 (as the
    coreutils do), never a traceback nor a success."""
    with open("/dev/full", "wb") as full:
        done = stress_tui(tmp_path, *_argv(tmp_path, name), stdout=full.fileno())
    line = one_line(done, status=1)
    assert line == "stress-tui: cannot write the output: no space left on device"


@pytest.mark.parametrize("name", list(OUTPUT_COMMANDS))
def test_output_to_a_closed_pipe_ends_quietly_with_141(tmp_path: Path, name: str) -> None:
    """A pipe its reader has closed (``sim --games 300 | true``, ``replay --list | head
    -0``) ends the command quietly with 141, what a shell reports for git or ``cat`` in
    the same place (128 + SIGPIPE)."""
    argv = _argv(tmp_path, name)
    reader, writer = os.pipe()
    os.close(reader)  # the reader has gone before anything is written: always EPIPE
    try:
        done = stress_tui(tmp_path, *argv, stdout=writer)
    finally:
        os.close(writer)
    assert (done.returncode, done.stderr) == (141, b"")


@pytest.mark.parametrize("name", list(OUTPUT_COMMANDS))
def test_output_to_a_closed_terminal_is_a_hangup_129(tmp_path: Path, name: str) -> None:
    """A terminal that has gone is a hangup, for the commands as for the game: 129, and
    nothing said (nobody is left to read it), unlike a full disk."""
    argv = _argv(tmp_path, name)
    master, slave = os.openpty()
    os.close(master)  # the window is closed before anything is written: always EIO
    try:
        done = stress_tui(tmp_path, *argv, stdout=slave)
    finally:
        os.close(slave)
    assert (done.returncode, done.stderr) == (129, b"")


# ----------------------------------------------------------------------------- point 15


@pytest.mark.parametrize("position", ["garbage", "rules: nope", "p1 row: ZZ", "\x1b[2J"])
def test_a_garbage_position_in_the_test_hook_says_what_is_wrong(
    tmp_path: Path, position: str
) -> None:
    """A garbage ``STRESS_TUI_POSITION``, in a pseudo-terminal: one line saying what is
    wrong, exit 2, and the terminal never taken (no alternate screen, no hidden cursor)."""
    env = {
        "STRESS_TUI_DATA_DIR": str(tmp_path / "data"),
        "STRESS_TUI_CONFIG": NO_CONFIG,
        "STRESS_TUI_POSITION": position,
    }
    with TtySession(args=["--seed", "1"], env=env) as s:
        assert s.wait_exit(timeout=10) == 2
        log = s.raw_log()
    text = log.decode(errors="replace").strip()
    assert text.startswith("stress-tui: STRESS_TUI_POSITION: not a position in notation ("), text
    assert text.count("\n") == 0 and "Traceback" not in text
    assert b"\x1b[?1049h" not in log and b"\x1b[?25l" not in log
    assert b"\x1b[2J" not in log
