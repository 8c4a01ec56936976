"""What a newcomer trips on in their first hour, played in-process (``tests/pilot.py``, on
a virtual clock): a key that plays nothing is never silent (the game with its language
and keyboard), a held key plays once (the repeats come at exactly the rates terminals
use)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stress_tui.terminal.layout import Layout, layout
from stress_tui.terminal.notices import FLASH_SECONDS, LATE_SECONDS
from stress_tui.terminal.running import Running
from tests.pilot import Pilot, game
from tests.screen import banner, notice, pile_top, say_ready, table_layout


@contextmanager
def table(
    tmp_path: Path, *args: str, rows: int = 24, cols: int = 80, ready: bool = True
) -> Iterator[Pilot]:
    """The game at seed 12, its round started (every person said ready)."""
    with game(tmp_path, *args, rows=rows, cols=cols) as s:
        if ready:
            say_ready(s)
        yield s


def test_a_key_of_another_keyboard_says_which_keyboard_the_keys_are_placed_for(
    tmp_path: Path,
) -> None:
    """On a German keyboard's keys, a US player's ``;`` (player 2's fourth right key on a
    US keyboard) says so and how to get US keys, instead of nothing."""
    with table(tmp_path, "--keyboard", "de") as s:
        s.send(";")
        s.wait_for(
            lambda: "; is no key here" in banner(s) and "--keyboard us" in banner(s),
            timeout=3,
            what="the keyboard notice",
        )
        assert "German keyboard" in banner(s), banner(s)


def test_the_language_s_keyboard_is_said_when_a_us_key_plays_nothing(
    tmp_path: Path,
) -> None:
    """``--lang de`` places the keys for a German keyboard: ``;`` says it, in German, and
    the help says the keyboard in German."""
    with table(tmp_path, "--lang", "de", ready=False) as s:
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
    tmp_path: Path,
) -> None:
    """Before the ready keys, a key nobody has says that help shows the keys."""
    with table(tmp_path, ready=False) as s:
        s.wait_text("when ready", timeout=5)
        s.send("1")
        s.wait_for(lambda: "1 is no key here" in banner(s), timeout=3, what="the notice")
        assert "?" in banner(s)


# -- a held key -------------------------------------------------------------------------------

# Player 1's 5 of hearts fits the left pile's 4 (q); the card drawn into its place (the
# draw pile's top, its last), the 9 of clubs, fits neither pile: pressed again, q misplays. With
# the 6 of clubs drawn instead (FITS), q plays again.
HELD = (
    "rules: standard; phase: playing;"
    " p1 row: 5H | 6H | 7H | 8H; p1 draw: 2C 9C; piles: 3S 4S | KD;"
    " p2 row: 7C | 8C | 9D | KC; p2 draw: JD QD"
)
FITS = HELD.replace("5H | 6H", "5H | 9H").replace("draw: 2C 9C", "draw: 2C 6C")


@pytest.mark.parametrize("rate", [25, 30, 40])
@pytest.mark.parametrize("delay", [0.25, 0.5, 0.6, 0.66, 0.75])
def test_a_held_key_plays_once_where_the_terminal_repeats_it(
    tmp_path: Path, delay: float, rate: int
) -> None:
    """A terminal without key releases repeats a held key after its delay at its rate:
    the first press plays, the repeats neither play nor misplay (no lockout)."""
    with game(tmp_path, env={"STRESS_TUI_POSITION": HELD}) as s:
        say_ready(s)
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "5♥", timeout=1, what="5♥ on the left pile")
        s.pump(delay)
        for _repeat in range(20):
            s.send("q")
            s.pump(1 / rate)
        s.pump(0.5)
        assert pile_top(s, 0) == "5♥"
        assert "locked out" not in s.text() and "9 on 5" not in s.text(), s.dump()


@pytest.mark.parametrize("gap", [0.12, 0.3])
def test_a_quick_second_press_that_fits_plays_at_once(tmp_path: Path, gap: float) -> None:
    """The same key pressed again, quickly or about a repeat's delay later, plays at once
    where its card fits: nothing waits for a repeat that does not come."""
    with game(tmp_path, env={"STRESS_TUI_POSITION": FITS}) as s:
        say_ready(s)
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "5♥", timeout=1, what="5♥ on the left pile")
        s.pump(gap)
        s.send("q")
        assert pile_top(s, 0) == "6♣"


def test_a_second_press_that_misplays_is_still_a_misplay(tmp_path: Path) -> None:
    """The same key pressed again a repeat's delay later, with no repeat after it, is a
    person's press: its misplay counts (a moment later)."""
    with game(tmp_path, env={"STRESS_TUI_POSITION": HELD}) as s:
        say_ready(s)
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "5♥", timeout=1, what="5♥ on the left pile")
        s.pump(0.4)
        s.send("q")
        s.wait_for(lambda: "locked out" in notice(s, 0), timeout=0.2, what="the misplay")


