"""Golden counts, as chess engines do "perft": at fixed positions, exactly which plays the
rules allow each player, and which of them would make stress. Every expected list was
worked out by hand from the rules (the reasoning is beside each position); a change to
what the rules allow shows up here first.

Plays are (row pile, play pile); play pile 0 is the left, 1 the right."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.conftest import game

Plays = list[tuple[int, int]]


@dataclass(frozen=True)
class Golden:
    """A position and what the rules allow in it."""

    name: str
    """What the position shows."""
    text: str
    """The position in notation."""
    plays: tuple[Plays, Plays]
    """Every legal play of player 1 and of player 2, in ``legal_plays`` order."""
    threats: tuple[Plays, Plays]
    """The plays among them that would make stress."""


GOLDEN = [
    Golden(
        "standard: the ace goes on the two, a stack of threes, the king on the queen",
        """
        rules: standard
        phase: playing
        p1 row: AS | 3C 3D | 9H | KC
        piles: 2H | QD
        p2 row: 2S | JD | TC | 4S
        """,
        # p1: A on 2 (wrap); 3 on 2; 9 on neither; K on Q, not on 2 (K's neighbours: Q, A).
        # p2: 2 never on 2; J on Q; T on neither; 4 not on 2 (3 and 5) nor on Q.
        ([(0, 0), (1, 0), (3, 1)], [(1, 1)]),
        # No card would show 2 next to 2 or Q next to Q.
        ([], []),
    ),
    Golden(
        "standard, wrap off: the ace and the two are strangers",
        """
        rules: standard wrap=off
        phase: playing
        p1 row: AS | 3C | KC | 2D
        piles: 2H | AD
        p2 row: KS | QD | 3S | 2S 2C
        """,
        # Without the wrap an ace takes only a king, a two only a three.
        # p1: A on 2? no; 3 on 2; K on A; 2 on A? no.
        # p2: K on A; Q on neither; 3 on 2; the twos on neither.
        ([(1, 0), (2, 1)], [(0, 1), (2, 0)]),
        ([], []),
    ),
    Golden(
        "jass, stacking on: the ace wraps to the six; a stack of three sixes",
        """
        rules: jass stacking=on
        phase: playing
        p1 row: 6C 6D 6H | AS | 8C | TH
        piles: AH | 9D
        p2 row: KC | 7S | JS | QS
        """,
        # Jass runs 6..A, so the ace's neighbours are K and 6.
        # p1: sixes on A; A on neither; 8 on 9; T on 9.
        # p2: K on A; 7 not on A (only 6 wraps) nor on 9; J and Q on neither.
        ([(0, 0), (2, 1), (3, 1)], [(0, 0)]),
        ([], []),
    ),
    Golden(
        "jass with jokers, wrap off, stacking: a joker goes on both piles and makes stress on both",
        """
        rules: jass jokers=2 stacking=on wrap=off
        phase: playing
        p1 row: ** | 6S | KH | 7D
        piles: AC | 6H
        p2 row: ** | AS | 9S | 8S 8H
        """,
        # Wrap off: A takes only K, 6 takes only 7.
        # p1: joker on both; 6 on neither; K on A; 7 on 6.
        # p2: joker on both; A on neither; 9 and the eights on neither.
        ([(0, 0), (0, 1), (2, 0), (3, 1)], [(0, 0), (0, 1)]),
        # Every joker played opens stress; K on A leaves K|6 and 7 on 6 leaves A|7.
        ([(0, 0), (0, 1)], [(0, 0), (0, 1)]),
    ),
    Golden(
        "skat, stacking on: rows of three, the ace wraps to the seven",
        """
        rules: skat stacking=on
        phase: playing
        p1 row: 7C 7D | AH | 8S
        piles: AS | 8H
        p2 row: KD | 9C | 7S
        """,
        # Skat runs 7..A: A's neighbours are K and 7; 8's are 7 and 9.
        # p1: sevens on A and on 8; A on neither; 8 on neither (never on its own rank).
        # p2: K on A; 9 on 8; 7 on A and on 8.
        ([(0, 0), (0, 1)], [(0, 0), (1, 1), (2, 0), (2, 1)]),
        # A 7 on A leaves 7|8, on 8 leaves A|7; K on A leaves K|8; 9 on 8 leaves A|9.
        ([], []),
    ),
    Golden(
        "skat, wrap off, stacking off: a row with nothing to play, an empty place",
        """
        rules: skat wrap=off
        phase: playing
        p1 row: 7C | 7D | -
        piles: AS | 7H
        p2 row: 8D | - | KH
        """,
        # Wrap off: A takes only K, 7 takes only 8. p1's sevens go nowhere.
        # p2: 8 on 7; K on A.
        ([], [(0, 1), (2, 0)]),
        ([], []),
    ),
    Golden(
        "doppelkopf, stacking on: every card twice, stacked pairs, stress threats on both sides",
        """
        rules: doppelkopf stacking=on
        phase: playing
        p1 row: 9C 9C | TD TD | AH | QS
        piles: AS | KH
        p2 row: KC KC | JD | 9H 9H | TS
        """,
        # Doppelkopf runs 9..A: A's neighbours are K and 9.
        # p1: nines on A; tens on neither; A on K; Q on K.
        # p2: kings on A; J on neither; nines on A; T on neither.
        ([(0, 0), (2, 1), (3, 1)], [(0, 0), (2, 0)]),
        # p1's A on K shows A|A; p2's kings on A show K|K. The rest show two ranks.
        ([(2, 1)], [(0, 0)]),
    ),
    Golden(
        "doppelkopf, joker on top (after a stress stop), wrap off: anything goes on it",
        """
        rules: doppelkopf jokers=1 stacking=on wrap=off
        phase: playing
        p1 row: AC AC | 9D | KS | -
        piles: ** | 9S
        p2 row: TH TH | JC | QC | AD
        """,
        # Everything goes on the joker. Wrap off: 9 takes only T.
        # p1: aces, 9 and K on the joker only (9 never on 9; A not on 9 without the wrap).
        # p2: tens on both; J, Q, A on the joker only.
        ([(0, 0), (1, 0), (2, 0)], [(0, 0), (0, 1), (1, 0), (2, 0), (3, 0)]),
        # p1's 9 on the joker leaves 9|9; p2's tens on 9 leave the joker beside them,
        # which is not a play of a joker: no stress.
        ([(1, 0)], []),
    ),
    Golden(
        "standard, each deck dealt, jokers: stress is open, nobody may play",
        """
        rules: standard deal=each jokers=2
        phase: stress
        p1 row: 5H 5H | ** | KS | -
        piles: 7C | 7C
        p2 row: 6D | 8D | ** | -
        """,
        ([], []),
        ([], []),
    ),
    Golden(
        "the same table while playing (a stopped stress): jokers and neighbours of seven",
        """
        rules: standard deal=each jokers=2
        phase: playing
        p1 row: 5H 5H | ** | KS | -
        piles: 7C | 7C
        p2 row: 6D | 8D | ** | -
        """,
        # p1: fives and K fit no 7; the joker goes on both.
        # p2: 6 and 8 go on both sevens; the joker on both.
        ([(1, 0), (1, 1)], [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]),
        # Only the jokers make stress: a 6 or an 8 leaves a 7 beside it.
        ([(1, 0), (1, 1)], [(2, 0), (2, 1)]),
    ),
    Golden(
        "standard, one play pile empty (one last card was flipped): nothing goes on it",
        """
        rules: standard
        phase: playing
        p1 row: - | 4C | - | TD
        piles: 5S | -
        p2 row: 6H 6C | 3D | JC | 9S
        """,
        # p1: 4 on 5. p2: sixes on 5; 3, J, 9 on nothing.
        ([(1, 0)], [(0, 0)]),
        ([], []),
    ),
    Golden(
        "waiting for the flip: nobody may play",
        """
        rules: jass
        phase: waiting
        p1 row: 7H | 8H | TH | QH
        piles: 9C | JD
        p2 row: 8C | TC | QC | KC
        """,
        ([], []),
        ([], []),
    ),
]


@pytest.mark.parametrize("golden", GOLDEN, ids=[g.name for g in GOLDEN])
def test_legal_plays_at_golden_positions(golden: Golden) -> None:
    g = game(golden.text)
    assert (g.legal_plays(0), g.legal_plays(1)) == golden.plays
    assert [len(g.legal_plays(p)) for p in (0, 1)] == [len(p) for p in golden.plays]


@pytest.mark.parametrize("golden", GOLDEN, ids=[g.name for g in GOLDEN])
def test_stress_threats_at_golden_positions(golden: Golden) -> None:
    g = game(golden.text)
    assert (g.stress_threats(0), g.stress_threats(1)) == golden.threats


@pytest.mark.parametrize("golden", GOLDEN, ids=[g.name for g in GOLDEN])
def test_can_play_agrees_with_the_golden_lists(golden: Golden) -> None:
    g = game(golden.text)
    size = g.rules.row_size
    for player, plays in enumerate(golden.plays):
        allowed = [(i, t) for i in range(size) for t in (0, 1) if g.can_play(player, i, t)]
        assert allowed == plays


def test_the_golden_total() -> None:
    """One number for the whole set, like a perft count: 49 legal plays."""
    games = [game(golden.text) for golden in GOLDEN]
    assert sum(len(g.legal_plays(p)) for g in games for p in (0, 1)) == 49
