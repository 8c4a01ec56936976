"""The help screen: every player's keys, everyone's, and the rules in play."""

from __future__ import annotations

import textwrap
from typing import ClassVar

from stress_tui.core.keyboards import KEYBOARDS
from stress_tui.core.rulestext import plain_words
from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keynames import key_label
from stress_tui.terminal.keys import Binding, Intent, Scope, hints
from stress_tui.terminal.lang import N_, _
from stress_tui.terminal.scene import Overlay, Scene
from stress_tui.terminal.screens.base import ALWAYS, ModalScreen, key_list, panel

_OTHER_KEYS = {
    Intent.STRESS: N_("stress"),
    Intent.READY: N_("ready to flip"),
    Intent.STOP: N_("stress stop"),
    Intent.TOGETHER: N_("equal cards together, then a pile key:"),
}
"""What the help calls a player's keys besides the piles'."""

MORE = N_("more")
EARLIER = N_("earlier")
LEAVE = N_("leave")
"""What the help's footer says its keys do (``Binding.hint``)."""


def _player_keys_lines(view: Scene, player: int) -> list[tuple[str, str]]:
    keys = view.keymap
    name = view.names[player]
    where = _("bottom row") if player == view.bottom else _("top row")
    head = f"{name} ({where})"
    if not keys.has_player(player):
        kind = view.kinds[player]
        if kind == "human":  # a network table: the other player's keys are at their end
            return [(_("{who}: plays from the other terminal").format(who=head), "title")]
        level = kind[4:] if kind.startswith("bot:") else kind
        return [(_("{who}: the computer ({level})").format(who=head, level=_(level)), "title")]
    size = view.rules.row_size

    def row(intent: Intent) -> str:
        return " ".join(key_label(keys.key_for(intent, player, i) or "-") for i in range(size))

    others = [f"{_(_OTHER_KEYS[intent])} {key}" for intent, key in view.other_keys(player)]
    return [
        (head, "title"),
        (
            "  "
            + _("piles 1-{size} onto the left pile:").format(size=size)
            + "  "
            + row(Intent.LEFT),
            "",
        ),
        (
            "  "
            + _("piles 1-{size} onto the right pile:").format(size=size)
            + " "
            + row(Intent.RIGHT),
            "",
        ),
        ("  " + "   ".join(others), ""),
    ]


def _replay_help_lines(view: Scene) -> list[tuple[str, str]]:
    """The replay viewer's keys, one intent a line, from its bindings."""
    lines: list[tuple[str, str]] = [(_("Watching a replay"), "title")]
    for keys, what in key_list(view.keymap.bindings):
        lines.append((f"  {keys}: {what}", ""))
    return lines


def help_lines(view: Scene, width: int) -> list[tuple[str, str]]:
    """The help screen's lines (text, kind) for a panel ``width`` columns wide; the kind is
    ``title`` or ``""``."""
    keys = view.keymap
    if view.replay is not None:
        return _replay_help_lines(view)
    lines: list[tuple[str, str]] = []
    for player in (0, 1) if view.bottom == 1 else (1, 0):  # the top row's player first
        lines += _player_keys_lines(view, player)
    from stress_tui.terminal.screens.table import TableScreen

    shared = [f"{what} {' '.join(labels)}" for labels, what in table_keys(TableScreen.BINDINGS)]
    lines.append((_("Everyone"), "title"))
    lines.append(("  " + "   ".join(shared) + "   " + _("suspend ^Z"), ""))
    board = KEYBOARDS.get(view.keyboard)
    if board is not None and any(keys.has_player(p) for p in (0, 1)):
        lines.append(
            (
                "  "
                + _("keys placed for a {keyboard} keyboard (--keyboard: {names})").format(
                    keyboard=_(board.title), names=", ".join(KEYBOARDS)
                ),
                "",
            )
        )
    lines.append(("", ""))
    lines.append((_("The rules in play"), "title"))
    for sentence in plain_words(view.rules, _):
        for part in textwrap.wrap(sentence, width - 2) or [""]:
            lines.append(("  " + part, ""))
    # A line too long for the panel (a longer language) goes on at the next, between words.
    fitted: list[tuple[str, str]] = []
    for text, kind in lines:
        if len(text) <= width:
            fitted.append((text, kind))
            continue
        indent = "    " if text.startswith("  ") else "  "
        parts = textwrap.wrap(text, width, subsequent_indent=indent, drop_whitespace=False)
        fitted += [(part.rstrip()[:width], kind) for part in parts]
    return fitted


def table_keys(bindings: tuple[Binding, ...]) -> list[tuple[list[str], str]]:
    """The table's own keys (besides the players'), each intent's labels and what they do."""
    found: dict[str, list[str]] = {}
    for binding in bindings:
        if binding.description:
            found.setdefault(_(binding.description), []).append(key_label(binding.key))
    return [(labels, what) for what, labels in found.items()]


