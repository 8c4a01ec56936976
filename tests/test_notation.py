"""The position notation: every line it has, the round trip, and every way text is wrong."""

from __future__ import annotations

import random
import re

import pytest

from stress_tui.core.actions import Flip
from stress_tui.core.cards import JOKER_CARD
from stress_tui.core.decks import JOKER
from stress_tui.core.engine import Game, Phase
from stress_tui.core.houserules import Deal, FalseStress, StressPenalty
from stress_tui.core.notation import (
    NotationError,
    format_position,
    format_rules,
    parse_position,
    parse_rules,
)
from stress_tui.core.rules import Rules
from tests.conftest import cards

EXAMPLES = [
    # the module's own example
    """rules: standard
phase: playing
p1 row: 5H | 7S 7C | - | KD
p1 draw: 2C 3D 4S
piles: 4H 5C | 9D
p2 row: 6C | 8D | QS | 2H
p2 draw: -""",
    # every line, every player state
    """rules: jass jokers=2 deal=each stacking=on wrap=off stress-penalty=give \
stress-stop=off lockout=0.5 race-window=0.25 wins=2
phase: stress
time: 12.5
stale: 7
p1 row: 6C | ** | AH | 9D
p1 draw: 7C 7C **
p1 state: ready stop=2,4 locked-until=13.25 fewest=4
piles: 8H 9H | 8S 9S
covers: p1 12 8 | p2 12.5 *
p2 row: TD | JD | QD | KD
p2 draw: AS
p2 state: locked-until=1""",
    # a won round, a skat row of three
    """rules: skat stress-penalty=one
phase: over
winner: p2
time: 301
p1 row: 7H | 8H | -
p1 draw: -
piles: 9H | TH JH
covers: - | p2 300.75 T
p2 row: - | - | -
p2 draw: -""",
    # doppelkopf: every card twice, stacked in the row
    """rules: doppelkopf stacking=on
phase: waiting
p1 row: 9H 9H | TS | JC JC | QD
p1 draw: KS KS AH
piles: - | -
p2 row: AS | AS | KH | KH
p2 draw: 9C""",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_canonical_text_round_trips(text: str) -> None:
    state = parse_position(text)
    assert format_position(state) == text
    assert parse_position(format_position(state)) == state


@pytest.mark.parametrize("seed", range(8))
def test_a_dealt_and_flipped_position_round_trips(seed: int) -> None:
    deck = ("standard", "jass", "skat", "doppelkopf")[seed % 4]
    g = Game.deal(
        Rules.for_deck(deck, jokers=seed % 3, deal=("split", "each")[seed % 2]), random.Random(seed)
    )
    for t in (0.0, 1.5):
        assert parse_position(format_position(g.state)) == g.state
        g.apply(Flip(t))


# --------------------------------------------------------------------------- every line


def test_the_rules_line_names_the_deck_then_what_differs_from_its_defaults() -> None:
    rules = parse_rules(
        "standard jokers=3 deal=each row=5 stacking=off wrap=off stress-penalty=one "
        "false-stress=lockout stress-stop=on lockout=0 race-window=0.5 wins=7"
    )
    assert rules == Rules.for_deck(
        "standard",
        jokers=3,
        deal=Deal.EACH,
        row_size=5,
        stacking=False,
        wrap=False,
        stress_penalty=StressPenalty.ONE,
        false_stress=FalseStress.LOCKOUT,
        stress_stop=True,
        lockout=0.0,
        race_window=0.5,
        wins=7,
    )
    assert format_rules(rules) == (
        "standard jokers=3 deal=each row=5 stacking=off wrap=off stress-penalty=one "
        "false-stress=lockout stress-stop=on lockout=0 race-window=0.5 wins=7"
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("skat penalty=one", "skat stress-penalty=one"),
        ("standard race=0.5", "standard race-window=0.5"),
        ("jass penalty=give race=0 wins=2", "jass stress-penalty=give race-window=0 wins=2"),
    ],
)
def test_the_names_older_notation_used_are_still_read_and_written_anew(old: str, new: str) -> None:
    """Replays and the record written before the house rules had one name each say
    ``penalty=`` and ``race=``: they read as before, and are written with today's names."""
    assert parse_rules(old) == parse_rules(new)
    assert format_rules(parse_rules(old)) == new


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("jass", "jass"),
        ("jass wins=5 stress-stop=on false-stress=take", "jass"),
        ("jass false-stress=ignore", "jass false-stress=ignore"),
        ("skat row=3", "skat"),
        ("skat row=4", "skat row=4"),
        ("standard lockout=0.75 race-window=0.3", "standard"),
        ("standard wins=5 jokers=1", "standard jokers=1 wins=5"),
    ],
)
def test_a_deck_s_defaults_are_not_written(text: str, canonical: str) -> None:
    assert format_rules(parse_rules(text)) == canonical


