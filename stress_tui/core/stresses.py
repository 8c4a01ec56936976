"""Stress settled: a call (won, or false), the piles the slower takes and where they go,
and the Swiss stress stop. A part of the engine's ``Game`` (``core/engine.py``).
"""

from __future__ import annotations

from stress_tui.core.actions import CallStress, StopStress
from stress_tui.core.cards import Card
from stress_tui.core.events import (
    Event,
    FalseStressCalled,
    LockedOut,
    PilesTaken,
    RejectReason,
    StopDeclared,
    StressWon,
)
from stress_tui.core.houserules import FalseStress, StressPenalty, Taken
from stress_tui.core.position import _ROUND_OVER, _STRESS, _WAITING_FLIP
from stress_tui.core.round import Round


class Stresses(Round):
    """Calling stress, what the slower takes, and the stress stop."""

    def _call(self, action: CallStress) -> list[Event]:
        self._judge_player(action.player)
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
            self.state.tops[target] = None
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

    def _stop(self, action: StopStress) -> list[Event]:
        self._judge_player(action.player)
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
