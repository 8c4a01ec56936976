"""The daily deal as players meet it: the same cards for everyone on a day, against the
day's computer, once a day per name (a second one the same day is refused), the streak on
the result screen, and a replay anyone can check was the day's. Played in-process; the
command's first frame on a real terminal: ``tests/test_app_e2e.py``."""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from stress_tui.cli import tty
from stress_tui.cli.main import main
from stress_tui.core.daily import (
    BOT_SIDE,
    COMPUTER_NAME,
    PLAYERS,
    Streak,
    bot_seed,
    daily_rules,
    daily_seed,
)
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import Event, Played, RoundDrawn, RoundWon
from stress_tui.core.notation import format_position
from stress_tui.core.settings import Settings
from stress_tui.core.stats import PlayerStats, RoundStats
from stress_tui.core.table import Table
from stress_tui.players.bot import make_bot
from stress_tui.storage.record import DailyTaken, Record, check_daily, claim_daily, count_round
from stress_tui.storage.recorder import Recorder
from stress_tui.storage.replay import load
from stress_tui.storage.verify import verify
from stress_tui.terminal.app import DailyApp
from stress_tui.terminal.draw.canvas import Canvas, plain_lines
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.endpoint import MemoryEndpoint
from stress_tui.terminal.notices import Notices
from stress_tui.terminal.render import render
from stress_tui.terminal.scene import Scene
from tests import command

DAY = "2024-03-01"


def daily_settings(name: str = "Ann", day: str = DAY) -> Settings:
    """What ``stress-tui daily --name NAME`` plays on ``day``."""
    return Settings(
        rules=daily_rules(),
        seed=daily_seed(day),
        names=(name, COMPUTER_NAME),
        players=PLAYERS,
    )


def a_terminal() -> MemoryEndpoint:
    return MemoryEndpoint()


def play_out(app: DailyApp, person_level: str = "expert") -> RoundWon | RoundDrawn:
    """Play the app's round to its end on a virtual clock, a computer of
    ``person_level`` standing in for the person (its moves are the person's keys)."""
    table = app.table
    app.seat_computers()  # as the app does just after its first frame
    stand_in = make_bot(1 - BOT_SIDE, person_level, random.Random(7))
    table.drivers = (stand_in, *table.drivers)
    table.start(table.game.state.time)
    app.log.start(1, (0, 0))
    ended: list[Event] = []
    while table.game.state.phase is not Phase.ROUND_OVER:
        due = table.next_deadline()
        assert due is not None
        ended += [e for e in table.advance(due) if isinstance(e, (RoundWon, RoundDrawn))]
    (event,) = ended
    assert isinstance(event, (RoundWon, RoundDrawn))
    return event


def test_the_daily_is_the_days_deal_and_the_days_computer(data: Path) -> None:
    app = DailyApp(a_terminal(), daily_settings(), DAY)
    dealt = Game.deal(daily_rules(), random.Random(daily_seed(DAY)))
    assert format_position(app.table.game.state) == format_position(dealt.state)
    assert not app.table.drivers  # the computer sits down after the first frame
    app.seat_computers()
    (bot,) = app.table.drivers
    assert bot.player == BOT_SIDE
    # Another day, other cards.
    other = DailyApp(a_terminal(), daily_settings(day="2024-03-02"), "2024-03-02")
    assert format_position(other.table.game.state) != format_position(dealt.state)
    assert bot_seed(daily_seed(DAY)) != bot_seed(daily_seed("2024-03-02"))


