"""The rules of Stress, one test a rule: build the position in notation, act, assert the
events and the new position. Rules are cited from the seeds: 000 (Swedish), 001 (German)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from stress_tui.core.actions import (
    Action,
    CallStress,
    Flip,
    MalformedActionError,
    NoSuchPileError,
    NoSuchPlayerError,
    Play,
    PlayTogether,
    ReadyToFlip,
    StopStress,
)
from stress_tui.core.cards import DECKS, JOKER_CARD, Suit
from stress_tui.core.decks import RANK_LETTERS
from stress_tui.core.engine import Game, Match, Phase
from stress_tui.core.events import (
    Drawn,
    FalseStressCalled,
    FlipAgreed,
    Flipped,
    LockedOut,
    NoProgress,
    PilesRecycled,
    PilesTaken,
    Played,
    ReadyNoted,
    Rejected,
    RejectReason,
    RoundDrawn,
    RoundWon,
    Stalled,
    StopDeclared,
    StressOpened,
    StressStopped,
    StressWon,
    TableDead,
)
from stress_tui.core.houserules import DEAD_FLIPS, FalseStress
from stress_tui.core.rules import Rules
from tests.conftest import card, cards, game, line, position

NOT_ADJACENT = RejectReason.NOT_ADJACENT


# --------------------------------------------------------------------------- playing a card


def test_on_a_four_a_five_then_a_six_then_a_seven_but_not_a_ten() -> None:
    """000: with a four on a play pile and 5, 6, 7 and 10 in the row, the five, the six
    and the seven go on one after the other; the ten does not go on the seven."""
    g = game("""
        rules: standard
        phase: playing
        p1 row: 5H | 6S | 7C | TD
        piles: 4H | QS
        p2 row: 8D | 2S | 3S | KC
    """)
    assert g.apply(Play(0, 0, 0, 1.0)) == [Played(0, 0, 0, cards("5H"), 1.0)]
    assert g.apply(Play(0, 1, 0, 2.0)) == [Played(0, 1, 0, cards("6S"), 2.0)]
    assert g.apply(Play(0, 2, 0, 3.0)) == [Played(0, 2, 0, cards("7C"), 3.0)]
    ten = Play(0, 3, 0, 4.0)
    assert g.apply(ten) == [Rejected(0, ten, NOT_ADJACENT), LockedOut(0, 4.75)]
    assert line(g, "piles") == "4H 5H 6S 7C | QS"
    assert line(g, "p1 row") == "- | - | - | TD"


@pytest.mark.parametrize(
    ("top", "rank", "fits"),
    [
        # 001: "Auf 8 kann 9 und 7 gelegt werden"
        ("8", "9", True),
        ("8", "7", True),
        ("8", "8", False),
        ("8", "6", False),
        ("8", "T", False),
        # 001: "auf Ass sowohl König als auch 2"
        ("A", "K", True),
        ("A", "2", True),
        ("A", "Q", False),
        ("A", "3", False),
        ("A", "A", False),
        # 000: "På en sjua går bara en sexa eller en åtta; aldrig en annan sjua."
        ("7", "6", True),
        ("7", "8", True),
        ("7", "7", False),
    ],
)
def test_a_card_goes_on_a_card_exactly_one_rank_above_or_below(
    top: str, rank: str, fits: bool
) -> None:
    g = game(f"""
        rules: standard
        phase: playing
        p1 row: {rank}C | - | - | -
        p1 draw: -
        piles: {top}H | -
        p2 row: {top}D | - | - | -
    """)
    assert g.can_play(0, 0, 0) is fits
    events = g.apply(Play(0, 0, 0, 1.0))
    assert isinstance(events[0], Played if fits else Rejected)
    assert g.top(0) == card(f"{rank}C" if fits else f"{top}H")


def test_on_a_seven_never_another_seven() -> None:
    """000: a seven on a seven is a misplay, whatever the suits."""
    g = game("""
        rules: standard
        phase: playing
        p1 row: 7S | 6S | 2C | 3C
        piles: 7H | QS
        p2 row: 8D | 2S | 3S | KC
    """)
    seven = Play(0, 0, 0, 1.0)
    assert g.apply(seven) == [Rejected(0, seven, NOT_ADJACENT), LockedOut(0, 1.75)]
    assert line(g, "piles") == "7H | QS"
    assert line(g, "p1 row") == "7S | 6S | 2C | 3C"


def test_a_card_may_go_on_either_play_pile() -> None:
    """000: "Du får lägga på vilken av de två spelhögarna du vill."""
    g = game("""
        rules: standard
        phase: playing
        p1 row: 5H | 2C | 9C | TC
        piles: 4H | 6S
        p2 row: 8D | 2S | 3S | KC
    """)
    assert g.legal_plays(0) == [(0, 0), (0, 1)]
    assert g.apply(Play(0, 0, 1, 1.0)) == [Played(0, 0, 1, cards("5H"), 1.0)]
    assert line(g, "piles") == "4H | 6S 5H"


@pytest.mark.parametrize("suit", list(Suit))
def test_suits_never_matter(suit: Suit) -> None:
    """000: "Färg spelar ingen roll - bara valör." 001: "Die Farben sind egal."""
    g = game(f"""
        rules: standard
        phase: playing
        p1 row: 5{suit.value} | 3{suit.value} | 9C | TC
        piles: 4H | KS
        p2 row: 8D | 2D | JD | QC
    """)
    assert g.legal_plays(0) == [(0, 0), (1, 0)]
    assert g.apply(Play(0, 0, 0, 1.0))[0] == Played(0, 0, 0, cards(f"5{suit.value}"), 1.0)


# --------------------------------------------------------------------------- the wrap


def _deck_row(deck: str, *piles: str) -> str:
    """A row of the deck's size: the given piles, then empty places."""
    size = 3 if deck == "skat" else 4  # 001: the skat deck has three open cards
    return " | ".join([*piles, *["-"] * (size - len(piles))])


@pytest.mark.parametrize(
    ("deck", "lowest"),
    [
        ("standard", "2"),
        ("jass", "6"),
        ("skat", "7"),
        ("doppelkopf", "9"),
    ],
)
def test_the_ace_wraps_to_the_deck_s_lowest_rank(deck: str, lowest: str) -> None:
    """000 and 001: on an ace a king or the lowest card goes; the deck decides which is
    lowest (2 standard, 6 Jass, 7 Skat, 9 Doppelkopf); and the ace goes on both."""
    second = RANK_LETTERS[DECKS[deck].ranks[1]]
    g = game(f"""
        rules: {deck}
        phase: playing
        p1 row: {_deck_row(deck, "KC", f"{lowest}C", f"{second}C")}
        piles: AH | -
        p2 row: {_deck_row(deck, "AD")}
    """)
    assert g.legal_plays(0) == [(0, 0), (1, 0)]
    g = game(f"""
        rules: {deck}
        phase: playing
        p1 row: {_deck_row(deck, "AC")}
        piles: KH | {lowest}S
        p2 row: {_deck_row(deck, "AD")}
    """)
    assert g.legal_plays(0) == [(0, 0), (0, 1)]


@pytest.mark.parametrize("deck", list(DECKS))
def test_with_wrap_off_the_ace_and_the_lowest_rank_are_not_neighbours(deck: str) -> None:
    ranks = DECKS[deck].ranks
    lowest, second = RANK_LETTERS[ranks[0]], RANK_LETTERS[ranks[1]]
    g = game(f"""
        rules: {deck} wrap=off
        phase: playing
        p1 row: {_deck_row(deck, "KC", f"{lowest}C", "AC")}
        piles: AH | {lowest}S
        p2 row: {_deck_row(deck, f"{second}D")}
    """)
    assert g.legal_plays(0) == [(0, 0)]
    assert g.legal_plays(1) == [(0, 1)]


# --------------------------------------------------------------------------- the row


def test_after_a_play_the_row_is_refilled_from_the_top_of_the_draw_pile() -> None:
    """000: fill the row from the draw pile every time a card has left it."""
    g = game("""
        rules: standard
        phase: playing
        p1 row: 5H | 9S | JC | KD
        p1 draw: 2C 3C
        piles: 4H | QS
        p2 row: 8D | 2S | 3S | 7C
    """)
    assert g.apply(Play(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, cards("5H"), 1.0),
        Drawn(0, 0, card("3C"), False),
    ]
    assert line(g, "p1 row") == "3C | 9S | JC | KD"
    assert line(g, "p1 draw") == "2C"


def test_with_the_draw_pile_empty_the_place_stays_empty() -> None:
    g = game("""
        rules: standard
        phase: playing
        p1 row: 5H | 9S | JC | KD
        piles: 4H | QS
        p2 row: 8D | 2S | 3S | 7C
    """)
    assert g.apply(Play(0, 0, 0, 1.0)) == [Played(0, 0, 0, cards("5H"), 1.0)]
    assert line(g, "p1 row") == "- | 9S | JC | KD"


