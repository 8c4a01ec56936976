"""The SSH server's lobby (``stress-tui serve``, ``docs/serve.md``): what a player sees
on ``ssh -p PORT HOST`` before and between matches. Its menu is its bindings: play the
computer at a level, the tables for two, quit; beside it the player's name, their record
and rating, and their last rounds. ``terminal/lobby.py`` runs it on the session's channel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stress_tui.core.choices import FORGOTTEN
from stress_tui.core.words import shown_name
from stress_tui.terminal.draw.canvas import Canvas
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keynames import key_label
from stress_tui.terminal.keys import Binding, Intent, KeyMap, Scope, key_hint
from stress_tui.terminal.lang import N_, _
from stress_tui.terminal.screens.base import ALWAYS, KeyedScreen, key_list

if TYPE_CHECKING:
    from stress_tui.storage.recent import RecentRound

LEVEL_KEYS = {"1": "easy", "2": "normal", "3": "hard", "4": "expert"}
"""The computer's level each of the lobby's play keys chooses."""

RECENT = 5
"""How many of the player's last rounds the lobby shows."""

NOTHING_TO_FORGET = N_("a guest (no key): nothing kept here is tied to you; nothing to forget")
"""What a guest asking to be forgotten is told (``f`` in the lobby, ``ssh HOST forget``)."""


@dataclass
class LobbyView:
    """What the lobby shows."""

    name: str
    """The player's name (the key's on this server; ``Guest`` without a key)."""
    guest: bool
    """Whether the player came without a key (unrated, no record)."""
    rounds: tuple[int, int] = (0, 0)
    """Rounds won and lost, in the record."""
    rating: int | None = None
    """The player's rating (``None``: no rated round yet)."""
    recent: list[RecentRound] = field(default_factory=list)
    """Their last rounds, newest first."""
    note: str | None = None
    """A line about the last key (a code that is not one, a table that is not here)."""
    entering: str | None = None
    """``join`` or ``watch`` while the player types a table's code (``None``: the menu)."""
    typed: str = ""
    """The code typed so far."""
    keys: list[str] = field(default_factory=list)
    """The player's keys at a table, a line each (``?`` shows them)."""
    keys_shown: bool = False
    """Whether the keys show, in place of the last rounds."""
    asking: bool = False
    """Whether the lobby asks the player to confirm that they are to be forgotten."""