def test_a_daily_played_to_the_end_shows_the_result_and_the_streak_and_verifies(
    data: Path,
) -> None:
    claim_daily("Ann", "2024-02-29")  # won yesterday
    count_round(
        ("Ann", COMPUTER_NAME),
        "standard wins=1",
        RoundStats((PlayerStats(), PlayerStats()), 0, 30.0),
        True,
        kinds=PLAYERS,
        daily="2024-02-29",
    )
    claim_daily("Ann", DAY)
    app = DailyApp(a_terminal(), daily_settings(), DAY)
    event = play_out(app)
    result = app.end_round(event)
    won = result.winner == 1 - BOT_SIDE
    said = "won" if won else "lost"
    assert result.headline == f"Ann {said} the daily deal of {DAY}!"
    streak = Streak(2, 2) if won else Streak(0, 1)
    assert result.notes[0] == (
        f"daily {DAY}: {said}   streak {streak.current}   best streak {streak.best}"
    )
    assert result.again == "leave"
    assert any(note.startswith("rating: Ann ") for note in result.notes)
    assert [name for name, _ in result.charts] == ["Ann"]
    assert Record.load().ratings["Ann"].streak(DAY) == streak
    # The replay says which day it was, and anyone can check it was that day's deal.
    (path,) = (data / "replays").glob("*.jsonl")
    replay = load(path)
    assert replay.header["daily"] == DAY and replay.seed == daily_seed(DAY)
    done = command.run_text("replay", "--verify", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"verified, the daily deal of {DAY} (dealt from its seed)" in done.stdout


def test_the_day_taken_once_is_refused_a_second_time(data: Path) -> None:
    claim_daily("Ann", DAY)
    with pytest.raises(DailyTaken) as taken:
        claim_daily("Ann", DAY)
    assert taken.value.won is None  # not finished: left, or being played
    claim_daily("Bo", DAY)  # once a day per name
    claim_daily("Ann", "2024-03-02")
    # Left before its end: not won, the streak broken.
    assert Record.load().ratings["Ann"].dailies == [(DAY, False), ("2024-03-02", False)]


def test_the_day_is_taken_at_the_first_card_played_not_at_the_deal(data: Path) -> None:
    """Dealt, its computer seated and its clock started, the daily is not taken: left
    then, it can be played again. The first card played takes it."""
    app = DailyApp(a_terminal(), daily_settings(), DAY)
    table = app.table
    app.seat_computers()
    table.drivers = (make_bot(1 - BOT_SIDE, "expert", random.Random(7)), *table.drivers)
    table.start(table.game.state.time)
    app.log.start(1, (0, 0))
    check_daily("Ann", DAY)
    happened: list[Event] = []
    while not any(isinstance(event, Played) for event in happened):
        check_daily("Ann", DAY)  # the flip shown, no card played: not taken yet
        due = table.next_deadline()
        assert due is not None
        happened = table.advance(due)
    with pytest.raises(DailyTaken) as taken:
        check_daily("Ann", DAY)
    assert taken.value.won is None  # being played
    app.log.close()


def test_a_daily_left_before_its_first_card_is_not_taken(data: Path) -> None:
    """Started, then left at once with Ctrl-C: the day is not taken, and the daily can be
    played again. (Its first frame on a real terminal: ``tests/test_app_e2e.py``.)"""
    from tests.pilot import Pilot

    s = Pilot(lambda endpoint: DailyApp(endpoint, daily_settings(), DAY))
    try:
        s.wait_for(lambda: f"daily deal of {DAY}" in s.row(0), timeout=10, what="the daily")
        s.send("\x03")
        assert s.wait_exit() == 130
    finally:
        s.close()
    check_daily("Ann", DAY)  # not taken


def test_the_daily_s_title_line_says_it_is_the_daily_and_the_day() -> None:
    """(The pty test below sees it on the daily's own screen.)"""
    app = DailyApp(a_terminal(), daily_settings(), DAY)
    scene = Scene(table=app.table, now=0.0, keymap=app.keymap, notices=Notices(), daily=DAY)
    palette = Palette(a_terminal().term, True, False)
    (title, *_) = plain_lines(render(scene, palette, Canvas(80, 24, a_terminal().term.length)))
    assert f"STRESS  daily deal of {DAY}" in title, title


def test_a_daily_already_over_is_not_counted_at_all(data: Path) -> None:
    claim_daily("Ann", DAY)
    won = RoundStats((PlayerStats(), PlayerStats()), 0, 30.0)
    first = count_round(("Ann", COMPUTER_NAME), "standard", won, True, kinds=PLAYERS, daily=DAY)
    assert first is not None and first.daily is True and first.streak == Streak(1, 1)
    again = count_round(("Ann", COMPUTER_NAME), "standard", won, True, kinds=PLAYERS, daily=DAY)
    assert again is not None and again.daily is False and again.after == (None, None)
    standing = Record.load().standing("Ann", "standard")
    assert (standing.rounds_won, standing.matches_won) == (1, 1)  # the second not counted
    with pytest.raises(DailyTaken) as taken:
        claim_daily("Ann", DAY)
    assert taken.value.won is True
    # Never dealt to that name: not counted either.
    never = count_round(("Cy", COMPUTER_NAME), "standard", won, True, kinds=PLAYERS, daily=DAY)
    assert never is not None and never.daily is False


# --------------------------------------------------------------------------- checking a replay


def _recorded(path: Path, day: str, seed: int, computer: str) -> Path:
    """A daily's replay as the game writes it, the computer's side played by ``computer``
    (a level) with the day's random source, the person by an expert."""
    game = Game.deal(daily_rules(), random.Random(seed))
    drivers = (
        make_bot(1 - BOT_SIDE, "expert", random.Random(7)),
        make_bot(BOT_SIDE, computer, random.Random(bot_seed(seed))),
    )
    recorder = Recorder.start(game, seed, PLAYERS, ("Ann", COMPUTER_NAME), 1, (0, 0), path, day)
    table = Table(game, drivers, on_action=recorder.record)
    table.start(0.0)
    while game.state.phase is not Phase.ROUND_OVER:
        due = table.next_deadline()
        assert due is not None
        table.advance(due)
    return recorder.finish(game)


def test_verify_catches_a_daily_whose_computer_was_not_the_days(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    honest = _recorded(tmp_path, DAY, daily_seed(DAY), "normal")
    assert main(["replay", "--verify", str(honest)]) == 0
    capsys.readouterr()
    # The same deal, the computer played by an easier level: every event checks out, but
    # its moves are not the ones the day's computer makes.
    easy = _recorded(tmp_path, DAY, daily_seed(DAY), "easy")
    assert verify(load(easy)).ok  # the engine's own check passes
    assert main(["replay", "--verify", str(easy)]) == 1
    assert "was not the day's computer's" in capsys.readouterr().out


def test_verify_catches_a_daily_not_dealt_from_its_days_seed(tmp_path: Path) -> None:
    other = _recorded(tmp_path, DAY, daily_seed("2024-03-02"), "normal")
    verdict = verify(load(other))
    assert not verdict.ok
    assert f"not the daily deal of {DAY}: dealt from seed" in verdict.message
    lines = other.read_text().splitlines()
    header = json.loads(lines[0])
    header["daily"] = "2024-02-30"
    other.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert "its day '2024-02-30' is not a date" in verify(load(other)).message


# --------------------------------------------------------------------------- the command


def _today() -> Iterator[str]:
    """Today's date, and tomorrow's in case midnight passes during the test."""
    today = datetime.date.today()
    yield today.isoformat()
    yield (today + datetime.timedelta(days=1)).isoformat()


def test_a_second_daily_the_same_day_is_refused_in_one_line(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for day in _today():
        claim_daily("Ann", day)
    monkeypatch.setattr(tty, "is_terminal", lambda: True)
    assert main(["daily", "--name", "Ann"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "stress-tui: daily: Ann has had today's daily deal (left before the end)" in err


def test_the_daily_s_person_is_you_as_against_the_computer_in_any_game(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody named: the person is ``You``, one row in the standings and one rating with
    their games against the computer, spoken to as you."""
    for day in _today():
        claim_daily("You", day)
    monkeypatch.setattr(tty, "is_terminal", lambda: True)
    assert main(["daily"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "stress-tui: daily: you have had today's daily deal (left before the end)" in err


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--deck", "jass", "daily"], "--deck: not with the daily command"),
        (["daily", "--deck", "jass"], "--deck: no such option"),
        (["daily", "--name", ""], "--name: a name may not be empty"),
        (["daily", "--name", "computer"], "--name: Computer is the computer's name"),
        (["--seed", "4", "daily"], "--seed: not with the daily command"),
        (["daily"], "not a terminal"),
    ],
)
def test_a_daily_that_cannot_be_played_is_one_line_exit_2(
    data: Path, capsys: pytest.CaptureFixture[str], argv: list[str], problem: str
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and problem in err
    assert not (data / "record.sqlite").exists()  # nothing taken