@pytest.mark.parametrize("phase", list(Phase))
def test_the_phase_line(phase: Phase) -> None:
    winner = "winner: p1\n" if phase is Phase.ROUND_OVER else ""
    state = parse_position(
        f"rules: skat\nphase: {phase.value}\n{winner}p1 row: 7H | - | -\npiles: 8H | -\n"
        "p2 row: 9H | - | -"
    )
    assert state.phase is phase


def test_without_a_phase_line_the_round_is_playing() -> None:
    state = parse_position("rules: skat\np1 row: 7H | - | -\npiles: 8H | -\np2 row: - | - | -")
    assert state.phase is Phase.PLAYING
    assert state.time == 0.0
    assert state.players[0].draw_pile == []


def test_draw_piles_and_play_piles_are_written_bottom_first() -> None:
    state = parse_position("""
        rules: standard
        p1 row: 2H | 3H | 4H | 5H
        p1 draw: 9C TC JC
        piles: 4S 5S | 8D
        p2 row: 2C | 3C | 4C | 5C
    """)
    assert state.players[0].draw_pile[-1] == cards("JC")[0], "the next card drawn is the last"
    assert state.play_piles[0][-1] == cards("5S")[0], "the top card is the last"


def test_the_state_line_says_ready_stop_and_locked_until() -> None:
    state = parse_position("""
        rules: jass
        p1 row: 6C | 7C | 8C | 9C
        p1 state: stop=1,3 locked-until=4.5
        piles: 6H | 7H
        p2 row: 6D | 7D | 8D | 9D
        p2 state: ready
    """)
    p1, p2 = state.players
    assert (p1.ready, p1.stop, p1.locked_until) == (False, (0, 2), 4.5)
    assert (p2.ready, p2.stop, p2.locked_until) == (True, (), 0.0)


@pytest.mark.parametrize("words", ["stop=0", "stop=5", "stop=2,1", "stop=1,1", "stop=", "stop=x"])
def test_a_stop_names_places_of_the_opponent_s_row_in_order(words: str) -> None:
    with pytest.raises(NotationError):
        parse_position(
            f"rules: jass; p1 row: 6C | 7C | 8C | 9C; p1 state: {words};"
            " piles: 6H | 7H; p2 row: 6D | 7D | 8D | 9D"
        )


def test_a_bare_stop_of_an_older_position_points_at_every_place() -> None:
    state = parse_position(
        "rules: jass; p1 row: 6C | 7C | 8C | 9C; p1 state: stop;"
        " piles: 6H | 7H; p2 row: 6D | 7D | 8D | 9D"
    )
    assert state.players[0].stop == (0, 1, 2, 3)


def test_the_covers_line_says_who_covered_each_play_pile_when_and_what_lay_under() -> None:
    state = parse_position("""
        rules: standard jokers=1
        p1 row: 2H | 3H | 4H | 5H
        piles: 4S 5S | 8D **
        covers: p2 7.25 4 | p1 8 8
        p2 row: 2C | 3C | 4C | 5C
    """)
    assert state.covers == [[(1, 7.25, 4)], [(0, 8.0, 8)]]
    state = parse_position("""
        rules: standard jokers=2
        p1 row: 2H | 3H | 4H | 5H
        piles: 4S ** | 8D **
        covers: p1 1 4 | p2 2 *
        p2 row: 2C | 3C | 4C | 5C
    """)
    assert state.covers[1] == [(1, 2.0, JOKER)]
    assert state.play_piles[1][-1] == JOKER_CARD


def test_a_play_pile_covered_several_times_in_the_race_window_lists_every_cover() -> None:
    """Oldest first, separated by commas: a late play may have been aimed at any of the
    cards covered."""
    text = """rules: standard
phase: playing
time: 1.1
p1 row: 2H | 3H | 4H | 5H
p1 draw: -
piles: 4S 5C 6D | 9D
covers: p2 1 4, p2 1.1 5 | -
p2 row: 2C | 3C | 7C | 8C
p2 draw: -"""
    state = parse_position(text)
    assert state.covers == [[(1, 1.0, 4), (1, 1.1, 5)], []]
    assert format_position(state) == text


