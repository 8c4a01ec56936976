"""The joiner's replay across a network: sealed while the round is played (the host's
commitment to the seed, the actions as the host applied them), completed when the seed is
revealed, kept sealed when it never is. One loop, loopback, no screens."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from stress_tui.core.actions import Play
from stress_tui.core.engine import Game, Phase
from stress_tui.core.lifecycle import Stage
from stress_tui.core.rules import Rules
from stress_tui.net import client as client_module
from stress_tui.net import host as host_module
from stress_tui.net import hosted
from stress_tui.net.client import Client, JoinError
from stress_tui.net.host import Host
from stress_tui.net.records import Journal
from stress_tui.net.standing import HOST_SEAT, JOINER_SEAT
from stress_tui.storage import listing
from stress_tui.storage import replay as replays
from stress_tui.storage import verify as checks
from stress_tui.storage.files import StorageError
from tests.test_net import SEED, run, seated, until


@pytest.fixture(autouse=True)
def _data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(client_module, "RETRY_EVERY", 0.05)
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(tmp_path))


def _wire_spy(sent: list[bytes]) -> Any:
    """Everything written to any stream from now on, into ``sent``; returns the undo."""
    real = asyncio.StreamWriter.write

    def spy(self: asyncio.StreamWriter, data: bytes | bytearray | memoryview) -> None:
        sent.append(bytes(data))
        real(self, data)

    asyncio.StreamWriter.write = spy  # type: ignore[method-assign]

    def undo() -> None:
        asyncio.StreamWriter.write = real  # type: ignore[method-assign]

    return undo


async def _seated(record_joiner: bool = True) -> tuple[Host, Client]:
    host = Host(Rules(), "Ann", countdown=0.05, seed=SEED)
    joiner = await seated(host, record=record_joiner)
    await until(lambda: host.fair is not None and host.fair.game.phase is Phase.PLAYING, "flip")
    return host, joiner


async def _play_a_little(host: Host, joiner: Client) -> None:
    """A card from each side, and wait until the joiner holds every action the host did."""
    assert host.fair is not None and joiner.table is not None
    await until(lambda: joiner.table is not None and joiner.table.game.phase is Phase.PLAYING, "")
    plays = host.fair.game.legal_plays(HOST_SEAT)
    if plays:
        host.act("play", *plays[0])
    theirs = joiner.table.game.legal_plays(JOINER_SEAT)
    if theirs:
        joiner.act("play", *theirs[0])
    await until(lambda: len(host.fair.actions()) >= 2, "two actions")  # type: ignore[union-attr]
    await _caught_up(host, joiner)


async def _caught_up(host: Host, joiner: Client) -> None:
    """Wait until the joiner's journal holds every action the host has applied, in order."""
    await until(
        lambda: (
            joiner.journal is not None
            and host.fair is not None
            and joiner.journal.actions == host.fair.actions()
        ),
        "the joiner's copy of the actions",
    )


def _vanish(host: Host) -> None:
    """The host's program dies: every connection cut, nothing said, nothing revealed."""
    assert host.server is not None and host.pinger is not None
    host.server.close()
    host.pinger.cancel()
    for writer in list(host.door.connections):
        writer.transport.abort()


def test_a_host_that_vanishes_mid_round_leaves_the_joiner_a_sealed_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(client_module, "RETRY_FOR", 0.2)

    async def test() -> None:
        sent: list[bytes] = []
        undo = _wire_spy(sent)
        try:
            host, joiner = await _seated()
            await _play_a_little(host, joiner)
        finally:
            undo()
        assert host.fair is not None and host.dealt.seed is not None
        played = host.fair.actions()
        _vanish(host)
        assert joiner.done is not None
        reason = await asyncio.wait_for(joiner.done, 3)
        assert reason.startswith("the host did not come back: the match ends unscored")
        assert "what was played, sealed: " in reason
        # Nothing the host sent while the round was on gives its seed or the salt away.
        wire = b"".join(sent)
        assert str(host.dealt.seed).encode() not in wire
        assert host.dealt.salt.hex().encode() not in wire
        # The joiner's sealed replay: listed, read, every action the host applied.
        found, problems = listing.summaries()
        assert problems == []
        [sealed] = [s for s in found if s.winner == "(sealed)"]
        assert sealed.path.name in reason and sealed.path.name.endswith(".jsonl.part")
        kept = replays.load(sealed.path)
        assert kept.sealed and kept.actions == played
        assert kept.header["commit"] == host.dealt.commit and "seed" not in kept.header
        assert kept.header["names"] == ["Bo", "Ann"]
        assert str(host.dealt.seed) not in sealed.path.read_text()
        verdict = checks.verify(kept)
        assert not verdict.ok
        assert "sealed: the host never revealed the round's seed" in verdict.message
        assert f"what the {len(played)} actions did cannot be checked" in verdict.message
        with pytest.raises(StorageError, match="sealed"):
            kept.new_game()
        await host.close()

    run(test)


