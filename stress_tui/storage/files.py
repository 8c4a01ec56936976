"""Where files live, how they are read and how they are written.

Files go in the user's data directory for ``stress-tui`` (from ``platformdirs``), or in
``$STRESS_TUI_DATA_DIR`` when that is set (tests use it).

Reading: only a regular file is read, never a FIFO, a device, a folder or a socket, and
only up to a size limit. The file is opened without blocking (a FIFO with no writer would
otherwise hang the open) and checked with ``fstat`` on what was opened, so a symbolic link
to ``/dev/zero`` is refused like ``/dev/zero`` itself. Anything else is one line
(``StorageError``) saying what the file is, and the file is left exactly as it is.

Writing: a new file is made whole under a hidden temporary name beside it
(``create_temporary``), then given its name; the record is written through SQLite
(``storage.record``), which follows a symbolic link to its target.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

from stress_tui.core.text import N_, Problem, Term


class StorageError(Problem):
    """A file that cannot be read, parsed or written; the message is one line (an ``N_``
    text and its values, said in the player's language where it is shown)."""


class Missing(StorageError):
    """The file is not there (a ``StorageError`` for those who need it, and told apart
    from the others by those who do not)."""


class NotAFolderError(NotADirectoryError):
    """A file stands where a folder should be; ``reason`` says so in words."""


MiB = 2**20


def size_words(size: int) -> str | Problem:
    """A size in bytes for a message: ``512 bytes``, ``1 MiB``, ``7.4 GiB`` (the bytes
    said in the message's language)."""
    if size < 1024:
        return Problem(N_("{n} bytes"), n=size)
    for unit, scale in (("GiB", 2**30), ("MiB", MiB), ("KiB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    raise AssertionError("unreachable")


_KINDS = (
    (stat.S_ISDIR, Term(N_("a folder"))),
    (stat.S_ISFIFO, Term(N_("a named pipe (FIFO)"))),
    (stat.S_ISCHR, Term(N_("a device"))),
    (stat.S_ISBLK, Term(N_("a device"))),
    (stat.S_ISSOCK, Term(N_("a socket"))),
)

A_FILE = Term(N_("a file"))
"""What a file is called where nothing more is known of it."""


def open_regular(path: Path, limit: int, what: Term = A_FILE) -> BinaryIO:
    """``path`` open for reading in binary, if it is a regular file of at most ``limit``
    bytes (``what`` names it in the message: ``a replay``). Never blocks: a FIFO, a
    device, a folder, a socket (or a link to one) is refused, as is a file too large;
    ``Missing`` if there is nothing there, ``StorageError`` in one line otherwise."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):  # not there, or a file above it
        raise Missing(N_("{path}: no such file"), path=path) from None
    except OSError as error:
        raise StorageError(cannot_read(path, error)) from None
    try:
        info = os.fstat(fd)
        for test, kind in _KINDS:
            if test(info.st_mode):
                raise StorageError(
                    N_("{path}: is {kind}, not {what}"), path=path, kind=kind, what=what
                )
        if not stat.S_ISREG(info.st_mode):
            raise StorageError(
                N_("{path}: is not a regular file, not {what}"), path=path, what=what
            )
        if info.st_size > limit:
            raise StorageError(
                N_("{path}: is {size}, larger than {what} can be ({limit})"),
                path=path,
                size=size_words(info.st_size),
                what=what,
                limit=size_words(limit),
            )
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def cannot_read(path: Path, error: OSError) -> Problem:
    """``PATH: cannot read: permission denied``."""
    return Problem(N_("{path}: cannot read: {why}"), path=path, why=reason(error))


def read_regular(path: Path, limit: int, what: Term = A_FILE) -> bytes:
    """The bytes of ``path``, read as ``open_regular`` opens it (and refused if it grew
    past ``limit`` since it was opened)."""
    with open_regular(path, limit, what) as file:
        try:
            data = file.read(limit + 1)
        except OSError as error:
            raise StorageError(cannot_read(path, error)) from None
    if len(data) > limit:
        raise StorageError(too_large(path, what, limit))
    return data


def too_large(path: Path, what: Term, limit: int) -> Problem:
    """``PATH: larger than a replay can be (16 MiB)``."""
    return Problem(
        N_("{path}: larger than {what} can be ({limit})"),
        path=path,
        what=what,
        limit=size_words(limit),
    )


def ensure_folder(folder: Path) -> None:
    """Make ``folder`` (and the folders above it) if need be; ``NotAFolderError`` when a
    file stands where one of them should be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        for place in (folder, *folder.parents):
            if place.exists() and not place.is_dir():
                raise NotAFolderError(
                    errno.ENOTDIR, f"{place} is a file, where a folder should be"
                ) from None
        raise


def data_dir() -> Path:
    """The directory for replays and the record (not created here)."""
    override = os.environ.get("STRESS_TUI_DATA_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("stress-tui", appauthor=False))


def create_temporary(folder: Path, name: str) -> tuple[int, Path]:
    """A new hidden file ``.NAME.XXXXXXXX.tmp`` in ``folder`` (made if need be), open for
    writing. Its permissions are those of any new file (``0666`` less the umask), not the
    ``0600`` of ``tempfile.mkstemp``, so that a file renamed from it looks like one
    written in place (F12 in ``docs/reliability.md``)."""
    import secrets  # here: what only reads (the config, a replay) need not load it

    ensure_folder(folder)
    for _ in range(100):
        tmp = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(folder))


def read_json(path: Path, limit: int, what: Term = A_FILE) -> Any:
    """Read a JSON file of at most ``limit`` bytes; ``StorageError`` in one line if it is
    not a regular file, too large, unreadable or broken (``Missing`` if absent)."""
    import json  # here: the config file reads through this module too, and is TOML

    try:
        text = read_regular(path, limit, what).decode("utf-8")
    except UnicodeDecodeError:
        raise StorageError(N_("{path}: not UTF-8 text; left as it is"), path=path) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise StorageError(
            N_("{path}:{line}: not valid JSON ({why}); left as it is"),
            path=path,
            line=error.lineno,
            why=error.msg,
        ) from None
    except (ValueError, RecursionError):  # a number too long, brackets nested too deep
        raise StorageError(N_("{path}: not valid JSON; left as it is"), path=path) from None


def reason(error: BaseException) -> str:
    """An error in a few words, for a one-line message (``permission denied``)."""
    if isinstance(error, NotAFolderError):
        return str(error.strerror)
    if isinstance(error, OSError) and error.errno == errno.ELOOP:
        return Term(N_("symbolic links that lead round in a loop"))  # said in a Problem
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error).splitlines()[0] if str(error) else type(error).__name__
