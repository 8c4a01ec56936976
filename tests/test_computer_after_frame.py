"""A computer opponent's look at the table comes after the person's frame: a key's effect
is drawn and written first, and the computer decides from the same table at the same time,
so that it plays just as it would have (``Table.submit`` leaves its look for later:
``Table.look``)."""

from __future__ import annotations

import random
from pathlib import Path

from stress_tui.core.actions import Action, Play
from stress_tui.core.events import Event, Played
from stress_tui.core.table import Table
from stress_tui.core.view import PlayerView
from stress_tui.players.bot import Bot, make_bot
from tests.conftest import game as position_game
from tests.pilot import game
from tests.screen import say_ready

POSITION = (
    "rules: standard; phase: playing; p1 row: 3S | 9C | TD | KD; p1 draw: 2C;"
    " piles: 4H | 7D; p2 row: 2H | QH | QS | JH; p2 draw: 3C AS"
)
"""The person's 3 fits the 4 (the key ``a``); the computer's 2 fits nothing until then."""


def test_a_persons_frame_is_written_before_the_computer_looks_and_it_still_plays(
    tmp_path: Path,
) -> None:
    with game(tmp_path, "--p2", "bot:normal", env={"STRESS_TUI_POSITION": POSITION}) as s:
        say_ready(s)
        s.pump(0.5)
        assert "4♥" in s.text()
        (bot,) = s.app.table.drivers
        assert isinstance(bot, Bot)
        decide = bot.decide
        seen_at_look: list[str] = []

        def watched(view: PlayerView) -> Action | None:
            seen_at_look.append(s.text())
            return decide(view)

        bot.decide = watched  # type: ignore[method-assign]
        s.send("a")
        # The key's frame (the 3 on the 4) was on the screen when the computer looked.
        assert seen_at_look and "4♥" not in seen_at_look[0]
        top = s.app.table.game.top(0)
        assert top is not None and top.rank == 3
        s.wait_for(
            lambda: (t := s.app.table.game.top(0)) is not None and t.rank == 2,
            5.0,
            "the computer's 2 on the 3",
        )


def plays(look_at_once: bool) -> tuple[list[Event], list[Action | None]]:
    """Two keys from the person a hair apart, then the table carried on for 5 seconds;
    the computer looks after each key at once, or only when the table is next asked
    what is due or changed."""
    table = Table(position_game(POSITION), (make_bot(1, "normal", random.Random(7)),))
    table.start(0.0)
    happened = table.submit(Play(0, 0, 0, 0.5))
    if look_at_once:
        table.look()
    happened += table.submit(Play(0, 1, 1, 0.52))
    if look_at_once:
        table.look()
    happened += table.advance(5.0)
    return happened, list(table.pending)


def test_the_computer_decides_alike_whenever_it_looks() -> None:
    at_once = plays(look_at_once=True)
    assert any(isinstance(e, Played) and e.player == 1 for e in at_once[0])
    assert plays(look_at_once=False) == at_once
