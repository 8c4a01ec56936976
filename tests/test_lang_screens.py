"""Every screen in every language at the smallest window and the common one: the game,
played in-process (``tests/pilot.py``), speaking Swedish or German (``--lang``, or
``LANG``), shows its texts whole (each expected line on one screen row, never cut) on the
table, the help screen, the pause box and the result with its statistics.

The texts expected are the catalogue's own, looked up in the test's process.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from stress_tui.core.events import RejectReason
from stress_tui.terminal import lang
from stress_tui.terminal.keys import Intent, key_hint
from stress_tui.terminal.layout import layout
from stress_tui.terminal.screens.help import HelpScreen
from stress_tui.terminal.screens.pause import PauseScreen
from tests.pilot import game
from tests.screen import KEYS, Screenful

# Player 1's last card (the 5 of hearts) fits the left pile; player 2 holds a jack, a queen
# and a king, whose faces each language names in its own way.
LAST_CARD = (
    "rules: standard wins=1; phase: playing; p1 row: 5H | - | - | -; p1 draw: -;"
    " piles: 4C | 9D; p2 row: JC | QC | 8D | KS; p2 draw: 7S 7H"
)

# Player 1's first card (a 2) does not fit the left pile's 10, the one rank two columns
# wide in every language.
MISPLAY = (
    "rules: standard wins=1; phase: playing; p1 row: 2D | 9D | - | -; p1 draw: 7C;"
    " piles: 10C | 4H; p2 row: JC | KS | 5C | 10H; p2 draw: 7S 7H"
)
TIME_LEFT = re.compile(r"\d[.,]\ds")
"""A lockout's time left, in tenths (``0.7s``, ``0,7s``)."""

SIZES = [(16, 60), (24, 80)]
FACES = {"sv": ("Kn♣", "D♣", "K♠"), "de": ("B♣", "D♣", "K♠")}


@pytest.fixture
def speak() -> Iterator[None]:
    yield
    lang.choose(None)


def on_one_row(s: Screenful, text: str) -> bool:
    return any(text in s.row(y) for y in range(s.rows))


def wait_whole(s: Screenful, *texts: str) -> None:
    s.wait_for(
        lambda: all(on_one_row(s, text) for text in texts),
        timeout=5,
        what=" and ".join(repr(t) for t in texts),
    )


@pytest.mark.parametrize(("rows", "cols"), SIZES)
@pytest.mark.parametrize("code", ["sv", "de"])
def test_every_screen_fits_whole_in_the_language(
    tmp_path: Path, code: str, rows: int, cols: int, speak: None
) -> None:
    lang.choose(code)
    _ = lang._
    lay = layout(cols, rows, 4)
    assert lay is not None
    env: dict[str, str | None] = {
        "STRESS_TUI_POSITION": LAST_CARD,
        # The flag is for sv; German comes from the environment as a terminal program's does.
        "LANG": "de_DE.UTF-8" if code == "de" else "C.UTF-8",
    }
    args = ["--lang", "sv"] if code == "sv" else []
    with game(tmp_path, *args, rows=rows, cols=cols, env=env) as s:
        # The table: the title's keys, the players' lines, the card faces.
        wait_whole(s, _("help"), _("quit"), *FACES[code])
        wait_whole(s, _("wins {won}/{needed}").format(won=0, needed=1))
        wait_whole(s, _("stress"), _("ready"))
        # The round waits for both to say ready (beside each row, in the language).
        wait_whole(s, _("press {key} when ready").format(key="c"))
        s.send("c,")
        waiting = _("press {key} when ready").format(key=",")
        s.wait_for(lambda: waiting not in s.text(), timeout=5, what="the round started")
        # The help screen, then back.
        s.send("?")
        back = [b for b in HelpScreen.BINDINGS if b.intent in (Intent.HELP, Intent.PAUSE)]
        paused = f"{_('Paused.')}  {key_hint(back)}"  # "Pause.  ?/Esc: zurück zum Spiel"
        wait_whole(s, _("Everyone"), paused)
        wait_whole(s, _("piles 1-{size} onto the left pile:").format(size=4))
        s.send(KEYS["escape"])
        s.wait_for(lambda: not on_one_row(s, _("Everyone")), timeout=5, what="help closed")
        # The pause box.
        s.send(KEYS["escape"])
        going = key_hint(PauseScreen.BINDINGS)  # "Esc/Enter: weiter    ?: Hilfe    q: Ende"
        wait_whole(s, _("Paused"), going)
        s.send("\r")
        s.wait_for(lambda: not on_one_row(s, going), timeout=5, what="the round on")
        # Play goes on after a count, said in the language.
        counting = _("Play goes on at three")
        s.wait_text(counting, timeout=5)
        s.wait_for(lambda: counting not in s.text(), timeout=5, what="the count over")
        # The last card: the result, with its statistics where the window is tall enough.
        s.send("q")
        wait_whole(
            s, _("{name} wins the match!").format(name=_("Player 1")), "Enter: " + _("rematch")
        )
        if rows >= 24:
            wait_whole(s, *(_(label) for label in ("cards played", "longest chain", "lockouts")))
        s.send(KEYS["ctrl_c"])
        s.wait_exit()