def test_a_drawn_card_of_a_rank_already_in_the_row_is_stacked_onto_it() -> None:
    """000: equal ranks in the row go together in one pile, and a new card is drawn."""
    g = game("""
        rules: standard
        phase: playing
        p1 row: 5H | 9S | JC | KD
        p1 draw: 2C 9H
        piles: 4H | QS
        p2 row: 8D | 2S | 3S | 7C
    """)
    assert g.apply(Play(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, cards("5H"), 1.0),
        Drawn(0, 1, card("9H"), True),
        Drawn(0, 0, card("2C"), False),
    ]
    assert line(g, "p1 row") == "2C | 9S 9H | JC | KD"


def test_a_stacked_pile_is_played_as_a_whole() -> None:
    """001: several cards of one rank may be laid down at once."""
    g = game("""
        rules: standard
        phase: playing
        p1 row: 9S 9H 9C | 2C | JC | KD
        p1 draw: 4C
        piles: 8H | QS
        p2 row: 8D | 2S | 3S | 7C
    """)
    assert g.apply(Play(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, cards("9S 9H 9C"), 1.0),
        Drawn(0, 0, card("4C"), False),
    ]
    assert line(g, "piles") == "8H 9S 9H 9C | QS"
    assert g.top(0) == card("9C")


def test_with_stacking_off_equal_ranks_take_separate_places() -> None:
    """000: stacking is not in every description of the game; off, a nine drawn beside
    a nine fills the empty place."""
    g = game("""
        rules: standard stacking=off
        phase: playing
        p1 row: 5H | 9S | JC | KD
        p1 draw: 2C 9H
        piles: 4H | QS
        p2 row: 8D | 2S | 3S | 7C
    """)
    assert g.apply(Play(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, cards("5H"), 1.0),
        Drawn(0, 0, card("9H"), False),
    ]
    assert line(g, "p1 row") == "9H | 9S | JC | KD"


def test_with_the_jass_deck_s_defaults_every_play_lays_one_card_into_the_middle() -> None:
    """001, Jass: "Es ist auch nicht erlaubt, mehr als eine Karte auf einmal in die Mitte
    zu legen", and "Es wird ebenfalls mit 4 offenen Karten ... gespielt": a nine drawn
    beside a nine takes a place of its own, so the row shows four cards, and each play
    lays one card."""
    g = game("""
        rules: jass
        phase: playing
        p1 row: 6H | 9S | JC | KD
        p1 draw: TC 9H
        piles: 7H | QS
        p2 row: 8D | 6S | 7S | 7C
    """)
    assert g.apply(Play(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, cards("6H"), 1.0),
        Drawn(0, 0, card("9H"), False),
    ]
    assert line(g, "p1 row") == "9H | 9S | JC | KD"
    assert g.apply(Play(1, 2, 0, 2.0)) == [Played(1, 2, 0, cards("7S"), 2.0)]
    assert g.apply(Play(1, 0, 0, 2.5)) == [Played(1, 0, 0, cards("8D"), 2.5)]
    assert g.apply(Play(0, 1, 0, 3.0)) == [
        Played(0, 1, 0, cards("9S"), 3.0),
        Drawn(0, 1, card("TC"), False),
    ]
    assert line(g, "p1 row") == "9H | TC | JC | KD", "the other nine stays in the row"


def test_whole_jass_rounds_by_the_deck_s_defaults_never_lay_two_cards_at_once() -> None:
    """001, Jass: not more than one card at once into the middle, in every round."""
    rules = Rules.for_deck("jass")
    for seed in range(20):
        g = Game.deal(rules, random.Random(seed))
        rng = random.Random(seed)
        time = 0.0
        while g.phase is not Phase.ROUND_OVER:
            time += 0.5
            for p in g.state.players:
                assert all(len(pile) <= 1 for pile in p.row), "four open cards, no stacks"
            if g.phase is Phase.WAITING_FLIP:
                events = g.apply(Flip(time))
            elif g.phase is Phase.STRESS:
                events = g.apply(CallStress(rng.randrange(2), time))
            else:
                mover = rng.randrange(2)
                if not g.legal_plays(mover):
                    mover = 1 - mover
                events = g.apply(Play(mover, *rng.choice(g.legal_plays(mover)), time))
            for happened in events:
                if isinstance(happened, Played):
                    assert len(happened.cards) == 1
            assert time < 5000


def test_jokers_are_never_stacked() -> None:
    g = game("""
        rules: standard jokers=2
        phase: playing
        p1 row: 5H | ** | JC | KD
        p1 draw: 2C **
        piles: 4H | QS
        p2 row: 8D | 2S | 3S | 7C
    """)
    assert g.apply(Play(0, 0, 0, 1.0))[1:] == [Drawn(0, 0, JOKER_CARD, False)]
    assert line(g, "p1 row") == "** | ** | JC | KD"


# --------------------------------------------------------------------------- laying together

TOGETHER = """
    rules: standard stacking=off together=on
    phase: playing
    p1 row: 7S | 7H | 2C | 9D
    p1 draw: 3C 4C 5C
    piles: 6C | QS
    p2 row: 8D | 2S | 3S | KC
"""


def test_ready_cards_of_one_rank_may_be_laid_together() -> None:
    """001, Stapel: "Falls ein Spieler mehrere Karten mit demselben Wert „spielbereit" hat,
    darf er diese gleichzeitig ablegen", with no stacking in the row: both sevens go on
    the six at once (the pile named first, then the other), and both places are refilled."""
    g = game(TOGETHER)
    assert g.apply(PlayTogether(0, 1, 0, 1.0)) == [
        Played(0, 1, 0, cards("7H"), 1.0),
        Played(0, 0, 0, cards("7S"), 1.0),
        Drawn(0, 0, card("5C"), False),
        Drawn(0, 1, card("4C"), False),
    ]
    assert line(g, "piles") == "6C 7H 7S | QS"
    assert line(g, "p1 row") == "5C | 4C | 2C | 9D"


def test_laying_together_is_a_may_a_pile_key_alone_lays_one_card() -> None:
    """001: "darf er": the other seven may stay in the row."""
    g = game(TOGETHER)
    assert g.apply(Play(0, 1, 0, 1.0))[0] == Played(0, 1, 0, cards("7H"), 1.0)
    assert line(g, "piles") == "6C 7H | QS"
    assert line(g, "p1 row") == "7S | 5C | 2C | 9D"


def test_with_laying_together_off_nobody_lays_two_cards_at_once() -> None:
    """001, Jass: "Es ist auch nicht erlaubt, mehr als eine Karte auf einmal in die Mitte
    zu legen": without the rule (the Jass deck's default) a try changes nothing."""
    g = game(TOGETHER.replace(" together=on", ""))
    before = position(g)
    both = PlayTogether(0, 1, 0, 1.0)
    assert g.apply(both) == [Rejected(0, both, RejectReason.RULE_OFF)]
    assert position(g) == before.replace("phase: playing", "phase: playing\ntime: 1")
    jass = game("""
        rules: jass
        phase: playing
        p1 row: 7S | 7H | TC | 9D
        piles: 6C | QS
        p2 row: 8D | JS | 6S | KC
    """)
    assert jass.apply(both) == [Rejected(0, both, RejectReason.RULE_OFF)]


def test_cards_laid_together_make_one_stress_when_the_last_shows_the_other_pile_s_rank() -> None:
    g = game(TOGETHER.replace("QS", "7D"))
    events = g.apply(PlayTogether(0, 0, 0, 1.0))
    assert [type(e).__name__ for e in events] == [
        "Played",
        "Played",
        "Drawn",
        "Drawn",
        "StressOpened",
    ]
    assert g.phase is Phase.STRESS


def test_laid_together_a_card_that_does_not_fit_is_a_misplay_like_any_other() -> None:
    g = game(TOGETHER.replace("6C", "TC"))
    bad = PlayTogether(0, 0, 0, 1.0)
    assert g.apply(bad) == [Rejected(0, bad, NOT_ADJACENT), LockedOut(0, 1.75)]


def test_a_joker_is_laid_alone() -> None:
    """Our choice: a joker has no rank for others to share."""
    g = game("""
        rules: standard jokers=2 stacking=off together=on
        phase: playing
        p1 row: ** | ** | 2C | 9D
        piles: 6C | QS
        p2 row: 8D | 2S | 3S | KC
    """)
    assert g.apply(PlayTogether(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, (JOKER_CARD,), 1.0),
        StressOpened(1.0),
    ]
    assert line(g, "p1 row") == "- | ** | 2C | 9D"


@pytest.mark.parametrize(
    ("deck", "stacking", "together"),
    [
        ("standard", True, False),
        ("jass", False, False),
        ("skat", False, True),
        ("doppelkopf", False, True),
    ],
)
def test_each_deck_stacks_or_lays_together_as_its_seed_says(
    deck: str, stacking: bool, together: bool
) -> None:
    """000 stacks equal ranks in the row (standard); 001 deals open cards (four, three with
    Skat) and lets ready cards of one rank go down together (Stapel), except with Jass."""
    rules = Rules.for_deck(deck)
    assert (rules.stacking, rules.together) == (stacking, together)


# --------------------------------------------------------------------------- the deal


