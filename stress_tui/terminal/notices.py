"""Notices: what happened lately, in words, per player and for the table, made from the
game's events only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from stress_tui.core.cards import Card
from stress_tui.core.engine import (
    STALE_PLAYS,
    CallStress,
    Event,
    FalseStressCalled,
    FlipAgreed,
    Flipped,
    Game,
    NoProgress,
    PilesRecycled,
    PilesTaken,
    Play,
    Played,
    ReadyNoted,
    ReadyToFlip,
    Rejected,
    RejectReason,
    RoundWon,
    Stalled,
    StopDeclared,
    StopStress,
    StressStopped,
    StressWon,
    TableDead,
)
from stress_tui.core.rules import FalseStress
from stress_tui.terminal.lang import _, ngettext, rank_name

NOTICE_SECONDS = 2.0
"""How long a rejected play or a stress result stays on screen (game seconds)."""


@dataclass
class Notice:
    """A line of text shown for a while."""

    text: str
    """What it says."""
    kind: str = "info"
    """``info``, ``warn``, ``good``: how it is styled."""
    until: float | None = None
    """Game time it disappears (``None``: until replaced)."""
    sticky_until_flip: bool = False
    """Cleared by the next flip (ready, stall, stop)."""


def _rank(card: Card) -> str:
    return _("joker") if card.is_joker else rank_name(card.rank)


@dataclass
class Notices:
    """What happened lately, in words, per player and for the table (from events only)."""

    names: tuple[str, str] = ("Player 1", "Player 2")
    """Who is who."""
    player: list[Notice | None] = field(default_factory=lambda: [None, None])
    """The line next to each player's row."""
    headline: Notice | None = None
    """The banner line between the rows."""

    def note(self, events: Iterable[Event], now: float, game: Game) -> None:
        """Turn events (just applied to ``game`` at ``now``) into notices."""
        events = list(events)
        taken = {e.player: e.count for e in events if isinstance(e, PilesTaken)}
        names = self.names
        for event in events:
            if isinstance(event, Played):
                self.player[event.player] = None
            elif isinstance(event, Rejected) and event.player is not None:
                self.player[event.player] = Notice(
                    self._rejection(event, game), "warn", now + NOTICE_SECONDS
                )
            elif isinstance(event, ReadyNoted):
                other = names[1 - event.player]
                self.player[event.player] = Notice(
                    _("ready to flip (waiting for {other})").format(other=other),
                    "info",
                    sticky_until_flip=True,
                )
            elif isinstance(event, StopDeclared):
                self.player[event.player] = Notice(
                    _("stress stop: the other's next stress does not count"),
                    "info",
                    sticky_until_flip=True,
                )
            elif isinstance(event, StressStopped):
                self.headline = Notice(
                    _("{name} stopped the stress").format(name=names[event.by]),
                    "good",
                    now + NOTICE_SECONDS,
                )
            elif isinstance(event, StressWon):
                count = taken.get(event.loser, 0)
                self.headline = Notice(
                    ngettext(
                        "{winner} called stress first: {loser} takes {count} card",
                        "{winner} called stress first: {loser} takes {count} cards",
                        count,
                    ).format(winner=names[event.winner], loser=names[event.loser], count=count),
                    "good",
                    now + NOTICE_SECONDS + 1.0,
                )
                self.player[event.winner] = Notice(_("stress won!"), "good", now + NOTICE_SECONDS)
                self.player[event.loser] = Notice(
                    ngettext(
                        "too slow: takes {count} card", "too slow: takes {count} cards", count
                    ).format(count=count),
                    "warn",
                    now + NOTICE_SECONDS,
                )
            elif isinstance(event, FalseStressCalled):
                who = event.player
                if event.penalty is FalseStress.TAKE:
                    count = taken.get(who, 0)
                    text = ngettext(
                        "no stress! takes {count} card", "no stress! takes {count} cards", count
                    ).format(count=count)
                    self.headline = Notice(
                        ngettext(
                            "{name} called a false stress and takes {count} card",
                            "{name} called a false stress and takes {count} cards",
                            count,
                        ).format(name=names[who], count=count),
                        "warn",
                        now + NOTICE_SECONDS,
                    )
                elif event.penalty is FalseStress.LOCKOUT:
                    text = _("no stress!")
                else:
                    text = _("no stress (no penalty)")
                self.player[who] = Notice(text, "warn", now + NOTICE_SECONDS)
            elif isinstance(event, Stalled):
                self.headline = Notice(
                    _("Nobody can play: new cards on three"), "info", sticky_until_flip=True
                )
            elif isinstance(event, FlipAgreed):
                self.headline = Notice(
                    _("Both ready: new cards on three"), "info", sticky_until_flip=True
                )
            elif isinstance(event, PilesRecycled):
                self.headline = Notice(
                    _("Both draw piles are empty: each takes a play pile"),
                    "info",
                    now + NOTICE_SECONDS + 1.0,
                )
            elif isinstance(event, Flipped):
                self._clear_sticky()
            elif isinstance(event, RoundWon):
                self.headline = Notice(
                    _("{name} wins the round!").format(name=names[event.player]), "good"
                )
            elif isinstance(event, TableDead):
                self.headline = Notice(_("12 flips and no card played: the table is dead"), "warn")
            elif isinstance(event, NoProgress):
                self.headline = Notice(
                    _("{count} plays and nobody nearer the end: the round is over").format(
                        count=STALE_PLAYS
                    ),
                    "warn",
                )

    def _rejection(self, event: Rejected, game: Game) -> str:
        action = event.action
        reason = event.reason
        if (
            isinstance(action, Play)
            and reason is RejectReason.NOT_ADJACENT
            and game.state.players[action.player].row[action.pile]
        ):
            card = game.state.players[action.player].row[action.pile][0]
            top = game.top(action.target)
            if top is not None:
                return _("{card} on {top}: {reason}").format(
                    card=_rank(card), top=_rank(top), reason=_(reason.value)
                )
        if isinstance(action, CallStress):
            return _("stress: {reason}").format(reason=_(reason.value))
        if isinstance(action, ReadyToFlip):
            return _("ready: {reason}").format(reason=_(reason.value))
        if isinstance(action, StopStress):
            return _("stress stop: {reason}").format(reason=_(reason.value))
        return _(reason.value)

    def _clear_sticky(self) -> None:
        for i, notice in enumerate(self.player):
            if notice is not None and notice.sticky_until_flip:
                self.player[i] = None
        if self.headline is not None and self.headline.sticky_until_flip:
            self.headline = None

    def expire(self, now: float) -> bool:
        """Drop notices whose time is up; whether anything went."""
        changed = False
        for i, notice in enumerate(self.player):
            if notice is not None and notice.until is not None and notice.until <= now:
                self.player[i] = None
                changed = True
        headline = self.headline
        if headline is not None and headline.until is not None and headline.until <= now:
            self.headline = None
            changed = True
        return changed

    def next_expiry(self) -> float | None:
        """When the next notice disappears."""
        times = [n.until for n in (*self.player, self.headline) if n and n.until is not None]
        return min(times) if times else None

    def clear(self) -> None:
        """Forget everything (a new round)."""
        self.player = [None, None]
        self.headline = None
