"""The game's table in a real pty: key-to-screen latency, bytes per play, idle CPU.

    python bench/bench_table.py [--n 320] [--idle 10]
    python bench/bench_table.py --against DIR [--n 320]

Everything runs ``python -m stress_tui`` in an 80x24 pseudo-terminal read by pyte
(``tests/tty.py``), exactly as the end-to-end tests do, and prints:

- latency: a key written into the pty until the screen shows its effect, median and p99,
  next to the same measurement for the minimal blessed program (``bench/latency.py``'s
  ``echo`` baseline) in the same run, taken in alternating blocks of ``BLOCK`` keys (each
  program started afresh for each block), so that both meet the same machine: a load
  that comes and goes during the run weighs on both alike. Keys go at a person's pace,
  ``HUMAN_GAP`` (100 ms) apart at least, so each program idles between them as a
  player's does. The game's key is a legal play: through the ``STRESS_TUI_POSITION``
  test hook, player 1's draw pile is laid out so that ``q`` always plays the next rank
  onto the left pile (stacking off, the right pile empty, so no stress); the effect looked
  for is the new card on the left pile. About 44 plays a round, so the samples come from
  several rounds. Beside it, the same keys timed to the read that brought the bytes
  showing them (``measure_keys``'s ``arrived``): this side's filter, pyte's parse and
  the look left out, which cost this harness more the more bytes a key's answer has
  (the game's play about 86, the echo's 19).
- CPU per key: the time on a CPU (``/proc/PID/task/*/schedstat``, every thread) each
  program used for a measured key, from the gap before the first key of a block to the
  gap after its last, in the same blocks: the game's legal play against the echo's key;
  and a key the game ignores (Ctrl-E: bound to nothing, said nothing of), sent at the
  same pace after each block of plays once the plays' marks have gone, against the
  echo's whole key.
- bytes: what the program writes for that one play, next to a full redraw (Ctrl-L) of the
  same screen.
- idle CPU: the time on a CPU (schedstat, as above) of a dealt table waiting for keys after
  the first flip, over ``--idle`` seconds.

The time to the first frame is ``bench/startup.py``'s (with the bytecode cached, as an
installed program has it).

With ``--against DIR`` (a checkout of the code before a change, e.g. made with ``git
archive REV | tar -x -C DIR``) it measures only the latency, of the game from ``DIR`` and of
the game from this tree, in alternating blocks as above, and prints this tree's speed as a
ratio of the other's (above 1: faster now).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.latency import (
    BASELINES,
    HUMAN_GAP,
    Usage,
    alternate,
    cpu_seconds,
    echo_ready,
    echo_reflected,
    letter,
    measure_keys,
    measure_latency,
    summarize,
)
from stress_tui.core.cards import Card, Suit
from stress_tui.core.decks import RANK_NAMES
from stress_tui.terminal.layout import Layout, layout
from stress_tui.terminal.notices import MARK_SECONDS
from tests.screen import say_ready
from tests.tty import TtySession

ROWS, COLS = 24, 80
BLOCK = 40
"""Keys measured in a row for one program before the other has its turn."""


def _layout() -> Layout:
    lay = layout(COLS, ROWS, 4)
    assert lay is not None, "80x24 holds a row of four"
    return lay


LAY = _layout()
GAME = [sys.executable, "-m", "stress_tui"]


def run_position() -> tuple[str, list[Card]]:
    """A position where ``q`` plays player 1's pile 1 onto the left pile again and again:
    the left pile shows a 2, pile 1 a 3 and the draw pile the ranks after it in order. Returns
    the position and the cards that will land, in order."""
    order = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 2]
    suits = [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]
    run = [Card(order[i % 13], suits[(i // 13) % 4]) for i in range(44)]
    left = Card(2, Suit.SPADES)
    used = {*run, left}
    rest = [Card(r, s) for s in suits for r in range(2, 15) if Card(r, s) not in used]
    p1_row, p2_row = rest[:3], rest[3:7]
    p1_draw = list(reversed(run[1:]))  # the last card is drawn first
    position = (
        "rules: standard stacking=off lockout=0; phase: playing;"
        f" p1 row: {run[0]} | {' | '.join(map(str, p1_row))};"
        f" p1 draw: {' '.join(map(str, p1_draw))};"
        f" piles: {left} | -;"
        f" p2 row: {' | '.join(map(str, p2_row))}; p2 draw: -"
    )
    return position, run


def label(card: Card) -> str:
    assert card.suit is not None
    return RANK_NAMES[card.rank] + card.suit.symbol


def left_top(s: TtySession) -> str:
    x = LAY.pile_x[0]
    return s.row(LAY.piles_y)[x + 1 : x + LAY.card_w - 1].strip()


def game_session(
    env: dict[str, str | None] | None = None, seed: int = 12, cwd: str | None = None
) -> TtySession:
    s = TtySession(GAME, args=["--seed", str(seed)], rows=ROWS, cols=COLS, env=env, cwd=cwd)
    s.wait_for(lambda: "STRESS" in s.row(0), 10, "the first frame")
    say_ready(s)  # the round waits for both players' ready keys
    return s


IGNORED = "\x05"
"""A key the table ignores without a word: Ctrl-E (no binding; a Ctrl key is never said to
play nothing)."""


def ignored_cpu(s: TtySession, n: int, gap: float = HUMAN_GAP) -> float:
    """CPU seconds the game uses per ignored key, ``n`` of them sent ``gap`` apart, once
    the table has stopped drawing."""
    quiet(s, MARK_SECONDS + 0.5)
    before = cpu_seconds(s.pid)
    mark = len(s.log)
    for _ in range(n):
        s.send(IGNORED)
        end = time.perf_counter() + gap
        while (left := end - time.perf_counter()) > 0:
            s.pump(left)
    used = cpu_seconds(s.pid) - before
    assert len(s.log) == mark, "an ignored key drew something"
    return used / n


def game_latency(
    n: int,
    warmup: int = 3,
    source: str | None = None,
    usage: Sequence[Usage] = (),
    ignored: list[float] | None = None,
    arrived: list[float] | None = None,
) -> list[float]:
    """``n`` samples of the game's key-to-screen time (the game from the tree ``source``,
    if given, instead of this one). ``usage`` notes what each block of plays used per key
    (``measure_keys``); ``ignored`` is given each session's CPU per ignored key (as many
    keys as plays); ``arrived`` each play's time to its bytes read (``measure_keys``)."""
    position, run = run_position()
    per_round = len(run) - warmup - 1
    samples: list[float] = []
    env: dict[str, str | None] = {"STRESS_TUI_POSITION": position}
    if source is not None:  # ``-m`` looks in the working directory first
        env["PYTHONPATH"] = source
    while len(samples) < n:
        with game_session(env, cwd=source) as s:
            s.wait_for(lambda: left_top(s) == "2♠", 5, "the position")
            count = min(per_round, n - len(samples))
            samples += measure_keys(
                s,
                lambda _s, _i: "q",
                lambda s, i, _k: left_top(s) == label(run[i]),
                count,
                warmup=warmup,
                usage=usage,
                arrived=arrived,
            )
            if ignored is not None:
                ignored.append(ignored_cpu(s, count))
    return samples


