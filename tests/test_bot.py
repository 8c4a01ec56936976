"""The computer opponent: it sees what a player sees, reacts at its level's pace, and a
decision that went stale on the way is rejected like a late human's."""

from __future__ import annotations

import functools
import itertools
import random
import statistics

import pytest

from stress_tui.core.actions import (
    Action,
    CallStress,
    Flip,
    Play,
    PlayTogether,
    ReadyToFlip,
    StopStress,
)
from stress_tui.core.cards import Card
from stress_tui.core.decks import JOKER
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import LockedOut, Rejected, RejectReason
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.core.view import PlayerView, player_view
from stress_tui.players.bot import (
    _QUANTILES,
    CALL_CAP,
    EMPTY,
    FLOOR,
    LEVELS,
    PLAY_CAP,
    Bot,
    _spread,
    best_play,
    make_bot,
)
from tests.conftest import game

pytestmark = pytest.mark.one_python
"""The bot and the engine it asks are pure logic (``stress_tui/core``, ``players/bot.py``:
no file, terminal, clock, socket or locale; of the standard library ``random``, ``math``,
``statistics``, ``functools``, ``itertools``, ``dataclasses`` and ``enum``). What could
differ between Pythons there (the engine's events and text) is tried on every Python by
test_rules, test_notation and test_event_hash, whose rounds are played by bots."""

ORDER = ("easy", "normal", "hard", "expert")

# Player 2 (the bot, player 1 in the engine) can play only the 5 on the left 4.
ONE_PLAY = """
    rules: standard
    phase: playing
    p1 row: 3S | 9C | TD | KD
    p1 draw: 2C
    piles: 4H | 7D
    p2 row: 5C | QH | QS | 2H
    p2 draw: 3C AS
"""


@functools.cache
def seen(position: str) -> Game:
    """A position to show bots (planning only looks: one game serves many bots)."""
    return game(position)


def shown(position: str, now: float) -> PlayerView:
    """What player 2 (1 in the engine: the bots of these tests) sees of ``position`` at
    ``now``."""
    return player_view(seen(position).state, 1, now)


def bot(level: str, seed: int = 0, player: int = 1) -> Bot:
    made = make_bot(player, level, random.Random(seed))
    assert isinstance(made, Bot)
    return made


def looked(b: Bot, position: str) -> Bot:
    """The bot, having already seen play going on (so its next look is no flip)."""
    b.decide(shown(position, 0.0))
    return b


# --------------------------------------------------------------------------- make_bot


def test_make_bot_gives_a_driver_for_each_level_and_refuses_others() -> None:
    for level in ORDER:
        made = make_bot(0, level, random.Random(1))
        assert made.player == 0
        assert isinstance(made, Bot) and made.level is LEVELS[level]
    for wrong in ("", "godlike", "Normal", "bot:normal"):
        with pytest.raises(ValueError, match="no bot level"):
            make_bot(0, wrong, random.Random(1))
    with pytest.raises(ValueError, match="no player"):
        make_bot(2, "easy", random.Random(1))


def test_the_levels_get_faster_and_surer_from_easy_to_expert() -> None:
    levels = [LEVELS[name] for name in ORDER]
    assert list(LEVELS) == list(ORDER)
    for slower, faster in itertools.pairwise(levels):
        assert faster.look < slower.look
        assert faster.chain < slower.chain
        assert faster.call < slower.call
        assert faster.anticipated_call < slower.anticipated_call
        assert faster.miss <= slower.miss
    for level in levels:
        assert level.chain < level.look and level.anticipated_call < level.call
        assert level.surprise > 1
        assert level.call < CALL_CAP


# --------------------------------------------------------------------------- what it sees


