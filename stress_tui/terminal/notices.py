"""Notices: what happened lately, in words, per player and for the table, made from the
game's events only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from stress_tui.core.actions import CallStress, Play, ReadyToFlip, StopStress
from stress_tui.core.cards import Card
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import (
    Drawn,
    Event,
    FalseStressCalled,
    FlipAgreed,
    Flipped,
    NoProgress,
    PilesRecycled,
    PilesTaken,
    Played,
    ReadyNoted,
    Rejected,
    RejectReason,
    RoundWon,
    Stalled,
    StopDeclared,
    StressStopped,
    StressWon,
    TableDead,
)
from stress_tui.core.houserules import DEAD_FLIPS, FalseStress
from stress_tui.terminal.lang import N_, _, ngettext, rank_name

NOTICE_SECONDS = 2.0
"""How long a rejected play or a stress result stays on screen (game seconds)."""

FLASH_SECONDS = 0.8
"""How long a play pile the other player just played on stands out (game seconds): long
enough to catch the eye, gone by itself with one redraw."""

MARK_SECONDS = 1.5
"""How long the table shows who put the top card on a play pile, and which row piles were
just refilled (game seconds)."""

LATE_SECONDS = 0.5
"""How long past its time a notice or mark may stay up: it goes with the next frame drawn
for anything else, or within that on a frame of its own (game seconds)."""


@dataclass
class Notice:
    """A line of text shown while it is true."""

    text: str
    """What it says."""
    kind: str = "info"
    """``info``, ``warn``, ``good``: how it is styled."""
    until: float | None = None
    """Game time it disappears (``None``: until replaced, or while its phase lasts)."""
    sticky_until_flip: bool = False
    """Cleared by the next flip (ready, stall, stop)."""
    short: str | None = None
    """A shorter way to say it, where the whole does not fit (never cut mid-word)."""
    phase: Phase | None = None
    """Only true in this phase of the round (``wait for the flip``): shown only then."""
    lockout: bool = False
    """The reason for a lockout: kept while the lockout lasts, which the line then says
    with the time left."""
    brief: str | None = None
    """A lockout's reason alone, in its short words (``no fit``): what the line says with
    the time left where not even ``short`` fits beside it."""

    def shown(self, phase: Phase) -> bool:
        """Whether it is still true of the round in ``phase``."""
        return self.phase is None or phase is self.phase


@dataclass(eq=False)
class Mark:
    """Who just changed a pile: the top card's player on a play pile, a refill in a row.
    Made up to three times a play and never changed (``Notices`` puts another in its
    place); not frozen, whose ``__init__`` would set each field through
    ``object.__setattr__``, more than doubling what making one costs."""

    text: str
    """What the mark says: a player's name, ``flip``, ``new``, ``+1``."""
    player: int | None
    """Whose doing it was (``None``: the flip's)."""
    until: float
    """Game time it goes."""


def _rank(card: Card) -> str:
    return _("joker") if card.is_joker else rank_name(card.rank)


SHORT_REASONS: dict[RejectReason, str] = {
    RejectReason.NOT_ADJACENT: N_("no fit"),
    RejectReason.EMPTY_PILE: N_("empty place"),
    RejectReason.LOST_RACE: N_("too late"),
    RejectReason.STRESS_OPEN: N_("stress is open"),
    RejectReason.NOT_PLAYING: N_("wait for the flip"),
    RejectReason.ROUND_OVER: N_("round over"),
    RejectReason.TOO_LATE: N_("too late"),
    RejectReason.ALREADY: N_("already said"),
    RejectReason.NO_STRESS_THREAT: N_("no stress to stop"),
    RejectReason.RULE_OFF: N_("not in play"),
    RejectReason.NOTHING_TO_FLIP: N_("flip not due"),
    RejectReason.NO_CARD_TO_FLIP: N_("a card fits"),
}
"""Each reason said short, for a narrow screen (marked: translated where shown)."""


def _taken(happened: Sequence[Event], player: int) -> int:
    """How many cards ``player`` took up with ``happened`` (its ``PilesTaken``: a stress
    lost, a false one's penalty); 0: none. Asked only where a stress was called."""
    for event in reversed(happened):
        if isinstance(event, PilesTaken) and event.player == player:
            return event.count
    return 0


