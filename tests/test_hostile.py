"""Hostile files and output that cannot be written, tried on the real program: every one
gives one clear line and the conventional exit status, at once.

Here is what needs a process of its own: a file that is not a file (a FIFO, a device, a
huge file, read within a memory limit), output that cannot be written to the
interpreter's exit (a full disk, a closed pipe, a closed terminal), Ctrl-C, a garbage
position before the terminal is taken. Commands that draw nothing run as plain
subprocesses (their bytes checked); the game runs in a pseudo-terminal (``tests/tty.py``).
Crafted text in files and flags, and every command's output that cannot be written, are
tried in-process: ``tests/test_hostile_text.py``.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

from tests.screen import say_ready
from tests.test_hostile_text import (
    NO_CONFIG,
    UNWRITTEN,
    not_a_file_command,
    one_line,
    output_argv,
    said_of_not_a_file,
    unwritable,
)
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


ROLES = ("config", "keys", "replay-verify", "replay-list")
"""The commands that read a file the user names or the data folder holds."""

COMMANDS = REPO / "tests" / "fixtures" / "commands.py"

Command = tuple[Sequence[str], Mapping[str, str]]
"""A command's arguments and what it adds to the environment."""


def in_one_process(
    tmp_path: Path, commands: Sequence[Command]
) -> list[subprocess.CompletedProcess[bytes] | None]:
    """``stress-tui ARGS`` for each of ``commands``, without a terminal, ``tmp_path``'s
    data folder and no config file unless it says, one after another in one process of
    their own, in ``MEMORY`` (``tests/fixtures/commands.py``: the limit is the process's,
    and a start each would be most of their cost); output as bytes. ``None`` for one that
    did not end within 20 s or ended the process; the rest then run in a new one."""
    done: list[subprocess.CompletedProcess[bytes] | None] = []
    while len(done) < len(commands):
        left = commands[len(done) :]
        asked = "".join(json.dumps({"args": list(a), "env": dict(e)}) + "\n" for a, e in left)
        try:
            out = subprocess.run(
                [sys.executable, str(COMMANDS)],
                cwd=REPO,
                env=env_for(tmp_path),
                input=asked.encode(),
                capture_output=True,
                timeout=20,
                preexec_fn=_limit_memory,
            ).stdout
        except subprocess.TimeoutExpired as hung:  # those before the one that hangs have said
            out = hung.stdout or b""
        said = [json.loads(line) for line in out.splitlines()]
        for (args, _), one in zip(left, said, strict=False):
            out, err = bytes.fromhex(one["out"]), bytes.fromhex(one["err"])
            done.append(subprocess.CompletedProcess(list(args), one["status"], out, err))
        if len(said) < len(left):  # the next one hung, or ended the process
            done.append(None)
    return done


@pytest.fixture(scope="module")
def not_files(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[tuple[str, str], tuple[subprocess.CompletedProcess[bytes] | None, Path]]:
    """Each of ``HOSTILE``'s files where each of ``ROLES`` reads one, what the command that
    reads it said (``in_one_process``: all twelve in one) and the file's path."""
    made = {}
    for role in ROLES:
        for case, (make, _) in HOSTILE.items():
            folder = tmp_path_factory.mktemp(f"{role}-{case}")
            args, env, path = not_a_file_command(folder, make, role)
            made[role, case] = ((args, {"STRESS_TUI_DATA_DIR": str(folder / "data"), **env}), path)
    said = in_one_process(tmp_path_factory.getbasetemp(), [c for c, _ in made.values()])
    return {key: (done, path) for (key, (_, path)), done in zip(made.items(), said, strict=True)}


@pytest.mark.parametrize("case", list(HOSTILE))
@pytest.mark.parametrize("role", ROLES)
def test_a_file_that_is_not_a_file_is_one_line_at_once(
    not_files: dict[tuple[str, str], tuple[subprocess.CompletedProcess[bytes] | None, Path]],
    case: str,
    role: str,
) -> None:
    """A FIFO, ``/dev/zero`` or a huge file as the config file, the ``--keys`` file or a
    replay neither hangs the program nor eats memory. Only a regular file is read, opened
    so that opening cannot block, up to a size limit: one clear line, exit 2, at once (the
    20 s limit is a hang, never reached)."""
    done, path = not_files[role, case]
    assert done is not None, f"{role} {case}: no answer within 20 s (a hang), or no process left"
    said_of_not_a_file(done, HOSTILE[case][1], role, path)


def test_replay_verify_dev_zero_answers_at_once_in_little_memory(tmp_path: Path) -> None:
    """``replay --verify /dev/zero`` and a replay whose one line is 15 MB: one line each,
    within ``MEMORY``, at once."""
    long = tmp_path / "long.jsonl"
    long.write_bytes(b'{"format":"stress-tui replay","version":1,"x":"' + b"y" * 15 * 2**20)
    zero, long_line = in_one_process(
        tmp_path,
        [(("replay", "--verify", "/dev/zero"), {}), (("replay", "--verify", str(long)), {})],
    )
    assert zero is not None and long_line is not None, "no answer within 20 s (a hang)"
    assert one_line(zero) == "stress-tui: /dev/zero: is a device, not a replay"
    assert one_line(long_line).endswith(":1: a line longer than 64 KiB")


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


@pytest.mark.parametrize(
    ("kind", "name"), [("full", "sim"), ("pipe", "replay-list"), ("terminal", "help")]
)
def test_output_that_cannot_be_written_ends_the_program_as_a_shell_expects(
    tmp_path: Path, kind: str, name: str
) -> None:
    """A command whose output cannot be written, for each way it cannot (every command,
    in-process: ``tests/test_hostile_text.py``), as a process of its own, on the
    standard output Python made at its start, to the status the process exits with: the
    status and the line of ``UNWRITTEN``, nothing more said at the interpreter's exit."""
    fd = unwritable(kind)
    try:
        done = stress_tui(tmp_path, *output_argv(tmp_path, name), stdout=fd)
    finally:
        os.close(fd)
    assert (done.returncode, done.stderr) == UNWRITTEN[kind]


# ----------------------------------------------------------------------------- point 15


def test_a_garbage_position_in_the_test_hook_leaves_the_terminal_untouched(
    tmp_path: Path,
) -> None:
    """A garbage ``STRESS_TUI_POSITION``, in a pseudo-terminal: one line saying what is
    wrong, exit 2, and the terminal never taken (no alternate screen, no hidden cursor),
    the position's own sequence never written (every kind of garbage, in-process:
    ``tests/test_hostile_text.py``)."""
    env = {
        "STRESS_TUI_DATA_DIR": str(tmp_path / "data"),
        "STRESS_TUI_CONFIG": NO_CONFIG,
        "STRESS_TUI_POSITION": "\x1b[2J",
    }
    with TtySession(args=["--seed", "1"], env=env) as s:
        assert s.wait_exit(timeout=10) == 2
        log = s.raw_log()
    text = log.decode(errors="replace").strip()
    assert text.startswith("stress-tui: STRESS_TUI_POSITION: not a position in notation ("), text
    assert text.count("\n") == 0 and "Traceback" not in text
    assert b"\x1b[?1049h" not in log and b"\x1b[?25l" not in log
    assert b"\x1b[2J" not in log