@pytest.mark.parametrize("deck", list(DECKS))
def test_the_split_deal_halves_one_shuffled_deck(deck: str) -> None:
    """000: shuffle one deck and split it in half; each player fills a row from their half."""
    g = Game.deal(Rules.for_deck(deck, deal="split"), random.Random(5))
    spec = DECKS[deck]
    assert [p.card_total() for p in g.state.players] == [len(spec) // 2] * 2
    assert g.state.cards() == Counter(spec.cards())
    assert g.phase is Phase.WAITING_FLIP
    assert line(g, "piles") == "- | -"
    for p in g.state.players:
        assert all(p.row), "every place in the row holds a card"
        assert all(len({c.rank for c in pile}) == 1 for pile in p.row)
        if g.rules.stacking:
            assert len({pile[0].rank for pile in p.row}) == g.rules.row_size


@pytest.mark.parametrize("deck", list(DECKS))
def test_the_each_deal_gives_every_player_a_full_deck(deck: str) -> None:
    """001: "Jeder Mitspieler erhält die 52 Karten eines Satzes."""
    g = Game.deal(Rules.for_deck(deck, deal="each", jokers=2), random.Random(5))
    full = Counter(DECKS[deck].cards(2))
    for p in g.state.players:
        mine = Counter(p.draw_pile) + Counter(c for pile in p.row for c in pile)
        assert mine == full
        assert all(p.row)
    assert g.phase is Phase.WAITING_FLIP


def test_an_odd_card_goes_to_the_first_player() -> None:
    g = Game.deal(Rules.for_deck("standard", jokers=1), random.Random(5))
    assert [p.card_total() for p in g.state.players] == [27, 26]


def test_with_stacking_off_a_dealt_row_holds_one_card_a_place() -> None:
    for seed in range(20):
        g = Game.deal(Rules.for_deck("doppelkopf", stacking=False), random.Random(seed))
        assert [len(pile) for p in g.state.players for pile in p.row] == [1] * 8
        assert [len(p.draw_pile) for p in g.state.players] == [20, 20]


def test_different_seeds_deal_differently() -> None:
    rules = Rules.for_deck("standard")
    deals = {position(Game.deal(rules, random.Random(seed))) for seed in range(5)}
    assert len(deals) == 5


def test_the_first_flip_puts_each_player_s_top_card_on_their_own_pile() -> None:
    """000: when both rows are out, each player lays a card in the middle at once."""
    g = Game.deal(Rules.for_deck("standard"), random.Random(5))
    tops = [p.draw_pile[-1] for p in g.state.players]
    events = g.apply(Flip(0.0))
    assert events[0] == Flipped((tops[0], tops[1]), (0, 1), 0.0)
    assert g.state.play_piles == ([tops[0]], [tops[1]])


# --------------------------------------------------------------------------- stress

STRESS = """
    rules: standard{rules}
    phase: stress
    p1 row: 2H | 3H | 4H | 5H
    p1 draw: 9S
    piles: 8C JD | 6S 7D JH
    p2 row: 2C | 3C | 4C | 5C
    p2 draw: KS
"""


def test_a_play_that_shows_the_same_rank_on_both_piles_opens_stress() -> None:
    g = game("""
        rules: standard
        phase: playing
        p1 row: 5S | 2C | 3C | 9C
        piles: 4H | 5D
        p2 row: 8D | 2S | 3S | KC
    """)
    assert g.apply(Play(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, cards("5S"), 1.0),
        StressOpened(1.0),
    ]
    assert g.phase is Phase.STRESS
    assert g.is_stress()


def test_stress_the_slower_takes_both_piles_shuffled_under_the_draw_pile() -> None:
    """000 and 001: the first to call stress is spared; the slower takes both play piles.
    000: "Blanda alltid de kort du tvingas ta upp innan du lägger dem i plockhögen": by
    default they are shuffled and put under the draw pile (the next card drawn is still
    the old top)."""
    g = game(STRESS.format(rules=""))
    assert g.apply(CallStress(0, 1.0)) == [StressWon(0, 1, 1.0), PilesTaken(1, (0, 1), 5)]
    assert g.phase is Phase.WAITING_FLIP
    assert line(g, "piles") == "- | -"
    loser = g.state.players[1]
    assert loser.draw_pile[-1] == card("KS")
    assert Counter(loser.draw_pile[:-1]) == Counter(cards("8C JD 6S 7D JH"))
    assert line(g, "p1 draw") == "9S"


def test_the_taken_piles_are_shuffled() -> None:
    orders = set()
    for seed in range(10):
        g = game(STRESS.format(rules=""), seed=seed)
        g.apply(CallStress(0, 1.0))
        orders.add(line(g, "p2 draw"))
    assert len(orders) > 1


def test_taken_mixed_shuffles_the_taken_piles_into_the_whole_draw_pile() -> None:
    """001: the slower "erhält als Strafe beide Stapel in der Tischmitte, welche er zu
    seinen Karten in der Hand dazumischen muss": the taken cards are mixed with all the
    cards in hand, so the next card drawn may be one of them (under 000's reading, the
    default, it is never: they go under the draw pile)."""
    tops = set()
    for seed in range(20):
        g = game(STRESS.format(rules=" taken=mixed"), seed=seed)
        assert g.apply(CallStress(0, 1.0)) == [StressWon(0, 1, 1.0), PilesTaken(1, (0, 1), 5)]
        loser = g.state.players[1].draw_pile
        assert Counter(loser) == Counter(cards("8C JD 6S 7D JH KS"))
        tops.add(str(loser[-1]))
    assert len(tops) > 1 and "KS" in tops


def test_a_false_call_with_taken_mixed_mixes_too() -> None:
    """001, Strafen: the false caller "muss er als Strafe ebenfalls die Stapel aufnehmen",
    as the slower would."""
    tops = set()
    for seed in range(20):
        g = game(NO_STRESS.format(rules=" taken=mixed"), seed=seed)
        g.apply(CallStress(0, 1.0))
        draw = g.state.players[0].draw_pile
        assert Counter(draw) == Counter(cards("8C 9D 6S 7H 9S"))
        tops.add(str(draw[-1]))
    assert len(tops) > 1


def test_stress_the_second_call_is_too_late() -> None:
    """001: knocking settles who called first; the second call changes nothing."""
    g = game(STRESS.format(rules=""))
    assert g.apply(CallStress(1, 1.0)) == [StressWon(1, 0, 1.0), PilesTaken(0, (0, 1), 5)]
    after = position(g)
    late = CallStress(0, 1.0)
    assert g.apply(late) == [Rejected(0, late, RejectReason.TOO_LATE)]
    assert position(g) == after


def test_taken_cards_refill_an_empty_row_stacking_equal_ranks() -> None:
    """The loser's draw pile was empty: the row is refilled from the taken cards."""
    g = game("""
        rules: standard
        phase: stress
        p1 row: 2H | 3H | 4H | 5H
        piles: 8C 2D | 6S
        p2 row: 2C | - | - | -
    """)
    events = g.apply(CallStress(0, 1.0))
    assert events[:2] == [StressWon(0, 1, 1.0), PilesTaken(1, (0, 1), 3)]
    assert [e.card for e in events[2:] if isinstance(e, Drawn) and e.stacked] == [card("2D")]
    assert line(g, "p2 draw") == "-"
    row = g.state.players[1].row
    assert row[0] == list(cards("2C 2D"))
    assert sorted(str(c) for pile in row[1:] for c in pile) == ["6S", "8C"]


def test_penalty_one_the_slower_takes_only_the_smaller_pile() -> None:
    """000, variant: at some tables the slower takes only one pile."""
    g = game(STRESS.format(rules=" penalty=one"))
    assert g.apply(CallStress(0, 1.0)) == [StressWon(0, 1, 1.0), PilesTaken(1, (0,), 2)]
    assert line(g, "piles") == "- | 6S 7D JH"
    assert Counter(g.state.players[1].draw_pile) == Counter(cards("8C JD KS"))


def test_penalty_give_the_faster_hands_over_the_larger_pile() -> None:
    """000, variant: the faster gives one of the play piles to the opponent."""
    g = game(STRESS.format(rules=" penalty=give"))
    assert g.apply(CallStress(0, 1.0)) == [StressWon(0, 1, 1.0), PilesTaken(1, (1,), 3)]
    assert line(g, "piles") == "8C JD | -"
    assert Counter(g.state.players[1].draw_pile) == Counter(cards("6S 7D JH KS"))


@pytest.mark.parametrize(("penalty", "taken"), [("one", (0,)), ("give", (0,))])
def test_with_piles_of_equal_size_one_pile_penalties_take_the_left(
    penalty: str, taken: tuple[int, ...]
) -> None:
    g = game(f"""
        rules: standard penalty={penalty}
        phase: stress
        p1 row: 2H | 3H | 4H | 5H
        piles: 8C JD | 6S JH
        p2 row: 2C | 3C | 4C | 5C
        p2 draw: KS
    """)
    assert g.apply(CallStress(0, 1.0))[1] == PilesTaken(1, taken, 2)


def test_a_penalty_pile_of_one_card_makes_the_slower_take_both_piles() -> None:
    """Our choice (docs/rules.md): with ``penalty=one`` the slower takes the smaller pile,
    but here that is the one card just flipped onto an empty pile, and the slower has no
    other card to draw: taken alone it would be flipped straight back into the same stress
    for ever, so the slower takes both."""
    g = game("""
        rules: standard penalty=one
        phase: waiting
        p1 row: 3C | 6H | JC | 4D
        piles: - | 6S 9H
        p2 row: AD | 5S | JS | TC
        p2 draw: 9C
    """)
    assert g.apply(Flip(1.0)) == [Flipped((card("9C"), None), (1, None), 1.0), StressOpened(1.0)]
    assert g.apply(CallStress(0, 1.5)) == [StressWon(0, 1, 1.5), PilesTaken(1, (0, 1), 3)]
    assert line(g, "piles") == "- | -"


def test_no_card_may_be_played_while_stress_is_open() -> None:
    g = game(STRESS.format(rules=""))
    before = position(g)
    play, ready = Play(0, 1, 1, 0.0), ReadyToFlip(0, 0.0)
    assert g.apply(play) == [Rejected(0, play, RejectReason.STRESS_OPEN)]
    assert g.apply(ready) == [Rejected(0, ready, RejectReason.STRESS_OPEN)]
    assert position(g) == before, "no lockout for trying"


# --------------------------------------------------------------------------- false stress

NO_STRESS = """
    rules: standard{rules}
    phase: playing
    time: 1
    p1 row: 2H | 3H | 8H | 5H
    p1 draw: 9S
    piles: 8C 9D | 6S 7H
    p2 row: 2C | 3C | 4C | TC
    p2 draw: KS
"""


def test_false_stress_take_the_caller_takes_both_piles() -> None:
    """001, Strafen: calling stress by mistake costs the caller the piles."""
    g = game(NO_STRESS.format(rules=""))
    assert g.apply(CallStress(0, 1.0)) == [
        FalseStressCalled(0, FalseStress.TAKE),
        PilesTaken(0, (0, 1), 4),
    ]
    assert g.phase is Phase.WAITING_FLIP
    assert line(g, "piles") == "- | -"
    assert g.state.players[0].draw_pile[-1] == card("9S")
    assert Counter(g.state.players[0].draw_pile) == Counter(cards("8C 9D 6S 7H 9S"))


def test_false_stress_ignore_costs_nothing() -> None:
    """001, Swiss variant: a false call costs the caller nothing."""
    g = game(NO_STRESS.format(rules=" false-stress=ignore"))
    before = position(g)
    assert g.apply(CallStress(0, 1.0)) == [FalseStressCalled(0, FalseStress.IGNORE)]
    assert position(g) == before


NO_STRESS_JASS = """
    rules: jass
    phase: playing
    time: 1
    p1 row: 6H | 7H | QH | KH
    p1 draw: 9S
    piles: 8C 9D | 6S 7D
    p2 row: 6C | JC | QC | TC
    p2 draw: KS
"""


def test_in_jass_a_false_stop_is_free_and_a_false_call_of_stress_costs_the_piles() -> None:
    """001 (Swiss), closing the paragraph of the stop: "Bei falscher Nennung eines Stresses
    bleibt dies für den Rufer folgenlos": a stop that names a stress that does not come
    costs nothing. 001, Strafen, for the call itself: "Ruft ein Spieler aus Versehen
    „Stress“, muss er als Strafe ebenfalls die Stapel aufnehmen"."""
    g = game(NO_STRESS_JASS)
    assert g.rules.false_stress is FalseStress.TAKE and g.rules.stress_stop
    assert g.stress_threats(1) == []
    before = position(g)
    stop = StopStress(0, 1.0)
    assert g.apply(stop) == [Rejected(0, stop, RejectReason.NO_STRESS_THREAT)]
    assert position(g) == before
    assert g.apply(CallStress(0, 1.5)) == [
        FalseStressCalled(0, FalseStress.TAKE),
        PilesTaken(0, (0, 1), 4),
    ]


def test_the_other_reading_of_the_swiss_sentence_is_a_choice_every_false_call_free() -> None:
    """`--false-stress ignore` reads "Bei falscher Nennung eines Stresses" as any false
    call of stress, as "die Nennung eines Stresses" in 001's Ende means calling stress."""
    g = game(NO_STRESS_JASS.replace("rules: jass", "rules: jass false-stress=ignore"))
    assert g.apply(CallStress(0, 1.0)) == [FalseStressCalled(0, FalseStress.IGNORE)]


def test_false_stress_lockout_locks_the_caller_out_of_playing() -> None:
    g = game(NO_STRESS.format(rules=" false-stress=lockout"))
    assert g.apply(CallStress(0, 1.0)) == [
        FalseStressCalled(0, FalseStress.LOCKOUT),
        LockedOut(0, 1.75),
    ]
    assert line(g, "p1 state") == "locked-until=1.75"
    early = Play(0, 2, 0, 1.5)
    assert g.apply(early) == [Rejected(0, early, RejectReason.LOCKED_OUT)]
    assert g.apply(Play(0, 2, 0, 1.75))[0] == Played(0, 2, 0, cards("8H"), 1.75)


def test_false_stress_lockout_with_no_lockout_time_costs_nothing() -> None:
    g = game(NO_STRESS.format(rules=" false-stress=lockout lockout=0"))
    before = position(g)
    assert g.apply(CallStress(0, 1.0)) == [FalseStressCalled(0, FalseStress.LOCKOUT)]
    assert position(g) == before


def test_a_call_before_the_flip_is_rejected() -> None:
    g = game(STRESS.format(rules="").replace("phase: stress", "phase: waiting"))
    call = CallStress(0, 1.0)
    assert g.apply(call) == [Rejected(0, call, RejectReason.TOO_LATE)]


# --------------------------------------------------------------------------- misplays

MISPLAY = """
    rules: standard{rules}
    phase: playing
    p1 row: 5H | 9S | JC | -
    piles: 4H | QS
    p2 row: 8D | 2S | 3S | KC
"""


def test_a_misplay_locks_the_player_out_until_time_plus_lockout() -> None:
    g = game(MISPLAY.format(rules=""))
    bad = Play(0, 1, 0, 1.0)
    assert g.apply(bad) == [Rejected(0, bad, NOT_ADJACENT), LockedOut(0, 1.75)]
    assert line(g, "p1 state") == "locked-until=1.75"
    assert g.is_locked(0, 1.7)
    good_too_early = Play(0, 0, 0, 1.7)
    assert g.apply(good_too_early) == [Rejected(0, good_too_early, RejectReason.LOCKED_OUT)]
    assert line(g, "piles") == "4H | QS"
    assert not g.is_locked(0, 1.75)
    assert g.apply(Play(0, 0, 0, 1.75)) == [Played(0, 0, 0, cards("5H"), 1.75)]


def test_a_lockout_binds_only_the_player_who_misplayed() -> None:
    g = game(MISPLAY.format(rules=""))
    g.apply(Play(0, 1, 0, 1.0))
    assert g.apply(Play(1, 3, 1, 1.1)) == [Played(1, 3, 1, cards("KC"), 1.1)]


def test_playing_from_an_empty_place_is_a_misplay() -> None:
    g = game(MISPLAY.format(rules=""))
    empty = Play(0, 3, 0, 1.0)
    assert g.apply(empty) == [Rejected(0, empty, RejectReason.EMPTY_PILE), LockedOut(0, 1.75)]


def test_with_lockout_zero_a_misplay_costs_nothing() -> None:
    g = game(MISPLAY.format(rules=" lockout=0"))
    before = position(g)
    bad = Play(0, 1, 0, 1.0)
    assert g.apply(bad) == [Rejected(0, bad, NOT_ADJACENT)]
    assert position(g) == before.replace("phase: playing", "phase: playing\ntime: 1")
    assert g.apply(Play(0, 0, 0, 1.0)) == [Played(0, 0, 0, cards("5H"), 1.0)]


# --------------------------------------------------------------------------- races

RACE = """
    rules: standard
    phase: playing
    p1 row: 3S | 6S | 8S | -
    piles: 4H | QD
    p2 row: 5C | 3D | JD | -
"""


def test_a_card_that_fit_the_card_just_covered_loses_the_race_without_lockout() -> None:
    """001: when both play at once, the faster wins and the slower takes the card back."""
    g = game(RACE)
    assert g.apply(Play(1, 0, 0, 1.0)) == [Played(1, 0, 0, cards("5C"), 1.0)]
    assert line(g, "covers") == "p2 1 4 | -"
    slower = Play(0, 0, 0, 1.2)
    assert g.apply(slower) == [Rejected(0, slower, RejectReason.LOST_RACE)]
    assert line(g, "p1 state") is None
    assert line(g, "p1 row") == "3S | 6S | 8S | -"
    assert g.apply(Play(0, 1, 0, 1.2)) == [Played(0, 1, 0, cards("6S"), 1.2)]


def test_after_the_race_window_the_same_card_is_a_misplay() -> None:
    g = game(RACE)
    g.apply(Play(1, 0, 0, 1.0))
    late = Play(0, 0, 0, 1.5)
    assert g.apply(late) == [Rejected(0, late, NOT_ADJACENT), LockedOut(0, 2.25)]


def test_a_card_that_fit_a_card_covered_exactly_the_race_window_before_lost_the_race() -> None:
    """The race window is "at most": a card covered exactly --race-window seconds before
    still counts (the engine, --help and --rules say it one way)."""
    g = game(RACE.replace("rules: standard", "rules: standard race-window=0.25"))
    g.apply(Play(1, 0, 0, 1.0))
    slower = Play(0, 0, 0, 1.25)
    assert g.apply(slower) == [Rejected(0, slower, RejectReason.LOST_RACE)]


def test_a_card_that_fit_neither_card_is_a_misplay_even_in_the_race_window() -> None:
    g = game(RACE)
    g.apply(Play(1, 0, 0, 1.0))
    wrong = Play(0, 2, 0, 1.1)
    assert g.apply(wrong) == [Rejected(0, wrong, NOT_ADJACENT), LockedOut(0, 1.85)]


def test_nobody_races_themselves() -> None:
    g = game(RACE)
    g.apply(Play(1, 0, 0, 1.0))
    own = Play(1, 1, 0, 1.1)  # the 3 fit the 4 below, but p2 covered it themselves
    assert g.apply(own)[0] == Rejected(1, own, NOT_ADJACENT)


def test_a_race_read_from_the_covers_line() -> None:
    g = game("""
        rules: standard
        phase: playing
        time: 10
        p1 row: 3S | 6S | 8S | -
        piles: 4H 5C | QD
        covers: p2 10 4 | -
        p2 row: 2D | 9D | - | -
    """)
    slower = Play(0, 0, 0, 10.25)
    assert g.apply(slower) == [Rejected(0, slower, RejectReason.LOST_RACE)]


COVERED_TWICE = """
    rules: standard
    phase: playing
    p1 row: 3S | 9S | 8S | -
    piles: 4H | QD
    p2 row: 5C | 6D | JD | -
"""
"""p2 can cover the four with a five and the five with a six; p1's three fits the four."""


def test_a_late_play_aimed_at_a_card_covered_moments_ago_loses_the_race_after_two_covers() -> None:
    """001: "Der langsamere Spieler muss seine Karte zurücknehmen" (the slower takes the
    card back, nothing more). p2 covers the four with a five and the five with a six in
    quick succession; p1's three, aimed at the four covered 0.2 s before, is too late: no
    lockout, although the five came in between."""
    g = game(COVERED_TWICE)
    assert g.apply(Play(1, 0, 0, 1.0)) == [Played(1, 0, 0, cards("5C"), 1.0)]
    assert g.apply(Play(1, 1, 0, 1.1)) == [Played(1, 1, 0, cards("6D"), 1.1)]
    slower = Play(0, 0, 0, 1.2)
    assert g.apply(slower) == [Rejected(0, slower, RejectReason.LOST_RACE)]
    assert line(g, "p1 state") is None, "no lockout"
    assert line(g, "covers") == "p2 1 4, p2 1.1 5 | -"
    assert line(g, "p1 row") == "3S | 9S | 8S | -"


def test_a_play_aimed_at_a_card_one_has_covered_oneself_is_a_misplay() -> None:
    """p1 saw the five (they covered it with their six): a three aimed at the four under
    it is no race lost but a card that does not fit."""
    g = game("""
        rules: standard
        phase: playing
        p1 row: 3S | 6S | 8S | -
        piles: 4H | QD
        p2 row: 5C | 2D | JD | -
    """)
    g.apply(Play(1, 0, 0, 1.0))
    g.apply(Play(0, 1, 0, 1.05))
    wrong = Play(0, 0, 0, 1.1)
    assert g.apply(wrong) == [Rejected(0, wrong, NOT_ADJACENT), LockedOut(0, 1.85)]


def test_covers_older_than_the_race_window_are_forgotten() -> None:
    g = game(COVERED_TWICE)
    g.apply(Play(1, 0, 0, 1.0))
    g.apply(Play(1, 1, 0, 2.0))
    assert line(g, "covers") == "p2 2 5 | -"
    late = Play(0, 0, 0, 2.1)
    assert g.apply(late) == [Rejected(0, late, NOT_ADJACENT), LockedOut(0, 2.85)]


# --------------------------------------------------------------------------- stalls and flips

STALLING = """
    rules: standard
    phase: playing
    p1 row: 5H | 9C | JC | 2C
    p1 draw: 6S 7D 9S
    piles: 4H | KD
    p2 row: 2D | 3D | 8D | TD
    p2 draw: QC
"""


def test_when_nobody_can_play_the_round_stalls_and_waits_for_a_flip() -> None:
    """000: when the game is stuck, both lay a new card from the draw pile on their pile."""
    g = game(STALLING)
    assert g.apply(Play(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, cards("5H"), 1.0),
        Drawn(0, 1, card("9S"), True),
        Drawn(0, 0, card("7D"), False),
        Stalled(),
    ]
    assert line(g, "phase") == "waiting"
    assert g.is_stalled()
    assert line(g, "covers") == "p1 1 4 | -"
    play, ready = Play(1, 0, 0, 1.5), ReadyToFlip(1, 1.5)
    assert g.apply(play) == [Rejected(1, play, RejectReason.NOT_PLAYING)]
    assert g.apply(ready) == [Rejected(1, ready, RejectReason.NOT_PLAYING)]
    assert g.apply(Flip(2.0)) == [Flipped((card("6S"), card("QC")), (0, 1), 2.0)]
    assert g.phase is Phase.PLAYING
    assert line(g, "piles") == "4H 5H 6S | KD QC"
    assert line(g, "covers") is None, "a flipped card covers nothing: no race against it"
    assert g.legal_plays(0) == [(0, 0), (2, 1)]


def test_the_flip_is_refused_when_it_is_not_due() -> None:
    g = game(STALLING)
    flip = Flip(1.0)
    assert g.apply(flip) == [Rejected(None, flip, RejectReason.NOTHING_TO_FLIP)]


def test_when_both_are_ready_new_cards_are_flipped() -> None:
    """001: when nobody can or wants to play, both flip a new card."""
    g = game(STALLING)
    assert g.apply(ReadyToFlip(0, 1.0)) == [ReadyNoted(0)]
    assert line(g, "p1 state") == "ready"
    again = ReadyToFlip(0, 1.1)
    assert g.apply(again) == [Rejected(0, again, RejectReason.ALREADY)]
    assert g.apply(ReadyToFlip(1, 1.2)) == [ReadyNoted(1), FlipAgreed()]
    assert g.phase is Phase.WAITING_FLIP
    assert line(g, "p1 state") is None
    assert g.apply(Flip(2.0))[0] == Flipped((card("9S"), card("QC")), (0, 1), 2.0)


def test_a_play_withdraws_both_players_readiness() -> None:
    g = game(STALLING)
    g.apply(ReadyToFlip(1, 1.0))
    g.apply(Play(0, 0, 0, 1.1))
    assert line(g, "p2 state") is None


def test_a_flip_from_an_empty_draw_pile_takes_the_opponent_s_card() -> None:
    """000: if one has no draw pile left, the other hands over a card; 001: take one
    from the opponent's hand. The owner's own pile is served first."""
    g = game("""
        rules: standard
        phase: waiting
        p1 row: 3C | 6D | JD | AH
        piles: 4H | KD
        p2 row: 2D | 8D | 9D | TD
        p2 draw: 9C 5C
    """)
    assert g.apply(Flip(1.0)) == [Flipped((card("9C"), card("5C")), (1, 1), 1.0)]
    assert line(g, "piles") == "4H 9C | KD 5C"
    assert line(g, "p2 draw") == "-"


@pytest.mark.parametrize(
    ("owner", "flipped", "piles"),
    [
        (0, Flipped((card("9H"), None), (0, None), 1.0), "4H 9H | KD"),
        (1, Flipped((None, card("9H")), (None, 1), 1.0), "4H | KD 9H"),
    ],
)
def test_one_last_card_goes_on_its_owner_s_pile(owner: int, flipped: Flipped, piles: str) -> None:
    g = game(f"""
        rules: standard
        phase: waiting
        p1 row: 3D | 6D | JD | AH
        p{owner + 1} draw: 9H
        piles: 4H | KD
        p2 row: 2D | 8D | QD | TD
    """)
    assert g.apply(Flip(1.0)) == [flipped]
    assert line(g, "piles") == piles


def test_with_both_draw_piles_empty_each_player_takes_up_a_play_pile() -> None:
    """000: with no cards in hand and nobody able to play, each takes up a play pile."""
    g = game("""
        rules: standard
        phase: waiting
        p1 row: 3D | 6D | JD | AH
        piles: 4H 5C | KD QS
        p2 row: 2D | 8D | 9D | TD
    """)
    events = g.apply(Flip(1.0))
    assert events[0] == PilesRecycled((2, 2))
    flipped = events[1]
    assert isinstance(flipped, Flipped)
    assert flipped.sources == (0, 1)
    assert flipped.cards[0] in cards("4H 5C") and flipped.cards[1] in cards("KD QS")
    assert len(g.state.players[0].draw_pile) == len(g.state.players[1].draw_pile) == 1
    assert g.phase is Phase.PLAYING


def test_one_last_card_goes_to_an_empty_play_pile_first() -> None:
    g = game("""
        rules: standard
        phase: waiting
        p1 row: 3D | 6D | JD | AH
        p1 draw: 9H
        piles: 5C | -
        p2 row: 2D | 8D | QD | TD
    """)
    assert g.apply(Flip(1.0)) == [Flipped((None, card("9H")), (None, 0), 1.0)]
    assert line(g, "piles") == "5C | 9H"


def test_a_flip_that_shows_the_same_rank_twice_opens_stress() -> None:
    g = game(STALLING.replace("QC", "9D").replace("phase: playing", "phase: waiting"))
    assert g.apply(Flip(1.0)) == [
        Flipped((card("9S"), card("9D")), (0, 1), 1.0),
        StressOpened(1.0),
    ]


def test_a_flip_that_still_leaves_nobody_a_play_stalls_again() -> None:
    g = game("""
        rules: standard
        phase: waiting
        p1 row: 5H | 9C | JC | 2C
        p1 draw: 7S
        piles: 4H | KD
        p2 row: 2D | 3D | 4D | TD
        p2 draw: KC
    """)
    assert g.apply(Flip(1.0)) == [Flipped((card("7S"), card("KC")), (0, 1), 1.0), Stalled()]
    assert g.phase is Phase.WAITING_FLIP


def test_recycled_piles_are_flipped_before_they_refill_the_rows() -> None:
    """000: with no cards in hand and nobody able to play, each takes up a play pile "och
    fortsätter": the next flip comes from the taken piles, even when they are smaller than
    the gaps in the rows, and only then are the rows refilled."""
    g = game("""
        rules: standard
        phase: playing
        p1 row: 5H | QH | - | -
        piles: KS | 2D
        p2 row: 9C | - | - | -
    """)
    assert g.apply(Play(0, 1, 0, 1.0)) == [Played(0, 1, 0, cards("QH"), 1.0), Stalled()]
    events = g.apply(Flip(2.0))
    assert events[0] == PilesRecycled((2, 1))
    flipped, drawn = events[1], events[2]
    assert isinstance(flipped, Flipped) and isinstance(drawn, Drawn)
    assert flipped.cards[1] == card("2D")
    assert {flipped.cards[0], drawn.card} == set(cards("KS QH"))
    assert drawn.player == 0 and not drawn.stacked
    assert len(events) == 3
    assert g.phase is Phase.PLAYING, "a king on a queen or a queen on a king"


NO_CARD_TO_FLIP = """
    rules: standard
    phase: playing
    p1 row: 5H | 9C | - | -
    piles: 4H | KD
    p2 row: 2D | - | - | -
"""


def test_with_both_draw_piles_empty_ready_does_not_take_up_the_piles_while_a_card_fits() -> None:
    """000: "Saknar båda kort på hand och ingen kan lägga, tar spelarna upp var sin
    spelhög": the piles are taken up only when nobody can play. With no card to flip,
    saying ready does nothing while p1's five fits the four; once nobody can play, the
    piles are taken up."""
    g = game(NO_CARD_TO_FLIP)
    before = position(g)
    for player in (0, 1):
        ready = ReadyToFlip(player, 1.0)
        assert g.apply(ready) == [Rejected(player, ready, RejectReason.NO_CARD_TO_FLIP)]
    assert position(g) == before.replace("phase: playing", "phase: playing\ntime: 1")
    assert g.apply(Play(0, 0, 0, 2.0)) == [Played(0, 0, 0, cards("5H"), 2.0), Stalled()]
    assert g.apply(Flip(3.0))[0] == PilesRecycled((2, 1))


def test_with_one_draw_pile_left_ready_still_flips_although_a_card_fits() -> None:
    """001: "oder ein Spieler einen möglichen Zug nicht wahrnehmen will": there is a card
    to flip, so both saying ready flips it."""
    g = game(NO_CARD_TO_FLIP + "\np2 draw: 7C")
    assert g.apply(ReadyToFlip(0, 1.0)) == [ReadyNoted(0)]
    assert g.apply(ReadyToFlip(1, 1.1)) == [ReadyNoted(1), FlipAgreed()]


@pytest.mark.parametrize("deck", ["jass", "skat", "doppelkopf", "german"])
def test_in_001_s_decks_one_player_who_does_not_want_to_play_is_enough_to_flip(deck: str) -> None:
    """001: "Wenn keine Züge mehr möglich sind, oder ein Spieler einen möglichen Zug nicht
    wahrnehmen will, nehmen beide Spieler jeweils die oberste Karte ihrer Hand": one
    player's wish is enough, while p1's nine could still go on the ten."""
    g = game(f"""
        rules: {deck}
        phase: playing
        p1 row: 9H | - | -{" | -" if deck != "skat" else ""}
        p1 draw: AC
        piles: TH | KD
        p2 row: AD | - | -{" | -" if deck != "skat" else ""}
        p2 draw: QC
    """)
    assert g.legal_plays(0) == [(0, 0)]
    assert g.apply(ReadyToFlip(1, 1.0)) == [ReadyNoted(1), FlipAgreed()]
    assert g.phase is Phase.WAITING_FLIP


def test_with_the_standard_deck_one_ready_waits_for_the_other() -> None:
    """000 has no such flip: the flip is done together, so both say ready (our choice);
    `--flip-ready one` plays 001's rule with any deck."""
    position = NO_CARD_TO_FLIP + "\np2 draw: 7C"
    assert game(position).apply(ReadyToFlip(0, 1.0)) == [ReadyNoted(0)]
    one = game(position.replace("rules: standard", "rules: standard flip-ready=one"))
    assert one.apply(ReadyToFlip(0, 1.0)) == [ReadyNoted(0), FlipAgreed()]


DEAD = """
    rules: standard
    phase: waiting
    p1 row: 5H | {p1} | - | -
    piles: KS | 2D
    p2 row: 9C | - | - | -
"""


def test_a_table_that_no_flip_can_change_dies_and_the_round_is_drawn() -> None:
    """Our choice, where the seeds are silent: both draw piles are empty, each play pile
    holds one card and nobody can play, so every flip gives back the same table. After
    DEAD_FLIPS flips without a card played the round ends, drawn."""
    g = game(DEAD.format(p1="-"))
    now = 0.0
    for flips in range(1, DEAD_FLIPS + 1):
        now += 1.0
        assert g.apply(Flip(now)) == [
            PilesRecycled((1, 1)),
            Flipped((card("KS"), card("2D")), (0, 1), now),
            Stalled(),
        ]
        assert line(g, "flips") == str(flips)
    assert g.apply(Flip(now + 1)) == [TableDead((1, 1)), RoundDrawn(now + 1)]
    assert g.phase is Phase.ROUND_OVER
    assert g.winner is None
    assert line(g, "winner") == "none"


def test_a_dead_table_is_drawn_even_when_one_player_holds_fewer_cards() -> None:
    """000: "Den som först blivit av med alla sina kort ... har vunnit"; 001: "Der Spieler
    der die letzte Karte gelegt hat, ruft: "Sieg!". Damit beendet er das Spiel und ist Sieger
    dieser Runde." Only the last card wins a round: p2 holding one card fewer wins nothing."""
    g = game(DEAD.format(p1="7C") + "\nflips: " + str(DEAD_FLIPS))
    assert g.apply(Flip(1.0)) == [TableDead((2, 1)), RoundDrawn(1.0)]
    assert g.winner is None


def test_a_card_played_starts_the_count_of_flips_again() -> None:
    g = game("""
        rules: standard
        phase: playing
        flips: 5
        p1 row: 5H | 7C | - | -
        piles: 4S | 2D
        p2 row: 9C | - | - | -
    """)
    g.apply(Play(0, 0, 0, 1.0))
    assert g.state.flips == 0


STALE = """
    rules: standard
    phase: playing
    stale: {stale}
    p1 row: 5H | 7C | 8C | 6C
    p1 draw: 2C
    p1 state: fewest={fewest}
    piles: 4S | 2D
    p2 row: 9D | - | - | -
"""


def test_a_round_that_makes_no_progress_is_drawn_for_nobody() -> None:
    """000: "Den som först blivit av med alla sina kort ... har vunnit"; 001: "Der Spieler
    der die letzte Karte gelegt hat ... ist Sieger dieser Runde." Our choice, where the
    seeds are silent: after the rules' stale limit of plays in a row without a player
    coming down to fewer cards than they had ever held, the round is drawn. p1 once held 3
    cards and holds 5; the five leaves 4, no progress, and it is the last such play: p2,
    with one card, wins nothing, since nobody laid a last card."""
    limit = Rules.for_deck("standard").stale_limit
    g = game(STALE.format(stale=limit - 1, fewest=3))
    assert g.apply(Play(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, cards("5H"), 1.0),
        Drawn(0, 0, card("2C"), False),
        NoProgress((4, 1)),
        RoundDrawn(1.0),
    ]
    assert g.phase is Phase.ROUND_OVER
    assert line(g, "winner") == "none"


def test_the_stale_limit_is_ten_plays_for_every_card_dealt() -> None:
    """Our choice: the limit grows with the cards dealt, since a round's length does (a
    deck each, jokers); 100 plays, a fixed limit, drew one round in three of 001's game
    with four jokers."""
    assert Rules.for_deck("standard").stale_limit == 10 * 52
    assert Rules.for_deck("standard", deal="each", jokers=4).stale_limit == 10 * 112
    g = game(STALE.format(stale=98, fewest=3))
    g.apply(Play(0, 0, 0, 1.0))
    assert g.phase is Phase.PLAYING, "99 plays without progress: the round goes on"


def test_a_play_that_leaves_fewer_cards_than_ever_is_progress_and_starts_the_count_again() -> None:
    """p1 holds 5 and never held fewer: the five leaves 4, the fewest yet, so the round
    goes on and the count of plays without progress starts again."""
    g = game(STALE.format(stale=Rules.for_deck("standard").stale_limit - 1, fewest=5))
    assert g.apply(Play(0, 0, 0, 1.0)) == [
        Played(0, 0, 0, cards("5H"), 1.0),
        Drawn(0, 0, card("2C"), False),
    ]
    assert g.phase is Phase.PLAYING
    assert line(g, "stale") is None
    assert line(g, "p1 state") is None, "4 held is the fewest: not written"


def test_plays_without_progress_are_counted_and_flips_do_not_count_them_off() -> None:
    g = game(STALE.format(stale=5, fewest=3))
    g.apply(Play(0, 0, 0, 1.0))
    assert line(g, "stale") == "6"
    assert line(g, "p1 state") == "fewest=3"
    g.apply(Play(0, 1, 1, 2.0))  # the seven does not fit the two: a misplay is no play
    assert line(g, "stale") == "6"


def test_a_dealt_round_counts_each_player_s_share_as_the_fewest_yet() -> None:
    g = Game.deal(Rules.for_deck("standard"), random.Random(3))
    assert [p.fewest for p in g.state.players] == [26, 26]
    assert g.state.stale == 0


# --------------------------------------------------------------------------- jokers

JOKERS = """
    rules: jass jokers=2
    phase: playing
    p1 row: ** | 6C | 9C | QC
    p1 draw: AS
    piles: 7H | KD
    p2 row: 8D | AD | 6S | TS
    p2 draw: AH
"""


def test_a_joker_goes_on_anything_and_opens_stress() -> None:
    """001: a joker takes any value, so every joker played makes stress."""
    g = game(JOKERS)
    assert (0, 0) in g.legal_plays(0) and (0, 1) in g.legal_plays(0)
    assert g.apply(Play(0, 0, 1, 1.0)) == [
        Played(0, 0, 1, (JOKER_CARD,), 1.0),
        Drawn(0, 0, card("AS"), False),
        StressOpened(1.0),
    ]
    assert g.apply(CallStress(1, 1.2))[0] == StressWon(1, 0, 1.2)


def test_anything_goes_on_a_joker() -> None:
    g = game(JOKERS)
    g.apply(StopStress(1, 1.0))
    assert g.apply(Play(0, 0, 1, 1.1))[-1] == StressStopped(1)
    assert g.legal_plays(1) == [(0, 0), (0, 1), (1, 1), (2, 0), (2, 1), (3, 1)]
    assert g.apply(Play(1, 1, 1, 1.2))[0] == Played(1, 1, 1, cards("AD"), 1.2)


def test_a_flipped_joker_opens_no_stress_and_anything_goes_on_it() -> None:
    """001: "jedes Mal, wenn ein Joker gespielt wird, kann „Stress" gerufen werden": a
    joker *played* makes stress; one flipped had no player to give it a value ("Diese
    können einen beliebigen Wert annehmen"), so it lies on its pile as a wild card that
    anything fits, and calling stress on it is a false call."""
    g = game(JOKERS.replace("phase: playing", "phase: waiting").replace("AS", "**"))
    assert g.apply(Flip(1.0)) == [Flipped((JOKER_CARD, card("AH")), (0, 1), 1.0)]
    assert g.phase is Phase.PLAYING
    assert (2, 0) in g.legal_plays(0), "the nine goes on the flipped joker"
    assert g.apply(CallStress(1, 1.5))[0] == FalseStressCalled(1, g.rules.false_stress)


def test_two_equal_ranks_flipped_are_stress() -> None:
    """000: "Får de två spelhögarna samma valör överst gäller det att säga stress"; 001:
    "Wenn beide Stapel in der Mitte den gleichen Wert zeigen": however the ranks came there."""
    g = game(JOKERS.replace("phase: playing", "phase: waiting").replace("AS", "AC"))
    assert g.apply(Flip(1.0)) == [Flipped((card("AC"), card("AH")), (0, 1), 1.0), StressOpened(1.0)]


def test_a_stopped_joker_that_stays_on_top_does_not_reopen_stress_at_a_flip() -> None:
    """001: "jedes Mal, wenn ein Joker gespielt wird, kann „Stress" gerufen werden": a
    joker played opens stress. This one was played earlier and its stress stopped; the
    flip puts the one card left on p1's pile and leaves the joker on top of the other: no
    stress."""
    g = game("""
        rules: standard jokers=1
        phase: waiting
        p1 row: 3D | 6D | - | -
        p1 draw: 9H
        piles: 4H | KD **
        p2 row: 2D | 8D | - | -
    """)
    assert g.apply(Flip(1.0)) == [Flipped((card("9H"), None), (0, None), 1.0)]
    assert g.phase is Phase.PLAYING
    call = CallStress(1, 1.5)
    assert g.apply(call)[0] == FalseStressCalled(1, FalseStress.TAKE)


# --------------------------------------------------------------------------- the stress stop

STOP = """
    rules: jass
    phase: playing
    p1 row: 9H | 7H | QH | KH
    p1 draw: 6C
    piles: 9C | TD
    p2 row: TC | 8S | 6S | 7S
    p2 draw: AC QD
"""


def test_the_stress_stop_is_a_swiss_rule_off_elsewhere() -> None:
    g = game(STOP.replace("rules: jass", "rules: jass stress-stop=off"))
    stop = StopStress(0, 1.0)
    assert g.apply(stop) == [Rejected(0, stop, RejectReason.RULE_OFF)]


def test_a_stop_needs_a_card_of_the_opponent_that_would_make_stress() -> None:
    g = game(STOP.replace("9H |", "8H |"))
    assert g.stress_threats(0) == []
    assert g.stress_threats(1) == [(0, 0)]
    stop = StopStress(1, 1.0)
    assert g.apply(stop) == [Rejected(1, stop, RejectReason.NO_STRESS_THREAT)]


def test_a_declared_stop_cancels_the_stress_the_opponent_s_next_play_makes() -> None:
    """001 (Swiss): point at the card and say "if you lay it, it is stress": if the
    opponent lays it, play goes on without penalty."""
    g = game(STOP)
    assert g.apply(StopStress(0, 1.0)) == [StopDeclared(0)]
    assert line(g, "p1 state") == "stop=1", "it points at p2's ten, the one threat"
    again = StopStress(0, 1.1)
    assert g.apply(again) == [Rejected(0, again, RejectReason.ALREADY)]
    assert g.apply(Play(1, 0, 0, 2.0)) == [
        Played(1, 0, 0, cards("TC"), 2.0),
        Drawn(1, 0, card("QD"), False),
        StressStopped(0),
    ]
    assert g.phase is Phase.PLAYING
    assert line(g, "p1 state") is None


def test_the_stop_is_spent_on_the_opponent_s_next_play_whatever_it_is() -> None:
    g = game(STOP)
    g.apply(StopStress(0, 1.0))
    assert g.apply(Play(1, 1, 0, 2.0)) == [
        Played(1, 1, 0, cards("8S"), 2.0),
        Drawn(1, 1, card("QD"), False),
    ]
    assert line(g, "p1 state") is None
    g.apply(Play(0, 0, 0, 3.0))
    assert line(g, "piles") == "9C 8S 9H | TD"
    assert g.apply(Play(1, 0, 0, 4.0))[-1] == StressOpened(4.0)


def test_the_stop_covers_only_the_cards_that_were_a_threat_when_it_was_declared() -> None:
    """001 (Swiss): one stops a stress "indem man auf die potentielle Stress-Karte des
    Gegenüber zeigt", and "Sollte der Spieler nun diese Karte legen, geht das Spiel ohne
    Strafe weiter". p1 points at p2's ten (the one threat: a ten on the nine makes ten and
    ten), then plays an eight and a nine; p2's eight, no threat when the stop was declared,
    now makes stress, and the stop does not cover it."""
    g = game(STOP.replace("p1 row: 9H | 7H | QH | KH", "p1 row: 8H | 9H | QH | KH"))
    assert g.stress_threats(1) == [(0, 0)]
    g.apply(StopStress(0, 1.0))
    assert line(g, "p1 state") == "stop=1"
    g.apply(Play(0, 0, 0, 1.5))  # 8H on the nine: 8 | T
    g.apply(Play(0, 1, 1, 1.6))  # 9H on the ten: 8 | 9
    assert line(g, "piles") == "9C 8H | TD 9H"
    assert line(g, "p1 state") == "stop=1", "p1's own plays leave the stop standing"
    assert g.apply(Play(1, 1, 1, 2.0)) == [
        Played(1, 1, 1, cards("8S"), 2.0),
        Drawn(1, 1, card("QD"), False),
        StressOpened(2.0),
    ]
    assert line(g, "p1 state") is None


def test_a_stop_points_at_every_card_that_is_a_threat() -> None:
    """Two tens in p2's row, both stress on the nine: the stop points at both."""
    g = game(STOP.replace("p2 row: TC | 8S | 6S | 7S", "p2 row: TC | 8S | TS | 7S"))
    g.apply(StopStress(0, 1.0))
    assert line(g, "p1 state") == "stop=1,3"
    assert g.apply(Play(1, 2, 0, 2.0))[-1] == StressStopped(0)


# --------------------------------------------------------------------------- winning

WON = """
    rules: jass stacking=on
    phase: playing
    p1 row: - | 7H 7D | - | -
    piles: 6C | 7S
    p2 row: 8D | AD | 6S | TS
    p2 draw: AH
"""


def test_the_last_card_played_wins_the_round_and_nothing_can_be_called_after() -> None:
    """001: who lays the last card has won; from then on no stress can be called, not
    even the stress the last card made."""
    g = game(WON)
    assert g.apply(Play(0, 1, 0, 1.0)) == [Played(0, 1, 0, cards("7H 7D"), 1.0), RoundWon(0, 1.0)]
    assert g.phase is Phase.ROUND_OVER
    assert g.winner == 0
    assert line(g, "winner") == "p1"
    over = position(g)
    for action in (CallStress(1, 1.1), Play(1, 0, 1, 1.1), ReadyToFlip(1, 1.1), StopStress(1, 1.1)):
        assert g.apply(action) == [Rejected(1, action, RejectReason.ROUND_OVER)]
    flip = Flip(1.1)
    assert g.apply(flip) == [Rejected(None, flip, RejectReason.NOTHING_TO_FLIP)]
    assert position(g) == over.replace("time: 1\n", "time: 1.1\n")


def test_a_round_is_not_won_while_the_draw_pile_holds_cards() -> None:
    g = game(WON.replace("p1 row", "p1 draw: 8C\np1 row"))
    assert g.apply(Play(0, 1, 0, 1.0))[-1] != RoundWon(0, 1.0)
    assert g.phase is Phase.STRESS


@pytest.mark.parametrize("deck", list(DECKS))
def test_a_match_is_won_by_the_first_to_the_deck_s_number_of_round_wins(deck: str) -> None:
    """001: the Jass game is played to five wins."""
    match = Match(Rules.for_deck(deck), random.Random(1))
    wins = 5 if deck == "jass" else 3
    for _ in range(wins - 1):
        match.record(1)
        match.record(0)
    assert match.winner is None
    match.record(0)
    assert match.winner == 0
    assert match.score == [wins, wins - 1]


def test_every_round_of_a_match_is_a_new_deal() -> None:
    match = Match(Rules.for_deck("jass", wins=2), random.Random(1))
    first, second = match.new_round(), match.new_round()
    assert position(first) != position(second)


# --------------------------------------------------------------------------- malformed input

PLAYING = """
    rules: skat
    phase: playing
    time: 10
    p1 row: 8H | 9H | JH
    p1 draw: 7C
    piles: 7S | TD
    p2 row: 8C | 9C | JC
    p2 draw: 7D
"""


@pytest.mark.parametrize(
    "action",
    [
        Play(2, 0, 0, 10.0),
        Play(-1, 0, 0, 10.0),
        Play(True, 0, 0, 10.0),
        PlayTogether(2, 0, 0, 10.0),  # laying together is off here: refused all the same
        CallStress(2, 10.0),
        ReadyToFlip(-1, 10.0),
        StopStress(5, 10.0),
    ],
)
def test_an_action_of_no_such_player_raises(action: Action) -> None:
    g = game(PLAYING)
    before = position(g)
    with pytest.raises(NoSuchPlayerError):
        g.apply(action)
    assert position(g) == before


@pytest.mark.parametrize(
    "action",
    [
        Play(0, 3, 0, 10.0),
        Play(0, -1, 0, 10.0),
        Play(0, 0, 2, 10.0),
        Play(1, 0, -1, 10.0),
        Play(0, 1.0, 0, 10.0),  # type: ignore[arg-type]
        PlayTogether(0, 3, 0, 10.0),  # laying together is off here: refused all the same
    ],
)
def test_a_play_from_or_to_no_such_pile_raises(action: Action) -> None:
    g = game(PLAYING)
    before = position(g)
    with pytest.raises(NoSuchPileError):
        g.apply(action)
    assert position(g) == before


@pytest.mark.parametrize(
    "action",
    [
        Play(0, 0, 0, 9.5),
        CallStress(0, 0.0),
        Flip(9.99),
        Play(0, 0, 0, math.nan),
        ReadyToFlip(0, math.inf),
        CallStress(1, "11"),  # type: ignore[arg-type]
    ],
)
def test_time_running_back_or_not_a_number_raises(action: Action) -> None:
    g = game(PLAYING)
    before = position(g)
    with pytest.raises(MalformedActionError):
        g.apply(action)
    assert position(g) == before


def test_a_player_number_that_is_not_a_whole_number_raises_no_such_player() -> None:
    """1.0 equals 1 but is not a player number: a replay read from JSON may hold one."""
    g = game(PLAYING)
    before = position(g)
    with pytest.raises(NoSuchPlayerError):
        g.apply(CallStress(1.0, 11.0))  # type: ignore[arg-type]
    assert position(g) == before


@pytest.mark.parametrize("action", [Play(0, True, 0, 10.0), Play(0, 0, True, 10.0)])
def test_a_bool_is_not_a_pile_number(action: Action) -> None:
    """``True`` equals 1 but is not a pile number (as it is not a player number)."""
    g = game(PLAYING)
    with pytest.raises(NoSuchPileError):
        g.apply(action)


def test_something_that_is_not_an_action_raises_and_changes_nothing() -> None:
    """Not even the time moves on."""
    g = game(PLAYING)
    before = position(g)
    with pytest.raises(MalformedActionError):
        g.apply(Played(0, 0, 0, (), 11.0))  # type: ignore[arg-type]
    assert position(g) == before


# --------------------------------------------------------------------------- rejections

_RACED = """
    rules: standard lockout=0
    phase: playing
    time: 10
    p1 row: 3S | 6S | 8S | -
    p1 state: ready
    piles: 4H 5C | QD
    covers: p2 10 4 | -
    p2 row: 2D | 9D | 8D | -
"""
_LOCKED = _RACED.replace("p1 state: ready", "p1 state: locked-until=10.5")
_WAITING = _RACED.replace("phase: playing", "phase: waiting")
_OPEN = _RACED.replace("phase: playing", "phase: stress")
_OVER = _RACED.replace("phase: playing", "phase: over\nwinner: p2")
_SWISS = """
    rules: jass
    phase: playing
    time: 10
    p1 row: 7S | 6S | 8S | -
    p1 state: stop
    piles: 9H | QD
    p2 row: AD | 9D | 6D | -
"""


@pytest.mark.parametrize(
    ("text", "action", "reason"),
    [
        (_RACED, Play(0, 2, 0, 10.0), RejectReason.NOT_ADJACENT),
        (_RACED, Play(0, 3, 0, 10.0), RejectReason.EMPTY_PILE),
        (_RACED, Play(0, 0, 0, 10.0), RejectReason.LOST_RACE),
        (_LOCKED, Play(0, 1, 0, 10.0), RejectReason.LOCKED_OUT),
        (_OPEN, Play(0, 1, 0, 10.0), RejectReason.STRESS_OPEN),
        (_WAITING, Play(0, 1, 0, 10.0), RejectReason.NOT_PLAYING),
        (_OVER, Play(0, 1, 0, 10.0), RejectReason.ROUND_OVER),
        (_WAITING, CallStress(1, 10.0), RejectReason.TOO_LATE),
        (_OVER, CallStress(1, 10.0), RejectReason.ROUND_OVER),
        (_RACED, ReadyToFlip(0, 10.0), RejectReason.ALREADY),
        (_RACED, ReadyToFlip(1, 10.0), RejectReason.NO_CARD_TO_FLIP),
        (_OPEN, ReadyToFlip(1, 10.0), RejectReason.STRESS_OPEN),
        (_RACED, StopStress(1, 10.0), RejectReason.RULE_OFF),
        (_SWISS, StopStress(0, 10.0), RejectReason.ALREADY),
        (_SWISS, StopStress(1, 10.0), RejectReason.NO_STRESS_THREAT),
        (_SWISS.replace("playing", "waiting"), StopStress(1, 10.0), RejectReason.NOT_PLAYING),
        (_RACED, Flip(10.0), RejectReason.NOTHING_TO_FLIP),
    ],
)
def test_an_illegal_action_changes_nothing(text: str, action: Action, reason: RejectReason) -> None:
    g = game(text)
    before = position(g)
    player = None if isinstance(action, Flip) else action.player
    assert g.apply(action) == [Rejected(player, action, reason)]
    assert position(g) == before
