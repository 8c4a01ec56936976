"""Watching a replay: a recorded round fed back through the real table at its own pace.

``Playback`` is the part without a screen. The replay's actions go, in their recorded order
and each with its own recorded time, through ``Table.submit`` of a table dealt from the
replay's seed. Nothing else acts on that table: it has no computer players (their moves
are in the file) and ``Table.advance`` is never called, so the table never flips by
itself (the flips are in the file too; its countdown only shows "1 2 3" as it did when
the round was played). The engine is deterministic, so the events are those of the
original round; ``same_as_recorded`` checks them against the digest in the file's end line.

``ReplayApp`` shows a playback on the terminal table: the round's clock runs at ``speed``
times the real one, and each recorded action is applied when the clock reaches its time.
Space pauses and resumes, Right (or ``.``) steps one action and pauses, q or Esc leaves.
At the end comes the result screen with the round's statistics.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Protocol

from stress_tui.core.actions import Action, MalformedActionError
from stress_tui.core.engine import Phase
from stress_tui.core.events import Event, RoundDrawn, RoundWon
from stress_tui.core.lifecycle import Hold, Lifecycle
from stress_tui.core.notation import format_position
from stress_tui.core.settings import Settings
from stress_tui.core.stats import RoundStats, round_stats
from stress_tui.core.table import Table
from stress_tui.storage.replay import Replay
from stress_tui.storage.verify import digest_matches
from stress_tui.terminal.app import run_screen
from stress_tui.terminal.clock import Clock
from stress_tui.terminal.controller import Controller, Handler, Host
from stress_tui.terminal.endpoint import Endpoint
from stress_tui.terminal.keys import Binding, Intent, KeyMap, replay_keymap
from stress_tui.terminal.lang import _
from stress_tui.terminal.scene import Overlay, Scene
from stress_tui.terminal.screen import Screen
from stress_tui.terminal.screens.base import ModalScreen
from stress_tui.terminal.screens.help import ReplayHelpScreen
from stress_tui.terminal.screens.result import ReplayResultScreen, Result
from stress_tui.terminal.session import EXIT_QUIT


class Playback:
    """A recorded round being applied again, action by action."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        """The recording."""
        self.game = replay.new_game()
        """The round, dealt from the replay's seed."""
        self.table = Table(self.game, on_action=self._applied)
        """The table the actions go through (no computer players; never advanced)."""
        self.applied: list[Action] = []
        """The recorded actions applied so far."""
        self.events: list[Event] = []
        """Every event they made."""
        self.broken: str | None = None
        """Why the next action could not be applied (a damaged file), if so."""

    def _applied(self, action: Action, events: list[Event]) -> None:
        self.applied.append(action)
        self.events += events

    @property
    def total(self) -> int:
        """Actions in the recording."""
        return len(self.replay.actions)

    @property
    def next_action(self) -> Action | None:
        """The next recorded action (``None``: none left, or the file is broken there)."""
        index = len(self.applied)
        if self.broken is not None or index >= self.total:
            return None
        return self.replay.actions[index]

    @property
    def over(self) -> bool:
        """Whether there is nothing more to show: the round ended, or the recording did."""
        return self.game.state.phase is Phase.ROUND_OVER or self.next_action is None

    def start(self) -> None:
        """Start the table (its countdown to the first flip shows)."""
        self.table.start(self.game.state.time)

    def step(self) -> list[Event]:
        """Apply the next recorded action; its events."""
        action = self.next_action
        if action is None:
            return []
        try:
            return self.table.submit(action)
        except MalformedActionError as error:
            self.broken = _("action {n} cannot be applied: {why}").format(
                n=len(self.applied) + 1, why=error.said(_)
            )
            return []

    def play_until(self, now: float) -> list[Event]:
        """Apply every recorded action due by ``now`` (up to the round's end)."""
        events: list[Event] = []
        while not self.over:
            action = self.next_action
            if action is None or action.time > now:
                break
            events += self.step()
        return events

    def finish(self) -> None:
        """Apply whatever is left after the round's end (a file as written has nothing
        there; a doctored one may)."""
        while self.next_action is not None:
            self.step()

    def same_as_recorded(self) -> bool | None:
        """Whether the events and the final position are the recorded ones (``None``: the
        recording has no end to compare with)."""
        end = self.replay.end
        if end is None:
            return None
        if self.broken is not None or self.next_action is not None:
            return False
        return digest_matches(end.get("digest"), self.events) and format_position(
            self.game.state
        ) == end.get("position")

    def stats(self) -> RoundStats:
        """The statistics of what has been applied."""
        return round_stats(self.replay.new_game(), self.applied)


