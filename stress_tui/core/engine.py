"""The rules engine: a position, and the game that applies actions to it and answers with
events (the actions are ``core/actions.py``'s, the events ``core/events.py``'s); a match
of rounds.

Pure and deterministic: no terminal, no clock, no global random. Time arrives on every
action as a number of seconds; the shuffle comes from the ``random.Random`` the caller
gives. The same rules, seed and timed actions always give the same events.

Players are numbered 0 and 1 (``p1`` and ``p2`` in the notation); play piles 0 (left)
and 1 (right). Player 0 flips onto the left pile, player 1 onto the right.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import isfinite
from typing import Any

from stress_tui.core.actions import (
    Action,
    CallStress,
    Flip,
    MalformedActionError,
    NoSuchPileError,
    Play,
    PlayTogether,
    ReadyToFlip,
    StopStress,
)
from stress_tui.core.decks import JOKER
from stress_tui.core.events import (
    Event,
    LockedOut,
    NoProgress,
    Played,
    RejectReason,
    RoundWon,
    Stalled,
    StressOpened,
    StressStopped,
)
from stress_tui.core.flips import Flips
from stress_tui.core.houserules import Deal
from stress_tui.core.position import (
    _PLAYING,
    _ROUND_OVER,
    _STRESS,
    _WAITING_FLIP,
    PLAYERS,
    UNCOUNTED,
    Cover,
    InvalidPositionError,
    Phase,
    PlayerState,
    State,
)
from stress_tui.core.round import _EMPTY, no_such_player
from stress_tui.core.rules import Rules
from stress_tui.core.stresses import Stresses
from stress_tui.core.words import N_

__all__ = [
    "PLAYERS",
    "RULES_VERSION",
    "UNCOUNTED",
    "Cover",
    "Game",
    "InvalidPositionError",
    "Match",
    "Phase",
    "PlayerState",
    "State",
]

RULES_VERSION = 7
"""Which rules this engine plays, raised whenever the same seed and timed actions could give
other events or another final position. A replay records it; ``docs/replays.md`` lists what
each version changed."""


class Game(Stresses, Flips):
    """A round of Stress: a position and the random source for its shuffles, applying
    actions and answering with events. Playing a card is here; calling stress and the stop
    are ``Stresses``' (``core/stresses.py``), saying ready and the flip ``Flips``'
    (``core/flips.py``), the queries ``Round``'s (``core/round.py``)."""

    def copy(self) -> Game:
        """A copy at the same position with the same random state: the same actions give
        the same events on both, and neither changes the other.

        >>> game = Game.deal(Rules.for_deck("jass"), random.Random(1))
        >>> twin = game.copy()
        >>> game.apply(Flip(0.0)) == twin.apply(Flip(0.0))
        True
        >>> happened = twin.apply(ReadyToFlip(0, 0.5))
        >>> game.state.time, twin.state.time, game.state.players[0].ready
        (0.0, 0.5, False)
        """
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return Game(self.state.copy(), rng)

    @classmethod
    def deal(cls, rules: Rules, rng: random.Random) -> Game:
        """Shuffle, deal and fill both rows; the round waits for the first flip."""
        if rules.deal is Deal.EACH:
            shares = []
            for _ in PLAYERS:
                deck = rules.spec.cards(rules.jokers)
                rng.shuffle(deck)
                shares.append(deck)
        else:
            deck = rules.spec.cards(rules.jokers)
            rng.shuffle(deck)
            half = (len(deck) + 1) // 2
            shares = [deck[:half], deck[half:]]
        players = (
            PlayerState(shares[0], [[] for _ in range(rules.row_size)], fewest=len(shares[0])),
            PlayerState(shares[1], [[] for _ in range(rules.row_size)], fewest=len(shares[1])),
        )
        game = cls(State(rules, players, ([], [])), rng)
        for player in PLAYERS:
            game._refill(player, None)  # nobody sees the deal's draws: no event for them
        return game

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; return what happened. Illegal actions change nothing and
        come back as ``Rejected``; malformed ones raise ``MalformedActionError`` and
        change nothing either. The time is judged here, the rest of an action by its
        kind's handler, before it changes anything (a play's player and piles where it
        reads them)."""
        try:
            handler = _HANDLERS[type(action)]
        except KeyError:
            raise MalformedActionError(N_("not an action: {action}"), action=repr(action)) from None
        time = action.time
        # ``isfinite`` refuses an int too large for a float (a bool is neither here).
        if (type(time) is not float and type(time) is not int) or not isfinite(time):
            raise MalformedActionError(
                N_("time must be a finite number, not {time}"), time=repr(time)
            )
        state = self.state
        if time < state.time:
            raise MalformedActionError(
                N_("time runs back: {time} after {before}"), time=time, before=state.time
            )
        happened = handler(self, action)
        state.time = time
        return happened

    def _play(self, action: Play, together: bool = False) -> list[Event]:
        player, pile, target, time = action.player, action.pile, action.target, action.time
        if type(player) is not int or player not in PLAYERS:
            raise no_such_player(player)
        if type(pile) is not int or not 0 <= pile < self._row_size:
            raise NoSuchPileError(
                N_("no row pile {pile} (row piles are 0..{last})"),
                pile=repr(pile),
                last=self._row_size - 1,
            )
        if type(target) is not int or target not in (0, 1):
            raise NoSuchPileError(
                N_("no play pile {target} (play piles are 0 and 1)"), target=repr(target)
            )
        if together and not self.rules.together:
            return self._reject(action, RejectReason.RULE_OFF)
        state = self.state
        if state.phase is not _PLAYING:
            return self._reject(action, self._phase_reason() or RejectReason.NOT_PLAYING)
        players = state.players
        me = players[player]
        if time < me.locked_until:
            return self._reject(action, RejectReason.LOCKED_OUT)
        row = me.row
        row_pile = row[pile]
        if not row_pile:
            return self._misplay(action, RejectReason.EMPTY_PILE)
        rank = row_pile[0].rank
        fits = self.rules.fits
        under = state.tops[target]
        if under is None or rank not in fits[under.rank]:
            # Too late rather than wrong: it fits a card the opponent covered less than
            # the race window ago, after this player's own last play there (a card one
            # covered oneself, one had seen covered).
            window = self.rules.race_window
            for who, when, covered in reversed(state.covers[target]):
                if who == player or time - when > window:
                    break
                if rank in fits[covered]:
                    return self._reject(action, RejectReason.LOST_RACE)
            return self._misplay(action, RejectReason.NOT_ADJACENT)

        cards = tuple(row_pile)
        covers = state.covers[target]
        if covers:
            # Covers older than the window before now can matter to no later play.
            window = self.rules.race_window
            while covers and time - covers[0][1] > window:  # the oldest's time
                del covers[0]
        covers.append((player, time, under.rank))
        on = state.play_piles[target]
        on += cards
        state.tops[target] = cards[-1]
        row[pile] = []
        me.shown[pile] = None
        state.flips = 0
        happened: list[Event] = [Played(player, pile, target, cards, time)]
        if together and rank != JOKER:
            # 001, Stapel: the other ready cards of the rank go down at the same time.
            for place, others in enumerate(row):
                if others and others[0].rank == rank:
                    laid = tuple(others)
                    on += laid
                    state.tops[target] = laid[-1]
                    row[place] = []
                    me.shown[place] = None
                    happened.append(Played(player, place, target, laid, time))
                    cards = laid
        self._refill(player, happened)
        one, two = players
        one.ready = two.ready = False
        held = len(me.draw_pile)
        for heap in row:
            held += len(heap)
        if held < me.fewest:  # progress: fewer cards than this player ever held
            me.fewest = held
            state.stale = 0
            if not held:
                state.phase = _ROUND_OVER
                state.winner = player
                happened.append(RoundWon(player, time))
                return happened
        else:
            state.stale += 1
            if state.stale >= self._stale_limit:
                counts = (one.card_total(), two.card_total())
                happened.append(NoProgress(counts))
                happened.append(self._draw(time))
                return happened
        opponent = two if player == 0 else one
        stopped = opponent.stop
        if stopped:
            opponent.stop = ()
        # Whether the card laid opens stress beside the other pile's top and, if not,
        # what the stall check asks of each row: one look-up in the rules' table.
        other = state.tops[1 - target]
        fits_either, opens_stress = self._after_play[cards[-1].rank][
            other.rank if other is not None else _EMPTY
        ]
        if opens_stress:
            # 001: "Sollte der Spieler nun diese Karte legen, geht das Spiel ohne Strafe
            # weiter": the card pointed at (with it, the others of its rank laid together).
            if pile in stopped:
                happened.append(StressStopped(1 - player))
            else:
                state.phase = _STRESS
                happened.append(StressOpened(time))
                return happened
        # Still playing: stalled if no card in either row fits either pile
        # (``is_stalled``, through the same table).
        for card in one.shown:
            if card is not None and card.rank in fits_either:
                return happened
        for card in two.shown:
            if card is not None and card.rank in fits_either:
                return happened
        state.phase = _WAITING_FLIP
        happened.append(Stalled())
        return happened

    def _play_together(self, action: PlayTogether) -> list[Event]:
        return self._play(action, together=True)

    def _misplay(self, action: Play, reason: RejectReason) -> list[Event]:
        happened = self._reject(action, reason)
        if self.rules.lockout > 0:
            until = action.time + self.rules.lockout
            self.state.players[action.player].locked_until = until
            happened.append(LockedOut(action.player, until))
        return happened


_HANDLERS: dict[type, Callable[[Game, Any], list[Event]]] = {
    Play: Game._play,
    PlayTogether: Game._play_together,
    CallStress: Stresses._call,
    ReadyToFlip: Flips._ready,
    StopStress: Stresses._stop,
    Flip: Flips._flip,
}
"""Each kind of action's handler: a table of the module, which ``Game.apply`` reads at every
action (on Python 3.11 a class's attribute read through its instance is looked up afresh
each time)."""


class Match:
    """Rounds played to a number of wins; each round gets its own seed from the match's
    random source, so that any round can be replayed on its own."""

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        self.rules = rules
        """The rules every round is played by."""
        self.rng = rng
        """Draws every round's seed."""
        self.score = [0, 0]
        """Round wins so far."""
        self.round_seed: int | None = None
        """The seed the current round was dealt (and shuffles) with."""

    def new_round(self) -> Game:
        """Deal the next round."""
        self.round_seed = self.rng.getrandbits(63)
        return Game.deal(self.rules, random.Random(self.round_seed))

    def record(self, winner: int) -> None:
        """Count a round won."""
        self.score[winner] += 1

    @property
    def winner(self) -> int | None:
        """Who has won the match, if anyone yet."""
        for player in PLAYERS:
            if self.score[player] >= self.rules.wins:
                return player
        return None
