"""Statistics of a round, computed from its seed and timed actions.

A reaction time is measured from the moment the card played could first be played (its
row pile fit a play pile, since the last flip) to the key that played it, the same way for
a person and for the computer: a card covered for a while and playable again still counts
from the first moment, so that a play decided before it became playable again (the
computer's, stamped with when its reaction ends) is not taken for an instant reaction. A
stress reaction runs from the moment stress opened to the call.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from stress_tui.core.actions import Action, CallStress, Play
from stress_tui.core.engine import Game
from stress_tui.core.events import (
    FalseStressCalled,
    Flipped,
    LockedOut,
    PilesRecycled,
    PilesTaken,
    Played,
    Rejected,
    RejectReason,
    StressOpened,
    StressWon,
)


@dataclass
class PlayerStats:
    """One player's round."""

    cards_played: int = 0
    """Cards that went onto the play piles (a stacked pile counts every card)."""
    longest_chain: int = 0
    """Most plays in a row onto one play pile with nothing else landing there between."""
    reactions: list[float] = field(default_factory=list)
    """Seconds from the card played first being playable to the key that played it, for
    every play."""
    stresses_won: int = 0
    """Stresses called first."""
    stresses_lost: int = 0
    """Stresses the other called first."""
    stress_reactions: list[float] = field(default_factory=list)
    """Seconds from stress opening to this player's call (won or too late)."""
    won_reactions: list[float] = field(default_factory=list)
    """Of those, the calls that won a stress."""
    late_reactions: list[float] = field(default_factory=list)
    """Of those, the calls that came too late (a stress lost without a call has none)."""
    false_calls: int = 0
    """Calls of stress when there was none."""
    misplays: int = 0
    """Plays against the rules (not adjacent, an empty place)."""
    lockouts: int = 0
    """Times locked out."""

    @property
    def median_reaction(self) -> float | None:
        """The median play reaction, if any play was made."""
        import statistics  # here: it loads fractions and decimal, which a game's start need not

        return statistics.median(self.reactions) if self.reactions else None

    @property
    def best_reaction(self) -> float | None:
        """The fastest play reaction."""
        return min(self.reactions) if self.reactions else None


@dataclass
class RoundStats:
    """Both players' round, with its winner and length."""

    players: tuple[PlayerStats, PlayerStats]
    """Player 1's and player 2's statistics."""
    winner: int | None
    """Who won, if the round was finished."""
    seconds: float
    """From the start of the round to its last action."""


_MISPLAYS = (RejectReason.NOT_ADJACENT, RejectReason.EMPTY_PILE)


def round_stats(game: Game, actions: Iterable[Action]) -> RoundStats:
    """Apply the actions to ``game`` (a round as it began) and measure both players."""
    stats = (PlayerStats(), PlayerStats())
    start = game.state.time
    # Per player, each row pile whose cards could be played, and since when.
    playable_since: list[dict[int, float]] = [{}, {}]
    _note_playable(game, playable_since, start)
    chains: list[tuple[int, int] | None] = [None, None]  # per play pile: (player, length)
    stress_opened: float | None = None
    last = start
    for action in actions:
        events = game.apply(action)
        now = last = action.time
        for event in events:
            if isinstance(event, Played):
                me = stats[event.player]
                me.cards_played += len(event.cards)
                since = playable_since[event.player].pop(event.pile, None)
                if since is not None:
                    me.reactions.append(now - since)
                chain = chains[event.target]
                length = chain[1] + 1 if chain and chain[0] == event.player else 1
                chains[event.target] = (event.player, length)
                me.longest_chain = max(me.longest_chain, length)
            elif isinstance(event, (Flipped, PilesRecycled)):
                chains = [None, None]
                playable_since = [{}, {}]
            elif isinstance(event, PilesTaken):
                for target in event.piles:
                    chains[target] = None
            elif isinstance(event, StressOpened):
                stress_opened = event.time
            elif isinstance(event, StressWon):
                stats[event.winner].stresses_won += 1
                stats[event.loser].stresses_lost += 1
                if stress_opened is not None:
                    stats[event.winner].stress_reactions.append(now - stress_opened)
                    stats[event.winner].won_reactions.append(now - stress_opened)
            elif isinstance(event, FalseStressCalled):
                stats[event.player].false_calls += 1
            elif isinstance(event, LockedOut):
                stats[event.player].lockouts += 1
            elif isinstance(event, Rejected) and event.player is not None:
                if isinstance(event.action, Play) and event.reason in _MISPLAYS:
                    stats[event.player].misplays += 1
                elif (
                    isinstance(event.action, CallStress)
                    and event.reason is RejectReason.TOO_LATE
                    and stress_opened is not None
                ):
                    stats[event.player].stress_reactions.append(now - stress_opened)
                    stats[event.player].late_reactions.append(now - stress_opened)
                    stress_opened = None
        _note_playable(game, playable_since, now)
    return RoundStats(stats, game.state.winner, last)


def _note_playable(game: Game, playable_since: list[dict[int, float]], now: float) -> None:
    """Note ``now`` for each row pile that could be played and was not noted before (a
    pile keeps its first moment until it is played, or the next flip)."""
    for player, since in enumerate(playable_since):
        for pile, _target in game.legal_plays(player):
            since.setdefault(pile, now)
