"""The network table in a terminal: the host's screen, the joiner's and the spectator's.

``NetScreen`` is a ``Screen`` (``terminal/screen.py``: the session, the timer, the
drawing) over a network table: the host's ``net.host.Host`` or the joiner's
``net.client.Client``. The table, its clock and what pauses it belong to the host; this
screen draws what it is told (the joiner's from the joiner's chair, their row at the
bottom) and passes keys on: a player's keys to the table, Esc and ``?`` as a pause for
both, Enter to go on or deal the next round, ``q`` to leave. The title line shows the
connection's delay; a panel over the table says when and why the match stands still.

``run_host`` and ``run_join`` are the ``host``, ``join`` and ``watch`` commands: they
reach the network before they take the terminal, so that a port in use, a host that
cannot be reached or a wrong code is one line on the terminal as it was (exit 2).

Test hooks (environment variables, not for players): ``STRESS_TUI_NET_SEED`` deals the
host's match from that seed instead of a secret one, so that a test knows the cards;
``STRESS_TUI_POSITION`` (as for a game at one keyboard) starts the first round at a
position in notation instead (neither recorded nor counted).
"""

from __future__ import annotations

import dataclasses
import os
import random
import socket
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from stress_tui.core.actions import Play, PlayTogether
from stress_tui.core.engine import Game, PlayerState, State
from stress_tui.core.events import Event
from stress_tui.core.lifecycle import Hold, Lifecycle, Stage
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.core.table import Table
from stress_tui.core.view import table_view
from stress_tui.net.addresses import EVERYWHERE, cannot_listen, kind_of, machine_addresses, shown
from stress_tui.net.client import Client, JoinError
from stress_tui.net.host import Host
from stress_tui.net.hosted import RESUME_COUNT
from stress_tui.net.standing import HOST_SEAT, JOINER_SEAT
from stress_tui.terminal.clock import Clock
from stress_tui.terminal.controller import GameController, TogetherKey
from stress_tui.terminal.endpoint import Endpoint
from stress_tui.terminal.keys import Binding, Intent, keymap_for
from stress_tui.terminal.lang import _, addressed, shown_names
from stress_tui.terminal.netlink import Link, NetClock
from stress_tui.terminal.pieces import count_up
from stress_tui.terminal.scene import Overlay, Scene
from stress_tui.terminal.screen import Screen
from stress_tui.terminal.screens.base import ModalScreen
from stress_tui.terminal.screens.help import HelpScreen
from stress_tui.terminal.screens.netpanel import NetPanelScreen, NetWaitingScreen
from stress_tui.terminal.screens.result import Result, ResultScreen
from stress_tui.terminal.session import EXIT_QUIT, local_endpoint

SEED_ENV = "STRESS_TUI_NET_SEED"
POSITION_ENV = "STRESS_TUI_POSITION"

EXIT_NETWORK = 2
"""A table that cannot be opened or reached, a refused join: said in one line."""

TICK = 0.2
"""Seconds between looks while this end's count before play goes on is over and the host
has not said so yet."""

MAX_JOIN_LINES = 3
"""Join lines the host's waiting panel shows (the first addresses: this network's)."""

_KINDS = {Intent.STRESS: "stress", Intent.READY: "ready", Intent.STOP: "stop"}
"""What a player's key other than a play is called on the wire."""


def _empty_table(rules: Rules) -> Table:
    """A bare table to draw before the first deal (no card on it)."""
    players = tuple(PlayerState([], [[] for _ in range(rules.row_size)]) for _ in (0, 1))
    state = State(rules, (players[0], players[1]), ([], []))
    return Table(Game(state, random.Random(0)))


