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
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from stress_tui.core.actions import Action, CallStress, Play, PlayTogether, ReadyToFlip, StopStress
from stress_tui.core.cards import Card
from stress_tui.core.decks import JOKER
from stress_tui.core.engine import Game, Phase, PlayerState, State
from stress_tui.core.table import Driver
from stress_tui.core.view import PlayerView, position

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


_NO_SHUFFLES = random.Random(0)
"""The random source of positions rebuilt from views: a bot never applies an action."""


def _position(view: PlayerView) -> Game:
    """A game at a position that shows exactly what ``view`` shows (``core.view.position``):
    a bot deciding on it decides as on any position that looks the same."""
    return Game(position(view.table), _NO_SHUFFLES)


def stress_threats(view: PlayerView) -> list[tuple[int, int]]:
    """The opponent's plays, as the view shows them, that would make stress: the same as
    ``Game.stress_threats`` for the opponent, from what is visible."""
    fits = view.table.rules.fits
    tops = tuple(EMPTY if card is None else card.rank for card in view.table.tops)
    threats = []
    for pile, card in enumerate(view.them.row):
        if card is None:
            continue
        rank = card.rank
        for target in (0, 1):
            top, other = tops[target], tops[1 - target]
            if top != EMPTY and rank in fits[top] and (rank in (JOKER, other)):
                threats.append((pile, target))
    return threats


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

_NOTHING: frozenset[int] = frozenset()

Fit = tuple[tuple[tuple[int, ...], ...], ...]
"""For a left top, a right top and a rank (each indexed by rank, ``EMPTY`` last): 1 if
the rank fits on the left pile, 2 if on the right, 3 if on both, 0 if on neither."""


def _fit(fits: tuple[frozenset[int], ...]) -> Fit:
    """The ``Fit`` table of an adjacency table (``Rules.fits``)."""
    on = (*fits, _NOTHING)  # an empty pile (EMPTY, -1: the last) takes nothing
    ranks = (*range(len(fits)), EMPTY)
    return tuple(
        tuple(tuple((rank in left) | (rank in right) << 1 for rank in ranks) for right in on)
        for left in on
    )


_FITS: dict[tuple[frozenset[int], ...], tuple[Fit, tuple[frozenset[int], ...]]] = {}
"""``_fit`` and the adjacency table with an empty pile's nothing last, by adjacency
table (one per deck and wrap rule)."""

_CODES: tuple[tuple[int, ...], ...] = tuple(
    tuple(code for code in range(8) if mask >> code & 1) for mask in range(256)
)
"""The plays in a mask of them: bit ``2 * pile + target`` is the play of ``pile`` onto
``target``, and so is its code; in order, as a player runs an eye along the row."""

_EVEN = int("01" * 256, 2)
"""Bits 0, 2, 4...: one bit a pile in a mask of plays (for rows of up to 256 piles)."""


def _codes(mask: int) -> Sequence[int]:
    """The plays in a mask of them (``_CODES``, for any row)."""
    if mask < 256:
        return _CODES[mask]
    return [code for code in range(mask.bit_length()) if mask >> code & 1]


def _others(mask: int) -> Sequence[int]:
    """For each play (by code), how many other piles of the row fit the other play pile,
    given the mask of all the row's plays."""
    return [
        (mask >> (1 - (code & 1)) & _EVEN & ~(1 << 2 * (code >> 1))).bit_count()
        for code in range(max(8, mask.bit_length()))
    ]


_OTHERS: tuple[Sequence[int], ...] = tuple(_others(mask) for mask in range(256))
"""``_others`` of the masks of rows of up to four piles."""


