"""The controller: which screens cover the table, and what a key does there.

Which screens are over the table comes from the match's lifecycle (``core/lifecycle.py``):
``wanted`` says which for its stage and holds (the help, the pause, the result, the
question whether to quit), and the stack of screens (``screens/base.py``) pushes and pops
to match. A key press becomes a binding through the screen on top (``screens/``), or the
key map (``terminal/keys.py``) on the table itself. What is the screen's own business the
screen does itself (``BaseScreen.act``: the help scrolls its lines); otherwise the
binding's intent picks its handler from a table (``Controller.handlers``), which holds or
releases the lifecycle (help, pause), goes on, quits, or hands a player's key to the game.

A screen that covers the table while players are at it ignores its menu keys (Enter, q,
the arrows) for a moment, so that a player still playing does not act on it by their own
play key (player 1's ``q`` is the menu's quit): the result screen until the lifecycle says
it takes keys (``core.lifecycle.RESULT_GRACE`` after the round ends), help and pause for
``MENU_GRACE`` after they open over the table.
Quitting a match that is not over asks once (``y`` says yes, any other key no). What is
not a key press is not acted on: the rest of an escape sequence and the inside of a paste
are dropped (``keynames.SequenceFilter``), and a held key plays once: the kitty keyboard
protocol marks its repeats, and elsewhere they are told by their rhythm
(``repeats.AutoRepeat``): a player's key repeated is dropped, and the same key again
about the terminal's repeat delay after it waits ``REPEAT_GAP`` to be told from a first
repeat, unless it plays a card that fits now (a person's quick presses are never slowed).

The controller holds no terminal and no event loop: it works on a ``Clock`` and asks its
``Host`` (the screen) for everything else, so it is tested in-process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from stress_tui.core.actions import Action, CallStress, Play, PlayTogether, ReadyToFlip, StopStress
from stress_tui.core.lifecycle import Hold, Stage
from stress_tui.core.rules import Rules
from stress_tui.terminal.clock import Clock
from stress_tui.terminal.keynames import KeyNamer, KeystrokeLike, SequenceFilter
from stress_tui.terminal.keys import Binding, Intent, KeyMap, Scope
from stress_tui.terminal.repeats import REPEAT_GAP, AutoRepeat, Press
from stress_tui.terminal.scene import Overlay
from stress_tui.terminal.screens.base import ModalScreen, ScreenStack
from stress_tui.terminal.session import EXIT_QUIT, EXIT_SIGINT

if TYPE_CHECKING:  # made once a round has ended (the result screen draws it)
    from stress_tui.terminal.screens.result import Result

MENU_GRACE = 0.5
"""Seconds after help or pause opens over the table during which its menu keys are
ignored, so that the other player's next play key does not act on it."""

_PLAYING = Stage.PLAYING
_TOGETHER = Intent.TOGETHER
_REPEAT, _MAYBE = Press.REPEAT, Press.MAYBE
"""The members a play's key compares with, under plain names: on Python 3.11 reading a
member off its enum class goes through ``EnumType.__getattr__``'s slow path (about 0.1 us
warm, and its own code cold at a person's pace), as ``core/view.py`` says."""

_TARGETS = {Intent.LEFT: 0, Intent.RIGHT: 1}
"""The play pile each pile key plays onto (left, right)."""


class Keystroke(KeystrokeLike, Protocol):
    """A key as read (blessed's ``Keystroke``)."""

    @property
    def repeated(self) -> bool: ...


class Host(Protocol):
    """What the controller asks of the screen it runs in."""

    def finish(self, code: int) -> None:
        """End the game with this exit status."""

    def request_draw(self) -> None:
        """Draw soon (something on screen changed)."""

    def redraw(self) -> None:
        """Draw everything again, as if the screen showed nothing."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> None:
        """Run ``callback`` after ``delay`` seconds of the outside clock."""

    def suspend(self) -> None:
        """Ctrl-Z: stop the game for the shell."""


class GameHost(Host, Protocol):
    """What the game's controller asks of the game."""

    def play(self, binding: Binding) -> None:
        """A player's key: make it an action and apply it."""

    def next_round(self) -> None:
        """After the result screen: the next round."""

    def match_in_play(self) -> bool:
        """Whether quitting now would end a match that is not over."""

    def ready_to_start(self, player: int) -> None:
        """Before the round starts: a player says they are ready."""

    def fits(self, binding: Binding) -> bool:
        """Whether a player's key plays a card that fits now (``False`` for any other
        key, and where the game cannot tell)."""

    def stray_key(self, name: str) -> None:
        """A key that plays nothing on the table: say once what it is not."""


