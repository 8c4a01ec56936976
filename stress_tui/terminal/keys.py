"""The key map: which key does what for whom, as one table the hints, help and config share.

A key is named by a short string (``q``, ``;``, ``space``, ``escape``, ``f1``, ``ctrl+c``);
letters are always lower case, so Caps Lock changes nothing. A ``Binding`` says what a key
does: play row pile *i* onto the left or right play pile, call stress, say ready to flip,
declare a stress stop, or (for every player) quit, pause, show help. The default layouts
are tables of action names to keys, the same shape a ``--keys`` file or the config's
``[keys.p1]`` / ``[keys.p2]`` sections have, so everything goes through
``keymap_from_config``. ``docs/keys.md`` pictures the layouts.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from stress_tui.core.keyboards import DEFAULT_KEYBOARD, KEYBOARDS, Keyboard
from stress_tui.core.text import N_, Problem

if TYPE_CHECKING:
    from stress_tui.core.settings import Settings

MAX_PILES = 9
"""Row piles a key map can name (``left1`` .. ``left9``)."""

REQUIRED_PILES = 4
"""Row piles every player's key map must cover (a standard row)."""


class KeyMapError(Problem, ValueError):
    """A key map that cannot be used: a key given twice, a missing action, an unknown name
    (an ``N_`` text and its values, said in the player's language where it is shown);
    ``side`` is the player's table it is about (``p1``, ``p2``), if it is one table's."""

    def __init__(self, text: str, /, side: str = "", **values: object) -> None:
        super().__init__(text, side=side, **values)
        self.side = side


NOT_A_KEYS_TABLE = N_("keys must be a table with the sections p1 and p2")
"""What keys that are not a table of the players' tables are told."""


class Intent(enum.Enum):
    """What a key asks for."""

    LEFT = "left"
    """Play a row pile onto the left play pile."""
    RIGHT = "right"
    """Play a row pile onto the right play pile."""
    STRESS = "stress"
    """Call stress."""
    READY = "ready"
    """Say one is ready to flip new cards."""
    STOP = "stop"
    """Declare a stress stop against the opponent's next play (Swiss rule)."""
    TOGETHER = "together"
    """The player's next pile key lays that pile with every other pile of its rank, all at
    once (001's Stapel, the ``together`` rule); pressed again, it is taken back."""
    QUIT = "quit"
    """Leave the game."""
    PAUSE = "pause"
    """Pause the round (and resume it)."""
    HELP = "help"
    """Show the keys and the rules (pauses the round)."""
    REDRAW = "redraw"
    """Draw the whole screen again."""
    CONFIRM = "confirm"
    """On a result or pause screen: go on (next round, rematch, resume)."""
    MENU_QUIT = "menu-quit"
    """On a result, pause or help screen: quit."""
    SCROLL_UP = "scroll-up"
    """On the help screen: show earlier lines."""
    SCROLL_DOWN = "scroll-down"
    """On the help screen: show later lines."""
    STEP = "step"
    """Watching a replay: apply the next recorded action (and pause)."""
    STEP_BACK = "step-back"
    """Watching a replay: go back one recorded action (and pause)."""
    FASTER = "faster"
    """Watching a replay: play it faster."""
    SLOWER = "slower"
    """Watching a replay: play it slower."""
    YES = "yes"
    """Answer yes to the question on screen."""
    NO = "no"
    """Answer no to the question on screen (any key but yes)."""


class Scope(enum.Enum):
    """When a binding counts."""

    PLAY = "play"
    """While the table is up: a player's keys."""
    GLOBAL = "global"
    """Always."""
    MENU = "menu"
    """Only on a result, pause or help screen (where play keys do nothing)."""


PLAYER_INTENTS = (
    Intent.LEFT,
    Intent.RIGHT,
    Intent.STRESS,
    Intent.READY,
    Intent.STOP,
    Intent.TOGETHER,
)
"""The intents a player's own keys carry."""


