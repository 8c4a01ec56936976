"""The computer opponent: what a player at the table sees, and how a person would act on it.

A ``Bot`` is a ``Driver`` for the ``Table``. Each time the table asks, it looks at what its
player may see of the game (``stress_tui.core.view``: both rows, the tops and sizes of the
play piles, how many cards each draw pile holds, the phase, the lockouts and the stop and
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

from stress_tui.core.actions import Action, CallStress, Play, PlayTogether, ReadyToFlip, StopStress
from stress_tui.core.cards import Card
from stress_tui.core.decks import JOKER
from stress_tui.core.engine import Phase
from stress_tui.core.legal import legal_plays, makes_stress
from stress_tui.core.rules import Rules
from stress_tui.core.table import Driver
from stress_tui.core.view import PlayerView, SideView

EMPTY = -1
"""The rank the bot reads for an empty place in a row, or an empty play pile."""

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
            "easy",
            look=1.05,
            chain=0.70,
            surprise=1.5,
            call=0.85,
            anticipated_call=0.70,
            sigma=0.30,
            miss=0.20,
            false_call=0.01,
            chains=False,
            stacks=False,
            blocks=False,
            makes_stress=False,
            stops=False,
        ),
        Level(
            "normal",
            look=0.80,
            chain=0.45,
            surprise=1.4,
            call=0.62,
            anticipated_call=0.50,
            sigma=0.28,
            miss=0.06,
            false_call=0.0,
            chains=True,
            stacks=True,
            blocks=False,
            makes_stress=False,
            stops=True,
        ),
        Level(
            "hard",
            look=0.60,
            chain=0.33,
            surprise=1.3,
            call=0.46,
            anticipated_call=0.30,
            sigma=0.25,
            miss=0.02,
            false_call=0.0,
            chains=True,
            stacks=True,
            blocks=True,
            makes_stress=True,
            stops=True,
        ),
        Level(
            "expert",
            look=0.45,
            chain=0.24,
            surprise=1.25,
            call=0.34,
            anticipated_call=0.20,
            sigma=0.22,
            miss=0.0,
            false_call=0.0,
            chains=True,
            stacks=True,
            blocks=True,
            makes_stress=True,
            stops=True,
        ),
    )
}
"""The levels by name, weakest first."""


_QUANTILE_BITS = 12
_QUANTILES = 1 << _QUANTILE_BITS
"""Delays are drawn by inverting a lognormal's distribution at this many even steps."""


def _spread(sigma: float) -> tuple[float, ...]:
    """exp(sigma * z) at the midpoints of ``_QUANTILES`` equal slices of the normal
    distribution: a lognormal factor with median 1, drawn by one uniform index."""
    normal = NormalDist()
    return tuple(
        math.exp(sigma * normal.inv_cdf((k + 0.5) / _QUANTILES)) for k in range(_QUANTILES)
    )


_SPREADS: dict[float, tuple[float, ...]] = {}

_PLAYING = Phase.PLAYING
_STRESS = Phase.STRESS


