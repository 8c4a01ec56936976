"""The real program in a pseudo-terminal, read back as a player would see it: the first
frame (of the game and of the daily), a resize from the kernel, leaving (the terminal
restored on Ctrl-C, signals, a crash, Ctrl-Z), a row refused before the terminal is taken,
and the files a round leaves. What the screen does with keys is played
in-process, in ``tests/test_app_screens.py``.

Every test starts ``python -m stress_tui --seed N`` (or a position through the
``STRESS_TUI_POSITION`` test hook) in an 80x24 pty and waits for what should appear, with a
deadline. Seeds were found with the same rules and ``random.Random(seed)`` as the app (the
default rules; the first flip comes 1.2 s after the start):

- 12: after the flip the piles are 10C | 4H; p1's row JS | 2D | 9D | 4C. ``q`` (p1 pile 1
  onto the left) is legal, ``w`` (the 2D onto the 10) is not.
- 5: piles 6C | AH; p1 has 7D at pile 2 (``w``), p2 has 5C at pile 3 (``o``): both fit the
  left pile, and whichever lands first makes the other too late.
- 6: piles KC | QD; p1's QS at pile 2 onto the left (``w``) makes stress (Q and Q).
- 8: the first flip (8H | 5D) leaves nobody a play: the round stalls and flips again.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stress_tui.core.engine import Match
from stress_tui.core.notation import format_position
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.terminal.layout import Layout, layout
from tests import command
from tests.screen import (
    Screenful,
    banner,
    card_label,
    has_people,
    pile_top,
    restore_problems,
    restored,
    say_ready,
)
from tests.tty import JOB_SHELL, TtySession, job_pid

ROWS, COLS = 24, 80
LAY: Layout = layout(COLS, ROWS, 4)  # type: ignore[assignment]
assert LAY is not None

LEGAL_SEED = 12
RACE_SEED = 5
STRESS_SEED = 6
STALL_SEED = 8


def flipped(seed: int) -> dict[str, str | None]:
    """The environment that starts the game at ``seed``'s deal just after its first flip
    (the same table as ``--seed`` shows 1.2 s in, without waiting for the count)."""
    game = Match(Rules(), random.Random(seed)).new_round()
    table = Table(game)
    table.start(0.0)
    table.advance(table.countdown)
    return {"STRESS_TUI_POSITION": format_position(game.state)}


# No config file from the machine the tests run on.
NO_CONFIG = {"STRESS_TUI_CONFIG": "/nonexistent/stress-tui-tests/config.toml"}

# Replays and the record go to a directory of each test's own, never into the home of
# the machine the tests run on (set by the fixture below).
DATA_ENV: dict[str, str] = {}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path) -> Iterator[Path]:
    """The test's data directory (``STRESS_TUI_DATA_DIR`` for every program it starts)."""
    folder = tmp_path / "data"
    DATA_ENV["STRESS_TUI_DATA_DIR"] = str(folder)
    yield folder
    DATA_ENV.clear()


@contextmanager
def game(
    seed: int | None = LEGAL_SEED,
    env: dict[str, str | None] | None = None,
    rows: int = ROWS,
    cols: int = COLS,
    args: tuple[str, ...] = (),
    job: Path | None = None,
    ready: bool = True,
) -> Iterator[TtySession]:
    """The game in an 80x24 pty, after its first frame; with ``job`` (a file for its pid),
    as a job of a shell with job control (``tests/fixtures/jobshell.py``)."""
    argv = [*(["--seed", str(seed)] if seed is not None else []), *args]
    lay = layout(cols, rows, 4)
    assert lay is not None
    env = {**NO_CONFIG, **DATA_ENV, **(env or {})}
    command = None
    if job is not None:
        command = [*JOB_SHELL, sys.executable, "-m", "stress_tui"]
        env["JOBSHELL_PID_FILE"] = str(job)
    with TtySession(command, args=argv, rows=rows, cols=cols, env=env) as s:
        # A frame may arrive in several reads, and its runs are written grouped by style,
        # not top to bottom: wait for player 2's keys (or the computer's name where player
        # 2 has no keys) and for both players' names, the last runs of the first frame.
        s.wait_for(
            lambda: (
                "STRESS" in s.row(0)
                and (s.row(lay.hints_y[1]).strip() != "" or "computer" in s.row(lay.rows_y[1] + 2))
                and s.row(lay.rows_y[0])[1] != " "
                and s.row(lay.rows_y[1])[1] != " "
            ),
            timeout=10,
            what="the first frame",
        )
        if ready and has_people(args):
            say_ready(s)  # the round starts when the people at the table say so
        yield s


