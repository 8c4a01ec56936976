"""The match as the host runs it, apart from its connections: the rounds on a ``FairTable``
and the match's life on the ``core.lifecycle.Lifecycle`` every other way to play drives too
(the start gate, a player's pause, a player who cannot see the table, the joiner's lost
connection, the count before play goes on, the result, the next round or a rematch), whose
clock is the round's: it stands still while anything holds the match, for both players at
once. The host's own keys come through ``act`` dated on arrival; the joiner's through
``_joiner_act``, dated back by their delay (``Host``, which knows the connection). At each
deal a commitment to the round's seed is made (``Dealt``); the seed is revealed when the
round is over (its end, or the match's), and the round's replay kept.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import random
import secrets
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from stress_tui.core.actions import Action, CallStress, Play, PlayTogether, ReadyToFlip, StopStress
from stress_tui.core.choices import OPEN_SEAT
from stress_tui.core.engine import Game, Match
from stress_tui.core.events import Event, RoundDrawn, RoundWon
from stress_tui.core.lifecycle import Hold, Lifecycle, Stage
from stress_tui.core.rules import Rules
from stress_tui.core.stats import round_stats
from stress_tui.core.table import Table
from stress_tui.core.words import N_, Say
from stress_tui.net.fair import FairTable, Outcome
from stress_tui.net.protocol import ProtocolError
from stress_tui.net.records import RoundFiles, save_round
from stress_tui.net.standing import HOST_SEAT, JOINER_SEAT, describe, holds_to_json, starting
from stress_tui.net.standing import paused_by as pauser_name
from stress_tui.net.texts import Said, said
from stress_tui.net.wire import check
from stress_tui.storage.replay import commitment

REJOIN_SECONDS = 60.0
"""How long a player who dropped out may come back and resume the round."""

RESUME_COUNT = 1.5
"""Seconds counted down on both screens before a paused round goes on."""

EARLY_GRACE = 0.1
"""Seconds before the end of the resume count within which a joiner's key, dated by the
delay, is kept for the moment play goes on rather than dropped: the joiner's count ends
when the host's does, by its estimate of the delay, and a key pressed as it ends may
arrive a moment early."""


def action_from_message(message: dict[str, Any], player: int, time: float) -> Action:
    """A joiner's ``act`` message as an engine action (checked by its schema already);
    ``ProtocolError`` for a play without its pile."""
    kind = message["a"]
    if kind in ("play", "play-together"):
        pile, target = message.get("pile"), message.get("to")
        if pile is None or target is None:
            raise ProtocolError(f"act: a {kind} needs 'pile' and 'to'")
        return (PlayTogether if kind == "play-together" else Play)(player, pile, target, time)
    if kind == "stress":
        return CallStress(player, time)
    if kind == "ready":
        return ReadyToFlip(player, time)
    return StopStress(player, time)


class Dealt:
    """The round on the table as dealt: its seed, the commitment to it sent at its deal, the
    score before it and, once it is over, the ``reveal`` that sends the seed."""

    def __init__(self, seed: int | None, score: tuple[int, int]) -> None:
        self.seed = seed
        """The round's seed (``None``: a position set up by hand, neither kept nor sent)."""
        self.salt = secrets.token_bytes(16)
        """Random bytes hashed with the seed for the commitment."""
        self.commit = None if seed is None else commitment(seed, self.salt)
        """The commitment to the seed sent at the deal (``None``: no seed)."""
        self.score = score
        """The match's score before the round."""
        self.reveal: dict[str, Any] | None = None
        """The ``reveal`` message, once the round is over."""

    def sealing(self) -> dict[str, Any]:
        """The commitment and its salt, for the round's replay header."""
        return {"commit": self.commit, "salt": self.salt.hex()}

    def keep(
        self, match: HostedRounds, score: tuple[int, int], *, finished: bool, won: bool = False
    ) -> Callable[[], RoundFiles]:
        """What writes the round's replay and, once ``finished``, its place in the record
        (``score``: the match's before the round's result; ``won``: it won the match), of
        the round as it stands now: to be run here or on another thread."""
        assert match.fair is not None and self.seed is not None
        return functools.partial(
            save_round,
            match.fair.dealt.copy(),
            self.seed,
            match.fair.actions(),
            match.names,
            match.round_number,
            score,
            finished=finished,
            match_over=won,
            count=match.record,
            extra=self.sealing(),
            _=match.say,
        )

    def open(self, round_number: int) -> None:
        """The round is over: its seed may go to every peer (with the next ``state``)."""
        if self.seed is not None and self.commit is not None:
            self.reveal = {
                "t": "reveal",
                "round": round_number,
                "commit": self.commit,
                "seed": self.seed,
                "salt": self.salt.hex(),
            }


