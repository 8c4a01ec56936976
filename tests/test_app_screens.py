"""The game played in-process, read back as a player would see it (``tests/pilot.py``: an
in-process terminal, the loop's clock virtual): plays, rejections, a race in one burst,
stress, a stall, the result and a rematch, laying equals together, a dead table, help and
pause holding the round (a stray play key as they open asks nothing), a window too small
and a larger one, a held key, no colour, ASCII and four colours, the computer, keys from a
file. What only a real terminal shows (its modes restored, the signals, Ctrl-Z, the first
frame) is in ``tests/test_app_e2e.py``, which also says what the seeds deal, and in
``tests/test_reliability.py`` (resizes from the kernel among them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stress_tui.terminal.layout import flipped as turned
from stress_tui.terminal.layout import layout
from stress_tui.terminal.running import Running
from tests import pilot
from tests.screen import Screenful, banner, draw_count, has_people, notice, pile_top, say_ready
from tests.test_app_e2e import (
    LAY,
    LEGAL_SEED,
    RACE_SEED,
    STALL_SEED,
    STRESS_SEED,
    countdown,
    flipped,
    row_card,
    wait_count_over,
    wait_flip,
)

ROWS, COLS = 24, 80


@pytest.fixture(autouse=True)
def folder(tmp_path: Path) -> Iterator[None]:
    """Each test's own folder for the game's files (the data directory is ``data`` in it)."""
    FOLDER[:] = [tmp_path]
    yield
    FOLDER.clear()


FOLDER: list[Path] = []


@contextmanager
def game(
    seed: int = LEGAL_SEED,
    env: dict[str, str | None] | None = None,
    rows: int = ROWS,
    cols: int = COLS,
    args: tuple[str, ...] = (),
) -> Iterator[pilot.Pilot]:
    """``stress-tui --seed SEED ARGS`` in-process, once its first frame is up and the
    people at the table have said they are ready."""
    with pilot.game(FOLDER[0], "--seed", str(seed), *args, rows=rows, cols=cols, env=env) as s:
        if has_people(args):
            say_ready(s)
        yield s


def quit_at_once(s: Screenful) -> None:
    """Ctrl-C, as a key: the game ends with 130."""
    s.send("\x03")
    assert s.wait_exit() == 130


# A round one card from its end: p1's last card, the 5♥, fits the 4♣. One win takes the match.
LAST_CARD = (
    "rules: standard wins=1; phase: playing; p1 row: 5H | - | - | -; p1 draw: -;"
    " piles: 4C | 9D; p2 row: 2C | 3C | 8D | KS; p2 draw: 7S 7H"
)


# Two sevens side by side and the rule to lay them together (001's Stapel): both fit the 8.
TOGETHER = (
    "rules: standard stacking=off together=on; phase: playing; p1 row: 7H | 7S | KD | 2C;"
    " p1 draw: 9C 9D; piles: 8C | JD; p2 row: AH | QS | TC | 4D; p2 draw: 5S"
)


# A dead table: both draw piles empty, nothing fits, and the twelfth flip in a row without a
# card played is done; the next flip ends the round, drawn, as each holds one card.
DEAD_TABLE = (
    "rules: standard; phase: waiting; flips: 12; p1 row: 5H | - | - | -;"
    " piles: KS | 2D; p2 row: 9C | - | - | -"
)


def test_a_legal_play_moves_the_card() -> None:
    with game() as s:
        wait_flip(s, "10♣", "4♥")
        before = draw_count(s, 0)
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        assert row_card(s, 0, 0) != "J♠"  # refilled from the draw pile
        assert draw_count(s, 0) == before - 1
        assert pile_top(s, 1) == "4♥"
        assert notice(s, 0).strip() == ""
        quit_at_once(s)


def test_a_play_is_drawn_as_its_key_ends_leaving_the_loop_no_turn_to_draw_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A key's frame is drawn at the key's end, in the turn of the loop that read it: no
    draw is left for the loop's next turn (each key would cost the loop a turn and a look
    at the terminal for nothing)."""
    turns: list[None] = []
    drawn_later = Running.draw_if_pending
    monkeypatch.setattr(Running, "draw_if_pending", lambda r: turns.append(drawn_later(r)))
    with game() as s:
        wait_flip(s, "10♣", "4♥")
        s.pump(1.0)
        turns.clear()
        s.endpoint.feed(b"q")
        assert pile_top(s, 0) == "J♠"  # drawn before the loop came round
        s.pump()
        assert turns == []
        quit_at_once(s)


