"""The SSH server's tables for two in one event loop (``terminal/tables.py``): each seat's
keys dated at their arrival less half that seat's SSH round trip, at most the cap; each
seat's keys where its player's keyboard has them. (The tables with the real ``ssh``
client: ``tests/test_serve.py``.)"""

from __future__ import annotations

import dataclasses
import functools
import re
import struct
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, cast

import pytest

from stress_tui.core.actions import Action, Flip
from stress_tui.core.engine import Phase
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.net.fair import MAX_DELAY
from stress_tui.net.host import HOST_SEAT, JOINER_SEAT
from stress_tui.net.pathrtt import TCP_INFO_MIN_RTT
from stress_tui.terminal import server
from stress_tui.terminal.server import here
from stress_tui.terminal.tables import ServedHost
from tests import test_partial_frames
from tests.test_net import SEED, run, seated, until
from tests.test_partial_frames import table_for_two

P = ParamSpec("P")
T = TypeVar("T")


@pytest.fixture(autouse=True)
def _data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(tmp_path))


def last_of(host: ServedHost, seat: int) -> Action:
    assert host.fair is not None
    return [a for a in host.fair.inputs if not isinstance(a, Flip) and a.player == seat][-1]


def test_each_seats_keys_are_dated_back_by_half_its_ssh_round_trip_at_most_the_cap() -> None:
    async def test() -> None:
        host = ServedHost(Rules(), "Ann", countdown=0.05, record=False, seed=SEED)
        host.paths[HOST_SEAT] = lambda: 0.08  # 40 ms each way
        host.paths[JOINER_SEAT] = lambda: 2.0  # far away: dated back no more than the cap
        joiner = await seated(host, record=False)
        await until(lambda: host.fair is not None and host.fair.game.phase is Phase.PLAYING, "play")
        await until(lambda: joiner.table is not None, "the joiner's table")
        await until(lambda: host.now() > 0.5, "half a second of play (nothing before its start)")
        before = host.now()
        host.act("ready")
        assert before - 0.04 <= last_of(host, HOST_SEAT).time <= host.now() - 0.04
        assert host.fair is not None
        before, count = host.now(), len(host.fair.inputs)
        joiner.act("ready")
        await until(lambda: host.fair is not None and len(host.fair.inputs) > count, "Bo's key")
        after = host.now()
        dated = last_of(host, JOINER_SEAT).time
        assert before - MAX_DELAY - 1e-6 <= dated <= after - MAX_DELAY + 1e-6
        await host.close()
        await joiner.leave()

    run(test)


def test_a_seat_whose_round_trip_is_unknown_is_dated_on_arrival() -> None:
    async def test() -> None:
        host = ServedHost(Rules(), "Ann", countdown=0.05, record=False, seed=SEED)
        joiner = await seated(host, record=False)
        await until(lambda: host.fair is not None and host.fair.game.phase is Phase.PLAYING, "play")
        before = host.now()
        host.act("ready")
        assert before <= last_of(host, HOST_SEAT).time <= host.now()
        await host.close()
        await joiner.leave()

    run(test)


def test_a_round_at_a_served_table_is_kept_and_counted_once_and_both_ends_show_its_stats(
    tmp_path: Path,
) -> None:
    from stress_tui.storage.record import Record
    from stress_tui.terminal.tables import ServedClient
    from tests.test_host_life import play_out
    from tests.test_net import both_ready

    async def test() -> None:
        host = ServedHost(Rules(), "Ann", countdown=0.05, seed=SEED)
        _, port = await host.start()
        joiner = ServedClient(host, "127.0.0.1", port, host.code, "Bo")
        await joiner.connect()
        await both_ready(host, joiner)
        await until(lambda: joiner.table is not None and host.fair is not None, "the table")
        await play_out(host, joiner)
        await until(lambda: joiner.result is not None, "the joiner's result", timeout=10)
        assert joiner.result is not None and joiner.result.stats is not None
        assert host.result is not None and host.result.stats is not None
        await joiner.leave()
        await host.close()

    run(test)
    assert len(list((tmp_path / "replays").glob("*.jsonl"))) == 1
    standings = Record.load(tmp_path / "record.sqlite").standings
    for name in ("Ann", "Bo"):
        assert sum(s.rounds_won + s.rounds_lost for s in standings[name].values()) == 1


