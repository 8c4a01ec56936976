"""The practice (``stress-tui learn``): one round against a slow computer, dealt so that every
lesson happens, with a line under the table saying what to do next.

``LearnApp`` is the game (``terminal/app.py``), its match driven by the same lifecycle:
what differs is the deal (``players.learn.DEAL``), the computer (``players.learn.Tutor``,
still while the lessons are on), the table's screen (``screens.lesson.LessonScreen``) and
the end: the practice is neither recorded nor counted (no replay, no record, no rating, no
daily), and Enter on its result leaves.
"""

from __future__ import annotations

import functools
import random

from stress_tui.core.actions import Action
from stress_tui.core.engine import Game
from stress_tui.core.events import Event, RoundDrawn, RoundWon
from stress_tui.core.notation import parse_position
from stress_tui.core.settings import Settings
from stress_tui.core.table import Driver, Table
from stress_tui.players.learn import DEAL, PERSON, SEED, Lessons, Tutor
from stress_tui.terminal.app import App, run_screen
from stress_tui.terminal.endpoint import Endpoint
from stress_tui.terminal.lang import N_, _
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.result import Result
from stress_tui.terminal.session import EXIT_QUIT


class LearnApp(App):
    """The practice: the lesson deal against the tutor, the lesson under the table."""

    def __init__(self, endpoint: Endpoint, settings: Settings, colour: bool = True) -> None:
        self.lessons = Lessons()
        """Which lesson is on."""
        super().__init__(endpoint, settings, colour)
        self.log.checked = True  # the practice reads and writes no record

    def new_table(self, game: Game | None = None) -> Table:
        """The lesson deal (again, for a second go); the lessons follow its actions."""
        game = Game(parse_position(DEAL), random.Random(SEED))
        self.rules = game.rules
        table = Table(game)
        self.log.watch(table, None)  # no seed: neither recorded nor counted
        self.lessons = Lessons()
        logged = table.on_action

        def follow(action: Action, happened: list[Event]) -> None:
            if logged is not None:
                logged(action, happened)
            self.lessons.note(happened, game)

        table.on_action = follow
        return table

    def drivers(self) -> tuple[Driver, ...]:
        """The tutor, still while the lessons are on."""
        return (Tutor(self.lessons, random.Random(SEED)),)

    def start_table(self) -> None:
        """The person said ready: the first lesson."""
        self.lessons.started(self.table.game)
        super().start_table()

    def view(self) -> Scene:
        from stress_tui.terminal.screens.lesson import LESSON

        scene = super().view()
        scene.seed = None
        scene.table_screen = LESSON
        scene.lesson = self.lessons
        return scene

    def end_round(self, event: RoundWon | RoundDrawn) -> Result:
        """The practice's result: said to be one, not counted; Enter leaves."""
        result = super().end_round(event)
        if result.winner == PERSON:
            result.headline = _("You won your first game!")
        elif result.winner is not None:
            result.headline = _("The computer won this time: stress-tui learn deals it again")
        result.notes = (_("a practice: not recorded, not counted in the statistics"),)
        result.again = N_("leave")
        return result

    def next_round(self) -> None:
        """One practice: Enter on its result leaves."""
        self.finish(EXIT_QUIT)


def run_learn(settings: Settings) -> int:
    """The practice in this terminal; the exit status."""
    return run_screen(functools.partial(LearnApp, settings=settings))