def test_an_illegal_play_is_rejected_visibly_and_nothing_moves() -> None:
    with game() as s:
        wait_flip(s, "10♣", "4♥")
        s.send("w")  # the 2♦ onto the 10♣
        s.wait_for(
            lambda: "2 on 10: not one rank above or below; locked out 0." in notice(s, 0),
            timeout=2,
            what="the rejection next to player 1",
        )
        assert pile_top(s, 0) == "10♣" and pile_top(s, 1) == "4♥"
        assert [row_card(s, 0, i) for i in range(4)] == ["J♠", "2♦", "9♦", "4♣"]
        quit_at_once(s)


@pytest.mark.parametrize(
    ("burst", "winner", "card"), [("wo", 0, "7♦"), ("ow", 1, "5♣")], ids=["p1-first", "p2-first"]
)
def test_two_keys_in_one_burst_the_earlier_wins(burst: str, winner: int, card: str) -> None:
    with game(RACE_SEED) as s:
        wait_flip(s, "6♣", "A♥")
        s.send(burst)  # one write: both keys arrive in the same read
        loser = 1 - winner
        s.wait_for(
            lambda: (
                "too late: the other player was faster" in notice(s, loser)
                and pile_top(s, 0) == card
            ),
            timeout=2,
            what="the faster play on the pile, the slower rejected",
        )
        assert notice(s, winner).strip() == ""
        quit_at_once(s)


def test_stress_is_opened_called_and_the_slower_takes_the_piles() -> None:
    with game(STRESS_SEED) as s:
        wait_flip(s, "K♣", "Q♦")
        s.send("w")  # Q♠ onto the K♣: Q and Q
        s.wait_for(lambda: "STRESS!" in banner(s), timeout=2, what="STRESS!")
        assert pile_top(s, 0) == "Q♠"
        before = draw_count(s, 0)
        s.send("m")  # player 2 calls first
        s.wait_for(
            lambda: (
                "Player 2 called stress first: Player 1 takes 3 cards" in banner(s)
                and "stress won" in notice(s, 1)
            ),
            timeout=2,
            what="who won the stress",
        )
        assert draw_count(s, 0) == before + 3
        assert pile_top(s, 0) == "" and pile_top(s, 1) == ""
        quit_at_once(s)


HAIR = 7e-7
"""A hair, in seconds: less than the microsecond within which a tick of the count once
counted as come (``countdown_ticks``), more than the count's figure is drawn early by."""


@pytest.mark.parametrize(
    "args",
    [("--p1", "human", "--p2", "human"), ("--p1", "human", "--p2", "bot:normal")],
    ids=["one keyboard", "against the computer"],
)
def test_a_key_a_hair_before_the_counts_figure_changes_leaves_it_changing_at_its_time(
    args: tuple[str, ...],
) -> None:
    """A pile key pressed while the count to the flip runs, a hair before its figure
    changes ('wait for the flip'): the count still shows ``1  2`` from its time on, and
    then ``1  2  3``, where it showed ``1`` until the flip (the timer set for the next thing
    due after the key skipped the figure, and the one kept for it then drew nothing)."""
    with game(args=args) as s:
        s.wait_for(lambda: countdown(s) == "1", timeout=1, what="the count")
        app = s.app
        table = app.table
        assert table.flip_at is not None
        third = table.countdown / 3
        for figures, shown in ((1, "1  2"), (2, "1  2  3")):
            tick = table.flip_at - table.countdown + figures * third
            s.pump_to(app.clock.when(tick) - HAIR)
            assert tick - 1e-6 < app.clock.now() < tick
            s.send("a")
            s.pump(0.001)
            assert app.clock.now() < table.flip_at
            assert countdown(s) == shown, f"{countdown(s)!r} at {app.clock.now() - tick:+.4f} s"
        quit_at_once(s)


