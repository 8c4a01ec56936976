"""What the SSH server's lobby and ``stats`` read of a player's own record, in-process
(``storage/recent.py``'s ``own_record``, ``terminal/keyrecord.py``): the same rounds won
and lost, rating and last rounds as the whole record read (``Record.load``) gives the
player, in a record of any version, read by the player's name alone, so that it costs
the same however long the record is. (The lobby over the real ``ssh``:
``tests/test_serve.py``.)"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

import pytest

from stress_tui.core.stats import PlayerStats, RoundStats
from stress_tui.storage.database import APPLICATION_ID, MIGRATIONS
from stress_tui.storage.recent import recent_rounds
from stress_tui.storage.record import Record, count_round
from stress_tui.terminal import keyrecord
from stress_tui.terminal.screens.lobby import RECENT, LobbyView

if TYPE_CHECKING:
    from stress_tui.terminal.server import Session

PEOPLE = ("ann", "bo", "cy", "nobody")


def won_by(player: int) -> RoundStats:
    stats = (PlayerStats(reactions=[0.4, 0.5]), PlayerStats(reactions=[0.6]))
    return RoundStats(stats, player, 20.0 + player)


def lobby_of(data: Path, name: str) -> LobbyView:
    """What the lobby shows ``name``, a key's player, of the server's record in ``data``."""
    session = SimpleNamespace(
        connection=SimpleNamespace(fingerprint="SHA256:" + name),
        server=SimpleNamespace(data=data),
    )
    return asyncio.run(keyrecord.lobby_view(cast("Session", session), name))


def as_the_whole_record_gives_it(data: Path, name: str) -> LobbyView:
    """What the lobby showed ``name`` when it read the whole record: the rounds won and lost
    summed over every rule set, the rating if a round rated them, the last rounds."""
    record = Record.load(data / "record.sqlite")
    standings = record.standings.get(name, {}).values()
    rating = record.ratings.get(name)
    return LobbyView(
        name,
        guest=False,
        rounds=(sum(s.rounds_won for s in standings), sum(s.rounds_lost for s in standings)),
        rating=round(rating.rating.rating) if rating and rating.rated_rounds else None,
        recent=recent_rounds(name, RECENT, data / "record.sqlite"),
    )


def a_server(data: Path) -> None:
    """ann, bo and cy on a server: rounds against each other under two rule sets (one
    written two ways, as older notation wrote it and as this version does), matches
    won and lost, rounds against the computer at two levels, one of ann's against
    herself (rated against nobody); bo's last round is against the computer."""
    path = data / "record.sqlite"
    humans = ("human", "human")
    for i, (names, rules, winner) in enumerate(
        [
            (("ann", "bo"), "standard", 0),
            (("bo", "ann"), "standard", 0),
            (("ann", "cy"), "standard", 1),
            (("cy", "bo"), "skat penalty=one", 0),
            (("ann", "bo"), "skat stress-penalty=one", 0),
            (("ann", "ann"), "standard", 1),
            (("cy", "ann"), "standard", 1),
        ]
    ):
        count_round(names, rules, won_by(winner), i % 3 == 2, path, kinds=humans)
    for level, name, winner in (("hard", "ann", 0), ("easy", "bo", 1), ("hard", "bo", 0)):
        kinds = ("human", "bot:" + level)
        count_round((name, "Computer"), "standard", won_by(winner), True, path, kinds=kinds)


def test_the_lobby_shows_each_player_what_the_whole_record_gives_them(tmp_path: Path) -> None:
    a_server(tmp_path)
    for name in PEOPLE:
        shown = lobby_of(tmp_path, name)
        assert shown == as_the_whole_record_gives_it(tmp_path, name)
    ann = lobby_of(tmp_path, "ann")
    assert ann.rounds == (5, 3) and ann.rating is not None and len(ann.recent) == RECENT
    assert lobby_of(tmp_path, "nobody") == LobbyView("nobody", guest=False)


def test_stats_says_what_the_whole_record_gives_the_player(tmp_path: Path) -> None:
    a_server(tmp_path)
    said: list[str] = []
    session = SimpleNamespace(
        connection=SimpleNamespace(fingerprint="SHA256:bo"),
        server=SimpleNamespace(data=tmp_path),
        say=said.append,
    )

    async def identity() -> str:
        return "bo"

    session.identity = identity
    assert asyncio.run(keyrecord.stats(cast("Session", session))) == 0
    whole = as_the_whole_record_gives_it(tmp_path, "bo")
    won, lost = whole.rounds
    assert said[1:] == [f"rounds: {won + lost}, won {won}, lost {lost}", f"rating: {whole.rating}"]


