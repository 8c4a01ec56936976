"""Charts of a player's rating and reaction: braille dots where the output can show them,
ASCII where it cannot; ``stress-tui stats --chart`` and the result screen's panel."""

from __future__ import annotations

from pathlib import Path

import pytest
from wcwidth import wcswidth

from stress_tui.cli.main import main
from stress_tui.core.rating import Rating
from stress_tui.core.stats import PlayerStats, RoundStats
from stress_tui.storage.ratings import Point
from stress_tui.storage.record import count_round
from stress_tui.terminal.draw.chart import BRAILLE, can_encode, labelled, plot
from stress_tui.terminal.ratingchart import chart_height, rating_chart
from tests import command


def dots(lines: list[str]) -> list[set[int]]:
    """For each dot column of a braille chart, the heights (0: bottom) that have a dot."""
    bits = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))
    height = 4 * len(lines)
    columns: list[set[int]] = [set() for _ in range(2 * len(lines[0]))]
    for y, line in enumerate(lines):
        for x, char in enumerate(line):
            value = ord(char) - BRAILLE
            assert 0 <= value <= 0xFF, char
            for half in (0, 1):
                for row in range(4):
                    if value & bits[half][row]:
                        columns[2 * x + half].add(height - 1 - (4 * y + row))
    return columns


def test_a_braille_line_climbs_from_the_bottom_to_the_top_joined_up() -> None:
    lines = plot([0, 1, 2, 3, 4, 5, 6, 7], width=4, height=2)
    assert len(lines) == 2 and all(len(line) == 4 for line in lines)
    # Eight values, eight heights: one dot a step, each joined to the one before.
    assert dots(lines) == [{0}, {0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}]


def test_a_gap_is_left_blank_and_a_flat_line_sits_in_the_middle() -> None:
    assert dots(plot([1.0, None, 1.0, 1.0], width=2, height=1)) == [{2}, set(), {2}, {2}]


def test_only_the_last_values_that_fit_are_drawn() -> None:
    lines = plot(list(range(100)), width=3, height=1, ascii=True)
    assert lines == [".-'"]  # 97, 98, 99: bottom, middle, top of their own range


def test_ascii_draws_three_heights_a_row() -> None:
    assert plot([0, 1, 2, 3, 4, 5], width=6, height=2, ascii=True) == ["   .-'", ".-'   "]


def test_labels_are_aligned_by_the_width_they_take_on_screen() -> None:
    out = labelled(["ab", "cd"], ["李", "xyz"], measure=wcswidth)
    assert [wcswidth(line) for line in out] == [6, 6]
    assert out[0].endswith(" ab") and out[1] == "xyz cd"


def test_can_encode() -> None:
    assert can_encode("utf-8") and can_encode("UTF-8", "±")
    assert not can_encode("ascii") and not can_encode("latin-1") and not can_encode(None)
    assert can_encode("latin-1", "±")
    assert not can_encode("no such encoding")


POINTS = [
    Point(Rating(1500 + 40 * i, 300 - 10 * i), 0.9 - 0.02 * i, i % 2 == 0, i % 3 == 2)
    for i in range(12)
]


@pytest.mark.parametrize("ascii", [False, True], ids=["braille", "ascii"])
def test_a_players_chart_has_the_rating_the_reaction_and_the_levels_it_passes(
    ascii: bool,
) -> None:
    lines = rating_chart("李小龍", POINTS, 60, ascii=ascii, measure=wcswidth)
    assert len(lines) == chart_height()
    assert lines[0].startswith("李小龍: rating 1940 ")
    assert ("+-" if ascii else "±") in lines[0]
    assert "the last 12 rated rounds" in lines[0]
    assert all(wcswidth(line) <= 60 for line in lines)
    body = lines[1:]
    assert body[0].split()[0] == "1940" and body[3].split()[0] == "1500"
    assert body[4].split()[0] == "0.90s" and body[6].split()[0] == "0.68s"
    # 1500 to 1940 passes normal (1500, the bottom row) and hard (1859, the top row).
    assert body[3].split()[-1] == "normal" and body[0].split()[-1] == "hard"
    assert not any("expert" in line or "easy" in line for line in lines)
    if ascii:
        assert all(line.isascii() for line in lines[1:])
    else:
        assert any(BRAILLE < ord(ch) <= BRAILLE + 0xFF for line in body for ch in line)


def test_a_chart_with_no_rounds_says_so() -> None:
    assert rating_chart("Ann", [], 40) == ["Ann: no rated rounds yet"]


# --------------------------------------------------------------------------- the command


@pytest.fixture
def data(data: Path) -> Path:
    """The test's data folder (``conftest.data``) with eight rounds of Ann and Bo."""
    for i in range(8):
        stats = (PlayerStats(reactions=[0.4 + 0.05 * i]), PlayerStats(reactions=[0.6]))
        count_round(("Ann", "Bo"), "standard", RoundStats(stats, i % 2, 9.0), i % 3 == 2)
    return data