class HelpScreen(ModalScreen):
    """The help: every player's keys, everyone's, and the rules in play; it stops the
    round's clock (a hold), and scrolls itself where it does not fit (its own keys: the
    arrows, a line, and the page keys, ``PAGE`` lines)."""

    TITLE = "help"
    NAME = Overlay.HELP
    BINDINGS: ClassVar[tuple[Binding, ...]] = (
        Binding(
            "?",
            Intent.HELP,
            scope=Scope.GLOBAL,
            description=N_("back to the game"),
            hint=N_("back to the game"),
        ),
        Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("back to the game")),
        Binding(
            "escape",
            Intent.PAUSE,
            scope=Scope.GLOBAL,
            description=N_("back to the game"),
            hint=N_("back to the game"),
        ),
        Binding(
            "down", Intent.SCROLL_DOWN, scope=Scope.MENU, description=N_("scroll down"), hint=MORE
        ),
        Binding(
            "pagedown",
            Intent.SCROLL_DOWN,
            scope=Scope.MENU,
            description=N_("scroll down"),
            hint=MORE,
        ),
        Binding(
            "up", Intent.SCROLL_UP, scope=Scope.MENU, description=N_("scroll up"), hint=EARLIER
        ),
        Binding(
            "pageup", Intent.SCROLL_UP, scope=Scope.MENU, description=N_("scroll up"), hint=EARLIER
        ),
        Binding("q", Intent.MENU_QUIT, scope=Scope.MENU, description=N_("quit"), hint=N_("quit")),
        *ALWAYS,
    )
    """In the order its footer says them: the way back, that there is more, quitting."""
    HEAD: ClassVar[str] = N_("Paused.")
    """What its footer says before its keys."""
    PAGE = 10
    """Lines a page key scrolls."""

    def __init__(self) -> None:
        self.offset = 0
        """The first line shown."""
        self.last = 0
        """The last first line there is (as last drawn: the lines past what the window
        holds)."""

    def act(self, binding: Binding) -> bool:
        """The arrows and the page keys scroll, within the lines (as last drawn)."""
        if binding.intent not in (Intent.SCROLL_UP, Intent.SCROLL_DOWN):
            return False
        step = 1 if binding.key in ("up", "down") else self.PAGE
        step = -step if binding.intent is Intent.SCROLL_UP else step
        self.offset = max(0, min(self.offset + step, self.last))
        return True

    def draw(self, view: Scene, palette: Palette, canvas: Canvas) -> None:
        width = min(canvas.width - 6, 90)
        lines = help_lines(view, width)
        room = max(1, canvas.height - 6)
        self.last = max(0, len(lines) - room)
        first = self.offset = min(self.offset, self.last)
        shown = lines[first : first + room]
        footer = view.question or self.footer(canvas, width, first > 0, first < self.last, view)
        styles = {"title": palette.panel_title, "": palette.panel}
        boxed = [(t, styles[k]) for t, k in shown]
        boxed += [("", ""), (canvas.fit(width, footer), palette.panel_key)]
        panel(canvas, palette, boxed, min_w=width + 4)

    def footer(self, canvas: Canvas, width: int, earlier: bool, more: bool, view: Scene) -> str:
        """Its keys, from its bindings (``keys.hints``), as many as the panel holds, whole
        (a longer language has less room): the way back, that there is ``more`` below or
        ``earlier`` lines above (where there are), quitting; quitting goes first where
        they do not fit (the title line says ^C quits), then going back up; a narrow
        panel says the way back short; that there is more, last."""
        scrolls = {Intent.SCROLL_DOWN: more, Intent.SCROLL_UP: earlier}
        bindings = [b for b in self.BINDINGS if scrolls.get(b.intent, True)]
        parts = hints(bindings, live=view.menu_keys)
        going_on = [b for b in bindings if b.intent is Intent.SCROLL_DOWN]
        said_more = hints(going_on, live=view.menu_keys)
        back = [b for b in bindings if b.intent in (Intent.HELP, Intent.PAUSE)]
        short = hints(back, instead={Intent.HELP: N_("back"), Intent.PAUSE: N_("back")})[0]
        if self.HEAD:
            parts[0] = f"{_(self.HEAD)}  {parts[0]}"
        while len(parts) > 1 and canvas.text_width("   ".join(parts)) > width:
            if parts[1:] == said_more and parts[0] != short:
                parts[0] = short
            else:
                parts.pop()
        return "   ".join(parts)


class ReplayHelpScreen(HelpScreen):
    """The help while a replay is watched: the viewer's keys."""

    TITLE = "help, watching a replay"
    BINDINGS = (
        Binding(
            "?",
            Intent.HELP,
            scope=Scope.GLOBAL,
            description=N_("these keys, and back"),
            hint=N_("back to the replay"),
        ),
        Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("these keys, and back")),
        Binding("space", Intent.PAUSE, scope=Scope.GLOBAL, description=N_("pause, and go on")),
        Binding("q", Intent.MENU_QUIT, scope=Scope.GLOBAL, description=N_("leave"), hint=LEAVE),
        Binding(
            "escape", Intent.MENU_QUIT, scope=Scope.GLOBAL, description=N_("leave"), hint=LEAVE
        ),
        *ALWAYS,
    )
    HEAD = ""
