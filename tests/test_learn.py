"""The practice (``stress-tui learn``) and its offer: each lesson says what to do next with
the person's own keys and gives way to the next once done; the practice counts for
nothing; plain play offers it once, to someone with no record. In-process on the test
endpoint (``tests/pilot.py``); the real start and Ctrl-C in a pty: ``test_learn_tty.py``."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stress_tui.cli.main import main
from stress_tui.core.settings import Settings
from stress_tui.players.learn import PERSON, SLOW
from stress_tui.storage.offers import OFFERED, RECORDS, offer_practice
from tests.command import environment
from tests.pilot import Pilot, game
from tests.screen import BASE_ENV, STRIPPED_ENV, banner, pile_top, say_ready

OFFER = "stress-tui learn"
"""What the offer's line says, in any width."""


def settings_of(*argv: str) -> Settings:
    """The settings ``stress-tui learn ARGV`` plays by, as its command makes them (the
    screen itself not run)."""
    from stress_tui.cli import tty
    from stress_tui.terminal import learn as screen

    made: list[Settings] = []
    saved = tty.no_terminal, screen.run_learn

    def keep(settings: Settings) -> int:
        made.append(settings)
        return 0

    try:
        tty.no_terminal = lambda: False
        screen.run_learn = keep
        assert main(["learn", *argv]) == 0
    finally:
        tty.no_terminal, screen.run_learn = saved
    return made[0]


@contextmanager
def learn(tmp_path: Path, *argv: str, cols: int = 80, rows: int = 24) -> Iterator[Pilot]:
    """The practice of ``stress-tui learn ARGV`` in-process, once its first frame is up."""
    from stress_tui.terminal.lang import choose
    from stress_tui.terminal.learn import LearnApp

    full: dict[str, str | None] = {
        **{name: None for name in STRIPPED_ENV},
        **BASE_ENV,
        "STRESS_TUI_CONFIG": str(tmp_path / "none.toml"),
        "STRESS_TUI_DATA_DIR": str(tmp_path / "data"),
    }
    full.pop("TERM")
    with environment(full):
        choose(None)
        settings = settings_of(*argv)
        pilot = Pilot(
            lambda endpoint: LearnApp(endpoint, settings=settings),
            rows=rows,
            cols=cols,
        )
        try:
            pilot.wait_for(lambda: "STRESS" in pilot.row(0), timeout=10, what="the first frame")
            yield pilot
        finally:
            pilot.close()
            choose(None)


def lesson(s: Pilot) -> str:
    """The lesson's line, under the table."""
    return s.row(s.rows - 1).strip()


def press(s: Pilot, key: str) -> None:
    """A key pressed at a person's pace (the same key within 80 ms would be a held key's
    repeat)."""
    s.pump(0.3)
    s.send(key)


def wait_lesson(s: Pilot, text: str, timeout: float = 5.0) -> None:
    s.wait_for(lambda: text in lesson(s), timeout, f"the lesson {text!r}")


def test_every_lesson_says_its_key_and_gives_way_to_the_next_once_done(tmp_path: Path) -> None:
    """The practice's lessons, in order, each with the person's key (the one-player keys:
    a s d f onto the left pile, j k l ; onto the right, Space, g): a wrong key leaves the
    lesson on; the right one brings the next."""
    with learn(tmp_path) as s:
        wait_lesson(s, "press g when you are ready")
        press(s, "g")
        wait_lesson(s, "one rank up: your K on the Q: press s")
        press(s, "k")  # the K on the 3: no fit
        s.wait_for(lambda: "locked out" in s.text(), timeout=1, what="the misplay")
        assert "one rank up: your K on the Q: press s" in lesson(s)
        s.wait_for(lambda: "locked out" not in s.text(), timeout=3, what="the lockout's end")
        press(s, "s")
        wait_lesson(s, "filled the gap. Now one down: 2 on 3: press k")
        assert pile_top(s, 0).startswith("K")
        press(s, "k")
        wait_lesson(s, "An ace goes on a king and on a two: your A on the K: press s")
        press(s, "k")  # the ace on the two: the wrap too
        wait_lesson(s, "stress: your A on the K makes it: press s")
        press(s, "s")
        wait_lesson(s, "Stress! Hit Space before the computer does")
        assert "STRESS" in banner(s)
        press(s, " ")
        wait_lesson(s, "the computer took both piles")
        wait_lesson(s, "None of your cards fits: press g for new cards")
        assert pile_top(s, 0).startswith("Q") and pile_top(s, 1).startswith("3")
        press(s, "g")
        wait_lesson(s, "Now play it out against the slow computer", timeout=6)
        assert pile_top(s, 0).startswith("7") and pile_top(s, 1).startswith("5")


