"""The computer opponent: what a player at the table sees, and how a person would act on it.

A ``Bot`` is a ``Driver`` for the ``Table``. Each time the table asks, it takes a ``View`` of
the game (what a player sitting there can see: both rows, the tops and sizes of the play
piles, how many cards each draw pile holds, the phase, its own lockout and the stop and
ready flags; never the order of a draw pile) and decides from that alone. The action it
returns is stamped with the time its reaction ends; the table applies it then, whatever has
happened meanwhile, so a move decided on a play pile that the opponent has since covered is
rejected exactly like a late human's.

How fast and how well it plays is a ``Level``: reaction times drawn from a lognormal
distribution (longer after a flip, shorter for the next card of a chain it has already
seen), the chance of overlooking a play, the odd false call, and which kinds of sense it
has (chains, stacks, blocking, making stress, the stress stop). ``docs/bot.md`` describes
the levels and how they were measured.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from statistics import NormalDist

from .cards import JOKER
from .engine import (
    Action,
    CallStress,
    Game,
    Phase,
    Play,
    ReadyToFlip,
    StopStress,
)
from .rules import Rules
from .table import Driver

EMPTY = -1
"""The rank written for an empty place in a row, or an empty play pile, in a ``View``."""

FLOOR = 0.12
"""No reaction is faster than this many seconds (a human's motor floor)."""

PLAY_CAP = 2.5
"""No play, stop or ready takes longer than this many seconds."""

CALL_CAP = 1.1
"""No stress call takes longer than this: below the table's countdown (1.2 s), so that a
call that lost the race lands before the next flip instead of as a false call after it."""


@dataclass(frozen=True, slots=True)
class Level:
    """How fast and how well a bot plays. Times are medians of a lognormal, in seconds."""

    name: str
    """``easy``, ``normal``, ``hard`` or ``expert``."""
    look: float
    """Median time to act on a table that changed under its eyes (the opponent played)."""
    chain: float
    """Median time for the next card of a chain it saw at its last look."""
    surprise: float
    """Factor on ``look`` for the first move after new cards were flipped."""
    call: float
    """Median time to call a stress it did not see coming."""
    anticipated_call: float
    """Median time to call a stress it made itself."""
    sigma: float
    """Spread of every delay: the log's standard deviation."""
    miss: float
    """Chance, at each look, of overlooking each possible play."""
    false_call: float
    """Chance, at each fresh look, of calling stress when there is none."""
    chains: bool
    """Prefers plays that the rest of its row can follow (5, then 6, then 7)."""
    stacks: bool
    """Prefers stacked piles: more cards leave the row in one move."""
    blocks: bool
    """Prefers plays that leave the opponent fewer plays and no stress to make."""
    makes_stress: bool
    """Makes stress when it can: knowing it is coming, it calls before a surprised opponent."""
    stops: bool
    """Declares the stress stop against the opponent's stress threats (when the rules
    have it)."""


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy", look=1.05, chain=0.70, surprise=1.5, call=0.85, anticipated_call=0.70,
            sigma=0.30, miss=0.20, false_call=0.01, chains=False, stacks=False,
            blocks=False, makes_stress=False, stops=False,
        ),
        Level(
            "normal", look=0.80, chain=0.45, surprise=1.4, call=0.62, anticipated_call=0.50,
            sigma=0.28, miss=0.06, false_call=0.0, chains=True, stacks=True,
            blocks=False, makes_stress=False, stops=True,
        ),
        Level(
            "hard", look=0.60, chain=0.33, surprise=1.3, call=0.46, anticipated_call=0.30,
            sigma=0.25, miss=0.02, false_call=0.0, chains=True, stacks=True,
            blocks=True, makes_stress=True, stops=True,
        ),
        Level(
            "expert", look=0.45, chain=0.24, surprise=1.25, call=0.34, anticipated_call=0.20,
            sigma=0.22, miss=0.0, false_call=0.0, chains=True, stacks=True,
            blocks=True, makes_stress=True, stops=True,
        ),
    )
}
"""The levels by name, weakest first."""


