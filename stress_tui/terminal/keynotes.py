"""What a player is told where the keys fall short: a row with a pile no key plays, a key
that plays nothing on the table.

The key map itself is ``terminal/keys.py``'s; this module only reads it. The command line
asks ``unplayable_row`` before a game starts (a ``--row`` longer than the keys), the table's
banner ``stray_key_note`` when a key plays nothing (``terminal/frames.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stress_tui.core.keyboards import DEFAULT_KEYBOARD, KEYBOARDS
from stress_tui.terminal.keynames import key_label
from stress_tui.terminal.keys import MAX_PILES, KeyMap, default_keymap, settings_keymap

if TYPE_CHECKING:
    from stress_tui.core.settings import Settings


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


def stray_key_note(name: str, settings: Settings) -> tuple[str, str]:
    """What a key that plays nothing on the table says (the whole line, and a short form):
    that it is no key here and how to get it. A key that another keyboard's default keys
    would take (``;`` where the keys are placed for a German keyboard, ``ö`` for a US one)
    says which keyboard the keys are placed for and the flag that places them for that
    one; any other key, that help shows the keys."""
    from stress_tui.terminal.lang import _

    label = key_label(name)
    if not settings.keymap:
        boards = sorted(KEYBOARDS, key=lambda board: board != DEFAULT_KEYBOARD)
        for board in boards:
            if board == settings.keyboard:
                continue
            keymap = default_keymap(settings.players, board, settings.rules.row_size)
            binding = keymap.lookup(name)
            if binding is None or binding.player is None:
                continue
            here, there = KEYBOARDS[settings.keyboard], KEYBOARDS[board]
            whole = _(
                "{key} is no key here: keys placed for a {keyboard} keyboard; "
                "--keyboard {name} for a {other} one"
            )
            short = _("{key}: no key on a {keyboard} keyboard (--keyboard {name})")
            said = {
                "key": label,
                "keyboard": _(here.short),
                "name": board,
                "other": _(there.short),
            }
            return whole.format(**said), short.format(**said)
    return (
        _("{key} is no key here (? shows the keys)").format(key=label),
        _("{key}: no key (? keys)").format(key=label),
    )
