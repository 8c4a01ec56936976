"""A match's life: the stages it passes through, the events that move it, and its clock.

One machine for every way to play (one keyboard, against the computer, the daily, a
replay watched, a network table): what differs is who supplies the events and who is told.
It is pure: it reads no clock, every event carries the outside time ``at`` it happened
(seconds; only differences count), as the engine's actions carry theirs.

::

    WAITING --deal--> READY --ready (the last awaited)--> PLAYING
    WAITING --deal (nobody awaited)--> PLAYING
    PLAYING --hold--> PAUSED --release (the last hold)--> COUNT --count over--> PLAYING
    PLAYING --round_over--> ROUND_OVER --grace over--> RESULT
    RESULT --go_on: the next round, or a rematch once the match is won--> (deal) READY
    any stage --leave--> GONE

A hold (help, pause, a window too small, a suspended program, a peer away or dropped) may
come in any stage and stops the clock; several may hold at once, each with who holds it.
Only a round under way (``PLAYING``) is a ``PAUSED`` stage while held, and only it counts
in (``COUNT``) when the last hold goes; before the round starts the start gate's own stop
holds the clock, and after it ends the result shows. The engine's phases (waiting for a
flip, stress) are the round's own, inside ``PLAYING``, and are read from the round itself.

The clock: game time is seconds since the round began, not counting the time it stood
still (``WAITING``, ``READY``, ``COUNT``, ``GONE``, and while anything holds it), times
``speed``. It never runs back
except where it is set (``set_time``: a new round, a replay's step).
"""

from __future__ import annotations

import enum
from typing import NamedTuple

RESUME_SECONDS = 1.5
"""How long the count lasts before play goes on after a hold (3, 2, 1): nobody gets a
head start."""

RESULT_GRACE = 0.5
"""Seconds after a round ends during which its result takes no keys, so that a player
still hammering their keys does not skip it (or quit)."""


class Stage(enum.Enum):
    """Where a match stands."""

    WAITING = "waiting"
    """No round dealt yet: waiting for the players to sit down (a network table's open
    seat)."""
    READY = "ready"
    """A round dealt, waiting for the people at it to say they are ready (the start
    gate); its clock stands still."""
    PLAYING = "playing"
    """The round is under way and its clock runs (the engine's own phases inside)."""
    PAUSED = "paused"
    """The round is under way and something holds it (``Lifecycle.holds`` says what)."""
    COUNT = "count"
    """The last hold has gone: a count (3, 2, 1) before play goes on."""
    ROUND_OVER = "round-over"
    """The round has ended: its result is up but takes no keys yet (``RESULT_GRACE``)."""
    RESULT = "result"
    """The result takes keys: go on (the next round, or a rematch once the match is won)."""
    GONE = "gone"
    """The match has been left; nothing moves it any more."""


class Hold(enum.Enum):
    """Why the clock stands still in a stage that would otherwise run it."""

    HELP = "help"
    """Someone reads the help."""
    PAUSE = "pause"
    """Someone paused (Esc, Space in a replay)."""
    SMALL = "small"
    """A window is too small to show the table."""
    SUSPEND = "suspend"
    """A program is stopped (Ctrl-Z)."""
    AWAY = "away"
    """A player across a network cannot see the table (their help, window or stop)."""
    DROPPED = "dropped"
    """A player's connection is lost: the table waits for them to come back."""


class Next(enum.Enum):
    """What going on from a round's result leads to."""

    ROUND = "round"
    """The match's next round."""
    REMATCH = "rematch"
    """The match was won: a new match, from its first round."""


class Holder(NamedTuple):
    """One reason the clock stands still, and whose it is."""

    hold: Hold
    """Why."""
    by: int | None = None
    """The seat it is (``None``: this end's own, or nobody's in particular)."""


_PLAYING, _READY = Stage.PLAYING, Stage.READY
"""The stages asked of at every key and frame, under plain names: on Python 3.11 reading a
member off its enum class goes through ``EnumType.__getattr__``'s slow path
(``core/view.py``)."""


