"""The SSH server's lobby running on a session's endpoint (``terminal/server.py``): the
lobby screen (``screens/lobby.py``) drawn, its keys read, until the player chooses.

``Lobby.main()`` ends with the exit status as every screen does (0 once the player has
chosen, ``q`` included; 130 for Ctrl-C, 129 when the client has gone); ``chosen`` says what
was chosen: a level of the computer to play, or ``None`` to leave.
"""

from __future__ import annotations

from blessed.keyboard import Keystroke

from stress_tui.core.settings import Settings
from stress_tui.terminal.draw.canvas import Frame, FrameCanvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.endpoint import Endpoint, Listener
from stress_tui.terminal.keynames import SequenceFilter, key_name
from stress_tui.terminal.keys import Intent
from stress_tui.terminal.lang import N_, _
from stress_tui.terminal.running import Running
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.lobby import LEVEL_KEYS, LobbyScreen, LobbyView
from stress_tui.terminal.session import EXIT_QUIT, EXIT_SIGHUP, EXIT_SIGINT

NOT_YET = N_("tables for two are not on this server yet: play the computer meanwhile")
"""Said for a key of the tables for two."""


class Lobby(Running):
    """The lobby on an endpoint, until the player chooses."""

    def __init__(self, endpoint: Endpoint, settings: Settings, view: LobbyView) -> None:
        super().__init__(endpoint, settings)
        self.screen = LobbyScreen()
        self.lobby = view
        """What the lobby shows."""
        self.chosen: str | None = None
        """The computer's level chosen (``None``: none, the player leaves)."""
        self.sequences = SequenceFilter()

    def view(self) -> Scene:
        raise NotImplementedError  # the lobby draws itself (``draw``), not a table

    def listener(self) -> Listener:
        return Listener(
            key=self.on_key,
            burst_over=self.sequences.burst_over,
            resize=self.on_resize,
            end=self.finish,
            suspend=lambda: None,  # Ctrl-Z: nothing to stop here
            resume=self.on_continue,
        )

    def opened(self) -> None:
        self.on_resize()

    def on_resize(self) -> None:
        self.frames.measure()
        self.redraw()

    def draw(self) -> None:
        self.draw_pending = False
        if not self.frames.paint(self.paint):
            self.finish(EXIT_SIGHUP)

    def paint(self, palette: Palette, canvas: FrameCanvas) -> Frame:
        self.screen.draw(self.lobby, palette, canvas)
        return canvas.frame()

    def on_key(self, keystroke: Keystroke) -> None:
        if not self.sequences.passes(keystroke) or keystroke.repeated:
            return
        name = key_name(keystroke)
        binding = None if name is None else self.screen.lookup(name)
        if binding is None:
            return
        intent = binding.intent
        if intent is Intent.PLAY_COMPUTER:
            self.chosen = LEVEL_KEYS[binding.key]
            self.finish(EXIT_QUIT)
        elif intent is Intent.MENU_QUIT:
            self.finish(EXIT_QUIT)
        elif intent is Intent.QUIT:
            self.finish(EXIT_SIGINT)
        elif intent is Intent.REDRAW:
            self.redraw()
        elif intent in (Intent.OPEN_TABLE, Intent.JOIN_TABLE, Intent.WATCH_TABLE):
            self.lobby.note = _(NOT_YET)
            self.request_draw()