def test_a_stall_counts_down_and_flips_new_cards() -> None:
    with game(STALL_SEED) as s:
        wait_flip(s, "8♥", "5♦")
        s.wait_for(
            lambda: "Nobody can play: new cards on three" in banner(s),
            timeout=1,
            what="the stall",
        )
        s.wait_for(lambda: countdown(s) == "1", timeout=1, what="the count")
        s.wait_for(lambda: countdown(s) == "1  2  3", timeout=1.5, what="three")
        s.wait_for(
            lambda: pile_top(s, 0) not in ("8♥", "") and pile_top(s, 1) not in ("5♦", ""),
            timeout=1.5,
            what="new cards on the piles",
        )
        quit_at_once(s)


def test_a_round_ends_and_the_result_screen_offers_a_rematch(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with game(env={"STRESS_TUI_POSITION": LAST_CARD}) as s:
        assert pile_top(s, 0) == "4♣"
        s.send("q")
        s.wait_text("Player 1 wins the match!", timeout=2)
        s.wait_text("Player 1 1 : 0 Player 2", timeout=2)
        s.wait_text("Enter: rematch    q: quit", timeout=2)
        # The round's statistics; a position from the test hook has no seed to record.
        assert "cards played     1" in s.text()
        assert "not recorded: a round set up from a position has no seed" in s.text()
        assert not (data_dir / "replays").exists() and not (data_dir / "record.sqlite").exists()
        s.send("\r")
        s.wait_for(
            lambda: "wins 0/1" in s.row(LAY.rows_y[0] + 1) and "press c" in notice(s, 0),
            timeout=2,
            what="a new deal, waiting for both players",
        )
        say_ready(s)
        s.wait_for(lambda: "New cards" in banner(s), timeout=2, what="the count")
        assert all(row_card(s, 0, i) for i in range(4))
        quit_at_once(s)


def test_the_together_key_then_a_pile_key_lays_both_sevens_at_once() -> None:
    """Key presses only, no chord: the together key (z) arms player 1's next pile key; q
    then lays the 7 of hearts and the 7 of spades onto the left pile in one move."""
    with game(env={"STRESS_TUI_POSITION": TOGETHER}) as s:
        assert "equals z" in s.text()
        s.send("z")
        s.wait_for(
            lambda: "together: the next pile goes with its equals" in notice(s, 0),
            timeout=2,
            what="the together key noted next to player 1",
        )
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "7♠", timeout=2, what="both sevens on the 8")
        s.wait_for(lambda: draw_count(s, 0) == 0, timeout=2, what="both places refilled")
        assert {row_card(s, 0, 0), row_card(s, 0, 1)} == {"9♣", "9♦"}
        assert "together" not in notice(s, 0)
        quit_at_once(s)


def test_a_dead_table_ends_the_round_drawn() -> None:
    with game(env={"STRESS_TUI_POSITION": DEAD_TABLE}) as s:
        s.wait_text("Drawn, for nobody: 12 flips and no card played", timeout=3)
        s.wait_text("Player 1 0 : 0 Player 2", timeout=2)
        s.wait_text("Enter: next round", timeout=2)
        quit_at_once(s)


def test_the_help_overlay_pauses_the_round() -> None:
    with game() as s:
        s.wait_for(lambda: countdown(s) == "1", timeout=1, what="the count")
        s.send("?")
        s.wait_text("The rules in play", timeout=2)
        assert "piles 1-4 onto the left pile:  q w e r" in s.text()
        assert "piles 1-4 onto the right pile: j k l ;" in s.text()
        # Unpaused, the count would be at three by now and flip 0.3 s later.
        s.pump(0.9)
        s.send("?")
        s.wait_for(lambda: "The rules in play" not in s.text(), timeout=2, what="help closed")
        wait_count_over(s)
        assert countdown(s) in ("1", "1  2")  # where it stood when help opened
        assert pile_top(s, 0) == ""
        quit_at_once(s)