def test_a_lesson_the_table_no_longer_allows_gives_way_to_one_it_does(tmp_path: Path) -> None:
    """A false stress takes both piles and new cards are flipped: no card of the person's
    fits any more, and the lesson on is the ready key's, never one that cannot happen."""
    with learn(tmp_path) as s:
        press(s, "g")
        wait_lesson(s, "one rank up")
        press(s, " ")
        wait_lesson(s, "None of your cards fits: press g for new cards", timeout=4)
        press(s, "g")
        wait_lesson(s, "Now play it out", timeout=6)


def test_the_computer_waits_while_the_lessons_are_on_then_plays_slowly(tmp_path: Path) -> None:
    """Nothing of the computer's moves while a lesson waits for the person; once they are
    done it plays, at the slow level."""
    with learn(tmp_path) as s:
        press(s, "g")
        wait_lesson(s, "one rank up")
        app = s.app
        before = app.table.game.state.players[1 - PERSON].card_total()
        s.pump(30)
        assert app.table.game.state.players[1 - PERSON].card_total() == before
        assert "one rank up" in lesson(s)
        press(s, "g")  # ready before the ready lesson: the computer does not agree
        s.pump(5)
        assert "one rank up: your K on the Q" in lesson(s) and pile_top(s, 0).startswith("Q")
        for key in ("s", "k", "s", "k", " "):
            press(s, key)
            s.pump(0.3)
        wait_lesson(s, "press g for new cards", timeout=4)
        press(s, "g")
        wait_lesson(s, "play it out", timeout=6)
        held = app.table.game.state.players[1 - PERSON].card_total()
        s.wait_for(
            lambda: app.table.game.state.players[1 - PERSON].card_total() < held,
            timeout=10,
            what="the computer's first card",
        )
        assert f"computer, {SLOW.name}" in s.text()


def test_the_lessons_name_the_keys_of_the_person_s_keyboard(tmp_path: Path) -> None:
    """On a French keyboard the left pile's keys are q s d f: the lessons say so."""
    with learn(tmp_path, "--keyboard", "fr") as s:
        press(s, "g")
        wait_lesson(s, "your K on the Q: press s")
        press(s, "s")
        press(s, "k")
        wait_lesson(s, "your A on the K: press s")
    with learn(tmp_path, "--keys", str(own_keys(tmp_path))) as s:
        wait_lesson(s, "press 5 when you are ready")
        press(s, "5")
        wait_lesson(s, "your K on the Q: press 2")


def own_keys(tmp_path: Path) -> Path:
    keys = tmp_path / "keys.toml"
    left = ["1", "2", "3", "4"]
    right = ["7", "8", "9", "0"]
    lines = ["[keys.p1]"]
    lines += [f'left{i + 1} = "{key}"' for i, key in enumerate(left)]
    lines += [f'right{i + 1} = "{key}"' for i, key in enumerate(right)]
    lines += ['stress = "space"', 'ready = "5"', 'stop = "6"']
    keys.write_text("\n".join(lines) + "\n")
    return keys


