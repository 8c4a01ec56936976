"""The values of the house rules: each choice's words as an enum (the deal, the stress
penalty, where taken cards go, the false-stress penalty, who says ready to flip), the
sections their sentences go in, and the engine's fixed limits that the rule texts say
(a dead table, a round without progress). ``core/houserules.py`` declares the rules.
"""

from __future__ import annotations

import enum

DEAD_FLIPS = 12
"""Flips in a row without a card played after which the table is dead and the round is
drawn: some positions (one card left on each pile, nothing fits, or the same card flipped
back into the same stress) would otherwise repeat for ever."""

STALE_PLAYS_PER_CARD = 10
"""Plays in a row without progress, for every card dealt, after which the round is drawn
(``Rules.stale_limit``: 520 with the standard deck split): a play is progress when it
leaves its player with fewer cards (draw pile and row) than they had ever held before in
the round. Long rounds are no loop: every stress hands the middle back to one player, so
the cards held wander up and down, the more so the more cards are dealt and the more
stresses jokers open; measured with ``stress-tui sim``, bot:normal against bot:normal, the
longest such run was under 6 plays a card dealt with four jokers and a deck each
(``docs/rules.md``). The limit only stops a round that would never end."""


class Deal(str, enum.Enum):
    """How the cards reach the players."""

    SPLIT = "split"
    """One shuffled deck is halved (000, Swedish)."""
    EACH = "each"
    """Every player shuffles a full deck of their own (001, German)."""


class StressPenalty(str, enum.Enum):
    """What the slower player gets when stress is won."""

    BOTH = "both"
    """The slower takes both play piles (000 and 001: the common rule)."""
    ONE = "one"
    """The slower takes only one pile, the smaller (000, documented variant)."""
    GIVE = "give"
    """The faster hands one pile to the slower, the larger (000, documented variant)."""


class Taken(str, enum.Enum):
    """Where the cards a player has to take up go (after a stress lost or a false call)."""

    UNDER = "under"
    """Shuffled and put under the draw pile: the cards one was about to draw stay next
    (000: "Blanda alltid de kort du tvingas ta upp innan du lägger dem i plockhögen")."""
    MIXED = "mixed"
    """Shuffled together with the whole draw pile (001: "welche er zu seinen Karten in der
    Hand dazumischen muss")."""


class FalseStress(str, enum.Enum):
    """What calling stress costs when there is no stress."""

    TAKE = "take"
    """The caller takes both play piles (001, Strafen)."""
    IGNORE = "ignore"
    """Nothing happens (001's Swiss sentence read as forgiving every false call)."""
    LOCKOUT = "lockout"
    """The caller may not play for the lockout time (our choice, a milder penalty)."""


class FlipReady(str, enum.Enum):
    """Who must say ready to flip new cards while a card could still be played."""

    BOTH = "both"
    """Both players (the flip is done together)."""
    ONE = "one"
    """One is enough (001: "oder ein Spieler einen möglichen Zug nicht wahrnehmen will")."""


class Section(enum.Enum):
    """Where a rule's sentences go among the rules in words (``rulestext.plain_words``)."""

    CARDS = enum.auto()
    """The deck and the deal."""
    ROW = enum.auto()
    """The row in front of each player."""
    PLAY = enum.auto()
    """Playing a card."""
    STRESS = enum.auto()
    """Stress and calling it."""
    MATCH = enum.auto()
    """Winning a round and the match."""
