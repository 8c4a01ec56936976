"""Where a network match stands, as every screen says it: read from the host's lifecycle
(``core.lifecycle``), its stage and what holds it, which the host sends with each table.

The host plays seat ``HOST_SEAT`` and the joiner ``JOINER_SEAT`` (engine order, the joiner's
name first); a hold's ``by`` is the seat of the player it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from stress_tui.core.lifecycle import Hold, Holder, Lifecycle, Stage
from stress_tui.core.words import N_, Say, shown_name

HOST_SEAT = 1
"""The host plays engine player 1 (``p2``, drawn at the bottom, as at one keyboard)."""

JOINER_SEAT = 0
"""The joiner plays engine player 0 (``p1``); their screen draws them at the bottom."""


def paused_by(holds: Iterable[Holder], names: tuple[str, str]) -> str | None:
    """Who paused the match (Esc; either player's Enter goes on), if anyone did."""
    seats = [h.by for h in holds if h.hold is Hold.PAUSE and h.by is not None]
    return names[seats[0]] if seats else None


def held(stage: Stage, holds: Iterable[Holder]) -> bool:
    """Whether the match is held before it plays on: a round under way or waiting for its
    players, with something holding it."""
    return stage is Stage.PAUSED or (stage is Stage.READY and any(True for _ in holds))


def held_by(stage: Stage, holds: Iterable[Holder], names: tuple[str, str]) -> str | None:
    """Who holds the match, unable to see the table (``None``: nobody does)."""
    holds = list(holds)
    seats = [h.by for h in holds if h.hold is Hold.AWAY and h.by is not None]
    return names[min(seats)] if seats and held(stage, holds) else None


def dropped(holds: Iterable[Holder]) -> bool:
    """Whether the joiner's connection is lost and the match waits for them."""
    return any(h.hold is Hold.DROPPED for h in holds)


def starting(stage: Stage, holds: Iterable[Holder]) -> bool:
    """Whether the round waits for its players to say they are ready (and nothing else)."""
    return stage is Stage.READY and not any(True for _ in holds)


def holds_to_json(life: Lifecycle) -> list[list[Any]]:
    """What holds the match, for the wire: ``[hold, seat]`` pairs, in a fixed order."""
    pairs = [[h.hold.value, h.by] for h in life.holds]
    return sorted(pairs, key=lambda p: (p[0], -1 if p[1] is None else p[1]))


def describe(
    stage: Stage,
    holds: Iterable[Holder],
    names: tuple[str, str],
    message: str | None,
    drop_left: float | None,
    _: Say = N_,
) -> str | None:
    """The line that says where the match stands, the same on every screen (each in its
    player's language: ``_``; ``None``: nothing to say while it plays)."""
    holds = list(holds)
    if stage is Stage.GONE:
        return message
    if dropped(holds):
        left_s = int((drop_left or 0.0) + 0.999)
        return _("waiting for {name} to come back, {s} s").format(
            name=shown_name(names[JOINER_SEAT], _), s=left_s
        )
    away = held_by(stage, holds, names)
    if away:
        return _("paused: {name} cannot see the table").format(name=shown_name(away, _))
    if held(stage, holds):
        by = paused_by(holds, names)
        if by:
            return _("paused by {name}: Enter goes on").format(name=shown_name(by, _))
        return _("paused")
    return message if stage in (Stage.ROUND_OVER, Stage.RESULT) else None
