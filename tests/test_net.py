"""A host and its joiner and spectators on loopback, in one event loop, without screens."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from stress_tui.core.actions import Play, PlayTogether
from stress_tui.core.engine import Phase
from stress_tui.core.lifecycle import Hold, Stage
from stress_tui.core.notation import format_position
from stress_tui.core.rules import Rules
from stress_tui.core.view import STAND_IN, table_view
from stress_tui.net import client as client_module
from stress_tui.net import dial
from stress_tui.net.client import Client, JoinError
from stress_tui.net.door import MAX_PENDING_FROM, wrong_code_delay
from stress_tui.net.host import Host
from stress_tui.net.hosted import RESUME_COUNT, action_from_message
from stress_tui.net.protocol import MAX_PEER_LINE, PEER_MESSAGES, VERSION, decode, encode
from stress_tui.net.standing import JOINER_SEAT

DEADLINE = 10.0

SEED = 0
"""A match whose first flip leaves both players something to play."""


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), DEADLINE))


async def until(check: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    """Wait for ``check`` with a deadline (the loop runs meanwhile)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


async def both_ready(host: Host, joiner: Client) -> None:
    """A round waits for both players to say they are ready (the ready key, before it
    starts): the joiner says it, then the host."""
    await until(
        lambda: joiner.stage is Stage.READY and not joiner.holds,
        "the round to wait for its players",
    )
    joiner.ready()
    await until(lambda: host.life.waiting == (False, True), "the joiner's ready")
    host.ready()


async def seated(host: Host, **options: Any) -> Client:
    """A joiner (Bo) at ``host``'s table, the host started; both ready for the round."""
    _, port = await host.start()
    joiner = Client("127.0.0.1", port, host.code, "Bo", **options)
    await joiner.connect()
    await both_ready(host, joiner)
    return joiner


async def table(**options: Any) -> tuple[Host, Client]:
    host = Host(Rules(), "Ann", countdown=0.05, record=False, seed=SEED, **options)
    joiner = await seated(host, record=False)
    await until(lambda: joiner.table is not None and host.fair is not None, "the first view")
    await until(lambda: host.fair is not None and host.fair.game.phase is Phase.PLAYING, "flip")
    await until(
        lambda: joiner.table is not None and joiner.table.game.phase is Phase.PLAYING, "view"
    )
    return host, joiner


@pytest.fixture(autouse=True)
def _quick_retries(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(client_module, "RETRY_EVERY", 0.05)
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(tmp_path))


def test_a_card_the_joiner_plays_lands_on_both_tables() -> None:
    async def test() -> None:
        host, joiner = await table()
        assert joiner.table is not None
        plays = joiner.table.game.legal_plays(JOINER_SEAT)
        pile, target = plays[0]
        card = joiner.table.game.state.players[JOINER_SEAT].row[pile][-1]
        joiner.act("play", pile, target)
        assert host.fair is not None
        await until(lambda: host.fair is not None and host.fair.game.top(target) == card, "host")
        await until(lambda: joiner.table is not None and joiner.table.game.top(target) == card, "j")
        assert joiner.names == ("Bo", "Ann")
        await host.close()

    run(test)


def test_a_joiner_may_lay_cards_together() -> None:
    """001's Stapel across the network: the joiner's together play reaches the host's
    table as one action (``play-together``), like the key at one keyboard."""
    line = encode({"t": "act", "a": "play-together", "seq": 1, "pile": 2, "to": 1})
    message = decode(line, PEER_MESSAGES)
    assert action_from_message(message, JOINER_SEAT, 3.0) == PlayTogether(JOINER_SEAT, 2, 1, 3.0)
    plain = decode(encode({"t": "act", "a": "play", "seq": 2, "pile": 2, "to": 1}), PEER_MESSAGES)
    assert type(action_from_message(plain, JOINER_SEAT, 3.0)) is Play