@dataclass(frozen=True, slots=True)
class Binding:
    """One key and what it does."""

    key: str
    """The key's name (see ``key_name``)."""
    intent: Intent
    """What it asks for."""
    player: int | None = None
    """Whose key (0 or 1); ``None`` for a key everyone shares."""
    pile: int | None = None
    """The row pile (0 is leftmost) for ``LEFT`` and ``RIGHT``."""
    scope: Scope = Scope.PLAY
    """When it counts."""
    description: str = ""
    """What it does, in English marked ``N_`` (said in the player's language where shown:
    the help's key lists, docs/keys.md); empty for a player's key, which the help lists
    by its pile."""
    show: bool = True
    """Whether the help's key lists show it (Ctrl-C and Ctrl-L go without saying)."""

    @property
    def action(self) -> str:
        """The action's name in a config file: ``left1``, ``right4``, ``stress``, ``quit``."""
        if self.pile is not None:
            return f"{self.intent.value}{self.pile + 1}"
        return self.intent.value

    @property
    def label(self) -> str:
        """What the action does, in a few words (for the help screen)."""
        if self.pile is not None:
            return f"pile {self.pile + 1} onto the {self.intent.value} pile"
        return _LABELS[self.intent]


_LABELS = {
    Intent.STRESS: "call stress",
    Intent.READY: "ready to flip",
    Intent.STOP: "stress stop",
    Intent.TOGETHER: "lay equal cards together (then a pile key)",
    Intent.QUIT: "quit",
    Intent.PAUSE: "pause",
    Intent.HELP: "help",
    Intent.REDRAW: "redraw",
    Intent.CONFIRM: "go on",
    Intent.MENU_QUIT: "quit",
    Intent.SCROLL_UP: "scroll up",
    Intent.SCROLL_DOWN: "scroll down",
    Intent.STEP: "one action on (paused)",
    Intent.STEP_BACK: "one action back (paused)",
    Intent.FASTER: "faster",
    Intent.SLOWER: "slower",
    Intent.YES: "yes",
    Intent.NO: "no",
}

# ----------------------------------------------------------------------------- key names

_NAMED_KEYS = (
    "space",
    "enter",
    "tab",
    "backspace",
    "escape",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "insert",
    "delete",
    "pageup",
    "pagedown",
    *(f"f{n}" for n in range(1, 13)),
)
_CONTROL_KEYS = ("ctrl+c", "ctrl+l", "ctrl+z")

_ALIASES = {
    "esc": "escape",
    "return": "enter",
    "del": "delete",
    "ins": "insert",
    "pgup": "pageup",
    "pgdn": "pagedown",
    "page_up": "pageup",
    "page_down": "pagedown",
    "semicolon": ";",
    "comma": ",",
    "period": ".",
    "dot": ".",
    "slash": "/",
    "backslash": "\\",
    "quote": "'",
    "apostrophe": "'",
    "minus": "-",
    "equals": "=",
    "equal": "=",
    "backquote": "`",
    "grave": "`",
    "lbracket": "[",
    "rbracket": "]",
    "spacebar": "space",
}

# blessed's names for the keys we know by name (``Keystroke.key_name``).
_BLESSED_NAMES = {
    "KEY_ENTER": "enter",
    "KEY_KP_ENTER": "enter",
    "KEY_ESCAPE": "escape",
    "KEY_TAB": "tab",
    "KEY_BACKSPACE": "backspace",
    "KEY_DELETE": "delete",
    "KEY_INSERT": "insert",
    "KEY_UP": "up",
    "KEY_DOWN": "down",
    "KEY_LEFT": "left",
    "KEY_RIGHT": "right",
    "KEY_HOME": "home",
    "KEY_END": "end",
    "KEY_PGUP": "pageup",
    "KEY_PGDOWN": "pagedown",
    "KEY_SPACE": "space",
    "KEY_CTRL_C": "ctrl+c",
    "KEY_CTRL_L": "ctrl+l",
    "KEY_CTRL_Z": "ctrl+z",
    **{f"KEY_F{n}": f"f{n}" for n in range(1, 13)},
}

# Kitty modifier bits that do not change what a key means to us: shift (the text already
# carries it), caps lock, num lock.
_IGNORED_MODIFIERS = 1 | 64 | 128


class KeystrokeLike(Protocol):
    """What ``key_name`` reads from a ``blessed.keyboard.Keystroke``."""

    @property
    def key_name(self) -> str | None: ...
    @property
    def value(self) -> str: ...
    @property
    def modifiers_bits(self) -> int: ...
    @property
    def released(self) -> bool: ...