class NetController(GameController):
    """The keys at a network table: the game's, with the pause and the next round asked of
    the host, and the panel shown while the match stands still."""

    def __init__(self, host: NetScreen, clock: Clock, keymap: Any, link: Link) -> None:
        self.link = link
        self.screen = host
        super().__init__(host, clock, keymap)

    def wanted(self) -> list[type[ModalScreen]]:
        """The host's word on the match: the result, or the panel saying why the match
        stands still (waiting for a player, paused, a player away); the help over it."""
        link = self.link
        want: list[type[ModalScreen]] = []
        if link.result_up:
            want.append(ResultScreen if self.result is not None else NetPanelScreen)
        elif link.open_seat:
            want.append(NetWaitingScreen)
        elif not (link.under_way or link.starting or link.counting):
            want.append(NetPanelScreen)  # (the table, with who is ready or the count to go on)
        if self.clock.life.held(Hold.HELP):
            want.append(HelpScreen)
        return want

    def toggle_pause(self, binding: Binding, overlay: str | None) -> None:
        if self.link.open_seat or self.link.stage is Stage.GONE:
            self.host.finish(EXIT_QUIT)  # Esc gives up waiting, or leaves a match that ended
        elif overlay == Overlay.HELP:
            self.clock.unpause("help")
        elif overlay == Overlay.PAUSE:
            self.link.model.resume()
        elif overlay is None:
            self.link.model.pause()
        self.host.request_draw()

    def confirm(self, binding: Binding, overlay: str | None) -> None:
        if overlay == Overlay.RESULT and self.grace_over():
            self.link.model.go_on()
        elif overlay == Overlay.PAUSE:
            self.link.model.resume()
        self.host.request_draw()

    def menu_quit(self, binding: Binding, overlay: str | None) -> None:
        if overlay != Overlay.RESULT or self.grace_over():
            self.host.finish(EXIT_QUIT)

    def play(self, binding: Binding, overlay: str | None) -> None:
        """As at one keyboard: a player's key plays on the table itself; before the round
        starts, their ready key says they are ready (the host's gate, for both)."""
        if binding.player is None or overlay is not None:
            return
        if self.link.starting:
            if binding.intent is Intent.READY:
                self.host.ready_to_start(binding.player)
        else:
            self.screen.play(binding)


@dataclasses.dataclass(frozen=True)
class LinkBar:
    """What the title line and the pause panel say at a table across a network."""

    role: str
    """``host``, ``join`` or ``watch``."""
    delay_ms: float | None
    """The connection's one-way delay (``None``: not measured yet)."""
    status: str | None = None
    """Where the match stands, when it is not being played (paused by whom, waiting for
    whom, who left), for the panel over the table."""
    quit_only: bool = False
    """Whether only leaving is up to this end (a spectator, a match over, or one standing
    still until the host or the other player moves it): the panel's hint says only that
    (``QUIT_ONLY``), not all of its keys."""