def test_the_winner_line() -> None:
    state = parse_position("""
        rules: skat
        phase: over
        winner: p2
        p1 row: 7H | - | -
        piles: 8H | 9H
        p2 row: - | - | -
    """)
    assert state.winner == 1


def test_lines_may_be_separated_by_semicolons() -> None:
    one_line = "rules: skat; phase: waiting; p1 row: 7H | 8H | 9H; piles: - | -; p2 row: - | - | -"
    assert parse_position(one_line) == parse_position(one_line.replace(";", "\n"))


def test_comments_blank_lines_indentation_and_spacing_are_ignored() -> None:
    text = """
        # a comment line
        rules:   standard      # the deck

        phase: playing
        p1  row: 5h | 10S 10C | - | kd   # lower case and 10 are read too
        piles: 4H | 9D
        p2 row: 6C | 8D | QS | 2H
    """
    assert format_position(parse_position(text)) == (
        "rules: standard\nphase: playing\np1 row: 5H | TS TC | - | KD\np1 draw: -\n"
        "piles: 4H | 9D\np2 row: 6C | 8D | QS | 2H\np2 draw: -"
    )


def test_a_semicolon_ends_a_comment_too() -> None:
    with pytest.raises(NotationError, match="not a notation line"):
        parse_position("rules: skat # one; two\np1 row: - | - | -\npiles: - | -\np2 row: - | - | -")


def test_the_deal_each_allows_every_card_twice() -> None:
    text = """
        rules: standard deal=each
        p1 row: AS | AS | 2C | 3C
        piles: AH | AH
        p2 row: 2C | 3C | - | -
    """
    assert parse_position(text).cards()[cards("AS")[0]] == 2


# --------------------------------------------------------------------------- errors

GOOD = {
    "rules": "rules: standard",
    "phase": "phase: playing",
    "p1 row": "p1 row: 5H | 7S | - | KD",
    "p1 draw": "p1 draw: 2C",
    "piles": "piles: 4H | 9D",
    "p2 row": "p2 row: 6C | 8D | QS | 2H",
}


def _with(**lines: str) -> str:
    """The good position with some lines replaced (an empty value drops the line)."""
    merged = {**GOOD, **{key.replace("_", " "): value for key, value in lines.items()}}
    return "\n".join(value for value in merged.values() if value)


