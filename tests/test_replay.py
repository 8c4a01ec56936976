"""Replays: a recorded round plays back to the same events under every deck and house
rule, verify catches tampering, and a crash never leaves a half-written file."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stress_tui.core.actions import Action, CallStress, Play, PlayTogether, ReadyToFlip
from stress_tui.core.engine import RULES_VERSION, Game, Phase
from stress_tui.core.events import (
    Event,
    FalseStressCalled,
    Played,
    Rejected,
    RejectReason,
    StressStopped,
    StressWon,
)
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.core.view import PlayerView
from stress_tui.storage.files import StorageError
from stress_tui.storage.listing import summaries
from stress_tui.storage.record import Record
from stress_tui.storage.recorder import Recorder
from stress_tui.storage.replay import load
from stress_tui.storage.verify import DIGEST, digest_matches, events_digest, play_back, verify

FIXTURES = Path(__file__).parent / "fixtures"


class FirstPlay:
    """A plain computer player: its first legal play after a fixed delay."""

    def __init__(self, player: int, delay: float) -> None:
        self.player = player
        self.delay = delay

    def decide(self, view: PlayerView) -> Action | None:
        me, table = view.me, view.table
        at = table.time + self.delay
        if table.phase is Phase.STRESS:
            return CallStress(self.player, at)
        if table.phase is not Phase.PLAYING:
            return None
        plays = table.legal_plays(self.player)
        if plays:
            # With the together rule (001's Stapel) it lays every card of the rank at once.
            kind = PlayTogether if table.rules.together else Play
            return kind(self.player, *plays[0], max(at, me.locked_until))
        return None if me.ready else ReadyToFlip(self.player, at)


def record_round(rules: Rules, seed: int, folder: Path) -> tuple[Path, list[Event]]:
    """Play a round between two plain players, recording it; return file and events."""
    game = Game.deal(rules, random.Random(seed))
    recorder = Recorder.start(game, seed, ("bot", "bot"), ("A", "B"), 1, (0, 0), folder)
    events: list[Event] = []

    def keep(action: Action, happened: list[Event]) -> None:
        recorder.record(action, happened)
        events.extend(happened)

    table = Table(game, (FirstPlay(0, 0.31), FirstPlay(1, 0.37)), on_action=keep)
    table.start(0.0)
    while game.state.phase is not Phase.ROUND_OVER and table.actions < 5000:
        deadline = table.next_deadline()
        assert deadline is not None
        table.advance(deadline)
    assert game.state.phase is Phase.ROUND_OVER
    return recorder.finish(game), events


RULE_SETS = [
    Rules.for_deck("standard"),
    Rules.for_deck("standard", jokers=2, stacking=False, stress_penalty="one"),
    Rules.for_deck("standard", wrap=False, false_stress="lockout", deal="each"),
    Rules.for_deck("jass"),
    Rules.for_deck("skat", stress_penalty="give"),
    Rules.for_deck("doppelkopf", jokers=1, false_stress="ignore"),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: str(rules.changes() or "default"))
def test_a_recorded_round_replays_to_the_identical_events(rules: Rules, tmp_path: Path) -> None:
    path, events = record_round(rules, seed=7, folder=tmp_path)
    replay = load(path)
    game, replayed = play_back(replay)
    assert replayed == events
    assert game.state.winner is not None
    assert verify(replay).ok


def test_cards_laid_together_are_recorded_as_such_and_replay(tmp_path: Path) -> None:
    """Skat lays ready cards of one rank together by default (001, Stapel)."""
    rules = Rules.for_deck("skat", flip_ready="both", taken="under")  # as seed 7 was recorded
    path, events = record_round(rules, seed=7, folder=tmp_path)
    assert '"a":"play-together"' in path.read_text()
    assert sum(isinstance(e, Played) for e in events) > sum(
        '"a":"play' in line for line in path.read_text().splitlines()
    ), "some action laid more than one pile"
    _, replayed = play_back(load(path))
    assert replayed == events


def test_verify_detects_a_tampered_file(tmp_path: Path) -> None:
    path, _ = record_round(Rules.for_deck("standard"), seed=3, folder=tmp_path)
    lines = path.read_text().splitlines()
    plays = [i for i, line in enumerate(lines) if '"a":"play"' in line]
    index = plays[len(plays) // 2]
    action = json.loads(lines[index])
    action["to"] = 1 - action["to"]
    lines[index] = json.dumps(action)
    path.write_text("\n".join(lines) + "\n")
    verdict = verify(load(path))
    assert not verdict.ok
    assert "differ" in verdict.message


def test_the_digest_is_of_the_events_canonical_json_not_their_repr(tmp_path: Path) -> None:
    path, events = record_round(Rules.for_deck("standard", jokers=2), seed=5, folder=tmp_path)
    end = load(path).end
    assert end is not None and end["digest"] == events_digest(events)
    assert end["digest"].startswith(DIGEST)
    # A class renamed (its repr changes) and a reason reworded: the digest stays.
    reason = RejectReason.LOST_RACE
    words = reason.value
    try:
        Played.__name__ = Played.__qualname__ = "CardPlayed"
        reason._value_ = "slower"
        assert "CardPlayed(" in repr(next(e for e in events if isinstance(e, Played)))
        assert events_digest(events) == end["digest"]
        assert verify(load(path)).ok
    finally:
        Played.__name__ = Played.__qualname__ = "Played"
        reason._value_ = words


OLD_REPLAY = FIXTURES / "replays" / "before-canonical-digest.jsonl"
"""Written by the code before the canonical digest (its digest is of each event's
``repr``): a round of easy against expert with jokers, the stress stop and false calls,
fifteen kinds of event."""


def test_a_replay_written_before_the_canonical_digest_still_verifies() -> None:
    replay = load(OLD_REPLAY)
    assert replay.end is not None and not replay.end["digest"].startswith(DIGEST)
    assert verify(replay).ok
    _, events = play_back(replay)
    kinds = {type(event) for event in events}
    assert {Played, Rejected, StressWon, StressStopped, FalseStressCalled} <= kinds
    assert not digest_matches(replay.end["digest"], events[:-1])  # the old form can fail too


def test_an_old_replay_whose_events_differ_fails_to_verify(tmp_path: Path) -> None:
    lines = OLD_REPLAY.read_text().splitlines()
    first_play = next(i for i, line in enumerate(lines) if '"a":"play"' in line)
    action = json.loads(lines[first_play])
    action["t"] += 0.001  # the same play, a millisecond later: its event says so
    lines[first_play] = json.dumps(action)
    doctored = tmp_path / OLD_REPLAY.name
    doctored.write_text("\n".join(lines) + "\n")
    verdict = verify(load(doctored))
    assert not verdict.ok and "events differ" in verdict.message


def test_a_torn_last_line_loses_only_that_action(tmp_path: Path) -> None:
    path, _ = record_round(Rules.for_deck("standard"), seed=4, folder=tmp_path)
    whole = load(path)
    lines = path.read_bytes().split(b"\n")[:-2]  # drop the end line
    path.write_bytes(b"\n".join(lines) + b"\n" + b'{"t":9.5,"a":"pl')
    cut = load(path)
    assert cut.end is None
    assert cut.actions == whole.actions
    assert not verify(cut).ok


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"hello\n",
        b'{"format":"other"}\n',
        b'{"format":"stress-tui replay","version":1,'
        b'"seed":1,"rules":"standard"}\n{"a":"dance","t":1}\n',
    ],
)
def test_a_foreign_or_broken_replay_is_one_line_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    with pytest.raises(StorageError) as caught:
        load(path)
    assert "\n" not in str(caught.value)
    assert path.read_bytes() == content


def test_the_list_shows_recent_rounds_newest_first(tmp_path: Path) -> None:
    first, _ = record_round(Rules.for_deck("standard"), seed=1, folder=tmp_path)
    second, _ = record_round(Rules.for_deck("jass"), seed=2, folder=tmp_path)
    (tmp_path / "junk.jsonl").write_text("junk\n")
    found, problems = summaries(tmp_path)
    assert [s.path for s in found] == [second, first]
    assert found[0].rules == "jass"
    assert found[0].winner in ("A", "B")
    assert len(problems) == 1 and "junk.jsonl" in problems[0]


def _wait(predicate: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.001)


@pytest.mark.parametrize("kill_after_lines", [3, 40, 200, 700, 1500])
def test_files_are_never_half_written_when_the_program_is_killed(
    tmp_path: Path, kill_after_lines: int
) -> None:
    child = subprocess.Popen([sys.executable, str(FIXTURES / "writer.py"), str(tmp_path)])
    replays = tmp_path / "replays"

    def lines_written() -> int:
        total = 0
        for path in replays.iterdir() if replays.is_dir() else ():
            with contextlib.suppress(FileNotFoundError):  # renamed from .part meanwhile
                total += path.read_bytes().count(b"\n")
        return total

    try:
        _wait(lambda: lines_written() >= kill_after_lines)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    for path in replays.iterdir():
        if path.name.startswith("."):
            continue  # a hidden temporary file a kill left mid-write; nothing reads it
        replay = load(path)  # every replay reads, torn last line or not
        assert replay.actions or replay.end is None
        if path.name.endswith(".jsonl"):
            assert verify(replay).ok
    # Every round the writer finished is counted, but for the last when the kill came
    # between its replay and its count: SQLite rolls back a transaction a kill cut short.
    finished = len([p for p in replays.iterdir() if p.name.endswith(".jsonl")])
    counted = Record.load(tmp_path / "record.sqlite").standing("A", "standard")
    assert counted.rounds_won + counted.rounds_lost in (finished - 1, finished)
    # A kill during a write may leave SQLite's journal, which the next open rolls back;
    # never a file under another name.
    for path in tmp_path.iterdir():
        assert path.name in ("record.sqlite", "record.sqlite-journal", "replays"), path


def test_a_replay_written_under_the_first_rules_verifies_by_its_events() -> None:
    # Written by the code of 75261d1 (rules version 1, no "engine" in its header). Its final
    # position lacks words the notation has gained since (each player's fewest), so the
    # events are what is compared: today's rules play this standard round the same.
    replay = load(FIXTURES / "replays" / "rules-version-1-standard.jsonl")
    assert "engine" not in replay.header and replay.engine == 1
    verdict = verify(replay)
    assert verdict.ok, verdict.message
    assert "played under rules version 1" in verdict.message


def test_a_replay_the_rules_now_play_differently_says_so() -> None:
    # A Jass round of rules version 1, when Jass still stacked equal ranks in the row: the
    # same actions no longer give the same round, and the verdict says why, not "differs".
    verdict = verify(load(FIXTURES / "replays" / "rules-version-1-jass.jsonl"))
    assert not verdict.ok
    assert "the events differ" in verdict.message
    assert f"today's rules (version {RULES_VERSION}) play these actions differently" in (
        verdict.message
    )


def test_a_replay_from_newer_rules_is_not_judged(tmp_path: Path) -> None:
    lines = OLD_REPLAY.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["engine"] = RULES_VERSION + 1
    newer = tmp_path / "newer.jsonl"
    newer.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    verdict = verify(load(newer))
    assert not verdict.ok and "newer than this program's" in verdict.message


def test_a_new_replay_records_the_rules_version(tmp_path: Path) -> None:
    game = Game.deal(Rules.for_deck("standard"), random.Random(3))
    recorder = Recorder.start(game, 3, ("human", "human"), ("A", "B"), 1, (0, 0), folder=tmp_path)
    recorder.finish(game)
    assert load(recorder.path).engine == RULES_VERSION
