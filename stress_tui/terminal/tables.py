"""The SSH server's tables for two (``terminal/server.py``, ``docs/serve.md``): each a
network table's host (``net.host.Host``) on the loopback address, its seats' players
reaching it over their SSH connections.

``ServedHost`` dates every key of both seats at its arrival at the server less that
seat's one-way delay over SSH, bounded as at a network table: half the smallest round
trip the server's kernel measured on the player's SSH connection (``TCP_INFO``,
``net/pathrtt.py``: timed from acknowledgements the player's own program does not send),
at most the host's ``max_delay`` (``net.fair.MAX_DELAY``). The joiner's ping-timed
compensation of a network table would time only the loopback between the server and
itself, and the host seat's keys would go undated: here both seats are remote alike.
The host pings no one and sends no ``check`` with what moved: its seats and spectators
are in this same process, with no network between them to time, to go silent or to lose
a message, and each title shows its own player's SSH delay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from stress_tui.core.lifecycle import Stage
from stress_tui.core.table import Table as CoreTable
from stress_tui.net.client import Client
from stress_tui.net.host import HOST_SEAT, JOINER_SEAT, Host
from stress_tui.net.hosted import action_from_message
from stress_tui.net.records import RoundFiles

SeatPath = Callable[[], float | None]
"""A seat's SSH round trip as the kernel measured it, in seconds (``None``: unknown)."""


class ServedHost(Host):
    """A network table's host whose two seats are both players over SSH."""

    pings = False
    checks = False

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.paths: dict[int, SeatPath] = {}
        """Each seat's SSH round trip, by seat (the joiner's changes when it comes back)."""

    def seat_delay(self, seat: int) -> float | None:
        """A seat's one-way delay over SSH: half its round trip as the server's kernel
        measured it (``None``: unknown)."""
        path = self.paths.get(seat)
        rtt = None if path is None else path()
        return None if rtt is None else rtt / 2

    def back(self, seat: int) -> float:
        """Seconds a key from ``seat`` is dated back: its SSH delay, at most
        ``max_delay``; 0 where nothing is measured."""
        delay = self.seat_delay(seat)
        return 0.0 if delay is None else max(0.0, min(self.max_delay, delay))

    def shown_delay(self) -> float | None:
        """The host seat's SSH delay: the screen says what its player's keys cross (the
        loopback between the server and itself, which the joiner's pings time, is no
        one's)."""
        return self.seat_delay(HOST_SEAT)

    def act(self, kind: str, pile: int | None = None, target: int | None = None) -> None:
        """The host seat's key: dated at its arrival less its SSH delay."""
        if self.life.stage is not Stage.PLAYING or self.fair is None:
            return
        message: dict[str, Any] = {"a": kind}
        if kind in ("play", "play-together"):
            message.update(pile=pile, to=target)
        when = max(0.0, self.now() - self.back(HOST_SEAT))
        self._apply(action_from_message(message, HOST_SEAT, when))

    def _joiner_act(self, message: dict[str, Any], dated: float | None = None) -> None:
        """The joiner's key: dated at its arrival less its SSH delay (not the loopback's)."""
        if dated is None and self.life.stage is Stage.PLAYING:
            dated = max(0.0, self.now() - self.back(JOINER_SEAT))
        super()._joiner_act(message, dated)


class ServedClient(Client):
    """The joiner's or a spectator's end of a table on this server. The table's host
    writes each round's replay and counts it in the server's data folder, so this end
    keeps none (it would be a second copy, counted a second time); its result shows the
    round's statistics as the host worked them out."""

    pinged = False

    def __init__(
        self, host: ServedHost, *args: Any, path: SeatPath | None = None, **options: Any
    ) -> None:
        self.own: RoundFiles | None = None
        self.table_host = host
        """The table's host, in this same process."""
        self.path = path
        """A spectator's SSH round trip (a seat's is the host's: ``ServedHost.paths``)."""
        super().__init__(*args, record=False, **options)

    @property
    def result(self) -> RoundFiles | None:
        """The round's files as this end knows them, with the host's statistics."""
        own, theirs = self.own, self.table_host.result
        if own is not None and own.stats is None and theirs is not None:
            return RoundFiles(theirs.stats, own.notes)
        return own

    @result.setter
    def result(self, value: RoundFiles | None) -> None:
        self.own = value

    def predicted(self) -> CoreTable | None:
        """The host's last table, our plays not played on it ahead: the host's answer comes
        from this same process a moment after the key, and the play is drawn once, whole,
        with it (ahead of it, it would be drawn first without the card its place is given)."""
        return self.shown

    def shown_delay(self) -> float | None:
        """This end's player's SSH delay: the joiner's seat's, as at the host's seat, or
        the spectator's own (half its round trip)."""
        if self.seat is not None:
            return self.table_host.seat_delay(self.seat)
        rtt = None if self.path is None else self.path()
        return None if rtt is None else rtt / 2


@dataclass
class Table:
    """A table for two on the server: its host, the key that opened it and the key that
    took its other seat."""

    host: ServedHost
    """The table's host (on the loopback address)."""
    opener: str
    """The fingerprint of the key that opened it (plays as the host)."""
    seated: str | None = None
    """The fingerprint of the key that took the other seat: the one key that may take it
    again, after a dropped connection (``None``: nobody yet)."""
    away: asyncio.TimerHandle | None = None
    """While the opener's connection has dropped: the timer that closes the table unless
    their key comes back first (``None``: the opener is at it)."""
