"""Where files live and how they are written: atomically, never half, never over a bad one.

Files go in the user's data directory for ``stress-tui`` (from ``platformdirs``), or in
``$STRESS_TUI_DATA_DIR`` when that is set (tests use it). A whole file is written to a
temporary file beside it, flushed to disk, then renamed over the old one, so a crash or a
full disk leaves either the old file or the new one. A file that cannot be read or parsed
is reported in one line (``StorageError``) and left exactly as it is.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import stat
from pathlib import Path
from typing import Any


class StorageError(Exception):
    """A file that cannot be read, parsed or written; the message is one line."""


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
    written in place."""
    folder.mkdir(parents=True, exist_ok=True)
    for _ in range(100):
        tmp = folder / f".{name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary file name", str(folder))


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that the file is always whole, old or new (and keeps
    the permissions the old one had)."""
    fd, tmp = create_temporary(path.parent, path.name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_json(path: Path) -> Any:
    """Read a JSON file; ``StorageError`` in one line if it is unreadable or broken."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StorageError(f"{path}: cannot read: {reason(error)}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise StorageError(
            f"{path}:{error.lineno}: not valid JSON ({error.msg}); left as it is"
        ) from None
    except (ValueError, RecursionError):  # a number too long, brackets nested too deep
        raise StorageError(f"{path}: not valid JSON; left as it is") from None


def reason(error: BaseException) -> str:
    """An error in a few words, for a one-line message (``permission denied``)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error).splitlines()[0] if str(error) else type(error).__name__