def test_a_player_at_a_table_for_two_plays_with_the_keys_of_their_keyboard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A German keyboard's player (a session speaking German) plays their row at a table
    for two as at one keyboard of theirs: the fourth pile onto the right pile is ``ö``,
    where a US keyboard has ``;``, said under it and played by it."""

    def german(**fields: Any) -> Settings:
        return dataclasses.replace(here(**fields), keyboard="de")

    monkeypatch.setattr(test_partial_frames, "here", german)
    with table_for_two(tmp_path, monkeypatch) as seats:
        _ann, bo = seats
        for seat in seats:
            seat.send("g")  # ready
        bo.wait_text("1 card", timeout=5)
        assert bo.row(22).rstrip().endswith("<f     ö>"), bo.dump()
        bo.send("ö")  # the 6 onto the 9
        bo.wait_text("6 on 9:", timeout=0.5)


def test_a_table_for_two_of_five_piles_a_row_gives_each_player_keys_for_all_five(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table opened with a row of five (``new standard row=5``): each player's row is
    played with the one-player layout for five piles, as at one keyboard against the
    computer (``docs/keys.md``): the fifth pile's keys under it, ``c`` to say ready."""
    monkeypatch.setattr(test_partial_frames, "Rules", lambda: Rules(row_size=5))
    with table_for_two(tmp_path, monkeypatch) as seats:
        for seat in seats:
            seat.wait_text("press c when ready", timeout=5)
            rows = [seat.row(y).rstrip() for y in range(seat.rows)]
            assert any(row.endswith("<t   g>") for row in rows), seat.dump()


def test_a_connections_round_trip_is_asked_of_the_kernel_at_most_once_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table for two reads its players' SSH round trips for every frame's title and every
    key: each connection asks the kernel (a system call) at most every
    ``ROUND_TRIP_EVERY``, and says what it last said meanwhile. A count."""
    asked: list[float] = []
    clock = [100.0]

    class Socket:
        def getsockopt(self, *option: int) -> bytes:
            asked.append(clock[0])
            info = bytearray(256)
            struct.pack_into("=I", info, TCP_INFO_MIN_RTT, 40_000 + len(asked))
            return bytes(info)

    class Conn:
        def get_extra_info(self, name: str) -> Any:
            return Socket() if name == "socket" else None

    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    connection = server.Connection(cast(Any, None))
    connection.conn = cast(Any, Conn())
    assert {connection.round_trip() for _ in range(50)} == {0.040001}
    clock[0] += server.ROUND_TRIP_EVERY
    assert {connection.round_trip() for _ in range(50)} == {0.040002}
    assert asked == [100.0, 100.0 + server.ROUND_TRIP_EVERY]


def test_a_round_being_written_holds_up_no_other_table_and_its_result_says_where_it_went(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The end of a round at one table is written on the server's writer thread: while the
    write takes its time (a record held by another program, a slow disk: here held until
    the test lets it go), a key at another table reaches the other end there; the round's
    result shows its statistics at once, and where its replay went once it is written."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from stress_tui.net import hosted, records
    from stress_tui.terminal.tables import ServedClient
    from tests.test_host_life import play_out
    from tests.test_net import both_ready

    loop_thread = threading.get_ident()  # asyncio.run runs its loop on this thread
    writing, written = threading.Event(), threading.Event()
    save_round = records.save_round

    def slow_save_round(*args: Any, **options: Any) -> Any:
        assert threading.get_ident() != loop_thread, "a round written on the event loop"
        writing.set()
        written.wait()
        return save_round(*args, **options)

    monkeypatch.setattr(hosted, "save_round", slow_save_round)
    writer = ThreadPoolExecutor(1)

    async def test() -> None:
        first = ServedHost(Rules(), "Ann", countdown=0.05, seed=SEED)
        first.writer = writer
        _, port = await first.start()
        bo = ServedClient(first, "127.0.0.1", port, first.code, "Bo")
        await bo.connect()
        other = ServedHost(Rules(), "Cy", countdown=0.05, record=False, seed=SEED)
        other.writer = writer
        joiner = await seated(other, record=False)
        await both_ready(first, bo)
        await until(lambda: bo.table is not None and first.fair is not None, "the table")
        await play_out(first, bo)
        await until(writing.is_set, "the round's end being written")
        await until(
            lambda: other.fair is not None and other.fair.game.phase is Phase.PLAYING, "play"
        )
        assert other.fair is not None
        count = len(other.fair.inputs)
        joiner.act("ready")
        await until(lambda: other.fair is not None and len(other.fair.inputs) > count, "a key")
        assert first.result is not None and first.result.stats is not None
        assert not written.is_set() and not first.result.notes
        written.set()
        await until(lambda: first.result is not None and bool(first.result.notes), "the files")
        assert any(note.startswith("replay: ") for note in first.result.notes)
        await until(lambda: bo.result is not None and bo.result.stats is not None, "Bo's result")
        for end in (bo, joiner):
            await end.leave()
        for host in (first, other):
            await host.close()

    try:
        run(test)
    finally:
        written.set()
        writer.shutdown()


class HeldWriter(Executor):
    """A writer whose writes are done when the test says (``write``)."""

    def __init__(self) -> None:
        self.held: list[tuple[Future[Any], Callable[[], Any]]] = []

    def submit(self, fn: Callable[P, T], /, *args: P.args, **options: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        self.held.append((future, functools.partial(fn, *args, **options)))
        return future

    def write(self) -> None:
        for future, write in self.held:
            future.set_result(write())
        self.held.clear()


def test_the_openers_result_says_where_the_round_went_once_it_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The opener's result covers the table at the round's end with its statistics, while
    the round is still being written; where its replay went comes on it once written."""
    from stress_tui.net.client import Client
    from stress_tui.terminal.netplay import NetScreen
    from tests.test_host_life import play_out

    writer = HeldWriter()
    with table_for_two(tmp_path, monkeypatch) as seats:
        ann = seats[0]
        host, joiner = (cast(NetScreen, seat.app).link.model for seat in seats)
        assert isinstance(host, ServedHost) and isinstance(joiner, Client)
        host.writer = writer
        for seat in seats:
            seat.send("g")  # ready
        ann.loop.run_until_complete(play_out(host, joiner))
        ann.wait_for(lambda: re.search(r"round \d+:\d\d", ann.text()) is not None, what="stats")
        assert "replay:" not in ann.text() and writer.held, ann.dump()
        writer.write()
        ann.wait_text("replay: ")


