"""The scene: everything one frame shows, gathered by the app (or the replay viewer) and
read by ``render``. Of the round it shows what the engine says anyone at the table may see
(``stress_tui.core.view``); the rest is the screen's own: names, keys, notices, overlays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stress_tui.core.engine import Game
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.core.view import TableView, table_view
from stress_tui.terminal.keynames import key_label
from stress_tui.terminal.keys import Intent, KeyMap
from stress_tui.terminal.notices import Notices

if TYPE_CHECKING:  # a round's result, loaded once a round has ended (with the overlays
    # that draw it); the bars of the replay viewer and of a network table, made by those alone
    from stress_tui.players.learn import Lessons
    from stress_tui.terminal.netplay import LinkBar
    from stress_tui.terminal.playback import ReplayBar
    from stress_tui.terminal.screens.base import BaseScreen, ModalScreen
    from stress_tui.terminal.screens.result import Result


class Overlay:
    """The names of the screens over the table (``ModalScreen.NAME``)."""

    HELP = "help"
    PAUSE = "pause"
    RESULT = "result"


def person_at_bottom(kinds: tuple[str, str]) -> int:
    """Who sits at the bottom of a table at one keyboard: the person, against the computer
    (in almost every card game on a screen you sit at the bottom); else player 2.

    >>> person_at_bottom(("human", "bot:hard")), person_at_bottom(("human", "human"))
    (0, 1)
    """
    return 0 if kinds[0] == "human" and kinds[1] != "human" else 1


@dataclass(eq=False, slots=True)
class Scene:
    """Everything one frame shows; gathered by the app afresh for each frame, read by
    ``render``. Its fields in slots: with as many as a scene has, CPython gives up sharing
    one table of names among the instances (at 30; ``__dict__``'s key-sharing) and built
    each frame's scene a dict of its own (a sixth of its making's misses, cold)."""

    table: Table
    """The round, its countdown and its computer players."""
    now: float
    """The game time of the frame."""
    keymap: KeyMap
    """Who presses what."""
    notices: Notices
    """What happened lately."""
    names: tuple[str, str] = ("Player 1", "Player 2")
    """The players' names."""
    you: tuple[bool, bool] = (False, False)
    """Which player the texts speak to as "you" (``lang.addressed``)."""
    kinds: tuple[str, str] = ("human", "human")
    """``human`` or ``bot:LEVEL`` per side."""
    score: tuple[int, int] = (0, 0)
    """Rounds won in this match."""
    overlay: ModalScreen | None = None
    """The screen over the table (help, pause, the result...), if one is: the top of the
    controller's stack."""
    beneath: ModalScreen | None = None
    """The screen under that one (what a question over it shows)."""
    result: Result | None = None
    """The round's end, for the result screen."""
    seed: str | None = None
    """What ``--seed`` takes to deal the round again (``12``, ``12/3``: the match's seed and
    the round), said on the result screen."""
    ascii: bool = False
    """Suits as letters."""
    waiting: tuple[bool, bool] | None = None
    """Before a round starts: which players the table waits for to say they are ready
    (``None``: it has started)."""
    resume_count: int | None = None
    """The count before play goes on again after an interruption, if one runs: 1, 2, 3
    (``pieces.count_up``, as every count)."""
    keyboard: str = "us"
    """The keyboard the default keys are placed for (``keys.KEYBOARDS``)."""
    ascii_note: str | None = None
    """Why the suits are letters when the terminal chose it (said on the rule line)."""
    replay: ReplayBar | None = None
    """A replay being watched (``None``: a game being played)."""
    link: LinkBar | None = None
    """A table across a network (``None``: at one keyboard)."""
    bottom: int = 1
    """The player whose row is drawn at the bottom (the joiner's screen draws player 1's
    row, theirs, there; a person against the computer sits there, whichever side they
    play: ``person_at_bottom``)."""
    own_rows: tuple[bool, bool] = (True, True)
    """Whose lockout's time left the frame counts down beside their row: the rows played
    at this screen (each person's at one keyboard, this end's seat at a network table);
    beside another row a lockout says ``locked out`` without it (``docs/rules.md``)."""
    menu_keys: bool = True
    """Whether help and pause take their menu keys yet (a moment after they open)."""
    question: str | None = None
    """A question on the screen over the table, with the keys that answer it, said where
    that screen says its keys (``QuitScreen`` asks it, drawing the screen beneath)."""
    together: tuple[bool, bool] = (False, False)
    """Each player's together key pressed: their next pile key lays the pile with its
    equals."""
    daily: str | None = None
    """The day of the daily deal being played (``YYYY-MM-DD``; said on the title line)."""
    table_screen: BaseScreen | None = None
    """The screen the table is drawn by, under every other (``None``: the table's own,
    ``screens.table.TABLE``; the practice's shows its lesson under the table)."""
    lesson: Lessons | None = None
    """The practice's lessons (``stress-tui learn``), for its screen."""
    offer: bool = False
    """Whether the line under the table offers the practice (once, to a newcomer, while
    their first round waits for them)."""
    rules: Rules = field(init=False, repr=False, compare=False)
    """The rules in play (the round's, read once a frame: every piece's key holds them)."""
    seen: TableView = field(init=False, repr=False, compare=False)
    """What anyone at the table sees of the round at the frame's time: what the pieces
    draw."""

    def __post_init__(self) -> None:
        self.rules = self.table.game.rules
        self.seen = table_view(self.table.game.state, self.now)

    def seat(self, player: int) -> str:
        """Where a player sits on screen: ``top`` or ``bottom``."""
        return "bottom" if player == self.bottom else "top"

    @property
    def game(self) -> Game:
        """The round."""
        return self.table.game

    def other_keys(self, player: int) -> list[tuple[Intent, str]]:
        """A player's keys besides the piles' that the rules in play use (the stress stop
        and laying together only where they are rules), each as its label on screen."""
        rules = self.rules
        keys = []
        for intent in (Intent.STRESS, Intent.READY, Intent.STOP, Intent.TOGETHER):
            if (intent is Intent.STOP and not rules.stress_stop) or (
                intent is Intent.TOGETHER and not rules.together
            ):
                continue
            key = self.keymap.key_for(intent, player)
            if key is not None:
                keys.append((intent, key_label(key)))
        return keys