Handler = Callable[[Binding, str | None], None]
"""What an intent does, given its binding and the name of the screen over the table when
it came (``Overlay``; ``None``: the table itself)."""


class Controller:
    """A screen's keys: a table from intent to handler, and what covers the table. This
    base answers only the keys every screen has (Ctrl-C, redraw); ``GameController`` and
    the replay viewer's controller add their own."""

    def __init__(self, host: Host, clock: Clock, keymap: KeyMap) -> None:
        self.host = host
        self.clock = clock
        """The round's clock, and through it the match's lifecycle."""
        self.keymap = keymap
        """Who presses what."""
        self.sequences = SequenceFilter()
        """Drops escape sequences and pastes that are not key presses."""
        self.key_name = KeyNamer()
        """What each key is called (``keynames.key_name``; this terminal's)."""
        self.repeats = AutoRepeat()
        """Tells a held key's repeats from presses."""
        self.pressed = Press.NEW
        """What the key being handled is (a press, a repeat, maybe the first repeat)."""
        self.result: Result | None = None
        """The round's result, while its screen covers the table."""
        self.stack = ScreenStack()
        """The screens over the table (``wanted``)."""
        self.handlers: dict[Intent, Handler] = self.table()
        """What each intent does."""

    def table(self) -> dict[Intent, Handler]:
        """The intents this screen answers, and their handlers."""
        return {Intent.QUIT: self.interrupt, Intent.REDRAW: self.redraw}

    def wanted(self) -> list[type[ModalScreen]]:
        """The screens over the table now, bottom first, as the lifecycle's stage and
        holds (and a question asked) say: nothing over the table in play."""
        return []

    @property
    def top(self) -> ModalScreen | None:
        """The screen shown and taking keys (``None``: the table): the stack made to hold
        what is ``wanted`` first."""
        wanted = self.wanted()
        if not wanted and not self.stack.screens:
            return None  # the table, as at nearly every key in play
        self.stack.show(wanted)
        return self.stack.top

    @property
    def overlay(self) -> str | None:
        """The name of the screen over the table (``Overlay``), if one is."""
        top = self.top
        return None if top is None else top.NAME

    # ------------------------------------------------------------------ keys in

    def key(self, keystroke: Keystroke) -> None:
        """One key, as it arrived."""
        if not self.sequences.passes(keystroke):
            return
        if len(keystroke) > 1 and keystroke.repeated:
            return  # kitty keyboard protocol: a held key plays once (a report is a sequence)
        name = self.key_name(keystroke)
        if name is None:
            return
        time = self.clock.time  # (read, then called: see ``Endpoint.received``)
        self.pressed = self.repeats.press(name, time())
        top = self.top
        if name == "ctrl+z" and (top is None or top.OTHER_KEYS is None):
            self.host.suspend()  # only seen as a key with the kitty protocol
            return
        # The table takes the key map's keys (the players' and everyone's); a screen over
        # it only its own.
        binding = self.keymap.lookup(name) if top is None else top.lookup(name)
        if binding is None:
            if top is None and not name.startswith("ctrl+"):
                self.stray(name)
            return
        self.on_binding(binding, None if top is None else top.NAME)

    def on_binding(self, binding: Binding, overlay: str | None) -> None:
        """What a binding does, given the screen over the table when its key came: nothing
        while that screen holds it back (``holds_back``); what is that screen's own
        business it does itself (``BaseScreen.act``: the help scrolls); the rest is this
        controller's (the lifecycle's holds, going on, leaving, play)."""
        if overlay is not None:  # (on the table itself nothing is stacked)
            if self.holds_back(binding, overlay):
                return
            top = self.stack.top
            if top is not None and top.act(binding):
                self.host.request_draw()
                return
        handler = self.handlers.get(binding.intent)
        if handler is not None:
            handler(binding, overlay)

    def holds_back(self, binding: Binding, overlay: str) -> bool:
        """Whether the screen ``overlay`` ignores ``binding`` for now."""
        return False

    def stray(self, name: str) -> None:
        """A key that plays nothing on the table (the game says what it is not)."""

    def burst_over(self) -> None:
        """The keys that arrived together have all been read."""
        self.sequences.burst_over()

    # ------------------------------------------------------------------ handlers

    def interrupt(self, binding: Binding, overlay: str | None) -> None:
        """Ctrl-C as a key: leave at once."""
        self.host.finish(EXIT_SIGINT)

    def redraw(self, binding: Binding, overlay: str | None) -> None:
        self.host.redraw()

    # ------------------------------------------------------------------ the result

    def show_result(self, result: Result) -> None:
        """Cover the table with the round's result; its keys work once the lifecycle
        says so (``Stage.RESULT``)."""
        self.result = result
        result.keys_live = self.grace_over()
        self.host.request_draw()

    def new_round(self) -> None:
        """A round begins: no result and no question over it (the lifecycle's deal closes
        the help and the pause)."""
        self.result = None

    def grace_over(self) -> bool:
        """Whether the result screen takes keys yet."""
        return self.result is not None and self.clock.life.stage is Stage.RESULT


