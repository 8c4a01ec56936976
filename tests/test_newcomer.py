"""What a newcomer trips on in their first hour, in a pseudo-terminal: a key that plays
nothing is never silent."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.tty import TtySession, banner, say_ready

NO_CONFIG = {"STRESS_TUI_CONFIG": "/nonexistent/stress-tui-tests/config.toml"}


@pytest.fixture
def data_env(tmp_path: Path) -> dict[str, str]:
    return {**NO_CONFIG, "STRESS_TUI_DATA_DIR": str(tmp_path / "data")}


@contextmanager
def table(
    env: dict[str, str], *args: str, rows: int = 24, cols: int = 80, ready: bool = True
) -> Iterator[TtySession]:
    """The game at seed 12, its round started (every person said ready)."""
    with TtySession(args=["--seed", "12", *args], rows=rows, cols=cols, env=env) as s:
        s.wait_text("STRESS", timeout=10, row=0)
        if ready:
            say_ready(s)
        yield s


def test_a_key_of_another_keyboard_says_which_keyboard_the_keys_are_placed_for(
    data_env: dict[str, str],
) -> None:
    """On a German keyboard's keys, a US player's ``;`` (player 2's fourth right key on a
    US keyboard) says so and how to get US keys, instead of nothing."""
    with table(data_env, "--keyboard", "de") as s:
        s.send(";")
        s.wait_for(
            lambda: "; is no key here" in banner(s) and "--keyboard us" in banner(s),
            timeout=3,
            what="the keyboard notice",
        )
        assert "German keyboard" in banner(s), banner(s)


def test_the_language_s_keyboard_is_said_when_a_us_key_plays_nothing(
    data_env: dict[str, str],
) -> None:
    """``--lang de`` places the keys for a German keyboard: ``;`` says it, in German, and
    the help says the keyboard in German."""
    with table(data_env, "--lang", "de", ready=False) as s:
        s.wait_text("Bereit-Taste", timeout=5)
        s.send("c,")
        s.wait_for(lambda: "Bereit" not in banner(s), timeout=5, what="the round started")
        s.send(";")
        s.wait_for(lambda: "--keyboard us" in banner(s), timeout=3, what="the notice")
        assert "Taste" in banner(s), banner(s)
        s.send("?")
        s.wait_for(lambda: "--keyboard:" in s.text(), timeout=3, what="the help")
        assert "QWERTZ" in s.text() and "German" not in s.text(), s.text()


def test_a_key_nobody_has_says_so_once_before_the_round_starts(
    data_env: dict[str, str],
) -> None:
    """Before the ready keys, a key nobody has says that help shows the keys."""
    with table(data_env, ready=False) as s:
        s.wait_text("when ready", timeout=5)
        s.send("1")
        s.wait_for(lambda: "1 is no key here" in banner(s), timeout=3, what="the notice")
        assert "?" in banner(s)
