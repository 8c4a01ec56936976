"""Hostile input at the keyboard, played in-process (``tests/pilot.py``): bytes that are no
UTF-8, escape sequences blessed does not know, a paste whose end never comes. The game
decodes what its terminal sends in the endpoint (``terminal/endpoint.py``,
``terminal/keyinput.py``), the same for a real terminal and this one: none of it crashes
the game, presses a key, holds up the next key or leaves it deaf.

What only a real terminal shows (Ctrl-S and flow control, Ctrl-C's flush, Ctrl-\\, a flood
that costs time to read, a fuzz of the real program) is in ``tests/test_reliability.py``;
the findings (F1, F2...) are in docs/reliability.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.fuzz import CLEAR, REDRAW, parse_stream, redraw_latency
from bench.resize_storm import after_first_flip
from stress_tui.terminal.layout import layout
from tests import pilot
from tests.screen import Screenful, pile_top, say_ready, settle

AFTER_FLIP: dict[str, str | None] = {"STRESS_TUI_POSITION": after_first_flip(12)}
"""``--seed 12`` just after its first flip: 10♣ | 4♥, and player 1's ``q`` puts the J♠ on
the 10♣."""


@contextmanager
def game(tmp_path: Path, env: dict[str, str | None] | None = None) -> Iterator[pilot.Pilot]:
    """``stress-tui --seed 12`` in-process, the people at the table ready."""
    with pilot.game(tmp_path, env=env) as s:
        say_ready(s)
        yield s


def answers(s: Screenful, within: float) -> float | None:
    """Seconds until Ctrl-L is answered with a full redraw, or None if not ``within``."""
    mark = len(s.log)
    start = s.now()
    s.send(REDRAW)
    try:
        s.wait_for(lambda: CLEAR in s.raw_log(mark), within, "the redraw Ctrl-L asks for")
    except AssertionError:
        return None
    return s.now() - start


def unchanged_by(s: Screenful, data: bytes) -> list[str]:
    """Send ``data`` to a settled table, then Ctrl-L; the rows that differ afterwards."""
    settle(s)
    before = s.screen.display[:]
    s.send(data)
    redraw_latency(s, timeout=10)
    settle(s)
    return [
        f"{y}: {a.rstrip()!r} -> {b.rstrip()!r}"
        for y, (a, b) in enumerate(zip(before, s.screen.display, strict=True))
        if a != b
    ]


def left_pile(s: Screenful) -> str:
    """The top card of the left play pile (``10♣``), or ``""``."""
    assert layout(s.cols, s.rows, 4) is not None
    return pile_top(s, 0)


INVALID_UTF8 = [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\x9b", b"\xe2\x82z"]
"""Not UTF-8: a byte that never is, an overlong slash, a surrogate, an 8-bit CSI, a
character cut short."""


def test_invalid_utf8_does_not_crash_the_game(tmp_path: Path) -> None:
    """Bytes that are no UTF-8 neither end the game nor raise out of the keyboard's
    decoding (docs/reliability.md, F1)."""
    with game(tmp_path) as s:
        for data in INVALID_UTF8:
            s.send(data)
            took = answers(s, within=2.0)
            assert took is not None, f"{data!r}: no answer; exit {s.exit_code}"
        s.send(b"\x03")
        assert s.wait_exit() == 130


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"\x1b[<0;10;5M", "a mouse click (SGR)"),
        (b"\x1b[I", "focus in"),
        (b"\x1b[?0u", "a late answer to the kitty keyboard query"),
    ],
    ids=["mouse", "focus", "kitty-reply"],
)
def test_an_escape_sequence_blessed_does_not_know_presses_no_keys(
    tmp_path: Path, data: bytes, what: str
) -> None:
    """Blessed resolves an unknown sequence to ``ESC [`` and would hand every byte after it
    to the game as a key: a mouse click ends in ``m`` (player 2's stress), focus-in is
    ``i`` (a play of player 2), a late answer to the kitty query starts with ``?`` (the
    help). None of them changes the screen (docs/reliability.md, F3)."""
    with game(tmp_path, AFTER_FLIP) as s:
        changed = unchanged_by(s, data)
        assert changed == [], f"{what} changed the screen:\n" + "\n".join(changed)


def test_escape_sequences_blessed_does_not_know_do_not_hold_up_the_keys(
    tmp_path: Path,
) -> None:
    """For each sequence it does not know, blessed would wait its escape delay (0.35 s by
    default) for more bytes although they are already there: two pasted lines (their start
    and end markers: four sequences) would hold up the next key for 1.4 s. The game waits
    30 ms (``keyinput.ESC_DELAY``) (docs/reliability.md, F2)."""
    paste = b"\x1b[200~2024\x1b[201~"  # a bracketed paste of digits: no player's keys
    assert parse_stream(paste * 2).stalls == 4
    with game(tmp_path, AFTER_FLIP) as s:
        s.send(paste * 2)
        took = answers(s, within=5.0)
        assert took is not None and took < 0.5, f"Ctrl-L answered after {took} s"


def test_a_paste_start_without_its_end_does_not_make_the_game_deaf(tmp_path: Path) -> None:
    """A bracketed-paste start (``ESC [ 200 ~``) whose end (``ESC [ 201 ~``) never comes (a
    cut-off paste, a stray sequence) does not leave the game deaf: a paste also ends once
    the input has gone quiet (``keyinput.PASTE_QUIET``), as a terminal sends a paste in
    one go (docs/reliability.md, F13)."""
    with game(tmp_path, AFTER_FLIP) as s:
        s.send(b"\x1b[200~")
        s.pump(0.3)  # a player's next key comes later, on its own
        s.send("q")
        s.wait_for(lambda: left_pile(s) == "J♠", timeout=2, what="J♠ on the left pile")
        s.send(b"\x03")
        assert s.wait_exit() == 130