def key_name(keystroke: KeystrokeLike) -> str | None:
    """The name of a key as the key map knows it, or ``None`` for a key it cannot name (a
    modifier alone, Alt+letter, a key release). Repeats are named like presses: the caller
    decides what to do with ``keystroke.repeated``.

    Works the same for legacy input (``q``, ``\\x03``) and the kitty keyboard protocol
    (``\\x1b[113u``, ``\\x1b[99;5u``).
    """
    if keystroke.released:
        return None
    known = _BLESSED_NAMES.get(keystroke.key_name or "")
    if known is not None:
        return known
    text = keystroke.value
    if len(text) != 1 or not text.isprintable():
        return None
    if keystroke.modifiers_bits & ~_IGNORED_MODIFIERS:
        return None
    if text == " ":
        return "space"
    return text.lower()


def normalize_key(name: str) -> str:
    """A key name from a config file in the canonical form; ``KeyMapError`` if unknown.

    >>> normalize_key("Q"), normalize_key("semicolon"), normalize_key("Esc")
    ('q', ';', 'escape')
    """
    if not isinstance(name, str):
        raise KeyMapError(N_("a key name must be text, not {name}"), name=repr(name))
    if len(name) == 1:
        if name.isprintable() and name != " ":
            return name.lower()
        raise KeyMapError(
            N_("unknown key name {name} (write 'space' for the space bar)"), name=repr(name)
        )
    lowered = name.strip().lower()
    lowered = _ALIASES.get(lowered, lowered)
    if lowered in _NAMED_KEYS or lowered in _CONTROL_KEYS:
        return lowered
    if len(lowered) == 1 and lowered.isprintable():
        return lowered
    raise KeyMapError(
        N_("unknown key name {name} (a single character, or one of {names})"),
        name=repr(name),
        names=", ".join(_NAMED_KEYS),
    )


_SHORT_NAMES = {
    "space": "Spc",
    "enter": "Ent",
    "tab": "Tab",
    "backspace": "BkSp",
    "escape": "Esc",
    "up": "Up",
    "down": "Dn",
    "left": "Lt",
    "right": "Rt",
    "home": "Home",
    "end": "End",
    "insert": "Ins",
    "delete": "Del",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "ctrl+c": "^C",
    "ctrl+l": "^L",
    "ctrl+z": "^Z",
}


def key_label(key: str) -> str:
    """A key as written on screen: ``q``, ``;``, ``Spc``, ``Esc``, ``F1``, ``^C``."""
    if key in _SHORT_NAMES:
        return _SHORT_NAMES[key]
    if len(key) > 1 and key[0] == "f" and key[1:].isdigit():
        return key.upper()
    return key


# ----------------------------------------------------------------------------- the map