def test_a_joiner_back_after_the_match_ended_unscored_gets_the_seed_and_its_replay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hosted, "REJOIN_SECONDS", 0.3)
    monkeypatch.setattr(client_module, "RETRY_FOR", 0.0)  # the joiner's program gives up

    async def test() -> None:
        host, joiner = await _seated()
        await _play_a_little(host, joiner)
        assert joiner.writer is not None and joiner.journal is not None
        sealed = joiner.journal.path
        assert sealed is not None
        joiner.writer.transport.abort()
        await until(lambda: host.life.stage is Stage.GONE, "the minute to pass")
        assert joiner.done is not None and joiner.done.done()
        assert replays.load(sealed).sealed
        # A new join with the code, later: refused, but the seed of the round cut short
        # comes first, and the sealed replay becomes an ordinary one (still cut short).
        with pytest.raises(JoinError, match="the match is over") as refused:
            await Client("127.0.0.1", host.port, host.code, "Bo").connect()
        assert "the round it cut short is kept: replay of what was played:" in str(refused.value)
        assert not sealed.exists()
        found, _ = listing.summaries()
        assert [s.winner for s in found] == ["(cut short)", "(cut short)"]  # host's, joiner's
        mine = [replays.load(s.path) for s in found if s.path.name in str(refused.value)]
        assert len(mine) == 1 and not mine[0].sealed
        assert mine[0].seed == host.dealt.seed
        assert mine[0].header["commit"] == host.dealt.commit
        assert mine[0].actions == host.fair.actions()  # type: ignore[union-attr]
        assert "cut short" in checks.verify(mine[0]).message
        await host.close()

    run(test)


def test_a_joiner_who_leaves_mid_round_hears_the_seed_before_it_goes() -> None:
    async def test() -> None:
        host, joiner = await _seated()
        await _play_a_little(host, joiner)
        host.pause()
        await until(lambda: joiner.stage is Stage.PAUSED, "the pause")
        await joiner.leave()
        assert joiner.journal is None and joiner.result is not None
        assert joiner.result.replay is not None and joiner.result.replay.endswith(".part")
        kept = replays.load(Path(joiner.result.replay))
        assert kept.seed == host.dealt.seed and kept.end is None
        assert list(replays.replay_dir().glob("*.part")) != []
        assert all(not replays.load(p).sealed for p in replays.replay_dir().glob("*.part"))
        await until(lambda: host.life.stage is Stage.GONE, "the host to hear")
        assert host.status_line() == "Bo left"
        await host.close()

    run(test)


@pytest.mark.parametrize("round_trip", [None, 0.02], ids=["as-measured", "loaded-machine"])
def test_an_action_taken_back_is_taken_back_in_the_joiners_replay_too(
    round_trip: float | None,
) -> None:
    """``round_trip``: the joiner's round trips as a loaded machine measures them (its
    process waits for a core between a ping and its answer), so that the joiner's card in
    ``_play_a_little`` is dated before the host's, or before the flip, and taken back
    already: what this test takes back is counted from there."""

    async def test() -> None:
        host, joiner = await _seated()
        if round_trip is not None:
            assert host.joiner is not None
            host.joiner.rtts.extend([round_trip] * host_module.DELAY_SAMPLES)
        await _play_a_little(host, joiner)
        assert host.fair is not None and joiner.journal is not None
        before = len(host.fair.actions())
        rebuilt = host.fair.rebuilds
        # A joiner's action dated before the last applied: the round is played again with it
        # in its place, and the joiner is sent the actions from the first that moved.
        earlier = host.fair.actions()[-1].time - 0.01
        host._apply(Play(JOINER_SEAT, 0, 0, earlier))
        assert host.fair.rebuilds == rebuilt + 1
        await _caught_up(host, joiner)
        assert len(host.fair.actions()) > before
        path = joiner.journal.path
        assert path is not None and replays.load(path).actions == host.fair.actions()
        await host.close()

    run(test)