class NetScreen(Screen):
    """A network table in this terminal."""

    controller: NetController
    clock: NetClock

    def __init__(
        self,
        endpoint: Endpoint,
        settings: Settings,
        colour: bool = True,
        *,
        model: Host | Client,
        seat: int | None,
        join_line: str | None = None,
    ) -> None:
        self.link = Link(model)
        self.seat = seat
        """The engine player whose keys these are (``None``: a spectator)."""
        self.join_line = join_line
        """What the host's waiting panel tells the friend to type."""
        super().__init__(endpoint, settings, colour)
        self.own_rows = (seat == 0, seat == 1)
        """This end's own row alone (a spectator's: none): the other player's lockout is
        said without its time left."""
        self.clock = NetClock(self.link, self.loop_time, self.schedule, self.life)
        self.controller = self.make_controller()
        self.rules = model.rules
        """The table's rules: the host's."""
        self.table = _empty_table(self.rules)
        self.shown_round = 0
        """The round the screen last began."""
        model.on_change = self.on_change

    def make_lifecycle(self) -> Lifecycle:
        """This end's holds and the result's moment; the host keeps the count for both."""
        return Lifecycle(count=0.0)

    def make_controller(self) -> NetController:
        seat = self.seat
        if seat is None:
            keymap = keymap_for(("bot:normal", "bot:normal"), None)
        else:
            players = ("human", "bot:normal") if seat == 0 else ("bot:normal", "human")
            row = self.link.model.rules.row_size  # the table's row, the host's rules
            keymap = keymap_for(players, self.settings.keymap, self.settings.keyboard, row)
        return NetController(self, self.clock, keymap, self.link)

    # ------------------------------------------------------------------ the network

    def on_change(self, events: list[Event]) -> None:
        """The table changed (a key, a message from the other end, a timer of the host)."""
        if self.loop is None:
            return
        before = self.table
        table = self.link.table
        if table is not None:
            self.table = table
        names = self.link.model.names
        renamed = names != self.settings.names
        if renamed:
            self.settings = dataclasses.replace(self.settings, names=names)
            self.notices.names = shown_names(names)
            self.notices.you = addressed(names)
        model = self.link.model
        new = model.round_number != self.shown_round or self.controller.result is not None
        began = new and (self.link.starting or self.link.under_way)
        if began:  # a rematch's is round 1 again
            self.shown_round = model.round_number  # a clean table
            self.notices.clear()
            self.frames.cache.new_round()
            held = bool(self.clock.paused)
            self.controller.new_round()
            self.life.deal(self.loop_time())  # the help closes
            if held and not self.clock.paused:  # so nothing of ours holds a pause now
                self.loop.call_soon(self.guarded, lambda: self.link.model.resume(hold=True))
            self.together = TogetherKey()  # no together key carried into the next round
        now = self.clock.now()
        game = self.table.game
        quiet = (
            bool(events)
            and not (renamed or began)
            and all(self.notices.says_nothing_new(event, now, game) for event in events)
            and self.shows_same(before)
        )
        if events:
            self.notices.note(events, now, game)
        self._maybe_result(events)
        self.schedule()
        if not quiet:  # (a key pressed during a lockout changes nothing on the screen)
            self.request_draw()

    def shows_same(self, before: Table) -> bool:
        """Whether the table shows what ``before`` showed: the same table (a rejection
        changes nothing on it), or one that anyone at it sees the same now (the joiner's
        end makes its table anew from each message)."""
        table = self.table
        if table is before:
            return True
        now = self.clock.now()
        return table.flip_at == before.flip_at and table_view(table.game.state, now) == table_view(
            before.game.state, now
        )

    def _maybe_result(self, events: list[Event]) -> None:
        model = self.link.model
        if not self.link.result_up:
            return
        files = self.link.result()
        shown = self.controller.result
        if shown is not None:  # its files may be written after it is shown
            if files is not None and files.notes != shown.notes:
                shown.notes = files.notes
            return
        if files is None and not isinstance(model, Host):
            return  # the round's seed is on its way (its reveal)
        if self.life.base is not Stage.PLAYING:  # joined as the round ended
            self.life.deal(self.loop_time())
        self.show_result(
            Result(
                self.link.winner,
                model.match_over,
                stats=files.stats if files else None,
                notes=files.notes if files else (),
            )
        )

    # ------------------------------------------------------------------ the screen's parts

    def begin_round(self) -> None:
        self.on_change([])

    def due_times(self) -> list[float | None]:
        return []

    def advance(self, now: float) -> None:
        """The host's table carries itself out; a screen only redraws."""

    def schedule(self) -> None:
        """The one timer: a tick of the count, a notice or a lockout running out (while
        the round runs), or a tick of the seconds shown while it stands still."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.loop is None:
            return
        if self.link.ticking:
            step: float | None = TICK  # (the count is over here: until the host says so)
            left = self.link.resume_left()
            if left is None:  # the seconds a dropped connection is waited for, if they
                # run here (the joiner is told the host's by the host, with a frame)
                left, step = self.link.seconds_left(), None
            if left is not None and left > 0:  # as the count's figure or the seconds change
                period = RESUME_COUNT / 3 if self.link.counting else 1.0
                step = (left % period or period) + 0.001
            if step is not None:
                self.timer = self.loop.call_later(step, self.guarded, self.on_tick)
            return
        if not self.link.under_way:
            return
        super().schedule()

    def on_tick(self) -> None:
        self.timer = None
        self.request_draw()
        self.schedule()

    def play(self, binding: Binding) -> None:
        """A player's key goes to the table (the host's own is applied there at once)."""
        if not self.link.playing():
            return
        together = self.together.shown()
        action = self.together.action(binding, self.clock.now(), self.rules)
        if isinstance(action, Play):
            kind = "play-together" if isinstance(action, PlayTogether) else "play"
            self.link.model.act(kind, action.pile, action.target)
        elif binding.intent in _KINDS:
            self.link.model.act(_KINDS[binding.intent])
        if self.together.shown() != together:  # what the key did draws itself (on_change)
            self.request_draw()

    def next_round(self) -> None:
        """Enter on the result screen: the host deals the next round."""
        self.link.model.go_on()

    def match_in_play(self) -> bool:
        """Never asked here: a network table's q leaves at once (``NetController``)."""
        return False

    def fits(self, binding: Binding) -> bool:
        """Unknown here (the table is the host's): a key that may be a first repeat waits a
        moment to be told."""
        return False

    def ready_to_start(self, player: int) -> None:
        """Before a round starts: this player is ready (the host starts the round once both
        are, and both screens say who is)."""
        model = self.link.model
        if isinstance(model, Host):
            model.ready(HOST_SEAT)
        else:
            model.ready()
        self.request_draw()

    def back_from_suspend(self) -> None:
        """``fg`` comes back to the pause the stop asked the host for (as at one keyboard):
        play goes on when a player says so, with the count on both screens."""
        self.life.release(Hold.SUSPEND, self.loop_time())
        self.link.model.pause()  # the stop becomes a pause either player's Enter ends
        self.link.model.resume(hold=True)  # and no longer one only we could end

    def shut_down(self) -> None:
        """Leaving, whichever way: the other end is told (by ``run_*`` after the loop)."""

    def view(self) -> Scene:
        model = self.link.model
        net = self.link
        quiet = net.under_way or net.starting or net.counting
        status = None if quiet else net.status_line()
        left = self.link.resume_left()
        if net.open_seat:
            status = _("Waiting for a player. They join with:") + f"\n{self.join_line or ''}"
        standing = net.stage is Stage.GONE or net.dropped or net.result_up or net.counting
        quit_only = self.seat is None or standing
        link = LinkBar(self.link.role, self.link.delay_ms, status, quit_only)
        # The four fields with no default, the rest set one by one (as ``frame_view``).
        scene = Scene(self.table, self.clock.now(), self.keymap, self.notices)
        scene.names = self.notices.names  # (the model's, as last told: ``on_change``)
        scene.you = self.notices.you
        scene.kinds = ("human", "human")
        scene.score = model.score
        scene.overlay = self.controller.top
        scene.beneath = self.controller.stack.beneath
        scene.result = self.controller.result
        scene.ascii = self.ascii
        scene.ascii_note = self.ascii_note
        scene.keyboard = self.settings.keyboard
        scene.link = link
        scene.bottom = 0 if self.seat == JOINER_SEAT else 1
        scene.own_rows = self.own_rows
        scene.together = self.together.shown()
        scene.waiting = self.link.waiting
        scene.resume_count = None if not left else count_up(left, RESUME_COUNT)
        return scene


