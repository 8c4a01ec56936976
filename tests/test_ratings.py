"""Ratings in the record as players meet them: every finished round moves the people's
ratings (a computer's never; two games at once rate every round from the rating before
it: ``tests/test_record.py``), older records are rated when this version first writes to
them, and ``stats`` shows each rating with its deviation, its change, and the levels
beside it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from stress_tui.cli.main import main
from stress_tui.core.rating import LEVEL_RATINGS, Game, Rating, rate
from stress_tui.core.stats import PlayerStats, RoundStats
from stress_tui.storage.database import APPLICATION_ID, MIGRATIONS, record_path
from stress_tui.storage.ratings import PlayerRating, Point, fold, player_history
from stress_tui.storage.record import Record, count_round

HUMANS = ("human", "human")


def won_by(player: int, medians: tuple[float, float] = (0.5, 0.7)) -> RoundStats:
    stats = (PlayerStats(reactions=[medians[0]]), PlayerStats(reactions=[medians[1]]))
    return RoundStats(stats, player, 20.0)


def test_a_round_between_two_people_moves_both_ratings_from_where_they_stood(data: Path) -> None:
    counted = count_round(("Ann", "Bo"), "standard", won_by(0), False)
    assert counted is not None
    new = Rating()
    assert counted.before == (new, new)
    assert counted.after == (rate(new, [Game(new, 1)]), rate(new, [Game(new, 0)]))
    again = count_round(("Bo", "Ann"), "standard", won_by(0), True)  # seats swapped
    assert again is not None
    bo, ann = counted.after[1], counted.after[0]
    assert again.before == (bo, ann)
    assert again.after == (rate(bo, [Game(ann, 1)]), rate(ann, [Game(bo, 0)]))
    ratings = Record.load().ratings
    assert ratings["Ann"].rating == again.after[1]
    assert [p.won for p in ratings["Ann"].history] == [True, False]
    assert [p.median for p in ratings["Bo"].history] == [0.7, 0.5]


def test_against_the_computer_only_the_person_moves(data: Path) -> None:
    hard = LEVEL_RATINGS["hard"]
    counted = count_round(
        ("Ann", "Computer"), "standard", won_by(0), False, kinds=("human", "bot:hard")
    )
    assert counted is not None
    assert counted.after == (rate(Rating(), [Game(hard, 1)]), None)
    assert counted.before == (Rating(), None)
    # Won against hard, a new player is rated well above 1500 at once, and unsure of it.
    assert counted.after[0] is not None and counted.after[0].rating > 1800
    # The level's rating is the same after any number of rounds: it is an anchor.
    for _ in range(5):
        count_round(("Ann", "Computer"), "standard", won_by(1), False, kinds=("human", "bot:hard"))
    record = Record.load()
    assert "Computer" not in record.ratings
    assert LEVEL_RATINGS["hard"] == hard


def test_rounds_that_rate_nobody(data: Path) -> None:
    bots = ("bot:easy", "bot:expert")
    assert count_round(("A", "B"), "standard", won_by(1), False, kinds=bots) is not None
    same = count_round(("Ann", "Ann"), "standard", won_by(0), False)  # one name, both sides
    assert same is not None and same.after == (None, None)
    drawn = RoundStats((PlayerStats(), PlayerStats()), None, 5.0)
    assert count_round(("Ann", "Bo"), "standard", drawn, False) is None
    assert Record.load().ratings == {}


def test_the_change_over_the_last_matches(data: Path) -> None:
    # Seven matches of one round each, Ann winning all: the change over the last five is
    # the rating now less the rating after the second.
    after = []
    for _ in range(7):
        counted = count_round(("Ann", "Bo"), "standard", won_by(0), True)
        assert counted is not None and counted.after[0] is not None
        after.append(counted.after[0].rating)
    ann = Record.load().ratings["Ann"]
    assert ann.change() == pytest.approx(after[-1] - after[1])
    assert ann.change(matches=10) == pytest.approx(after[-1] - 1500)
    # A match under way counts as one: two rounds more, not over yet, make six matches.
    for _ in range(2):
        count_round(("Ann", "Bo"), "standard", won_by(1), False)
    ann = Record.load().ratings["Ann"]
    assert ann.change() == pytest.approx(ann.rating.rating - after[2])


def test_a_history_for_the_chart_is_the_last_rounds_oldest_first(data: Path) -> None:
    for i in range(5):
        count_round(("Ann", "Bo"), "standard", won_by(i % 2, (0.1 * (i + 1), 0.9)), i == 4)
    history = player_history("Ann", 3)
    assert [p.median for p in history] == pytest.approx([0.3, 0.4, 0.5])
    assert [p.won for p in history] == [True, False, True]
    assert [p.match_over for p in history] == [False, False, True]
    assert history == Record.load().ratings["Ann"].history[-3:]


# --------------------------------------------------------------------------- earlier records


def _earlier_record(path: Path, steps: int, rounds: list[tuple[str, str, int]]) -> None:
    """A record as an earlier version made it: the first ``steps`` migration steps, and
    ``rounds`` (name1, name2, winner) counted."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    for step in MIGRATIONS[:steps]:
        db.executescript(step)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {steps}")
    for name1, name2, winner in rounds:
        db.execute(
            "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds) "
            "VALUES ('2024-01-01T00:00:00+00:00', 'standard', ?, ?, ?, 10.0)",
            (name1, name2, winner),
        )
    db.commit()
    db.close()