def test_play_keys_do_nothing_while_paused() -> None:
    with game(env=flipped(LEGAL_SEED)) as s:
        wait_flip(s, "10♣", "4♥")
        s.send("\x1b")  # Esc: pause (after blessed's escape delay)
        s.wait_text("Paused", timeout=2)
        s.send("e?")  # e would put the 9♦ on the 10♣; ? shows it has been read
        s.wait_text("The rules in play", timeout=2)
        s.send("?")  # back to the pause screen
        s.wait_for(lambda: "The rules in play" not in s.text(), timeout=2, what="help closed")
        assert "Paused" in s.text()
        # Enter works once the pause box takes its keys, a moment after it opened.
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        s.send("\r")  # play on, after a count
        s.wait_for(lambda: "Paused" not in s.text(), timeout=2, what="resumed")
        s.wait_text("Play goes on", timeout=1)
        s.send("e")  # during the count: nothing yet
        wait_count_over(s)
        assert pile_top(s, 0) == "10♣"
        s.send("e")
        s.wait_for(lambda: pile_top(s, 0) == "9♦", timeout=2, what="9♦ on the left pile")
        quit_at_once(s)


def test_quit_from_the_pause_screen() -> None:
    with game() as s:
        s.send("\x1b")
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        s.send("q")  # a match in play: asked once
        s.wait_text("Quit this match?  y: quit   any other key: no", timeout=2)
        s.send("y")
        assert s.wait_exit() == 0


def test_a_larger_terminal_gets_larger_cards() -> None:
    big = layout(120, 40, 4)
    assert big is not None and big.card_h > LAY.card_h
    with game(rows=40, cols=120) as s:
        x = big.row_x
        assert s.row(big.rows_y[0])[x + 1 : x + 4].strip() == "J♠"
        quit_at_once(s)


def test_a_window_too_small_pauses_and_large_enough_again_resumes() -> None:
    """Made too small, the table waits and says the size it needs and the size it has,
    taking no play; large enough again, the table, a count, then play."""
    with game(env=flipped(LEGAL_SEED)) as s:
        wait_flip(s, "10♣", "4♥")
        s.resize(12, 50)
        s.wait_text("Make the window larger", timeout=2)
        s.wait_text("this is 50x12", timeout=2)
        mark = len(s.log)
        s.send("q\x0c")  # no play while too small; Ctrl-L redraws, so q has been read
        s.wait_for(lambda: b"\x1b[2J" in s.raw_log(mark), timeout=2, what="the redraw")
        s.resize(ROWS, COLS)
        s.wait_for(
            lambda: "Player 1" in s.row(LAY.rows_y[0]) and pile_top(s, 0) == "10♣",
            timeout=2,
            what="the table",
        )
        wait_count_over(s)  # large enough again: a count, then play
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_at_once(s)


def test_a_held_key_plays_once() -> None:
    """With the kitty keyboard protocol a held key repeats as "repeated" events: ignored."""
    with game(env=flipped(LEGAL_SEED)) as s:
        wait_flip(s, "10♣", "4♥")
        s.send("\x1b[113;1:2u?")  # q auto-repeated, then ? to know it has been read
        s.wait_text("The rules in play", timeout=2)
        s.send("?")
        s.wait_for(lambda: "The rules in play" not in s.text(), timeout=2, what="help closed")
        wait_count_over(s)
        assert pile_top(s, 0) == "10♣"
        s.send("\x1b[113u")  # q pressed, in the kitty protocol
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_at_once(s)


def test_no_color_draws_a_monochrome_table_that_works() -> None:
    with game(env={"NO_COLOR": "1", **flipped(LEGAL_SEED)}) as s:
        wait_flip(s, "10♣", "4♥")
        colours = {
            (cell.fg, cell.bg) for y in range(ROWS) for x in range(COLS) for cell in [s.cell(y, x)]
        }
        assert colours == {("default", "default")}
        assert s.cell(LAY.piles_y, LAY.pile_x[0]).reverse  # cards in reverse video
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_at_once(s)


def test_ascii_and_four_colours() -> None:
    with game(env=flipped(LEGAL_SEED), args=("--ascii", "--four-colour")) as s:
        wait_flip(s, "10C", "4H")
        assert [row_card(s, 0, i) for i in range(4)] == ["JS", "2D", "9D", "4C"]
        assert "♠" not in s.text() and "♣" not in s.text()

        def colour(pile: int) -> str:
            x = LAY.row_x + pile * (LAY.card_w + LAY.gap) + 1
            return str(s.cell(LAY.rows_y[0], x).fg)

        spades, diamonds, clubs = colour(0), colour(1), colour(3)
        assert len({spades, diamonds, clubs}) == 3
        quit_at_once(s)


