"""The computer levels on the rating scale: ``stress-tui sim --rate-levels`` measures them,
and the anchors the game rates people against are what it measures."""

from __future__ import annotations

import json

import pytest

from stress_tui.cli.main import main
from stress_tui.core.rating import LEVEL_RATINGS, PINNED_LEVEL
from stress_tui.core.rules import Rules
from stress_tui.players import anchors
from stress_tui.players.bot import LEVELS


# The measure is the bots' rounds on a virtual clock (pure logic, seed 1); the command's
# arguments and output are tried on every Python by the test below.
@pytest.mark.one_python
def test_rate_levels_prints_every_level_in_order_with_the_pinned_one_at_1500(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["sim", "--rate-levels", "--games", "60", "--seed", "1", "--jobs", "1", "--json"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert err == ""
    assert data["rounds"] == 60
    ratings = data["ratings"]
    assert set(ratings) == set(LEVELS)
    assert ratings[PINNED_LEVEL] == 1500
    assert ratings["easy"] < ratings["normal"] < ratings["hard"] < ratings["expert"]
    # Each ordered pair played 60 rounds each way round: 120 between any two levels.
    wins = {(a, b): n for a, b, n in data["wins"]}
    assert wins["hard", "easy"] + wins["easy", "hard"] <= 120
    assert sum(wins.values()) <= 12 * 60


def test_rate_levels_as_a_table_shows_the_anchors_beside_the_measure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # as few rounds as rate every level: the table's shape, not the measure (the test above)
    assert main(["sim", "--rate-levels", "--games", "12", "--seed", "1", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    ratings = out.split("\n\n")[1]  # after the line saying what was played
    rows = {line.split()[0]: line.split() for line in ratings.splitlines()}
    assert rows["normal"][1:4] == ["1500", "0.0", "1500"]
    assert rows["hard"][3] == f"{LEVEL_RATINGS['hard'].rating:.0f}"


def test_too_few_rounds_to_rate_every_level_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["sim", "--rate-levels", "--games", "1", "--seed", "1", "--jobs", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "too few to rate every level" in err


def test_rate_levels_chooses_its_own_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--rate-levels", "--p1", "bot:hard"]) == 2
    assert "--p1: not with --rate-levels" in capsys.readouterr().err


def test_every_level_has_an_anchor_and_the_anchors_are_in_order() -> None:
    assert list(LEVEL_RATINGS) == list(LEVELS)
    values = [LEVEL_RATINGS[level].rating for level in LEVELS]
    assert values == sorted(values)
    assert LEVEL_RATINGS[PINNED_LEVEL].rating == 1500


@pytest.mark.slow
def test_the_anchors_are_what_the_simulator_measures() -> None:
    """2,000 rounds each ordered pair (a standard error of about 8 points): the anchors,
    measured with 10,000, must be within 30 points. A change to the bot that moves a level
    more than that needs the anchors measured again (docs/ratings.md says how)."""
    run = anchors.measure(Rules.for_deck("standard"), 2000, seed=2, jobs=2)
    for level, anchor in LEVEL_RATINGS.items():
        assert run.fit.ratings[level] == pytest.approx(anchor.rating, abs=30), level