def test_both_finished_replays_carry_the_commitment_and_verify_it(tmp_path: Path) -> None:
    """A journal written sealed, then revealed: the replay header holds the commitment and
    its salt, and verify checks the seed against it (a changed seed is caught)."""
    rules = Rules()
    seed, salt = 12345, bytes(range(16))
    commit = replays.commitment(seed, salt)
    journal = Journal(rules, commit, ("Bo", "Ann"), 1, (0, 0))
    game = Game.deal(rules, random.Random(seed))
    journal.update(0, [])
    assert journal.path is not None and replays.load(journal.path).sealed
    with pytest.raises(ValueError, match="not the one committed to"):
        journal.reveal(seed + 1, salt, record=True, count=False)
    files = journal.reveal(seed, salt, record=True, count=False)
    assert files.replay is not None and not journal.path.exists()
    kept = replays.load(Path(files.replay))
    assert kept.header["salt"] == salt.hex() and kept.seed == seed
    assert game.rules == kept.new_game().rules
    text = Path(files.replay).read_text().replace(f'"seed":{seed}', f'"seed":{seed + 1}')
    changed = tmp_path / "changed.jsonl.part"
    changed.write_text(text)
    verdict = checks.verify(replays.load(changed))
    assert verdict.message.endswith("the seed is not the one the host committed to at the deal")


def test_a_journal_written_again_after_a_take_back_keeps_the_new_order() -> None:
    journal = Journal(Rules(), replays.commitment(1, bytes(16)), ("Bo", "Ann"), 1, (0, 0))
    a, b, c, d = (Play(0, 0, 0, t) for t in (1.0, 2.0, 3.0, 2.5))
    journal.update(0, [a, b, c])
    journal.update(2, [d, c])  # c taken back, d before it
    journal.update(4, [Play(1, 1, 1, 4.0)])
    assert journal.path is not None
    assert replays.load(journal.path).actions == [a, b, d, c, Play(1, 1, 1, 4.0)]
    with pytest.raises(ValueError, match="beyond"):
        journal.update(9, [a])


def test_the_commands_say_what_a_sealed_replay_is(capsys: pytest.CaptureFixture[str]) -> None:
    from stress_tui.cli.main import main

    journal = Journal(Rules(), replays.commitment(1, bytes(16)), ("Bo", "Ann"), 1, (0, 0))
    journal.update(0, [Play(0, 0, 0, 1.5), Play(1, 2, 1, 2.25)])
    journal.close()
    assert journal.path is not None
    assert main(["replay", "--verify", str(journal.path)]) == 1
    said = capsys.readouterr().out
    assert "sealed: the host never revealed the round's seed" in said
    assert "so what the 2 actions did cannot be checked" in said
    assert "in time order, to 2.2 s" in said
    assert main(["replay", str(journal.path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sealed" in err and "cannot be played back" in err
    assert main(["replay", "--list"]) == 0
    assert "(sealed)" in capsys.readouterr().out


def test_a_joiner_back_on_the_result_screen_keeps_and_counts_the_round_once() -> None:
    """The connection drops as the result shows: reaching the host again, the joiner is
    sent the round's deal, actions and seed again, and neither writes its replay nor
    counts it a second time."""
    from stress_tui.storage.record import Record

    async def test() -> None:
        host = Host(Rules.for_deck("standard", wins=1), "Ann", countdown=0.02, seed=SEED)
        joiner = await seated(host)
        loop = asyncio.get_running_loop()
        end = loop.time() + 20
        while host.life.stage is not Stage.RESULT and loop.time() < end:
            await asyncio.sleep(0.03)  # a quick person's pace, below the rate limit
            if host.life.stage is not Stage.PLAYING or host.fair is None or joiner.table is None:
                continue
            game = host.fair.game
            if game.phase is Phase.STRESS:
                host.act("stress")
            mine = game.legal_plays(HOST_SEAT)
            if mine:
                host.act("play", *mine[0])
            else:
                host.act("ready")
            theirs = joiner.table.game.legal_plays(JOINER_SEAT)
            if theirs:
                joiner.act("play", *theirs[0])
            else:
                joiner.act("ready")
        await until(lambda: joiner.result is not None, "the joiner's replay")
        kept = joiner.result
        rated = {name: len(r.history) for name, r in Record.load().ratings.items()}
        files = len(listing.summaries()[0])
        assert joiner.writer is not None
        joiner.writer.transport.abort()
        await until(lambda: joiner.lost, "the drop")
        # The state that shows the result again comes after the deal, actions and seed.
        await until(lambda: joiner.stage is Stage.RESULT, "the result again", 10)
        assert joiner.result is kept
        assert {name: len(r.history) for name, r in Record.load().ratings.items()} == rated
        assert len(listing.summaries()[0]) == files
        await host.close()

    run(test)