def test_the_join_line_says_an_ipv4_address_as_typed_where_the_server_listens_on_both() -> None:
    """``serve`` listens on IPv4 and IPv6 on one socket: a player who came over IPv4 is
    told the address they came to (``ssh -t -p 2222 192.0.2.2 join CODE``), not it mapped
    into IPv6 (``::ffff:192.0.2.2``); an IPv6 one stays as it is."""
    from types import SimpleNamespace

    from stress_tui.terminal.seats import join_line
    from stress_tui.terminal.server import Session

    for came_to, said in (("::ffff:192.0.2.2", "192.0.2.2"), ("2001:db8::2", "2001:db8::2")):
        place = (came_to, 2222, 0, 0)
        conn = SimpleNamespace(get_extra_info=lambda _name, place=place: place)
        session = cast(Session, SimpleNamespace(connection=SimpleNamespace(conn=conn)))
        assert join_line(session, "a-b-c-d") == f"ssh -t -p 2222 {said} join a-b-c-d"


def test_the_joiner_follows_a_served_tables_plays_with_no_check_worked_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A table on the server sends what moved without a ``check`` (its peers are in the
    server's process): neither end works one out, and the joiner's copy still shows what
    the host's table shows, play after play."""
    from stress_tui.net import hosted, joined
    from stress_tui.net.client import Client
    from stress_tui.net.wire import check, public_view

    worked_out: list[str] = []

    def counted(game: Any) -> str:
        worked_out.append("check")
        return check(game)

    monkeypatch.setattr(hosted, "check", counted)
    monkeypatch.setattr(joined, "check", counted)

    def same_table(host: ServedHost, joiner: Client) -> bool:
        assert host.fair is not None
        seen = joiner.table
        return seen is not None and public_view(seen.game) == public_view(host.fair.game)

    async def test() -> None:
        host = ServedHost(Rules(), "Ann", countdown=0.05, record=False, seed=SEED)
        joiner = await seated(host, record=False)
        await until(lambda: host.fair is not None and host.fair.game.phase is Phase.PLAYING, "play")
        assert host.fair is not None
        for _ in range(3):
            plays = host.fair.game.legal_plays(HOST_SEAT)
            if not plays:
                break
            pile, target = plays[0]
            applied = len(host.fair.applied)
            host.act("play", pile, target)
            assert len(host.fair.applied) > applied, "the host's play was taken"
            await until(lambda: same_table(host, joiner), "the joiner's table as the host's")
        assert len(host.fair.applied) > 1
        await host.close()
        await joiner.leave()

    run(test)
    assert worked_out == []
