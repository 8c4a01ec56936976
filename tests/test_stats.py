"""Round statistics from hand-made sequences of timed actions, checked against values
computed by hand, and the record across matches."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from stress_tui.core.actions import Action, CallStress, Flip, Play
from stress_tui.core.engine import Game, Phase
from stress_tui.core.notation import parse_position
from stress_tui.core.rules import Rules
from stress_tui.core.stats import PlayerStats, RoundStats, round_stats
from stress_tui.core.table import Table
from stress_tui.players.bot import FLOOR, make_bot
from stress_tui.storage.files import StorageError
from stress_tui.storage.record import Record, count_round


def won_by(player: int, seconds: float = 10.0) -> RoundStats:
    """A finished round's statistics, won by ``player``."""
    return RoundStats((PlayerStats(), PlayerStats()), player, seconds)


RACE = """
rules: standard lockout=0.5
p1 row: 5H | 6C | 9D | KD
p1 draw: 2C 3D
piles: 4H | JS
p2 row: QS | 2H | 7C | 8D
p2 draw: AC 3S
"""

# Each play's reaction, worked out by hand from when its card could first be played (see
# comments).
RACE_ACTIONS = [
    Play(0, 0, 0, 1.0),  # 5H on 4H, possible since 0: 1.0
    Play(0, 1, 0, 1.5),  # 6C on 5H, possible since 1.0: 0.5
    Play(0, 2, 0, 2.0),  # 9D on 6C: a misplay, locked out until 2.5
    Play(1, 2, 0, 2.2),  # 7C on 6C, possible since 1.5: 0.7
    Play(1, 0, 1, 2.6),  # QS on JS, possible since 0: 2.6
    Play(1, 3, 0, 3.0),  # 8D on 7C, possible since 2.2: 0.8
    Play(0, 3, 1, 3.1),  # KD on QS, possible since 2.6: 0.5
    Play(1, 0, 1, 3.3),  # AC on KD, possible since 3.1: 0.2
    Play(0, 1, 1, 3.5),  # 2C on AC, possible since 3.3: 0.2
    Play(1, 1, 1, 3.6),  # 2H on 2C: too late, p1 covered the ace 0.1 s ago (no misplay)
    Play(1, 2, 1, 3.7),  # 3S on 2C, possible since 3.5: 0.2
    Play(0, 2, 0, 3.8),  # 9D on 8D, possible since 3.0: 0.8
    Play(1, 1, 1, 4.0),  # 2H on 3S: first playable at 3.3, on the ace: 0.7; p2's last card
]


def test_play_statistics_match_the_hand_computed_values() -> None:
    game = Game(parse_position(RACE), random.Random(0))
    result = round_stats(game, RACE_ACTIONS)
    p1, p2 = result.players
    assert result.winner == 1
    assert result.seconds == 4.0
    assert p1.cards_played == 5
    assert p2.cards_played == 6
    assert p1.reactions == pytest.approx([1.0, 0.5, 0.5, 0.2, 0.8])
    assert p2.reactions == pytest.approx([0.7, 2.6, 0.8, 0.2, 0.2, 0.7])
    assert p1.median_reaction == pytest.approx(0.5)
    assert p2.median_reaction == pytest.approx(0.7)
    assert p1.best_reaction == pytest.approx(0.2)
    assert (p1.longest_chain, p2.longest_chain) == (2, 2)
    assert (p1.misplays, p1.lockouts) == (1, 1)
    assert (p2.misplays, p2.lockouts) == (0, 0)


def bots_round(seed: int) -> tuple[Game, list[Action]]:
    """A round between a normal and an easy computer: as dealt, and every action applied."""
    game = Game.deal(Rules(), random.Random(seed))
    dealt = game.copy()
    played: list[Action] = []
    bots = (make_bot(0, "normal", random.Random(seed)), make_bot(1, "easy", random.Random(seed)))
    table = Table(game, bots, on_action=lambda action, _events: played.append(action))
    table.start(0.0)
    while game.state.phase is not Phase.ROUND_OVER:
        due = table.next_deadline()
        assert due is not None
        table.advance(due)
    return dealt, played