@pytest.mark.parametrize("level", ORDER)
def test_positions_alike_but_for_the_order_of_the_draw_piles_get_the_same_plans(
    level: str,
) -> None:
    rules = Rules.for_deck("standard", jokers=2)
    for seed in range(150):
        g = Game.deal(rules, random.Random(seed))
        g.apply(Flip(0.0))
        other = Game(g.state.copy(), random.Random(seed))
        for player in other.state.players:
            random.Random(seed).shuffle(player.draw_pile)
        assert [p.draw_pile for p in other.state.players] != [p.draw_pile for p in g.state.players]
        for side in (0, 1):
            a, b = bot(level, seed, side), bot(level, seed, side)
            assert player_view(g.state, side, 0.5) == player_view(other.state, side, 0.5)
            plans = [a.decide(player_view(g.state, side, t)) for t in (0.5, 0.75)]
            assert plans == [b.decide(player_view(other.state, side, t)) for t in (0.5, 0.75)]
            assert a.rng.getstate() == b.rng.getstate()


VARIANTS = [
    Rules.for_deck("standard"),
    Rules.for_deck("standard", jokers=2, stacking=False, wrap=False),
    Rules.for_deck("standard", row_size=6, stress_stop=True),
    Rules.for_deck("jass"),
    Rules.for_deck("skat", jokers=1),
    Rules.for_deck("doppelkopf", row_size=3, stacking=False),
]


def test_decide_takes_only_its_own_player_s_view() -> None:
    view = player_view(seen(ONE_PLAY).state, 0, 1.0)
    with pytest.raises(ValueError, match="a view of player 0"):
        bot("normal", player=1).decide(view)


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: f"{rules.deck}-{rules.row_size}")
def test_a_bot_that_never_overlooks_plays_whenever_it_can_and_only_legally(
    rules: Rules,
) -> None:
    """Expert misses nothing: on any position where it may play, it plays, a legal play;
    and with no legal play it plays nothing (all row sizes, jokers, empty places)."""
    for seed in range(60):
        g = Game.deal(rules, random.Random(seed))
        g.apply(Flip(0.0))
        for step in range(40):
            if g.phase is not Phase.PLAYING:
                break
            for side in (0, 1):
                action = bot("expert", seed + step, side).decide(player_view(g.state, side))
                legal = g.legal_plays(side)
                if legal:
                    assert isinstance(action, Play), (seed, step, side, legal, action)
                    assert (action.pile, action.target) in legal
                else:
                    assert not isinstance(action, Play)
            # Move on: the first legal play of either side, or a flip.
            moves = [(side, play) for side in (0, 1) for play in g.legal_plays(side)]
            if moves:
                side, (pile, target) = moves[seed % len(moves)]
                g.apply(Play(side, pile, target, g.state.time + 0.5))
            else:
                break


def _ranks(cards: tuple[Card | None, ...]) -> list[int]:
    """The ranks of the cards a view shows, ``EMPTY`` for none."""
    return [EMPTY if card is None else card.rank for card in cards]


