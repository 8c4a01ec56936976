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

import dataclasses
import enum
import functools
import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

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
from stress_tui.core.cards import Card, format_cards
from stress_tui.core.decks import JOKER
from stress_tui.core.events import (
    Drawn,
    Event,
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
from stress_tui.core.houserules import (
    DEAD_FLIPS,
    Deal,
    FalseStress,
    FlipReady,
    StressPenalty,
    Taken,
)
from stress_tui.core.legal import legal_plays, makes_stress
from stress_tui.core.rules import Rules
from stress_tui.core.text import Problem
from stress_tui.core.words import N_

PLAYERS = (0, 1)
"""The two players' numbers."""

RULES_VERSION = 7
"""Which rules this engine plays, raised whenever the same seed and timed actions could give
other events or another final position. A replay records it; ``docs/replays.md`` lists what
each version changed. 1: up to 2026-11-30. 2: the rule fixes of issue 12 (races against any
recent cover, no recycling while a card fits, a stopped joker stays stopped, Jass without
row stacking) and the round without progress (``STALE_PLAYS``). 3: Skat and Doppelkopf deal
open cards without row stacking and lay ready cards of one rank together by default
(001's Stapel, the ``together`` rule; issue 12). 4: a round that cannot end by a last card
(a dead table, a round without progress) is drawn for nobody, and a round without progress
is one of ``STALE_PLAYS_PER_CARD`` plays for every card dealt (issue 26). 5: the Swiss stress
stop covers only the cards that would have made stress when it was declared (issue 26). 6:
Jass costs a false call of stress the piles, as every deck (001's Strafen; issue 26). 7: 001's
decks mix taken cards in and flip on one player's ready, and 001's own game is a deck,
``german`` (issue 26)."""

_NOTHING: frozenset[int] = frozenset()

_INFINITY = math.inf

_EMPTY = -1
"""Stands for the rank on top of an empty play pile in ``_either_fits``."""


UNCOUNTED = 1 << 62
"""``PlayerState.fewest`` of a position that has not counted it: the next play is progress."""


class Phase(enum.Enum):
    """Where a round stands."""

    WAITING_FLIP = "waiting"
    """The play piles wait for both players to flip a card (start, stall, after stress)."""
    PLAYING = "playing"
    """Anyone may play."""
    STRESS = "stress"
    """Stress is open: no card may be played, the first call wins."""
    ROUND_OVER = "over"
    """Someone has no card left; nothing more can happen."""


_WAITING_FLIP = Phase.WAITING_FLIP
_PLAYING = Phase.PLAYING
_STRESS = Phase.STRESS
_ROUND_OVER = Phase.ROUND_OVER
"""The phases under plain names: on Python 3.11 reading a member off its enum class takes
about 0.2 µs, and the engine reads them at every action."""


class InvalidPositionError(Problem, ValueError):
    """A position the rules cannot come to: a card too many, a row of the wrong size...
    A ``core.text.Problem``: said in the player's language where a position is shown to
    be wrong (the notation's words, ``p1 row``, ``covers``, stay as written)."""


# --------------------------------------------------------------------------- position


@dataclass(slots=True)
class PlayerState:
    """One player's cards and standing."""

    draw_pile: list[Card]
    """Face down, bottom first: the next card drawn is the last."""
    row: list[list[Card]]
    """The face-up piles, ``row_size`` places; an empty list is an empty place."""
    ready: bool = False
    """Said ready to flip since the last change to the play piles."""
    locked_until: float = 0.0
    """No play is accepted before this time."""
    stop: tuple[int, ...] = ()
    """The places of the opponent's row this player's stress stop points at (empty: no
    stop): the cards that would have made stress when it was declared. The opponent's
    next play ends it; one of these cards played makes no stress."""
    fewest: int = UNCOUNTED
    """The fewest cards (draw pile and row) this player has held so far in the round
    (never more than they hold now)."""

    def card_total(self) -> int:
        """Cards in draw pile and row."""
        return len(self.draw_pile) + sum(len(pile) for pile in self.row)

    def copy(self) -> PlayerState:
        """A copy whose piles can change without changing these (the cards are values;
        every other field is a plain value, copied as it is)."""
        return dataclasses.replace(
            self, draw_pile=list(self.draw_pile), row=[list(pile) for pile in self.row]
        )


@dataclass(slots=True, unsafe_hash=True)
class Cover:
    """A play onto a play pile: who made it, when, and the rank it covered."""

    player: int
    """Who played it."""
    time: float
    """When."""
    under: int
    """The rank that was on top before."""


@dataclass(slots=True)
class State:
    """A complete position: what the notation writes and reads."""

    rules: Rules
    """The rules in play."""
    players: tuple[PlayerState, PlayerState]
    """Player 0 (``p1``) and player 1 (``p2``)."""
    play_piles: tuple[list[Card], list[Card]]
    """Left and right play pile, bottom first."""
    phase: Phase = Phase.WAITING_FLIP
    """Where the round stands."""
    time: float = 0.0
    """The time of the last action."""
    covers: list[list[Cover]] = field(default_factory=lambda: [[], []])
    """For each play pile, the plays onto it at most the race window before the latest,
    oldest first (none after a flip): what a late play may have been aimed at."""
    winner: int | None = None
    """Who won the round, once it is over (``None`` after a drawn round)."""
    flips: int = 0
    """Flips since a card was last played (the table dies at ``DEAD_FLIPS``)."""
    stale: int = 0
    """Plays since a player last came down to fewer cards than they had ever held (the
    round is drawn at ``Rules.stale_limit``)."""

    def cards(self) -> Counter[Card]:
        """Every card in the position, counted."""
        counts: Counter[Card] = Counter()
        for player in self.players:
            counts.update(player.draw_pile)
            for pile in player.row:
                counts.update(pile)
        for pile in self.play_piles:
            counts.update(pile)
        return counts

    def copy(self) -> State:
        """A copy that actions can change without changing this one (the rules and the
        cards, which never change, are shared; every field that is not a list or a
        player's state is a plain value, copied as it is: ``tests/test_position.py``
        fails when one is not)."""
        one, two = self.players
        left, right = self.play_piles
        return dataclasses.replace(
            self,
            players=(one.copy(), two.copy()),
            play_piles=(list(left), list(right)),
            covers=[[dataclasses.replace(c) for c in covers] for covers in self.covers],
        )

    def check(self, complete: bool = False) -> None:
        """Raise ``InvalidPositionError`` naming what is wrong unless this is a position
        the rules allow: rows of the rules' size, stacks only of one rank and only with
        stacking, no card the deck as dealt does not hold (nor more of it), a winner only
        once the round is over, two play piles, covers only on a pile with cards, times
        that are finite. ``complete``: also every card dealt is here, and no row has a gap
        while its draw pile holds a card (as in every position a dealt round comes to).

        >>> from stress_tui.core.notation import parse_position
        >>> state = parse_position("rules: skat stacking=on; p1 row: 7H | - | AS; piles: 8D | -;"
        ...                        " p2 row: - | - | -")
        >>> state.check()
        >>> state.players[0].row[0].append(Card.parse("8H"))
        >>> def show(complete: bool = False) -> None:
        ...     try:
        ...         state.check(complete)
        ...     except InvalidPositionError as error:
        ...         print(error)
        >>> show()
        p1 row: a stacked pile must hold one rank: 7H 8H
        >>> _ = state.players[0].row[0].pop()
        >>> show(complete=True)
        cards: 3 in the position, 32 dealt
        """
        rules = self.rules
        if len(self.players) != 2:
            raise InvalidPositionError(N_("players: two, not {n}"), n=len(self.players))
        if len(self.play_piles) != 2:
            raise InvalidPositionError(N_("piles: two play piles, not {n}"), n=len(self.play_piles))
        if not math.isfinite(self.time) or self.time < 0:
            raise InvalidPositionError(N_("time: not a time: {time}"), time=repr(self.time))
        for name, player in zip(("p1", "p2"), self.players, strict=True):
            where = f"{name} row"
            if len(player.row) != rules.row_size:
                raise InvalidPositionError(
                    N_("{where}: {n} piles, but the rules have rows of {size}"),
                    where=where,
                    n=len(player.row),
                    size=rules.row_size,
                )
            for pile in player.row:
                if len(pile) < 2:
                    continue
                if not rules.stacking:
                    raise InvalidPositionError(
                        N_("{where}: a stacked pile, but stacking is off"), where=where
                    )
                if pile[0].is_joker or any(card.rank != pile[0].rank for card in pile):
                    raise InvalidPositionError(
                        N_("{where}: a stacked pile must hold one rank: {cards}"),
                        where=where,
                        cards=format_cards(pile),
                    )
            if complete and player.draw_pile and not all(player.row):
                raise InvalidPositionError(
                    N_("{where}: a gap, with cards in the draw pile"), where=where
                )
            if any(not 0 <= place < rules.row_size for place in player.stop):
                raise InvalidPositionError(
                    N_("{name} state: a stop on no place of a row"), name=name
                )
            if not math.isfinite(player.locked_until):
                raise InvalidPositionError(N_("{name} state: locked out until no time"), name=name)
        decks = 2 if rules.deal is Deal.EACH else 1
        allowed = Counter(rules.spec.cards(rules.jokers) * decks)
        counts = self.cards()
        for card, count in counts.items():
            if count > allowed[card]:
                what = (
                    N_("{card}: no such card in the {deck} deck as dealt")
                    if not allowed[card]
                    else N_("{card}: too many of this card for the {deck} deck as dealt")
                )
                raise InvalidPositionError(what, card=str(card), deck=rules.deck)
        if complete and counts != allowed:
            raise InvalidPositionError(
                N_("cards: {n} in the position, {dealt} dealt"),
                n=counts.total(),
                dealt=allowed.total(),
            )
        if len(self.covers) != 2:
            raise InvalidPositionError(N_("covers: one per play pile"))
        for pile, covers in zip(self.play_piles, self.covers, strict=True):
            if covers and not pile:
                raise InvalidPositionError(N_("covers: a play onto a pile that is empty"))
            if any(cover.player not in PLAYERS for cover in covers):
                raise InvalidPositionError(N_("covers: a play by no player"))
        if self.winner not in (None, *PLAYERS):
            raise InvalidPositionError(
                N_("winner: p1, p2 or none, not {winner}"), winner=repr(self.winner)
            )
        if self.winner is not None and self.phase is not Phase.ROUND_OVER:
            raise InvalidPositionError(
                N_("winner: a winner, but the phase is {phase}"), phase=self.phase.value
            )
        if self.flips < 0:
            raise InvalidPositionError(N_("flips: a whole number, not {n}"), n=self.flips)


# --------------------------------------------------------------------------- the game


class Game:
    """A round of Stress: a position and the random source for its shuffles."""

    def __init__(self, state: State, rng: random.Random) -> None:
        self.state = state
        """The position (mutated by ``apply``)."""
        self.rng = rng
        """Shuffles taken piles; nothing else."""
        self.rules = state.rules
        """The rules in play."""
        self._fits_either = _either_fits(state.rules.fits)
        """For the tops of the two play piles, the ranks that fit on either (the stall
        check's table)."""
        self._stale_limit = state.rules.stale_limit
        """Plays in a row without progress after which the round is drawn."""

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

    # ------------------------------------------------------------------ queries

    @property
    def phase(self) -> Phase:
        """Where the round stands."""
        return self.state.phase

    @property
    def winner(self) -> int | None:
        """The round's winner, once it is over."""
        return self.state.winner

    def top(self, target: int) -> Card | None:
        """The top card of a play pile, if any."""
        pile = self.state.play_piles[target]
        return pile[-1] if pile else None

    def can_play(self, player: int, pile: int, target: int) -> bool:
        """Whether the rules allow that play now (lockouts aside)."""
        if self.state.phase is not _PLAYING:
            return False
        row_pile = self.state.players[player].row[pile]
        on = self.state.play_piles[target]
        return bool(row_pile and on) and row_pile[0].rank in self.rules.fits[on[-1].rank]

    def legal_plays(self, player: int) -> list[tuple[int, int]]:
        """Every (row pile, play pile) the rules allow ``player`` now, lockouts aside
        (``core.legal.legal_plays`` of what the position shows)."""
        state = self.state
        if state.phase is not _PLAYING:
            return []
        left, right = state.play_piles
        row = [pile[0] if pile else None for pile in state.players[player].row]
        return legal_plays(
            self.rules, row, (left[-1] if left else None, right[-1] if right else None)
        )

    def is_stalled(self) -> bool:
        """Whether no player could play anything on the play piles as they lie."""
        left, right = self.state.play_piles
        fits_either = self._fits_either[left[-1].rank if left else _EMPTY][
            right[-1].rank if right else _EMPTY
        ]
        for player in self.state.players:
            for row_pile in player.row:
                if row_pile and row_pile[0].rank in fits_either:
                    return False
        return True

    def is_stress(self) -> bool:
        """Whether both play piles show the same rank, or a joker is on top: what the piles
        look like. Whether stress is open is the phase (``Phase.STRESS``): only a card just
        played or flipped opens it, so a joker whose stress was stopped stays on top
        without."""
        left, right = self.state.play_piles
        if not left or not right:
            return False
        a, b = left[-1], right[-1]
        return a.rank == b.rank or a.is_joker or b.is_joker

    def stress_threats(self, player: int) -> list[tuple[int, int]]:
        """The plays of ``player`` that would make stress (what a stress stop points at)."""
        piles = self.state.play_piles
        row = self.state.players[player].row
        return [
            (pile, target)
            for pile, target in self.legal_plays(player)
            if makes_stress(row[pile][0], piles[1 - target][-1] if piles[1 - target] else None)
        ]

    def is_locked(self, player: int, time: float) -> bool:
        """Whether ``player``'s plays are refused at ``time``."""
        return time < self.state.players[player].locked_until

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; return what happened. Illegal actions change nothing and
        come back as ``Rejected``; malformed ones raise ``MalformedActionError`` and
        change nothing either."""
        handler = self._handlers.get(type(action))
        if handler is None:
            raise MalformedActionError(N_("not an action: {action}"), action=repr(action))
        time = action.time
        # A float is finite when it lies between the infinities (NaN lies nowhere); an
        # int goes through ``math``, which refuses one too large for a float.
        if type(time) is float:
            if not -_INFINITY < time < _INFINITY:
                raise MalformedActionError(
                    N_("time must be a finite number, not {time}"), time=repr(time)
                )
        elif type(time) is not int or math.isnan(time) or math.isinf(time):
            raise MalformedActionError(
                N_("time must be a finite number, not {time}"), time=repr(time)
            )
        state = self.state
        if time < state.time:
            raise MalformedActionError(
                N_("time runs back: {time} after {before}"), time=time, before=state.time
            )
        if not isinstance(action, Flip):
            player = action.player
            if type(player) is not int or player not in PLAYERS:
                raise NoSuchPlayerError(
                    N_("no player {player} (players are 0 and 1)"), player=repr(player)
                )
            if isinstance(action, Play):
                size = self.rules.row_size
                pile, target = action.pile, action.target
                if type(pile) is not int or not 0 <= pile < size:
                    raise NoSuchPileError(
                        N_("no row pile {pile} (row piles are 0..{last})"),
                        pile=repr(pile),
                        last=size - 1,
                    )
                if type(target) is not int or target not in (0, 1):
                    raise NoSuchPileError(
                        N_("no play pile {target} (play piles are 0 and 1)"), target=repr(target)
                    )
        state.time = time
        return handler(self, action)

    def _reject(self, action: Action, reason: RejectReason) -> list[Event]:
        player = None if isinstance(action, Flip) else action.player
        return [Rejected(player, action, reason)]

    def _phase_reason(self) -> RejectReason | None:
        phase = self.state.phase
        if phase is _PLAYING:
            return None
        if phase is _STRESS:
            return RejectReason.STRESS_OPEN
        if phase is _ROUND_OVER:
            return RejectReason.ROUND_OVER
        return RejectReason.NOT_PLAYING

    def _play(self, action: Play) -> list[Event]:
        state = self.state
        if state.phase is not _PLAYING:
            return self._reject(action, self._phase_reason() or RejectReason.NOT_PLAYING)
        player, pile, target, time = action.player, action.pile, action.target, action.time
        players = state.players
        me = players[player]
        if time < me.locked_until:
            return self._reject(action, RejectReason.LOCKED_OUT)
        row = me.row
        row_pile = row[pile]
        left, right = piles = state.play_piles
        on = piles[target]
        if not row_pile:
            return self._misplay(action, RejectReason.EMPTY_PILE)
        rank = row_pile[0].rank
        fits = self.rules.fits
        if not on or rank not in fits[on[-1].rank]:
            # Too late rather than wrong: it fits a card the opponent covered less than
            # the race window ago, after this player's own last play there (a card one
            # covered oneself, one had seen covered).
            window = self.rules.race_window
            for cover in reversed(state.covers[target]):
                if cover.player == player or time - cover.time > window:
                    break
                if rank in fits[cover.under]:
                    return self._reject(action, RejectReason.LOST_RACE)
            return self._misplay(action, RejectReason.NOT_ADJACENT)

        cards = tuple(row_pile)
        covers = state.covers[target]
        # Covers older than the window before now can matter to no later play.
        while covers and time - covers[0].time > self.rules.race_window:
            del covers[0]
        covers.append(Cover(player, time, on[-1].rank))
        on += cards
        row[pile] = []
        state.flips = 0
        happened: list[Event] = [Played(player, pile, target, cards, time)]
        if type(action) is PlayTogether and rank != JOKER:
            # 001, Stapel: the other ready cards of the rank go down at the same time.
            for place, others in enumerate(row):
                if others and others[0].rank == rank:
                    laid = tuple(others)
                    on += laid
                    row[place] = []
                    happened.append(Played(player, place, target, laid, time))
                    cards = laid
        self._refill(player, happened)
        one, two = players
        one.ready = two.ready = False
        held = len(me.draw_pile) + sum(map(len, row))
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
        opponent.stop = ()
        other = piles[1 - target]
        if makes_stress(cards[-1], other[-1] if other else None):
            # 001: "Sollte der Spieler nun diese Karte legen, geht das Spiel ohne Strafe
            # weiter": the card pointed at (with it, the others of its rank laid together).
            if pile in stopped:
                happened.append(StressStopped(1 - player))
            else:
                state.phase = _STRESS
                happened.append(StressOpened(time))
                return happened
        # Still playing: stalled if no card in either row fits either pile
        # (``is_stalled``, through the table of what fits one pile or the other).
        fits_either = self._fits_either[left[-1].rank if left else _EMPTY][
            right[-1].rank if right else _EMPTY
        ]
        for row_pile in one.row:
            if row_pile and row_pile[0].rank in fits_either:
                return happened
        for row_pile in two.row:
            if row_pile and row_pile[0].rank in fits_either:
                return happened
        state.phase = _WAITING_FLIP
        happened.append(Stalled())
        return happened

    def _play_together(self, action: PlayTogether) -> list[Event]:
        if not self.rules.together:
            return self._reject(action, RejectReason.RULE_OFF)
        return self._play(action)

    def _misplay(self, action: Play, reason: RejectReason) -> list[Event]:
        happened = self._reject(action, reason)
        if self.rules.lockout > 0:
            until = action.time + self.rules.lockout
            self.state.players[action.player].locked_until = until
            happened.append(LockedOut(action.player, until))
        return happened

    def _check_stall(self, happened: list[Event]) -> None:
        if self.state.phase is _PLAYING and self.is_stalled():
            self.state.phase = _WAITING_FLIP
            happened.append(Stalled())

    def _call(self, action: CallStress) -> list[Event]:
        state = self.state
        phase = state.phase
        if phase is _ROUND_OVER:
            return self._reject(action, RejectReason.ROUND_OVER)
        if phase is _WAITING_FLIP:
            return self._reject(action, RejectReason.TOO_LATE)
        if phase is _STRESS:
            loser = 1 - action.player
            happened: list[Event] = [StressWon(action.player, loser, action.time)]
            self._take(loser, self._penalty_piles(loser), happened)
            self._await_flip()
            return happened
        penalty = self.rules.false_stress
        happened = [FalseStressCalled(action.player, penalty)]
        if penalty is FalseStress.TAKE:
            self._take(action.player, (0, 1), happened)
            self._await_flip()
        elif penalty is FalseStress.LOCKOUT and self.rules.lockout > 0:
            until = action.time + self.rules.lockout
            state.players[action.player].locked_until = until
            happened.append(LockedOut(action.player, until))
        return happened

    def _penalty_piles(self, loser: int) -> tuple[int, ...]:
        penalty = self.rules.stress_penalty
        if penalty is StressPenalty.BOTH:
            return (0, 1)
        left, right = (len(pile) for pile in self.state.play_piles)
        if penalty is StressPenalty.ONE:
            named = 0 if left <= right else 1
        else:
            named = 0 if left >= right else 1
        # A single card taken into an empty draw pile would be flipped straight back
        # into the same stress.
        if len(self.state.play_piles[named]) <= 1 and not self.state.players[loser].draw_pile:
            return (0, 1)
        return (named,)

    def _take(self, player: int, piles: tuple[int, ...], happened: list[Event]) -> None:
        """``player`` takes play piles, shuffled, under their draw pile or (``taken``
        mixed) into all of it."""
        taken: list[Card] = []
        for target in piles:
            taken.extend(self.state.play_piles[target])
            self.state.play_piles[target].clear()
            self.state.covers[target].clear()
        draw = self.state.players[player].draw_pile
        if self.rules.taken is Taken.MIXED:
            draw[:0] = taken
            self.rng.shuffle(draw)
        else:
            self.rng.shuffle(taken)
            draw[:0] = taken
        happened.append(PilesTaken(player, piles, len(taken)))
        self._refill(player, happened)

    def _await_flip(self) -> None:
        self.state.phase = _WAITING_FLIP
        for player in self.state.players:
            player.ready = False
            player.stop = ()

    def _ready(self, action: ReadyToFlip) -> list[Event]:
        reason = self._phase_reason()
        if reason is not None:
            return self._reject(action, reason)
        players = self.state.players
        me = players[action.player]
        if me.ready:
            return self._reject(action, RejectReason.ALREADY)
        if not players[0].draw_pile and not players[1].draw_pile and not self.is_stalled():
            # Without a card to flip the flip would take up the play piles, which 000
            # allows only when nobody can play.
            return self._reject(action, RejectReason.NO_CARD_TO_FLIP)
        me.ready = True
        happened: list[Event] = [ReadyNoted(action.player)]
        # Both, or (001: "oder ein Spieler einen möglichen Zug nicht wahrnehmen will") one.
        if self.rules.flip_ready is FlipReady.ONE or all(p.ready for p in self.state.players):
            self._await_flip()
            happened.append(FlipAgreed())
        return happened

    def _stop(self, action: StopStress) -> list[Event]:
        if not self.rules.stress_stop:
            return self._reject(action, RejectReason.RULE_OFF)
        reason = self._phase_reason()
        if reason is not None:
            return self._reject(action, reason)
        me = self.state.players[action.player]
        if me.stop:
            return self._reject(action, RejectReason.ALREADY)
        threats = self.stress_threats(1 - action.player)
        if not threats:
            return self._reject(action, RejectReason.NO_STRESS_THREAT)
        me.stop = tuple(sorted({pile for pile, _target in threats}))
        return [StopDeclared(action.player)]

    def _flip(self, action: Flip) -> list[Event]:
        state = self.state
        if state.phase is not _WAITING_FLIP:
            return self._reject(action, RejectReason.NOTHING_TO_FLIP)
        happened: list[Event] = []
        players = state.players
        if state.flips >= DEAD_FLIPS:
            return self._dead(action.time)
        state.flips += 1
        if not players[0].draw_pile and not players[1].draw_pile:
            counts = []
            for player in PLAYERS:
                pile = state.play_piles[player]
                taken = list(pile)
                pile.clear()
                state.covers[player].clear()
                self.rng.shuffle(taken)
                players[player].draw_pile.extend(taken)
                counts.append(len(taken))
            happened.append(PilesRecycled((counts[0], counts[1])))
        cards: list[Card | None] = [None, None]
        sources: list[int | None] = [None, None]
        # Empty play piles are served first, so that one last card starts a pile; then
        # a player's own pile, so that one last card goes in front of its owner (the left
        # pile first when they are alike).
        left, right = state.play_piles
        one, two = players
        right_first = (bool(right), not two.draw_pile) < (bool(left), not one.draw_pile)
        for target in (1, 0) if right_first else PLAYERS:
            source = target if players[target].draw_pile else 1 - target
            if players[source].draw_pile:
                card = players[source].draw_pile.pop()
                state.play_piles[target].append(card)
                state.covers[target].clear()
                cards[target] = card
                sources[target] = source
        happened.append(Flipped((cards[0], cards[1]), (sources[0], sources[1]), action.time))
        # Recycled piles refill the rows only after the flip, so that there is a card to
        # flip even when a pile is smaller than the row's gaps.
        for player in PLAYERS:
            self._refill(player, happened)
        state.phase = _PLAYING
        for someone in players:
            someone.ready = False
            someone.stop = ()
            # A flipped card leaves its owner too: the fewest held is the fewest ever.
            held = someone.card_total()
            if held < someone.fewest:
                someone.fewest = held
        # Two equal ranks flipped are stress; a flipped joker is not: 001 makes stress of a
        # joker "gespielt" (played), and one flipped had no player to give it a value.
        if left and right and left[-1].rank == right[-1].rank != JOKER:
            state.phase = _STRESS
            happened.append(StressOpened(action.time))
            return happened
        self._check_stall(happened)
        return happened

    def _dead(self, time: float) -> list[Event]:
        counts = (self.state.players[0].card_total(), self.state.players[1].card_total())
        return [TableDead(counts), self._draw(time)]

    def _draw(self, time: float) -> Event:
        """End the round drawn, for nobody: the seeds name only the player who lays the
        last card as its winner (000 "Den som först blivit av med alla sina kort ... har
        vunnit"; 001 "Der Spieler der die letzte Karte gelegt hat ... ist Sieger dieser
        Runde"), so a round that cannot come to that is no one's, and is dealt again."""
        self.state.phase = _ROUND_OVER
        return RoundDrawn(time)

    def _refill(self, player: int, happened: list[Event] | None) -> None:
        """Fill the row's empty places from the draw pile, left to right, stacking equal
        ranks; each card drawn is a ``Drawn`` in ``happened`` (``None``: the deal, which
        makes no event, so that dealing a round does not load the events)."""
        me = self.state.players[player]
        row, draw = me.row, me.draw_pile
        stacking = self.rules.stacking
        empty: list[Card] = []
        # The leftmost empty place, found by the list's own search rather than a loop
        # here; the places left of it are full and stay full.
        while draw and empty in row:
            gap = row.index(empty)
            card = draw.pop()
            rank = card.rank
            if stacking and rank != JOKER:
                for i, pile in enumerate(row):
                    if pile and pile[0].rank == rank:
                        pile.append(card)
                        if happened is not None:
                            happened.append(Drawn(player, i, card, True))
                        break
                else:
                    row[gap].append(card)
                    if happened is not None:
                        happened.append(Drawn(player, gap, card, False))
            else:
                row[gap].append(card)
                if happened is not None:
                    happened.append(Drawn(player, gap, card, False))

    _handlers: ClassVar[dict[type, Callable[[Game, Any], list[Event]]]] = {
        Play: _play,
        PlayTogether: _play_together,
        CallStress: _call,
        ReadyToFlip: _ready,
        StopStress: _stop,
        Flip: _flip,
    }
    """Each kind of action's handler."""


@functools.cache
def _either_fits(fits: tuple[frozenset[int], ...]) -> tuple[tuple[frozenset[int], ...], ...]:
    """For the ranks on top of the left and the right play pile (``_EMPTY``, the last, for
    an empty pile), the ranks that fit on one or the other: what the stall check asks of
    every row pile, one set instead of two (made once per adjacency table)."""
    on = (*fits, _NOTHING)
    return tuple(tuple(left | right for right in on) for left in on)


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