def quiet(s: TtySession, for_seconds: float = 0.1) -> None:
    """Read until the program has written nothing for ``for_seconds``."""
    while s.pump(for_seconds):
        pass


def bytes_per_play() -> tuple[int, int]:
    """Bytes written for one play, and for a full redraw of the same screen."""
    position, run = run_position()
    with game_session({"STRESS_TUI_POSITION": position}) as s:
        s.wait_for(lambda: left_top(s) == "2♠", 5, "the position")
        quiet(s)
        plays = []
        for i in range(5):
            mark = len(s.log)
            s.send("q")

            def played(card: str = label(run[i])) -> bool:
                return left_top(s) == card

            s.wait_for(played, 2, "the play")
            quiet(s)
            plays.append(len(s.log) - mark)
        mark = len(s.log)
        s.send("\x0c")  # Ctrl-L: draw everything again
        s.wait_for(lambda: b"\x1b[2J" in s.raw_log(mark), 2, "a full redraw")
        quiet(s)
        full = len(s.log) - mark
        s.send("\x03")
        s.wait_exit()
    return int(statistics.median(plays)), full


def idle_cpu(seconds: float) -> tuple[float, int]:
    """Share of one core used by a dealt table left alone after its first flip, and the
    bytes it wrote meanwhile."""
    with game_session(seed=12) as s:
        s.wait_for(lambda: left_top(s) == "10♣", 5, "the first flip")
        quiet(s, MARK_SECONDS + 0.5)  # the flip's marks on the piles go, then nothing does
        mark = len(s.log)
        before = cpu_seconds(s.pid)
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            s.pump(0.5)
        used = cpu_seconds(s.pid) - before
        elapsed = time.monotonic() - start
        written = len(s.log) - mark
        s.send("\x03")
        s.wait_exit()
    return used / elapsed, written


