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
from typing import Any

from blessed import Terminal

from stress_tui.core.engine import Action, Event, MalformedActionError, Phase, RoundDrawn, RoundWon
from stress_tui.core.notation import format_position
from stress_tui.core.settings import Settings
from stress_tui.core.stats import RoundStats, round_stats
from stress_tui.core.table import Table
from stress_tui.storage.replay import Replay, events_digest
from stress_tui.terminal.app import EXIT_QUIT, EXIT_SIGINT, Screen, run_screen
from stress_tui.terminal.keys import Binding, Intent, replay_keymap
from stress_tui.terminal.view import Overlay, ReplayBar, Result, View


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
            self.broken = f"action {len(self.applied) + 1} cannot be applied: {error}"
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
        return events_digest(self.events) == end.get("digest") and format_position(
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


class ReplayApp(Screen):
    """A replay watched on the terminal table."""

    def __init__(
        self,
        term: Terminal,
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
        super().__init__(term, settings, colour)
        self.keymap = replay_keymap()
        self.replay = replay
        """The recording."""
        self.speed = speed
        self.score = _score(header.get("score"))
        """The match's score when the round began."""
        self.playback = Playback(replay)
        self.table = self.playback.table

    # ------------------------------------------------------------------ the round

    def begin_round(self) -> None:
        self.set_clock(self.table.game.state.time)
        self.paused.discard("pause")
        self.result = None
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
            return [self.last_time]  # the end: the result screen, now
        return [None if action is None else action.time]

    def advance(self, now: float) -> None:
        self.after_events(self.playback.play_until(now), now)
        if self.result is None and self.playback.over:
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
            headline = "The recording breaks off here"
            notes.append(playback.broken)
        elif state.phase is not Phase.ROUND_OVER:
            headline = "The recording stops here: the round was cut short"
        same = playback.same_as_recorded()
        if same is True:
            notes.append("the same events as when it was played")
        elif same is False:
            notes.append("these events differ from the recorded ones")
        wins = self.rules.wins
        match_over = winner is not None and self.score[winner] + 1 >= wins
        self.show_result(
            Result(
                winner,
                match_over,
                stats=playback.stats(),
                notes=tuple(notes),
                headline=headline,
                again="watch again",
            )
        )

    # ------------------------------------------------------------------ keys

    @property
    def overlay(self) -> str | None:
        """Only the result covers the table: a paused replay is still watched."""
        return Overlay.RESULT if self.result is not None else None

    def on_binding(self, binding: Binding, overlay: str | None) -> None:
        intent = binding.intent
        if intent is Intent.QUIT:
            self.finish(EXIT_SIGINT)
        elif intent is Intent.MENU_QUIT:
            self.finish(EXIT_QUIT)
        elif intent is Intent.REDRAW:
            self.frame = None
            self.request_draw()
        elif intent is Intent.CONFIRM:
            if self.grace_over():
                self.again()
        elif self.result is not None:
            return
        elif intent is Intent.PAUSE:
            if "pause" in self.paused:
                self.unpause("pause")
            else:
                self.pause("pause")
            self.request_draw()
        elif intent is Intent.STEP:
            self.step()

    def step(self) -> None:
        """Pause, and apply the next recorded action (the clock jumps to its time)."""
        action = self.playback.next_action
        self.pause("pause")
        if action is None:
            return
        now = max(self.game_time(), action.time)
        self.set_clock(now)
        self.notices.expire(now)
        self.after_events(self.playback.step(), now)
        if self.result is None and self.playback.over:
            self.end()
        self.request_draw()

    # ------------------------------------------------------------------ drawing

    def view(self) -> View:
        score = self.score
        result = self.result
        if result is not None and result.winner is not None:
            won = [score[0], score[1]]
            won[result.winner] += 1
            score = (won[0], won[1])
        return self.frame_view(
            score=score,
            result=result,
            seed=self.replay.seed,
            replay=ReplayBar(
                self.speed, "pause" in self.paused, len(self.playback.applied), self.playback.total
            ),
        )


def run(replay: Replay, speed: float = 1.0, settings: Settings | None = None) -> int:
    """Watch ``replay`` in this terminal until quit; return the exit status."""
    return run_screen(functools.partial(ReplayApp, replay=replay, speed=speed, settings=settings))
