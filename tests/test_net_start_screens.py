"""Fair starts and pauses at a network table, as both screens show them: a round waits for
both players' ready keys (both screens say who is ready), and after a pause or a window too
small on one side both screens count to the same moment before play goes on. The host's
and the joiner's screens run in this process on one virtual clock, over loopback, as the
``host`` and ``join`` commands make them (``tests/nettable.py``); a joiner stopped with
Ctrl-Z is test_net_e2e_start's, a real program in a pseudo-terminal."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.nettable import both_ready, first_flip, net_table, press_ready, right_pile_size, wait_all
from tests.pilot import Pilot
from tests.screen import Screenful


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Pilot, Pilot]]:
    """Ann's table and Bo's screen, both ready, after the round's first flip."""
    with net_table(monkeypatch) as (table, joiner):
        both_ready(table.screen, joiner)
        first_flip(table.screen, joiner)
        yield table.screen, joiner


def upper_half(session: Screenful, text: str) -> bool:
    """Whether ``text`` is on the top half of the screen (the other player's row)."""
    return any(text in session.row(y) for y in range(session.rows // 2))


def lower_half(session: Screenful, text: str) -> bool:
    """Whether ``text`` is on the bottom half of the screen (this player's own row)."""
    return any(text in session.row(y) for y in range(session.rows // 2, session.rows))


def seen_on_both(
    host: Screenful, joiner: Screenful, shows: Callable[[Screenful], bool], what: str
) -> None:
    """Wait until each screen has shown ``shows`` at some moment (a count is short: each
    screen's sighting is kept, not asked of both at the same moment)."""
    seen: set[int] = set()

    def both() -> bool:
        seen.update(i for i, s in enumerate((host, joiner)) if shows(s))
        return seen == {0, 1}

    wait_all(both, what, host, joiner)


def count_on_both(host: Screenful, joiner: Screenful) -> None:
    """The count before play goes on shows on both screens, then goes from both."""
    seen_on_both(host, joiner, lambda s: "Play goes on" in s.text(), "the count on both")
    wait_all(
        lambda: "Play goes on" not in host.text() and "Play goes on" not in joiner.text(),
        "the end of the count on both screens",
        host,
        joiner,
    )


def test_both_screens_say_who_is_ready_and_the_round_starts_when_both_are(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with net_table(monkeypatch) as (table, joiner):
        host = table.screen
        starts = "The round starts when both press their ready keys"
        wait_all(
            lambda: starts in host.text() and starts in joiner.text(),
            "the round waiting for both players",
            host,
            joiner,
        )
        # Each screen: its own ready key beside its own row, the other "not ready yet".
        assert lower_half(joiner, "press g when ready") and upper_half(joiner, "not ready yet")
        assert lower_half(host, "press g when ready") and upper_half(host, "not ready yet")
        press_ready(joiner, host)
        wait_all(
            lambda: (
                upper_half(host, "ready: waiting for Ann")
                and lower_half(joiner, "ready: waiting for Ann")
            ),
            "Bo's ready on both screens",
            host,
            joiner,
        )
        # The round still waits: no flip on either screen, Ann still asked.
        assert "1 card" not in host.text() and "1 card" not in joiner.text()
        assert lower_half(host, "press g when ready") and upper_half(joiner, "not ready yet")
        press_ready(host, joiner)
        first_flip(host, joiner, "the count and the first flip on both screens")
        for screen in (host, joiner):
            assert "when ready" not in screen.text() and "not ready" not in screen.text()


def test_after_a_pause_both_screens_count_and_then_both_play(
    table: tuple[Pilot, Pilot],
) -> None:
    host, joiner = table
    joiner.send("\x1b")
    wait_all(
        lambda: "paused by Bo" in host.text() and "paused by Bo" in joiner.text(),
        "the pause on both screens",
        host,
        joiner,
    )
    host.send("\r")  # the other player goes on: a count on both screens
    count_on_both(host, joiner)
    joiner.send("k")
    wait_all(
        lambda: right_pile_size(host) == "2" and right_pile_size(joiner) == "2",
        "a play after the count",
        host,
        joiner,
    )


def test_a_window_too_small_on_one_side_pauses_both_and_both_count_after(
    table: tuple[Pilot, Pilot],
) -> None:
    host, joiner = table
    joiner.resize(10, 40)  # too small for the table
    wait_all(
        lambda: "paused: Bo cannot see the table" in host.text(),
        "the pause on the host's screen",
        host,
        joiner,
    )
    joiner.resize(24, 80)
    count_on_both(host, joiner)
    assert "paused" not in host.text()
    host.send("s")  # Ann's jack... and Bo's eight: both play again
    joiner.send("k")
    wait_all(lambda: right_pile_size(joiner) == "2", "a play after the count", host, joiner)


LAST_CARD_TOGETHER = (
    "rules: standard together=on; phase: playing; p1 row: 5C | 5D | 9S | -; piles: 4H | QD;"
    " p2 row: JD | - | - | -"
)
"""Cards may be laid together; the host's (p2's) last card, the jack, fits the queen."""


def test_the_together_key_is_not_carried_into_the_next_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with net_table(monkeypatch, position=LAST_CARD_TOGETHER) as (table, joiner):
        host = table.screen
        wait_all(lambda: "5♣" in joiner.text(), "the position", host, joiner)
        both_ready(host, joiner)
        joiner.send("n")  # Bo's together key: the next pile key lays with its equals
        wait_all(lambda: lower_half(joiner, "together"), "the together key's note", host, joiner)
        host.send("j")  # Ann's last card onto the queen: the round is hers
        wait_all(lambda: "Ann wins" in joiner.text(), "the result", host, joiner)
        wait_all(lambda: "q: quit" in joiner.text(), "the result's keys", host, joiner)
        joiner.send("\r")
        wait_all(lambda: "wins 0/3" in joiner.text(), "the next round", host, joiner)
        both_ready(host, joiner)
        wait_all(lambda: "1 card" in joiner.text(), "the first flip", host, joiner)
        assert not lower_half(joiner, "together")  # the key was not kept for this round