def _read(piles: list[list[Card]], fit: tuple[int, ...]) -> tuple[list[int], int]:
    """A row's ranks (``EMPTY`` for an empty place) and the mask of the plays they have
    on the tops that ``fit`` (``Fit[left][right]``) is for. ``Bot.plan`` reads a row of
    four (the usual one) the same way inline; a row of three is unrolled too."""
    if len(piles) == 3:
        a, b, c = piles
        ra = a[0].rank if a else EMPTY
        rb = b[0].rank if b else EMPTY
        rc = c[0].rank if c else EMPTY
        return [ra, rb, rc], fit[ra] | fit[rb] << 2 | fit[rc] << 4
    row = [pile[0].rank if pile else EMPTY for pile in piles]
    mask = 0
    for pile, rank in enumerate(row):
        mask |= fit[rank] << 2 * pile
    return row, mask


_PLAYING = Phase.PLAYING
_STRESS = Phase.STRESS


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
        # The level, read out once: ``plan`` runs at every change of the table.
        self._opponent = 1 - player
        self._sense = level.chains or level.stacks or level.blocks or level.makes_stress
        self._chains = level.chains
        self._stacks = level.stacks
        self._blocks = level.blocks
        self._makes_stress = level.makes_stress
        self._miss = level.miss
        self._false_call = level.false_call
        self._look = level.look
        self._after_flip = level.look * level.surprise
        self._chain = level.chain
        self._game: Game | None = None
        """The game it last looked at, and what it read of the rules:"""
        self._stops_stress = False
        self._together = False
        """It lays ready cards of one rank together (the rules have it, and so does its
        sense of stacks)."""
        self._fit: Fit = ()
        self._on: tuple[frozenset[int], ...] = ()
        self._phase = Phase.WAITING_FLIP
        """The phase at its last look."""
        self._top0 = self._top1 = EMPTY
        """The play piles' tops it expects once its planned action has landed."""
        self._row: list[int] = []
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
        """What to do next, stamped with when the reaction ends; ``None`` to wait.

        It reads of ``game`` only what a player sees (the same decision as ``decide``
        on ``player_view(game.state, player, now)``, which the tests hold it to),
        straight from the position: this runs at every change of the table, and a play
        is the most frequent answer, so that path is one function rather than a view
        built at every look.
        """
        state = game.state
        phase = state.phase
        if phase is not _PLAYING:
            if phase is _STRESS or self._judging is not None:
                return self._not_playing(state, phase, now)
            # Nothing a player can do while the count runs or after the round.
            self._phase = phase
            return None
        players = state.players
        me = players[self.player]
        left, right = state.play_piles
        top0 = left[-1].rank if left else EMPTY
        top1 = right[-1].rank if right else EMPTY
        if game is not self._game:
            self._learn(game)
        fit = self._fit[top0][top1]
        # Its row, and every play it has (``_read``, inline for the usual row of four).
        piles = me.row
        fitting: Sequence[int]
        if len(piles) == 4:
            a, b, c, d = piles
            ra = a[0].rank if a else EMPTY
            rb = b[0].rank if b else EMPTY
            rc = c[0].rank if c else EMPTY
            rd = d[0].rank if d else EMPTY
            row = [ra, rb, rc, rd]
            mask = fit[ra] | fit[rb] << 2 | fit[rc] << 4 | fit[rd] << 6
            fitting = _CODES[mask]
        else:
            row, mask = _read(piles, fit)
            fitting = _codes(mask)
        rng = self.rng
        # A flip showed it new cards; otherwise the piles may be as it expected them.
        flipped = self._phase is not _PLAYING
        if flipped:
            self._phase = _PLAYING
            if self._judging is not None:  # (set at a look at a stress only)
                self._judge(me)

        if (
            self._false_call
            and (flipped or top0 != self._top0 or top1 != self._top1)
            and rng.random() < self._false_call
        ):
            self._top0 = top0
            self._top1 = top1
            self._row = row
            self._played = -1
            self._expect_stress = False
            return CallStress(self.player, now + self.delay(self.level.call, CALL_CAP))

        # Each play it has (coded 2 * pile + target) it overlooks with its miss chance.
        miss = self._miss
        missed = False
        plays: Sequence[int] = fitting
        if miss and fitting:
            if len(fitting) == 1:
                if rng.random() < miss:
                    missed = True
                    plays = ()
            else:
                plays = []
                for code in fitting:
                    if rng.random() < miss:
                        missed = True
                    else:
                        plays.append(code)

        if not plays:
            them = players[self._opponent]
            continuing = not flipped and top0 == self._top0 and top1 == self._top1
            self._top0 = top0
            self._top1 = top1
            self._row = row
            self._played = -1
            self._expect_stress = False
            if self._stops_stress and not me.stop and self._threatened(them, top0, top1):
                # Nothing to play: point at the opponent's stress card instead.
                median = self._chain if continuing else self._look
                return StopStress(self.player, now + self.delay(median))
            if me.ready:
                return None
            if not missed and not them.ready:
                for place in them.row:
                    if place and fit[place[0].rank]:
                        # The opponent can play: wait for it.
                        return None
            # Nothing to play (or so it thinks, or nothing it wants to): say so; the cards
            # are flipped once the opponent says so too.
            median = self._after_flip if flipped else self._look
            return ReadyToFlip(self.player, now + self.delay(median))

        if len(plays) == 1:
            play = plays[0]
        else:
            them = players[self._opponent]
            if self._made_lost > self._made_won and not them.stop:
                plays = self._unstressing(plays, row, top0, top1)
            if len(plays) == 1:
                play = plays[0]
            elif self._sense:
                play = self._best(plays, row, mask, me, them, top0, top1)
            else:
                play = plays[int(rng.random() * len(plays))]

        pile = play >> 1
        rank = row[pile]
        if flipped:
            median = self._after_flip
        elif (
            top0 == self._top0
            and top1 == self._top1  # its own card landed as planned
            and pile != self._played
            and self._row[pile] == rank  # and it saw this one
        ):
            median = self._chain
        else:
            median = self._look
        if play & 1:
            target = 1
            other = top0
            self._top0 = top0
            self._top1 = rank
        else:
            target = 0
            other = top1
            self._top0 = rank
            self._top1 = top1
        together = self._together and rank != JOKER and row.count(rank) > 1
        if together:
            # Every place of the rank is refilled with a card it has not seen.
            self._row = [EMPTY if seen == rank else seen for seen in row]
        else:
            self._row = row
        self._played = pile
        # (Two comparisons: ``in (other, JOKER)`` would build a tuple at every play.)
        self._expect_stress = (
            (rank == other or rank == JOKER)  # noqa: SIM109
            and not players[self._opponent].stop
        )
        # ``delay``, inline.
        at = median * self._spread[rng.getrandbits(_QUANTILE_BITS)]
        rng.getrandbits(1)
        if at < FLOOR:
            at = FLOOR
        elif at > PLAY_CAP:
            at = PLAY_CAP
        at += now
        if at < me.locked_until:
            at = me.locked_until
        if together:
            return PlayTogether(self.player, pile, target, at)
        return Play(self.player, pile, target, at)

    def decide(self, view: PlayerView) -> Action | None:
        """Decide from a view alone (and the bot's memory of its earlier views), at the
        view's time: the same decision as ``plan`` on any position that looks like
        ``view``."""
        if view.player != self.player:
            raise ValueError(f"a view of player {view.player}, not of {self.player}")
        return self.plan(_position(view), view.table.time)

    def _not_playing(self, state: State, phase: Phase, now: float) -> Action | None:
        """Stress open: call it; otherwise (the count runs, the round is over) wait."""
        self._phase = phase
        if phase is _STRESS:
            level = self.level
            left, right = state.play_piles
            if (
                self._expect_stress
                and (left[-1].rank if left else EMPTY) == self._top0
                and (right[-1].rank if right else EMPTY) == self._top1
            ):
                # The piles show the stress its own card made: it saw it coming.
                median = level.anticipated_call
                me = state.players[self.player]
                self._judging = len(me.draw_pile) + sum(map(len, me.row))
            else:
                median = level.call
            self._expect_stress = False
            return CallStress(self.player, now + self.delay(median, CALL_CAP))
        if self._judging is not None:
            self._judge(state.players[self.player])
        return None

    def _judge(self, me: PlayerState) -> None:
        """It made a stress, and the stress is settled: it holds more if it lost."""
        if self._judging is not None:
            if len(me.draw_pile) + sum(map(len, me.row)) > self._judging:
                self._made_lost += 1
            else:
                self._made_won += 1
            self._judging = None

    def _learn(self, game: Game) -> None:
        """Sit down at a new game: read its rules' tables."""
        rules = game.rules
        tables = _FITS.get(rules.fits)
        if tables is None:
            tables = _FITS[rules.fits] = (_fit(rules.fits), (*rules.fits, _NOTHING))
        self._game = game
        self._stops_stress = self.level.stops and rules.stress_stop
        self._together = self.level.stacks and rules.together
        self._fit, self._on = tables

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

    # ------------------------------------------------------------------ playing

    def _threatened(self, them: PlayerState, top0: int, top1: int) -> bool:
        """Whether the opponent has a play that would make stress (``stress_threats``)."""
        on = self._on
        on0, on1 = on[top0], on[top1]
        for pile in them.row:
            if pile:
                rank = pile[0].rank
                if (rank in on0 and rank in (JOKER, top1)) or (
                    rank in on1 and rank in (JOKER, top0)
                ):
                    return True
        return False

    def _unstressing(
        self, plays: Sequence[int], row: list[int], top0: int, top1: int
    ) -> Sequence[int]:
        """It has lost the stresses it made: the plays that make none, if there are any."""
        wanted = []
        for play in plays:
            rank = row[play >> 1]
            if rank != (top0 if play & 1 else top1) and rank != JOKER:
                wanted.append(play)
        return wanted or plays

    def _best(
        self,
        plays: Sequence[int],
        row: list[int],
        mask: int,
        me: PlayerState,
        them: PlayerState,
        top0: int,
        top1: int,
    ) -> int:
        """The play its level's sense likes best (the first of equals); ``mask`` has the
        row's every play, as ``_codes`` reads it."""
        chains, stacks, together = self._chains, self._stacks, self._together
        makes_stress = self._makes_stress and not them.stop and self._made_won >= self._made_lost
        on = self._on
        piles = me.row
        opponent = [pile[0].rank for pile in them.row if pile] if self._blocks else ()
        others = _OTHERS[mask] if mask < 256 else _others(mask)
        best = plays[0]
        best_score = -1_000_000
        for play in plays:
            pile = play >> 1
            rank = row[pile]
            score = 0
            if stacks:
                # Two a card that leaves the row in this one move (laid together, every
                # card of its rank).
                if together and rank != JOKER:
                    score = 2 * sum(
                        len(p) for p, seen in zip(piles, row, strict=True) if seen == rank
                    )
                else:
                    score = 2 * len(piles[pile])
            if chains:
                # The run this card starts on its pile (5, then 6, then 7), each card of
                # which it will play at chain speed; then what still fits the other pile.
                after = on[rank]
                if after.isdisjoint(row):
                    # No run (the usual case; no card fits on its own rank, and a joker,
                    # on which everything fits, never gets here): what fits the other
                    # pile is the rest of the row's plays there.
                    score += others[play]
                else:
                    left = row[:]
                    del left[pile]
                    while not after.isdisjoint(left):
                        for follow in left:
                            if follow in after:
                                break
                        score += 3
                        left.remove(follow)
                        after = on[follow]
                    on_other = on[top0 if play & 1 else top1]
                    for follow in left:
                        if follow in on_other:
                            score += 1
            if makes_stress or opponent:
                other = top0 if play & 1 else top1
                if makes_stress and (rank in (other, JOKER)):
                    score += 6
                if opponent:
                    # What the move leaves the opponent: each play (more so a stress).
                    on_it, on_other = on[rank], on[other]
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
