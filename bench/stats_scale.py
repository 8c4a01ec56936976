"""``stress-tui stats`` on a long record against a short one, measured in the same run.

    python bench/stats_scale.py [--short 200] [--long 20000] [--repeat 15]

Two records are made in a temporary folder, of ``--short`` and ``--long`` rounds: four
people playing each other and the hard computer, matches of about three rounds, every
round rated as the game rates it (``storage.ratings.rate_round``) and written with the
columns the game writes (the schema made by the game's own ``count_round``; the rounds
then added in one transaction, which the game would take a week to play; the last counted
by ``count_round`` again, which sums the rounds before it into the standings, as counting
each would have). Then
``stress-tui stats`` runs as a whole process on each, the two taking turns ``--repeat``
times, after one run each to warm the caches; the figure is the ratio of the medians.

Goal: the long record at most 2x the short one.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `stress_tui` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stress_tui.core.rating import Rating
from stress_tui.core.stats import PlayerStats, RoundStats
from stress_tui.storage.ratings import rate_round
from stress_tui.storage.record import count_round

PEOPLE = ("Ann", "Bo", "Cy", "Di")

INSERT = (
    "INSERT INTO rounds (finished, rules, name1, name2, winner, seconds, reaction1, "
    "reaction2, match_over, kind1, kind2, rated, rating1, deviation1, volatility1, rating2, "
    "deviation2, volatility2, median1, median2) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def make_record(path: Path, rounds: int, seed: int = 1) -> None:
    """A record of ``rounds`` rated rounds at ``path``."""
    import sqlite3

    won = RoundStats((PlayerStats(), PlayerStats()), 0, 30.0)
    count_round((PEOPLE[0], PEOPLE[1]), "standard", won, False, path=path)  # the schema
    rng = random.Random(seed)
    current: dict[str, Rating] = {}
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    for index in range(rounds - 2):
        first, second = rng.sample(PEOPLE, 2)
        kinds = ("human", "human")
        if rng.random() < 0.3:
            second, kinds = "Computer", ("human", "bot:hard")
        winner = rng.randrange(2)
        after = rate_round((first, second), kinds, winner, lambda n: current.get(n, Rating()))
        for name, rating in zip((first, second), after, strict=True):
            if rating is not None:
                current[name] = rating
        values: list[float | None] = []
        for rating in after:
            values += (
                [None] * 3
                if rating is None
                else [rating.rating, rating.deviation, rating.volatility]
            )
        db.execute(
            INSERT,
            (
                "2026-01-01T12:00:00+00:00",
                "standard",
                first,
                second,
                winner,
                20.0 + index % 13,
                0.3,
                0.4,
                index % 3 == 2,
                *kinds,
                *values,
                0.5,
                0.6,
            ),
        )
    db.execute("COMMIT")
    db.close()
    # The last round counted as the game counts one: the standings' sums take in the
    # rounds added above, as they would have taken in each as it was counted.
    count_round((PEOPLE[2], PEOPLE[3]), "standard", won, True, path=path)


def stats_seconds(data: Path) -> float:
    """One ``stress-tui stats``, as a whole process, on the data folder ``data``."""
    env = {**os.environ, "STRESS_TUI_DATA_DIR": str(data)}
    env["STRESS_TUI_CONFIG"] = str(data / "config.toml")  # none there
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from stress_tui.cli.main import main; sys.exit(main(['stats']))",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        check=True,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", type=int, default=200)
    parser.add_argument("--long", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        short, long = Path(folder, "short"), Path(folder, "long")
        for data, rounds in ((short, args.short), (long, args.long)):
            data.mkdir()
            make_record(data / "record.sqlite", rounds)
        times: dict[Path, list[float]] = {short: [], long: []}
        for data in (short, long):
            stats_seconds(data)
        for turn in range(args.repeat):
            for data in (short, long) if turn % 2 == 0 else (long, short):
                times[data].append(stats_seconds(data))
    median_short, median_long = (statistics.median(times[d]) for d in (short, long))
    print(
        f"stats on {args.long:,} rounds: {median_long * 1000:.0f} ms, on {args.short:,}: "
        f"{median_short * 1000:.0f} ms (medians of {args.repeat}): "
        f"{median_long / median_short:.2f}x (goal: at most 2x); "
        f"load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
