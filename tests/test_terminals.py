"""The game as players meet it on their terminals, played in-process (``tests/pilot.py``:
an in-process terminal that answers as theirs do, the loop's clock virtual): a light
background read as such and drawn with enough contrast, a C locale drawn in letters, fair
starts and resumes, seeds that deal a round again, keys for other keyboards, and a
terminal that does not say its background starting at once; no terminal at all, one line.
One that answers nothing at all, in a pseudo-terminal: ``tests/test_odd_terminals.py``."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from stress_tui.terminal.endpoint import ANSWER_SECONDS
from stress_tui.terminal.layout import flipped, layout
from tests.pilot import START, game
from tests.screen import Screenful, banner, say_ready, settle, table_layout
from tests.test_looks import low_contrast_cells

SIZES = [(16, 60), (24, 80), (48, 160)]
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


def test_not_a_terminal_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game started where standard input and output are no terminal (a pipe, a file):
    one line, exit 2, nothing on standard output."""
    from stress_tui.core.settings import Settings
    from stress_tui.terminal.app import run

    monkeypatch.setattr("sys.stdin", io.StringIO())
    assert run(Settings()) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "not a terminal" in err, err


# ----------------------------------------------------------------------------- colours


# A white terminal's light theme, read cell by cell from the start to the result:
# tests/test_looks_tty.py.


def test_a_black_terminal_keeps_the_dark_theme(tmp_path: Path) -> None:
    with game(tmp_path, background=BLACK) as s:
        say_ready(s)
        s.wait_for(lambda: "1 card" in s.text(), timeout=3, what="the flip")
        bad = low_contrast_cells(s.screen, light=False)
        assert not bad, bad[:8]
        # White card faces (colour 231), not the light theme's grey ones.
        faces = {s.cell(y, x).bg for y in range(s.rows) for x in range(s.cols)}
        assert "ffffff" in faces and "dadada" not in faces


def test_the_theme_flag_wins_over_the_terminals_background(tmp_path: Path) -> None:
    with game(tmp_path, "--theme", "dark", background=WHITE) as s:
        settle(s)
        faces = {s.cell(y, x).bg for y in range(s.rows) for x in range(s.cols)}
        assert "dadada" not in faces
    with game(tmp_path, "--theme", "high-contrast", background=BLACK) as s:
        say_ready(s)
        s.wait_for(lambda: "1 card" in s.text(), timeout=3, what="the flip")
        for light in (True, False):  # it reads on either background
            assert not low_contrast_cells(s.screen, light=light)


def test_a_terminal_that_does_not_say_its_background_starts_at_once(tmp_path: Path) -> None:
    """It answers the cursor position, which closes the start-up questions, and not the
    background: the first frame waits for no answer that is not coming (one that answers
    nothing at all, in a pseudo-terminal: ``tests/test_odd_terminals.py``), dark."""
    with game(tmp_path) as s:  # the cursor position answered, the colour not
        assert s.now() - START < ANSWER_SECONDS, "the first frame waited for the background"
        s.wait_text("press c", timeout=5)
        faces = {s.cell(y, x).bg for y in range(s.rows) for x in range(s.cols)}
        assert "dadada" not in faces  # dark, the default


# ----------------------------------------------------------------------------- characters


@pytest.mark.parametrize("locale", [{"LC_ALL": "C"}, {"LANG": "en_US.ISO-8859-1", "LC_ALL": None}])
def test_a_terminal_without_the_suits_gets_letters_and_is_told(
    tmp_path: Path, locale: dict[str, str | None]
) -> None:
    with game(tmp_path, env={"LANG": None, **locale}) as s:
        say_ready(s)
        s.wait_for(lambda: "1 card" in s.text(), timeout=3, what="the flip")
        text = s.text()
        assert not set("♠♥♦♣") & set(text)
        assert "10C" in text and "4H" in text  # the first flip, in letters
        assert "suits as letters" in s.row(0)
        assert b"\xe2" not in s.raw_log()  # nothing but ASCII written
    with game(tmp_path, "--no-ascii", env={"LANG": None, "LC_ALL": "C"}) as s:
        assert "suits as letters" not in s.row(0)  # asked for the symbols


# ----------------------------------------------------------------------------- fair play


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_a_round_starts_when_both_say_ready_then_counts(
    tmp_path: Path, rows: int, cols: int
) -> None:
    with game(tmp_path, rows=rows, cols=cols) as s:
        lay = layout(cols, rows, 4)
        assert lay is not None
        s.wait_text("press c when ready", timeout=3, row=lay.notice_y[0])
        assert "press , when ready" in s.row(lay.notice_y[1])
        assert "both press their ready keys" in s.row(lay.banner_y) or cols < 80
        s.send("q")  # a play key before the start does nothing
        s.pump(1.6)  # longer than the whole count to the flip
        assert "1 card" not in s.text() and "1  2" not in s.text()
        s.send("c")
        s.wait_text("ready: waiting for Player 2", timeout=2, row=lay.notice_y[0])
        assert "press , when ready" in s.row(lay.notice_y[1])
        s.send(",")
        s.wait_text("New cards on three", timeout=2)
        s.wait_for(lambda: "1 card" in s.text(), timeout=3, what="the flip after the count")