class HostedRounds:
    """The rounds at a network table: dealt (each with its seed's commitment), played by
    both players' keys on a ``FairTable`` on the lifecycle's clock, their results kept.
    ``HostedMatch`` adds the match's life around them (pauses, holds, the count, the next
    round); ``Host`` the connections, and tells each peer of every change (``_changed``)."""

    def __init__(
        self,
        rules: Rules,
        *,
        record: bool,
        countdown: float,
        seed: int | None,
        first_game: Game | None,
        say: Say = N_,
    ) -> None:
        self.rules = rules
        self.record = record
        """Whether rounds are written as replays and counted in the record."""
        self.countdown = countdown
        """Seconds from the start of a count to its flip."""
        self.say = say
        """The host's own language (``terminal.lang._``), for the notes of its own files."""
        self.first_game = first_game
        """A position to play the first round from instead of a deal (tests, benchmarks)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.life = Lifecycle(count=RESUME_COUNT, grace=0.0)
        """The match's stage, what holds it (a player's pause: ``Hold.PAUSE`` by their seat; a
        player who cannot see the table: ``Hold.AWAY``; the joiner's connection lost:
        ``Hold.DROPPED``), its start gate and the round's clock, on the loop's time."""
        self.source: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        """Where each round's seed comes from: the system's secure source, so that one
        revealed at a round's end tells nothing of the next (a seed: tests, benchmarks)."""
        self.match = Match(rules, self.source)
        self.names: tuple[str, str] = (OPEN_SEAT, OPEN_SEAT)
        """Engine order: the joiner's name, then the host's."""
        self.fair: FairTable | None = None
        """The round on the table (``None`` before the first joiner)."""
        self.dealt = Dealt(None, (0, 0))
        """The round's seed and its commitment."""
        self.rewound: int | None = None
        """The fewest actions kept by a take-back since peers were last told (``None``:
        nothing taken back)."""
        self.early: list[dict[str, Any]] = []
        """The joiner's keys that arrived just before the count to go on ended, applied
        when it does (``EARLY_GRACE``)."""
        self.message: Said | None = None
        """A line about the match for both screens (who left, why a round stopped), said
        in each one's language."""
        self.result: RoundFiles | None = None
        self.writer: Executor | None = None
        """Where the rounds' files are written: ``None``, here and now; a served table's, the
        server's one thread (``terminal.server.Server.writer``), the loop going on meanwhile."""
        self.result_winner: int | None = None
        self.checked: tuple[Table, int, str] | None = None
        """The table, how many actions it had applied, and its ``check`` then (each table
        object is the round's until a take-back plays it again as a new one)."""

    def _changed(self, events: list[Event]) -> None:
        """Something changed: ``Host`` tells its screen and every peer."""

    def _joiner_delay(self) -> float:
        """How far back the joiner's keys are dated (``Host``: by its connection)."""
        return 0.0

    def _schedule(self) -> None:
        """Set the timer for what the match does next by itself (``HostedMatch``)."""

    def _loop_time(self) -> float:
        """The outside time the lifecycle's events carry: the loop's (0 before ``start``)."""
        return 0.0 if self.loop is None else self.loop.time()

    def now(self) -> float:
        """The round's clock."""
        return self.life.time(self._loop_time())

    def reach(self, game_time: float) -> float:
        """The round's clock, or ``game_time`` if it is just short of it (a timer set for
        it may fire a hair early); what it shows from then on."""
        return self.life.reach(game_time, self._loop_time())

    @property
    def round_number(self) -> int:
        """The round's number in the match (1 for a rematch's first; 0: none dealt)."""
        return self.life.round

    @property
    def match_over(self) -> bool:
        """Whether the round last ended won the match."""
        return self.life.match_over

    @property
    def score(self) -> tuple[int, int]:
        """Rounds won in this match (engine order)."""
        return (self.match.score[0], self.match.score[1])

    def _check(self) -> str:
        """``wire.check`` of the table as it stands, worked out once for every peer."""
        assert self.fair is not None
        table, applied = self.fair.table, len(self.fair.applied)
        known = self.checked
        if known is None or known[0] is not table or known[1] != applied:
            known = self.checked = (table, applied, check(self.fair.game))
        return known[2]

    def _begin_round(self) -> None:
        if self.match.winner is not None:
            self.match = Match(self.rules, self.source)
        score = self.score
        game: Game = self.match.new_round()
        assert self.match.round_seed is not None
        self.dealt = Dealt(self.match.round_seed, score)
        self.result_winner = None
        self.message = None
        self._deal(game)

    def _deal(self, game: Game) -> None:
        """The round is dealt: it starts when both players say they are ready (a pause and
        the help close; a player who cannot see the table still holds it), its clock at the
        position's time."""
        at = self._loop_time()
        self.fair = FairTable(game, self.countdown)
        self.result = None
        self.early.clear()
        self.life.deal(at, (True, True))
        self.life.set_time(game.state.time, at)
        self._schedule()
        self._changed([])

    def set_round(self, game: Game) -> None:
        """Play on from this position (for tests and benchmarks): a round with no seed,
        neither recorded nor sent when it ends."""
        self.dealt = Dealt(None, self.score)
        self._deal(game)

    def act(self, kind: str, pile: int | None = None, target: int | None = None) -> None:
        """The host's own key: dated now."""
        if self.life.stage is not Stage.PLAYING or self.fair is None:
            return
        message: dict[str, Any] = {"a": kind}
        if kind in ("play", "play-together"):
            message.update(pile=pile, to=target)
        self._apply(action_from_message(message, HOST_SEAT, self.now()))

    def _joiner_act(self, message: dict[str, Any], dated: float | None = None) -> None:
        """A joiner's key, dated at its arrival less ``Peer.dated_back`` (``dated``: at that
        time)."""
        delay = self._joiner_delay()
        ends = self.life.count_until
        if self.life.stage is Stage.COUNT and ends is not None:
            # Pressed as the joiner's count ended (by its estimate of the delay), arrived
            # before the host's did: played the moment play goes on. Before: nothing.
            pressed = self._loop_time() - delay
            if pressed >= ends - EARLY_GRACE and len(self.early) < 8:
                self.early.append(message)
            return
        if self.life.stage is not Stage.PLAYING or self.fair is None:
            return  # a key pressed as the round paused: as at one keyboard, nothing
        when = max(0.0, self.now() - delay) if dated is None else dated
        action = action_from_message(message, JOINER_SEAT, when)
        if isinstance(action, Play) and action.pile >= self.rules.row_size:
            raise ProtocolError("act: no such pile")
        self._apply(action)

    def _apply(self, action: Action) -> None:
        assert self.fair is not None
        self.fair.advance(min(action.time, self.now()))  # what fell due first
        outcome: Outcome = self.fair.submit(action)
        if outcome.kept is not None:
            self.rewound = min(
                outcome.kept, self.rewound if self.rewound is not None else outcome.kept
            )
        self._after(outcome.events)

    def _after(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, (RoundWon, RoundDrawn)):
                self._end_round(event)
                break
        self._schedule()
        self._changed(events)

    def _end_round(self, event: RoundWon | RoundDrawn) -> None:
        assert self.fair is not None
        score = self.score
        winner = event.player if isinstance(event, RoundWon) else None
        if winner is not None:
            self.match.record(winner)
        self.result_winner = winner
        won = winner is not None and self.match.winner is not None
        self.life.round_over(self._loop_time(), won)
        if self.dealt.seed is None:  # a position set up by hand: nothing to keep
            self.result = RoundFiles(None, ())
            return
        if self.record:
            self._keep(score, finished=True, won=won)
        else:
            self.result = RoundFiles(None, ())
        self.dealt.open(self.round_number)

    def _keep(self, score: tuple[int, int], *, finished: bool, won: bool = False) -> None:
        """Write the round's files (``Dealt.keep``) and make them its ``result``: here and
        now, or on the ``writer`` (in order with every other round's, in this context: its
        language), a finished round's statistics its result meanwhile."""
        dealt, write = self.dealt, self.dealt.keep(self, score, finished=finished, won=won)
        if self.writer is None or self.loop is None:
            self.result = write()
            return
        if finished:
            assert self.fair is not None
            self.result = RoundFiles(round_stats(self.fair.dealt.copy(), self.fair.actions()), ())
        written = self.loop.run_in_executor(self.writer, contextvars.copy_context().run, write)
        written.add_done_callback(functools.partial(self._kept, dealt))

    def _kept(self, dealt: Dealt, written: asyncio.Future[RoundFiles]) -> None:
        """The files of the round ``dealt`` are written: its result, if it is still on the
        table."""
        files = written.result()
        if dealt is self.dealt:
            self.result = files
            self._changed([])

    def _cut_round(self) -> None:
        """The match ends mid-round: keep the replay of what was played."""
        if self.fair is None or self.life.base not in (Stage.READY, Stage.PLAYING):
            return
        if self.fair.applied and self.record and self.dealt.seed is not None:
            self._keep(self.score, finished=False)
        self.dealt.open(self.round_number)

    def _end_match(self, message: Said) -> None:
        self._cut_round()
        self.life.leave(self._loop_time())
        self.message = message
        self._schedule()
        self._changed([])


