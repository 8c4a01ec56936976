"""Watching and checking replays: a playback goes through the real table and gives the
original events; ``replay --verify``, ``replay --list`` and their errors."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from stress_tui.cli.commands.replay import date_shown, length_shown, rules_said
from stress_tui.cli.main import main
from stress_tui.core.actions import Action, CallStress, Flip, Play, ReadyToFlip, StopStress
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import Event, Flipped
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.core.view import PlayerView
from stress_tui.storage.listing import summaries
from stress_tui.storage.recorder import Recorder
from stress_tui.storage.replay import load
from stress_tui.terminal.playback import Playback
from tests import command
from tests.test_replay import RULE_SETS


class Sloppy:
    """A computer player that makes every kind of move, mistakes included: plays, misplays,
    false and late stress calls, stress stops, ready to flip. Its own random source."""

    def __init__(self, player: int, seed: int) -> None:
        self.player = player
        self.rng = random.Random(seed)

    def decide(self, view: PlayerView) -> Action | None:
        me, table = view.me, view.table
        at = table.time + 0.1 + self.rng.random() * 0.6
        if table.phase is Phase.STRESS:
            return CallStress(self.player, at)
        if table.phase is not Phase.PLAYING:
            return None
        roll = self.rng.random()
        if roll < 0.05:
            return CallStress(self.player, at)  # no stress: a false call
        if roll < 0.1 and table.rules.stress_stop:
            return StopStress(self.player, at)
        if roll < 0.2:
            legal = table.legal_plays(self.player)
            wrong = [
                (pile, target)
                for pile in range(table.rules.row_size)
                for target in (0, 1)
                if (pile, target) not in legal
            ]
            if wrong:
                return Play(self.player, *self.rng.choice(wrong), at)
        plays = table.legal_plays(self.player)
        if plays:
            return Play(self.player, *self.rng.choice(plays), max(at, me.locked_until))
        return None if me.ready else ReadyToFlip(self.player, at)


def play_round(rules: Rules, seed: int, folder: Path) -> tuple[Path, list[Event]]:
    """A round between two sloppy players, recorded as the app records it; the file and
    every event of the round."""
    game = Game.deal(rules, random.Random(seed))
    recorder = Recorder.start(game, seed, ("bot:easy", "human"), ("Ann", "Bo"), 2, (1, 0), folder)
    events: list[Event] = []

    def keep(action: Action, happened: list[Event]) -> None:
        recorder.record(action, happened)
        events.extend(happened)

    table = Table(game, (Sloppy(0, seed), Sloppy(1, seed + 1)), on_action=keep)
    table.start(0.0)
    while game.state.phase is not Phase.ROUND_OVER and table.actions < 3000:
        deadline = table.next_deadline()
        assert deadline is not None
        table.advance(deadline)
    return recorder.finish(game), events


def watch(playback: Playback, step: float = 0.25) -> list[Event]:
    """Run a playback's clock forward in steps, as the screen's timer does."""
    playback.start()
    events: list[Event] = []
    now = 0.0
    while not playback.over:
        now += step
        events += playback.play_until(now)
    return events


@pytest.mark.parametrize("seed", [1, 2])
def test_a_playback_gives_the_original_events_under_every_rule_set(
    tmp_path: Path, seed: int
) -> None:
    kinds: Counter[str] = Counter()
    for rules in RULE_SETS:
        path, original = play_round(rules, seed, tmp_path)
        playback = Playback(load(path))
        assert watch(playback) == original
        assert playback.events == original
        assert playback.same_as_recorded() is True
        kinds.update(type(event).__name__ for event in original)
    # The rounds went through every kind of thing a round can do.
    for kind in (
        "Played",
        "Rejected",
        "LockedOut",
        "StressWon",
        "FalseStressCalled",
        "PilesTaken",
        "Stalled",
        "FlipAgreed",
        "Flipped",
        "RoundWon",
    ):
        assert kinds[kind] > 0, kind


def test_the_table_never_flips_by_itself_in_a_playback(tmp_path: Path) -> None:
    path, _ = play_round(Rules.for_deck("standard"), 3, tmp_path)
    replay = load(path)
    flips = sum(isinstance(action, Flip) for action in replay.actions)
    playback = Playback(replay)
    events = watch(playback)
    assert sum(isinstance(event, Flipped) for event in events) == flips
    # With the flips taken out of the file, the round waits for ever at its first count:
    # the table's countdown runs (it shows "1 2 3") but never flips.
    replay.actions = [action for action in replay.actions if not isinstance(action, Flip)]
    playback = Playback(replay)
    playback.start()
    assert playback.table.flip_at is not None
    events = playback.play_until(10_000.0)
    assert not any(isinstance(event, Flipped) for event in events)
    assert playback.game.state.phase is Phase.WAITING_FLIP
    assert playback.same_as_recorded() is False


def test_a_step_applies_exactly_one_action(tmp_path: Path) -> None:
    path, original = play_round(Rules.for_deck("jass"), 4, tmp_path)
    playback = Playback(load(path))
    playback.start()
    events: list[Event] = []
    for count in range(1, 6):
        events += playback.step()
        assert len(playback.applied) == count
    assert events == original[: len(events)]
    assert playback.play_until(playback.applied[-1].time) == []  # nothing else due then


def test_a_cut_short_recording_plays_to_where_it_stops(tmp_path: Path) -> None:
    path, original = play_round(Rules.for_deck("standard"), 5, tmp_path)
    lines = path.read_bytes().split(b"\n")
    part = path.with_name(path.name + ".part")
    part.write_bytes(b"\n".join(lines[:20]) + b"\n")  # header and 19 actions, no end
    playback = Playback(load(part))
    watch(playback)
    assert len(playback.applied) == 19
    assert playback.over and playback.game.state.phase is not Phase.ROUND_OVER
    assert playback.same_as_recorded() is None
    assert playback.events == original[: len(playback.events)]


def test_an_action_that_cannot_be_applied_breaks_the_playback_off(tmp_path: Path) -> None:
    path, _ = play_round(Rules.for_deck("standard"), 6, tmp_path)
    lines = path.read_text().splitlines()
    plays = [i for i, line in enumerate(lines) if '"a":"play"' in line]
    doctored = json.loads(lines[plays[3]])
    doctored["pile"] = 9  # no such row pile
    lines[plays[3]] = json.dumps(doctored)
    path.write_text("\n".join(lines) + "\n")
    playback = Playback(load(path))
    watch(playback)
    assert playback.broken is not None and "no row pile 9" in playback.broken
    assert playback.broken.startswith(f"action {plays[3]} cannot be applied")
    assert playback.same_as_recorded() is False


def test_the_statistics_of_a_playback_are_those_of_the_round(tmp_path: Path) -> None:
    from stress_tui.core.stats import round_stats

    path, _ = play_round(Rules.for_deck("skat"), 7, tmp_path)
    replay = load(path)
    playback = Playback(replay)
    watch(playback)
    assert playback.stats() == round_stats(replay.new_game(), replay.actions)


def test_a_header_line_is_never_missing(tmp_path: Path) -> None:
    """The file appears with its header already in it: there is no moment at which a kill
    leaves an empty replay, and a name in use is never written over."""
    game = Game.deal(Rules(), random.Random(1))
    recorder = Recorder.start(game, 1, ("human", "human"), ("A", "B"), 1, (0, 0), tmp_path)
    assert recorder.part.read_bytes().startswith(b'{"format":"stress-tui replay"')
    recorder.close()
    with pytest.raises(FileExistsError):
        Recorder(recorder.path, {"seed": 1})
    assert [p.name for p in tmp_path.iterdir()] == [recorder.part.name]


# ----------------------------------------------------------------------------- the CLI


@pytest.fixture
def data(data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test's data folder (``conftest.data``), and a config file that is not there."""
    monkeypatch.setenv("STRESS_TUI_CONFIG", str(tmp_path / "no-config.toml"))
    return data


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_says_ok_and_exits_0(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = play_round(Rules.for_deck("jass"), 1, data / "replays")
    code, out, err = run(capsys, "replay", "--verify", str(path))
    assert (code, err) == (0, "")
    assert out.startswith(f"{path}: verified, ") and out.count("\n") == 1
    # A bare name, as --list shows it, is looked up in the replay directory.
    code, out, _ = run(capsys, "replay", "--verify", path.name)
    assert code == 0 and "verified" in out


def test_verify_detects_a_tampered_file_and_exits_1(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = play_round(Rules.for_deck("standard"), 2, data / "replays")
    lines = path.read_text().splitlines()
    plays = [i for i, line in enumerate(lines) if '"a":"play"' in line]
    action = json.loads(lines[plays[len(plays) // 2]])
    action["t"] += 0.001  # a play a millisecond later than it was
    lines[plays[len(plays) // 2]] = json.dumps(action)
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", "--verify", str(path))
    assert (code, err) == (1, "")
    assert "differ" in out and out.count("\n") == 1


def test_verify_of_a_round_cut_short_exits_1(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = play_round(Rules.for_deck("standard"), 3, data / "replays")
    part = path.with_name(path.name + ".part")
    part.write_bytes(b"\n".join(path.read_bytes().split(b"\n")[:5]) + b'\n{"t":3.2,"a":"pl')
    code, out, _ = run(capsys, "replay", "--verify", str(part))
    assert code == 1 and "cut short" in out


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json\n",
        b'{"format":"something else"}\n',
        b'{"format":"stress-tui replay","version":9}\n',
    ],
)
def test_a_broken_or_foreign_file_is_one_line_and_exit_2(
    data: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    path = data / "x.jsonl"
    data.mkdir()
    path.write_bytes(content)
    for argv in (["replay", "--verify", str(path)], ["replay", str(path)]):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, "")
        assert err.startswith(f"stress-tui: {path}") and err.count("\n") == 1
    assert path.read_bytes() == content


def test_the_list_shows_each_round_on_a_line(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = data / "replays"
    first, _ = play_round(Rules.for_deck("jass"), 1, folder)
    second, _ = play_round(Rules.for_deck("standard", wins=5), 2, folder)
    (folder / "zz-broken.jsonl").write_text("junk\n")
    code, out, err = run(capsys, "replay", "--list")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    found, _ = summaries(folder)
    for line, summary in zip(lines, found, strict=True):
        assert line.startswith(date_shown(summary))
        assert "Ann (bot:easy) vs Bo (human)" in line
        assert rules_said(summary.rules) in line and summary.winner in line
        assert length_shown(summary) in line and line.endswith(summary.path.name)
    assert lines[0].endswith(second.name) and lines[1].endswith(first.name)
    assert "standard, row 4, to 5 wins" in lines[0] and "jass, row 4" in lines[1]
    assert err == f"stress-tui: {folder / 'zz-broken.jsonl'}:1: not a replay line\n"


def test_an_empty_list_says_so(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = data / "replays"
    assert run(capsys, "replay", "--list") == (
        0,
        f"No rounds recorded yet (the replays are kept in {folder}).\n",
        "",
    )


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["replay"], "stress-tui: replay: give a FILE (or --list; try stress-tui replay --help)"),
        (
            ["replay", "--speed", "0", "x"],
            'stress-tui: --speed: must be more than 0 and at most 100, not "0"',
        ),
        (["replay", "--speed", "fast", "x"], 'stress-tui: --speed: "fast" is not a number'),
        (["replay", "--list", "x"], "stress-tui: x: --list takes no FILE"),
        (["replay", "--list", "--verify"], "stress-tui: --verify: not allowed with --list"),
        (["--deck", "jass", "replay", "x"], "stress-tui: --deck: not with the replay command"),
        (["--rules", "replay", "x"], "stress-tui: --rules: not with the replay command"),
        (["replay", "--spede", "2"], "stress-tui: --spede: no such option (did you mean --speed?)"),
        (
            ["replay", "/no/such/replay.jsonl"],
            "stress-tui: /no/such/replay.jsonl: no such file",
        ),
    ],
)
def test_a_bad_replay_command_is_one_line_and_exit_2(
    data: Path, capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", line + "\n")


def test_watching_needs_a_terminal(data: Path, tmp_path: Path) -> None:
    path, _ = play_round(Rules.for_deck("jass"), 1, data / "replays")
    done = command.run_text("replay", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "not a terminal" in done.stderr


HEADER = '{"format":"stress-tui replay","version":1,"seed":3,"rules":"standard"'


@pytest.mark.parametrize(
    "content",
    [
        HEADER + "}\n" + '{"t":1.2,"a":{}}\n',  # a kind that is not a name
        HEADER + "}\n" + '{"t":1.2,"a":[]}\n',
        HEADER + "}\n" + '{"t":1e999,"a":"flip"}\n',  # a time that is not finite
        HEADER + "}\n" + '{"t":NaN,"a":"flip"}\n',
        HEADER + "}\n" + '{"t":' + "9" * 400 + ',"a":"flip"}\n',  # too large for a float
        HEADER + "}\n" + '{"t":' + "9" * 5000 + ',"a":"flip"}\n',  # too long to read at all
        HEADER + "}\n" + "[" * 100_000 + "]" * 100_000 + "\n",  # nested too deeply
        HEADER.replace('"seed":3', '"seed":1e999') + "}\n",
        HEADER.replace('"seed":3', '"seed":"3"') + "}\n",
        HEADER.replace('"seed":3', '"seed":true') + "}\n",
        HEADER + ',"names":"Ann"}\n',
        HEADER + ',"players":["human"]}\n',
        HEADER + ',"score":[1,"x"]}\n',
        HEADER + "}\n" + '{"end":true,"winner":7}\n',
        HEADER + "}\n" + '{"end":true,"t":"late"}\n',
    ],
)
def test_a_damaged_replay_is_a_one_line_error(tmp_path: Path, content: str) -> None:
    from stress_tui.storage.files import StorageError

    path = tmp_path / "damaged.jsonl"
    path.write_text(content)
    with pytest.raises(StorageError) as caught:
        load(path)
    assert "\n" not in str(caught.value) and str(path) in str(caught.value)
    assert path.read_text() == content


def test_files_get_the_permissions_of_any_new_file(tmp_path: Path) -> None:
    """Not the 0600 of a temporary file: a replay and the record are made like any file
    (0666 less the umask), and a record written again keeps what its owner set."""
    from stress_tui.core.stats import PlayerStats, RoundStats
    from stress_tui.storage.record import count_round

    won = RoundStats((PlayerStats(), PlayerStats()), 0, 5.0)
    umask = os.umask(0o022)
    try:
        game = Game.deal(Rules(), random.Random(1))
        recorder = Recorder.start(game, 1, ("human", "human"), ("A", "B"), 1, (0, 0), tmp_path)
        path = recorder.finish(game)
        record = tmp_path / "record.sqlite"
        count_round(("A", "B"), "standard", won, False, record)
        assert [oct(p.stat().st_mode & 0o777) for p in (path, record)] == ["0o644"] * 2
        record.chmod(0o600)
        count_round(("A", "B"), "standard", won, False, record)
        assert oct(record.stat().st_mode & 0o777) == "0o600"
    finally:
        os.umask(umask)


def quit_before_the_first_play(folder: Path, seed: int) -> Path:
    """A round left after its first flip, before anyone played a card: what the app leaves
    when a player quits at once."""
    game = Game.deal(Rules(), random.Random(seed))
    recorder = Recorder.start(game, seed, ("human", "human"), ("Ann", "Bo"), 1, (0, 0), folder)
    table = Table(game, on_action=recorder.record)
    table.start(0.0)
    deadline = table.next_deadline()
    assert deadline is not None
    table.advance(deadline)  # the flip: an action, but no card played
    recorder.close()
    return recorder.part


def test_a_round_being_played_is_listed_so_and_cut_short_once_its_game_is_gone(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = data / "replays"
    game = Game.deal(Rules(), random.Random(4))
    recorder = Recorder.start(game, 4, ("human", "human"), ("Ann", "Bo"), 1, (0, 0), folder)
    table = Table(game, (Sloppy(0, 4),), on_action=recorder.record)
    table.start(0.0)
    while not any(isinstance(action, Play) for action in load(recorder.part).actions):
        due = table.next_deadline()
        assert due is not None
        table.advance(due)
    (playing,) = summaries(folder)[0]
    assert playing.winner == "(being played)"
    code, out, _ = run(capsys, "replay", "--list")
    assert code == 0 and "(being played)" in out and "(cut short)" not in out
    recorder.close()  # the game has gone (a crash, a kill: its file is closed as well)
    (left,) = summaries(folder)[0]
    assert left.winner == "(cut short)"


def test_the_list_leaves_out_rounds_quit_before_the_first_play(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = data / "replays"
    played, _ = play_round(Rules.for_deck("jass"), 1, folder)
    empty = quit_before_the_first_play(folder, 3)
    assert empty.exists()
    code, out, _ = run(capsys, "replay", "--list")
    assert code == 0
    assert [line.split()[-1] for line in out.splitlines()] == [played.name]


@pytest.mark.parametrize("columns", [72, 80, 100])
def test_the_list_fits_the_terminals_width(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: int
) -> None:
    folder = data / "replays"
    crowded = Rules.for_deck(
        "doppelkopf", jokers=4, stacking=False, wrap=False, stress_stop=True, wins=9
    )
    files = [play_round(crowded, 1, folder)[0], play_round(Rules(), 2, folder)[0]]
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, _ = run(capsys, "replay", "--list")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    for line in lines:
        assert len(line) <= columns, line
        assert line.endswith(tuple(path.name for path in files))  # the name stays whole
    assert "Ann vs Bo" in lines[0] or columns >= 100
    # Without a terminal or COLUMNS (a script's pipe), every line is whole.
    monkeypatch.delenv("COLUMNS")
    whole = run(capsys, "replay", "--list")[1].splitlines()
    assert any("Ann (bot:easy) vs Bo (human)" in line and "to 9 wins" in line for line in whole)