@pytest.mark.parametrize(("rows", "cols"), SIZES)
@pytest.mark.parametrize("code", ["en", "sv", "de"])
def test_the_person_against_the_computer_is_told_you_win(
    tmp_path: Path, code: str, rows: int, cols: int, speak: None
) -> None:
    lang.choose(code)
    _ = lang._
    env: dict[str, str | None] = {"STRESS_TUI_POSITION": LAST_CARD, "LANG": "C.UTF-8"}
    args = ["--lang", code, "--p2", "bot:easy"]
    with game(tmp_path, *args, rows=rows, cols=cols, env=env) as s:
        waiting = _("press {key} when ready").format(key="g")
        wait_whole(s, waiting)
        s.send("g")  # the solo layout's ready key; the computer is always ready
        s.wait_for(lambda: waiting not in s.text(), timeout=5, what="the round started")
        s.send("a")  # the 5 of hearts onto the 4 of clubs: the last card
        wait_whole(s, _("You win the match!"), "Enter: " + _("rematch"))
        assert {"en": "You win the match!", "sv": "Du vinner", "de": "Du gewinnst"}[code] in (
            s.text()
        )
        assert "You wins" not in s.text()
        s.send(KEYS["ctrl_c"])
        s.wait_exit()


@pytest.mark.parametrize(("rows", "cols"), SIZES)
@pytest.mark.parametrize("code", ["en", "sv", "de"])
def test_a_lockout_says_why_beside_its_time_left(
    tmp_path: Path, code: str, rows: int, cols: int, speak: None
) -> None:
    """A 2 played onto a 10, in each language at the smallest window and the common one:
    the line beside the row says why (in its short words at least: ``passt nicht``) and
    the lockout's time left, on one row (``docs/rules.md``)."""
    lang.choose(code)
    _ = lang._
    env: dict[str, str | None] = {"STRESS_TUI_POSITION": MISPLAY, "LANG": "C.UTF-8"}
    with game(tmp_path, "--lang", code, rows=rows, cols=cols, env=env) as s:
        waiting = _("press {key} when ready").format(key=",")
        wait_whole(s, waiting)
        s.send("c,")
        s.wait_for(lambda: waiting not in s.text(), timeout=5, what="the round started")
        s.send("q")  # the 2 onto the 10
        why = (_(RejectReason.NOT_ADJACENT.value), _("no fit"))
        locked = _("locked out")
        s.wait_for(
            lambda: any(
                any(said in row for said in why) and locked in row and TIME_LEFT.search(row)
                for row in (s.row(y) for y in range(s.rows))
            ),
            timeout=0.7,
            what=f"{' or '.join(why)} with {locked!r} and its time left",
        )


@pytest.mark.parametrize("code", ["en", "sv", "de"])
def test_a_card_drawn_into_the_row_is_marked_in_the_language(
    tmp_path: Path, code: str, speak: None
) -> None:
    """Player 1's 5 onto the 4 leaves a gap the draw pile's 7 fills: for a moment the
    place is marked new between its keys, in the language (``neu``, ``ny``)."""
    lang.choose(code)
    new = lang._("new")
    assert new == {"en": "new", "sv": "ny", "de": "neu"}[code]
    position = (
        "rules: standard wins=1; phase: playing; p1 row: 5H | 9D | 8C | 3S; p1 draw: 7C;"
        " piles: 4C | 10D; p2 row: JC | QC | 8D | KS; p2 draw: 7S 7H"
    )
    env: dict[str, str | None] = {"STRESS_TUI_POSITION": position, "LANG": "C.UTF-8"}
    with game(tmp_path, "--lang", code, env=env) as s:
        waiting = lang._("press {key} when ready").format(key=",")
        wait_whole(s, waiting)
        s.send("c,")
        s.wait_for(lambda: waiting not in s.text(), timeout=5, what="the round started")
        marked = re.compile(rf"\b{new}\b")
        assert not marked.search(s.text())
        s.send("q")  # the 5 of hearts onto the 4 of clubs
        s.wait_for(lambda: marked.search(s.text()) is not None, timeout=5, what=repr(new))
        s.send(KEYS["ctrl_c"])
        s.wait_exit()