def test_the_joiner_sees_no_draw_pile_and_no_card_under_a_top() -> None:
    async def test() -> None:
        host, joiner = await table()
        assert host.fair is not None and joiner.table is not None
        real, seen = host.fair.game.state, joiner.table.game.state
        assert table_view(seen) == table_view(real)  # all that shows, alike
        for side in seen.players:  # and behind it, nothing: stand-ins
            assert set(side.draw_pile) <= {STAND_IN}
        for pile in seen.play_piles:
            assert len(set(pile)) <= 1
        await host.close()

    run(test)


def test_a_spectator_sees_the_hosts_play() -> None:
    async def test() -> None:
        host, _joiner = await table()
        watcher = Client("127.0.0.1", host.port, host.code, role="watch", record=False)
        await watcher.connect()
        await until(lambda: watcher.table is not None, "the spectator's view")
        assert host.fair is not None
        plays = host.fair.game.legal_plays(1)
        pile, target = plays[0]
        host.act("play", pile, target)
        card = host.fair.game.top(target)
        await until(
            lambda: watcher.table is not None and watcher.table.game.top(target) == card, "w"
        )
        watcher.act("stress")  # a spectator's key does nothing
        await host.close()

    run(test)


def test_a_wrong_code_and_a_third_player_are_refused_and_the_host_plays_on() -> None:
    async def test() -> None:
        host, _joiner = await table()
        wrong = "otter-maple-drum-velvet" if host.code != "otter-maple-drum-velvet" else "a-b-c-d"
        with pytest.raises(JoinError, match="wrong join code"):
            await Client("127.0.0.1", host.port, wrong, "Cy").connect()
        with pytest.raises(JoinError, match="the table is full: Bo is playing"):
            await Client("127.0.0.1", host.port, host.code, "Cy").connect()
        assert host.life.stage is Stage.PLAYING and host.joiner is not None
        assert [refusal.tell() for refusal in host.door.refusals] == [
            "wrong join code",
            "the table is full: Bo is playing (stress-tui watch to watch)",
        ]
        await host.close()

    run(test)


def test_wrong_codes_wait_longer_and_longer_after_a_few() -> None:
    delays = [wrong_code_delay(n) for n in range(1, 9)]
    assert delays[:3] == [0.0, 0.0, 0.0]
    assert delays[3:] == [1.0, 2.0, 4.0, 8.0, 16.0]
    assert wrong_code_delay(100) == 30.0


def test_a_dropped_joiner_pauses_the_round_and_coming_back_resumes_it_exactly() -> None:
    async def test() -> None:
        host, joiner = await table()
        assert host.fair is not None
        before = format_position(host.fair.game.state)
        clock, since = host.now(), asyncio.get_running_loop().time()
        assert joiner.writer is not None
        joiner.writer.transport.abort()  # the line drops
        await until(lambda: host.life.held(Hold.DROPPED), "the host to notice")
        assert host.status_line() is not None
        assert host.status_line().startswith("waiting for Bo to come back, ")  # type: ignore[union-attr]
        await until(lambda: host.life.stage in (Stage.COUNT, Stage.PLAYING), "the joiner back")
        await until(lambda: host.life.stage is Stage.PLAYING, "the count to resume")
        assert format_position(host.fair.game.state) == before
        # The clock stood while Bo was away and during the count to go on.
        elapsed = asyncio.get_running_loop().time() - since
        assert host.now() - clock <= elapsed - RESUME_COUNT
        await until(lambda: joiner.stage is Stage.PLAYING, "the joiner's view")
        await host.close()

    run(test)


def test_a_joiner_who_quits_ends_the_match_with_their_name() -> None:
    async def test() -> None:
        host, joiner = await table()
        await joiner.leave()
        await until(lambda: host.life.stage is Stage.GONE, "the host to hear")
        assert host.status_line() == "Bo left"
        await host.close()

    run(test)