def short_reason(reason: RejectReason) -> str:
    """A refusal's reason in its short words, in the language (``no fit``)."""
    return _(SHORT_REASONS.get(reason, reason.value))


PHASE_OF: dict[RejectReason, Phase] = {
    RejectReason.NOT_PLAYING: Phase.WAITING_FLIP,
    RejectReason.STRESS_OPEN: Phase.STRESS,
}
"""Reasons that are only true in one phase: their notice goes when the phase does."""


def said_rejection(event: Rejected, game: Game) -> tuple[str, str]:
    """A refused action in words, long and short: the reason, with the cards where a card
    does not fit, and what was refused (``stress: ...``, ``stop: ...``)."""
    action = event.action
    reason = event.reason
    said = _(reason.value)
    short = short_reason(reason)
    if (
        isinstance(action, Play)
        and reason is RejectReason.NOT_ADJACENT
        and game.state.players[action.player].row[action.pile]
    ):
        card = game.state.players[action.player].row[action.pile][0]
        top = game.top(action.target)
        if top is not None:
            on = _("{card} on {top}: {reason}")
            card_name, top_name = _rank(card), _rank(top)
            return (
                on.format(card=card_name, top=top_name, reason=said),
                on.format(card=card_name, top=top_name, reason=short),
            )
    if isinstance(action, CallStress):
        what = _("stress: {reason}")
    elif isinstance(action, ReadyToFlip):
        what = _("ready: {reason}")
    elif isinstance(action, StopStress):
        return (
            _("stress stop: {reason}").format(reason=said),
            _("stop: {reason}").format(reason=short),
        )
    else:
        return said, short
    return what.format(reason=said), what.format(reason=short)


