"""The record on the command line (``stress-tui stats``) and the round's statistics on the
result screen."""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path

import pytest
from blessed import Terminal

from stress_tui.cli.commands.stats import record_json
from stress_tui.cli.main import main
from stress_tui.core.actions import Action, CallStress, Flip, Play
from stress_tui.core.engine import Game
from stress_tui.core.notation import parse_position
from stress_tui.core.stats import PlayerStats, RoundStats, round_stats
from stress_tui.core.table import Table
from stress_tui.storage.record import Record, count_round
from stress_tui.terminal.draw.canvas import Canvas, plain_lines
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import default_keymap
from stress_tui.terminal.notices import Notices
from stress_tui.terminal.render import render
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.result import Result, ResultScreen, stats_lines
from tests.test_stats import RACE, RACE_ACTIONS, STRESS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def a_record() -> Record:
    """A round won by Bo, winning the match, counted in the record of the data folder."""
    count_round(
        ("Ann", "Bo"),
        "jass",
        round_stats(Game(parse_position(RACE), random.Random(0)), RACE_ACTIONS),
        True,
    )
    return Record.load()


# ----------------------------------------------------------------------------- the command


def test_stats_prints_the_record_as_a_table(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "stats") == (0, "No rounds recorded yet.\n", "")
    a_record()
    code, out, err = run(capsys, "stats")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == [
        "player",
        "rules",
        "matches",
        "rounds",
        "best",
        "reaction",
        "best",
        "round",
    ]
    assert lines[1].split() == ["Ann", "jass", "0-1", "0-1", "0.20s", "-"]
    assert lines[2].split() == ["Bo", "jass", "1-0", "1-0", "0.20s", "4.00s"]


def test_stats_json_is_for_scripts(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert json.loads(run(capsys, "stats", "--json")[1])["players"] == []
    assert json.loads(run(capsys, "stats", "--json")[1])["computers"] == []
    record = a_record()
    code, out, err = run(capsys, "stats", "--json")
    assert (code, err) == (0, "")
    for key, value in json.loads(json.dumps(record_json(record))).items():
        assert json.loads(out)[key] == value
    assert json.loads(out)["players"][1]["matches_won"] == 1


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        '{"format": "something else"}',
        '{"format": "stress-tui record", "players": []}',
        "\xff",
    ],
)
def test_a_broken_record_is_one_line_exit_2_and_left_alone(
    data: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    data.mkdir()
    path = data / "record.json"
    path.write_text(content, encoding="latin-1")
    before = path.read_bytes(), os.stat(path).st_mtime_ns
    for argv in (["stats"], ["stats", "--json"]):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, "")
        assert err.startswith(f"stress-tui: {path}") and err.count("\n") == 1
    assert (path.read_bytes(), os.stat(path).st_mtime_ns) == before
    assert sorted(p.name for p in data.iterdir()) == ["record.json"]


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--seed", "3", "stats"], "stress-tui: --seed: not with the stats command"),
        (["--ascii", "stats"], "stress-tui: --ascii: not with the stats command"),
        (["stats", "--jsno"], "stress-tui: --jsno: no such option (did you mean --json?)"),
        (["stats", "extra"], "stress-tui: extra: unexpected argument (try --help)"),
    ],
)
def test_a_bad_stats_command_is_one_line_and_exit_2(
    data: Path, capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    assert run(capsys, *argv) == (2, "", line + "\n")


# ----------------------------------------------------------------------------- measures


def test_stress_reactions_are_split_into_calls_won_and_calls_too_late() -> None:
    game = Game(parse_position(STRESS), random.Random(0))
    actions: list[Action] = [Play(0, 0, 0, 1.0), CallStress(1, 1.4), CallStress(0, 1.6), Flip(3.0)]
    p1, p2 = round_stats(game, actions).players
    assert p2.won_reactions == pytest.approx([0.4]) and p2.late_reactions == []
    assert p1.late_reactions == pytest.approx([0.6]) and p1.won_reactions == []


# ----------------------------------------------------------------------------- the screen


def hand_made() -> RoundStats:
    ann = PlayerStats(
        cards_played=23,
        longest_chain=5,
        reactions=[0.4, 0.5, 0.9],
        stresses_won=2,
        won_reactions=[0.41, 0.38],
        stresses_lost=1,
        false_calls=1,
        misplays=3,
        lockouts=3,
    )
    bo = PlayerStats(
        cards_played=17,
        longest_chain=3,
        reactions=[],
        stresses_won=1,
        won_reactions=[0.52],
        stresses_lost=2,
        late_reactions=[0.6],
        false_calls=0,
        misplays=0,
        lockouts=0,
    )
    return RoundStats((ann, bo), winner=0, seconds=83.25)


def test_the_statistics_table_reads_per_player() -> None:
    lines = stats_lines(hand_made(), ("Ann", "Bo"))
    assert [line.split(None, 1)[0] for line in lines] == [
        "Ann",
        "cards",
        "longest",
        "median",
        "stresses",
        "stresses",
        "false",
        "misplays",
        "lockouts",
    ]
    table = {line[:17].strip(): line[17:].split(None, 1)[0] for line in lines[1:]}
    assert table["cards played"] == "23" and table["longest chain"] == "5"
    assert "0.50s" in lines[3] and lines[3].rstrip().endswith("-")  # no play by Bo
    assert "2 (0.41s 0.38s)" in lines[4] and lines[4].endswith("1 (0.52s)")
    assert lines[5].split()[2:] == ["1", "2", "(0.60s)"]
    assert all(len(line) <= 72 for line in lines)


def test_a_long_list_of_times_keeps_its_count_and_the_fastest() -> None:
    stats = hand_made()
    stats.players[0].stresses_won = 9
    stats.players[0].won_reactions = [0.5 + i / 100 for i in range(9)]
    stats.players[0].won_reactions[4] = 0.31
    line = stats_lines(stats, ("Ann", "Bo"))[4]
    assert "9 (best 0.31s)" in line


@pytest.fixture(scope="module")
def term() -> Terminal:
    return Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)


