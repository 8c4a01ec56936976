"""Terminals and players that misbehave (issue 14): the real program in a pseudo-terminal.

Each test here failed before its fix; ``docs/reliability.md`` has a row for each.
"""

from __future__ import annotations

from tests.test_app_e2e import data_dir, game, wait_flip  # noqa: F401 (data_dir: a fixture)


def test_a_stray_play_key_right_after_pause_opens_mid_match_does_not_quit() -> None:
    """Player 2 pauses; player 1's next key is their own play key ``q``, which is also the
    menu's quit. It must not end the match (issue 14, point 3)."""
    with game() as s:
        wait_flip(s, "10♣", "4♥")
        s.send("\x1b")  # player 2: pause
        s.wait_text("Paused", timeout=2)
        s.send("q")  # player 1, still playing
        # A moment later the pause box takes its keys; the q asked nothing and quit nothing.
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        assert "Quit this match?" not in s.text()
        s.send("q")  # now it asks once
        s.wait_text("Quit this match?  y: quit   any other key: no", timeout=2)
        s.send("q")  # any other key: no (a second stray q does not quit either)
        s.wait_text("Esc or Enter: play on    ?: help    q: quit", timeout=2)
        s.send("\x1b")  # back to the table
        s.wait_for(lambda: "Paused" not in s.text(), timeout=2, what="the table")
        s.send("?")  # the same with help
        s.wait_text("Paused.  ? or Esc: back to the game", timeout=2)
        s.send("q")
        s.wait_text("? or Esc: back to the game   q: quit", timeout=2)
        assert "Quit this match?" not in s.text()
        s.send("q")
        s.wait_text("Quit this match?  y: quit   any other key: no", timeout=2)
        s.send("y")
        assert s.wait_exit() == 0