EARLIER_ROUNDS = [("Ann", "Bo", 0), ("Bo", "Cy", 1), ("Ann", "Cy", 1), ("Bo", "Ann", 0)]


def _by_hand(rounds: list[tuple[str, str, int]]) -> dict[str, Rating]:
    """The ratings the rounds come to, worked out one round at a time."""
    now: dict[str, Rating] = {}
    for name1, name2, winner in rounds:
        one, two = now.get(name1, Rating()), now.get(name2, Rating())
        now[name1] = rate(one, [Game(two, 1 if winner == 0 else 0)])
        now[name2] = rate(two, [Game(one, 1 if winner == 1 else 0)])
    return now


@pytest.mark.parametrize("steps", [1, 2], ids=["before kinds", "before ratings"])
def test_an_earlier_record_is_rated_when_read_and_when_first_written(
    data: Path, steps: int
) -> None:
    path = record_path()
    _earlier_record(path, steps, EARLIER_ROUNDS)
    expected = _by_hand(EARLIER_ROUNDS)
    before = path.read_bytes()
    read = Record.load().ratings
    assert {name: r.rating for name, r in read.items()} == expected
    assert path.read_bytes() == before  # reading wrote nothing
    counted = count_round(("Cy", "Ann"), "standard", won_by(0), False)
    assert counted is not None
    assert counted.before == (expected["Cy"], expected["Ann"])
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM rounds WHERE rated = 0").fetchone() == (0,)
    db.close()
    assert Record.load().ratings["Cy"].rating == counted.after[0]


def test_a_round_an_earlier_version_counts_later_is_rated_in_its_place(data: Path) -> None:
    count_round(("Ann", "Bo"), "standard", won_by(0), False)
    db = sqlite3.connect(record_path())  # an earlier version knows no ratings: rated = 0
    db.execute(
        "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds) "
        "VALUES ('2024-01-02T00:00:00+00:00', 'standard', 'Ann', 'Bo', 1, 10.0)"
    )
    db.commit()
    db.close()
    expected = _by_hand([("Ann", "Bo", 0), ("Ann", "Bo", 1)])
    assert Record.load().ratings["Bo"].rating == expected["Bo"]
    counted = count_round(("Bo", "Ann"), "standard", won_by(0), False)
    assert counted is not None and counted.before == (expected["Bo"], expected["Ann"])


