"""The key map: which key does what for whom, as one table the hints, help and config share.

A ``Binding`` says what a key does: play row pile *i* onto the left or right play pile,
call stress, say ready to flip, declare a stress stop, or (for every player) quit, pause,
show help; with a description, what the help and docs/keys.md say of it. A ``KeyMap`` is
every binding in play, a key doing one thing. The players' keys come from the default
layouts (``terminal/layouts.py``) or a ``--keys`` file or the config's ``[keys.p1]`` /
``[keys.p2]`` sections, all through ``keymap_from_config``; what a key is called is
``terminal/keynames.py``'s.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stress_tui.core.keyboards import DEFAULT_KEYBOARD, KEYBOARDS
from stress_tui.core.text import N_, Problem
from stress_tui.terminal.keynames import CONTROL_KEYS, KeyMapError, key_label, normalize_key
from stress_tui.terminal.layouts import (
    REQUIRED_PILES,
    TWO_PLAYER_LAYOUT,
    default_layout,
)

if TYPE_CHECKING:
    from stress_tui.core.settings import Settings

MAX_PILES = 9
"""Row piles a key map can name (``left1`` .. ``left9``)."""

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
    PLAY_COMPUTER = "play-computer"
    """In the lobby: play the computer at the level the key names."""
    OPEN_TABLE = "open-table"
    """In the lobby: open a table for two, with a code to read aloud."""
    JOIN_TABLE = "join-table"
    """In the lobby: join a table with its code."""
    WATCH_TABLE = "watch-table"
    """In the lobby: watch a table with its code."""
    FORGET_ME = "forget-me"
    """In the lobby: forget the player's key, name and replays (asks first)."""

    __hash__ = object.__hash__
    """Hashed by identity, in C (as ``cards.Suit``): ``Enum``'s own hash is a Python
    function, and the controller looks each key's intent up in its table of handlers."""


class Scope(enum.Enum):
    """When a binding counts."""

    PLAY = "play"
    """While the table is up: a player's keys."""
    GLOBAL = "global"
    """Always."""
    MENU = "menu"
    """Only on a result, pause or help screen (where play keys do nothing)."""


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
    hint: str = ""
    """The word its screen's key hint says for it (``N_``; empty: not in the hint)."""

    @property
    def action(self) -> str:
        """The action's name in a config file: ``left1``, ``right4``, ``stress``, ``quit``."""
        if self.pile is not None:
            return f"{self.intent.value}{self.pile + 1}"
        return self.intent.value


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
    stamp: str = field(init=False, repr=False, compare=False)
    """The bindings in one string, equal for equal maps (their ``repr``): what a screen
    keeps drawn for them is looked up by it, a string keeping its hash, where a map's own
    hash is a call of a Python function."""

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
        object.__setattr__(self, "stamp", repr(self.bindings))

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

    def has_player(self, player: int) -> bool:
        """Whether ``player`` has any keys (a computer player has none)."""
        return any(b.player == player for b in self.bindings)

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
    Binding("?", Intent.HELP, scope=Scope.GLOBAL, description=N_("help"), hint=N_("help")),
    Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("help")),
    Binding("escape", Intent.PAUSE, scope=Scope.GLOBAL, description=N_("pause"), hint=N_("pause")),
    Binding("ctrl+c", Intent.QUIT, scope=Scope.GLOBAL, description=N_("quit"), hint=N_("quit")),
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
    Binding(
        "space",
        Intent.PAUSE,
        scope=Scope.GLOBAL,
        description=N_("pause, and go on"),
        hint=N_("pause"),
    ),
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
    Binding(
        "?",
        Intent.HELP,
        scope=Scope.GLOBAL,
        description=N_("these keys, and back"),
        hint=N_("keys"),
    ),
    Binding("f1", Intent.HELP, scope=Scope.GLOBAL, description=N_("these keys, and back")),
    Binding("q", Intent.MENU_QUIT, scope=Scope.GLOBAL, description=N_("leave"), hint=N_("quit")),
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


HINT_NAMES = {"enter": "Enter", "down": "Down"}
"""Keys a hint names in full, where it has the room (``key_label`` elsewhere: ``Ent``)."""


def hints(
    bindings: Iterable[Binding],
    *,
    live: bool = True,
    instead: Mapping[Intent, str] | None = None,
    title: bool = False,
) -> list[str]:
    """A screen's key hints from its bindings, one for each word its bindings hint (their
    ``hint``), in the order of their first binding: the word's keys and the word in the
    player's language, ``Esc or Enter: play on``; on a title line (``title``) the word after
    its first key, ``? help``. While a screen's menu keys do not work yet (not ``live``: a
    moment after it opened over the table), only the keys that work already; ``instead``
    says another word (``N_``) for an intent (what Enter goes on to, a paused replay's
    Space). Every key hint on screen is made here."""
    from stress_tui.terminal.lang import _, pgettext

    said: dict[str, list[str]] = {}
    for binding in bindings:
        if binding.hint and (live or binding.scope is not Scope.MENU):
            word = (instead or {}).get(binding.intent, binding.hint)
            label = key_label(binding.key) if title else HINT_NAMES.get(binding.key)
            said.setdefault(word, []).append(label or key_label(binding.key))
    if title:
        return [f"{keys[0]} {_(word)}" for word, keys in said.items()]
    either = pgettext("keys", " or ")
    return [f"{either.join(keys)}: {_(word)}" for word, keys in said.items()]


def key_hint(
    bindings: Iterable[Binding], live: bool = True, instead: Mapping[Intent, str] | None = None
) -> str:
    """A panel's key hints in a line (``hints``): ``Esc or Enter: play on    ?: help``."""
    return "    ".join(hints(bindings, live=live, instead=instead))


def title_hint(bindings: Iterable[Binding], instead: Mapping[Intent, str] | None = None) -> str:
    """A title line's key hints in a line (``hints``): ``? help  Esc pause  ^C quit``."""
    return "  ".join(hints(bindings, instead=instead, title=True))


def replay_keymap() -> KeyMap:
    """The key map for watching a replay."""
    return KeyMap(REPLAY_BINDINGS)


RESERVED_KEYS = frozenset(b.key for b in GLOBAL_BINDINGS if b.scope is Scope.GLOBAL) | {"ctrl+z"}
"""Keys a player's map may not use (Ctrl-Z suspends)."""


def settings_keymap(settings: Settings) -> KeyMap:
    """The key map a launch's settings make: their key tables over the default layout for
    their players, keyboard and row."""
    return keymap_for(settings.players, settings.keymap, settings.keyboard, settings.rules.row_size)


def settings_layout(settings: Settings) -> dict[str, dict[str, str]]:
    """The default keys for a launch's players, keyboard and row (config shape)."""
    return default_layout(settings.players, settings.keyboard, settings.rules.row_size)


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
        if key in CONTROL_KEYS:
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


@functools.lru_cache(maxsize=16)
def default_keymap(
    players: tuple[str, str] = ("human", "human"),
    keyboard: str = DEFAULT_KEYBOARD,
    row_size: int = REQUIRED_PILES,
) -> KeyMap:
    """The default keys for who is playing (``default_layout``) as a key map: only the
    shared keys when computers play each other. Kept for the last few: a launch asks
    twice before its first frame (the command line, whether the row has keys; then the
    table), and a key map never changes."""
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
