"""The practice's table (``stress-tui learn``): the table, and under it the lesson on, one
line saying what to do next with the person's own keys (the key map's bindings: their
keyboard's, or their key file's). The next lesson's line replaces it once it is done."""

from __future__ import annotations

from stress_tui.players.learn import PERSON, Lessons, Step
from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keynames import key_label
from stress_tui.terminal.keys import Intent, KeyMap
from stress_tui.terminal.lang import N_, _, rank_name
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.table import TableScreen, footer

LINES: dict[Step, tuple[str, str]] = {
    Step.START: (
        N_("Your first game: press {key} when you are ready; the computer waits for you"),
        N_("Press {key} to start"),
    ),
    Step.UP: (
        N_("Play a card one rank up: your {card} on the {top}: press {key}"),
        N_("Up: {card} on {top}: press {key}"),
    ),
    Step.DOWN: (
        N_("A card from your draw pile filled the gap. Now one down: {card} on {top}: press {key}"),
        N_("Down: {card} on {top}: press {key}"),
    ),
    Step.WRAP: (
        N_("An ace goes on a king and on a two: your {card} on the {top}: press {key}"),
        N_("Ace: {card} on {top}: press {key}"),
    ),
    Step.MAKE_STRESS: (
        N_("Both piles the same rank is stress: your {card} on the {top} makes it: press {key}"),
        N_("Make stress: {card} on {top}: press {key}"),
    ),
    Step.CALL_STRESS: (
        N_("Stress! Hit {key} before the computer does: the slower takes both piles"),
        N_("Stress! Hit {key} first"),
    ),
    Step.TAKEN: (
        N_("You were first: the computer took both piles. New cards on three"),
        N_("The computer took both piles"),
    ),
    Step.READY: (
        N_("None of your cards fits: press {key} for new cards (the computer agrees)"),
        N_("No card fits: press {key}"),
    ),
    Step.PLAY_OUT: (
        N_("Now play it out against the slow computer: the first with no cards left wins"),
        N_("Play it out: no cards left wins"),
    ),
}
"""What each lesson says, whole and short (where the whole does not fit)."""

KEY_NAMES = {"space": N_("Space")}
"""Keys a lesson names in full (``key_label`` names the rest, as the hints do)."""


class LessonScreen(TableScreen):
    """The table in the practice, its lesson on the line under it. Its keys are the
    table's: the lesson names the person's own."""

    TITLE = "table, in the practice (stress-tui learn)"
    NAME = "lesson"
    BINDINGS = TableScreen.BINDINGS

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        super().draw(view, palette, canvas)
        if view.lesson is not None:
            footer(canvas, palette.count, *lesson_line(view, view.lesson))


LESSON = LessonScreen()
"""The practice's table."""


def said_key(key: str | None) -> str:
    """A key as a lesson names it: ``Space``, ``k``, ``;``."""
    if key is None:
        return "?"
    return _(KEY_NAMES[key]) if key in KEY_NAMES else key_label(key)


def lesson_line(view: Scene, lessons: Lessons) -> tuple[str, str]:
    """The lesson on, whole and short, with the person's keys and cards."""
    step = lessons.step
    keymap: KeyMap = view.keymap
    said = {"key": "", "card": "", "top": ""}
    if step in (Step.START, Step.READY):
        said["key"] = said_key(keymap.key_for(Intent.READY, PERSON))
    elif step is Step.CALL_STRESS:
        said["key"] = said_key(keymap.key_for(Intent.STRESS, PERSON))
    else:
        play = lessons.play(view.game)
        if play is not None:
            pile, target = play
            state = view.game.state
            card = state.players[PERSON].row[pile][0]
            top = state.play_piles[target][-1]
            intent = Intent.LEFT if target == 0 else Intent.RIGHT
            said["key"] = said_key(keymap.key_for(intent, PERSON, pile))
            said["card"], said["top"] = rank_name(card.rank), rank_name(top.rank)
    whole, short = LINES[step]
    return _(whole).format(**said), _(short).format(**said)
