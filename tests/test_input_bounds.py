"""Nothing arriving at the keyboard stops the game, through the real program in a
pseudo-terminal: a 1 MB bracketed paste mid-round (dropped whole, the game ending on a
SIGTERM sent a second into it), a 400 kB flood of letters (frames still drawn: the count
to the flip goes on), and a terminal whose answer to a start-up question goes on for
300 kB without its final byte (the first frame drawn; Ctrl-C answered, the rest of the
junk still arriving). The bytes are written by a thread as fast as the terminal takes
them, while the screen is read. How soon, against a normal start and the minimal blessed
program's Ctrl-C, is ``bench/input_bounds.py``'s to measure; here a deadline only guards
against a hang (before the bounds: a first frame at 11 s, SIGTERM unanswered for 35 s)."""

from __future__ import annotations

import os
import select
import signal
import sys
import termios
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.fuzz import REPO, answered, private_env, send_all, wait_table
from bench.resize_storm import after_first_flip
from tests.screen import pile_top
from tests.test_reliability import answers, assert_restored, game, left_pile
from tests.tty import TtySession

PASTE = b"\x1b[200~" + b"qwerasdf uiopjkl; vm " * (1024 * 1024 // 21) + b"\x1b[201~"
"""A megabyte pasted: every player's keys, again and again, between the paste's markers."""

FLOOD = b"by" * (200 * 1024)
"""400 kB of letters nobody has."""

JUNK_ANSWER = b"\x1b]11;rgb:" + b"0" * (300 * 1024)
"""A background colour answer that goes on for 300 kB and never ends."""


class Writer(threading.Thread):
    """Writes ``data`` to the program's keyboard as fast as the terminal takes it, until
    all is written, the program has gone, or ``stop``."""

    def __init__(self, s: TtySession, data: bytes) -> None:
        super().__init__(daemon=True)
        self.fd = s.child.child_fd
        self.data = memoryview(data)
        self.stopped = threading.Event()
        self.written = 0
        self.error: OSError | None = None
        """Why the writing stopped short (the program gone, most likely)."""

    def run(self) -> None:
        # One write of all that is left: the kernel hands it on as the program reads, with
        # no pause of this process's between (a paste that pauses may end: PASTE_QUIET).
        while self.written < len(self.data) and not self.stopped.is_set():
            try:
                self.written += os.write(self.fd, self.data[self.written :])
            except BlockingIOError:
                select.select([], [self.fd], [], 0.05)
            except OSError as error:
                self.error = error
                return

    def taken(self) -> bool:
        """Whether all is written; AssertionError if the writing stopped short."""
        assert self.error is None, f"writing stopped after {self.written} bytes: {self.error}"
        return self.written == len(self.data)

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=2)


@contextmanager
def writing(s: TtySession, data: bytes) -> Iterator[Writer]:
    writer = Writer(s, data)
    writer.start()
    try:
        yield writer
    finally:
        writer.stop()