@dataclass(frozen=True)
class KeyMap:
    """Every binding in play; a key does one thing per scope."""

    bindings: tuple[Binding, ...]
    """All bindings, in the order the help lists them."""
    _play: dict[str, Binding] = field(init=False, repr=False, compare=False)
    _menu: dict[str, Binding] = field(init=False, repr=False, compare=False)
    _by_intent: dict[tuple[Intent, int | None, int | None], tuple[str, ...]] = field(
        init=False, repr=False, compare=False
    )
    _piles: dict[tuple[int, int], tuple[str | None, str | None]] = field(
        init=False, repr=False, compare=False
    )
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        play: dict[str, Binding] = {}
        menu: dict[str, Binding] = {}
        by_intent: dict[tuple[Intent, int | None, int | None], tuple[str, ...]] = {}
        piles: dict[tuple[int, int], tuple[str | None, str | None]] = {}
        for binding in self.bindings:
            where = (binding.intent, binding.player, binding.pile)
            by_intent[where] = (*by_intent.get(where, ()), binding.key)
            if binding.player is not None and binding.pile is not None:
                left, right = piles.get((binding.player, binding.pile), (None, None))
                if binding.intent is Intent.LEFT and left is None:
                    left = binding.key
                elif binding.intent is Intent.RIGHT and right is None:
                    right = binding.key
                piles[binding.player, binding.pile] = (left, right)
            if binding.scope is Scope.MENU:
                tables = [menu]
            elif binding.scope is Scope.GLOBAL:
                tables = [play, menu]
            else:
                tables = [play]
            for table in tables:
                other = table.get(binding.key)
                if other is not None and other != binding:
                    players = {other.player, binding.player}
                    raise KeyMapError(
                        N_("key {key} is given to two actions: {first} and {second}"),
                        side=f"p{binding.player + 1}"
                        if len(players) == 1 and binding.player is not None
                        else "",
                        key=repr(binding.key),
                        first=_whose(other),
                        second=_whose(binding),
                    )
                table[binding.key] = binding
        object.__setattr__(self, "_play", play)
        object.__setattr__(self, "_menu", menu)
        object.__setattr__(self, "_by_intent", by_intent)
        object.__setattr__(self, "_piles", piles)
        object.__setattr__(self, "_hash", hash(self.bindings))

    def __hash__(self) -> int:
        return self._hash

    def lookup(self, key: str | None, menu: bool = False) -> Binding | None:
        """What ``key`` does at the table (or, with ``menu``, on a result/pause/help
        screen)."""
        if key is None:
            return None
        return (self._menu if menu else self._play).get(key)

    def keys_for(
        self, intent: Intent, player: int | None = None, pile: int | None = None
    ) -> tuple[str, ...]:
        """The keys bound to an intent (for a player, for a row pile)."""
        return self._by_intent.get((intent, player, pile), ())

    def pile_keys(self, player: int, pile: int) -> tuple[str | None, str | None]:
        """The keys that play a row pile onto the left and onto the right pile."""
        return self._piles.get((player, pile), (None, None))

    def key_for(
        self, intent: Intent, player: int | None = None, pile: int | None = None
    ) -> str | None:
        """The first key bound to an intent, if any."""
        keys = self.keys_for(intent, player, pile)
        return keys[0] if keys else None

    def player_bindings(self, player: int) -> tuple[Binding, ...]:
        """One player's own keys."""
        return tuple(b for b in self.bindings if b.player == player)

    def global_bindings(self) -> tuple[Binding, ...]:
        """The keys everyone shares (quit, pause, help, redraw) and the menu keys."""
        return tuple(b for b in self.bindings if b.player is None)

    def has_player(self, player: int) -> bool:
        """Whether ``player`` has any keys (a computer player has none)."""
        return any(b.player == player for b in self.bindings)

    def only_players(self, players: Iterable[int]) -> KeyMap:
        """The same map without the keys of the other players (computer players)."""
        keep = set(players)
        return KeyMap(tuple(b for b in self.bindings if b.player is None or b.player in keep))

    def as_config(self) -> dict[str, dict[str, str]]:
        """The players' keys in the shape ``keymap_from_config`` reads."""
        out: dict[str, dict[str, str]] = {}
        for b in self.bindings:
            if b.player is not None:
                out.setdefault(f"p{b.player + 1}", {})[b.action] = b.key
        return out


def _whose(binding: Binding) -> Problem:
    """``p1's left1``, ``everyone's stop``, ``the menu's quit``."""
    if binding.player is None:
        if binding.scope is Scope.MENU:
            return Problem(N_("the menu's {action}"), action=binding.action)
        return Problem(N_("everyone's {action}"), action=binding.action)
    return Problem(N_("{side}'s {action}"), side=f"p{binding.player + 1}", action=binding.action)