PLAYING = (
    "rules: standard; phase: playing; p1 row: JS | 2D 2C | 9D | 4C; p1 draw: 5S 6S 7S;"
    " piles: TC | 4H; p2 row: JC | KS | 5C | TH; p2 draw: 8S 9S"
)


def result_screen(term: Terminal, width: int, height: int, names: tuple[str, str]) -> str:
    table = Table(Game(parse_position(PLAYING), random.Random(1)))
    result = Result(
        0,
        True,
        keys_live=True,
        stats=hand_made(),
        notes=(
            "replay: 20260101-120000-000000.jsonl",
            "record not updated (no space left on device)",
        ),
    )
    view = Scene(
        table=table,
        now=0.0,
        keymap=default_keymap(),
        notices=Notices(names),
        names=names,
        score=(3, 1),
        overlay=ResultScreen(),
        result=result,
        seed="42",
    )
    frame = render(view, Palette(term), Canvas(width, height, term.length))
    return "\n".join(plain_lines(frame))


def test_the_result_screen_shows_everything_in_80x24(term: Terminal) -> None:
    names = ("Annemarie-Louise", "Bartholomew Bo")  # the longest names there may be
    shown = result_screen(term, 80, 24, names)
    for text in (
        "Annemarie-Louise wins the match!",
        "Annemarie-Louise 3 : 1 Bartholomew Bo",
        "Annemarie-Louise",
        "Bartholomew Bo",
        "cards played",
        "longest chain",
        "median reaction",
        "stresses won",
        "2 (0.41s 0.38s)",
        "stresses lost",
        "2 (0.60s)",
        "false calls",
        "misplays",
        "lockouts",
        "round 1:23.2",
        "seed 42",
        "replay: 20260101-120000-000000.jsonl",
        "record not updated (no space left on device)",
        "Enter: rematch    q: quit",
    ):
        assert text in shown, text


@pytest.mark.parametrize(("width", "height"), [(60, 16), (70, 20), (100, 40)])
def test_the_result_screen_keeps_its_keys_on_any_table_size(
    term: Terminal, width: int, height: int
) -> None:
    shown = result_screen(term, width, height, ("Ann", "Bo"))
    assert "Ann wins the match!" in shown and "Enter: rematch    q: quit" in shown
    assert ("cards played" in shown) or ("a taller window shows the statistics" in shown)


@pytest.mark.parametrize(
    "values",
    [
        {"rounds_won": "x"},
        {"matches_lost": -1},
        {"rounds_lost": True},
        {"best_round": "fast"},
        {"best_reaction": -0.5},
        {"best_round": 10**400},
    ],
)
def test_a_record_of_the_wrong_kinds_of_values_is_broken(
    data: Path, capsys: pytest.CaptureFixture[str], values: dict[str, object]
) -> None:
    data.mkdir()
    path = data / "record.json"
    content = json.dumps(
        {"format": "stress-tui record", "version": 1, "players": {"Ann": {"jass": values}}}
    )
    path.write_text(content)
    code, out, err = run(capsys, "stats")
    assert (code, out) == (2, "")
    broken = f"stress-tui: {path}: the record of 'Ann' under 'jass' is broken; left as it is"
    assert err == broken + "\n"
    assert path.read_text() == content