def pump_for(s: TtySession, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        s.pump(min(left, 0.05))


def test_a_megabyte_pasted_mid_round_is_dropped_whole_and_sigterm_ends_the_game(
    tmp_path: Path,
) -> None:
    with game(tmp_path, env={"STRESS_TUI_POSITION": after_first_flip(12)}) as s:
        assert left_pile(s) == "10♣"
        with writing(s, PASTE):
            pump_for(s, 1.0)
            os.kill(s.pid, signal.SIGTERM)
            assert s.wait_exit(timeout=10) == 143


def test_floods_a_paste_and_the_terminal_s_control_keys_in_turn_neither_deafen_nor_freeze(
    tmp_path: Path,
) -> None:
    """One game (``--seed 12``, both players people) takes each of these in turn, each
    checked before the next comes:

    - A 400 kB flood of letters during the count to the flip: the count goes on and the
      flip is drawn within the flood; keys typed while it is still being read are dropped
      with it, so the next key once the game answers again (Ctrl-L, again and again)
      plays: player 1's ``q``, the J♠ onto the 10♣.
    - A megabyte bracketed paste of every player's keys, written whole: none of them plays
      (both piles as they were, where the pasted keys had plays onto each), and the next
      key plays: player 2's ``l``, the 5♣ onto the 4♥.
    - 20,000 bytes pasted at once (digits: keys nobody has), then Ctrl-L again and again
      until it is answered: within 2 s of the paste, and the next key plays: player 2's
      ``p``, the 10♥ onto the J♠. ``async_inkey`` moves the whole read-ahead buffer into a
      string and back for every key (``flushinp``, ``ungetch``), so n bytes read together
      cost n² steps: the game drops input past ``keyinput.FLOOD`` characters waiting
      (docs/reliability.md, F4).
    - The terminal's own control keys. Blessed's cbreak leaves the terminal's flow control
      (IXON) on, where Ctrl-S (next to player 1's ``s``) would stop the game's output until
      someone knew to press Ctrl-Q; the game turns it off, and the table answers after a
      Ctrl-S (docs/reliability.md, F5).
    - Then a key, and Ctrl-C a moment later: the game quits, never hangs. When Ctrl-C
      generates SIGINT the terminal empties its input queue unless ``NOFLSH`` is set;
      without it, if blessed has just seen the key there (``kbhit``: select says readable),
      its ``getch`` would block in ``os.read(0, 1)`` on a byte that is gone, and the event
      loop with it (docs/reliability.md, F14). The same goes for Ctrl-\\ and Ctrl-Z. That
      race is won or lost by a hair, so the terminal's mode is read too: ``NOFLSH`` set
      while the game plays, and the mode as it was once it has quit.

    Each used to start a game of its own; one start is most of such a test's CPU."""
    with game(tmp_path) as s:  # both ready: the count to the first flip runs
        s.wait_text("New cards on three", timeout=3)
        with writing(s, FLOOD) as writer:
            s.wait_for(lambda: "10♣" in s.text(), timeout=5, what="the flip drawn in the flood")
        s.wait_for(writer.taken, timeout=30, what="the flood taken")
        answered(s, timeout=5.0)
        s.send("q")
        s.wait_for(lambda: left_pile(s) == "J♠", timeout=2, what="J♠ on the left pile")

        with writing(s, PASTE) as writer:
            s.wait_for(writer.taken, timeout=30, what="the paste taken")
        pump_for(s, 0.3)
        # none of the pasted keys played (the 10♥ fitted the J♠, the 5♣ the 4♥)
        assert (left_pile(s), pile_top(s, 1)) == ("J♠", "4♥"), s.dump()
        s.send("l")
        s.wait_for(lambda: pile_top(s, 1) == "5♣", timeout=2, what="5♣ on the right pile")

        send_all(s, b"0123456789" * 2000)
        answered(s, timeout=2.0)  # Ctrl-L again and again: the flood may take one along
        s.send("p")
        s.wait_for(lambda: left_pile(s) == "10♥", timeout=2, what="10♥ on the left pile")

        s.send(b"\x13")
        took = answers(s, within=1.5)
        if took is None:
            s.send(b"\x11")  # Ctrl-Q, so that the game can be closed
        assert took is not None, "the game froze after Ctrl-S"
        assert s.tty_mode()[3] & termios.NOFLSH, "Ctrl-C would empty the keys not yet read"
        answered(s, timeout=2)  # a frame just drawn, as after any key
        s.send(b"x")  # player 1's stress stop (not in play: a notice)
        s.send(b"\x03")
        try:
            code = s.wait_exit(timeout=10)  # a hang; how soon: bench/input_bounds.py
        except AssertionError:
            code = None
        assert code == 130, f"Ctrl-C did not quit (exit {code})"
        assert_restored(s)


class JunkAnswerSession(TtySession):
    """A terminal that answers the background colour question with ``JUNK_ANSWER`` (and
    the cursor position after it, as a terminal answers in order)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.junk_due = False
        self.writers: list[Writer] = []

    def _answer_background(self) -> None:
        if self._filter.background_queries and not self.writers:
            self.junk_due = True
        super()._answer_background()

    def _reply(self, data: bytes) -> None:
        if self.junk_due:
            self.junk_due = False
            writer = Writer(self, JUNK_ANSWER + data)
            self.writers.append(writer)
            writer.start()
            return
        super()._reply(data)

    def close(self, grace: float = 1.0) -> int | None:
        for writer in self.writers:
            writer.stop()
        return super().close(grace)


def test_an_answer_that_never_ends_neither_stalls_the_start_nor_deafens_ctrl_c(
    tmp_path: Path,
) -> None:
    args = ["-m", "stress_tui", "--seed", "12"]
    junk_answering = JunkAnswerSession([sys.executable, *args], env=private_env(tmp_path), cwd=REPO)
    with junk_answering as s:
        wait_table(s, timeout=8)
        assert junk_answering.writers, "the background was never asked"
        s.send(b"\x03")  # the rest of the junk still arriving, as input
        assert s.wait_exit(timeout=10) == 130