def test_stats_chart_draws_every_person_in_braille(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "50")
    assert main(["stats", "--chart"]) == 0
    out = capsys.readouterr().out
    charts = out.split("\n\n")
    assert [chart.splitlines()[0].split(":")[0] for chart in charts] == ["Ann", "Bo"]
    assert all(len(line) <= 50 for line in out.splitlines())
    assert "⠀" in out or any(0x2800 < ord(ch) <= 0x28FF for ch in out)
    assert main(["stats", "--chart", "Bo"]) == 0
    assert capsys.readouterr().out.startswith("Bo: rating ")


def test_stats_chart_falls_back_to_ascii_where_the_output_cannot_show_braille(
    data: Path,
) -> None:
    done = command.run("stats", "--chart", "Ann", encoding="ascii", env={"COLUMNS": "60"})
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("ascii")  # nothing that is not ASCII
    assert text.startswith("Ann: rating ") and "+-" in text
    assert len(text.splitlines()) == chart_height()


def test_stats_chart_with_too_few_rounds_says_so_instead_of_an_empty_block(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count_round(("Cy", "Bo"), "standard", RoundStats((PlayerStats(), PlayerStats()), 0, 9.0), True)
    assert main(["stats", "--chart", "Cy"]) == 0
    assert capsys.readouterr().out == (
        "Cy: 1 rated round so far, too few to draw (a chart starts at 2)\n"
    )
    assert main(["stats", "--chart"]) == 0
    cy = capsys.readouterr().out.split("\n\n")[2]
    assert cy.startswith("Cy: 1 rated round so far"), cy


def test_stats_chart_of_nobody_is_one_line_exit_2(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stats", "--chart", "Cy\x1b[2J"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "\x1b" not in err
    assert "nobody named" in err
    assert main(["stats", "--chart", "--json"]) == 2
    assert "not allowed with" in capsys.readouterr().err


# --------------------------------------------------------------------------- the result screen


def result_with_charts(height: int, people: int, ascii: bool = False) -> str:
    """The result screen of a rated round, 80 columns wide and ``height`` rows high."""
    import io
    import random

    from blessed import Terminal

    from stress_tui.core.engine import Game
    from stress_tui.core.notation import parse_position
    from stress_tui.core.table import Table
    from stress_tui.terminal.draw.canvas import Canvas, plain_lines
    from stress_tui.terminal.draw.palette import Palette
    from stress_tui.terminal.keys import default_keymap
    from stress_tui.terminal.notices import Notices
    from stress_tui.terminal.render import render
    from stress_tui.terminal.scene import Scene
    from stress_tui.terminal.screens.result import Result, ResultScreen

    term = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
    position = (
        "rules: standard; phase: playing; p1 row: JS | 2D | 9D | 4C; p1 draw: 5S 6S;"
        " piles: TC | 4H; p2 row: JC | KS | 5C | TH; p2 draw: 8S 9S"
    )
    table = Table(Game(parse_position(position), random.Random(1)))
    stats = RoundStats((PlayerStats(reactions=[0.5]), PlayerStats(reactions=[0.7])), 0, 30.0)
    charts = tuple((name, tuple(POINTS)) for name in ("Ann", "Bo")[:people])
    result = Result(
        0,
        True,
        keys_live=True,
        stats=stats,
        notes=("replay: 20260101-120000-000000.jsonl", "rating: Ann 1940 ± 190 (+40)"),
        charts=charts,
    )
    view = Scene(
        table=table,
        now=0.0,
        keymap=default_keymap(),
        notices=Notices(("Ann", "Bo")),
        names=("Ann", "Bo"),
        overlay=ResultScreen(),
        result=result,
        seed="42",
        ascii=ascii,
    )
    frame = render(view, Palette(term), Canvas(80, height, term.length))
    return "\n".join(plain_lines(frame))


def test_the_result_screen_draws_the_chart_when_there_is_room() -> None:
    tall = result_with_charts(34, people=1)
    assert "Ann: rating 1940 ± 190" in tall and "reaction" in tall
    assert "rating: Ann 1940 ± 190 (+40)" in tall and "Enter: rematch" in tall
    assert any(0x2800 < ord(ch) <= 0x28FF for ch in tall)
    # 80x24: no room for it, the statistics and the rest as before.
    small = result_with_charts(24, people=1)
    assert "Ann: rating" not in small and "cards played" in small
    assert "rating: Ann 1940 ± 190 (+40)" in small and "Enter: rematch" in small
    # Two people: two charts, when the window is taller still.
    both = result_with_charts(44, people=2)
    assert "Ann: rating" in both and "Bo: rating" in both
    assert "Bo: rating" not in result_with_charts(34, people=2)


def test_the_result_screens_chart_is_ascii_where_the_suits_are() -> None:
    shown = result_with_charts(34, people=1, ascii=True)
    assert "Ann: rating 1940 +- 190" in shown
    assert not any(0x2800 <= ord(ch) <= 0x28FF for ch in shown)