def _pair(value: Any, default: tuple[str, str]) -> tuple[str, str]:
    """Two strings from a header field, or the default if it is not that."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return value[0], value[1]
    return default


def _score(value: Any) -> tuple[int, int]:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return value[0], value[1]
    return 0, 0


class ReplayHost(Host, Protocol):
    """What the replay's controller asks of the replay viewer."""

    def again(self) -> None:
        """Watch the round again from its start."""

    def step(self) -> None:
        """Pause, and apply the next recorded action."""

    def step_back(self) -> None:
        """Pause, and go back one recorded action."""

    def change_speed(self, faster: bool) -> None:
        """Play faster or slower, from now on."""


SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 100.0)
"""The speeds + and - go through (``--speed`` may start anywhere between)."""


def next_speed(speed: float, faster: bool) -> float:
    """The next speed up or down the ladder from ``speed`` (the same at either end).

    >>> next_speed(1.0, True), next_speed(3.0, False), next_speed(100.0, True)
    (2.0, 2.0, 100.0)
    """
    if faster:
        return next((s for s in SPEEDS if s > speed + 1e-9), speed)
    return next((s for s in reversed(SPEEDS) if s < speed - 1e-9), speed)


class ReplayController(Controller):
    """A replay's keys: Space pauses and goes on, Right and Left step, + and - change the
    speed, ? shows the keys, q or Esc leaves; the help and the result cover the table (a
    paused replay is still watched)."""

    host: ReplayHost

    def __init__(self, host: ReplayHost, clock: Clock, keymap: KeyMap) -> None:
        super().__init__(host, clock, keymap)

    def table(self) -> dict[Intent, Handler]:
        return {
            **super().table(),
            Intent.MENU_QUIT: self.leave,
            Intent.CONFIRM: self.again,
            Intent.PAUSE: self.toggle_pause,
            Intent.STEP: self.step,
            Intent.STEP_BACK: self.step_back,
            Intent.FASTER: self.speed,
            Intent.SLOWER: self.speed,
            Intent.HELP: self.toggle_help,
        }

    def wanted(self) -> list[type[ModalScreen]]:
        """The result at the end, the help over it: a paused replay is still watched."""
        return [
            *([ReplayResultScreen] if self.result is not None else []),
            *([ReplayHelpScreen] if self.clock.life.held(Hold.HELP) else []),
        ]

    def toggle_help(self, binding: Binding, overlay: str | None) -> None:
        if overlay == Overlay.HELP:
            self.clock.unpause("help")
        elif overlay is None:
            self.clock.pause("help")
        self.host.request_draw()

    def step_back(self, binding: Binding, overlay: str | None) -> None:
        if overlay is None:
            self.host.step_back()

    def speed(self, binding: Binding, overlay: str | None) -> None:
        if overlay is None:
            self.host.change_speed(binding.intent is Intent.FASTER)

    def leave(self, binding: Binding, overlay: str | None) -> None:
        self.host.finish(EXIT_QUIT)

    def again(self, binding: Binding, overlay: str | None) -> None:
        if self.grace_over():
            self.host.again()

    def toggle_pause(self, binding: Binding, overlay: str | None) -> None:
        if self.result is not None:
            return
        if "pause" in self.clock.paused:
            self.clock.unpause("pause")
        else:
            self.clock.pause("pause")
        self.host.request_draw()

    def step(self, binding: Binding, overlay: str | None) -> None:
        if overlay is None:
            self.host.step()


@dataclasses.dataclass(frozen=True)
class ReplayBar:
    """What the title line says while a replay is watched."""

    speed: float
    """Seconds of the round per second watched."""
    paused: bool
    """Whether the replay is stopped (Space goes on, Right steps)."""
    done: int
    """Recorded actions shown so far."""
    total: int
    """Recorded actions in the file."""