class LobbyScreen(KeyedScreen):
    """The lobby: a number plays the computer at its level, ``n``, ``j`` and ``w`` the
    tables for two, ``f`` forgets the player (once they say yes), ``q`` leaves."""

    TITLE = "the lobby (stress-tui serve)"
    NAME = "lobby"
    BINDINGS = (
        Binding(
            "1", Intent.PLAY_COMPUTER, scope=Scope.MENU, description=N_("play the computer, easy")
        ),
        Binding(
            "2", Intent.PLAY_COMPUTER, scope=Scope.MENU, description=N_("play the computer, normal")
        ),
        Binding(
            "3", Intent.PLAY_COMPUTER, scope=Scope.MENU, description=N_("play the computer, hard")
        ),
        Binding(
            "4", Intent.PLAY_COMPUTER, scope=Scope.MENU, description=N_("play the computer, expert")
        ),
        Binding(
            "n",
            Intent.OPEN_TABLE,
            scope=Scope.MENU,
            description=N_("open a table for two, with a code to read aloud"),
        ),
        Binding(
            "j", Intent.JOIN_TABLE, scope=Scope.MENU, description=N_("join a table by its code")
        ),
        Binding(
            "w", Intent.WATCH_TABLE, scope=Scope.MENU, description=N_("watch a table by its code")
        ),
        Binding(
            "f",
            Intent.FORGET_ME,
            scope=Scope.MENU,
            description=N_("forget me: erase my key, name and replays here (asks first)"),
        ),
        Binding(
            "?",
            Intent.HELP,
            scope=Scope.MENU,
            description=N_("your keys at a table"),
            hint=N_("keys"),
        ),
        Binding("q", Intent.MENU_QUIT, scope=Scope.MENU, description=N_("quit"), hint=N_("quit")),
        *ALWAYS,
    )

    def draw(self, view: LobbyView, palette: Palette, canvas: Canvas) -> None:
        """The lobby on a blank canvas: the title line, the player, the menu, the last
        rounds, the keys."""
        width = canvas.width
        canvas.fill(0, 0, width, palette.title)
        canvas.put(0, 0, " STRESS-TUI ", palette.title)
        canvas.put(0, max(12, width - canvas.text_width(view.name) - 1), view.name, palette.title)
        y = 2
        if view.guest:
            about = [_("{name}: a guest (no key): unrated, no record").format(name=view.name)]
        else:
            won, lost = view.rounds
            about = [
                _("rounds: {rounds}, won {won}, lost {lost}").format(
                    rounds=won + lost, won=won, lost=lost
                )
            ]
            if view.rating is not None:
                about.append(_("rating: {rating}").format(rating=view.rating))
        canvas.put(y, 2, canvas.fit(width - 4, "    ".join(about)), palette.info)
        y += 2
        lines = key_list(self.BINDINGS)
        keys_w = max(canvas.text_width(keys) for keys, _what in lines)
        for keys, what in lines:
            canvas.put(y, 4, keys, palette.hint_key)
            canvas.put(y, 6 + keys_w, canvas.fit(width - 8 - keys_w, what), palette.plain)
            y += 1
        if view.entering is not None:
            asked = (
                _("The code of the table to join: {code}")
                if view.entering == "join"
                else _("The code of the table to watch: {code}")
            )
            canvas.put(
                y + 1, 2, canvas.fit(width - 4, asked.format(code=view.typed + "_")), palette.info
            )
            canvas.put(y + 2, 2, canvas.fit(width - 4, _("Enter: go    Esc: back")), palette.hint)
        elif view.asking:
            question = (
                _("Forget {name} for good: your key, your name and your replays here?"),
                _("Your rounds against people stay in their record, played by {forgotten}."),
                _("y: yes, forget me    any other key: no"),
            )
            forgotten = shown_name(FORGOTTEN, _)
            for i, line in enumerate(question):
                said = line.format(name=view.name, forgotten=forgotten)
                canvas.put(
                    y + 1 + i,
                    2,
                    canvas.fit(width - 4, said),
                    palette.hint if i == 2 else palette.warn,
                )
        if view.note is not None:
            canvas.put(y + 3, 2, canvas.fit(width - 4, view.note), palette.warn)
        y += 4
        if view.keys_shown and y + 2 < canvas.height - 1:
            canvas.put(y, 2, _("Your keys at a table"), palette.panel_title)
            for line in view.keys[: max(0, canvas.height - 2 - y - 1)]:
                y += 1
                canvas.put(y, 4, canvas.fit(width - 6, line), palette.plain)
        elif view.recent and y + 2 < canvas.height - 1:
            canvas.put(y, 2, _("Your last rounds"), palette.panel_title)
            y += 1
            for done in view.recent[: min(RECENT, canvas.height - 2 - y)]:
                canvas.put(y, 4, canvas.fit(width - 6, recent_line(done)), palette.plain)
                y += 1
        canvas.put(
            canvas.height - 1, 2, canvas.fit(width - 4, key_hint(self.BINDINGS)), palette.hint
        )


def recent_line(done: RecentRound) -> str:
    """One of the last rounds: when, won or lost, against whom."""
    when = done.finished[:16].replace("T", " ")
    against = shown_name(done.opponent, _)
    if done.opponent_kind.startswith("bot:"):
        against += " (" + _(done.opponent_kind[4:]) + ")"
    said = _("won against {name}") if done.won else _("lost against {name}")
    return f"{when}  {said.format(name=against)}"


def keys_lines(keymap: KeyMap, size: int) -> list[str]:
    """A player's keys at a table (player 1's of ``keymap``, which seats one person against
    the computer: the keys a table over SSH gives its players), a line each."""

    def row(intent: Intent) -> str:
        return " ".join(key_label(keymap.key_for(intent, 0, i) or "-") for i in range(size))

    others = {Intent.STRESS: N_("stress"), Intent.READY: N_("ready to flip")}
    return [
        _("piles 1-{size} onto the left pile:").format(size=size) + "  " + row(Intent.LEFT),
        _("piles 1-{size} onto the right pile:").format(size=size) + " " + row(Intent.RIGHT),
        "   ".join(
            f"{_(word)} {key_label(keymap.key_for(intent, 0) or '-')}"
            for intent, word in others.items()
        ),
    ]