GLOBAL_BINDINGS: tuple[Binding, ...] = (
    Binding("?", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
    Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
    Binding("escape", Intent.PAUSE, scope=Scope.GLOBAL, description=N_("pause")),
    Binding("ctrl+c", Intent.QUIT, scope=Scope.GLOBAL, description=N_("quit")),
    Binding("ctrl+l", Intent.REDRAW, scope=Scope.GLOBAL, description=N_("redraw")),
    Binding("enter", Intent.CONFIRM, scope=Scope.MENU),
    Binding("q", Intent.MENU_QUIT, scope=Scope.MENU),
    Binding("up", Intent.SCROLL_UP, scope=Scope.MENU),
    Binding("pageup", Intent.SCROLL_UP, scope=Scope.MENU),
    Binding("down", Intent.SCROLL_DOWN, scope=Scope.MENU),
    Binding("pagedown", Intent.SCROLL_DOWN, scope=Scope.MENU),
)
"""Keys everyone shares. None is a letter in a play zone: a player cannot pause, quit or
open help by a slip of the hand (Esc and ? are off the home rows, ? needs Shift, Ctrl-C
needs Ctrl). On the result, pause and help screens, where no card can be played, Enter
goes on and ``q`` quits; the arrow and page keys scroll the help."""

REPLAY_BINDINGS: tuple[Binding, ...] = (
    Binding("space", Intent.PAUSE, scope=Scope.GLOBAL, description=N_("pause, and go on")),
    Binding("right", Intent.STEP, scope=Scope.GLOBAL, description=N_("one action on (paused)")),
    Binding(".", Intent.STEP, scope=Scope.GLOBAL, description=N_("one action on (paused)")),
    Binding(
        "left", Intent.STEP_BACK, scope=Scope.GLOBAL, description=N_("one action back (paused)")
    ),
    Binding(",", Intent.STEP_BACK, scope=Scope.GLOBAL, description=N_("one action back (paused)")),
    Binding("+", Intent.FASTER, scope=Scope.GLOBAL, description=N_("faster")),
    Binding("=", Intent.FASTER, scope=Scope.GLOBAL, description=N_("faster")),
    Binding("up", Intent.FASTER, scope=Scope.GLOBAL, description=N_("faster")),
    Binding("-", Intent.SLOWER, scope=Scope.GLOBAL, description=N_("slower")),
    Binding("down", Intent.SLOWER, scope=Scope.GLOBAL, description=N_("slower")),
    Binding("?", Intent.HELP, scope=Scope.GLOBAL, description=N_("these keys, and back")),
    Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("these keys, and back")),
    Binding("q", Intent.MENU_QUIT, scope=Scope.GLOBAL, description=N_("leave")),
    Binding("escape", Intent.MENU_QUIT, scope=Scope.GLOBAL, description=N_("leave")),
    Binding("ctrl+c", Intent.QUIT, scope=Scope.GLOBAL, description=N_("quit"), show=False),
    Binding("ctrl+l", Intent.REDRAW, scope=Scope.GLOBAL, description=N_("redraw"), show=False),
    Binding(
        "enter", Intent.CONFIRM, scope=Scope.MENU, description=N_("watch it again (at the end)")
    ),
)
"""Keys while watching a replay, where nobody plays: Space pauses and resumes, Right or
the period steps one recorded action on, Left or the comma one back, + (or =, Up) plays
faster and - (or Down) slower, ? shows these keys, q or Esc leaves; on the result screen
Enter watches the round again."""


def replay_keymap() -> KeyMap:
    """The key map for watching a replay."""
    return KeyMap(REPLAY_BINDINGS)


RESERVED_KEYS = frozenset(b.key for b in GLOBAL_BINDINGS if b.scope is Scope.GLOBAL) | {"ctrl+z"}
"""Keys a player's map may not use (Ctrl-Z suspends)."""

TWO_PLAYER_LAYOUT: dict[str, dict[str, str]] = {
    "p1": {
        "left1": "q",
        "left2": "w",
        "left3": "e",
        "left4": "r",
        "right1": "a",
        "right2": "s",
        "right3": "d",
        "right4": "f",
        "stress": "v",
        "ready": "c",
        "stop": "x",
        "together": "z",
    },
    "p2": {
        "left1": "u",
        "left2": "i",
        "left3": "o",
        "left4": "p",
        "right1": "j",
        "right2": "k",
        "right3": "l",
        "right4": ";",
        "stress": "m",
        "ready": ",",
        "stop": ".",
        "together": "/",
    },
}
"""Two people side by side on one QWERTY keyboard. Player 1 (top row on screen) has the left
half, player 2 (bottom row) the right half; the columns T G B and Y H N between them are
left free, so the hands never meet. For both, the upper letter row plays onto the left pile
and the home row onto the right pile, one finger per pile from left to right; the index
finger drops one row down for stress (V, M), the next fingers for ready (C, comma), for the
stress stop (X, period) and for laying equal cards together (Z, slash)."""

SOLO_LAYOUT: dict[str, str] = {
    "left1": "a",
    "left2": "s",
    "left3": "d",
    "left4": "f",
    "right1": "j",
    "right2": "k",
    "right3": "l",
    "right4": ";",
    "stress": "space",
    "ready": "g",
    "stop": "h",
    "together": "n",
}
"""One person against the computer, both hands on the home row: the left hand plays onto the
left pile, the right hand onto the right pile, one finger per pile from left to right; the
thumb calls stress on the space bar, the index fingers reach G (ready), H (stress stop) and N
(laying equal cards together)."""


