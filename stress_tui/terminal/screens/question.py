"""The question whether to quit a match that is not over, over the screen it was asked on."""

from __future__ import annotations

import dataclasses

from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Binding, Intent, Scope, key_hint
from stress_tui.terminal.lang import N_, _
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.base import ALWAYS, ModalScreen


class QuitScreen(ModalScreen):
    """Quit this match? ``y`` quits; any other key is no (Ctrl-C and Ctrl-L act as ever).
    Drawn as the screen it was asked on, with the question where that one shows its
    keys (``Scene.question``)."""

    TITLE = "quit this match?"
    NAME = "question"
    BINDINGS = (
        Binding("y", Intent.YES, scope=Scope.MENU, description=N_("quit"), hint=N_("quit")),
        *ALWAYS,
    )
    OTHER_KEYS = Intent.NO
    OTHER_DESCRIPTION = "no: back to the screen it was asked on"
    QUESTION = N_("Quit this match?")
    OTHER_HINT = N_("any other key: no")
    """What its hint says of the keys it does not bind."""

    def question(self) -> str:
        """The question and the keys that answer it, from its bindings: ``Quit this match?
        y: quit   any other key: no``."""
        return f"{_(self.QUESTION)}  {key_hint(self.BINDINGS)}   {_(self.OTHER_HINT)}"

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        beneath = view.beneath
        if beneath is not None:
            beneath.draw(dataclasses.replace(view, question=self.question()), palette, canvas)
