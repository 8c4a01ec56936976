"""Auto-repeat told from deliberate presses, for terminals that send key presses only.

Held, a key types once, then again after the terminal's delay (250-600 ms where people
leave it; X's own default is 660 ms) and from then on at its rate (25-40 a second: a press
every 25-40 ms), as steady as a clock. A person pressing one key twice with one finger
needs about a tenth of a second between the presses, however fast they are. So a press of
the key pressed last that comes within ``REPEAT_GAP`` of it is the terminal's repeat; one
that comes within ``FIRST_REPEAT`` of it may be the first repeat of a key held, or a person
pressing it again: the next press tells (``Press.MAYBE``). Where the kitty keyboard
protocol marks repeats itself, those are dropped before they get here.

Pure: times come in (the event loop's), so that it is tested without a terminal.
"""

from __future__ import annotations

import enum

REPEAT_GAP = 0.08
"""Seconds within which a press of the key pressed last is the terminal's repeat: its rate
is 25-40 presses a second (a press every 25-40 ms, and up to 50 ms at 20 a second), while a
person presses one key twice no faster than about 100 ms apart."""

FIRST_REPEAT = (0.2, 0.8)
"""Seconds after a press within which the first repeat of a held key comes: the
terminal's delay (250-600 ms as people set it; X's default, measured in an xterm on Xvfb,
657 ms, then a repeat every 40-43 ms), with room either side for a loaded machine."""


class Press(enum.Enum):
    """What a key press is, from when it came."""

    NEW = "new"
    """A press of its own: another key than the last, or the same one after a while."""
    REPEAT = "repeat"
    """The terminal repeating a held key."""
    MAYBE = "maybe"
    """The same key again after about the terminal's delay: its first repeat or a person's
    press, as the next press tells (a repeat follows within ``REPEAT_GAP``)."""


_NEW = Press.NEW
"""The answer for nearly every key, under a plain name: on Python 3.11 reading a member off
its enum class goes through ``EnumType.__getattr__``'s slow path (``core/view.py``)."""


class AutoRepeat:
    """Tells each key press from the ones before it (``press``)."""

    def __init__(self) -> None:
        self.key: str | None = None
        """The key pressed last."""
        self.at = float("-inf")
        """When it was pressed (the outside clock's seconds)."""

    def press(self, key: str, at: float) -> Press:
        """What the press of ``key`` at ``at`` is."""
        same = key == self.key
        gap = at - self.at
        self.key, self.at = key, at
        if not same:
            return _NEW
        if gap <= REPEAT_GAP:
            return Press.REPEAT
        if FIRST_REPEAT[0] <= gap <= FIRST_REPEAT[1]:
            return Press.MAYBE
        return _NEW