class ReplayApp(Screen):
    """A replay watched on the terminal table."""

    def __init__(
        self,
        endpoint: Endpoint,
        replay: Replay,
        speed: float = 1.0,
        settings: Settings | None = None,
        colour: bool = True,
    ) -> None:
        header = replay.header
        settings = dataclasses.replace(
            settings or Settings(),
            rules=replay.new_game().rules,
            names=_pair(header.get("names"), Settings().names),
            players=_pair(header.get("players"), Settings().players),
            keymap=None,
        )
        super().__init__(endpoint, settings, colour)
        self.replay = replay
        """The recording."""
        self.life.speed = speed
        self.score = _score(header.get("score"))
        """The match's score when the round began."""
        self.playback = Playback(replay)
        self.table = self.playback.table

    def make_lifecycle(self) -> Lifecycle:
        """Nobody plays a replay: it goes on at once after a pause, with no count."""
        return Lifecycle(count=0.0)

    def make_controller(self) -> ReplayController:
        return ReplayController(self, self.clock, replay_keymap())

    # ------------------------------------------------------------------ the round

    def begin_round(self) -> None:
        self.clock.set(self.table.game.state.time)
        self.controller.new_round()
        self.life.deal(self.loop_time())
        self.schedule_life()
        self.notices.clear()
        self.playback.start()
        self.schedule()
        self.request_draw()

    def again(self) -> None:
        """Watch the round again from its start."""
        self.playback = Playback(self.replay)
        self.table = self.playback.table
        self.begin_round()

    def due_times(self) -> list[float | None]:
        action = self.playback.next_action
        if self.playback.over:
            return [self.clock.last]  # the end: the result screen, now
        return [None if action is None else action.time]

    def advance(self, now: float) -> None:
        self.after_events(self.playback.play_until(now), now)
        if self.controller.result is None and self.playback.over:
            self.end()

    def after_events(self, events: list[Event], now: float) -> None:
        if events:
            self.notices.note(events, now, self.table.game)
            self.request_draw()
        if any(isinstance(event, (RoundWon, RoundDrawn)) for event in events):
            self.end()

    def end(self) -> None:
        """The recording is over: its result screen, with the statistics."""
        playback = self.playback
        playback.finish()
        state = playback.game.state
        winner = state.winner
        headline = None
        notes = []
        if playback.broken is not None:
            headline = _("The recording breaks off here")
            notes.append(playback.broken)
        elif state.phase is not Phase.ROUND_OVER:
            headline = _("The recording stops here: the round was cut short")
        same = playback.same_as_recorded()
        if same is True:
            notes.append(_("the same events as when it was played"))
        elif same is False:
            notes.append(_("these events differ from the recorded ones"))
        wins = self.rules.wins
        match_over = winner is not None and self.score[winner] + 1 >= wins
        self.show_result(
            Result(
                winner,
                match_over,
                stats=playback.stats(),
                notes=tuple(notes),
                headline=headline,
            )
        )

    # ------------------------------------------------------------------ keys

    def step(self) -> None:
        """Pause, and apply the next recorded action (the clock jumps to its time)."""
        action = self.playback.next_action
        self.clock.pause("pause")
        if action is None:
            return
        now = max(self.clock.now(), action.time)
        self.clock.set(now)
        self.notices.expire(now)
        self.after_events(self.playback.step(), now)
        if self.controller.result is None and self.playback.over:
            self.end()
        self.request_draw()

    def step_back(self) -> None:
        """Pause, and go back one recorded action: the round is played again from its start
        to the action before (the engine is deterministic), the clock at that action's
        time."""
        back = len(self.playback.applied) - 1
        self.clock.pause("pause")
        if back < 0:
            return
        playback = Playback(self.replay)
        playback.start()
        self.notices.clear()
        events: list[Event] = []
        for _replayed in range(back):
            events = playback.step()
        self.playback = playback
        self.table = playback.table
        now = playback.applied[-1].time if playback.applied else self.table.game.state.time
        self.clock.set(now)
        self.notices.note(events, now, self.table.game)  # what the last action did
        self.request_draw()

    def change_speed(self, faster: bool) -> None:
        """Play faster or slower from now on (the round's clock goes on from where it is)."""
        now = self.clock.now()
        self.clock.speed = next_speed(self.clock.speed, faster)
        self.clock.set(now)
        self.schedule()
        self.request_draw()

    # ------------------------------------------------------------------ drawing

    def view(self) -> Scene:
        score = self.score
        result = self.controller.result
        if result is not None and result.winner is not None:
            won = [score[0], score[1]]
            won[result.winner] += 1
            score = (won[0], won[1])
        scene = self.frame_view()
        scene.score = score
        scene.result = result
        again = self.replay.header.get("again")
        scene.seed = again if isinstance(again, str) else None
        scene.replay = ReplayBar(
            self.clock.speed,
            "pause" in self.clock.paused,
            len(self.playback.applied),
            self.playback.total,
        )
        return scene


def run(replay: Replay, speed: float = 1.0, settings: Settings | None = None) -> int:
    """Watch ``replay`` in this terminal until quit; return the exit status."""
    return run_screen(functools.partial(ReplayApp, replay=replay, speed=speed, settings=settings))
