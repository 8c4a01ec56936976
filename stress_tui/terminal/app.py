"""The terminal game: a match of rounds on the table, keys in, frames out, on one loop.

``run(settings)`` owns the terminal from start to end (``terminal/screen.py`` has the loop,
``terminal/session.py`` the local terminal's endpoint: its modes, signals and keyboard).
``App`` is the game: the match and its rounds, the computer players, and what a player's
key does to the table. What is kept of each round (its replay, statistics and place in the
record) is the round log's (``terminal/roundlog.py``), which listens to the table's actions.

A crash ends the game with exit 1: one line saying so, then the traceback, printed after
the terminal is restored.

Test hook (an environment variable, not for players): ``STRESS_TUI_POSITION`` starts the
first round at a position in notation (``stress_tui.notation``) instead of dealing, with
that position's rules (such a round has no seed, so it is neither recorded nor counted in
the record; its statistics are shown). ``STRESS_TUI_DATA_DIR`` puts replays and the record
in another directory (``stress_tui.storage``).
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import random
import sys
import traceback
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from stress_tui.core.engine import Game, Match
from stress_tui.core.events import Event, RoundDrawn, RoundWon
from stress_tui.core.lifecycle import Next
from stress_tui.core.settings import Settings
from stress_tui.core.table import Driver, Table
from stress_tui.terminal.controller import GameController, TogetherKey
from stress_tui.terminal.endpoint import Endpoint
from stress_tui.terminal.keys import Binding, Intent, settings_keymap
from stress_tui.terminal.lang import N_, _, addressed, shown_names
from stress_tui.terminal.layout import Layout, layout
from stress_tui.terminal.roundlog import RoundLog
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screen import Screen
from stress_tui.terminal.session import (
    EXIT_CRASH,
    EXIT_NOT_A_TERMINAL,
    EXIT_QUIT,
    EXIT_SIGHUP,
    EXIT_SIGINT,
    GONE,
    local_endpoint,
    on_a_terminal,
    unfit_terminal,
)

if TYPE_CHECKING:  # made once a round has ended (by the round log, for the result screen)
    from stress_tui.terminal.background import Worker
    from stress_tui.terminal.screens.result import Result

POSITION_ENV = "STRESS_TUI_POSITION"


class App(Screen):
    """One run of the game in a terminal."""

    controller: GameController

    def __init__(
        self, endpoint: Endpoint, settings: Settings, colour: bool = True, offer: bool = False
    ) -> None:
        self.offer = offer
        """Whether the line under the table offers the practice (``stress-tui learn``): to
        a newcomer, once, while their first round waits for them (``storage.offers``)."""
        self.seed = match_seed(settings)
        """The match's seed: every round's deal is drawn from it in turn."""
        self.round_seed: int | None = None
        """The seed the round on the table was dealt from (``None``: a position)."""
        self.round_index = 0
        """Which round of the match's seed is on the table (0: the first): ``--seed
        SEED/N`` deals round N again (``seed_label``)."""
        position = os.environ.get(POSITION_ENV)
        self.first_game: Game | None = None
        rules = settings.rules
        if position:
            from stress_tui.core.notation import parse_position

            state = parse_position(position)
            rules = state.rules
            self.first_game = Game(state, random.Random(self.seed))
        super().__init__(endpoint, settings, colour)
        self.rules = rules
        self.match = self.new_match()
        self.round_number = 1
        """The round's number in the match."""
        self.rounds_begun = 0
        """Rounds begun since the program started (rematches too)."""
        self.worker: Worker | None = None
        """The thread the record's work is done on (made at its first job)."""
        self.log = RoundLog(settings, rules, self.warn, background=self.in_background)
        """The rounds' replays, statistics and record."""
        self.log.on_counted = self.counted
        self.table = self.new_table(self.first_game)

    def make_controller(self) -> GameController:
        return GameController(self, self.clock, settings_keymap(self.settings))

    # ------------------------------------------------------------------ rounds

    def drivers(self) -> tuple[Driver, ...]:
        """Computer players for the sides that are not human (``bot:LEVEL``), each with a
        random source of its own, seeded from the match's seed and the round's place in
        it (so that ``--seed SEED/N`` plays round N again, computers and all)."""
        bots = [
            (i, kind[4:]) for i, kind in enumerate(self.settings.players) if kind.startswith("bot:")
        ]
        if not bots:
            return ()
        from stress_tui.players.bot import make_bot

        return tuple(
            make_bot(
                player=i, level=level, rng=random.Random(f"{self.seed}/{self.round_index}/{i}")
            )
            for i, level in bots
        )

    def new_table(self, game: Game | None = None) -> Table:
        """The next round's table: ``game``, or a deal from the round's seed; the round log
        listens to it. Its computer players sit down later (``seat_computers``)."""
        self.round_seed = None
        if game is None:
            self.round_index = self.settings.first_round - 1 + self.round_number - 1
            game = self.match.new_round()
            self.round_seed = self.match.round_seed
        table = Table(game)
        self.log.watch(table, self.round_seed)
        return table

    def seat_computers(self) -> None:
        """The round's computer players (``drivers``) take their seats at its table, once:
        when the table starts, or just after the first frame if the table waits for the
        people first. The first frame does not wait for them (a computer's module, with
        ``statistics``, and its reaction times took 4-5 ms); nothing they do can happen
        before the table starts."""
        if not self.table.drivers:
            self.table.drivers = self.drivers()

    def warm_up(self, lay: Layout) -> None:
        """After a frame is up: the computers sit down, then the screen warms up."""
        self.seat_computers()
        super().warm_up(lay)

    def begin_round(self) -> None:
        """Start the round's clock (at the position's time), its first count and its
        recording."""
        game = self.table.game
        self.clock.set(game.state.time)
        self.together = TogetherKey()
        self.notices.clear()
        self.frames.new_round()
        # Between rounds, before the first count: what the last round left for the garbage
        # collector (the record's JSON writer leaves cycles) and the free lists it filled
        # go now, instead of piling up until a full collection of Python's own choosing
        # (docs/reliability.md, F15). Not before the first round: nothing has been played
        # yet, and the first frame would wait for it.
        if self.rounds_begun:
            gc.collect()
        self.rounds_begun += 1
        self.log.start(
            self.round_number, (self.match.score[0], self.match.score[1]), self.deal_label()
        )
        # The table waits for every person at it to say they are ready; then its count.
        people = self.settings.players
        self.controller.new_round()
        self.life.deal(self.loop_time(), (people[0] == "human", people[1] == "human"))
        self.schedule_life()
        if self.life.waiting is None:
            self.start_table()
        self.schedule()
        self.request_draw()
        # After the round's first frame: its cards and counts drawn ahead (the first
        # round's by on_resize, once the window's size is known).
        lay = layout(self.frames.size[0], self.frames.size[1], self.rules.row_size)
        if lay is not None and self.loop is not None and self.frames.needs_warming(lay):
            self.loop.call_soon(self.guarded, self.warm_up, lay)

    def deal_label(self) -> str | None:
        """What ``--seed`` takes to deal the round on the table again (``None``: a position
        set up from notation)."""
        return None if self.round_seed is None else seed_label(self.seed, self.round_index)

    def new_match(self) -> Match:
        """A match dealt from the seed, from the round ``--seed SEED/N`` names: the rounds
        before it are drawn and passed over."""
        match = Match(self.rules, random.Random(self.seed))
        for _passed in range(self.settings.first_round - 1):
            match.rng.getrandbits(63)
        return match

    def start_table(self) -> None:
        """Everyone is ready: the round's clock goes, and the count to the first flip (the
        practice is offered no more)."""
        self.offer = False
        self.seat_computers()
        self.table.start(self.clock.now())
        self.schedule()
        self.request_draw()

    def ready_to_start(self, player: int) -> None:
        """A player said they are ready for the round to start."""
        if self.life.ready(player, self.loop_time()):
            self.start_table()
        self.request_draw()

    def next_round(self) -> None:
        """After the result screen: the next round, or a new match once one is won (dealt
        from the same seed again if one was given: a rematch deals as the first match)."""
        going = self.life.go_on()
        if going is None:
            return
        if going is Next.REMATCH:
            self.seed = match_seed(self.settings)
            self.match = self.new_match()
            self.round_number = 1
        else:
            self.round_number += 1
        self.table = self.new_table()
        self.begin_round()

    def after_events(self, happened: list[Event], now: float) -> None:
        """Show what happened; end the round if it was won."""
        if not happened:
            return
        self.notices.note(happened, now, self.table.game)
        for event in happened:
            if type(event) is RoundWon or type(event) is RoundDrawn:
                self.show_result(self.end_round(event))
        self.request_draw()

    def end_round(self, event: RoundWon | RoundDrawn) -> Result:
        """Count the round in the match; its result is what the round log made of it."""
        if isinstance(event, RoundWon):
            self.match.record(event.player)
        ended = self.log.ended
        assert ended is not None and ended.match_over == (self.match.winner is not None)
        return ended

    def counted(self, result: Result) -> None:
        """What came of counting a round has gone on its result: show it."""
        self.request_draw()

    def closing(self) -> None:
        super().closing()
        if self.worker is not None:
            self.worker.stop()

    def in_background(self, job: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run ``job`` off the event loop (the record's work), then ``done`` on it."""
        if self.loop is None:  # no event loop (a test drives the app): at once
            done(job())
            return
        if self.worker is None:
            from stress_tui.terminal.background import Worker

            self.worker = Worker(self.loop, self.guarded)
        self.worker(job, done)

    def advance(self, now: float) -> None:
        """Carry out what the table has due by ``now``."""
        self.after_events(self.table.advance(now), now)

    def due_times(self) -> list[float | None]:
        return [self.table.next_deadline()]

    def shut_down(self) -> None:
        """Quit mid-round: the round log keeps what it has."""
        self.log.close()

    # ------------------------------------------------------------------ keys

    def play(self, binding: Binding) -> None:
        """A player's key becomes an action, stamped now, applied now."""
        now = self.clock.now()
        due = self.table.next_deadline()
        if due is not None and due <= now:  # what fell due before this key comes first
            self.advance(now)
            if self.controller.result is not None:
                return  # (the round ended meanwhile: its result covers the table)
        action = self.together.action(binding, now, self.rules)
        if action is None:
            self.request_draw()  # the together key's note, under the row
            return
        self.after_events(self.table.submit(action), now)
        self.schedule()
        self.request_draw()

    def fits(self, binding: Binding) -> bool:
        """Whether a player's pile key plays a card that fits now."""
        if binding.player is None or binding.pile is None:
            return False
        target = 0 if binding.intent is Intent.LEFT else 1
        return (binding.pile, target) in self.table.game.legal_plays(binding.player)

    def match_in_play(self) -> bool:
        """A match is in play from its first deal until it is won."""
        return self.life.in_play

    def back_from_suspend(self) -> None:
        """``fg`` comes back to a paused table: play goes on when a player says so."""
        if self.controller.result is None:
            self.clock.pause("pause")

    # ------------------------------------------------------------------ drawing

    def draw(self) -> None:
        """Draw (``Screen.draw``), then write the action the frame shows to the round's
        replay: the player sees a key's effect without waiting for the disk."""
        Screen.draw(self)  # (the base named, not ``super()``: see Screen.draw)
        replay = self.log.replay
        if replay.waiting is not None:
            replay.write()

    def view(self) -> Scene:
        scene = self.frame_view()
        controller = self.controller
        result = controller.result
        score = self.match.score
        scene.score = (score[0], score[1])
        scene.result = result
        if result is not None:
            scene.seed = self.deal_label()  # (said on the result)
        scene.menu_keys = controller.menu_live
        scene.waiting = self.life.waiting
        scene.offer = self.offer
        return scene


class DailyApp(App):
    """The daily deal: one round, dealt from the day's seed (``settings.seed``) itself,
    against the computer at the daily's level with a random source of the day's; Enter
    on its result leaves. The command line has checked that the player has not had the
    day's deal; the round log takes the day at its first card played. The title line says
    it is the daily."""

    def __init__(
        self, endpoint: Endpoint, settings: Settings, day: str, colour: bool = True
    ) -> None:
        self.day = day
        """The day of the deal (``YYYY-MM-DD``)."""
        self.result_said = ""
        """How the day's round went, in a word (``won``), once it has ended."""
        self.lines: list[str] = []
        """The lines about the day's count on the result."""
        super().__init__(endpoint, settings, colour)
        self.log.daily = day

    def new_table(self, game: Game | None = None) -> Table:
        """The day's deal (never a position from the test hook: it would not be the
        day's)."""
        table = Table(Game.deal(self.rules, random.Random(self.seed)))
        self.log.watch(table, self.seed)
        return table

    def drivers(self) -> tuple[Driver, ...]:
        """The computer of the day."""
        from stress_tui.players.daily import daily_bot

        return (daily_bot(self.seed),)

    def view(self) -> Scene:
        scene = super().view()
        scene.daily = self.day
        return scene

    def end_round(self, event: RoundWon | RoundDrawn) -> Result:
        """The day's result, with the streak."""
        from stress_tui.core.daily import BOT_SIDE

        result = super().end_round(event)
        name = shown_names(self.settings.names)[1 - BOT_SIDE]
        you = addressed(self.settings.names)[1 - BOT_SIDE]
        if result.winner is None:
            said = _("drawn")
            result.headline = _("The daily deal of {day}: a drawn round").format(day=self.day)
        elif result.winner != BOT_SIDE:
            said = _("won")
            headline = (
                _("You won the daily deal of {day}!")
                if you
                else _("{name} won the daily deal of {day}!")
            )
            result.headline = headline.format(name=name, day=self.day)
        else:
            said = _("lost")
            headline = (
                _("You lost the daily deal of {day}!")
                if you
                else _("{name} lost the daily deal of {day}!")
            )
            result.headline = headline.format(name=name, day=self.day)
        result.again = N_("leave")
        self.result_said = said
        if self.log.counted is not None:  # counted already (at once, with no event loop)
            self.counted(result)
        return result

    def counted(self, result: Result) -> None:
        """The day's count: the streak, or why it did not count."""
        from stress_tui.core.daily import BOT_SIDE

        counted = self.log.counted
        if not self.result_said:  # the round's end is not through yet: it says it then
            return
        name = shown_names(self.settings.names)[1 - BOT_SIDE]
        you = addressed(self.settings.names)[1 - BOT_SIDE]
        lines = []
        if counted is not None and counted.daily is False:
            over = (
                _("not counted: your daily of {day} was over already")
                if you
                else _("not counted: {name}'s daily of {day} was over already")
            )
            lines.append(over.format(name=name, day=self.day))
        elif counted is not None and counted.streak is not None:
            streak = counted.streak
            line = _("daily {day}: {said}   streak {current}   best streak {best}")
            lines.append(
                line.format(
                    day=self.day, said=self.result_said, current=streak.current, best=streak.best
                )
            )
        result.notes = (*lines, *(note for note in result.notes if note not in self.lines))
        self.lines = lines
        super().counted(result)

    def next_round(self) -> None:
        """One round a day: Enter on the result leaves."""
        self.finish(EXIT_QUIT)


def match_seed(settings: Settings) -> int:
    """A match's seed: the one given (``--seed``), else a new one."""
    if settings.seed is not None:
        return settings.seed
    return random.SystemRandom().randrange(10**6)


def seed_label(seed: int, index: int) -> str:
    """What ``--seed`` takes to deal a round again: ``SEED`` for a match's first round,
    ``SEED/N`` for its round N (``index`` counts from 0).

    >>> seed_label(12, 0), seed_label(12, 2)
    ('12', '12/3')
    """
    return str(seed) if index == 0 else f"{seed}/{index + 1}"


def run(settings: Settings, offer: bool = False) -> int:
    """Play in this terminal until quit; return the exit status. ``offer``: the line under
    the table offers the practice while the first round waits."""
    return run_screen(functools.partial(App, settings=settings, offer=offer))


def run_daily(settings: Settings, day: str) -> int:
    """Play the daily deal of ``day`` in this terminal; return the exit status."""
    return run_screen(functools.partial(DailyApp, settings=settings, day=day))


def run_screen(make: Callable[..., Screen]) -> int:
    """Run the screen ``make(endpoint, colour=...)`` makes in this terminal until it ends;
    return the exit status."""

    async def main() -> int:
        endpoint, colour = local_endpoint()
        return await make(endpoint, colour=colour).main()

    return run_coroutine(main)


def run_coroutine(main: Callable[[], Coroutine[Any, Any, int]]) -> int:
    """Run ``main()`` (which takes the terminal and returns the exit status) on a new event
    loop; a crash is one line and the traceback, a terminal gone a hangup."""
    if not on_a_terminal():
        print(
            "stress-tui: " + _("not a terminal (stdin and stdout must be a terminal to play)"),
            file=sys.stderr,
        )
        return EXIT_NOT_A_TERMINAL
    unfit = unfit_terminal()
    if unfit is not None:
        print(f"stress-tui: {unfit}", file=sys.stderr)
        return EXIT_NOT_A_TERMINAL
    try:
        return asyncio.run(main())
    except KeyboardInterrupt:  # Ctrl-C before the loop took over SIGINT
        return EXIT_SIGINT
    except OSError as error:
        if error.errno not in GONE:
            return _crashed(error)
        return EXIT_SIGHUP  # the terminal went away while the game was leaving it
    except Exception as error:
        return _crashed(error)


def _crashed(error: Exception) -> int:
    """Say in one line that a bug stopped the game, then print the traceback (the terminal
    is already restored: ``main`` leaves it in its ``finally``)."""
    sys.stdout.flush()
    what = f"{type(error).__name__}: {error}".splitlines()[0]
    print(
        "stress-tui: "
        + _(
            "stopped by a bug, not by anything you did ({what}); the traceback below says where"
        ).format(what=what),
        file=sys.stderr,
    )
    traceback.print_exc()
    return EXIT_CRASH
