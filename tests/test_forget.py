"""Forgetting a player of the SSH server, in-process (``storage/forget.py``): the key and
its name go (the name free for another key), its replays go, its rounds against other
people stay for them under ``(forgotten)`` with their standings and ratings as they were;
keys not seen for long are forgotten the same way. (The command and the lobby over the
real ``ssh``: ``tests/test_serve.py``; the lobby's question: ``tests/test_lobby.py``.)"""

from __future__ import annotations

import datetime
import json
import sqlite3
from pathlib import Path

from stress_tui.core.stats import PlayerStats, RoundStats
from stress_tui.storage.forget import Forgotten, forget_key, forget_unseen
from stress_tui.storage.keys import name_for
from stress_tui.storage.recent import recent_rounds
from stress_tui.storage.record import Record, count_round

HUMANS = ("human", "human")


def won_by(player: int) -> RoundStats:
    stats = (PlayerStats(reactions=[0.4]), PlayerStats(reactions=[0.6]))
    return RoundStats(stats, player, 20.0)


def replay(
    folder: Path, stem: str, names: list[str], players: list[str], part: bool = False
) -> Path:
    """A replay file of a round between ``names``: a header, an action, its end."""
    folder.mkdir(exist_ok=True)
    path = folder / (f"{stem}.jsonl" + (".part" if part else ""))
    header = {"seed": 7, "players": players, "names": names, "started": "2026-12-01T10:00:00+00:00"}
    path.write_text(
        json.dumps(header, separators=(",", ":"))
        + '\n{"t":1.5,"play":[0,1,"left"]}\n'
        + ("" if part else '{"end":true,"winner":0}\n')
    )
    return path


def a_server(data: Path) -> dict[str, Path]:
    """ann and bo, keys of the server: two rounds against each other, one each against the
    computer, and their replays (ann's last round against the computer cut short)."""
    assert name_for("SHA256:ann", "ann", data / "keys.sqlite") == "ann"
    assert name_for("SHA256:bo", "bo", data / "keys.sqlite") == "bo"
    record = data / "record.sqlite"
    count_round(("ann", "bo"), "standard", won_by(0), False, record, kinds=HUMANS)
    count_round(("bo", "ann"), "standard", won_by(0), True, record, kinds=HUMANS)
    count_round(
        ("ann", "Computer"), "standard", won_by(0), True, record, kinds=("human", "bot:hard")
    )
    count_round(
        ("Computer", "bo"), "standard", won_by(1), True, record, kinds=("bot:hard", "human")
    )
    folder = data / "replays"
    return {
        "ann-bo": replay(folder, "20261201-100000-000001", ["ann", "bo"], list(HUMANS)),
        "ann-computer": replay(
            folder, "20261201-100000-000002", ["ann", "Computer"], ["human", "bot:hard"]
        ),
        "ann-cut": replay(
            folder, "20261201-100000-000003", ["ann", "Computer"], ["human", "bot:hard"], True
        ),
        "bo-computer": replay(
            folder, "20261201-100000-000004", ["Computer", "bo"], ["bot:hard", "human"]
        ),
    }


def files(data: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(data.rglob("*")) if p.is_file()}


def test_forgetting_a_key_frees_its_name_deletes_its_replays_and_keeps_its_opponents_record(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    replays = a_server(data)
    # A round of ann's against herself (two sides one name: nobody rated) is nobody else's.
    count_round(("ann", "ann"), "standard", won_by(0), False, data / "record.sqlite")
    before = Record.load(data / "record.sqlite")
    bos_recent = recent_rounds("bo", 10, data / "record.sqlite")
    shared = replays["ann-bo"].read_bytes()

    asked = files(data)
    would = forget_key("SHA256:ann", data, erase=False)
    assert would == Forgotten(kept=2, deleted=2, replays_deleted=2, replays_kept=1)
    assert files(data) == asked  # asking changes nothing

    assert forget_key("SHA256:ann", data) == would
    after = Record.load(data / "record.sqlite")
    assert "ann" not in after.standings and "ann" not in after.ratings
    # bo's record is as it was: the same standings, the same rating after every round.
    assert after.standings["bo"] == before.standings["bo"]
    assert after.ratings["bo"].history == before.ratings["bo"].history
    now = recent_rounds("bo", 10, data / "record.sqlite")
    assert [(r.finished, r.opponent_kind, r.won) for r in now] == [
        (r.finished, r.opponent_kind, r.won) for r in bos_recent
    ]
    assert [r.opponent for r in now] == ["Computer", "(forgotten)", "(forgotten)"]
    # The forgotten side keeps no reaction and no rating.
    with sqlite3.connect(data / "record.sqlite") as db:
        rows = db.execute(
            "SELECT reaction1, median1, rating1 FROM rounds WHERE name1 = '(forgotten)'"
            " UNION ALL SELECT reaction2, median2, rating2 FROM rounds WHERE name2 = '(forgotten)'"
        ).fetchall()
    assert rows == [(None, None, None), (None, None, None)]
    # The computer's standing lost ann's round against it, and kept bo's.
    assert before.computers["hard"]["standard"].rounds_lost == 2
    assert after.computers["hard"]["standard"].rounds_lost == 1
    # ann's replays against the computer are gone; bo's replay of their round stays, ann's
    # side of it named (forgotten), the rest of it byte for byte.
    assert not replays["ann-computer"].exists() and not replays["ann-cut"].exists()
    assert replays["bo-computer"].exists()
    header, rest = replays["ann-bo"].read_bytes().split(b"\n", 1)
    assert json.loads(header)["names"] == ["(forgotten)", "bo"]
    assert rest == shared.split(b"\n", 1)[1]
    # The name is free: another key that offers it gets it, with nothing under it.
    assert name_for("SHA256:new", "ann", data / "keys.sqlite") == "ann"
    assert recent_rounds("ann", 10, data / "record.sqlite") == []
    assert forget_key("SHA256:ann", data) is None  # the old key is not known any more

    # bo forgotten too: nobody needs their rounds against (forgotten) any more.
    assert forget_key("SHA256:bo", data) == Forgotten(kept=0, deleted=3, replays_deleted=2)
    last = Record.load(data / "record.sqlite")
    assert last.standings == {} and last.ratings == {}
    assert not list((data / "replays").iterdir())


def test_keys_not_seen_for_the_days_given_are_forgotten_and_the_others_kept(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    a_server(data)
    now = datetime.datetime(2027, 12, 2, tzinfo=datetime.timezone.utc)
    with sqlite3.connect(data / "keys.sqlite") as db:
        db.execute("UPDATE keys SET last_seen = '2026-12-01T00:00:00+00:00' WHERE name = 'ann'")
        db.execute("UPDATE keys SET last_seen = '2026-12-03T00:00:00+00:00' WHERE name = 'bo'")
    assert forget_unseen(365, data, now) == Forgotten(2, 1, 2, 1, keys=1)
    with sqlite3.connect(data / "keys.sqlite") as db:
        assert db.execute("SELECT name FROM keys").fetchall() == [("bo",)]
    assert "ann" not in Record.load(data / "record.sqlite").standings
    assert forget_unseen(365, data, now) == Forgotten(keys=0)
