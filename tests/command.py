"""``stress-tui ARGS`` run in-process, as a shell would run it with its output piped: what
it writes to standard output and error, as the bytes a pipe gets, and its exit status.

``cli.main.main`` is the program's whole edge (``python -m stress_tui`` calls it and
exits with its status), so a command that draws nothing says the same here as in a
process of its own, at a thousandth of the cost. What only a process shows (a closed
pipe, a full disk, a memory limit, a signal, a terminal) is tested with one.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager


def run(
    *args: str,
    env: Mapping[str, str | None] | None = None,
    encoding: str = "utf-8",
    stdout_fd: int | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """``stress-tui ARGS`` in-process, with ``env`` in the environment (``None``: removed);
    standard input and output are no terminal. Its output as bytes (in ``encoding``, UTF-8
    as under ``LANG=C.UTF-8``, ``ascii`` as under ``PYTHONIOENCODING=ascii``; standard
    error with backslash escapes where text cannot be encoded, as Python writes it). With
    ``stdout_fd``, standard output is written to that file descriptor instead, buffered
    as Python buffers a file or a pipe (``> /dev/full``, ``| true``), and not captured."""
    from stress_tui.cli.main import main
    from stress_tui.terminal.lang import choose

    out, err = io.BytesIO(), io.BytesIO()
    stdout = (
        io.TextIOWrapper(out, encoding=encoding, errors="strict", write_through=True)
        if stdout_fd is None
        else open(stdout_fd, "w", encoding=encoding, errors="strict", closefd=False)  # noqa: SIM115
    )
    stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(), stdout, stderr
    try:
        with environment(env or {}):
            status = main(list(args))
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        choose(None)  # the language back to the environment's
    stdout.flush()
    stderr.flush()
    if stdout_fd is not None:
        stdout.close()  # the file descriptor is the caller's, left open
    return subprocess.CompletedProcess(list(args), status, out.getvalue(), err.getvalue())


def run_text(
    *args: str, env: Mapping[str, str | None] | None = None
) -> subprocess.CompletedProcess[str]:
    """``run``, its output as text."""
    done = run(*args, env=env)
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode(), done.stderr.decode()
    )


@contextmanager
def environment(env: Mapping[str, str | None]) -> Iterator[None]:
    """The process's environment with ``env`` (``None``: removed), for the block."""
    saved = {key: os.environ.get(key) for key in env}
    try:
        _put(env)
        yield
    finally:
        _put(saved)


def _put(env: Mapping[str, str | None]) -> None:
    """Set the process's environment's ``env`` (``None``: removed)."""
    for key, value in env.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
