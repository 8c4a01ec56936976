"""The rating arithmetic (Glicko-2, checked against Glickman's own worked example), the fit
that rates the computer levels, and the daily deal's seed and streaks."""

from __future__ import annotations

import datetime
import doctest
import math

import pytest

from stress_tui.core import daily, rating
from stress_tui.core.daily import BadDate, Streak, daily_seed, day_number, streaks
from stress_tui.core.rating import SCALE, Game, Rating, expected_score, fit_levels, rate

# Glickman, "Example of the Glicko-2 system" (2013): a player rated 1500, RD 200,
# volatility 0.06 plays three opponents in one period, tau = 0.5.
PLAYER = Rating(1500, 200, 0.06)
PERIOD = [
    Game(Rating(1400, 30), 1),
    Game(Rating(1550, 100), 0),
    Game(Rating(1700, 300), 0),
]


def test_glickmans_example_gives_his_new_rating_deviation_and_volatility() -> None:
    after = rate(PLAYER, PERIOD, tau=0.5)
    # His figures, rounded as he prints them: r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    # (1464.06 is from his rounded mu' = -0.2069; unrounded it is 1464.0507.)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    # He writes sigma' = 0.05999 to five places, cut rather than rounded (it is 0.059996).
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.volatility < 0.06


def test_glickmans_example_on_the_glicko2_scale() -> None:
    # His steps 2-7: mu' = -0.2069, phi' = 0.8722 on the internal scale.
    after = rate(PLAYER, PERIOD, tau=0.5)
    assert (after.rating - 1500) / SCALE == pytest.approx(-0.2069, abs=0.00005)
    assert after.deviation / SCALE == pytest.approx(0.8722, abs=0.00005)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(PLAYER, [])
    assert after.rating == 1500
    assert after.volatility == 0.06
    # Step 6 alone: phi* = sqrt(phi^2 + sigma^2).
    assert after.deviation == pytest.approx(SCALE * math.sqrt((200 / SCALE) ** 2 + 0.06**2))


def test_winning_raises_losing_lowers_and_every_game_makes_it_surer() -> None:
    new = Rating()
    won = rate(new, [Game(Rating(1500, 50), 1)])
    lost = rate(new, [Game(Rating(1500, 50), 0)])
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert won.deviation < new.deviation and lost.deviation < new.deviation
    # A win over a far stronger opponent is worth more than one over an equal.
    upset = rate(new, [Game(Rating(1900, 50), 1)])
    assert upset.rating > won.rating


def test_many_rounds_against_an_anchor_settle_near_its_strength() -> None:
    # Winning three rounds of four against a player of 1500 is playing at about
    # 1500 + 400 log10(3) = 1691 (when the wins are spread out evenly).
    player = Rating()
    anchor = Rating(1500, 0)
    for i in range(400):
        player = rate(player, [Game(anchor, 0 if i % 4 == 3 else 1)])
    assert player.rating == pytest.approx(1500 + 400 * math.log10(3), abs=40)
    assert 40 < player.deviation < 80  # one round a period: the deviation levels off


def test_the_expected_score_is_the_logistic_of_the_difference() -> None:
    assert expected_score(Rating(1900, 0), Rating(1500, 0)) == pytest.approx(10 / 11)
    assert expected_score(Rating(1500, 0), Rating(1500, 0)) == 0.5
    # An opponent rated less surely pulls the expectation towards even.
    assert expected_score(Rating(1900), Rating(1500, 300)) < 10 / 11


def test_the_level_fit_finds_the_ratings_behind_the_counts() -> None:
    truth = {"easy": 1100.0, "normal": 1500.0, "hard": 1850.0}
    wins = {}
    for a in truth:
        for b in truth:
            if a != b:
                p = 1 / (1 + 10 ** ((truth[b] - truth[a]) / 400))
                wins[a, b] = round(100_000 * p)
    fit = fit_levels(wins, pinned="normal")
    for level, value in truth.items():
        assert fit.ratings[level] == pytest.approx(value, abs=0.5)
    assert fit.errors["normal"] == 0
    assert 0 < fit.errors["hard"] < 5  # 200,000 rounds a pair: a few points at most


def test_the_level_fit_refuses_a_level_that_never_lost() -> None:
    with pytest.raises(ValueError, match="won and lost"):
        fit_levels({("hard", "easy"): 10, ("easy", "hard"): 0}, pinned="easy")


# --------------------------------------------------------------------------- the daily


def test_the_daily_seed_of_a_date_is_fixed() -> None:
    # sha256("stress-tui daily 2024-03-01"), its first eight bytes big-endian: on every
    # machine, every run, every version.
    assert daily_seed("2024-03-01") == 14770430209441001885
    assert daily_seed("2024-03-02") != daily_seed("2024-03-01")
    assert 0 <= daily_seed("1999-12-31") < 2**64


@pytest.mark.parametrize(
    "bad",
    [
        "2024-02-30",
        "2023-02-29",
        "2024-13-01",
        "24-03-01",
        "",
        "x",
        "\uff12\uff10\uff12\uff14-03-01",
    ],
)
def test_a_date_that_is_not_a_day_is_refused(bad: str) -> None:
    with pytest.raises(BadDate):
        daily_seed(bad)


@pytest.mark.parametrize("day", ["0001-01-01", "1900-03-01", "2000-02-29", "2024-12-31"])
def test_day_numbers_count_as_the_calendar_does(day: str) -> None:
    assert day_number(day) == datetime.date.fromisoformat(day).toordinal()


def test_streaks_count_days_in_a_row_won() -> None:
    days = [
        ("2024-03-01", True),
        ("2024-03-02", True),
        ("2024-03-03", True),
        ("2024-03-04", False),
        ("2024-03-05", True),
        ("2024-03-06", True),
    ]
    assert streaks(days, today="2024-03-06") == Streak(current=2, best=3)
    assert streaks(days, today="2024-03-07") == Streak(2, 3)  # today's may still be played
    assert streaks(days, today="2024-03-08") == Streak(0, 3)  # a day missed
    assert streaks(reversed(days), today="2024-03-06") == Streak(2, 3)
    gap = [("2024-02-27", True), ("2024-02-29", True), ("2024-03-01", True)]
    assert streaks(gap, today="2024-03-01") == Streak(2, 2)  # 2024 had a 29 February
    assert streaks([], today="2024-03-01") == Streak(0, 0)
    assert streaks([("2024-03-01", False)], today="2024-03-01") == Streak(0, 0)


def test_the_examples_in_the_docstrings() -> None:
    for module in (daily, rating):
        assert doctest.testmod(module).failed == 0
