"""Tests of the pseudo-terminal harness (tests/tty.py) against tests/fixtures/echo_app.py."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.screen import KEYS, ScreenFilter, final_dec_modes, restore_problems, restored
from tests.tty import TtySession, child_env

ECHO_APP = Path(__file__).parent / "fixtures" / "echo_app.py"
ECHO_ARGV = [sys.executable, str(ECHO_APP)]


def first_frame_up(s: TtySession) -> bool:
    return s.row(0).startswith("key=- n=0 ") and s.row(1).startswith("size=")


@pytest.fixture
def echo() -> Iterator[TtySession]:
    with TtySession(ECHO_ARGV, rows=24, cols=80) as s:
        s.wait_for(lambda: first_frame_up(s), what="first frame")
        yield s


# -- against the echo app --------------------------------------------------------------------------


def test_the_screen_shows_the_first_frame_keys_resizes_and_the_quit_restoring_the_terminal(
    echo: TtySession,
) -> None:
    """One run of the echo program, read in turn: its first frame (a wait that times out
    shows the screen), keys, resizes, then q: the terminal restored, and a wait for
    what never comes fails at once when the program closes the terminal. Each used to
    start the program of its own; a start is most of such a test's CPU."""
    assert echo.row(0).rstrip() == "key=- n=0"
    assert echo.row(1).rstrip() == "size=80x24"
    assert echo.text().count("\n") == 23
    # The start-up queries were answered by the screen (that is what makes start-up fast) and
    # the XTGETTCAP strings pyte cannot parse left no text behind.
    assert echo.screen.replies >= 1
    assert b"\x1bP+q" in echo.raw_log()
    assert "+q" not in echo.text()

    with pytest.raises(AssertionError) as info:
        echo.wait_text("never shown", timeout=0.1)
    message = str(info.value)  # the timeout given, not the 5 s default
    assert "timed out after 0.1 s waiting for 'never shown' on screen" in message
    assert "  0|key=- n=0" in message
    assert "  1|size=80x24" in message

    echo.send("a")
    echo.wait_text("key=a n=1", row=0)
    echo.send(KEYS["up"])
    echo.wait_for(lambda: echo.row(0).split() == ["key=KEY_UP", "n=2"], what="KEY_UP")
    echo.send(b"xyz")
    echo.wait_text("n=5", row=0)
    assert echo.row(0).split() == ["key=z", "n=5"]

    echo.resize(30, 100)
    echo.wait_text("size=100x30", row=1)
    assert (echo.rows, echo.cols) == (30, 100)
    assert len(echo.row(29)) == 100
    echo.resize(10, 40)
    echo.wait_text("size=40x10", row=1)
    assert echo.row(0).split() == ["key=z", "n=5"]

    echo.send("b")
    echo.wait_text("key=b n=6", row=0)
    echo.send("q")
    # When it closed, not at the timeout: that would say "timed out after 60.0 s".
    with pytest.raises(AssertionError, match="closed the terminal while waiting for never"):
        echo.wait_for(lambda: False, timeout=60.0, what="never")
    assert echo.wait_exit(timeout=5.0) == 0
    log = echo.raw_log()
    assert restored(log), restore_problems(log)
    assert echo.tty_mode_restored()
    # The restoring sequences come after the last frame.
    last_frame = log.rfind(b"key=b n=6")
    assert 0 <= last_frame < log.rfind(b"\x1b[?1049l")
    assert last_frame < log.rfind(b"\x1b[?25h")


def test_a_killed_program_is_caught_not_restoring(echo: TtySession) -> None:
    echo.child.kill(signal.SIGKILL)
    assert echo.wait_exit() == -signal.SIGKILL
    assert not echo.tty_mode_restored()  # left in cbreak mode
    assert not restored(echo.raw_log())
    assert set(restore_problems(echo.raw_log())) == {
        "alternate screen still on (last ?1049 was h)",
        "cursor left hidden (last ?25 was l)",
    }


def test_close_ends_a_running_program() -> None:
    s = TtySession(ECHO_ARGV)
    s.wait_for(lambda: first_frame_up(s), what="first frame")
    assert s.close() == -signal.SIGHUP
    assert s.close() == -signal.SIGHUP  # idempotent
    assert s.pump(0.01) == 0


