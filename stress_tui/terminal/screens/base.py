"""A screen, and the stack of screens over the table.

As Textual's ``Screen`` and ``ModalScreen``: a screen is a class with its own ``BINDINGS``
(each a ``keys.Binding``: a key, the intent it asks for and a description said in the
player's language, and the word its key hint says) and its own drawing. While a screen is
the top of the stack only its bindings count; a key it does not bind does nothing (or what
its ``OTHER_KEYS`` says). What a binding asks that is the screen's own business (the help
scrolling) the screen does (``act``); the rest its controller does. Every key hint on a
screen is made from its bindings by ``keys.hints``.
Which screens are on the stack comes from the match's lifecycle (``core/lifecycle.py``):
the controller of each way to play says which it wants (``wanted``), and the stack pushes
and pops to match (``ScreenStack.show``). Under the stack is the table
(``screens/table.py``), whose keys are the key map's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keynames import key_label
from stress_tui.terminal.keys import Binding, Intent, Scope
from stress_tui.terminal.lang import N_, _
from stress_tui.terminal.scene import Scene

ALWAYS = (
    Binding("ctrl+c", Intent.QUIT, scope=Scope.GLOBAL, description=N_("quit"), show=False),
    Binding("ctrl+l", Intent.REDRAW, scope=Scope.GLOBAL, description=N_("redraw"), show=False),
)
"""The keys every screen takes: Ctrl-C leaves at once, Ctrl-L draws everything again."""


class KeyedScreen:
    """A screen's keys: what it is called and which keys it takes (its drawing is its
    own: a screen of a round draws a ``Scene``, ``BaseScreen``; the SSH server's lobby
    draws the lobby)."""

    NAME: ClassVar[str]
    """What the screen is called (``help``, ``pause``...)."""
    TITLE: ClassVar[str]
    """What docs/keys.md calls it."""
    BINDINGS: ClassVar[tuple[Binding, ...]] = ()
    """Its keys, in the order its key list shows them."""
    OTHER_KEYS: ClassVar[Intent | None] = None
    """What any key it does not bind asks for (``None``: nothing)."""
    OTHER_DESCRIPTION: ClassVar[str] = ""
    """What docs/keys.md says any other key does there."""

    def lookup(self, key: str) -> Binding | None:
        """What ``key`` does on this screen (``None``: nothing)."""
        for binding in self.BINDINGS:
            if binding.key == key:
                return binding
        if self.OTHER_KEYS is not None:
            return Binding(key, self.OTHER_KEYS)
        return None

    def act(self, binding: Binding) -> bool:
        """Do what ``binding`` asks where that is this screen's own business (the help
        scrolls itself); ``False``: it is not, and the controller does it (a hold of the
        lifecycle, going on, leaving, a play)."""
        return False

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class BaseScreen(KeyedScreen):
    """A screen of a round: what it draws of a ``Scene`` and which keys it takes."""

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        """Draw the screen (under the title line, drawn already)."""
        raise NotImplementedError


class ModalScreen(BaseScreen):
    """A screen over the table: it has the window to itself under the title line (nothing
    of the table shows through or beside it), and takes only its own keys."""


class ScreenStack:
    """The screens over the table, the top one last; empty: the table itself."""

    def __init__(self) -> None:
        self.screens: list[ModalScreen] = []

    @property
    def top(self) -> ModalScreen | None:
        """The screen shown and taking keys (``None``: the table)."""
        return self.screens[-1] if self.screens else None

    @property
    def beneath(self) -> ModalScreen | None:
        """The screen under the top one (``None``: the table)."""
        return self.screens[-2] if len(self.screens) > 1 else None

    def push(self, screen: ModalScreen) -> None:
        """Open ``screen`` over what shows."""
        self.screens.append(screen)

    def pop(self) -> ModalScreen:
        """Close the top screen."""
        return self.screens.pop()

    def show(self, wanted: Sequence[type[ModalScreen]]) -> None:
        """Make the stack hold screens of the classes ``wanted`` (bottom first): the
        screens above the first that differs are popped, the rest pushed; a screen still
        wanted stays as it is."""
        keep = 0
        while (
            keep < len(self.screens)
            and keep < len(wanted)
            and type(self.screens[keep]) is wanted[keep]
        ):
            keep += 1
        while len(self.screens) > keep:
            self.pop()
        for kind in wanted[keep:]:
            self.push(kind())


def key_list(bindings: Sequence[Binding]) -> list[tuple[str, str]]:
    """The keys a screen shows, one line each: the keys of one intent (``q or Esc``) and
    what they do, in the player's language; bindings that say nothing are left out."""
    lines: dict[tuple[Intent, str], list[str]] = {}
    for binding in bindings:
        if binding.show and binding.description:
            lines.setdefault((binding.intent, binding.description), []).append(binding.key)
    return [
        (_(" or ").join(key_label(key) for key in keys), _(description))
        for (_intent, description), keys in lines.items()
    ]


def panel(
    canvas: Canvas, palette: Palette, lines: Sequence[tuple[str, str]], min_w: int = 30
) -> None:
    """A box of lines (text, style) in the middle of the screen."""
    width = min(canvas.width - 2, max(min_w, *(canvas.text_width(t) + 4 for t, _style in lines)))
    height = min(canvas.height, len(lines) + 2)
    x = (canvas.width - width) // 2
    y = (canvas.height - height) // 2
    for dy in range(height):
        canvas.fill(y + dy, x, width, palette.panel)
    for i, (text, style) in enumerate(lines[: height - 2]):
        canvas.put(y + 1 + i, x + 2, canvas.fit(width - 4, text), style or palette.panel)