def test_the_host_leaving_is_said_on_the_joiners_side() -> None:
    async def test() -> None:
        host, joiner = await table()
        await host.leave()
        assert joiner.done is not None
        assert await asyncio.wait_for(joiner.done, 3) == "Ann left"

    run(test)


async def raw(port: int, *lines: bytes) -> list[dict[str, Any]]:
    """Send lines as they are; every message the host answers until it closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for line in lines:
        writer.write(line)
    answers = []
    while True:
        line = await asyncio.wait_for(reader.readline(), 3)
        if not line:
            break
        answers.append(json.loads(line))
    writer.close()
    return answers


def test_another_protocol_version_is_one_clear_line() -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", record=False)
        _, port = await host.start()
        hello = {"t": "hello", "v": 99, "app": "stress-tui", "role": "play", "name": "Bo"}
        answers = await raw(port, encode(hello))
        assert answers == [
            {
                "t": "refused",
                "reason": f"protocol version 99 meets version {VERSION}: "
                "both players need the same stress-tui version",
                "v": VERSION,
            }
        ]
        assert host.door.refusals[-1].tell() == answers[0]["reason"]
        await host.close()

    run(test)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"{not json\n", "not a message (broken JSON)"),
        (b"[1, 2]\n", "not a message (not a JSON object)"),
        (b'{"t": "fly"}\n', "unknown message type 'fly'"),
        (b'{"t": "hello", "v": 1, "app": "stress-tui"}\n', "hello: no 'role'"),
        (
            b'{"t": "hello", "v": 1, "app": "x", "role": "play", "more": 1}\n',
            "hello: unknown field 'more'",
        ),
        (b'{"t": "act", "a": "play", "seq": 1}\n', "a connection must begin with hello"),
        (b"x" * (MAX_PEER_LINE + 10) + b"\n", "a message too long"),
        (b'{"t": "hello", "v": NaN}\n', "not a number: NaN"),
    ],
)
def test_a_bad_first_message_is_refused_with_its_reason(line: bytes, reason: str) -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", record=False)
        _, port = await host.start()
        answers = await raw(port, line)
        assert answers == [{"t": "refused", "reason": reason}]
        await host.close()

    run(test)


def test_a_bad_name_is_refused() -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", record=False)
        _, port = await host.start()
        with pytest.raises(JoinError, match="has a character that cannot be shown") as raised:
            await Client("127.0.0.1", port, host.code, "Bo\x1b[2J").connect()
        assert "\x1b" not in str(raised.value)  # told, and harmless to print
        await host.close()

    run(test)


def test_a_joiner_who_breaks_the_protocol_mid_match_is_dropped_not_the_game() -> None:
    async def test() -> None:
        host, joiner = await table()
        assert joiner.writer is not None
        joiner.writer.write(b'{"t": "act", "a": "fly", "seq": 1}\n')
        await until(lambda: host.life.held(Hold.DROPPED), "the drop")
        assert host.message is not None and "'a' is not as it must be" in host.message.tell()
        host.act("stress")  # the host's game still takes keys (and ignores them: paused)
        await host.close()

    run(test)


def test_a_join_code_reads_aloud_and_is_typed_any_way() -> None:
    from stress_tui.net.protocol import WORDS, new_code, normalize_code

    code = new_code()
    words = code.split("-")
    assert len(words) == 4 and all(w in WORDS for w in words)
    assert normalize_code(code.upper().replace("-", " ")) == code
    with pytest.raises(ValueError, match="a join code is 4 words"):
        normalize_code("otter maple")
    with pytest.raises(ValueError, match="'zzz' is not one of the join code's words"):
        normalize_code("otter maple drum zzz")


def test_the_code_itself_never_goes_over_the_wire() -> None:
    """Everything the joiner sends while joining, read back: no word of the code in it."""

    async def test() -> None:
        host = Host(Rules(), "Ann", record=False, seed=SEED)
        _, port = await host.start()
        sent: list[bytes] = []
        joiner = Client("127.0.0.1", port, host.code, "Bo", record=False)
        real = asyncio.StreamWriter.write

        def spy(self: asyncio.StreamWriter, data: bytes | bytearray | memoryview) -> None:
            sent.append(bytes(data))
            real(self, data)

        asyncio.StreamWriter.write = spy  # type: ignore[method-assign]
        try:
            await joiner.connect()
        finally:
            asyncio.StreamWriter.write = real  # type: ignore[method-assign]
        wire = b"".join(sent)
        assert wire
        for word in host.code.split("-"):
            assert word.encode() not in wire
        await host.close()

    run(test)


def test_both_sides_write_a_replay_that_verifies_and_count_the_round(tmp_path: Path) -> None:
    from stress_tui.storage import replay as replays
    from stress_tui.storage import verify as checks
    from stress_tui.storage.record import Record

    async def test() -> None:
        host = Host(Rules.for_deck("standard", wins=1), "Ann", countdown=0.02, seed=SEED)
        joiner = await seated(host)
        loop = asyncio.get_running_loop()
        end = loop.time() + 8
        while host.life.stage is not Stage.RESULT and loop.time() < end:
            await asyncio.sleep(0.01)
            if host.life.stage is not Stage.PLAYING or host.fair is None or joiner.table is None:
                continue
            game = host.fair.game
            if game.phase is Phase.STRESS:
                host.act("stress")
            mine = game.legal_plays(1)
            if mine:
                host.act("play", *mine[0])
            else:
                host.act("ready")
            theirs = joiner.table.game.legal_plays(0)
            if theirs:
                joiner.act("play", *theirs[0])
            else:
                joiner.act("ready")
        assert host.life.stage is Stage.RESULT
        await until(lambda: joiner.result is not None, "the joiner's replay")
        assert host.result is not None and joiner.result is not None
        assert host.result.replay and joiner.result.replay
        assert host.result.replay != joiner.result.replay  # one file each
        ours, other = (
            replays.load(Path(host.result.replay)),
            replays.load(Path(joiner.result.replay)),
        )
        assert checks.verify(ours).ok and checks.verify(other).ok
        assert ours.actions == other.actions and ours.end == other.end
        assert ours.header["names"] == ["Bo", "Ann"]
        record = Record.load()
        winner = host.result_winner
        assert winner is not None
        won = record.standing(("Bo", "Ann")[winner], ours.header["rules"])
        assert won.matches_won == 2  # the host's side and the joiner's side each counted it
        # A network round rates both people, through the same count as one keyboard's.
        assert len(record.ratings["Ann"].history) == len(record.ratings["Bo"].history) == 2
        assert record.ratings[("Bo", "Ann")[winner]].rating.rating > 1500
        for notes in (host.result.notes, joiner.result.notes):
            assert any(
                note.startswith("your record's rating: Bo ") and ", Ann " in note for note in notes
            )
        await host.close()

    run(test)


def test_a_joiner_away_past_the_minute_ends_the_match_unscored_the_replay_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from stress_tui.net import hosted
    from stress_tui.storage import replay as replays

    monkeypatch.setattr(hosted, "REJOIN_SECONDS", 0.3)
    monkeypatch.setattr(client_module, "RETRY_FOR", 0.0)  # the joiner gives up at once

    async def test() -> None:
        host = Host(Rules(), "Ann", countdown=0.05, seed=SEED)
        joiner = await seated(host, record=False)
        port = host.port
        await until(lambda: host.fair is not None and host.fair.game.phase is Phase.PLAYING, "")
        assert joiner.writer is not None
        joiner.writer.transport.abort()
        await until(lambda: host.life.stage is Stage.GONE, "the minute to pass")
        assert host.status_line() == "Bo did not come back: the match ends unscored"
        assert host.result is not None and host.result.replay is not None
        kept = replays.load(Path(host.result.replay))
        assert kept.end is None and kept.actions  # cut short, what was played is there
        with pytest.raises(JoinError, match="the match is over"):
            await Client("127.0.0.1", port, host.code, "Bo", record=False).connect()
        await host.close()

    run(test)


def _wrong_code(host: Host) -> str:
    return "otter-maple-drum-velvet" if host.code != "otter-maple-drum-velvet" else "a-b-c-d"


async def wrong_code_from(port: int, address: str) -> tuple[dict[str, Any], asyncio.StreamWriter]:
    """A connection from ``address`` (any of 127.0.0.0/8) that proves a made-up code, and
    keeps the connection open: what the host answers (``refused``), and the connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    hello = {"t": "hello", "v": VERSION, "app": "stress-tui", "role": "play", "name": "Eve"}
    writer.write(encode(hello))
    answer = json.loads(await asyncio.wait_for(reader.readline(), 3))
    if answer["t"] == "challenge":
        writer.write(encode({"t": "auth", "nonce": "0" * 32, "proof": "0" * 64}))
        answer = json.loads(await asyncio.wait_for(reader.readline(), 3))
    return answer, writer


