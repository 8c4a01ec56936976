"""A network table's end as the screen reads it (``Link``: the host's ``Host`` or the
joiner's ``Client`` alike), and the round's clock as the network table keeps it
(``NetClock``: the host's, which stops for both players).
"""

from __future__ import annotations

from collections.abc import Callable

from stress_tui.core.lifecycle import Hold, Lifecycle
from stress_tui.core.table import Table
from stress_tui.net.client import Client
from stress_tui.net.host import JOINER_SEAT, Host, describe
from stress_tui.net.records import RoundFiles
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
    def table(self) -> Table | None:
        model = self.model
        if isinstance(model, Host):
            return model.fair.table if model.fair is not None else None
        return model.table

    @property
    def delay_ms(self) -> float | None:
        model = self.model
        if isinstance(model, Host):
            return None if model.delay is None else model.delay * 1e3
        return None if model.status in ("lost", "over") else model.delay_ms  # no line, no delay

    def status_line(self) -> str | None:
        model = self.model
        if isinstance(model, Host):
            return model.status_line(_)
        if model.status == "lost":
            left = int((model.lost_left() or 0.0) + 0.999)
            return _("the connection to the host was lost: trying again, {s} s").format(s=left)
        return describe(
            model.status,
            model.names[JOINER_SEAT],
            model.paused_by,
            model.message,
            model.drop_left,
            _,
            held_by=model.held_by,
        )

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
        return self.model.status in ("counting", "dropped", "lost")

    @property
    def waiting(self) -> tuple[bool, bool] | None:
        """Before a round starts: which players it waits for, as the host's gate says."""
        model = self.model
        if model.status != "starting":
            return None
        return model.life.waiting if isinstance(model, Host) else model.waiting

    def resume_left(self) -> float | None:
        """Seconds of the count before play goes on (``None``: none runs): the host's own,
        or the joiner's estimate of it (less the delay)."""
        return self.model.resume_left()

    def playing(self) -> bool:
        """Whether this side's keys play now."""
        model = self.model
        return model.status == "playing" if isinstance(model, Host) else model.playing()


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
        return self.now()

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