def _plain_best(b: Bot, view: PlayerView, plays: list[tuple[int, int]]) -> tuple[int, int]:
    """The choice between plays as docs/bot.md tells it, written plainly from a view:
    what ``best_play`` must choose."""
    level, fits = b.level, view.table.rules.fits
    row, tops = _ranks(view.me.row), _ranks(view.table.tops)
    makes_stress = level.makes_stress and not view.them.stop and (b.expects_to_win_its_stresses)
    opponent = [rank for rank in _ranks(view.them.row) if rank != EMPTY] if level.blocks else []
    best, best_score = plays[0], -1_000_000
    for pile, target in plays:
        rank, other = row[pile], tops[1 - target]
        on_other = fits[other] if other != EMPTY else frozenset()
        leaving = view.me.row_sizes[pile]
        if view.table.rules.together and rank != JOKER:
            # Laid together: every card of its rank leaves the row in this move.
            leaving = sum(
                size for seen, size in zip(row, view.me.row_sizes, strict=True) if seen == rank
            )
        score = 2 * leaving if level.stacks else 0
        if level.chains:
            left = [*row[:pile], *row[pile + 1 :]]
            top = rank
            while True:
                follow = next((card for card in left if card in fits[top]), None)
                if follow is None:
                    break
                score += 3
                left.remove(follow)
                top = follow
            score += sum(card in on_other for card in left)
        if makes_stress and rank in (other, JOKER):
            score += 6
        for theirs in opponent:
            if theirs in fits[rank]:
                score -= 4 if theirs in (other, JOKER) else 1
            if theirs in on_other:
                score -= 4 if theirs in (rank, JOKER) else 1
        if score > best_score:
            best, best_score = (pile, target), score
    return best


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: f"{rules.deck}-{rules.row_size}")
def test_the_choice_between_plays_is_the_one_docs_bot_md_describes(rules: Rules) -> None:
    """``best_play`` chooses as the plain description does, for every level with sense,
    whether it expects to win its stresses or not."""
    compared = 0
    for seed in range(150):
        g = Game.deal(rules, random.Random(seed))
        g.apply(Flip(0.0))
        for step in range(30):
            if g.phase is not Phase.PLAYING:
                break
            for side in (0, 1):
                legal = g.legal_plays(side)
                if len(legal) < 2:
                    continue
                view = player_view(g.state, side, 0.0)
                for level in ORDER[1:]:
                    b = bot(level, seed, side)
                    b._made_lost = float(step % 3)  # now and then, it lost its stresses
                    together = b.level.stacks and rules.together
                    chosen = best_play(view, legal, b.level, together, b._won_enough)
                    assert chosen == _plain_best(b, view, legal)
                    compared += 1
            moves = [(side, play) for side in (0, 1) for play in g.legal_plays(side)]
            if not moves:
                break
            side, (pile, target) = moves[(seed + step) % len(moves)]
            g.apply(Play(side, pile, target, g.state.time + 0.5))
    assert compared > 200


def test_delays_draw_the_quantile_random_would_and_as_much_of_the_generator() -> None:
    """A delay takes ``int(random() * _QUANTILES)``'s quantile without the float: the same
    index, and the generator moved on just as far (so rounds are as they were)."""
    for level in ORDER:
        spread = _spread(LEVELS[level].sigma)
        for seed in range(100):
            b = bot(level, seed)
            twin = random.Random(seed)
            for _ in range(30):
                median = twin.choice((0.3, 0.8, 2.0))
                b.rng.choice((0.3, 0.8, 2.0))
                expected = median * spread[int(twin.random() * _QUANTILES)]
                assert b.delay(median, cap=1.5) == max(FLOOR, min(1.5, expected))
            assert b.rng.getstate() == twin.getstate()


# --------------------------------------------------------------------------- how fast


def _delays(level: str, position: str, first_seen: str | None, n: int = 600) -> list[float]:
    """How long ``n`` fresh bots take to act on ``position`` (after seeing ``first_seen``)."""
    out = []
    for seed in range(n):
        b = bot(level, seed)
        if first_seen is not None:
            looked(b, first_seen)
        action = b.decide(shown(position, 10.0))
        assert action is not None
        out.append(action.time - 10.0)
    return out


LOOK_AFTER = ONE_PLAY.replace("piles: 4H | 7D", "piles: 6H | 7D")  # the opponent played


@pytest.mark.parametrize("level", ORDER)
def test_reaction_times_follow_the_level_s_distribution(level: str) -> None:
    """A look after the opponent played, and the first look after a flip, take the
    level's median (and its surprise factor), within the documented bounds."""
    spec = LEVELS[level]
    looks = _delays(level, LOOK_AFTER, ONE_PLAY)
    assert all(FLOOR <= d <= PLAY_CAP for d in looks)
    assert statistics.median(looks) == pytest.approx(spec.look, rel=0.06)
    flips = _delays(level, ONE_PLAY, None)
    assert statistics.median(flips) == pytest.approx(spec.look * spec.surprise, rel=0.06)
    # The middle 90% of a lognormal: median * exp(+-1.645 sigma).
    low, high = statistics.quantiles(looks, n=20)[0], statistics.quantiles(looks, n=20)[-1]
    spread = 2.718281828 ** (1.645 * spec.sigma)
    assert low == pytest.approx(spec.look / spread, rel=0.12)
    assert high == pytest.approx(min(spec.look * spread, PLAY_CAP), rel=0.12)