def test_after_three_wrong_codes_an_address_waits_before_it_may_try_again() -> None:
    """Each wrong code is answered at once; after three, the address that sent it may not
    try again for a while (1 s, 2 s, ...), refused at once without a challenge."""

    async def test() -> None:
        host = Host(Rules(), "Ann", record=False)
        _, port = await host.start()
        wrong = _wrong_code(host)
        loop = asyncio.get_running_loop()
        for _ in range(3):
            with pytest.raises(JoinError, match=r"wrong join code$"):
                await Client("127.0.0.1", port, wrong, "Eve").connect()
        start = loop.time()
        with pytest.raises(
            JoinError, match=r"wrong join code \(the next try from your address in 1 s\)"
        ):
            await Client("127.0.0.1", port, wrong, "Eve").connect()
        assert loop.time() - start < 0.9  # answered at once
        with pytest.raises(
            JoinError, match="too many wrong codes from your address: try again in 1 s"
        ):
            await Client("127.0.0.1", port, host.code, "Bo").connect()  # even the right code
        assert host.door.pending == 0
        barred = host.door.sources["127.0.0.1"].barred_until
        assert 1.0 <= barred - start < 2.0
        await until(lambda: loop.time() > barred, "the second to pass", timeout=3)
        joiner = Client("127.0.0.1", port, host.code, "Bo", record=False)
        await joiner.connect()
        assert host.joiner is not None
        await host.close()

    run(test)