def test_against_the_computer_you_alone_say_ready(tmp_path: Path) -> None:
    with game(tmp_path, "--p2", "bot:expert") as s:
        s.wait_text("press g when ready", timeout=3)
        assert "you press your ready key" in banner(s)
        s.send("g")
        s.wait_for(lambda: "1 card" in s.text(), timeout=3, what="the flip")


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_play_goes_on_after_a_pause_only_after_a_count(
    tmp_path: Path, rows: int, cols: int
) -> None:
    with game(tmp_path, rows=rows, cols=cols) as s:
        say_ready(s)
        s.wait_for(lambda: "1 card" in s.text(), timeout=3, what="the flip")
        s.send("\x1b")
        s.wait_text("Esc or Enter: play on", timeout=2)  # the box takes its keys
        s.send("\r")
        # The count goes up to three, as the start's and every flip's does.
        s.wait_text("Play goes on at three", timeout=2)
        lay = table_layout(s)
        x0 = lay.pile_x[0] + lay.card_w

        def count() -> str:
            return s.row(lay.piles_y + lay.card_h // 2)[x0 : lay.pile_x[1]].strip()

        s.wait_for(lambda: count() == "1", timeout=2, what="1")
        s.send("w")  # too early: nothing happens during the count
        s.wait_for(lambda: count() == "1  2", timeout=2, what="1 2")
        s.wait_for(lambda: count() == "1  2  3", timeout=2, what="1 2 3")
        s.wait_for(lambda: "Play goes on" not in s.text(), timeout=2, what="the count over")
        assert "locked out" not in s.text() and "2 on" not in s.text()


# ----------------------------------------------------------------------------- seeds


def top_cards(s: Screenful) -> list[str]:
    """Each row's cards (their bottom lines), once the frame is all drawn."""
    settle(s, 0.15)
    lay = layout(s.cols, s.rows, 4)
    assert lay is not None
    return [s.row(lay.rows_y[p] + lay.card_h - 1) for p in (0, 1)]


def test_the_seed_on_the_result_screen_deals_that_round_again(tmp_path: Path) -> None:
    bots = ("--deck", "skat", "--wins", "2", "--p1", "bot:expert", "--p2", "bot:expert")
    with game(tmp_path, *bots) as s:
        s.wait_text("New cards on three", timeout=3)
        first = top_cards(s)
        s.wait_text("Enter: next round", timeout=60)
        assert "--seed 12 deals this round again" in s.text()
        s.send("\r")
        s.wait_for(
            lambda: "New cards on three" in s.text() and "Enter" not in s.text(),
            timeout=3,
            what="round 2 dealt",
        )
        second = top_cards(s)
        assert second != first
        s.wait_for(lambda: "Enter:" in s.text(), timeout=60, what="round 2's end")
        said = re.search(r"--seed (\S+) deals this round again", s.text())
        assert said is not None and said.group(1) == "12/2"
    # That seed deals round 2 again, as the first round of a match.
    with game(tmp_path / "again", "--seed", "12/2", *bots) as s:
        s.wait_text("New cards on three", timeout=10)
        assert top_cards(s) == second


def test_a_rematch_with_a_seed_deals_as_the_first_match(tmp_path: Path) -> None:
    bots = ("--deck", "skat", "--wins", "1", "--p1", "bot:expert", "--p2", "bot:expert")
    with game(tmp_path, *bots) as s:
        s.wait_text("New cards on three", timeout=3)
        first = top_cards(s)
        s.wait_text("Enter: rematch", timeout=60)
        s.send("\r")
        s.wait_for(
            lambda: "New cards on three" in s.text() and "Enter" not in s.text(),
            timeout=3,
            what="the rematch dealt",
        )
        assert top_cards(s) == first


# ----------------------------------------------------------------------------- keyboards


def test_a_german_keyboard_plays_with_its_own_key_right_of_l(tmp_path: Path) -> None:
    with game(tmp_path, "--keyboard", "de", "--p2", "bot:easy") as s:
        unturned = layout(s.cols, s.rows, 4)
        assert unturned is not None
        lay = flipped(unturned)  # the person at the bottom
        s.wait_for(lambda: "ö>" in s.row(lay.hints_y[0]), timeout=3, what="the hints")
        s.send("?")
        s.wait_text("German, Austrian or Swiss QWERTZ", timeout=2)
        assert "j k l ö" in s.text()
        s.send("?")
        say_ready(s)
        s.wait_for(lambda: "4♥" in s.row(lay.piles_y), timeout=3, what="the flip")
        s.send("ö")  # the 4th pile (4♣) onto the right pile (4♥): refused, but read
        s.wait_for(lambda: "4 on 4" in s.row(lay.notice_y[0]), timeout=3, what="ö read as a play")