def test_a_damaged_rating_is_one_line_and_left_alone(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count_round(("Ann", "Bo"), "standard", won_by(0), False)
    db = sqlite3.connect(record_path())
    db.execute("UPDATE rounds SET rating1 = 'lots'")
    db.commit()
    db.close()
    before = record_path().read_bytes()
    assert main(["stats"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "damaged" in err
    assert record_path().read_bytes() == before


# --------------------------------------------------------------------------- two at once


def ratings_chain_holds(path: Path) -> int:
    """Every round's stored ratings are the ones its names had before it, rated by it:
    worked out again from the first round on, in the order the rounds were counted.
    Returns the rounds checked."""
    db = sqlite3.connect(path)
    rows = db.execute(
        "SELECT name1, name2, kind1, kind2, winner, rating1, deviation1, volatility1, "
        "rating2, deviation2, volatility2 FROM rounds ORDER BY id"
    ).fetchall()
    db.close()
    again = fold(((r[0], r[1]), (r[2], r[3]), r[4], 0, (None, None), None) for r in rows)
    stored = fold(
        (
            (r[0], r[1]),
            (r[2], r[3]),
            r[4],
            0,
            (None, None),
            (
                None if r[5] is None else Rating(r[5], r[6], r[7]),
                None if r[8] is None else Rating(r[8], r[9], r[10]),
            ),
        )
        for r in rows
    )
    assert again == stored
    return len(rows)


# --------------------------------------------------------------------------- stats


def test_stats_shows_each_rating_with_its_deviation_change_and_the_levels(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count_round(("Ann", "Bo"), "standard", won_by(0), True)
    count_round(("Ann", "Computer"), "jass", won_by(0), True, kinds=("human", "bot:hard"))
    ann = Record.load().ratings["Ann"].rating
    assert main(["stats"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    ratings, levels = out.split("\n\n")[-2:]  # after the people and the computers
    head, *rows = ratings.splitlines()
    assert head.split()[:4] == ["player", "rating", "±", "RD"]
    assert "change, last 5 matches" in head  # what the +150 beneath it is
    table = {row.split()[0]: row.split()[1:] for row in rows}
    assert table["Ann"][:4] == [
        f"{ann.rating:.0f}",
        "±",
        f"{ann.deviation:.0f}",
        "+" + f"{ann.rating - 1500:.0f}",
    ]
    assert table["Ann"][4] == "2"  # rated rounds
    assert table["Bo"][1] == "±" and float(table["Bo"][0]) < 1500
    assert "Computer" not in table
    assert [line.split()[:2] for line in levels.splitlines()[1:]] == [
        [level, f"{anchor.rating:.0f}"] for level, anchor in LEVEL_RATINGS.items()
    ]
    # The columns line up on screen: "rating" starts where each rating starts.
    column = head.index("rating")
    assert all(row[column].isdigit() for row in rows)


def test_stats_json_has_the_ratings_and_the_levels(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count_round(("Ann", "Bo"), "standard", won_by(1), False)
    assert main(["stats", "--json"]) == 0
    data_out = json.loads(capsys.readouterr().out)
    ann = next(row for row in data_out["ratings"] if row["name"] == "Ann")
    assert ann["rating"] < 1500 and ann["deviation"] < 350 and ann["rounds"] == 1
    assert ann["plays_like"] == "normal" and ann["streak"] == 0
    assert [row["level"] for row in data_out["levels"]] == list(LEVEL_RATINGS)


def test_a_player_of_only_carried_standings_has_no_rating_yet() -> None:
    assert PlayerRating().rating == Rating()
    assert PlayerRating().change() is None
    point = Point(Rating(1600, 80), 0.5, True, True)
    assert PlayerRating([point]).change() == pytest.approx(100)


def test_stats_reads_each_persons_last_rounds_only_and_shows_what_the_whole_history_shows(
    data: Path,
) -> None:
    from bench.stats_scale import make_record

    make_record(record_path(), 400)
    whole, recent = Record.load().ratings, Record.load(histories=False).ratings
    assert whole.keys() == recent.keys() and len(whole) == 4
    for name, everything in whole.items():
        last = recent[name]
        assert len(last.history) < len(everything.history) / 4  # read back: a few rounds
        assert last.history == everything.history[-len(last.history) :]
        assert (last.rating, last.change(), last.rated_rounds) == (
            everything.rating,
            everything.change(),
            len(everything.history),
        )


def test_a_damaged_round_anywhere_in_a_long_record_is_still_found(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench.stats_scale import make_record

    make_record(record_path(), 300)
    db = sqlite3.connect(record_path())
    db.execute("UPDATE rounds SET deviation2 = -1 WHERE id = 5 AND rating2 IS NOT NULL")
    db.execute("UPDATE rounds SET deviation1 = -1 WHERE id = 5 AND rating1 IS NOT NULL")
    db.commit()
    db.close()
    assert main(["stats"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "damaged" in err


def test_the_standings_are_summed_as_rounds_are_counted_and_add_up_to_every_round(
    data: Path,
) -> None:
    from bench.stats_scale import make_record
    from stress_tui.storage.standings import STANDINGS

    make_record(record_path(), 300)
    every = sqlite3.connect(record_path())
    summed = every.execute(STANDINGS.format(kind1="kind1", kind2="kind2")).fetchall()
    (upto,), (last,) = every.execute(
        "SELECT upto FROM tallied UNION ALL SELECT max(id) FROM rounds"
    )
    assert upto == last == 300  # every round in the sums: stats reads no round again
    # Rounds an earlier version adds after (it keeps no sums) are read from the rounds.
    every.execute(
        "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds, kind1, kind2)"
        " VALUES ('2026-01-01T00:00:00+00:00', 'standard', 'Ann', 'Zed', 0, 9.0, 'human', 'human')"
    )
    every.commit()
    summed = every.execute(STANDINGS.format(kind1="kind1", kind2="kind2")).fetchall()
    every.close()
    record = Record.load(histories=False)
    shown = {(name, rules): s for name, rules, s in record.rows()}
    for name, kind, rules, *values in summed:
        if kind != "human":
            continue
        standing = shown[(name, rules)]
        assert (
            standing.matches_won,
            standing.matches_lost,
            standing.rounds_won,
            standing.rounds_lost,
        ) == tuple(values[:4]), name
        assert standing.best_reaction == values[4] and standing.best_round == values[5]
    assert shown[("Zed", "standard")].rounds_lost == 1
