"""The behaviour hash (bench/event_hash.py): it plays both of its loops, and tells rounds
apart."""

from __future__ import annotations

from bench.event_hash import canonical, event_hash, variants
from stress_tui.core.actions import Play
from stress_tui.core.cards import Card, Suit
from stress_tui.core.events import Played


def test_the_same_rounds_hash_the_same_and_other_rounds_do_not() -> None:
    # Eight rounds: two of them (indexes 3 and 7) hand a player's moves in through submit.
    first, actions, events = event_hash(8, 0)
    assert event_hash(8, 0) == (first, actions, events)
    assert actions > 8 and events > actions
    assert event_hash(8, 1)[0] != first
    assert event_hash(7, 0)[0] != first


def test_the_canonical_form_names_classes_and_members_not_reprs() -> None:
    card = Card(5, Suit.HEARTS)
    assert canonical(Played(0, 2, 1, (card,), 1.5)) == [
        "Played",
        0,
        2,
        1,
        [["Card", 5, "HEARTS"]],
        1.5,
    ]
    assert canonical(Play(1, 0, 0, 2.0)) == ["Play", 1, 0, 0, 2.0]


def test_every_deck_and_house_rule_is_played() -> None:
    texts = variants()
    assert {text.split()[0] for text in texts} == {
        "standard",
        "jass",
        "skat",
        "doppelkopf",
        "german",
    }
    for setting in ("deal=each", "jokers=2", "penalty=give", "false-stress=lockout"):
        assert any(setting in text for text in texts)