def test_wrong_codes_that_keep_waiting_do_not_keep_a_real_joiner_out() -> None:
    """Many wrong codes from one address, each sender keeping its connection open: none
    holds a place for proving a code, and a joiner from another address gets in at once."""

    async def test() -> None:
        host = Host(Rules(), "Ann", record=False, seed=SEED)
        _, port = await host.start()
        tries = [await wrong_code_from(port, "127.0.0.2") for _ in range(8)]
        reasons = [answer.get("reason", "") for answer, _ in tries]
        assert reasons[:4] == ["wrong join code"] * 3 + [
            "wrong join code (the next try from your address in 1 s)"
        ]
        assert all(r.startswith("too many wrong codes from your address") for r in reasons[4:])
        # Their senders wait with their connections open; they hold no place.
        assert host.door.pending == 0
        held = [
            await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
            for _ in range(4)
        ]
        loop = asyncio.get_running_loop()
        start = loop.time()
        joiner = Client("127.0.0.1", port, host.code, "Bo", record=False)
        await joiner.connect()
        assert loop.time() - start < 2.0 and host.joiner is not None
        for _, writer in [*held, *tries]:
            writer.close()
        await host.close()

    run(test)


def test_one_address_cannot_take_every_place_for_proving_a_code() -> None:
    async def test() -> None:
        host = Host(Rules(), "Ann", record=False, seed=SEED)
        _, port = await host.start()
        idle = [
            await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
            for _ in range(MAX_PENDING_FROM)
        ]
        await until(lambda: host.door.pending == MAX_PENDING_FROM, "the idle connections")
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=("127.0.0.2", 0)
        )
        line = await asyncio.wait_for(reader.readline(), 3)
        assert json.loads(line)["reason"] == "busy: too many connections from your address at once"
        joiner = Client("127.0.0.1", port, host.code, "Bo", record=False)
        await joiner.connect()  # from another address: in
        assert host.joiner is not None
        for _, w in [*idle, (reader, writer)]:
            w.close()
        await host.close()

    run(test)