def test_median_delays_are_ordered_easy_slowest_expert_fastest() -> None:
    medians = [statistics.median(_delays(level, LOOK_AFTER, ONE_PLAY, 300)) for level in ORDER]
    assert medians == sorted(medians, reverse=True)
    assert len(set(medians)) == len(medians)


CHAIN_FIRST = """
    rules: standard
    phase: playing
    p1 row: 3S | 9C | TD | KD
    piles: 4H | 9D
    p2 row: 5C | 6H | QS | 2H
    p2 draw: 3C AS
"""
CHAIN_NEXT = """
    rules: standard
    phase: playing
    p1 row: 3S | 9C | TD | KD
    piles: 4H 5C | 9D
    p2 row: AS | 6H | QS | 2H
    p2 draw: 3C
"""


def test_the_next_card_of_a_chain_it_has_seen_comes_quicker() -> None:
    """The 5 on the 4, then the 6 it had seen beside it on the 5: at chain speed."""
    for level in ORDER:
        times = []
        for seed in range(300):
            b = bot(level, seed)
            first = b.decide(shown(CHAIN_FIRST, 0.0))
            if not isinstance(first, Play):
                continue  # overlooked it
            assert (first.pile, first.target) == (0, 0)
            second = b.decide(shown(CHAIN_NEXT, 5.0))
            if isinstance(second, Play):
                assert (second.pile, second.target) == (1, 0)
                times.append(second.time - 5.0)
        assert len(times) > 150
        assert statistics.median(times) == pytest.approx(LEVELS[level].chain, rel=0.1)


STRESS = """
    rules: standard
    phase: stress
    p1 row: 3S | 9C | TD | KD
    piles: 4H 7C | 7D
    p2 row: 5C | QH | QS | 2H
    p2 draw: 3C
"""


def test_a_stress_it_made_itself_is_called_quicker_than_one_it_did_not_see_coming() -> None:
    making = """
        rules: standard
        phase: playing
        p1 row: 3S | 9C | TD | KD
        piles: 4H 8S | 7D
        p2 row: 7C | QH | QS | 2H
        p2 draw: 3C
    """
    for level in ORDER:
        surprised, anticipated = [], []
        for seed in range(300):
            call = bot(level, seed).decide(shown(STRESS, 3.0))
            assert isinstance(call, CallStress)
            surprised.append(call.time - 3.0)
            b = bot(level, seed)
            play = b.decide(shown(making, 0.0))
            if not isinstance(play, Play):
                continue  # overlooked it
            assert (play.pile, play.target) == (0, 0)
            call = b.decide(shown(STRESS, 3.0))
            assert isinstance(call, CallStress)
            anticipated.append(call.time - 3.0)
        spec = LEVELS[level]
        assert statistics.median(surprised) == pytest.approx(spec.call, rel=0.1)
        assert statistics.median(anticipated) == pytest.approx(spec.anticipated_call, rel=0.1)
        assert max(surprised + anticipated) <= CALL_CAP


# --------------------------------------------------------------------------- stale decisions


def _bot_table(position: str) -> tuple[Table, Play]:
    g = game(position)
    table = Table(g, (bot("normal", 7),))
    table.start(0.0)
    planned = table.pending[1]
    assert isinstance(planned, Play) and (planned.pile, planned.target) == (0, 0)
    return table, planned


