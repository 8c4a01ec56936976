"""The files a game leaves, played in-process (``tests/pilot.py``: an in-process terminal,
the loop's clock virtual) and read back with the commands (``tests/command.py``): a round's
replay, verified, listed and counted in the record; a round quit in the middle, a part
file; a round left before anything happened, none; a broken record, said once and left
as it is; a data folder that cannot be made, said and played on; a recorded round watched
in the viewer, a tampered one caught. The seeds are ``tests/test_app_e2e.py``'s.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stress_tui.core.engine import Match
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from tests import command, pilot
from tests.screen import Screenful, has_people, pile_top, say_ready
from tests.test_app_e2e import COLS, LAY, LEGAL_SEED, NO_CONFIG, wait_flip

BOTS_SEED = 215
"""Two expert computers play a skat round to one win (``BOTS``): with this seed, player 2
wins it in about 6 s (the bots decide how long)."""

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


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """The data directory of the game and of the commands (``pilot.game``'s)."""
    return tmp_path / "data"


@contextmanager
def game(
    tmp_path: Path,
    seed: int = LEGAL_SEED,
    env: dict[str, str | None] | None = None,
    args: tuple[str, ...] = (),
) -> Iterator[pilot.Pilot]:
    """``stress-tui --seed SEED ARGS`` in-process at 80x24, once its first frame is up and
    the people at the table have said they are ready."""
    with pilot.game(tmp_path, "--seed", str(seed), *args, env=env) as s:
        if has_people(args):
            say_ready(s)
        yield s


def quit_at_once(s: Screenful) -> None:
    """Ctrl-C, as a key: the game ends with 130."""
    s.send("\x03")
    assert s.wait_exit() == 130


def stress_tui(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    """``stress-tui ARGS`` in-process without a terminal, on the data directory ``data``."""
    return command.run_text(*args, env={**NO_CONFIG, "STRESS_TUI_DATA_DIR": str(data)})


# ----------------------------------------------------------------------------- a round's files


def test_a_played_round_leaves_a_replay_that_verifies_and_counts_in_the_record(
    tmp_path: Path, data_dir: Path
) -> None:
    from stress_tui.core.stats import round_stats
    from stress_tui.storage.replay import load
    from stress_tui.terminal.screens.result import stats_lines

    with game(tmp_path, BOTS_SEED, args=BOTS) as s:
        s.wait_text("Player 2 wins the match!", timeout=60)
        s.wait_text("Enter: rematch    q: quit", timeout=2)
        s.wait_text("record: counted", timeout=10)  # on the record's thread
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


def test_a_play_is_shown_before_its_replay_line_is_written_in_the_same_turn(
    tmp_path: Path, data_dir: Path
) -> None:
    """A play's frame goes to the terminal first, then its line to the round's replay (the
    player does not wait for the disk), in the same turn of the loop: before another key
    is taken."""
    from stress_tui.core.actions import Play
    from stress_tui.storage.replay import load

    with game(tmp_path) as s:
        wait_flip(s, "10♣", "4♥")
        (part,) = (data_dir / "replays").iterdir()
        before = load(part).actions
        lines_at_frames: list[int] = []
        shown = s.endpoint.on_output
        assert shown is not None

        def output(data: bytes) -> None:
            lines_at_frames.append(len(load(part).actions))
            shown(data)

        s.endpoint.on_output = output
        s.endpoint.feed(b"q")  # the key's turn of the loop, and nothing after it
        s.endpoint.on_output = shown
        assert pile_top(s, 0) == "J♠"
        assert lines_at_frames == [len(before)]  # the frame, before the line
        after = load(part).actions
        assert after[:-1] == before and after[-1] == Play(0, 0, 0, after[-1].time)
        quit_at_once(s)


def test_quitting_mid_round_keeps_a_readable_part_file(tmp_path: Path, data_dir: Path) -> None:
    from stress_tui.core.actions import Flip, Play
    from stress_tui.storage.replay import load

    with game(tmp_path) as s:
        wait_flip(s, "10♣", "4♥")
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_at_once(s)
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


def test_a_round_left_before_anything_happened_leaves_no_replay(
    tmp_path: Path, data_dir: Path
) -> None:
    with game(tmp_path) as s:
        assert pile_top(s, 0) == ""  # still counting to the first flip
        quit_at_once(s)
    assert list((data_dir / "replays").glob("*")) == []  # (the folder is not even made)


def test_a_broken_record_file_is_reported_once_and_never_written(
    tmp_path: Path, data_dir: Path
) -> None:
    data_dir.mkdir()
    record = data_dir / "record.json"
    record.write_text('{"format": "somebody else\'s"}\n')
    before = record.read_bytes(), os.stat(record).st_mtime_ns
    with game(tmp_path, BOTS_SEED, args=BOTS) as s:
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
    with game(tmp_path, env={"STRESS_TUI_DATA_DIR": str(blocker / "data")}) as s:
        s.wait_text("Not recording replays", timeout=2)
        wait_flip(s, "10♣", "4♥")
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="J♠ on the left pile")
        quit_at_once(s)
    assert blocker.read_text() == "not a directory\n"


# ----------------------------------------------------------------------------- a replay watched


def record_bots_round(folder: Path) -> Path:
    """The round of ``BOTS_SEED`` (the computers seeded as the app seeds them), recorded in
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


def progress(s: Screenful) -> tuple[int, int]:
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
    with pilot.viewer(path, speed=2) as s:
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
        s.pump(0.5)  # paused: nothing moves
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