class GameController(Controller):
    """The game's keys: the players' keys on the table; help, pause and the result screen
    over it (help and pause stop the clock)."""

    host: GameHost

    def __init__(self, host: GameHost, clock: Clock, keymap: KeyMap) -> None:
        super().__init__(host, clock, keymap)
        self.menu_live = True
        """Whether help and pause take their menu keys (a moment after they open)."""
        self.covered = 0
        """How many times help or pause has opened over the table (to know which
        opening a moment's end belongs to)."""
        self.quit_asked = False
        """Whether the question whether to quit the match is on screen."""
        self.held: Binding | None = None
        """A player's key that may be a first repeat, waiting ``REPEAT_GAP`` to be told."""
        self.holding = 0
        """How many keys have been held so (to know which one a moment's end is for)."""

    def table(self) -> dict[Intent, Handler]:
        return {
            **super().table(),
            Intent.HELP: self.toggle_help,
            Intent.PAUSE: self.toggle_pause,
            Intent.CONFIRM: self.confirm,
            Intent.MENU_QUIT: self.menu_quit,
            Intent.LEFT: self.play,
            Intent.RIGHT: self.play,
            Intent.STRESS: self.play,
            Intent.READY: self.play,
            Intent.STOP: self.play,
            Intent.TOGETHER: self.play,
            Intent.YES: self.yes,
            Intent.NO: self.no,
        }

    def wanted(self) -> list[type[ModalScreen]]:
        """The pause under the result under the help, and the question over them."""
        life = self.clock.life
        asked = self.quit_asked
        if not (life.holds or self.result is not None or asked):
            return []  # the table (and no screen's module loaded)
        from stress_tui.terminal.screens.help import HelpScreen
        from stress_tui.terminal.screens.pause import PauseScreen
        from stress_tui.terminal.screens.question import QuitScreen
        from stress_tui.terminal.screens.result import ResultScreen

        return [
            *([PauseScreen] if life.held(Hold.PAUSE) else []),
            *([ResultScreen] if self.result is not None else []),
            *([HelpScreen] if life.held(Hold.HELP) else []),
            *([QuitScreen] if asked else []),
        ]

    def holds_back(self, binding: Binding, overlay: str) -> bool:
        """Help or pause just opened over the table: not its menu keys yet."""
        return (
            binding.scope is Scope.MENU
            and overlay in (Overlay.HELP, Overlay.PAUSE)
            and not self.menu_live
        )

    def stray(self, name: str) -> None:
        self.host.stray_key(name)

    def yes(self, binding: Binding, overlay: str | None) -> None:
        """Yes to the question whether to quit the match: quit."""
        self.host.finish(EXIT_QUIT)

    def no(self, binding: Binding, overlay: str | None) -> None:
        """Any other key to the question: no, back to the screen it was asked on."""
        self.quit_asked = False
        self.host.request_draw()

    def cover(self) -> None:
        """Help or pause opens over the table: its menu keys work a moment later."""
        self.menu_live = False
        self.covered += 1
        self.host.call_later(MENU_GRACE, functools.partial(self.menu_keys_live, self.covered))

    def menu_keys_live(self, covered: int) -> None:
        if covered == self.covered:
            self.menu_live = True
            self.host.request_draw()

    def toggle_help(self, binding: Binding, overlay: str | None) -> None:
        if overlay == Overlay.HELP:
            self.clock.unpause("help")
        else:
            if overlay is None:
                self.cover()
            self.clock.pause("help")
        self.host.request_draw()

    def toggle_pause(self, binding: Binding, overlay: str | None) -> None:
        if overlay == Overlay.HELP:
            self.clock.unpause("help")
        elif overlay == Overlay.PAUSE:
            self.clock.unpause("pause")
        elif overlay is None:
            self.cover()
            self.clock.pause("pause")
        self.host.request_draw()

    def confirm(self, binding: Binding, overlay: str | None) -> None:
        if overlay == Overlay.RESULT and self.grace_over():
            self.host.next_round()
        elif overlay == Overlay.PAUSE:
            self.clock.unpause("pause")
            self.host.request_draw()

    def menu_quit(self, binding: Binding, overlay: str | None) -> None:
        if overlay == Overlay.RESULT and not self.grace_over():
            return
        if self.host.match_in_play():
            self.quit_asked = True  # ask once
            self.host.request_draw()
        else:
            self.host.finish(EXIT_QUIT)

    def play(self, binding: Binding, overlay: str | None) -> None:
        """A player's key counts only on the table itself (no screen over it, clock running);
        before the round starts, a player's ready key says they are ready for it. In play
        it is told from a held key's repeats: a repeat plays nothing, and the same key again
        after about the terminal's repeat delay waits a moment to be told (unless it plays
        a card that fits: then it may be a person's and plays)."""
        if binding.player is None or overlay is not None:
            return
        life = self.clock.life
        stage = life.stage
        if stage is not _PLAYING:
            if stage is Stage.READY and not life.holds and binding.intent is Intent.READY:
                self.host.ready_to_start(binding.player)
            return
        pressed = self.pressed
        if pressed is _REPEAT:
            self.held = None  # a key held there was the first repeat
            return
        if self.held is not None:
            self.play_held()  # another key came: what was held was pressed
        if pressed is _MAYBE and not self.host.fits(binding):
            self.held = binding
            self.holding += 1
            self.host.call_later(REPEAT_GAP, functools.partial(self.hold_over, self.holding))
            return
        self.host.play(binding)

    def hold_over(self, holding: int) -> None:
        """No repeat followed the key held: it was pressed, and plays now."""
        if holding == self.holding:
            self.play_held()
            self.host.request_draw()

    def play_held(self) -> None:
        held, self.held = self.held, None
        if held is not None and self.top is None and self.clock.life.stage is _PLAYING:
            self.host.play(held)

    def new_round(self) -> None:
        super().new_round()
        self.quit_asked = False