def test_a_move_decided_on_a_pile_the_opponent_covered_meanwhile_loses_the_race() -> None:
    """The bot sees the 4 and goes for it with its 5; the human puts the 3 on the 4 just
    before the bot's card lands: rejected as a lost race, exactly as a late human's."""
    table, planned = _bot_table(ONE_PLAY)
    table.submit(Play(0, 0, 0, planned.time - 0.1))
    events = table.advance(planned.time)
    assert events == [Rejected(1, planned, RejectReason.LOST_RACE)]
    top = table.game.top(0)
    assert top is not None and top.rank == 3


def test_a_move_decided_long_before_the_pile_changed_is_a_misplay() -> None:
    """Covered well before it lands (beyond the race window): not adjacent, and locked out."""
    table, planned = _bot_table(ONE_PLAY)
    table.submit(Play(0, 0, 0, planned.time - 0.5))
    events = table.advance(planned.time)
    assert events[:2] == [
        Rejected(1, planned, RejectReason.NOT_ADJACENT),
        LockedOut(1, planned.time + table.game.rules.lockout),
    ]


def test_a_move_under_way_when_stress_opens_is_refused_and_the_bot_then_calls() -> None:
    position = ONE_PLAY.replace("p1 row: 3S", "p1 row: 7S").replace("piles: 4H", "piles: 6H")
    table, planned = _bot_table(position)
    table.submit(Play(0, 0, 0, planned.time - 0.2))  # 7 on the 6: two sevens, stress
    assert table.game.phase is Phase.STRESS
    events = table.advance(planned.time)
    assert events == [Rejected(1, planned, RejectReason.STRESS_OPEN)]
    assert isinstance(table.pending[1], CallStress)


# --------------------------------------------------------------------------- what it does


def test_it_never_plans_a_play_before_its_lockout_ends() -> None:
    locked = ONE_PLAY + "p2 state: locked-until=30\n"
    for level in ORDER:
        for seed in range(50):
            action = bot(level, seed).decide(shown(locked, 29.0))
            if isinstance(action, Play):
                assert action.time >= 30.0


def test_nothing_to_do_while_the_count_runs_or_after_the_round() -> None:
    for phase in ("waiting", "over\nwinner: p1"):
        position = ONE_PLAY.replace("phase: playing", f"phase: {phase}")
        for level in ORDER:
            assert bot(level).decide(shown(position, 1.0)) is None


NO_PLAY = """
    rules: standard
    phase: playing
    p1 row: 3S | 9C | TD | KD
    piles: 4H | 7D
    p2 row: QC | QH | QS | 2H
    p2 draw: 3C
"""


def test_with_nothing_to_play_it_waits_for_an_opponent_who_can_play() -> None:
    for level in ORDER:
        b = looked(bot(level), NO_PLAY)
        assert b.decide(shown(NO_PLAY, 1.0)) is None


def test_with_nothing_to_play_it_says_ready_once_the_opponent_has() -> None:
    ready = NO_PLAY + "p1 state: ready\n"
    for level in ORDER:
        action = bot(level).decide(shown(ready, 1.0))
        assert isinstance(action, ReadyToFlip) and action.player == 1 and action.time > 1.0
        said = ready.replace("p2 draw: 3C", "p2 draw: 3C\np2 state: ready")
        assert bot(level).decide(shown(said, 2.0)) is None


def test_two_bots_with_nothing_they_see_to_play_get_the_cards_flipped() -> None:
    """Easy overlooks plays; whoever cannot play then says ready too: never a standstill."""
    rules = Rules.for_deck("standard")
    for seed in range(40):
        g = Game.deal(rules, random.Random(seed))
        table = Table(g, (bot("easy", seed, 0), bot("easy", seed + 100, 1)))
        table.start(0.0)
        while g.phase is not Phase.ROUND_OVER and table.actions < 5000:
            deadline = table.next_deadline()
            assert deadline is not None, "nobody had anything to do"
            table.advance(deadline)
        assert g.phase is Phase.ROUND_OVER