LONG_ROW_LAYOUT: dict[str, dict[str, str]] = {
    "p1": {"left5": "t", "right5": "g"},
    "p2": {"left5": "[", "right5": "'"},
}
"""Two people with rows of five: player 1's fifth pile takes the free column T G (Y H N stay
free between the hands), player 2's the keys right of P and of the fourth pile's key."""


SOLO_LONG_ROW_LAYOUT: dict[str, str] = {
    **{f"left{i + 1}": key for i, key in enumerate("qwertyuio")},
    **{f"right{i + 1}": key for i, key in enumerate("asdfghjkl")},
    "stress": "space",
    "ready": "c",
    "stop": "x",
}
"""One person against the computer with a row of five or more (up to nine): the upper letter
row plays onto the left pile and the home row onto the right pile, both hands across the
keyboard from left to right, as the piles lie; the thumb calls stress on the space bar."""


def _translated(actions: Mapping[str, str], keyboard: Keyboard, row_size: int) -> dict[str, str]:
    """A layout's actions with each key moved to the same place on ``keyboard`` (an action
    whose place has no usable key there is left out), without piles past the row."""
    out = {}
    for action, key in actions.items():
        moved = keyboard.translate(key)
        pile = int(action[-1]) if action[-1].isdigit() else 0
        if moved is not None and pile <= max(row_size, REQUIRED_PILES):
            out[action] = moved
    return out


def default_layout(
    players: tuple[str, str] = ("human", "human"),
    keyboard: str = DEFAULT_KEYBOARD,
    row_size: int = REQUIRED_PILES,
) -> dict[str, dict[str, str]]:
    """The default keys for who is playing, on ``keyboard``, in the shape
    ``keymap_from_config`` reads: the two-player layout for two people (with keys for a
    fifth pile when the row has five), the solo layout for one person against the computer
    (on whichever side they sit; for rows of five or more, the long-row solo layout),
    nothing when computers play each other.

    >>> default_layout(("human", "bot:normal"), "de")["p1"]["right4"]
    'ö'
    """
    board = KEYBOARDS[keyboard]
    humans = [i for i, kind in enumerate(players) if kind == "human"]
    if len(humans) == 1:
        solo = SOLO_LAYOUT if row_size <= REQUIRED_PILES else SOLO_LONG_ROW_LAYOUT
        return {f"p{humans[0] + 1}": _translated(solo, board, row_size)}
    layout: dict[str, dict[str, str]] = {}
    for i in humans:
        side = f"p{i + 1}"
        actions = dict(TWO_PLAYER_LAYOUT[side])
        if row_size > REQUIRED_PILES:
            actions.update(LONG_ROW_LAYOUT[side])
        layout[side] = _translated(actions, board, row_size)
    return layout


def unplayable_piles(keymap: KeyMap, players: tuple[str, str], row_size: int) -> list[int]:
    """The human players (0, 1) who have a row pile without a key onto each play pile: a
    row they cannot play."""
    return [
        player
        for player, kind in enumerate(players)
        if kind == "human"
        and any(None in keymap.pile_keys(player, pile) for pile in range(row_size))
    ]


ROW_FIELD = "row_size"
"""The ``Rules`` field the row's length is kept in (what ``unplayable_row`` is about)."""


def settings_keymap(settings: Settings) -> KeyMap:
    """The key map a launch's settings make: their key tables over the default layout for
    their players, keyboard and row."""
    return keymap_for(settings.players, settings.keymap, settings.keyboard, settings.rules.row_size)


def settings_layout(settings: Settings) -> dict[str, dict[str, str]]:
    """The default keys for a launch's players, keyboard and row (config shape)."""
    return default_layout(settings.players, settings.keyboard, settings.rules.row_size)


