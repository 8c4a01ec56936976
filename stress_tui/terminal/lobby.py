"""The SSH server's lobby running on a session's endpoint (``terminal/server.py``): the
lobby screen (``screens/lobby.py``) drawn, its keys read, until the player chooses.

``Lobby.main()`` ends with the exit status as every screen does (0 once the player has
chosen, ``q`` included; 130 for Ctrl-C, 129 when the client has gone); ``chosen`` says what
was chosen: the computer at a level (``("play", LEVEL)``), a new table (``("new", "")``),
a table to join or watch by its code (``("join", CODE)``, ``("watch", CODE)``), the
player to be forgotten (``("forget", "")``, once they have said ``y`` to the question
``f`` asks; any other key is no), or ``None`` to leave. ``j`` and ``w`` ask for the code
on the lobby itself: letters, spaces and dashes as typed, Backspace, Enter to go, Esc to
go back.

``visit`` is a session's time in the lobby: the lobby shown, what was chosen there played
(``terminal/seats.py`` for a table for two), and the lobby shown again.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from blessed.keyboard import Keystroke

from stress_tui.core.choices import COMPUTER
from stress_tui.core.settings import Settings
from stress_tui.terminal.draw.canvas import Frame, FrameCanvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.endpoint import Endpoint, Listener
from stress_tui.terminal.keynames import SequenceFilter, key_name
from stress_tui.terminal.keys import Intent
from stress_tui.terminal.lang import _
from stress_tui.terminal.running import Running
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.lobby import (
    LEVEL_KEYS,
    NOTHING_TO_FORGET,
    LobbyScreen,
    LobbyView,
    keys_lines,
)
from stress_tui.terminal.session import EXIT_QUIT, EXIT_SIGHUP, EXIT_SIGINT

if TYPE_CHECKING:
    from stress_tui.terminal.server import Session

CODE_LIMIT = 80
"""Characters a code typed in the lobby may have."""


class Lobby(Running):
    """The lobby on an endpoint, until the player chooses."""

    def __init__(self, endpoint: Endpoint, settings: Settings, view: LobbyView) -> None:
        super().__init__(endpoint, settings)
        self.screen = LobbyScreen()
        self.lobby = view
        """What the lobby shows."""
        self.chosen: tuple[str, str] | None = None
        """What the player chose (``None``: to leave)."""
        self.sequences = SequenceFilter()
        if not view.keys:
            from stress_tui.terminal.keys import settings_keymap

            seated = dataclasses.replace(settings, players=("human", "bot:normal"))
            view.keys = keys_lines(settings_keymap(seated), seated.rules.row_size)

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
        if name is None:
            return
        if self.lobby.entering is not None and name not in ("ctrl+c", "ctrl+l"):
            self.enter_code(name)
            return
        if self.lobby.asking and name not in ("ctrl+c", "ctrl+l"):
            self.lobby.asking = False
            if name in ("y", "Y"):
                self.choose("forget", "")
            else:
                self.request_draw()
            return
        binding = self.screen.lookup(name)
        if binding is None:
            return
        intent = binding.intent
        if intent is Intent.PLAY_COMPUTER:
            self.choose("play", LEVEL_KEYS[binding.key])
        elif intent is Intent.OPEN_TABLE:
            self.choose("new", "")
        elif intent in (Intent.JOIN_TABLE, Intent.WATCH_TABLE):
            self.lobby.entering = "join" if intent is Intent.JOIN_TABLE else "watch"
            self.lobby.typed = ""
            self.lobby.note = None
            self.request_draw()
        elif intent is Intent.FORGET_ME:
            if self.lobby.guest:
                self.lobby.note = _(NOTHING_TO_FORGET)
            else:
                self.lobby.asking = True
                self.lobby.note = None
            self.request_draw()
        elif intent is Intent.HELP:
            self.lobby.keys_shown = not self.lobby.keys_shown
            self.request_draw()
        elif intent is Intent.MENU_QUIT:
            self.finish(EXIT_QUIT)
        elif intent is Intent.QUIT:
            self.finish(EXIT_SIGINT)
        elif intent is Intent.REDRAW:
            self.redraw()

    def choose(self, what: str, which: str) -> None:
        self.chosen = (what, which)
        self.lobby.entering = None
        self.finish(EXIT_QUIT)

    def enter_code(self, name: str) -> None:
        """A key while the code is typed: a letter, a space or a dash goes on it,
        Backspace takes one back, Enter goes to the table, Esc back to the menu."""
        from stress_tui.core.text import said
        from stress_tui.net.protocol import normalize_code

        lobby = self.lobby
        assert lobby.entering is not None
        if name == "escape":
            lobby.entering = None
        elif name == "backspace":
            lobby.typed = lobby.typed[:-1]
        elif name == "enter":
            try:
                code = normalize_code(lobby.typed)
            except ValueError as error:
                lobby.note = said(error, _)
            else:
                self.choose(lobby.entering, code)
                return
        elif ((name.isalpha() and len(name) == 1) or name in ("space", "-")) and len(
            lobby.typed
        ) < CODE_LIMIT:
            lobby.typed += " " if name == "space" else name
        self.request_draw()


async def visit(session: Session) -> int:
    """A session's lobby on its client's terminal, and each match chosen there, back to
    the lobby when the match is left, until the player leaves it (or Ctrl-C, the client
    gone, the idle limit, the server stopping); the session's exit status."""
    from stress_tui.terminal import keyrecord, seats
    from stress_tui.terminal.server import here

    unfit = session.unfit_terminal()
    if unfit is not None:
        return unfit
    name = await session.identity()
    if session.ended_with is not None:
        return session.ended_with
    endpoint = session.take_terminal()
    code = EXIT_QUIT
    notes: str | None = None
    while not endpoint.gone and session.ended_with is None:
        view = await keyrecord.lobby_view(session, name)
        view.note = notes
        lobby = Lobby(endpoint, here(names=(name, COMPUTER)), view)
        code = await lobby.main()
        if code != EXIT_QUIT or lobby.chosen is None:
            break
        if endpoint.gone or session.ended_with is not None:
            break
        what, which = lobby.chosen
        note = None
        if what == "forget":
            note = await keyrecord.forget_from_lobby(session, name)
            if note is None:
                return 0
        elif what == "play":
            code = await session.game(endpoint, name, which)
        elif what == "new":
            note = seats.no_table(session)
            if note is None:
                code = await seats.host_table(session, endpoint, name)
        else:
            note = seats.no_seat(session, which, watch=what == "watch")
            if note is None:
                try:
                    code = await seats.sit_at(session, endpoint, name, which, what == "watch")
                except seats.Refused as refused:
                    note = str(refused)
        if code != EXIT_QUIT:
            break
        notes = note
    session.say_why_it_ended(endpoint)
    return session.ended_with if session.ended_with is not None and code == EXIT_QUIT else code
