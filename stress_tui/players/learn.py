"""The practice (``stress-tui learn``): a deal laid out so that every lesson happens, the
lessons in order, and the slow computer that waits while they are learnt.

The deal (``DEAL``, in notation) gives the person, at each lesson, exactly one kind of play
(and no other): a card one rank up, one down, an ace on a king or a two, the card that
makes stress; then, after the stress and its flip, no card that fits while the computer
has one, so that the ready key is what brings new cards. ``Lessons`` follows the round's
events and says which lesson is on (``step``) and the play it asks for (``play``); a
lesson whose play the position no longer allows (a false stress took the piles) gives
way to the next that can still happen, down to playing the round out.

``Tutor`` is the computer: while lessons are on it plays nothing and calls nothing, and it
says ready when the person does (the ready lesson's flip); then it plays as a ``Bot`` at
``SLOW``, slower than the easy level.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable

from stress_tui.core.actions import Action, ReadyToFlip
from stress_tui.core.cards import Card
from stress_tui.core.decks import ACE
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import Event, Flipped, Played, StressWon
from stress_tui.core.legal import makes_stress
from stress_tui.core.text import N_
from stress_tui.core.view import PlayerView
from stress_tui.players.bot import Bot, Level

PERSON = 0
"""The person's side (player 1: at the bottom of the screen, as against any computer)."""

COMPUTER_SIDE = 1 - PERSON
"""The computer's side."""

SEED = 29
"""Seeds the round's random source (the shuffle of the piles the slower takes) and the
computer's: the practice is the same every time, up to the person's own timing."""

DEAL = (
    "rules: standard wins=1; phase: playing;"
    " p1 row: 6C | KH | 8D | TS;"
    " p1 draw: 9S 5C JH 4H 7S QD 9H AC AD 2S;"
    " piles: QS | 3H;"
    " p2 row: JC | 5S | 7D | 4S;"
    " p2 draw: 8S QH 2D 9C 5D 3C"
)
"""The practice's deal, one round won wins it. The person's K goes up on the Q; the 2 drawn
into its place goes down on the 3; the ace drawn next goes on the K or the 2; the second
ace on the other pile makes stress (A and A). The computer takes both piles; the flip
shows Q and 3, where none of the person's 6, 9, 8, 10 fits and the computer's J and 4 do:
the person's ready key, and the computer's, flip 7 and 5, and the round is played out.
The 6, 8 and 10 fit no top before then."""

SLOW = Level(
    N_("slow"),
    look=2.0,
    chain=1.4,
    surprise=1.5,
    call=1.0,
    anticipated_call=1.0,
    sigma=0.3,
    miss=0.3,
    false_call=0.0,
    chains=False,
    stacks=False,
    blocks=False,
    makes_stress=False,
    stops=False,
)
"""The practice's computer once the lessons are done: about twice as slow as the easy
level, overlooking a play in three, never making stress or stopping it."""

PLAYERS = ("human", f"bot:{SLOW.name}")
"""Who plays the practice: the person, and the slow computer."""

READY_DELAY = 0.6
"""Seconds after the person's ready key that the computer says it is ready too."""


class Step(enum.Enum):
    """A lesson, in the order they come."""

    START = "start"
    """Say ready: the round starts."""
    UP = "up"
    """Play a card one rank up."""
    DOWN = "down"
    """Play a card one rank down (after a card came from the draw pile into the gap)."""
    WRAP = "wrap"
    """Play an ace on a king or a two (or either on an ace)."""
    MAKE_STRESS = "make-stress"
    """Play the card that makes both piles show one rank."""
    CALL_STRESS = "call-stress"
    """Stress is open: hit the stress key first."""
    TAKEN = "taken"
    """The slower took both piles: new cards come by themselves."""
    READY = "ready"
    """No card fits: say ready for new cards."""
    PLAY_OUT = "play-out"
    """The lessons are done: play the round out against the slow computer."""


PLAYS = (Step.UP, Step.DOWN, Step.WRAP, Step.MAKE_STRESS)
"""The lessons that ask for a play."""


