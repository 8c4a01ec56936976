"""The daily deal: the same round for everyone on a day, from the date alone.

The day's seed is the first eight bytes of the SHA-256 of ``stress-tui daily YYYY-MM-DD``
(big-endian): the same on every machine and every run, with nothing to download. The
round is dealt with ``random.Random(seed)`` by the standard deck's default rules, and the
computer plays it at ``DAILY_LEVEL`` with a random source of its own seeded from the same
seed (``bot_seed``), so the computer's play too is the same for everyone who plays the
same keys at the same moments. Which day it is, is the caller's to say (the command line
takes the local date); here a day is its ISO date text.

Streaks: a daily streak is the number of days in a row, up to the last daily played,
whose daily was won; it is broken by a daily lost or left, or by a day without one.

Pure arithmetic: no clock, no random, no files.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from stress_tui.core.choices import COMPUTER
from stress_tui.core.rules import Rules

DAILY_LEVEL = "normal"
"""The computer level every daily is played against: the one pinned at 1500, where every
new rating starts (``docs/ratings.md``)."""

PLAYERS = ("human", f"bot:{DAILY_LEVEL}")
"""Who plays each side of a daily: the person, then the computer."""

BOT_SIDE = 1
"""The side the computer plays."""

COMPUTER_NAME = COMPUTER
"""The computer's name at the daily (a key said in the player's language where shown)."""

_ISO_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


class BadDate(ValueError):
    """Not a date written ``YYYY-MM-DD``, or no such day."""


def daily_rules() -> Rules:
    """The rules of every daily: the standard deck's defaults, whatever a config says."""
    return Rules.for_deck("standard")


def check_date(day: str) -> str:
    """``day`` if it is a real day written ``YYYY-MM-DD`` (``BadDate`` otherwise)."""
    day_number(day)
    return day


def daily_seed(day: str) -> int:
    """The seed of the daily deal of ``day`` (``YYYY-MM-DD``): the same everywhere.

    >>> daily_seed("2024-03-01")
    14770430209441001885
    """
    check_date(day)
    digest = hashlib.sha256(f"stress-tui daily {day}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


def bot_seed(seed: int) -> str:
    """What seeds the computer's random source in the daily dealt from ``seed``."""
    return f"stress-tui daily bot {seed}"


def day_number(day: str) -> int:
    """The day's number counted from 0001-01-01 as day 1 (as ``date.toordinal``), for
    telling whether two days follow each other; ``BadDate`` for anything but a real day
    written ``YYYY-MM-DD``."""
    found = _ISO_DATE.fullmatch(day)
    if found is None:
        raise BadDate(f"{day[:20]!r} is not a date written YYYY-MM-DD")
    year, month, day_of_month = (int(part) for part in found.groups())
    if not (year >= 1 and 1 <= month <= 12 and 1 <= day_of_month <= _days_in(year, month)):
        raise BadDate(f"{day} is not a day of the calendar")
    before = year - 1
    days = 365 * before + before // 4 - before // 100 + before // 400
    days += sum(_days_in(year, m) for m in range(1, month))
    return days + day_of_month


def _days_in(year: int, month: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


@dataclass(frozen=True, slots=True)
class Streak:
    """A player's dailies in a row."""

    current: int
    """Dailies won on the days in a row up to today (or up to yesterday, while today's
    may still be played); 0 once one is lost, left or missed."""
    best: int
    """The most dailies ever won on days in a row."""


def streaks(days: Iterable[tuple[str, bool]], today: str) -> Streak:
    """The streaks of a player's dailies: ``(day, won)`` for each daily played (a daily
    left before its end is one not won), in any order; ``today`` is the day it is now."""
    played = sorted((day_number(day), won) for day, won in days)
    best = run = 0
    last: int | None = None
    for number, won in played:
        if not won:
            run = 0
        elif last is not None and number == last + 1 and run:
            run += 1
        else:
            run = 1
        last = number
        best = max(best, run)
    current = run if last is not None and day_number(today) - last <= 1 else 0
    return Streak(current, best)