def test_the_practice_is_neither_recorded_nor_counted(tmp_path: Path) -> None:
    """Won or left, a practice leaves no replay and no record; its result says so."""
    with learn(tmp_path) as s:
        press(s, "g")
        for said, key in (
            ("one rank up", "s"),
            ("one down", "k"),
            ("An ace", "s"),
            ("makes it", "k"),
            ("Hit Space", " "),
        ):
            wait_lesson(s, said)
            press(s, key)
        wait_lesson(s, "press g for new cards", timeout=4)
        press(s, "g")
        wait_lesson(s, "play it out", timeout=6)
        app = s.app
        game_over = app.table.game
        # The person plays whatever fits as it comes, to the round's end.
        keys = "asdfjkl;"

        def played_out() -> bool:
            if "not counted" in s.text():
                return True
            plays = game_over.legal_plays(PERSON)
            me = game_over.state.players[PERSON]
            if plays and me.locked_until <= app.clock.now():
                pile, target = plays[0]
                press(s, keys[pile + 4 * target])
            elif not plays and not me.ready:
                press(s, "g")
            return False

        s.wait_for(played_out, timeout=120, what="the round's end")
        assert "a practice: not recorded, not counted" in s.text()
        s.wait_text("Enter: leave")
        press(s, "\r")
        assert s.wait_exit() == 0
    data = tmp_path / "data"
    assert not (data / "replays").exists() and not (data / "record.sqlite").exists()


# -- the offer --------------------------------------------------------------------------------


def test_the_practice_is_offered_once_to_someone_with_no_record(tmp_path: Path) -> None:
    """Plain play offers the practice under the table while the first round waits, to
    someone with no record, once: never again, nor after it was played, nor to someone
    with a record."""
    data = tmp_path / "data"
    with environment({"STRESS_TUI_DATA_DIR": str(data)}):
        offered = offer_practice()
        assert offered and (data / OFFERED).exists()
        with game(tmp_path, offer=offered) as s:
            s.wait_for(lambda: OFFER in s.row(s.rows - 1), timeout=1, what="the offer")
            say_ready(s)
            s.wait_for(lambda: OFFER not in s.text(), timeout=2, what="the offer gone")
        again = offer_practice()
        assert not again
        with game(tmp_path, offer=again) as s:
            s.pump(0.5)
            assert OFFER not in s.text()


def test_plain_play_offers_it_at_the_first_start_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``stress-tui`` asks for the offer at its first start with no record, and not at
    the next; a table of computers alone, where no person plays, is offered nothing."""
    offers: list[bool] = []
    app = types.ModuleType("stress_tui.terminal.app")

    def run(settings: Settings, offer: bool = False) -> int:
        offers.append(offer)
        return 0

    app.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stress_tui.terminal.app", app)
    monkeypatch.setattr("stress_tui.cli.tty.is_terminal", lambda: True)
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(tmp_path / "watched"))
    assert main(["--p1", "bot:easy", "--p2", "bot:easy"]) == 0
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(tmp_path / "data"))
    assert main([]) == 0
    assert main(["--p2", "bot:easy"]) == 0
    assert offers == [False, True, False]


def test_no_offer_with_a_record_or_after_the_practice_or_where_nothing_can_be_written(
    tmp_path: Path,
) -> None:
    with environment({"STRESS_TUI_DATA_DIR": str(tmp_path / "kept")}):
        (tmp_path / "kept").mkdir()
        (tmp_path / "kept" / "record.sqlite").write_bytes(b"")
        assert not offer_practice()
    with environment({"STRESS_TUI_DATA_DIR": str(tmp_path / "learnt")}):
        settings_of()
        assert not offer_practice()
    (tmp_path / "file").write_text("")
    with environment({"STRESS_TUI_DATA_DIR": str(tmp_path / "file" / "data")}):
        assert not offer_practice()


def test_a_record_is_looked_for_where_the_record_keeps_it() -> None:
    from stress_tui.storage.database import legacy_path, record_path

    assert (record_path().name, legacy_path(record_path()).name) == RECORDS


def test_two_games_started_at_once_offer_it_once(tmp_path: Path) -> None:
    """The mark is made by one of them only (``O_EXCL``)."""
    import concurrent.futures

    with (
        environment({"STRESS_TUI_DATA_DIR": str(tmp_path / "data")}),
        concurrent.futures.ThreadPoolExecutor(8) as pool,
    ):
        answers = list(pool.map(lambda _n: offer_practice(), range(8)))
    assert answers.count(True) == 1