def kind_of(card: Card, top: Card | None, other: Card | None) -> Step | None:
    """Which lesson's play it is to lay ``card`` on ``top`` beside ``other`` (the other
    pile's top); ``None``: none of them (a play no lesson asks for, an empty pile)."""
    if top is None:
        return None
    if makes_stress(card, other):
        return Step.MAKE_STRESS
    if ACE in (card.rank, top.rank):
        return Step.WRAP
    if card.rank == top.rank + 1:
        return Step.UP
    if card.rank == top.rank - 1:
        return Step.DOWN
    return None


class Lessons:
    """Which lesson is on, from the round's events (``note``), and the play it asks for."""

    def __init__(self) -> None:
        self.step = Step.START
        """The lesson on now."""

    @property
    def done(self) -> bool:
        """Whether every lesson has been learnt (the round is played out now)."""
        return self.step is Step.PLAY_OUT

    def started(self, game: Game) -> None:
        """The round has started (the person said ready): the first lesson."""
        if self.step is Step.START:
            self.step = Step.UP
            self.settle(game)

    def note(self, happened: Iterable[Event], game: Game) -> None:
        """The round's events (just applied to ``game``): a lesson done gives way to the
        next."""
        step = self.step
        for event in happened:
            if step in PLAYS and isinstance(event, Played) and event.player == PERSON:
                step = _after(step)
            elif step is Step.CALL_STRESS and isinstance(event, StressWon):
                step = Step.TAKEN
            elif step in (Step.TAKEN, Step.READY) and isinstance(event, Flipped):
                step = _after(step)
        self.step = step
        self.settle(game)

    def settle(self, game: Game) -> None:
        """Pass over the lessons the position can no longer give (each waits while the
        round is not being played: a count, a stress)."""
        while True:
            phase = game.state.phase
            step = self.step
            if step is Step.MAKE_STRESS and phase is Phase.STRESS:
                self.step = Step.CALL_STRESS  # a stress made another way is one to call
                continue
            if phase is not Phase.PLAYING:
                return
            if step in PLAYS and self.play(game) is None:
                self.step = _after(step)
            elif step in (Step.CALL_STRESS, Step.TAKEN):
                # Stress called and new cards flipped: past those lessons.
                self.step = Step.READY
            elif step is Step.READY and (
                game.legal_plays(PERSON) or not game.legal_plays(COMPUTER_SIDE)
            ):
                self.step = Step.PLAY_OUT
            else:
                return

    def play(self, game: Game) -> tuple[int, int] | None:
        """The play the lesson on asks for: (row pile, play pile), the first the rules
        allow the person of the lesson's kind (``None``: none, or no lesson asks for a
        play)."""
        if self.step not in PLAYS:
            return None
        state = game.state
        tops = [pile[-1] if pile else None for pile in state.play_piles]
        row = state.players[PERSON].row
        for pile, target in game.legal_plays(PERSON):
            card = row[pile][0]
            if kind_of(card, tops[target], tops[1 - target]) is self.step:
                return pile, target
        return None


def _after(step: Step) -> Step:
    """The lesson after ``step``."""
    steps = list(Step)
    return steps[min(steps.index(step) + 1, len(steps) - 1)]


class Tutor:
    """The practice's computer (a table's ``Driver``): still while the lessons are on
    (ready when the person is, in the ready lesson only: a flip asked for earlier would
    use up the cards the lessons deal); then a ``Bot`` at ``SLOW``."""

    def __init__(self, lessons: Lessons, rng: random.Random) -> None:
        self.player = COMPUTER_SIDE
        self.lessons = lessons
        """The lessons it waits for."""
        self.bot = Bot(COMPUTER_SIDE, SLOW, rng)
        """How it plays once they are done."""

    def decide(self, view: PlayerView) -> Action | None:
        if self.lessons.done:
            return self.bot.decide(view)
        table = view.table
        person, me = table.sides[PERSON], table.sides[COMPUTER_SIDE]
        if (
            self.lessons.step is Step.READY
            and table.phase is Phase.PLAYING
            and person.ready
            and not me.ready
        ):
            return ReadyToFlip(COMPUTER_SIDE, table.time + READY_DELAY)
        return None