# --------------------------------------------------------------------------- commands


def _say(text: str) -> None:
    print(f"stress-tui: {text}", file=sys.stderr)


def join_lines(bind: str, port: int, code: str) -> tuple[list[str], str]:
    """What a friend may type to join (a line for each address of this machine they may
    reach it at, those of this network first, IPv6 in brackets), and one line saying
    which address reaches it from where (empty: the one address the table listens on)."""
    everywhere = bind in (EVERYWHERE, "0.0.0.0", "")
    found = [a for a in machine_addresses() if bind != "0.0.0.0" or a.version == 4]
    if not everywhere:
        return [f"stress-tui join {shown(bind, port)} {code}"], ""
    if not found:
        line = f"stress-tui join {shown(socket.gethostname(), port)} {code}"
        return [line], _(
            "(with this machine's address in place of its name if theirs cannot find it)"
        )
    which = "; ".join(
        _("{address} from {network}").format(address=shown(a, port), network=_(kind_of(a)))
        for a in found
    )
    lines = [f"stress-tui join {shown(a, port)} {code}" for a in found]
    return lines, _("Which to use: {addresses}.").format(addresses=which)


def _run(main: Callable[[], Coroutine[Any, Any, int]]) -> int:
    from stress_tui.terminal.app import run_coroutine

    return run_coroutine(main)


def run_host(settings: Settings, name: str, port: int, bind: str) -> int:
    """``stress-tui host``: open a table, wait for a joiner, play the match."""

    async def main() -> int:
        seed_text = os.environ.get(SEED_ENV)
        position = os.environ.get(POSITION_ENV)
        first: Game | None = None
        rules = settings.rules
        if position:
            from stress_tui.core.notation import parse_position

            state = parse_position(position)
            rules = state.rules
            first = Game(state, random.Random(0))
        host = Host(
            rules,
            name,
            port=port,
            bind=bind,
            seed=int(seed_text) if seed_text else None,
            first_game=first,
            say=_,
        )
        try:
            await host.start()
        except OSError as error:
            _say(cannot_listen(bind, port, error).said(_))
            return EXIT_NETWORK
        lines, which = join_lines(bind, host.port, host.code)
        print(_("A table is open on port {port}. Your friend joins with:").format(port=host.port))
        print("\n" + "".join(f"    {line}\n" for line in lines))
        if which:
            print(which)
        sys.stdout.flush()
        endpoint, colour = local_endpoint(pipe_ends=False)
        shown_lines = "\n".join(lines[:MAX_JOIN_LINES])
        screen = NetScreen(
            endpoint, settings, colour, model=host, seat=HOST_SEAT, join_line=shown_lines
        )
        try:
            return await screen.main()
        finally:
            await host.leave()

    return _run(main)


def run_join(
    settings: Settings, address: str, port: int, code: str, name: str, watch: bool = False
) -> int:
    """``stress-tui join`` and ``stress-tui watch``: reach the table, then play or watch."""

    async def main() -> int:
        client = Client(address, port, code, name, role="watch" if watch else "play", say=_)
        try:
            await client.connect()
        except JoinError as error:
            _say(str(error))
            return EXIT_NETWORK
        endpoint, colour = local_endpoint(pipe_ends=False)
        screen = NetScreen(endpoint, settings, colour, model=client, seat=client.seat)
        try:
            code_ = await screen.main()
        finally:
            await client.leave()
        return code_

    return _run(main)