def row_card(s: Screenful, player: int, pile: int, lay: Layout = LAY) -> str:
    x = lay.row_x + pile * (lay.card_w + lay.gap)
    return card_label(s, lay.rows_y[player], x, lay)


def wait_count_over(s: Screenful) -> None:
    """After a pause, the help, a suspension or a window too small: the count before play
    goes on shows, then goes."""
    s.wait_text("Play goes on", timeout=2)
    s.wait_for(lambda: "Play goes on" not in s.text(), timeout=3, what="the count over")


def wait_flip(s: Screenful, left: str, right: str) -> None:
    s.wait_for(
        lambda: pile_top(s, 0) == left and pile_top(s, 1) == right,
        timeout=3,
        what=f"the flip {left} | {right}",
    )


def countdown(s: Screenful) -> str:
    x0 = LAY.pile_x[0] + LAY.card_w
    return s.row(LAY.piles_y + LAY.card_h // 2)[x0 : LAY.pile_x[1]].strip()


def quit_cleanly(s: TtySession) -> None:
    s.send("\x03")
    assert s.wait_exit() == 130
    assert restored(s.raw_log()), restore_problems(s.raw_log())
    assert s.tty_mode_restored()


# ----------------------------------------------------------------------------- the table


def test_the_table_appears_with_three_rows() -> None:
    with game() as s:
        assert "Player 1" in s.row(LAY.rows_y[0])
        assert "Player 2" in s.row(LAY.rows_y[1])
        assert [row_card(s, 0, i) for i in range(4)] == ["J♠", "2♦", "9♦", "4♣"]
        assert all(row_card(s, 1, i) for i in range(4))
        # The keys under every pile: onto the left pile, onto the right pile.
        assert s.row(LAY.hints_y[0]).split() == ["<q", "a>", "<w", "s>", "<e", "d>", "<r", "f>"]
        assert s.row(LAY.hints_y[1]).split() == ["<u", "j>", "<i", "k>", "<o", "l>", "<p", ";>"]
        assert "New cards on three" in banner(s)
        # The middle row fills at the flip, after "1 2 3".
        assert pile_top(s, 0) == "" and pile_top(s, 1) == ""
        wait_flip(s, "10♣", "4♥")
        quit_cleanly(s)


def test_resize_too_small_pauses_and_back_resumes() -> None:
    with game(env=flipped(LEGAL_SEED)) as s:
        wait_flip(s, "10♣", "4♥")
        s.resize(12, 50)
        s.wait_text("Make the window larger", timeout=2)
        s.wait_text("this is 50x12", timeout=2)
        mark = len(s.log)
        s.send("q\x0c")  # no play while too small; Ctrl-L redraws, so q has been read
        s.wait_for(lambda: b"\x1b[2J" in s.raw_log(mark), timeout=2, what="the redraw")
        s.resize(ROWS, COLS)
        s.wait_for(
            lambda: "Player 1" in s.row(LAY.rows_y[0]) and pile_top(s, 0) == "10♣",
            timeout=2,
            what="the table",
        )
        wait_count_over(s)  # large enough again: a count, then play
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)


# ----------------------------------------------------------------------------- leaving


def test_ctrl_c_leaves_the_terminal_restored() -> None:
    with game() as s:
        quit_cleanly(s)


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["SIGTERM", "SIGHUP"]
)
def test_a_signal_leaves_the_terminal_restored(sig: signal.Signals, code: int) -> None:
    with game() as s:
        s.child.kill(sig)
        assert s.wait_exit() == code
        assert restored(s.raw_log()), restore_problems(s.raw_log())
        assert s.tty_mode_restored()


def test_a_crash_restores_the_terminal_then_shows_the_traceback() -> None:
    with game(env={"STRESS_TUI_TEST_CRASH": "1"}, ready=False) as s:
        s.send("x")
        assert s.wait_exit() == 1
        log = s.raw_log()
        assert restored(log), restore_problems(log)
        assert s.tty_mode_restored()
        assert log.rfind(b"\x1b[?1049l") < log.rfind(b"Traceback") < log.rfind(b"a crash on")