class TogetherKey:
    """Each player's together key (001's *Stapel*, the ``together`` rule): pressed, that
    player's next pile key lays the pile with every other pile of its rank; pressed again,
    it is taken back. Key presses one after the other, never a chord (docs/keys.md)."""

    def __init__(self) -> None:
        self.armed = [False, False]
        """Whose next pile key lays together."""

    def action(self, binding: Binding, now: float, rules: Rules) -> Action | None:
        """The action a player's key asks for (``action_for``), with the together key
        remembered: ``None`` for the together key itself (and where ``action_for`` gives
        none)."""
        player = binding.player
        assert player is not None
        if binding.intent is _TOGETHER:
            if rules.together:
                self.armed[player] = not self.armed[player]
            return None
        together = self.armed[player] and binding.intent in (Intent.LEFT, Intent.RIGHT)
        action = action_for(binding, now, rules.row_size, together)
        if together and action is not None:
            self.armed[player] = False
        return action

    def shown(self) -> tuple[bool, bool]:
        """Whose together key is pressed, for the screen."""
        return self.armed[0], self.armed[1]


def action_for(
    binding: Binding, now: float, row_size: int, together: bool = False
) -> Action | None:
    """The engine action a player's key asks for, stamped ``now``: a pile key after the
    together key (``together``) lays the pile with its equals. ``None``: a pile key past
    the row's end, under rules with fewer piles than the key map, or the together key
    (which only changes what the next pile key does)."""
    player = binding.player
    assert player is not None
    intent = binding.intent
    target = _TARGETS.get(intent)
    if target is not None:
        pile = binding.pile
        assert pile is not None
        if pile >= row_size:
            return None
        kind = PlayTogether if together else Play
        return kind(player, pile, target, now)
    if intent is Intent.STRESS:
        return CallStress(player, now)
    if intent is Intent.READY:
        return ReadyToFlip(player, now)
    if intent is Intent.STOP:
        return StopStress(player, now)
    return None  # pragma: no cover - the key map gives players no other intents