def _rank(card: Card | None) -> int:
    """The rank of a card the view shows, ``EMPTY`` for none."""
    return EMPTY if card is None else card.rank


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
        spread = _SPREADS.get(level.sigma)
        if spread is None:
            spread = _SPREADS[level.sigma] = _spread(level.sigma)
        self._spread = spread
        self._sense = level.chains or level.stacks or level.blocks or level.makes_stress
        self._rules: Rules | None = None
        """The rules it last played by, and what it read of them:"""
        self._stops_stress = False
        """It declares the stress stop (the rules have it, and so does its level)."""
        self._together = False
        """It lays ready cards of one rank together (the rules have it, and so does its
        sense of stacks)."""
        self._phase = Phase.WAITING_FLIP
        """The phase at its last look."""
        self._top0 = self._top1 = EMPTY
        """The play piles' tops it expects once its planned action has landed."""
        self._row: list[int] = []
        """Its row's ranks as it last saw them."""
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

    def decide(self, view: PlayerView) -> Action | None:
        """What to do next at the view's time, from the view alone (and the bot's memory
        of its earlier views); what is legal is the view's to say."""
        if view.player != self.player:
            raise ValueError(f"a view of player {view.player}, not of {self.player}")
        table = view.table
        phase = table.phase
        if phase is not _PLAYING:
            if phase is _STRESS or self._judging is not None:
                return self._not_playing(view)
            # Nothing a player can do while the count runs or after the round.
            self._phase = phase
            return None
        now = table.time
        me, them = table.sides[self.player], table.sides[1 - self.player]
        left, right = table.tops
        top0 = EMPTY if left is None else left.rank
        top1 = EMPTY if right is None else right.rank
        if table.rules is not self._rules:
            self._learn(table.rules)
        row = [EMPTY if card is None else card.rank for card in me.row]
        fitting = table.legal_plays(self.player)
        rng = self.rng
        # A flip showed it new cards; otherwise the piles may be as it expected them.
        flipped = self._phase is not _PLAYING
        if flipped:
            self._phase = _PLAYING
            if self._judging is not None:  # (set at a look at a stress only)
                self._judge(me)

        false_call = self.level.false_call
        if (
            false_call
            and (flipped or top0 != self._top0 or top1 != self._top1)
            and rng.random() < false_call
        ):
            self._saw(top0, top1, row)
            return CallStress(self.player, now + self.delay(self.level.call, CALL_CAP))

        # Each play it has it overlooks with its miss chance.
        miss = self.level.miss
        missed = False
        plays = fitting
        if miss and fitting:
            plays = []
            for play in fitting:
                if rng.random() < miss:
                    missed = True
                else:
                    plays.append(play)

        if not plays:
            continuing = not flipped and top0 == self._top0 and top1 == self._top1
            self._saw(top0, top1, row)
            if self._stops_stress and not me.stop and table.stress_threats(1 - self.player):
                # Nothing to play: point at the opponent's stress card instead.
                median = self.level.chain if continuing else self.level.look
                return StopStress(self.player, now + self.delay(median))
            if me.ready:
                return None
            if not missed and not them.ready and table.legal_plays(1 - self.player):
                return None  # the opponent can play: wait for it
            # Nothing to play (or so it thinks, or nothing it wants to): say so; the cards
            # are flipped once the opponent says so too.
            median = self.level.look * self.level.surprise if flipped else self.level.look
            return ReadyToFlip(self.player, now + self.delay(median))

        if len(plays) > 1 and self._made_lost > self._made_won and not them.stop:
            plays = [
                (pile, target)
                for pile, target in plays
                if not makes_stress(_card(me.row, pile), table.tops[1 - target])
            ] or plays
        if len(plays) == 1:
            pile, target = plays[0]
        elif self._sense:
            pile, target = best_play(view, plays, self.level, self._together, self._won_enough)
        else:
            pile, target = plays[int(rng.random() * len(plays))]
        return self._play(view, pile, target, flipped, row, top0, top1)

    def _play(
        self,
        view: PlayerView,
        pile: int,
        target: int,
        flipped: bool,
        row: list[int],
        top0: int,
        top1: int,
    ) -> Play:
        """The chosen play, timed, and what it expects of the table once it has landed
        (``row``, ``top0`` and ``top1``: the ranks it sees)."""
        level = self.level
        table = view.table
        rank = row[pile]
        if flipped:
            median = level.look * level.surprise
        elif (
            top0 == self._top0
            and top1 == self._top1  # its own card landed as planned
            and pile != self._played
            and self._row[pile] == rank  # and it saw this one
        ):
            median = level.chain
        else:
            median = level.look
        card = _card(view.me.row, pile)
        other = table.tops[1 - target]
        self._top0, self._top1 = (top0, rank) if target else (rank, top1)
        together = self._together and rank != JOKER and row.count(rank) > 1
        # With cards laid together, every place of the rank is refilled with a card it
        # has not seen.
        self._row = [EMPTY if seen == rank else seen for seen in row] if together else row
        self._played = pile
        self._expect_stress = makes_stress(card, other) and not view.them.stop
        at = max(table.time + self.delay(median), view.me.locked_until)
        if together:
            return PlayTogether(self.player, pile, target, at)
        return Play(self.player, pile, target, at)

    def _saw(self, top0: int, top1: int, row: list[int]) -> None:
        """It looked and plays nothing: the table as it is now is what it expects."""
        self._top0 = top0
        self._top1 = top1
        self._row = row
        self._played = -1
        self._expect_stress = False

    def _not_playing(self, view: PlayerView) -> Action | None:
        """Stress open: call it; otherwise (the count runs, the round is over) wait."""
        table = view.table
        self._phase = table.phase
        if table.phase is _STRESS:
            level = self.level
            if (
                self._expect_stress
                and _rank(table.tops[0]) == self._top0
                and _rank(table.tops[1]) == self._top1
            ):
                # The piles show the stress its own card made: it saw it coming.
                median = level.anticipated_call
                self._judging = _held(view.me)
            else:
                median = level.call
            self._expect_stress = False
            return CallStress(self.player, table.time + self.delay(median, CALL_CAP))
        if self._judging is not None:
            self._judge(view.me)
        return None

    def _judge(self, me: SideView) -> None:
        """It made a stress, and the stress is settled: it holds more if it lost."""
        if self._judging is not None:
            if _held(me) > self._judging:
                self._made_lost += 1
            else:
                self._made_won += 1
            self._judging = None

    def _learn(self, rules: Rules) -> None:
        """Sit down at a table's rules."""
        self._rules = rules
        self._stops_stress = self.level.stops and rules.stress_stop
        self._together = self.level.stacks and rules.together

    @property
    def _won_enough(self) -> bool:
        """Whether it makes stress when it can: its level does, and it has not lost more
        of the stresses it made than it won."""
        return self.level.makes_stress and self.expects_to_win_its_stresses

    @property
    def expects_to_win_its_stresses(self) -> bool:
        """Whether it expects to be first to call a stress it makes: so it thinks until it
        has lost more of them than it has won."""
        return self._made_won >= self._made_lost

    def delay(self, median: float, cap: float = PLAY_CAP) -> float:
        """A reaction time: lognormal around ``median``, within ``FLOOR`` and ``cap``."""
        # The quantile ``int(random() * _QUANTILES)``, drawn as cheaply: ``random()`` takes
        # two 32-bit words and its top bits are the first word's, so this is the same
        # index; ``getrandbits(1)`` takes the second word, so the generator moves on
        # just as far (``tests/test_bot.py`` holds it to that).
        rng = self.rng
        delay = median * self._spread[rng.getrandbits(_QUANTILE_BITS)]
        rng.getrandbits(1)
        if delay < FLOOR:
            return FLOOR
        return cap if delay > cap else delay