def test_ctrl_z_suspends_and_fg_redraws(tmp_path: Path) -> None:
    with game(env=flipped(LEGAL_SEED), job=tmp_path / "pid") as s:  # from a job-control shell
        pid = job_pid(tmp_path / "pid")
        wait_flip(s, "10♣", "4♥")
        mark = len(s.log)
        s.send("\x1a")  # Ctrl-Z: SIGTSTP from the terminal
        s.wait_for(lambda: b"\x1b[?1049l" in s.raw_log(mark), timeout=2, what="screen left")
        s.wait_for(lambda: s.tty_mode_restored(), timeout=2, what="the tty mode restored")
        deadline = time.monotonic() + 2
        while _state(pid) != "T":
            assert time.monotonic() < deadline, "the program did not stop"
            s.pump(0.01)
        mark = len(s.log)
        os.kill(pid, signal.SIGCONT)  # what fg does
        s.wait_for(lambda: b"\x1b[?1049h" in s.raw_log(mark), timeout=2, what="screen again")
        # fg comes back to a paused table; Enter plays on, after a count.
        s.wait_text("Esc or Enter: play on", timeout=2)
        s.send("\r")
        s.wait_for(lambda: pile_top(s, 0) == "10♣", timeout=2, what="the table redrawn")
        wait_count_over(s)
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def test_not_a_terminal_is_one_line_and_exit_2() -> None:
    code = (
        "import sys; from stress_tui.terminal.app import run;"
        " from stress_tui.core.settings import Settings;"
        " sys.exit(run(Settings()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "not a terminal" in done.stderr


def test_a_row_from_the_config_is_refused_naming_its_line(tmp_path: Path) -> None:
    """Refused in one line that names the config file, before the terminal is taken: no
    sequence written, the tty's modes as they were (from flags, in-process:
    ``tests/test_looks_tty.py``)."""
    config = tmp_path / "config.toml"
    config.write_text('[rules]\nrow = 5\n\n[keys]\nkeyboard = "fr"\n')
    with TtySession(env={"STRESS_TUI_CONFIG": str(config)}) as s:
        assert s.wait_exit() == 2
        out = s.raw_log()
        assert out.count(b"\n") == 1 and b"\x1b" not in out, out
        assert "a row of 5 cannot be played" in out.decode()
        assert str(config) in out.decode()
        assert s.tty_mode_restored()


def test_daily_reaches_the_table_with_the_days_cards_and_left_at_once_is_not_taken(
    tmp_path: Path,
) -> None:
    """``stress-tui daily`` on a real terminal: the first frame has the day's cards (the
    daily itself, in-process: ``tests/test_daily.py``); left before its first card, the day
    is not taken, and the daily starts again."""
    from stress_tui.core.daily import BOT_SIDE, daily_rules, daily_seed
    from stress_tui.core.engine import Game
    from stress_tui.terminal.lang import rank_name
    from tests.test_daily import _today

    env = {
        "STRESS_TUI_DATA_DIR": str(tmp_path / "data"),
        "STRESS_TUI_CONFIG": "/nonexistent/stress-tui-tests/config.toml",
    }
    days = list(_today())
    rows = {
        day: [
            rank_name(pile[-1].rank) + (pile[-1].suit.symbol if pile[-1].suit else "")
            for pile in Game.deal(daily_rules(), random.Random(daily_seed(day)))
            .state.players[1 - BOT_SIDE]
            .row
        ]
        for day in days
    }
    with TtySession(args=("daily", "--name", "Ann"), rows=24, cols=80, env=env) as s:
        s.wait_for(
            lambda: "Ann" in s.text() and any(all(c in s.text() for c in r) for r in rows.values()),
            timeout=10,
            what="the table with the day's cards",
        )
        assert "STRESS" in s.row(0)
        assert any(f"daily deal of {day}" in s.row(0) for day in days), s.row(0)
        assert "Computer" in s.text()
        s.send("\x03")
        assert s.wait_exit() == 130
    # Left before its first card: not taken, the day's deal is there again.
    with TtySession(args=("daily", "--name", "Ann"), rows=24, cols=80, env=env) as s:
        s.wait_for(lambda: "daily deal of" in s.row(0), timeout=10, what="the daily again")
        s.send("\x03")
        assert s.wait_exit() == 130


# ----------------------------------------------------------------------------- replays


# Two expert computers play a skat round to one win: with seed 215 it takes them about 6 s
# (the bots decide how long; slower bots would make these tests slower, not wrong).
BOTS_SEED = 215
BOTS = ("--deck", "skat", "--wins", "1", "--p1", "bot:expert", "--p2", "bot:expert")
STATS_LABELS = (
    "cards played",
    "longest chain",
    "median reaction",
    "stresses won",
    "stresses lost",
    "false calls",
    "misplays",
    "lockouts",
)


def stress_tui(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    """``stress-tui ARGS`` in-process without a terminal, on the data directory ``data``."""
    return command.run_text(*args, env={**NO_CONFIG, "STRESS_TUI_DATA_DIR": str(data)})


def test_a_played_round_leaves_a_replay_that_verifies_and_counts_in_the_record(
    data_dir: Path,
) -> None:
    from stress_tui.core.stats import round_stats
    from stress_tui.storage.replay import load
    from stress_tui.terminal.screens.result import stats_lines

    with game(BOTS_SEED, args=BOTS) as s:
        s.wait_text("Player 2 wins the match!", timeout=60)
        s.wait_text("Enter: rematch    q: quit", timeout=2)
        shown = s.text()
        files = sorted((data_dir / "replays").iterdir())
        assert [path.suffix for path in files] == [".jsonl"]
        assert f"replay: {files[0].name}" in shown
        # The statistics on the screen are those of the recorded round.
        replay = load(files[0])
        stats = round_stats(replay.new_game(), replay.actions)
        for line in stats_lines(stats, ("Player 1", "Player 2"), COLS - 8):
            assert line in shown, line
        s.send("q")
        assert s.wait_exit() == 0
    verified = stress_tui("replay", "--verify", str(files[0]), data=data_dir)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    actions = len(replay.actions)
    assert verified.stdout == f"{files[0]}: verified, {actions} actions, winner Player 2\n"
    listed = stress_tui("replay", "--list", data=data_dir)
    assert (listed.returncode, listed.stderr) == (0, "")
    (line,) = listed.stdout.splitlines()
    assert "Player 1 (bot:expert) vs Player 2 (bot:expert)  skat, row 3, " in line
    assert ", to 1 win  Player 2" in line
    assert line.endswith(files[0].name)
    record = stress_tui("stats", data=data_dir)
    assert record.returncode == 0
    # Computers are counted apart from people, by level: both sides were the expert.
    standings = record.stdout.split("\n\n")[0]
    head, *rows = [row.split() for row in standings.splitlines()]
    assert head[0] == "computer"
    assert [row[:5] for row in rows] == [["expert", "skat", "wins=1", "1-1", "1-1"]]
    assert rows[0][-1] == f"{stats.seconds:.2f}s"  # the round won is the expert's best
    as_json = json.loads(stress_tui("stats", "--json", data=data_dir).stdout)
    assert as_json["players"] == []
    assert as_json["computers"][0]["rounds_won"] == 1


def record_bots_round(folder: Path) -> Path:
    """The same round as above (the computers seeded as the app seeds them), recorded in
    this process."""
    from stress_tui.core.engine import Phase
    from stress_tui.players.bot import make_bot
    from stress_tui.storage.recorder import Recorder

    match = Match(Rules.for_deck("skat", wins=1), random.Random(BOTS_SEED))
    game = match.new_round()
    assert match.round_seed is not None
    recorder = Recorder.start(
        game, match.round_seed, ("bot:expert", "bot:expert"), ("Ann", "Bo"), 1, (0, 0), folder
    )
    drivers = tuple(
        make_bot(player=i, level="expert", rng=random.Random(f"{BOTS_SEED}/0/{i}")) for i in (0, 1)
    )
    table = Table(game, drivers, on_action=recorder.record)
    table.start(0.0)
    while game.state.phase is not Phase.ROUND_OVER and table.actions < 3000:
        deadline = table.next_deadline()
        assert deadline is not None
        table.advance(deadline)
    return recorder.finish(game)


def progress(s: TtySession) -> tuple[int, int]:
    """``done/total`` from a replay's title line."""
    for word in s.row(0).split():
        if "/" in word and word.replace("/", "").isdigit():
            done, total = word.split("/")
            return int(done), int(total)
    raise AssertionError(f"no progress on the title line: {s.row(0)!r}")


def test_a_replay_plays_on_the_table_pauses_steps_and_ends_with_the_statistics(
    data_dir: Path,
) -> None:
    path = record_bots_round(data_dir / "replays")
    argv = ["replay", str(path), "--speed", "2"]
    env = {**NO_CONFIG, **DATA_ENV}
    with TtySession(args=argv, rows=ROWS, cols=COLS, env=env) as s:
        s.wait_for(
            lambda: "REPLAY" in s.row(0) and "x2" in s.row(0), timeout=10, what="the replay's title"
        )
        assert "Ann v Bo" in s.row(0) and "skat" in s.row(0)
        s.wait_text("Ann", row=LAY.rows_y[0])
        s.send(" ")
        s.wait_text("PAUSED", row=0, timeout=2)
        done, total = progress(s)
        s.send(".")
        s.wait_for(lambda: progress(s)[0] == done + 1, timeout=2, what="one step")
        s.send("\x1b[C")  # Right
        s.wait_for(lambda: progress(s)[0] == done + 2, timeout=2, what="another step")
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:  # paused: nothing moves
            s.pump(deadline - time.monotonic())
        assert progress(s)[0] == done + 2 and "PAUSED" in s.row(0)
        s.send(" ")
        s.wait_text("the same events as when it was played", timeout=10)
        s.wait_text("Enter: watch again    q or Esc: leave", timeout=2)
        assert progress(s) == (total, total)
        for label in STATS_LABELS:
            assert label in s.text()
        s.send("\r")  # once more, from the start
        s.wait_for(
            lambda: "watch again" not in s.text() and progress(s)[0] < total,
            timeout=2,
            what="the replay again",
        )
        s.send("q")
        assert s.wait_exit() == 0
        assert restored(s.raw_log()), restore_problems(s.raw_log())
        assert s.tty_mode_restored()
    assert path.exists() and sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_a_tampered_replay_is_caught_by_verify(data_dir: Path) -> None:
    path = record_bots_round(data_dir / "replays")
    assert stress_tui("replay", "--verify", path.name, data=data_dir).returncode == 0
    lines = path.read_text().splitlines()
    flip = next(i for i, line in enumerate(lines) if '"a":"flip"' in line)
    lines[flip] = lines[flip].replace('"t":1.2', '"t":1.3')
    path.write_text("\n".join(lines) + "\n")
    done = stress_tui("replay", "--verify", path.name, data=data_dir)
    assert done.returncode == 1 and "differ" in done.stdout and done.stderr == ""


def test_quitting_mid_round_keeps_a_readable_part_file(data_dir: Path) -> None:
    from stress_tui.core.actions import Flip, Play
    from stress_tui.storage.replay import load

    with game() as s:
        wait_flip(s, "10♣", "4♥")
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)
    (part,) = (data_dir / "replays").iterdir()
    assert part.name.endswith(".jsonl.part")
    replay = load(part)
    assert replay.end is None
    assert replay.seed == random.Random(LEGAL_SEED).getrandbits(63)  # the match's first round
    assert [type(action) for action in replay.actions] == [Flip, Play]
    assert replay.actions[1] == Play(0, 0, 0, replay.actions[1].time)
    done = stress_tui("replay", "--verify", str(part), data=data_dir)
    assert done.returncode == 1 and "cut short" in done.stdout
    listed = stress_tui("replay", "--list", data=data_dir)
    assert "(cut short)" in listed.stdout


def test_a_round_left_before_anything_happened_leaves_no_replay(data_dir: Path) -> None:
    with game() as s:
        assert pile_top(s, 0) == ""  # still counting to the first flip
        quit_cleanly(s)
    assert list((data_dir / "replays").glob("*")) == []  # (the folder is not even made)


def test_a_broken_record_file_is_reported_once_and_never_written(data_dir: Path) -> None:
    data_dir.mkdir()
    record = data_dir / "record.json"
    record.write_text('{"format": "somebody else\'s"}\n')
    before = record.read_bytes(), os.stat(record).st_mtime_ns
    with game(BOTS_SEED, args=BOTS) as s:
        s.wait_text("The record file cannot be read", timeout=3)
        s.wait_text("Enter: rematch    q: quit", timeout=60)
        assert "record not updated" not in s.text()  # said once, at the start
        s.send("q")
        assert s.wait_exit() == 0
    assert (record.read_bytes(), os.stat(record).st_mtime_ns) == before
    assert len(list((data_dir / "replays").iterdir())) == 1  # replays go on regardless
    done = stress_tui("stats", data=data_dir)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"stress-tui: {record}: not a stress-tui record; left as it is\n"


def test_an_unwritable_data_directory_says_so_and_plays_on(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory\n")
    with game(env={"STRESS_TUI_DATA_DIR": str(blocker / "data")}) as s:
        s.wait_text("Not recording replays", timeout=2)
        wait_flip(s, "10♣", "4♥")
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_cleanly(s)
    assert blocker.read_text() == "not a directory\n"