class Lifecycle:
    """One match's stage, its holds, its start gate and its clock. Events are methods;
    each says whether it changed anything, and one that does not fit the stage is
    ignored (a ready key after the start, a go-on before the result takes keys)."""

    def __init__(
        self, speed: float = 1.0, count: float = RESUME_SECONDS, grace: float = RESULT_GRACE
    ) -> None:
        self.base = Stage.WAITING
        """The stage apart from holds and counts (``WAITING``, ``READY``, ``PLAYING``,
        ``ROUND_OVER``, ``RESULT`` or ``GONE``): ``stage`` adds the rest."""
        self.holds: set[Holder] = set()
        """What holds the clock now."""
        self.awaited = [False, False]
        """In ``READY``: whom the round still waits for (a person who has not said ready)."""
        self.count = count
        """Seconds of the count after a hold (0: play goes on at once, as in a replay)."""
        self.grace = grace
        """Seconds the result takes no keys after the round ends."""
        self.count_until: float | None = None
        """When the count running ends (outside time; ``None``: none runs)."""
        self.live_at: float | None = None
        """In ``ROUND_OVER``: when its result takes keys."""
        self.match_over = False
        """Whether the round last ended won the match."""
        self.round = 0
        """The round's number in the match (1 for the first; 0: none dealt yet)."""
        self.deals = 0
        """Rounds dealt since the machine was made, rematches' included: it never goes
        back, so it names a deal where the round's number repeats (a rematch's round 1)."""
        self.speed = speed
        """Seconds of game time per outside second (a replay's ``--speed``)."""
        self.origin = 0.0
        """The game time at ``start``."""
        self.start = 0.0
        """When (outside time) the clock last showed ``origin``."""
        self.still_total = 0.0
        """Outside seconds the clock stood still since ``start``."""
        self.still_since = 0.0
        """When the clock last stopped (outside time), while it stands still."""
        self.last = 0.0
        """The latest game time shown (it never runs back)."""
        self.stopped = self._still()
        """Whether the clock stands still now."""

    # ------------------------------------------------------------------ reading

    @property
    def stage(self) -> Stage:
        """Where the match stands."""
        if self.base is _PLAYING:
            if self.holds:
                return Stage.PAUSED
            if self.count_until is not None:
                return Stage.COUNT
        return self.base

    def held(self, hold: Hold) -> bool:
        """Whether ``hold`` holds the clock (by anyone)."""
        return any(h.hold is hold for h in self.holds)

    def holders(self, hold: Hold) -> list[int | None]:
        """Who holds the clock for ``hold``."""
        return [h.by for h in self.holds if h.hold is hold]

    @property
    def waiting(self) -> tuple[bool, bool] | None:
        """Whom the start gate waits for, for the screen (``None``: not before a start)."""
        if self.base is not _READY:
            return None
        return self.awaited[0], self.awaited[1]

    @property
    def in_play(self) -> bool:
        """Whether a match is in play: dealt and not won (quitting now would end it)."""
        if self.base in (Stage.WAITING, Stage.GONE):
            return False
        return not (self.base in (Stage.ROUND_OVER, Stage.RESULT) and self.match_over)

    def count_left(self, at: float) -> float | None:
        """Outside seconds left of the count (``None``: none runs)."""
        if self.count_until is None or self.stage is not Stage.COUNT:
            return None
        return max(0.0, self.count_until - at)

    def next_deadline(self) -> float | None:
        """When (outside time) the machine next moves by itself (``advance``): the
        count's end or the result's grace; ``None``: only events move it."""
        if self.stage is Stage.COUNT:
            return self.count_until
        if self.base is Stage.ROUND_OVER:
            return self.live_at
        return None

    # ------------------------------------------------------------------ the clock

    def time(self, at: float) -> float:
        """The game time at outside time ``at`` (never earlier than one shown before)."""
        still = self.still_total + (at - self.still_since if self.stopped else 0.0)
        shown = self.origin + (at - self.start - still) * self.speed
        if shown > self.last:
            self.last = shown
        return self.last

    def reach(self, game_time: float, at: float) -> float:
        """The game time at ``at``, or ``game_time`` if the clock is just short of it (a
        timer set for it may fire a hair early); what it shows from then on."""
        self.last = max(self.time(at), game_time)
        return self.last

    def when(self, game_time: float) -> float:
        """When (outside time) the clock shows ``game_time``, if it runs till then."""
        return self.start + self.still_total + (game_time - self.origin) / self.speed

    def set_time(self, game_time: float, at: float) -> None:
        """Make the clock show ``game_time`` at ``at`` (still, if it stands still)."""
        self.origin = game_time
        self.start = at
        self.still_total = 0.0
        self.still_since = at
        self.last = game_time

    def set_speed(self, speed: float, at: float) -> None:
        """Run at ``speed`` from ``at`` on, going on from the time shown then."""
        now = self.time(at)
        self.speed = speed
        self.set_time(now, at)

    def _still(self) -> bool:
        return (
            self.base in (Stage.WAITING, Stage.READY, Stage.GONE)
            or bool(self.holds)
            or self.count_until is not None
        )

    def _settle_clock(self, at: float) -> None:
        """After a change: stop or start the clock as the stage now says."""
        still = self._still()
        if still and not self.stopped:
            self.still_since = at
        elif self.stopped and not still:
            self.still_total += at - self.still_since
        self.stopped = still

    # ------------------------------------------------------------------ events

    def deal(self, at: float, awaited: tuple[bool, bool] = (False, False)) -> None:
        """A round is dealt (the first, the next, a rematch's first): it waits for the
        people in ``awaited`` to say ready (``READY``), or starts now (``PLAYING``). The
        help and a pause of the last round close; a small window or a stop stay."""
        if self.base is Stage.GONE:
            return
        self.round += 1
        self.deals += 1
        self.holds = {h for h in self.holds if h.hold not in (Hold.HELP, Hold.PAUSE)}
        self.count_until = None
        self.live_at = None
        self.match_over = False
        self.awaited = [awaited[0], awaited[1]]
        self.base = Stage.PLAYING if not any(awaited) else Stage.READY
        self._settle_clock(at)

    def ready(self, player: int, at: float) -> bool:
        """``player`` says they are ready; whether that started the round (they were the
        last awaited). Counts only at the gate with nothing held."""
        if self.base is not Stage.READY or self.holds or not self.awaited[player]:
            return False
        self.awaited[player] = False
        if any(self.awaited):
            return False
        self.base = Stage.PLAYING
        self._settle_clock(at)
        return True

    def hold(self, hold: Hold, at: float, by: int | None = None) -> bool:
        """Something holds the clock; whether it was not held so already. A hold ends a
        count that was running."""
        holder = Holder(hold, by)
        if self.base is Stage.GONE or holder in self.holds:
            return False
        self.holds.add(holder)
        self.count_until = None
        self._settle_clock(at)
        return True

    def release(self, hold: Hold, at: float, by: int | None = None) -> bool:
        """One hold goes; whether it was there. When the last goes while the round is under
        way, the count starts (or play goes on at once, with no count)."""
        holder = Holder(hold, by)
        if holder not in self.holds:
            return False
        self.holds.discard(holder)
        if not self.holds and self.base is Stage.PLAYING and self.count > 0:
            self.count_until = at + self.count
        self._settle_clock(at)
        return True

    def round_over(self, at: float, match_over: bool) -> bool:
        """The round has ended (won, or drawn on a dead table); ``match_over``: it won
        the match. Its result shows, taking keys ``grace`` seconds later."""
        if self.base is not Stage.PLAYING:
            return False
        self.base = Stage.ROUND_OVER
        self.match_over = match_over
        self.count_until = None
        self.live_at = at + self.grace
        self._settle_clock(at)
        if self.grace <= 0:
            self.advance(at)
        return True

    def advance(self, at: float) -> bool:
        """Carry out what is due by ``at``: the count's end, the result's grace; whether
        anything was."""
        if self.stage is Stage.COUNT and self.count_until is not None and self.count_until <= at:
            self.count_until = None
            self._settle_clock(at)
            return True
        if self.base is Stage.ROUND_OVER and self.live_at is not None and self.live_at <= at:
            self.base = Stage.RESULT
            self.live_at = None
            return True
        return False

    def go_on(self) -> Next | None:
        """On the result (once it takes keys): what comes next, the next round or, once the
        match is won, a rematch (``None``: not now). The caller deals it (``deal``); a
        rematch starts counting rounds from 1 again."""
        if self.base is not Stage.RESULT:
            return None
        if self.match_over:
            self.round = 0
            return Next.REMATCH
        return Next.ROUND

    def leave(self, at: float) -> None:
        """The match is left (quit, a signal, the other end gone for good)."""
        self.base = Stage.GONE
        self.count_until = None
        self._settle_clock(at)