# -- the rule line ----------------------------------------------------------------------------


def test_a_rule_line_too_long_says_how_many_more_the_help_lists(tmp_path: Path) -> None:
    """The title line leaves out rules it has no room for and says how many more the help
    lists; the help says the ones left out."""
    crowded = ("--deck", "doppelkopf", "--jokers", "4", "--no-wrap", "--stress-stop")
    with game(tmp_path, *crowded, "--wins", "9") as s:
        title = s.row(0)
        assert re.search(r", \d+ more in help {3,}\? help", title), title
        assert "no wrap" not in title
        say_ready(s)
        s.send("?")
        s.wait_text("The rules in play", timeout=2)
        s.pump(1.0)  # the help takes its keys a moment after it opens
        for _line in range(40):  # Down, a line at a time, until it shows
            if "The ranks do not go round" in s.text():
                break
            s.send("\x1b[B")
        assert "The ranks do not go round" in s.text(), s.dump()


# -- the boxes in 8 colours ---------------------------------------------------------------------


@pytest.mark.parametrize("background", [None, (255, 255, 255)])
def test_the_pause_box_is_no_saturated_blue_with_eight_colours(
    tmp_path: Path, background: tuple[int, int, int] | None
) -> None:
    """In an xterm of 8 colours (TERM=xterm), dark or white, the pause box is drawn in
    reverse video, not on the basic blue."""
    with game(tmp_path, env={"TERM": "xterm"}, background=background) as s:
        say_ready(s)
        s.send("\x1b")
        s.wait_text("Paused", timeout=2)
        y = next(y for y in range(s.rows) if "Paused" in s.row(y))
        x = s.row(y).index("Paused")
        cell = s.cell(y, x)
        assert cell.bg != "blue" and cell.reverse, cell


# -- scripts/play ---------------------------------------------------------------------------------


def test_the_first_scripts_play_says_what_it_is_doing_while_it_installs(tmp_path: Path) -> None:
    """``bash scripts/play`` installs into .venv on its first run, which takes a minute: it
    says so, step by step, before the game starts (a stand-in python3 here: no install)."""
    root = Path(__file__).resolve().parents[1]
    (tmp_path / "scripts").mkdir()
    shutil.copy(root / "scripts" / "play", tmp_path / "scripts" / "play")
    (tmp_path / "pyproject.toml").write_text("")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "python3"  # makes a .venv whose python does nothing, and the game
    fake.write_text(
        "#!/bin/sh\n"
        "mkdir -p .venv/bin\n"
        "printf '#!/bin/sh\\n' > .venv/bin/python\n"
        "printf '#!/bin/sh\\necho the game starts\\n' > .venv/bin/stress-tui\n"
        "chmod +x .venv/bin/python .venv/bin/stress-tui\n"
    )
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    run = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "play")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert "installing" in run.stderr and "1/3" in run.stderr and "3/3" in run.stderr
    assert run.stdout == "the game starts\n"
    again = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "play")],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert again.stderr == ""  # installed: nothing more to say


# -- the other player's move ------------------------------------------------------------------


def sides(s: Pilot, pile: int) -> str:
    """The cells on either side of play pile ``pile``: ``BARS`` where it stands out."""
    lay = table_layout(s)
    x, y = lay.pile_x[pile], lay.piles_y
    return s.row(y)[x - 1] + s.row(y)[x + lay.card_w]


BARS = "\u2590\u258c"
"""A bar down each side of a play pile: the other player's card just landed on it."""


def stands_out(s: Pilot, pile: int) -> bool:
    """Whether play pile ``pile`` stands out."""
    return sides(s, pile) == BARS


def test_the_pile_the_other_player_just_played_on_stands_out_for_a_moment(
    tmp_path: Path,
) -> None:
    """A card played lights its play pile up with a bar down each side in the player's
    colour; with nothing else changing, no frame is drawn until the one that takes it
    away, a moment later (its 0.8 s, and at most ``LATE_SECONDS`` more)."""
    with game(tmp_path, env={"STRESS_TUI_POSITION": HELD}) as s:
        say_ready(s)
        lay = table_layout(s)
        x, y = lay.pile_x[0], lay.piles_y
        assert not stands_out(s, 0)
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "5♥", timeout=1, what="5♥ on the left pile")
        assert stands_out(s, 0)
        assert s.cell(y, x - 1).fg == s.cell(lay.rows_y[0], lay.info_x + 1).fg  # player 1
        assert s.pump(0.6) == 0  # nothing moves while it stands out
        s.pump(0.3 + LATE_SECONDS)
        assert not stands_out(s, 0) and pile_top(s, 1) == "K♦"