def test_the_good_position_is_good() -> None:
    parse_position(_with())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # too many cards
        (_with(p1_draw="p1 draw: 4H"), "4H: too many of this card for the standard deck"),
        (_with(piles="piles: 4H AS | AS"), "AS: too many"),
        (
            _with(
                rules="rules: doppelkopf stacking=on",
                p1_row="p1 row: 9H 9H 9H | - | - | -",
                p2_row="p2 row: - | - | - | -",
                piles="piles: - | -",
                p1_draw="",
            ),
            "9H: too many",
        ),
        (_with(p1_draw="p1 draw: **"), r"\*\*: no such card in the standard deck"),
        (_with(rules="rules: jass"), "no such card in the jass deck"),
        # the row
        (_with(p1_row="p1 row: 5H | 7S | KD"), "p1 row: 3 piles, but the rules have rows of 4"),
        (_with(p2_row="p2 row: 6C | 8D | QS | 2H | 3H"), "p2 row: 5 piles"),
        (_with(p1_row="p1 row: 5H 5S 6S | 7S | - | KD"), "a stacked pile must hold one rank"),
        (
            _with(rules="rules: standard jokers=2", p1_row="p1 row: ** ** | 7S | - | KD"),
            "a stacked pile must hold one rank",
        ),
        (
            _with(rules="rules: standard stacking=off", p1_row="p1 row: 5H 5S | 7S | - | KD"),
            "a stacked pile, but stacking is off",
        ),
        # the rules line
        (_with(rules="rules: standard colour=red"), "unknown setting 'colour=red'"),
        (_with(rules="rules: standard wrap"), "unknown setting 'wrap'"),
        (_with(rules="rules: poker"), 'deck: "poker" is not a deck'),
        (_with(rules="rules:"), "a deck name is needed"),
        (_with(rules="rules: standard stacking=yes"), 'stacking: "yes" is not on or off'),
        (_with(rules="rules: standard jokers=two"), 'jokers: "two" is not a whole number'),
        (_with(rules="rules: standard lockout=soon"), 'lockout: "soon" is not a number of seconds'),
        (_with(rules="rules: standard penalty=all"), 'stress-penalty: "all" is not a stress'),
        (_with(rules="rules: standard deal=three"), 'deal: "three" is not a deal'),
        (_with(rules="rules: standard row=0"), "row: must be at least 1, not 0"),
        (_with(rules="rules: standard row=26"), "row: 26 is too large"),
        (_with(rules="rules: standard jokers=17"), "jokers: must be between 0 and 16, not 17"),
        (_with(rules="rules: standard lockout=nan"), 'lockout: "nan" is not a number of seconds'),
        (_with(rules="rules: standard race=-1"), "race-window: must be between 0 and 60 seconds"),
        (_with(rules="rules: standard wins=0"), "wins: must be between 1 and 99, not 0"),
        # the phase, the winner, the time
        (
            _with(phase="phase: paused"),
            "phase: one of waiting, playing, stress, over, not 'paused'",
        ),
        (_with(phase="phase: over"), "winner: given exactly when the phase is over"),
        (_with(phase="phase: playing\nwinner: p1"), "winner: given exactly when the phase is over"),
        (_with(phase="phase: over\nwinner: p3"), "winner: p1, p2 or none"),
        (_with(phase="time: -1"), "time: not a time"),
        (_with(phase="time: nan"), "time: not a time"),
        (_with(phase="time: inf"), "time: not a time"),
        (_with(phase="time: noon"), "time: not a number"),
        # cards and piles
        (_with(p1_draw="p1 draw: 2C 1H"), "p1 draw: not a card: '1H'"),
        (_with(p1_draw="p1 draw: 2X"), "p1 draw: not a card: '2X'"),
        (_with(p1_draw="p1 draw: 2C | 3C"), "p1 draw: not a card"),
        (_with(piles="piles: 4H"), "piles: two play piles, not 1"),
        (_with(piles="piles: 4H | 9D | 3C"), "piles: two play piles, not 3"),
        # covers and states
        (_with(piles="piles: 4H | 9D\ncovers: p1 1 3"), "covers: one per play pile"),
        (_with(piles="piles: 4H | 9D\ncovers: p3 1 3 | -"), "covers: write a cover as"),
        (_with(piles="piles: 4H | 9D\ncovers: p1 1 3, p2 1 | -"), "covers: write a cover as"),
        (_with(piles="piles: 4H | 9D\ncovers: p1 2 3, p2 1 3 | -"), "covers go oldest first"),
        (_with(piles="piles: 4H | 9D\ncovers: p1 1 | -"), "covers: write a cover as"),
        (_with(piles="piles: 4H | 9D\ncovers: p1 1 10 | -"), "covers: write a cover as"),
        (_with(piles="piles: 4H | 9D\ncovers: p1 -2 3 | -"), "covers: not a time"),
        (_with(p1_draw="p1 state: sleepy"), "p1 state: unknown word 'sleepy'"),
        (_with(p1_draw="p1 state: locked-until=x"), "p1 state: not a number"),
        (_with(p1_draw="p1 state: fewest=4"), "p1 state: fewest=4, more than the 3 cards held"),
        (_with(p1_draw="p1 state: fewest=-1"), "p1 state: a whole number, not '-1'"),
        (_with(phase="stale: many"), "stale: a whole number, not 'many'"),
        (_with(phase="flips: ²"), "flips: a whole number, not '²'"),
        # the lines themselves
        (_with(p1_draw="p3 row: 2C"), "not a notation line: 'p3 row: 2C'"),
        (_with(p1_draw="just words"), "not a notation line: 'just words'"),
        (_with(p1_draw="phase: waiting"), "phase: given twice"),
        (_with(rules=""), "rules: missing"),
        (_with(p1_row=""), "p1 row: missing"),
        (_with(piles=""), "piles: missing"),
        (_with(p2_row=""), "p2 row: missing"),
    ],
)
def test_text_that_is_not_a_position_raises_a_notation_error_naming_the_line(
    text: str, message: str
) -> None:
    with pytest.raises(NotationError, match=message):
        parse_position(text)


def test_a_notation_error_is_a_value_error() -> None:
    assert issubclass(NotationError, ValueError)
    with pytest.raises(ValueError, match=re.escape("phase: one of")):
        parse_position(_with(phase="phase: ?"))