@dataclass(slots=True)
class View:
    """What one player sees at the table at one moment (a snapshot; do not change it).

    Ranks are the engine's (``JOKER`` is 0); ``EMPTY`` marks an empty place or pile.
    """

    player: int
    """Whose view."""
    now: float
    """When it was taken, in seconds."""
    phase: Phase
    """Where the round stands."""
    row: tuple[int, ...]
    """The rank of each pile of the own row."""
    row_sizes: tuple[int, ...]
    """How many cards each pile of the own row holds (stacks show)."""
    opponent_row: tuple[int, ...]
    """The rank of each pile of the opponent's row."""
    tops: tuple[int, int]
    """The rank on top of the left and the right play pile."""
    pile_sizes: tuple[int, int]
    """How many cards each play pile holds."""
    draw_count: int
    """How many cards the own draw pile holds (never which)."""
    opponent_draw_count: int
    """How many cards the opponent's draw pile holds."""
    locked_until: float
    """The own plays are refused before this time."""
    ready: bool
    """Has said ready to flip."""
    opponent_ready: bool
    """The opponent has said ready to flip."""
    stop: bool
    """Has declared a stress stop against the opponent's next play."""
    opponent_stop: bool
    """The opponent has declared a stress stop against the own next play."""
    rules: Rules
    """The house rules, agreed before the deal."""


def see(game: Game, player: int, now: float) -> View:
    """What ``player`` can see of ``game`` at ``now``: both rows, the play piles' tops and
    sizes, the draw piles' sizes, the phase and the flags. Nothing else reaches a bot."""
    state = game.state
    me, them = state.players if player == 0 else state.players[::-1]
    left, right = state.play_piles
    row = []
    for pile in me.row:
        row.append(pile[0].rank if pile else EMPTY)
    opponent_row = []
    for pile in them.row:
        opponent_row.append(pile[0].rank if pile else EMPTY)
    return View(
        player,
        now,
        state.phase,
        tuple(row),
        tuple(map(len, me.row)),
        tuple(opponent_row),
        (left[-1].rank if left else EMPTY, right[-1].rank if right else EMPTY),
        (len(left), len(right)),
        len(me.draw_pile),
        len(them.draw_pile),
        me.locked_until,
        me.ready,
        them.ready,
        me.stop,
        them.stop,
        game.rules,
    )


def stress_threats(view: View) -> list[tuple[int, int]]:
    """The opponent's plays, as the view shows them, that would make stress: the same as
    ``Game.stress_threats`` for the opponent, from what is visible."""
    fits = view.rules.fits
    tops = view.tops
    threats = []
    for pile, rank in enumerate(view.opponent_row):
        if rank == EMPTY:
            continue
        for target in (0, 1):
            top, other = tops[target], tops[1 - target]
            if top != EMPTY and rank in fits[top] and (rank in (JOKER, other)):
                threats.append((pile, target))
    return threats


_QUANTILES = 4096
"""Delays are drawn by inverting a lognormal's distribution at this many even steps."""


def _spread(sigma: float) -> tuple[float, ...]:
    """exp(sigma * z) at the midpoints of ``_QUANTILES`` equal slices of the normal
    distribution: a lognormal factor with median 1, drawn by one uniform index."""
    normal = NormalDist()
    return tuple(
        math.exp(sigma * normal.inv_cdf((k + 0.5) / _QUANTILES)) for k in range(_QUANTILES)
    )


_SPREADS: dict[float, tuple[float, ...]] = {}

_NOTHING: frozenset[int] = frozenset()

_PLAYING = Phase.PLAYING