def test_a_second_play_keeps_the_pile_standing_out_and_draws_nothing_until_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second card played on the same pile before the first's moment is over: the pile
    stands out until the second's moment is, and no frame is drawn before then (the first's
    end, passed by, changes nothing on the table)."""
    drawn: list[float] = []
    draw = Running.draw

    def noted(screen: Running) -> None:
        draw(screen)
        drawn.append(screen.loop_time())

    with game(tmp_path, env={"STRESS_TUI_POSITION": HELD}) as s:
        say_ready(s)
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "5♥", timeout=1, what="5♥ on the left pile")
        s.pump(0.4)
        s.send("w")
        s.wait_for(lambda: pile_top(s, 0) == "6♥", timeout=1, what="6♥ on the left pile")
        monkeypatch.setattr(Running, "draw", noted)
        played = s.now()
        s.pump(0.75)  # past the first play's moment (0.8 s), short of the second's
        assert stands_out(s, 0) and drawn == []
        s.pump(0.1 + LATE_SECONDS)
        assert not stands_out(s, 0) and len(drawn) == 1
        assert drawn[0] - played == pytest.approx(FLASH_SECONDS + LATE_SECONDS, abs=0.01)


def test_your_own_play_against_the_computer_does_not_stand_out(tmp_path: Path) -> None:
    """Against the computer, only the computer's plays stand out: the person's own do not."""
    with game(tmp_path, "--p2", "bot:easy", env={"STRESS_TUI_POSITION": HELD}) as s:
        say_ready(s)
        lay = table_layout(s)
        x, y = lay.pile_x[0], lay.piles_y
        s.send("a")  # alone against the computer: a lays pile 1 onto the left pile
        s.wait_for(lambda: pile_top(s, 0) == "5♥", timeout=1, what="5♥ on the left pile")
        assert "\u2590" not in s.row(y)[x - 1 : x + 30]


def test_a_pile_the_computer_played_on_stands_out_no_more_once_your_card_covers_it(
    tmp_path: Path,
) -> None:
    """The computer's 5♣ lights the left pile up in its colour; the person's 6♥ on it
    puts that light out at once: it would say the computer's card lies where theirs does."""
    computer_first = (
        "rules: standard; phase: playing;"
        " p1 row: 6H | 2H | 3H | 9H; p1 draw: 9C 10C; piles: 3S 4S | KD;"
        " p2 row: 5C | 8C | 9D | 2C; p2 draw: 10D JC"
    )
    with game(tmp_path, "--p2", "bot:hard", env={"STRESS_TUI_POSITION": computer_first}) as s:
        say_ready(s)
        s.wait_for(lambda: pile_top(s, 0) == "5♣", timeout=5, what="the computer's 5♣")
        assert stands_out(s, 0)
        s.send("a")  # alone against the computer: a lays pile 1 onto the left pile
        s.wait_for(lambda: pile_top(s, 0) == "6♥", timeout=1, what="6♥ on the left pile")
        assert sides(s, 0) == "  "


# -- window sizes -----------------------------------------------------------------------------


def test_a_60x16_window_keeps_the_right_pile_s_size_and_name_and_help_s_more(
    tmp_path: Path,
) -> None:
    """At 60x16 the right play pile says its size in words and who played on it, and the
    help says there is more below."""
    with game(tmp_path, rows=16, cols=60, env={"STRESS_TUI_POSITION": HELD}) as s:
        say_ready(s)
        lay = table_layout(s)
        right = lay.pile_x[1] + lay.card_w + 1
        mid = lay.piles_y + lay.card_h // 2
        assert s.row(mid)[right:].strip() == "1 card"
        s.send("q")  # player 1's 5 onto the 4, the left pile
        s.wait_for(lambda: pile_top(s, 0) == "5♥", timeout=1, what="5♥ on the left pile")
        assert s.row(mid + 1)[: lay.pile_x[0] - 1].strip() == "Player 1"
        s.pump(1.0)
        s.send("?")
        s.wait_text("Down or PgDn: more", timeout=2)


def test_a_160x48_window_grows_the_table_and_keeps_the_names_beside_their_rows(
    tmp_path: Path,
) -> None:
    """At 160x48 the cards are larger than at 80x24, and each player's name stands a
    couple of columns from their row, not at the window's edge."""
    with game(tmp_path, rows=48, cols=160) as s:
        say_ready(s)
        lay = table_layout(s)
        small = table_layout_at(80, 24)
        assert lay.card_w > small.card_w + 4 and lay.card_h > small.card_h
        name_end = s.row(lay.rows_y[0]).index("Player 1") + len("Player 1")
        first_card = lay.row_x
        assert first_card - name_end <= 30, s.row(lay.rows_y[0])
        assert s.row(lay.rows_y[0])[: lay.info_x].strip() == ""


def table_layout_at(cols: int, rows: int) -> Layout:
    """The table's layout in a window of that size."""
    lay = layout(cols, rows, 4)
    assert lay is not None
    return lay