def test_an_idle_joiner_is_told_of_a_ping_only_when_the_delay_shown_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The screen is drawn again for a ping only when the delay's figure (to the
    millisecond) changes: an idle table costs a ping and its answer, not a frame."""
    from stress_tui.net import host as host_module
    from stress_tui.net.protocol import shown_ms

    monkeypatch.setattr(host_module, "PING_EVERY", 0.05)

    async def test() -> None:
        host, joiner = await table()
        await until(lambda: host.joiner is not None and host.joiner.quick == 0, "quick pings")
        seen: list[int | None] = [shown_ms(joiner.shown_delay())]
        joiner.on_change = lambda events: seen.append(shown_ms(joiner.shown_delay()))
        assert host.joiner is not None
        pinged = host.joiner.next_ping
        await until(lambda: host.joiner is not None and host.joiner.next_ping >= pinged + 12, "")
        # Every call came with a figure other than the one before it (none for a ping alone).
        assert all(a != b for a, b in itertools.pairwise(seen)), seen
        assert len(seen) - 1 < 12
        await host.close()

    run(test)


def test_a_host_whose_machine_went_silent_is_taken_for_gone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host's machine that vanishes without closing its connections (no FIN, no RST):
    the joiner hears not even a ping, takes the connection for lost after ``SILENT_LIMIT``
    and tries to reach the host again; once its time for that is up (however long each
    try hangs on a machine that does not answer), it says the match ends unscored. So
    does a spectator."""
    monkeypatch.setattr(client_module, "SILENT_LIMIT", 0.5)
    monkeypatch.setattr(client_module, "RETRY_FOR", 1.0)
    monkeypatch.setattr(dial, "HANDSHAKE_SECONDS", 0.4)

    async def test() -> None:
        loop = asyncio.get_running_loop()
        host, joiner = await table()
        watcher = Client("127.0.0.1", host.port, host.code, role="watch", record=False)
        await watcher.connect()
        await until(lambda: watcher.table is not None, "the spectator's view")
        assert host.pinger is not None and host.server is not None
        # The host's machine goes: not a word more, and nothing closes a connection...
        host.pinger.cancel()
        host.server.close()
        await host.server.wait_closed()
        went = loop.time()
        # ...and whatever answers at its address takes a connection and says nothing.
        held: list[asyncio.StreamWriter] = []

        async def hold(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            held.append(writer)

        silent = await asyncio.start_server(hold, "127.0.0.1", host.port)
        await until(lambda: joiner.lost and watcher.lost, "both to take the host for lost")
        assert joiner.silent and watcher.silent  # no connection closed: they heard nothing
        ends = (
            (joiner, "the host did not come back: the match ends unscored"),
            (watcher, "the host could not be reached again"),
        )
        for client, said in ends:
            assert client.done is not None
            reason = await asyncio.wait_for(client.done, 3)
            assert reason == said
            assert client.stage is Stage.GONE
        assert loop.time() - went < 0.5 + 1.0 + 1.0  # silence, the time to try, one try
        silent.close()
        for writer in held:
            writer.close()
        await host.close()

    run(test)