def _card(row: tuple[Card | None, ...], pile: int) -> Card:
    """The card a pile of a row shows, for a play from it (which the rules allow only
    from a pile that shows one)."""
    card = row[pile]
    assert card is not None, f"a play from the empty place {pile}"
    return card


def _held(side: SideView) -> int:
    """The cards a side holds: its draw pile and its row."""
    return side.draw_count + sum(side.row_sizes)


def best_play(
    view: PlayerView,
    plays: list[tuple[int, int]],
    level: Level,
    together: bool,
    stresses: bool,
) -> tuple[int, int]:
    """The play a level's sense likes best among ``plays`` (the first of equals), as
    ``docs/bot.md`` tells it; ``together``: it lays ready cards of one rank together;
    ``stresses``: it makes stress when it can."""
    table = view.table
    rules = table.rules
    fits = rules.fits
    row, sizes = view.me.row, view.me.row_sizes
    ranks = [EMPTY if card is None else card.rank for card in row]
    them = view.them.row if level.blocks else None
    stresses = stresses and not view.them.stop
    best, best_score = plays[0], -1_000_000
    for pile, target in plays:
        card = _card(row, pile)
        rank = card.rank
        other = table.tops[1 - target]
        score = 0
        if level.stacks:
            # Two a card that leaves the row in this one move (laid together, every card
            # of its rank).
            if together and rank != JOKER:
                score = 2 * sum(
                    size for seen, size in zip(ranks, sizes, strict=True) if seen == rank
                )
            else:
                score = 2 * sizes[pile]
        if level.chains:
            # The run this card starts on its pile (5, then 6, then 7), each card of which
            # it will play at chain speed; then what of the rest fits the other pile.
            left = ranks[:pile] + ranks[pile + 1 :]
            after = fits[rank]
            while not after.isdisjoint(left):
                for follow in left:
                    if follow in after:
                        break
                score += 3
                left.remove(follow)
                after = fits[follow]
            if other is not None:
                on_other = fits[other.rank]
                for seen in left:
                    if seen in on_other:
                        score += 1
        if stresses and makes_stress(card, other):
            score += 6
        if them is not None:
            # What the move leaves the opponent: each play (more so a stress).
            tops = (other, card) if target else (card, other)
            for theirs, on in legal_plays(rules, them, tops):
                score -= 4 if makes_stress(_card(them, theirs), tops[1 - on]) else 1
        if score > best_score:
            best, best_score = (pile, target), score
    return best


def make_bot(player: int, level: str, rng: random.Random) -> Driver:
    """A computer player for ``player`` (0 or 1) at ``level`` (easy, normal, hard, expert).

    >>> make_bot(1, "hard", random.Random(0))
    Bot(player=1, level='hard')
    """
    if level not in LEVELS:
        raise ValueError(f"no bot level {level!r} (choose from {', '.join(LEVELS)})")
    return Bot(player, LEVELS[level], rng)