def test_against_the_computer() -> None:
    seated = turned(LAY)  # the person at the bottom
    with game(args=("--p2", "bot:expert")) as s:
        # The one human gets the home-row layout and sits at the bottom; the computer's
        # row, at the top, has no keys.
        s.wait_for(lambda: row_card(s, 1, 3, seated) != "", timeout=2, what="the computer's row")
        assert seated.rows_y[0] > seated.rows_y[1]
        assert s.row(seated.hints_y[0]).split()[:2] == ["<a", "j>"]
        assert s.row(seated.hints_y[1]).strip() == ""
        assert "computer, expert" in s.row(seated.rows_y[1] + 2)
        wait_flip(s, "10♣", "4♥")
        s.wait_for(
            lambda: (pile_top(s, 0), pile_top(s, 1)) != ("10♣", "4♥"),
            timeout=3,
            what="the computer to play",
        )
        assert [row_card(s, 0, i, seated) for i in range(4)] == ["J♠", "2♦", "9♦", "4♣"]
        quit_at_once(s)


def test_keys_from_a_file(tmp_path: Path) -> None:
    keys = tmp_path / "keys.toml"
    keys.write_text(
        "[keys.p1]\n"
        + "".join(
            f'{action} = "{key}"\n'
            for action, key in (
                ("left1", "1"),
                ("left2", "2"),
                ("left3", "3"),
                ("left4", "4"),
                ("right1", "q"),
                ("right2", "w"),
                ("right3", "e"),
                ("right4", "r"),
                ("stress", "space"),
                ("ready", "a"),
                ("stop", "s"),
            )
        )
    )
    with game(env=flipped(LEGAL_SEED), args=("--keys", str(keys))) as s:
        assert s.row(LAY.hints_y[0]).split() == ["<1", "q>", "<2", "w>", "<3", "e>", "<4", "r>"]
        assert "stress Spc" in s.row(LAY.rows_y[0] + 2)
        wait_flip(s, "10♣", "4♥")
        s.send("1")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_at_once(s)


def test_a_stray_play_key_right_after_pause_opens_mid_match_does_not_quit() -> None:
    """Player 2 pauses; player 1's next key is their own play key ``q``, which is also the
    menu's quit. It must not end the match."""
    with game() as s:
        wait_flip(s, "10♣", "4♥")
        s.send("\x1b")  # player 2: pause
        s.wait_text("Paused", timeout=2)
        s.send("q")  # player 1, still playing
        # A moment later the pause box takes its keys; the q asked nothing and quit nothing.
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        assert "Quit this match?" not in s.text()
        s.send("q")  # now it asks once
        s.wait_text("Quit this match?  y: quit   any other key: no", timeout=2)
        s.send("q")  # any other key: no (a second stray q does not quit either)
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        s.send("\x1b")  # back to the table
        s.wait_for(lambda: "Paused" not in s.text(), timeout=2, what="the table")
        s.send("?")  # the same with help
        s.wait_text("Paused.  ? or Esc: back to the game", timeout=2)
        s.send("q")
        s.wait_for(
            lambda: any(
                "back to the game" in row and "q: quit" in row for row in s.text().splitlines()
            ),
            timeout=2,
            what="the help's keys, q among them",
        )
        assert "Quit this match?" not in s.text()
        s.send("q")
        s.wait_text("Quit this match?  y: quit   any other key: no", timeout=2)
        s.send("y")
        assert s.wait_exit() == 0


def test_the_record_s_thread_ends_with_the_game() -> None:
    """A round is counted in the record on a thread of its own (the table goes on whatever
    the record does); once the game has ended, the thread has too: a process that plays
    many games (a server, the tests) keeps none for each."""
    bots = ("--deck", "skat", "--wins", "1", "--p1", "bot:expert", "--p2", "bot:expert")
    with game(seed=215, args=bots) as s:
        s.wait_text("record: counted", timeout=60)  # the round over, counted on the thread
        worker = s.app.worker  # type: ignore[attr-defined]
        assert worker is not None and worker.thread is not None
        s.send("\x03")
        assert s.wait_exit() == 130
    worker.thread.join(timeout=10)
    assert not worker.thread.is_alive()