def test_the_computer_s_reactions_are_measured_as_a_person_s_never_below_its_floor() -> None:
    """A computer's play is stamped with when its reaction ends, decided on the table as it
    was: a card covered and playable again meanwhile counts from its first moment, so no
    reaction is quicker than the computer's floor (a person's motor floor)."""
    for seed in range(12):
        for player in round_stats(*bots_round(seed)).players:
            assert min(player.reactions) >= FLOOR, (seed, sorted(player.reactions)[:3])


STRESS = """
rules: standard
p1 row: 5C | 9D | JH | KD
p1 draw: 2C 7H
piles: 4H | 5S
p2 row: 9S | JC | KH | 3D
p2 draw: 8C
"""


def test_stress_statistics_count_wins_losses_reactions_and_false_calls() -> None:
    game = Game(parse_position(STRESS), random.Random(0))
    actions: list[Action] = [
        Play(0, 0, 0, 1.0),  # 5C on 4H: both piles show a five, stress opens at 1.0
        CallStress(1, 1.4),  # p2 first: 0.4
        CallStress(0, 1.6),  # p1 too late: 0.6, takes the piles
        Flip(3.0),  # 2C | 8C: no stress
        CallStress(0, 3.5),  # a false call
    ]
    p1, p2 = round_stats(game, actions).players
    assert (p2.stresses_won, p2.stresses_lost) == (1, 0)
    assert (p1.stresses_won, p1.stresses_lost) == (0, 1)
    assert p2.stress_reactions == pytest.approx([0.4])
    assert p1.stress_reactions == pytest.approx([0.6])
    assert (p1.false_calls, p2.false_calls) == (1, 0)


def test_the_record_keeps_wins_losses_and_bests_per_name_and_rules(tmp_path: Path) -> None:
    game = Game(parse_position(RACE), random.Random(0))
    result = round_stats(game, RACE_ACTIONS)
    path = tmp_path / "record.sqlite"
    count_round(("Ann", "Bo"), "standard", result, True, path)
    again = Record.load(path)
    ann, bo = again.standing("Ann", "standard"), again.standing("Bo", "standard")
    assert (ann.rounds_won, ann.rounds_lost, ann.matches_lost) == (0, 1, 1)
    assert (bo.rounds_won, bo.matches_won, bo.best_round) == (1, 1, 4.0)
    assert bo.best_reaction == pytest.approx(0.2)
    assert [name for name, _, _ in again.rows()] == ["Ann", "Bo"]


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        json.dumps({"format": "something else"}),
        json.dumps({"format": "stress-tui record", "players": {"Ann": {"standard": {"x": 1}}}}),
    ],
)
def test_a_broken_or_foreign_record_of_an_earlier_version_is_reported_and_left_alone(
    tmp_path: Path, content: str
) -> None:
    path = tmp_path / "record.json"
    path.write_text(content)
    for attempt in (
        lambda: Record.load(tmp_path / "record.sqlite"),
        lambda: count_round(("A", "B"), "standard", won_by(0), False, tmp_path / "record.sqlite"),
    ):
        with pytest.raises(StorageError) as caught:
            attempt()
        assert "\n" not in str(caught.value)
        assert str(path) in str(caught.value)
    assert path.read_text() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["record.json"]


def test_the_record_prints_as_a_table_and_as_json(tmp_path: Path) -> None:
    from stress_tui.cli.commands.stats import record_json, record_table

    assert record_table(Record()) == "No rounds recorded yet."
    game = Game(parse_position(RACE), random.Random(0))
    path = tmp_path / "record.sqlite"
    count_round(("Ann", "Bo"), "jass", round_stats(game, RACE_ACTIONS), False, path)
    record = Record.load(path)
    lines = record_table(record).splitlines()
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
    assert lines[2].split() == ["Bo", "jass", "0-0", "1-0", "0.20s", "4.00s"]
    data = record_json(record)
    assert data["players"][1] == {
        "name": "Bo",
        "rules": "jass",
        "matches_won": 0,
        "matches_lost": 0,
        "rounds_won": 1,
        "rounds_lost": 0,
        "best_reaction": pytest.approx(0.2),
        "best_round": 4.0,
    }
