"""How the rule texts and the rule errors say things: numbers, seconds, counts, ranks and
values quoted as the config file writes them; and a rating and how it moved.

Plain ASCII-safe text only (no symbols of ambiguous width).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from stress_tui.core.choices import UNNAMED
from stress_tui.core.decks import ACE, JACK, KING, QUEEN
from stress_tui.core.text import N_ as N_
from stress_tui.core.text import Say as Say
from stress_tui.core.text import quoted as _quoted

if TYPE_CHECKING:  # what the rating's words say, not loaded to say the rules
    from stress_tui.core.rating import Rating


def shown_name(name: str, _: Say = N_) -> str:
    """A player's name as shown to the player: a name nobody gave (``choices.UNNAMED``) in
    the language ``_`` says, any other as it is.

    >>> shown_name("You", {"You": "Du"}.get), shown_name("Ann", {"You": "Du"}.get)
    ('Du', 'Ann')
    """
    return _(name) if name in UNNAMED else name


_RANK_WORDS = {JACK: N_("jack"), QUEEN: N_("queen"), KING: N_("king"), ACE: N_("ace")}


def rank_word(rank: int, _: Say = N_) -> str:
    """A rank as a card player says it: ``7``, ``jack``, ``ace``."""
    word = _RANK_WORDS.get(rank)
    return str(rank) if word is None else _(word)


def with_article(word: str, _: Say = N_, english: str | None = None) -> str:
    """The word with its article: ``a king``, ``an ace``, ``an 8`` (``english``: the word
    in English, which chooses ``a`` or ``an``, where ``word`` is translated).

    >>> with_article("ace"), with_article("8"), with_article("king")
    ('an ace', 'an 8', 'a king')
    """
    first = (english or word)[0]
    return (_("an {word}") if first in "aeiou8" else _("a {word}")).format(word=word)


def number(value: float) -> str:
    """A number exactly, without a needless ``.0``: ``3``, ``0.25`` (``nan``, ``inf``).

    >>> number(3.0), number(0.25), number(float("inf"))
    ('3', '0.25', 'inf')
    """
    if not math.isfinite(value):
        return repr(value)
    return str(int(value)) if value == int(value) else repr(value)


DECIMAL = N_("{units}.{decimals}")
"""A number with decimals as the language writes it (``{units},{decimals}`` in Swedish and
German)."""


def decimal(value: float, places: int | None = None, _: Say = N_) -> str:
    """``value`` to ``places`` decimals (``None``: as few as say it exactly), with the
    language's decimal mark: ``0.75``, said in Swedish or German ``0,75``.

    >>> decimal(0.75), decimal(0.4, 2), decimal(3.0)
    ('0.75', '0.40', '3')
    >>> decimal(2.5, 1, lambda text: "{units},{decimals}")
    '2,5'
    """
    if places is None:
        text = str(int(value)) if value == int(value) else f"{value:g}"
    else:
        text = f"{value:.{places}f}"
    units, point, decimals = text.partition(".")
    return _(DECIMAL).format(units=units, decimals=decimals) if point else text


def seconds(value: float, _: Say = N_) -> str:
    """``1 second``, ``0.75 seconds`` (``0,75`` in Swedish and German)."""
    text = decimal(value, None, _)
    return (_("{n} second") if value == 1 else _("{n} seconds")).format(n=text)


def count(n: int, word: str) -> str:
    """``1 joker``, ``2 jokers``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def quoted(text: str) -> str:
    r"""``text`` as a TOML basic string: in double quotes, with every character that is not
    plainly printable escaped (so that text from outside never reaches the terminal raw);
    whole, for what is written (``core.text.quoted``).

    >>> print(quoted('say "hi"\t'))
    "say \"hi\"\t"
    >>> print(quoted("\x1b[2J\x9b"))
    "\u001B[2J\u009B"
    """
    return _quoted(text, None)


def shown(value: object) -> str:
    """A value as it would be written in TOML, for messages: ``true``, ``"3"``, ``2.5``; a
    string cut to ``core.text.SHOWN`` characters, however long it was (``"xxx..."``).

    >>> len(shown("x" * 100)), shown("x" * 100)[-5:], shown(float("-inf"))
    (42, 'x..."', '-inf')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _quoted(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, float):
        return number(value)
    return str(value)


def listed(words: Sequence[str], _: Say = N_) -> str:
    """Words in a list as a sentence says them.

    >>> listed(["sim", "replay", "stats"])
    'sim, replay and stats'
    """
    if len(words) == 1:
        return words[0]
    return _("{words} and {last}").format(words=", ".join(words[:-1]), last=words[-1])


def rating_text(rating: Rating, plus_minus: str = "±") -> str:
    """``1623 ± 92``: a rating and its deviation, to the point (``plus_minus``: ``+-``
    for an output that cannot show the sign)."""
    return f"{rating.rating:.0f} {plus_minus} {rating.deviation:.0f}"


def change_text(change: float | None) -> str:
    """``+41``, ``-7``, ``0`` (``-`` when nothing is known)."""
    return "-" if change is None else f"{change:+.0f}" if round(change) else "0"


def rating_notes(
    names: tuple[str, str],
    before: tuple[Rating | None, Rating | None],
    after: tuple[Rating | None, Rating | None],
    _: Say = N_,
    *,
    own: bool = False,
) -> list[str]:
    """The result screen's line about the ratings a round moved:
    ``rating: Ann 1532 ± 84 (+18), Bo 1468 ± 84 (-18)`` (nothing if it rated nobody).
    ``own``: a round across a network, which each side counts in its own record, so that
    the two screens may show the same people's ratings differently: the line says they
    are this side's record's (``your record's rating: ...``)."""
    moved = [
        f"{shown_name(name, _)} {rating_text(now)} ({change_text(now.rating - then.rating)})"
        for name, then, now in zip(names, before, after, strict=True)
        if then is not None and now is not None
    ]
    if not moved:
        return []
    line = _("your record's rating: {moved}") if own else _("rating: {moved}")
    return [line.format(moved=", ".join(moved))]