class HostedMatch(HostedRounds):
    """The match at a network table: its rounds and its life on the lifecycle (the start
    gate, a player's pause, a player who cannot see the table, the joiner's lost connection,
    the count before play goes on, the result, the next round or a rematch)."""

    def __init__(
        self,
        rules: Rules,
        *,
        record: bool,
        countdown: float,
        seed: int | None,
        first_game: Game | None,
        say: Say = N_,
    ) -> None:
        super().__init__(
            rules, record=record, countdown=countdown, seed=seed, first_game=first_game, say=say
        )
        self.dropped_at: float | None = None
        """Loop time the joiner's connection ended (while ``Hold.DROPPED`` holds the match):
        the seat is kept ``REJOIN_SECONDS`` from then."""
        self.timer: asyncio.TimerHandle | None = None
        """What the match does next by itself: the count's end, a flip, the seat given up."""

    def _match_line(self) -> dict[str, Any]:
        """What a ``state`` says beside the table and the clock: the score, where the match
        stands and what holds it, the result..."""
        assert self.fair is not None
        life = self.life
        return {
            "score": list(self.match.score),
            "round": self.round_number,
            "stage": life.stage.value,
            "holds": holds_to_json(life),
            "countdown": self.fair.countdown,
            "message": None if self.message is None else self.message.to_json(),
            "drop_left": self.drop_left(),
            "resume_in": self.resume_left(),
            "waiting": list(life.awaited) if starting(life.stage, life.holds) else None,
            "result": None
            if self.life.base not in (Stage.ROUND_OVER, Stage.RESULT)
            else {
                "winner": self.result_winner,
                "match_over": self.match_over,
                "logged": self.dealt.seed is not None,
            },
        }

    @property
    def paused_by(self) -> str | None:
        """Who paused the match (Esc; either player's Enter goes on), if anyone did."""
        return pauser_name(self.life.holds, self.names)

    def _joiner_arrived(self) -> None:
        """The joiner took the seat: the first round is dealt, or the match they dropped
        out of goes on."""
        if self.life.deals == 0:
            if self.first_game is not None:
                self.set_round(self.first_game)
            else:
                self._begin_round()
            return
        if self.life.release(Hold.DROPPED, self._loop_time(), JOINER_SEAT):
            # A round under way counts in to go on (unless a pause still holds it); a round
            # not started waits for its players again, a result stays up.
            self.dropped_at = None
            self.message = said("back", name=self.names[JOINER_SEAT])
            self._schedule()
            self._changed([])

    def _joiner_lost(self, left: bool, message: Said) -> None:
        """The joiner's connection ended: ``left`` (they said goodbye) ends the match; else
        the match waits for them (``REJOIN_SECONDS``), ``message`` saying why."""
        if self.life.stage is Stage.GONE:
            return
        if left:
            self._end_match(said("left", name=self.names[JOINER_SEAT]))
            return
        at = self._loop_time()
        self.life.hold(Hold.DROPPED, at, JOINER_SEAT)
        self.life.release(Hold.AWAY, at, JOINER_SEAT)  # said again by a joiner who comes back
        self.dropped_at = at
        self.early.clear()
        self.message = message
        self._schedule()
        self._changed([])

    def ready(self, seat: int = HOST_SEAT) -> None:
        """``seat``'s player is ready for the round to start: once both are, its clock
        goes and the count to the first flip runs, on both screens."""
        if self.fair is None:
            return
        if self.life.ready(seat, self._loop_time()):
            self.fair.start(self.now())
            self._schedule()
        self._changed([])

    def pause(self, seat: int = HOST_SEAT, hold: bool = False) -> None:
        """Stop the round for both (by ``seat``'s player); also before it starts.
        ``hold``: the player cannot see the table (their help, a window too small, Ctrl-Z)
        and holds the match until they can (``resume`` with ``hold``)."""
        at = self._loop_time()
        if hold:
            self.life.hold(Hold.AWAY, at, seat)
        elif self.life.base in (Stage.READY, Stage.PLAYING) and not self.life.held(Hold.PAUSE):
            self.life.hold(Hold.PAUSE, at, seat)
        self.early.clear()
        self._schedule()
        self._changed([])

    def resume(self, seat: int = HOST_SEAT, hold: bool = False) -> None:
        """Go on after a pause, whoever paused (``hold``: ``seat``'s player can see the
        table again): once nothing holds the match, a count on both screens first (a
        round that had not started waits for its players again)."""
        at = self._loop_time()
        if hold:
            self.life.release(Hold.AWAY, at, seat)
        else:
            for by in self.life.holders(Hold.PAUSE):
                self.life.release(Hold.PAUSE, at, by)
        self._schedule()
        self._changed([])

    def go_on(self) -> None:
        """From the result screen: the next round (a new match after a won one)."""
        if self.life.go_on() is not None:  # a rematch once the match is won (``_begin_round``)
            self._begin_round()

    def _schedule(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.loop is None:
            return
        stage = self.life.stage
        when: float | None = None
        if self.life.held(Hold.DROPPED) and self.dropped_at is not None:
            when = self.dropped_at + REJOIN_SECONDS
        elif stage is Stage.COUNT:
            when = self.life.next_deadline()
        elif stage is Stage.PLAYING and self.fair is not None:
            due = self.fair.next_deadline()
            if due is not None:
                when = self.life.when(due)
        if when is not None:
            self.timer = self.loop.call_at(when, self._on_timer)

    def _on_timer(self) -> None:
        self.timer = None
        stage = self.life.stage
        if self.life.held(Hold.DROPPED):
            self._end_match(said("gone", name=self.names[JOINER_SEAT]))
        elif stage is Stage.COUNT:
            # The loop may call a timer a hair before its time: the count ends at its own.
            self.life.advance(max(self._loop_time(), self.life.next_deadline() or 0.0))
            going_on = self.now()
            if self.fair is not None:
                self.fair.hold(going_on)
            self._schedule()
            self._changed([])
            early, self.early = self.early, []
            for message in early:  # pressed as the count ended: dated as play goes on
                self._joiner_act(message, dated=going_on)
        elif stage is Stage.PLAYING and self.fair is not None:
            due = self.fair.next_deadline()
            now = max(self.now(), due or 0.0)
            self._after(self.fair.advance(now))
        else:
            self._schedule()

    def status_line(self, _: Say = N_) -> str | None:
        """What the match's state says on the host's screen (``None``: nothing to say),
        said by ``_`` (the screen's translation)."""
        message = None if self.message is None else self.message.tell(_)
        return describe(self.life.stage, self.life.holds, self.names, message, self.drop_left(), _)

    def drop_left(self) -> float | None:
        """Seconds the joiner's seat is still kept (``None``: they are not away)."""
        if not self.life.held(Hold.DROPPED) or self.dropped_at is None or self.loop is None:
            return None
        return max(0.0, self.dropped_at + REJOIN_SECONDS - self._loop_time())

    def resume_left(self) -> float | None:
        """Seconds of the count before play goes on (``None``: none runs)."""
        if self.loop is None:
            return None
        return self.life.count_left(self._loop_time())
