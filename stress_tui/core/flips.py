"""New cards on the play piles: saying ready, the flip (with the play piles taken up when
both draw piles are empty), and the round drawn when flips or plays go nowhere. A part of
the engine's ``Game`` (``core/engine.py``).
"""

from __future__ import annotations

from stress_tui.core.actions import Flip, ReadyToFlip
from stress_tui.core.cards import Card
from stress_tui.core.decks import JOKER
from stress_tui.core.events import (
    Event,
    FlipAgreed,
    Flipped,
    PilesRecycled,
    ReadyNoted,
    RejectReason,
    RoundDrawn,
    StressOpened,
    TableDead,
)
from stress_tui.core.houserules import DEAD_FLIPS, FlipReady
from stress_tui.core.position import _PLAYING, _ROUND_OVER, _STRESS, _WAITING_FLIP, PLAYERS
from stress_tui.core.round import Round


class Flips(Round):
    """Saying ready, the flip, and the round drawn without a last card."""

    def _ready(self, action: ReadyToFlip) -> list[Event]:
        self._judge_player(action.player)
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
                state.tops[player] = None
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
                state.tops[target] = card
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
            held = len(someone.draw_pile) + sum(map(len, someone.row))
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
