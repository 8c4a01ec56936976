"""A round's position with what the rules allow in it: the queries (what each player may
play, whether the table is stalled, what would make stress) and the doings every kind of
action shares (a refusal, the refill of a row, the wait for the next flip). ``Round`` is
the base of the engine's ``Game``; the stresses (``core/stresses.py``) and the flips
(``core/flips.py``) build on it.
"""

from __future__ import annotations

import functools
import random

from stress_tui.core.actions import Action, Flip, NoSuchPlayerError
from stress_tui.core.cards import JOKER_CARD, Card, Suit
from stress_tui.core.decks import JOKER
from stress_tui.core.events import Drawn, Event, Rejected, RejectReason, Stalled
from stress_tui.core.legal import legal_plays, makes_stress
from stress_tui.core.position import (
    _PLAYING,
    _ROUND_OVER,
    _STRESS,
    _WAITING_FLIP,
    PLAYERS,
    Phase,
    State,
)
from stress_tui.core.words import N_

_NOTHING: frozenset[int] = frozenset()

_EMPTY = -1
"""Stands for the rank on top of an empty play pile in ``_after_play``."""

Beside = tuple[frozenset[int], bool]
"""What a card laid on one play pile means beside the other's top: the ranks that then fit
on one pile or the other, and whether it opens stress."""


class Round:
    """A round's position, the random source for its shuffles, and what the rules allow."""

    def __init__(self, state: State, rng: random.Random) -> None:
        self.state = state
        """The position (mutated by ``apply``)."""
        self.rng = rng
        """Shuffles taken piles; nothing else."""
        self.rules = state.rules
        """The rules in play."""
        self._after_play = _after_play(state.rules.fits)
        """For the rank of a card laid and the other play pile's top, what it means
        (``Beside``): the stall check's set and the card's stress, one look-up."""
        self._stale_limit = state.rules.stale_limit
        """Plays in a row without progress after which the round is drawn."""
        self._row_size = state.rules.row_size
        """Piles in each row."""

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
        return legal_plays(self.rules, state.players[player].shown, state.tops)

    def is_stalled(self) -> bool:
        """Whether no player could play anything on the play piles as they lie."""
        left, right = self.state.play_piles
        fits_either, _ = self._after_play[left[-1].rank if left else _EMPTY][
            right[-1].rank if right else _EMPTY
        ]
        for player in self.state.players:
            for card in player.shown:
                if card is not None and card.rank in fits_either:
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

    # ------------------------------------------------------------------ shared doings

    def _reject(self, action: Action, reason: RejectReason) -> list[Event]:
        player = None if isinstance(action, Flip) else action.player
        return [Rejected(player, action, reason)]

    def _judge_player(self, player: int) -> None:
        """Refuse an action of no player, before it changes anything (a play judges its
        player itself, with its piles, where it reads them)."""
        if type(player) is not int or player not in PLAYERS:
            raise no_such_player(player)

    def _phase_reason(self) -> RejectReason | None:
        phase = self.state.phase
        if phase is _PLAYING:
            return None
        if phase is _STRESS:
            return RejectReason.STRESS_OPEN
        if phase is _ROUND_OVER:
            return RejectReason.ROUND_OVER
        return RejectReason.NOT_PLAYING

    def _check_stall(self, happened: list[Event]) -> None:
        if self.state.phase is _PLAYING and self.is_stalled():
            self.state.phase = _WAITING_FLIP
            happened.append(Stalled())

    def _await_flip(self) -> None:
        self.state.phase = _WAITING_FLIP
        for player in self.state.players:
            player.ready = False
            player.stop = ()

    def _refill(self, player: int, happened: list[Event] | None) -> None:
        """Fill the row's empty places from the draw pile, left to right, stacking equal
        ranks; each card drawn is a ``Drawn`` in ``happened`` (``None``: the deal, which
        makes no event, so that dealing a round does not load the events)."""
        me = self.state.players[player]
        row, draw, shown = me.row, me.draw_pile, me.shown
        stacking = self.rules.stacking
        empty: list[Card] = []
        # The leftmost empty place, found by the list's own search rather than a loop
        # here; the places left of it are full and stay full.
        while draw and empty in row:
            gap = row.index(empty)
            card = draw.pop()
            rank = card.rank
            if stacking and rank != JOKER:
                # A stacked pile shows its rank, as every card under it has.
                for top in shown:
                    if top is not None and top.rank == rank:
                        # Its place by the list's own search, as the gap's: a loop
                        # counting places costs more than the rare search once found.
                        i = shown.index(top)
                        row[i].append(card)
                        shown[i] = card
                        if happened is not None:
                            happened.append(Drawn(player, i, card, True))
                        break
                else:
                    row[gap].append(card)
                    shown[gap] = card
                    if happened is not None:
                        happened.append(Drawn(player, gap, card, False))
            else:
                row[gap].append(card)
                shown[gap] = card
                if happened is not None:
                    happened.append(Drawn(player, gap, card, False))


def no_such_player(player: object) -> NoSuchPlayerError:
    """The error for an action of a player who is neither 0 nor 1."""
    return NoSuchPlayerError(N_("no player {player} (players are 0 and 1)"), player=repr(player))


@functools.cache
def _after_play(fits: tuple[frozenset[int], ...]) -> tuple[tuple[Beside, ...], ...]:
    """For the rank of a card laid on one play pile and the rank on top of the other
    (``_EMPTY``, the last, for an empty pile), the two questions the engine asks after
    every play, made once per adjacency table: the ranks that fit on one pile or the
    other (what the stall check asks of every row pile, one set instead of two; with the
    ranks of the two tops in either order, the same set), and whether the card opens
    stress (``makes_stress``'s answer, asked of a card of each rank: suits never matter
    to the rules)."""
    on = (*fits, _NOTHING)
    tops = (
        *(JOKER_CARD if rank == JOKER else Card(rank, Suit.CLUBS) for rank in range(len(fits))),
        None,
    )
    return tuple(
        tuple(
            (on_laid | on_other, laid is not None and makes_stress(laid, other))
            for on_other, other in zip(on, tops, strict=True)
        )
        for on_laid, laid in zip(on, tops, strict=True)
    )