def test_easy_overlooks_plays_now_and_then_and_expert_never() -> None:
    def missed(level: str) -> float:
        actions = [
            looked(bot(level, seed), ONE_PLAY).decide(shown(LOOK_AFTER, 1.0))
            for seed in range(1000)
        ]
        return sum(not isinstance(a, Play) for a in actions) / len(actions)

    assert missed("easy") == pytest.approx(
        LEVELS["easy"].miss + LEVELS["easy"].false_call, abs=0.04
    )
    assert missed("expert") == 0


def test_only_easy_calls_a_false_stress_and_only_now_and_then() -> None:
    def false_calls(level: str) -> int:
        calls = 0
        for seed in range(2000):
            action = looked(bot(level, seed), ONE_PLAY).decide(shown(LOOK_AFTER, 1.0))
            calls += isinstance(action, CallStress)
        return calls

    assert 0 < false_calls("easy") < 2000 * 3 * LEVELS["easy"].false_call
    for level in ORDER[1:]:
        assert false_calls(level) == 0


def _choice(level: str, position: str) -> tuple[int, int]:
    action = looked(bot(level), ONE_PLAY).decide(shown(position, 1.0))
    assert isinstance(action, Play)
    return action.pile, action.target


def test_hard_makes_stress_when_it_can() -> None:
    """Its 7 on the 8 makes two sevens (stress, and it calls first); its 9 would not."""
    position = MAKES_STRESS
    assert _choice("normal", position) == (1, 0)
    assert _choice("hard", position) == (2, 0)
    assert _choice("expert", position) == (2, 0)


MAKES_STRESS = """
    rules: standard
    phase: playing
    p1 row: 3S | 2C | 2D | 2S
    piles: 8H | 7D
    p2 row: QC | 9S | 7C | 2H
    p2 draw: 3C
"""
MADE_STRESS = """
    rules: standard
    phase: stress
    p1 row: 3S | 2C | 2D | 2S
    piles: 8H 7C | 7D
    p2 row: QC | 9S | 4C | 2H
    p2 draw: 3C
"""
LOST_IT = """
    rules: standard
    phase: waiting
    p1 row: 3S | 2C | 2D | 2S
    piles: - | -
    p2 row: QC | 9S | 4C | 2H
    p2 draw: 3C 8H 7C 7D
"""


def test_a_bot_that_loses_the_stresses_it_makes_stops_making_them() -> None:
    """Hard makes stress expecting to call first; beaten to the call twice (it had to take
    the piles), it would rather play something else."""
    b = looked(bot("hard"), ONE_PLAY)
    for round_ in range(3):
        play = b.decide(shown(MAKES_STRESS, 10.0 * round_))
        assert isinstance(play, Play)
        if round_ == 2:
            assert (play.pile, play.target) == (1, 0)  # the 9: no stress
            break
        assert (play.pile, play.target) == (2, 0)  # the 7 beside the 7: stress
        assert b.expects_to_win_its_stresses
        call = b.decide(shown(MADE_STRESS, 10.0 * round_ + 1))
        assert isinstance(call, CallStress)
        assert call.time - (10.0 * round_ + 1) <= LEVELS["hard"].anticipated_call * 1.6
        assert b.decide(shown(LOST_IT, 10.0 * round_ + 2)) is None  # it holds more: lost
    assert not b.expects_to_win_its_stresses


def test_a_stress_it_meant_to_make_but_the_opponent_made_first_is_a_surprise() -> None:
    """Its 7 was on the way, but the stress on the table is not the one it would make."""
    b = looked(bot("expert"), ONE_PLAY)
    assert isinstance(b.decide(shown(MAKES_STRESS, 0.0)), Play)
    other = MADE_STRESS.replace("piles: 8H 7C | 7D", "piles: 8H | 7D 8S")
    calls = []
    for seed in range(200):
        b = looked(bot("expert", seed), ONE_PLAY)
        b.decide(shown(MAKES_STRESS, 0.0))
        call = b.decide(shown(other, 1.0))
        assert isinstance(call, CallStress)
        calls.append(call.time - 1.0)
    assert statistics.median(calls) == pytest.approx(LEVELS["expert"].call, rel=0.1)