@dataclass(eq=False)
class Notices:
    """What happened lately, in words, per player and for the table (from events only)."""

    names: tuple[str, str] = ("Player 1", "Player 2")
    """Who is who."""
    you: tuple[bool, bool] = (False, False)
    """Which player the notices speak to as "you" (``lang.addressed``): ``You win the
    round!``, not ``You wins``."""
    player: list[Notice | None] = field(default_factory=lambda: [None, None])
    """The line next to each player's row."""
    headline: Notice | None = None
    """The banner line between the rows."""
    piles: list[Mark | None] = field(default_factory=lambda: [None, None])
    """Who put the top card on each play pile, for a moment after."""
    refills: dict[tuple[int, int], Mark] = field(default_factory=dict)
    """Row piles (player, pile) just given a card from the draw pile."""
    flashes: list[Mark | None] = field(default_factory=lambda: [None, None])
    """Each play pile the other player just played on, standing out until its ``until``
    or the next play on it: every play where nobody at the table is spoken to as "you"
    (two people at one keyboard watch each other's), else the plays of those who are not."""
    new: str = field(init=False, default_factory=lambda: _("new"))
    """A refill's mark, said once in the language its terminal speaks (nearly every play)."""

    def note(self, happened: Sequence[Event], now: float, game: Game) -> None:
        """Turn events (just applied to ``game`` at ``now``) into notices."""
        names = self.names
        mark_until = now + MARK_SECONDS
        for event in happened:
            if type(event) is Played:
                self.player[event.player] = None
                self.piles[event.target] = Mark(names[event.player], event.player, mark_until)
                self.flashes[event.target] = (
                    None if self.you[event.player] else Mark("", event.player, now + FLASH_SECONDS)
                )
                self.refills.pop((event.player, event.pile), None)
            elif type(event) is Drawn:
                text = "+1" if event.stacked else self.new
                self.refills[event.player, event.pile] = Mark(text, event.player, mark_until)
            elif type(event) is Rejected and event.player is not None:
                self._rejected(event, now, game)
            elif type(event) is ReadyNoted:
                other = names[1 - event.player]
                waiting = (
                    _("ready to flip (waiting for you)")
                    if self.you[1 - event.player]
                    else _("ready to flip (waiting for {other})")
                )
                self.player[event.player] = Notice(
                    waiting.format(other=other),
                    "info",
                    sticky_until_flip=True,
                    short=_("ready: waiting"),
                )
            elif type(event) is StopDeclared:
                # The cards pointed at: the opponent's, where the stop says (unless the
                # stop is spent already, by a play noted with it).
                row = game.state.players[1 - event.player].row
                pointed = ", ".join(
                    _rank(row[place][0])
                    for place in game.state.players[event.player].stop
                    if row[place]
                )
                self.player[event.player] = (
                    Notice(
                        _("stress stop on {cards}: laid next, no stress").format(cards=pointed),
                        "info",
                        sticky_until_flip=True,
                        short=_("stop: {cards}").format(cards=pointed),
                    )
                    if pointed
                    else Notice(_("stress stop called"), "info", sticky_until_flip=True)
                )
            elif type(event) is StressStopped:
                stopped = (
                    _("You stopped the stress")
                    if self.you[event.by]
                    else _("{name} stopped the stress")
                )
                self.headline = Notice(
                    stopped.format(name=names[event.by]),
                    "good",
                    now + NOTICE_SECONDS,
                )
            elif type(event) is StressWon:
                count = _taken(happened, event.loser)
                winner, loser = names[event.winner], names[event.loser]
                if self.you[event.winner]:
                    text = ngettext(
                        "You called stress first: {loser} takes {count} card",
                        "You called stress first: {loser} takes {count} cards",
                        count,
                    )
                    short = _("stress to you: {loser} takes {count}")
                elif self.you[event.loser]:
                    text = ngettext(
                        "{winner} called stress first: you take {count} card",
                        "{winner} called stress first: you take {count} cards",
                        count,
                    )
                    short = _("stress to {winner}: you take {count}")
                else:
                    text = ngettext(
                        "{winner} called stress first: {loser} takes {count} card",
                        "{winner} called stress first: {loser} takes {count} cards",
                        count,
                    )
                    short = _("stress to {winner}: {loser} takes {count}")
                self.headline = Notice(
                    text.format(winner=winner, loser=loser, count=count),
                    "good",
                    now + NOTICE_SECONDS + 1.0,
                    short=short.format(winner=winner, loser=loser, count=count),
                )
                self.player[event.winner] = Notice(_("stress won!"), "good", now + NOTICE_SECONDS)
                self.player[event.loser] = Notice(
                    ngettext(
                        "too slow: takes {count} card", "too slow: takes {count} cards", count
                    ).format(count=count),
                    "warn",
                    now + NOTICE_SECONDS,
                    short=_("too slow: +{count}").format(count=count),
                )
            elif type(event) is FalseStressCalled:
                self._false_stress(event, happened, now)
            elif type(event) is Stalled or type(event) is FlipAgreed:
                # Nobody waits for anyone any more: the ready notices are no longer true.
                self._clear_ready()
                if type(event) is FlipAgreed:
                    text = _("Both ready: new cards on three")
                else:
                    text = _("Nobody can play: new cards on three")
                self.headline = Notice(text, "info", sticky_until_flip=True)
            elif type(event) is PilesRecycled:
                self.headline = Notice(
                    _("Both draw piles ran out: each took a play pile to draw from"),
                    "info",
                    now + NOTICE_SECONDS + 1.0,
                    short=_("Draw piles ran out: each took a play pile"),
                )
            elif type(event) is Flipped:
                self._clear_ready()
                if self.headline is not None and self.headline.sticky_until_flip:
                    self.headline = None
                for target, card in enumerate(event.cards):
                    if card is not None:
                        self.piles[target] = Mark(_("flip"), None, mark_until)
            elif type(event) is RoundWon:
                won = (
                    _("You win the round!")
                    if self.you[event.player]
                    else _("{name} wins the round!")
                )
                self.headline = Notice(won.format(name=names[event.player]), "good")
            elif type(event) is TableDead:
                self.headline = Notice(
                    _("{count} flips and no card played: a drawn round, dealt again").format(
                        count=DEAD_FLIPS
                    ),
                    "warn",
                    short=_("Dead table: a drawn round"),
                )
            elif type(event) is NoProgress:
                self.headline = Notice(
                    _("{count} plays and nobody nearer the end: a drawn round, dealt again").format(
                        count=game.rules.stale_limit
                    ),
                    "warn",
                    short=_("No progress: a drawn round"),
                )

    def says_nothing_new(self, event: Event, now: float, game: Game) -> bool:
        """Whether noting ``event`` (just applied to ``game`` at ``now``) would change
        nothing shown now: a rejection whose player's line says already what it would say
        (a key pressed during a lockout, "wait for the flip" again). A rejection changes
        nothing on the table either."""
        if not isinstance(event, Rejected) or event.player is None:
            return False
        notice = self._rejection(event, now, game)
        shown = self.player[event.player]
        if notice is None or shown is None:
            return notice is None
        return dataclasses.replace(notice, until=shown.until) == shown  # (it may last longer)

    def _rejected(self, event: Rejected, now: float, game: Game) -> None:
        """A refused action: said beside its player (``_rejection``)."""
        assert event.player is not None
        notice = self._rejection(event, now, game)
        if notice is not None:
            self.player[event.player] = notice

    def _rejection(self, event: Rejected, now: float, game: Game) -> Notice | None:
        """What the line beside a refused action's player says of it; ``None`` where it is
        only the lockout going on (then the lockout's reason stays)."""
        player = event.player
        assert player is not None
        shown = self.player[player]
        if event.reason is RejectReason.LOCKED_OUT and shown is not None and shown.lockout:
            return None
        text, short = said_rejection(event, game)
        locked_until = game.state.players[player].locked_until
        locked = locked_until > now
        until = max(now + NOTICE_SECONDS, locked_until) if locked else now + NOTICE_SECONDS
        lockout = locked and event.reason is not RejectReason.LOCKED_OUT
        return Notice(
            text,
            "warn",
            until,
            short=short,
            phase=PHASE_OF.get(event.reason),
            lockout=lockout,
            brief=short_reason(event.reason) if lockout else None,
        )

    def _false_stress(self, event: FalseStressCalled, events: Sequence[Event], now: float) -> None:
        who = event.player
        short = None
        if event.penalty is FalseStress.TAKE:
            count = _taken(events, who)
            text = ngettext(
                "no stress! takes {count} card", "no stress! takes {count} cards", count
            ).format(count=count)
            short = _("no stress! +{count}").format(count=count)
            if self.you[who]:
                called = ngettext(
                    "You called a false stress and take {count} card",
                    "You called a false stress and take {count} cards",
                    count,
                )
                called_short = _("false stress: you take {count}")
            else:
                called = ngettext(
                    "{name} called a false stress and takes {count} card",
                    "{name} called a false stress and takes {count} cards",
                    count,
                )
                called_short = _("false stress: {name} takes {count}")
            self.headline = Notice(
                called.format(name=self.names[who], count=count),
                "warn",
                now + NOTICE_SECONDS,
                short=called_short.format(name=self.names[who], count=count),
            )
        elif event.penalty is FalseStress.LOCKOUT:
            text = _("no stress!")
        else:
            text = _("no stress (no penalty)")
            short = _("no stress")
        self.player[who] = Notice(
            text,
            "warn",
            now + NOTICE_SECONDS,
            short=short,
            lockout=event.penalty is FalseStress.LOCKOUT,
        )

    def _clear_ready(self) -> None:
        for i, notice in enumerate(self.player):
            if notice is not None and notice.sticky_until_flip:
                self.player[i] = None

    def expire(self, now: float) -> bool:
        """Drop notices and marks whose time is up; whether anything went."""
        soonest = self.next_expiry()
        if soonest is None or soonest > now:
            return False  # (each frame asks; mostly nothing is up)
        changed = False
        for i, notice in enumerate(self.player):
            if notice is not None and notice.until is not None and notice.until <= now:
                self.player[i] = None
                changed = True
        headline = self.headline
        if headline is not None and headline.until is not None and headline.until <= now:
            self.headline = None
            changed = True
        for marks in (self.piles, self.flashes):
            for i, mark in enumerate(marks):
                if mark is not None and mark.until <= now:
                    marks[i] = None
                    changed = True
        gone = [where for where, mark in self.refills.items() if mark.until <= now]
        for where in gone:
            del self.refills[where]
        return changed or bool(gone)

    def next_expiry(self) -> float | None:
        """When the next notice or mark's time is up."""
        soonest = None
        for n in (*self.player, self.headline, *self.piles, *self.flashes, *self.refills.values()):
            if n is not None and n.until is not None and (soonest is None or n.until < soonest):
                soonest = n.until
        return soonest

    def clear(self) -> None:
        """Forget everything (a new round)."""
        self.player = [None, None]
        self.headline = None
        self.piles = [None, None]
        self.flashes = [None, None]
        self.refills = {}