def test_a_name_or_a_kind_in_the_record_cannot_drive_the_players_terminal(
    tmp_path: Path,
) -> None:
    path = tmp_path / "record.sqlite"
    evil = "Zed\x1b]0;owned\x07\u202e\x1b[2J"
    count_round(("ann", evil), "standard", won_by(0), False, path, kinds=("human", "human"))
    count_round(
        ("ann", "Computer"), "standard", won_by(1), False, path, kinds=("human", "bot:\x1bc")
    )
    shown = lobby_of(tmp_path, "ann").recent
    assert [r.opponent_kind for r in shown] == ["bot:\\u001Bc", "human"]
    assert shown[1].opponent == "Zed\\u001B]0;owned..."  # cut as a name is
    for text in (r.finished + r.opponent + r.opponent_kind for r in shown):
        assert text.isprintable(), text


def earlier(path: Path, steps: int) -> None:
    """A record as a version of ``steps`` schema steps made it, with ann's and bo's rounds
    counted (not rated, where that version rated none)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    for step in MIGRATIONS[:steps]:
        db.executescript(step)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {steps}")
    for name1, name2, winner in (("ann", "bo", 0), ("bo", "ann", 0), ("cy", "ann", 1)):
        db.execute(
            "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds) "
            "VALUES ('2024-01-01T00:00:00+00:00', 'standard', ?, ?, ?, 10.0)",
            (name1, name2, winner),
        )
    db.commit()
    db.close()


@pytest.mark.parametrize("steps", range(1, len(MIGRATIONS) + 1))
def test_a_record_of_every_version_is_shown_as_the_whole_record_gives_it(
    tmp_path: Path, steps: int
) -> None:
    earlier(tmp_path / "record.sqlite", steps)
    before = (tmp_path / "record.sqlite").read_bytes()
    for name in PEOPLE:
        assert lobby_of(tmp_path, name) == as_the_whole_record_gives_it(tmp_path, name)
    assert lobby_of(tmp_path, "ann").rounds == (2, 1)
    assert (tmp_path / "record.sqlite").read_bytes() == before  # read, never written


def test_rounds_an_earlier_version_counted_after_this_ones_are_shown_and_rated(
    tmp_path: Path,
) -> None:
    a_server(tmp_path)
    db = sqlite3.connect(tmp_path / "record.sqlite")  # no sums kept, no rating worked out
    db.execute(
        "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds, kind1, kind2)"
        " VALUES ('2026-01-01T00:00:00+00:00', 'standard', 'bo', 'ann', 0, 9.0, 'human',"
        " 'human')"
    )
    db.commit()
    db.close()
    for name in PEOPLE:
        assert lobby_of(tmp_path, name) == as_the_whole_record_gives_it(tmp_path, name)
    assert lobby_of(tmp_path, "bo").recent[0].opponent == "ann"


def test_the_record_of_an_earlier_version_without_a_database_is_shown(tmp_path: Path) -> None:
    standing = {
        "matches_won": 1,
        "matches_lost": 0,
        "rounds_won": 4,
        "rounds_lost": 2,
        "best_reaction": 0.4,
        "best_round": 30.0,
    }
    players = {"ann": {"standard": standing, "skat": standing}}
    (tmp_path / "record.json").write_text(
        json.dumps({"format": "stress-tui record", "version": 1, "players": players})
    )
    assert lobby_of(tmp_path, "ann") == as_the_whole_record_gives_it(tmp_path, "ann")
    assert lobby_of(tmp_path, "ann").rounds == (8, 4)
    assert lobby_of(tmp_path, "bo") == LobbyView("bo", guest=False)


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """How many steps of SQLite's virtual machine the statements run since it was last
    asked took: a count of the work of reading, which the machine's load does not move."""
    counted = [0]
    connect = sqlite3.connect

    def counting(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        db: sqlite3.Connection = connect(*args, **kwargs)

        def step() -> int:
            counted[0] += 1
            return 0

        db.set_progress_handler(step, 1)
        return db

    monkeypatch.setattr(sqlite3, "connect", counting)

    def taken() -> int:
        done, counted[0] = counted[0], 0
        return done

    yield taken


def test_the_lobbys_read_costs_the_same_however_long_the_record_is(
    tmp_path: Path, steps: Callable[[], int]
) -> None:
    from bench.stats_scale import make_record

    work = {}
    for rounds in (200, 2_000):
        data = tmp_path / str(rounds)
        make_record(data / "record.sqlite", rounds)
        steps()
        view = lobby_of(data, "Ann")
        work[rounds] = steps()
        assert view.rating is not None and sum(view.rounds) > rounds / 3
    assert work[2_000] <= work[200] * 1.1, work