def test_hard_blocks_the_play_it_sees_the_opponent_needs() -> None:
    """Its 5 fits both piles. On the 6 it leaves the 4 open for the opponent's 3; on the 4
    it covers the opponent's only play."""
    position = """
        rules: standard
        phase: playing
        p1 row: 3S | 9C | 9D | KD
        piles: 6D | 4H
        p2 row: 5C | QH | QS | AH
        p2 draw: 3C
    """
    assert _choice("normal", position) == (0, 0)
    assert _choice("hard", position) == (0, 1)
    assert _choice("expert", position) == (0, 1)


def test_higher_levels_prefer_the_card_that_starts_a_chain() -> None:
    """On the 4: the 5 (then its 6 and 7 follow), not the 3 that leads nowhere."""
    position = """
        rules: standard
        phase: playing
        p1 row: 9S | 9C | TD | KD
        piles: 4H | QD
        p2 row: 3C | 6H | 5S | 7H
        p2 draw: 3D
    """
    for level in ORDER[1:]:
        assert _choice(level, position) == (2, 0)


def test_the_stress_stop_when_it_has_nothing_to_play_and_the_rules_have_it() -> None:
    """Jass: the opponent's 9 on the 8 would make two nines. With nothing to play itself,
    the bot points at it; without the rule it just waits."""
    position = """
        rules: jass
        phase: playing
        p1 row: 9S | 6C | 6D | 6H
        piles: 8H | 9D
        p2 row: QC | QH | QS | KH
        p2 draw: TC
    """
    g = game(position)
    assert player_view(g.state, 1, 1.0).table.stress_threats(0) == g.stress_threats(0) == [(0, 0)]
    for level in ORDER[1:]:
        action = looked(bot(level), position).decide(shown(position, 1.0))
        assert isinstance(action, StopStress) and action.player == 1
    assert looked(bot("easy"), position).decide(shown(position, 1.0)) is None
    off = position.replace("rules: jass", "rules: jass stress-stop=off")
    assert looked(bot("expert"), off).decide(shown(off, 1.0)) is None
    stopped = position + "p2 state: stop\n"
    assert looked(bot("expert"), stopped).decide(shown(stopped, 1.0)) is None


def test_with_the_rule_it_lays_ready_cards_of_one_rank_together() -> None:
    """Skat (001, Stapel on by default): with two sevens on an eight, a bot with a sense of
    stacks lays both at once; easy, and any bot without the rule, lays one."""
    position = """
        rules: skat
        phase: playing
        p1 row: 9S | QC | KD
        piles: 8H | JD
        p2 row: 7C | 7S | AH
        p2 draw: TC TH
    """
    for level in ORDER[1:]:
        action = looked(bot(level), position).decide(shown(position, 1.0))
        assert isinstance(action, PlayTogether), level
        assert (action.pile, action.target) in ((0, 0), (1, 0))
    for seed in range(20):
        easy = looked(bot("easy", seed), position).decide(shown(position, 1.0))
        assert not isinstance(easy, PlayTogether)
    off = position.replace("rules: skat", "rules: skat together=off")
    assert type(looked(bot("expert"), off).decide(shown(off, 1.0))) is Play


def test_plans_are_stamped_at_or_after_now() -> None:
    rules = Rules.for_deck("skat")
    for seed in range(200):
        g = Game.deal(rules, random.Random(seed))
        g.apply(Flip(0.0))
        for level in ORDER:
            action: Action | None = bot(level, seed).decide(player_view(g.state, 1, 0.0))
            assert action is None or action.time >= 0.0 + FLOOR