def test_a_program_starts_with_the_signals_a_terminal_gives_whatever_started_the_tests() -> None:
    """Run from a script's ``&`` or from ``nohup``, these tests ignore SIGINT, SIGQUIT or
    SIGHUP, and would pass that on; the program in the pseudo-terminal still starts with
    them at their defaults and none blocked, as from a shell in a terminal."""
    show = (
        "import signal as s; print(s.getsignal(s.SIGINT) is s.default_int_handler, "
        "s.getsignal(s.SIGQUIT) == s.getsignal(s.SIGHUP) == s.SIG_DFL, "
        "s.pthread_sigmask(s.SIG_BLOCK, []) == set())"
    )
    ignored = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP)
    outer = {sig: signal.signal(sig, signal.SIG_IGN) for sig in ignored}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        s = TtySession([sys.executable, "-c", show])
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        for sig, handler in outer.items():
            signal.signal(sig, handler)
    with s:
        assert s.wait_exit() == 0
        assert s.row(0).split() == ["True", "True", "True"]


# -- pure helpers ----------------------------------------------------------------------------------


def test_child_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_COLOR", "COLORTERM", "TERM_PROGRAM", "FORCE_COLOR", "COLUMNS"):
        monkeypatch.setenv(name, "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("KEEP_ME", "yes")
    env = child_env({"EXTRA": "x", "KEEP_ME": None, "LANG": "en_US.UTF-8"})
    for name in ("NO_COLOR", "COLORTERM", "TERM_PROGRAM", "FORCE_COLOR", "COLUMNS", "KEEP_ME"):
        assert name not in env
    assert env["TERM"] == "xterm-256color"
    assert env["PYTHONUNBUFFERED"] == "1"
    assert env["LANG"] == "en_US.UTF-8"
    assert env["EXTRA"] == "x"


@pytest.mark.parametrize(
    ("log", "problems"),
    [
        (b"\x1b[?1049h\x1b[?25lframe\x1b[?12l\x1b[?25h\x1b[?1049l", []),
        (b"\x1b[?1049h\x1b[?25lframe\x1b[?1049l", ["cursor left hidden (last ?25 was l)"]),
        (b"\x1b[?1049h\x1b[?25lframe\x1b[?25h", ["alternate screen still on (last ?1049 was h)"]),
        # Leaving, then drawing and entering again, is not restored.
        (
            b"\x1b[?1049h\x1b[?1049l\x1b[?1049h\x1b[?25h",
            ["alternate screen still on (last ?1049 was h)"],
        ),
        (b"plain text\r\n", ["alternate screen never entered"]),
        (b"\x1b[?1049;1000h\x1b[?1049l", ["mode ?1000 left on"]),
        (b"\x1b[?1049;2004h\x1b[?2004;1049l\x1b[?25h", []),
    ],
)
def test_restore_problems(log: bytes, problems: list[str]) -> None:
    assert restore_problems(log) == problems
    assert restored(log) is (not problems)


def test_final_dec_modes() -> None:
    assert final_dec_modes(b"\x1b[?25l\x1b[?1049;1006h\x1b[?25h\x1b[2J") == {
        25: True,
        1049: True,
        1006: True,
    }


def test_screen_filter_drops_what_pyte_would_print() -> None:
    f = ScreenFilter()
    assert f.feed(b"a\x1bP+q544e\x1b\\b") == b"ab"
    # Split anywhere, including inside the terminator.
    assert f.feed(b"c\x1bP+q54") == b"c"
    assert f.feed(b"4e\x1b") == b""
    assert f.feed(b"\\d") == b"d"
    # Kitty keyboard sets and pops go; ordinary CSI sequences stay, even when split.
    assert f.feed(b"\x1b[=1;1u\x1b[<u\x1b[>1u\x1b[1;1H") == b"\x1b[>1u\x1b[1;1H"
    assert f.feed(b"x\x1b[") == b"x"
    assert f.feed(b"2J") == b"\x1b[2J"
    assert f.feed(b"\x1b[=") == b""
    assert f.feed(b"5;1uy") == b"y"