def unplayable_row(settings: Settings) -> str | None:
    """Why a person at the table cannot play the row the settings deal (a pile without a
    key onto each play pile), in words to follow the place the row was set; ``None`` if
    everyone can."""
    keymap = settings_keymap(settings)
    row = settings.rules.row_size
    short = unplayable_piles(keymap, settings.players, row)
    if not short:
        return None
    player = short[0]
    name = settings.names[player]
    side = f"p{player + 1}"
    has = playable_row(keymap, player)
    own = settings.keymap is not None and side in settings.keymap
    from stress_tui.core.choices import YOU
    from stress_tui.core.words import shown_name
    from stress_tui.terminal.lang import _

    if own:
        keys = _("their own keys")
    else:
        keys = _("the {keyboard} keyboard's keys").format(keyboard=settings.keyboard)
    if row == has + 1:
        mend = _("play a row of {n} or fewer, or give left{more} and right{more} in [keys.{side}]")
    elif row <= MAX_PILES:
        mend = _(
            "play a row of {n} or fewer, or give left{more} to left{row}"
            " and right{more} to right{row} in [keys.{side}]"
        )
    else:
        mend = _("play a row of {n} or fewer")
    mend = mend.format(n=has, more=has + 1, row=row, side=side)
    whose = _("your piles") if name == YOU else _("{name}'s piles")
    return _(
        "a row of {row} cannot be played from the keyboard: {keys} play {n} of {whose} ({mend})"
    ).format(row=row, keys=keys, n=has, whose=whose.format(name=shown_name(name, _)), mend=mend)


def playable_row(keymap: KeyMap, player: int) -> int:
    """How many row piles, from the first, ``player`` has keys for onto both play piles."""
    piles = 0
    while piles < MAX_PILES and None not in keymap.pile_keys(player, piles):
        piles += 1
    return piles


def _player_actions() -> tuple[str, ...]:
    names = [f"{side}{i}" for side in ("left", "right") for i in range(1, MAX_PILES + 1)]
    return (*names, "stress", "ready", "stop", "together")


PLAYER_ACTIONS = _player_actions()
"""Every action name a player's section may use."""

REQUIRED_ACTIONS = (
    *(f"{side}{i}" for side in ("left", "right") for i in range(1, REQUIRED_PILES + 1)),
    "stress",
    "ready",
    "stop",
)
"""The actions every player's section must give a key (``together`` is optional: a key
file written before it keeps working, and a player without it lays one card at a time)."""


def _player_bindings(player: int, actions: Mapping[str, str]) -> list[Binding]:
    section = f"p{player + 1}"
    if not isinstance(actions, Mapping):
        raise KeyMapError(N_("[keys.{side}] must be a table of action = key"), side=section)
    unknown = [name for name in actions if name not in PLAYER_ACTIONS]
    if unknown:
        raise KeyMapError(
            N_(
                "[keys.{side}]: unknown action {action} (actions are left1..left{most}, "
                "right1..right{most}, stress, ready, stop, together)"
            ),
            side=section,
            action=repr(unknown[0]),
            most=MAX_PILES,
        )
    missing = [name for name in REQUIRED_ACTIONS if name not in actions]
    if missing:
        raise KeyMapError(
            N_("[keys.{side}]: no key for {actions}"), side=section, actions=", ".join(missing)
        )
    bindings = []
    for name in PLAYER_ACTIONS:
        if name not in actions:
            continue
        key = normalize_key(actions[name])
        if key in RESERVED_KEYS:
            raise KeyMapError(
                N_(
                    "[keys.{side}] {action}: {key} is reserved "
                    "(? and F1 help, Esc pause, Ctrl-C quit, Ctrl-L redraw, Ctrl-Z suspend)"
                ),
                side=section,
                action=name,
                key=repr(key),
            )
        if key in _CONTROL_KEYS:
            raise KeyMapError(
                N_("[keys.{side}] {action}: control keys cannot play"), side=section, action=name
            )
        if name[-1].isdigit():
            intent = Intent.LEFT if name.startswith("left") else Intent.RIGHT
            bindings.append(Binding(key, intent, player, int(name[-1]) - 1))
        else:
            bindings.append(Binding(key, Intent(name), player))
    return bindings


