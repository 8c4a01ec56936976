"""Properties over every deck and house rule: any well-formed actions never raise, never
create or lose a card, and every position round-trips through the notation. And many
seeded games played to the end, checking that the engine's answers agree at every step."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import product

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from stress_tui.core.actions import (
    Action,
    CallStress,
    Flip,
    Play,
    PlayTogether,
    ReadyToFlip,
    StopStress,
)
from stress_tui.core.cards import DECKS
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import NoProgress, Played, Rejected, RoundWon, TableDead
from stress_tui.core.notation import format_position, parse_position
from stress_tui.core.rules import Rules
from stress_tui.core.view import table_view

pytestmark = pytest.mark.one_python
"""Invariants of the pure engine (``stress_tui/core``: no file, terminal, clock, socket or
locale), which hold for any actions and any seed, so they lean on no stream of ``random``:
of the standard library they use only ``random``, ``dataclasses``, ``enum`` and ``math``.
What could differ between Pythons there (the notation's text, the engine's events) is
tried on every Python by test_notation, test_rules and test_event_hash."""

rules_strategy = st.builds(
    Rules.for_deck,
    deck=st.sampled_from(list(DECKS)),
    jokers=st.integers(0, 3),
    deal=st.sampled_from(["split", "each"]),
    stacking=st.booleans(),
    together=st.booleans(),
    wrap=st.booleans(),
    stress_penalty=st.sampled_from(["both", "one", "give"]),
    taken=st.sampled_from(["under", "mixed"]),
    false_stress=st.sampled_from(["take", "ignore", "lockout"]),
    stress_stop=st.booleans(),
    lockout=st.sampled_from([0.0, 0.75]),
)

# "auto" does what a quick player would (flip when due, call open stress, play a legal
# card); it is drawn often so that rounds get far: to empty draw piles, recycling, the end.
KINDS = ["auto"] * 12 + ["play", "together", "call", "ready", "stop", "flip"]
GAPS = [0.0, 0.0, 0.01, 0.1, 0.25, 0.31, 0.5, 0.75, 1.0, 2.5]

steps_strategy = st.lists(
    st.tuples(
        st.sampled_from(KINDS),
        st.integers(0, 1),  # player
        st.integers(0, 15),  # row pile, taken modulo the row size
        st.integers(0, 1),  # play pile
        st.sampled_from(GAPS),
    ),
    min_size=20,
    max_size=200,
)


def _action(g: Game, step: tuple[str, int, int, int, float], time: float) -> Action:
    kind, player, pile, target, _ = step
    pile %= g.rules.row_size
    if kind == "auto":
        if g.phase is Phase.WAITING_FLIP:
            return Flip(time)
        if g.phase is Phase.STRESS:
            return CallStress(player, time)
        if not g.legal_plays(player):
            player = 1 - player
        plays = g.legal_plays(player)
        if not plays:  # the round is over
            return CallStress(player, time)
        laying = PlayTogether if g.rules.together and pile % 3 == 0 else Play
        pile, target = plays[(pile + target) % len(plays)]
        return laying(player, pile, target, time)
    if kind == "play":
        return Play(player, pile, target, time)
    if kind == "together":
        return PlayTogether(player, pile, target, time)
    if kind == "call":
        return CallStress(player, time)
    if kind == "ready":
        return ReadyToFlip(player, time)
    if kind == "stop":
        return StopStress(player, time)
    return Flip(time)


def _round_trips(g: Game) -> None:
    text = format_position(g.state)
    read = parse_position(text)
    assert read == g.state
    assert format_position(read) == text


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 2**32 - 1), steps=steps_strategy)
def test_any_well_formed_actions_keep_every_card_and_every_position_writable(
    rules: Rules, seed: int, steps: list[tuple[str, int, int, int, float]]
) -> None:
    g = Game.deal(rules, random.Random(seed))
    dealt = g.state.cards()
    decks = 2 if rules.deal.value == "each" else 1
    assert dealt == Counter(rules.spec.cards(rules.jokers) * decks)
    _round_trips(g)
    time = 0.0
    kinds: set[str] = set()
    for step in steps:
        time += step[4]
        events = g.apply(_action(g, step, time))
        assert events
        assert g.state.cards() == dealt
        g.state.check(complete=True)
        _round_trips(g)
        kinds.update(type(happened).__name__ for happened in events)
    for kind in sorted(kinds):  # shown by --hypothesis-show-statistics
        event(kind)


# --------------------------------------------------------------------------- simulation

COMBOS = list(
    product(
        DECKS,
        (0, 2),
        ("split", "each"),
        (True, False),
        (True, False),
        ("both", "one", "give"),
        ("take", "ignore", "lockout"),
    )
)
BOUND = 5000
"""No finished simulated game has come near 1,100 actions; 5,000 means it never ends."""


def _policy(g: Game, rng: random.Random, time: float) -> Action:
    """A quick but fallible player: mostly legal plays, sometimes a wrong key."""
    if g.phase is Phase.WAITING_FLIP:
        return Flip(time + 1.2)
    if g.phase is Phase.STRESS:
        return CallStress(rng.randrange(2), time + rng.random() * 0.3)
    player = rng.randrange(2)
    time += rng.choice((0.0, 0.05, 0.2, 0.5))
    roll = rng.random()
    if roll < 0.02:
        return CallStress(player, time)
    if roll < 0.04:
        return StopStress(player, time)
    if roll < 0.06:
        return ReadyToFlip(player, time)
    if roll < 0.08:
        return Play(player, rng.randrange(g.rules.row_size), rng.randrange(2), time)
    plays = g.legal_plays(player)
    if plays and not g.is_locked(player, time):
        pile, target = rng.choice(plays)
        if g.rules.together and roll < 0.5:
            return PlayTogether(player, pile, target, time)
        return Play(player, pile, target, time)
    return ReadyToFlip(player, time)


def _card_total(g: Game) -> int:
    return sum(p.card_total() for p in g.state.players) + sum(map(len, g.state.play_piles))


def _check_consistent(g: Game, action: Action, events: Sequence[object], total: int) -> None:
    """The engine's answers agree with each other after ``action``. (The full multiset of
    cards is checked by the caller now and then: hashing every card every step is slow.)"""
    state = g.state
    assert state.time == action.time
    assert _card_total(g) == total
    # What a row and the play piles show is each pile's last card, as the engine keeps it
    # from play to play.
    seen = table_view(state)
    for side, someone in zip(seen.sides, state.players, strict=True):
        assert side.row == tuple(pile[-1] if pile else None for pile in someone.row)
    assert seen.tops == tuple(pile[-1] if pile else None for pile in state.play_piles)
    for player in (0, 1):
        plays = g.legal_plays(player)
        allowed = {
            (pile, target)
            for pile in range(g.rules.row_size)
            for target in (0, 1)
            if g.can_play(player, pile, target)
        }
        assert len(plays) == len(set(plays))
        assert set(plays) == allowed
        assert set(g.stress_threats(player)) <= allowed
    if g.phase is Phase.PLAYING:
        assert not g.is_stalled()
        assert g.legal_plays(0) or g.legal_plays(1)
    if g.phase is Phase.STRESS:
        assert not g.legal_plays(0) and not g.legal_plays(1)
    if any(isinstance(e, (TableDead, NoProgress)) for e in events):
        # Ended without a last card: drawn, for nobody.
        assert g.phase is Phase.ROUND_OVER
        assert g.winner is None
    else:
        assert (g.phase is Phase.ROUND_OVER) == (g.winner is not None)
        if g.winner is not None:
            assert state.players[g.winner].card_total() == 0
    rejected = [e for e in events if isinstance(e, Rejected)]
    if rejected:
        assert events[0] is rejected[0] and len(rejected) == 1
    laid = [card for e in events if isinstance(e, Played) for card in e.cards]
    if laid:  # one action lays onto one pile (several row piles when laid together)
        targets = {e.target for e in events if isinstance(e, Played)}
        assert len(targets) == 1
        assert state.play_piles[targets.pop()][-len(laid) :] == laid
        assert (
            isinstance(action, PlayTogether)
            or len([e for e in events if isinstance(e, Played)]) == 1
        )
    for happened in events:
        if isinstance(happened, RoundWon):
            assert events[-1] is happened


def test_seeded_games_played_to_the_end_stay_consistent_and_finish() -> None:
    unfinished = []
    for seed in range(160):
        combo = COMBOS[(seed * 37) % len(COMBOS)]
        deck, jokers, deal, stacking, wrap, penalty, false_stress = combo
        rules = Rules.for_deck(
            deck,
            jokers=jokers,
            deal=deal,
            stacking=stacking,
            wrap=wrap,
            stress_penalty=penalty,
            false_stress=false_stress,
            stress_stop=seed % 2 == 0,
            taken="mixed" if seed % 3 == 0 else "under",
            together=seed % 4 < 2,
        )
        g = Game.deal(rules, random.Random(seed))
        rng = random.Random(-seed)
        dealt = g.state.cards()
        total = sum(dealt.values())
        time = 0.0
        for n in range(BOUND):
            if g.phase is Phase.ROUND_OVER:
                break
            action = _policy(g, rng, time)
            time = action.time
            events = g.apply(action)
            _check_consistent(g, action, events, total)
            if n % 25 == 0:
                assert g.state.cards() == dealt
                g.state.check(complete=True)
                _round_trips(g)
        else:
            unfinished.append((seed, format_position(g.state)))
        assert g.state.cards() == dealt
    assert not unfinished, (
        f"{len(unfinished)} games never ended; see test_rules.py's "
        "test_a_stress_settled_with_one_pile_cannot_repeat_for_ever; the first:\n"
        f"seed {unfinished[0][0]}\n{unfinished[0][1]}"
    )


@pytest.mark.parametrize("deck", list(DECKS))
def test_rounds_played_by_legal_plays_alone_end_with_a_winner_holding_no_card(deck: str) -> None:
    for seed in range(10):
        g = Game.deal(Rules.for_deck(deck), random.Random(seed))
        rng = random.Random(seed)
        time = 0.0
        while g.phase is not Phase.ROUND_OVER:
            time += 0.5
            if g.phase is Phase.WAITING_FLIP:
                g.apply(Flip(time))
            elif g.phase is Phase.STRESS:
                g.apply(CallStress(rng.randrange(2), time))
            else:
                player = rng.randrange(2)
                plays = g.legal_plays(player) or g.legal_plays(1 - player)
                mover = player if g.legal_plays(player) else 1 - player
                g.apply(Play(mover, *rng.choice(plays), time))
            assert time < 5000, "the round did not end"
        assert g.winner is not None
        assert g.state.players[g.winner].card_total() == 0
        assert g.state.players[1 - g.winner].card_total() > 0