class Bot:
    """A computer player at one level: a ``Driver`` for the table."""

    def __init__(self, player: int, level: Level, rng: random.Random) -> None:
        if player not in (0, 1):
            raise ValueError(f"no player {player!r} (players are 0 and 1)")
        self.player = player
        """The side it plays."""
        self.level = level
        """How fast and how well it plays."""
        self.rng = rng
        """Its own random source: reaction times, misses and choices (nothing else)."""
        if level.sigma not in _SPREADS:
            _SPREADS[level.sigma] = _spread(level.sigma)
        self._spread = _SPREADS[level.sigma]
        self._sense = level.chains or level.stacks or level.blocks or level.makes_stress
        self._miss = level.miss
        self._false_call = level.false_call
        self._stops = level.stops
        self._phase = Phase.WAITING_FLIP
        """The phase at its last look."""
        self._tops: tuple[int, int] = (EMPTY, EMPTY)
        """The play piles' tops it expects once its planned action has landed."""
        self._row: tuple[int, ...] = ()
        """Its row as it last saw it."""
        self._played = -1
        """The place in its row it last played from (refilled with a card not yet seen)."""
        self._expect_stress = False
        """Its planned play makes stress: it knows the call is coming."""
        self._judging: int | None = None
        """Cards it held when a stress of its own making opened (to see, at its next
        look, whether it lost it: then it holds more)."""
        self._made_won = 1.0
        """Stresses of its own making it won, counting one in hope."""
        self._made_lost = 0.0
        """Stresses of its own making it lost."""

    def __repr__(self) -> str:
        return f"Bot(player={self.player}, level={self.level.name!r})"

    # ------------------------------------------------------------------ the driver

    def plan(self, game: Game, now: float) -> Action | None:
        """What to do next, stamped with when the reaction ends; ``None`` to wait."""
        phase = game.state.phase
        if phase is _PLAYING:
            return self._decide_playing(see(game, self.player, now))
        if phase is Phase.STRESS or self._judging is not None:
            return self.decide(see(game, self.player, now))
        # Nothing a player can do while the count runs or after the round.
        self._phase = phase
        return None

    def decide(self, view: View) -> Action | None:
        """Decide from a view alone (and the bot's memory of its earlier views)."""
        phase = view.phase
        if phase is _PLAYING:
            return self._decide_playing(view)
        self._phase = phase
        if phase is Phase.STRESS:
            level = self.level
            if self._expect_stress and view.tops == self._tops:
                # The piles show the stress its own card made: it saw it coming.
                median = level.anticipated_call
                self._judging = view.draw_count + sum(view.row_sizes)
            else:
                median = level.call
            self._expect_stress = False
            return CallStress(self.player, view.now + self.delay(median, CALL_CAP))
        if self._judging is not None:
            self._judge(view)
        return None

    def _judge(self, view: View) -> None:
        """It made a stress, and the stress is settled: it holds more if it lost."""
        if self._judging is not None:
            if view.draw_count + sum(view.row_sizes) > self._judging:
                self._made_lost += 1
            else:
                self._made_won += 1
            self._judging = None

    @property
    def expects_to_win_its_stresses(self) -> bool:
        """Whether it expects to be first to call a stress it makes: so it thinks until it
        has lost more of them than it has won."""
        return self._made_won >= self._made_lost

    def delay(self, median: float, cap: float = PLAY_CAP) -> float:
        """A reaction time: lognormal around ``median``, within ``FLOOR`` and ``cap``."""
        delay = median * self._spread[int(self.rng.random() * _QUANTILES)]
        if delay < FLOOR:
            return FLOOR
        return cap if delay > cap else delay

    # ------------------------------------------------------------------ playing

    def _decide_playing(self, view: View) -> Action | None:
        level = self.level
        rng = self.rng
        tops = view.tops
        row = view.row
        flipped = self._phase is not _PLAYING
        continuing = not flipped and tops == self._tops
        self._phase = _PLAYING
        self._expect_stress = False
        if self._judging is not None:
            self._judge(view)

        if self._false_call and not continuing and rng.random() < self._false_call:
            self._tops = tops
            self._row = row
            self._played = -1
            return CallStress(self.player, view.now + self.delay(level.call, CALL_CAP))

        fits = view.rules.fits
        top0, top1 = tops
        on0 = fits[top0] if top0 != EMPTY else _NOTHING
        on1 = fits[top1] if top1 != EMPTY else _NOTHING
        miss = self._miss
        plays: list[tuple[int, int]] = []
        missed = False
        pile = 0
        for rank in row:
            if rank in on0:
                if miss and rng.random() < miss:
                    missed = True
                else:
                    plays.append((pile, 0))
            if rank in on1:
                if miss and rng.random() < miss:
                    missed = True
                else:
                    plays.append((pile, 1))
            pile += 1  # noqa: SIM113 (enumerate is slower here)

        if len(plays) > 1 and self._made_lost > self._made_won and not view.opponent_stop:
            # It has lost the stresses it made: it would rather play something else.
            wanted = [p for p in plays if row[p[0]] != tops[1 - p[1]] and row[p[0]] != JOKER]
            if wanted:
                plays = wanted

        if not plays:
            self._tops = tops
            self._row = row
            self._played = -1
            if self._stops and view.rules.stress_stop and not view.stop and stress_threats(view):
                # Nothing to play: point at the opponent's stress card instead.
                median = level.chain if continuing else level.look
                return StopStress(self.player, view.now + self.delay(median))
            if view.ready:
                return None
            if not missed and not view.opponent_ready:
                for rank in view.opponent_row:
                    if rank in on0 or rank in on1:
                        # The opponent can play: wait for it.
                        return None
            # Nothing to play (or so it thinks, or nothing it wants to): say so; the cards
            # are flipped once the opponent says so too.
            median = level.look * level.surprise if flipped else level.look
            return ReadyToFlip(self.player, view.now + self.delay(median))

        if len(plays) == 1:
            pile, target = plays[0]
        elif self._sense:
            pile, target = self._best(view, plays)
        else:
            pile, target = plays[int(rng.random() * len(plays))]

        rank = row[pile]
        if target:
            other = top0
            self._tops = (top0, rank)
        else:
            other = top1
            self._tops = (rank, top1)
        if flipped:
            median = level.look * level.surprise
        elif continuing and pile != self._played and self._row[pile] == rank:
            median = level.chain
        else:
            median = level.look
        self._row = row
        self._played = pile
        self._expect_stress = (rank in (other, JOKER)) and not view.opponent_stop
        at = view.now + self.delay(median)
        if at < view.locked_until:
            at = view.locked_until
        return Play(self.player, pile, target, at)

    def _best(self, view: View, plays: list[tuple[int, int]]) -> tuple[int, int]:
        """The play its level's sense likes best (the first of equals)."""
        level = self.level
        chains, stacks = level.chains, level.stacks
        makes_stress = (
            level.makes_stress and not view.opponent_stop and self.expects_to_win_its_stresses
        )
        fits = view.rules.fits
        row = view.row
        sizes = view.row_sizes
        tops = view.tops
        opponent = (
            [rank for rank in view.opponent_row if rank != EMPTY] if level.blocks else ()
        )
        best = plays[0]
        best_score = -1_000_000
        for play in plays:
            pile, target = play
            rank = row[pile]
            other = tops[1 - target]
            on_it = fits[rank]
            on_other = fits[other] if other != EMPTY else _NOTHING
            score = 2 * sizes[pile] if stacks else 0
            if chains:
                # The run this card starts on its pile (5, then 6, then 7), each card of
                # which it will play at chain speed; then what still fits the other pile.
                left = [*row[:pile], *row[pile + 1:]]
                top = rank
                while True:
                    for follow in left:
                        if follow in fits[top]:
                            score += 3
                            left.remove(follow)
                            top = follow
                            break
                    else:
                        break
                for follow in left:
                    if follow in on_other:
                        score += 1
            if makes_stress and (rank in (other, JOKER)):
                score += 6
            for theirs in opponent:
                if theirs in on_it:
                    score -= 4 if theirs in (other, JOKER) else 1
                if theirs in on_other:
                    score -= 4 if theirs in (rank, JOKER) else 1
            if score > best_score:
                best, best_score = play, score
        return best


def make_bot(player: int, level: str, rng: random.Random) -> Driver:
    """A computer player for ``player`` (0 or 1) at ``level`` (easy, normal, hard, expert).

    >>> make_bot(1, "hard", random.Random(0))
    Bot(player=1, level='hard')
    """
    if level not in LEVELS:
        raise ValueError(f"no bot level {level!r} (choose from {', '.join(LEVELS)})")
    return Bot(player, LEVELS[level], rng)