def keymap_from_config(
    mapping: Mapping[str, Mapping[str, str]],
    defaults: Mapping[str, Mapping[str, str]] | None = None,
) -> KeyMap:
    """A key map from ``{"p1": {"left1": "q", ...}, "p2": {...}}`` (what ``--keys FILE`` and
    the config's ``[keys.p1]`` / ``[keys.p2]`` hold). A player's section must give a key for
    every action in ``REQUIRED_ACTIONS`` (``left5`` .. ``left9`` and ``right5`` ..
    ``right9`` are optional, for longer rows); a section left out keeps ``defaults`` (the
    two-player layout). Raises ``KeyMapError`` for a key given to two actions (also across
    players, and the shared keys), a player missing an action, an unknown key or action name,
    an unknown section.

    >>> keymap_from_config({}).key_for(Intent.STRESS, player=1)
    'm'
    """
    if not isinstance(mapping, Mapping):
        raise KeyMapError(NOT_A_KEYS_TABLE)
    base = TWO_PLAYER_LAYOUT if defaults is None else defaults
    for section in mapping:
        if section not in ("p1", "p2"):
            raise KeyMapError(
                N_("unknown keys section {section} (the sections are p1 and p2)"),
                section=repr(section),
            )
    bindings: list[Binding] = []
    for player, section in enumerate(("p1", "p2")):
        actions = mapping.get(section, base.get(section))
        if actions is not None:
            bindings += _player_bindings(player, actions)
    return KeyMap((*bindings, *GLOBAL_BINDINGS))


def default_keymap(
    players: tuple[str, str] = ("human", "human"),
    keyboard: str = DEFAULT_KEYBOARD,
    row_size: int = REQUIRED_PILES,
) -> KeyMap:
    """The default keys for who is playing (``default_layout``) as a key map: only the
    shared keys when computers play each other."""
    return keymap_from_config(default_layout(players, keyboard, row_size), defaults={})


def keymap_for(
    players: tuple[str, str],
    config: Mapping[str, Mapping[str, str]] | None,
    keyboard: str = DEFAULT_KEYBOARD,
    row_size: int = REQUIRED_PILES,
) -> KeyMap:
    """The key map a game uses: ``config`` (``Settings.keymap``) over the default layout for
    ``players`` on ``keyboard``, with no keys for computer players. Every section of
    ``config`` is checked, even one for a side the computer plays (but its keys may then
    clash with the human's)."""
    if keyboard not in KEYBOARDS:
        raise KeyMapError(
            N_("unknown keyboard {keyboard} (choose from {keyboards})"),
            keyboard=repr(keyboard),
            keyboards=", ".join(KEYBOARDS),
        )
    if not config:
        return default_keymap(players, keyboard, row_size)
    if not isinstance(config, Mapping):
        raise KeyMapError(NOT_A_KEYS_TABLE)
    for section, actions in config.items():
        keymap_from_config({section: actions}, defaults={})
    humans = [i for i, kind in enumerate(players) if kind == "human"]
    sections = {f"p{i + 1}" for i in humans}
    defaults = default_layout(players, keyboard, row_size)
    chosen = {s: v for s, v in config.items() if s in sections}
    return keymap_from_config(chosen, defaults=defaults)


class SequenceFilter:
    """Drops what a terminal sends that is not a key press: the rest of an escape sequence
    blessed does not know (a mouse report, focus in and out, a late answer to a query), and
    everything inside a bracketed paste.

    blessed hands such a sequence over as a ``CSI`` keystroke (``ESC [``) followed by each
    of its remaining characters as keys of their own: without this filter the ``m`` that
    ends a mouse report would call player 2's stress. A control sequence is parameter
    characters (``0``-``?``), then intermediates (space to ``/``), then one final
    character (``@`` to ``~``), which ends it.
    """

    PASTE_START = "200~"
    PASTE_END = "201~"

    def __init__(self) -> None:
        self._sequence: str | None = None
        """The characters of an unknown sequence read so far (``None``: not in one)."""
        self._pasting = False
        """Inside a bracketed paste."""

    def passes(self, keystroke: KeystrokeLike) -> bool:
        """Whether this keystroke is a key press to act on."""
        text = keystroke.value if keystroke.key_name is None else ""
        if self._sequence is not None:
            if len(text) != 1 or not " " <= text <= "~":
                self._sequence = None  # not part of a sequence after all
            else:
                self._sequence += text
                if "@" <= text <= "~":
                    self._end(self._sequence)
                return False
        if keystroke.key_name == "CSI":
            self._sequence = ""
            return False
        return not self._pasting

    def burst_over(self) -> None:
        """No more input is waiting: a sequence or paste cut off here is over (a terminal
        sends each at once; one whose end never comes must not leave the game deaf)."""
        self._sequence = None
        self._pasting = False

    def _end(self, sequence: str) -> None:
        self._sequence = None
        if sequence == self.PASTE_START:
            self._pasting = True
        elif sequence == self.PASTE_END:
            self._pasting = False
