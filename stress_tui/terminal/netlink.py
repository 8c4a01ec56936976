"""A network table's end as the screen reads it (``Link``: the host's ``Host`` or the
joiner's ``Client`` alike), and the round's clock as the network table keeps it
(``NetClock``: the host's, which stops for both players).
"""

from __future__ import annotations

from collections.abc import Callable

from stress_tui.core.lifecycle import Hold, Holder, Lifecycle, Stage
from stress_tui.core.table import Table
from stress_tui.net.client import Client
from stress_tui.net.host import Host
from stress_tui.net.records import RoundFiles
from stress_tui.net.standing import describe, dropped, starting
from stress_tui.terminal.clock import Clock
from stress_tui.terminal.lang import _


class Link:
    """The host's or the joiner's end, read alike by the screen."""

    def __init__(self, model: Host | Client) -> None:
        self.model = model

    @property
    def host(self) -> Host | None:
        return self.model if isinstance(self.model, Host) else None

    @property
    def role(self) -> str:
        model = self.model
        if isinstance(model, Host):
            return "host"
        return "watch" if model.role == "watch" else "join"

    @property
    def stage(self) -> Stage:
        """Where the match stands: the host's lifecycle's stage (as last told, at the
        joiner's end; ``WAITING`` there until the first table)."""
        model = self.model
        return model.life.stage if isinstance(model, Host) else model.stage

    @property
    def holds(self) -> frozenset[Holder]:
        """What holds the match (at the joiner's end, its own lost connection too)."""
        model = self.model
        return frozenset(model.life.holds) if isinstance(model, Host) else model.holds

    @property
    def lost(self) -> bool:
        """Whether this end's connection to the host is lost (it is reaching it again)."""
        return not isinstance(self.model, Host) and self.model.lost

    @property
    def open_seat(self) -> bool:
        """Whether the host waits for someone to take the seat."""
        return isinstance(self.model, Host) and self.stage is Stage.WAITING

    @property
    def under_way(self) -> bool:
        """Whether the round is being played, nothing holding it."""
        return self.stage is Stage.PLAYING and not self.holds

    @property
    def starting(self) -> bool:
        """Whether the round waits for its players to say they are ready."""
        return starting(self.stage, self.holds)

    @property
    def counting(self) -> bool:
        """Whether the count before play goes on runs."""
        return self.stage is Stage.COUNT and not self.holds

    @property
    def dropped(self) -> bool:
        """Whether a connection is lost: the joiner's, as the host sees it, or this end's."""
        return dropped(self.holds)

    @property
    def result_up(self) -> bool:
        """Whether the round is over and its result is what the match shows."""
        return self.stage in (Stage.ROUND_OVER, Stage.RESULT) and not self.dropped

    @property
    def table(self) -> Table | None:
        model = self.model
        if isinstance(model, Host):
            return model.fair.table if model.fair is not None else None
        return model.table

    @property
    def delay_ms(self) -> float | None:
        """The one-way delay the title shows, in ms (``None``: not known yet, or no line)."""
        model = self.model
        if not isinstance(model, Host) and (self.lost or self.stage is Stage.GONE):
            return None  # no line
        delay = model.shown_delay()
        return None if delay is None else delay * 1e3

    def status_line(self) -> str | None:
        model = self.model
        if isinstance(model, Host):
            return model.status_line(_)
        if model.lost:
            left = int((model.lost_left() or 0.0) + 0.999)
            return _("the connection to the host was lost: trying again, {s} s").format(s=left)
        return describe(model.stage, model.holds, model.names, model.message, model.drop_left, _)

    def result(self) -> RoundFiles | None:
        model = self.model
        if isinstance(model, Host):
            return model.result
        return model.result if model.result_round == model.round_number else None

    @property
    def winner(self) -> int | None:
        return self.model.result_winner

    @property
    def ticking(self) -> bool:
        """Whether seconds are being counted on screen."""
        return self.counting or self.dropped

    @property
    def waiting(self) -> tuple[bool, bool] | None:
        """Before a round starts: which players it waits for, as the host's gate says."""
        model = self.model
        if not self.starting:
            return None
        return model.life.waiting if isinstance(model, Host) else model.waiting

    def resume_left(self) -> float | None:
        """Seconds of the count before play goes on (``None``: none runs): the host's own,
        or the joiner's estimate of it (less the delay)."""
        return self.model.resume_left()

    def seconds_left(self) -> float | None:
        """The seconds the panel counts down by this end's clock, shown whole
        (``status_line``): the host's wait for a dropped joiner, the joiner's for its lost
        connection (``None``: none runs here)."""
        model = self.model
        return model.drop_left() if isinstance(model, Host) else model.lost_left()

    def playing(self) -> bool:
        """Whether this side's keys play now."""
        model = self.model
        return self.under_way if isinstance(model, Host) else model.playing()


class NetClock(Clock):
    """The round's clock as the network table keeps it: the host's, which stops for both
    players. A local reason to stop (the help, a window too small, Ctrl-Z) is a hold of
    this screen's lifecycle, and asks the host to pause instead of stopping this screen's
    clock alone."""

    def __init__(
        self,
        link: Link,
        time: Callable[[], float],
        on_change: Callable[[], None],
        life: Lifecycle,
    ):
        super().__init__(time, life, on_change=on_change)
        self.link = link
        self.shown = 0.0
        """The host's game time last read."""

    @property
    def last(self) -> float:
        return self.shown

    def now(self) -> float:
        self.shown = self.link.model.now()
        return self.shown

    def reach(self, game_time: float) -> float:
        self.shown = self.link.model.reach(game_time)
        return self.shown

    def when(self, game_time: float) -> float:
        return self.time() + max(0.0, game_time - self.now())

    def set(self, game_time: float) -> None:
        """The host sets the time."""

    def pause(self, reason: str) -> None:
        self.life.hold(Hold(reason), self.time())
        self.link.model.pause(hold=True)
        if self.on_change is not None:
            self.on_change()

    def unpause(self, reason: str) -> None:
        if not self.life.release(Hold(reason), self.time()):
            return
        if not self.life.holds:
            self.link.model.resume(hold=True)
        if self.on_change is not None:
            self.on_change()
