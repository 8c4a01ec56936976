"""The default key layouts: which keys each player's actions take on a US keyboard, two
people side by side or one against the computer, with rows of four or longer; and the
layout for who is playing, moved to the same places on another keyboard
(``default_layout``). In the shape a ``--keys`` file and the config's ``[keys.p1]`` /
``[keys.p2]`` have (``keys.keymap_from_config`` reads it); ``docs/keys.md`` pictures them.
"""

from __future__ import annotations

from collections.abc import Mapping

from stress_tui.core.keyboards import DEFAULT_KEYBOARD, KEYBOARDS, Keyboard

REQUIRED_PILES = 4
"""Row piles every player's key map must cover (a standard row)."""

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