def against(other: str, n: int) -> int:
    """The game's latency from this tree and from ``other``, in alternating blocks."""
    here = str(Path(__file__).resolve().parent.parent)
    before, now = alternate(
        lambda count: game_latency(count, source=other),
        lambda count: game_latency(count, source=here),
        n,
        BLOCK,
    )
    old, new = summarize(before), summarize(now)
    print("key to screen (pty + pyte, 80x24), alternating blocks")
    print(f"  before ({other})  {old.format()}")
    print(f"  now    ({here})  {new.format()}")
    print(
        f"  speed now / before: median {old.median / new.median:.2f}x, "
        f"p99 {old.p99 / new.p99:.2f}x  (goal: >= 0.9x)"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=320, help="latency samples (default 320)")
    parser.add_argument("--idle", type=float, default=10.0, help="idle seconds (default 10)")
    parser.add_argument(
        "--against", metavar="DIR", help="compare the latency with the game from DIR"
    )
    args = parser.parse_args(argv)
    if args.against:
        return against(args.against, args.n)

    echo_cpu, game_cpu = Usage(), Usage()
    ignored: list[float] = []
    echo_arrived: list[float] = []
    game_arrived: list[float] = []
    echo_samples, game_samples = alternate(
        lambda count: measure_latency(
            BASELINES["echo"],
            letter,
            echo_ready,
            echo_reflected,
            count,
            quit_key="q",
            usage=[echo_cpu],
            arrived=echo_arrived,
        ),
        lambda count: game_latency(count, usage=[game_cpu], ignored=ignored, arrived=game_arrived),
        args.n,
        BLOCK,
    )
    echo, game = summarize(echo_samples), summarize(game_samples)
    print("key to screen (pty + pyte, 80x24)")
    print(f"  echo  {echo.format()}")
    print(f"  game  {game.format()}")
    print(
        f"  game/echo: median {game.median / echo.median:.2f}x, p99 {game.p99 / echo.p99:.2f}x"
        "  (goal: within 1.3x)"
    )
    echo_read, game_read = summarize(echo_arrived), summarize(game_arrived)
    print("key to its bytes read (the same keys; this side's pyte and look left out)")
    print(f"  echo  {echo_read.format()}")
    print(f"  game  {game_read.format()}")
    print(
        f"  game/echo to bytes read: median {game_read.median / echo_read.median:.2f}x,"
        f" p99 {game_read.p99 / echo_read.p99:.2f}x"
    )
    # Blocks of different sizes weigh by their keys; the figures are per key.
    echo_key, play_key = statistics.median(echo_cpu.per_key), statistics.median(game_cpu.per_key)
    ignored_key = statistics.median(ignored)
    print("CPU per key (schedstat, every thread; median of the blocks)")
    print(
        f"  echo {1000 * echo_key:.3f} ms, play {1000 * play_key:.3f} ms, ignored key"
        f" {1000 * ignored_key:.3f} ms"
    )
    print(f"  play/echo CPU: {play_key / echo_key:.2f}x  (goal: within 1.3x)")
    print(f"  ignored/echo CPU: {ignored_key / echo_key:.2f}x  (goal: within 1.0x)")

    play, full = bytes_per_play()
    print("bytes written")
    print(f"  one play {play} B, full redraw {full} B: {100 * play / full:.1f}%  (goal: <= 15%)")

    share, written = idle_cpu(args.idle)
    print(f"idle table over {args.idle:g} s")
    print(f"  CPU {100 * share:.3f}% of one core, {written} B written  (goal: < 1%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
