"""Two real games sharing one data folder, each playing rounds to the end at the same time;
then the record is asked how many rounds it counted.

Each game is ``python -m stress_tui --deck skat --wins 1 --p1 bot:expert --p2 bot:expert``
in a pseudo-terminal of its own (player names differ between the games), with the same
``STRESS_TUI_DATA_DIR``; Enter is pressed on every result screen until each game has
finished ``--rounds`` rounds, then each quits. ``stress-tui stats --json`` must count every
one of them.

    python bench/two_games.py [--rounds 8]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.fuzz import NO_CONFIG, REPO
from tests.tty import TtySession


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds each game finishes")
    parser.add_argument("--minutes", type=float, default=20, help="give up after this long")
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="stress-two-games-")
    env: dict[str, str | None] = {**NO_CONFIG, "STRESS_TUI_DATA_DIR": data}
    bots = ["--deck", "skat", "--wins", "1", "--p1", "bot:expert", "--p2", "bot:expert"]
    games = [
        TtySession(args=[*bots, "--names", f"{who},Other{who}", "--seed", seed], env=env, cwd=REPO)
        for who, seed in (("Ann", "11"), ("Bo", "12"))
    ]
    finished = [0, 0]
    showing = [False, False]
    start = time.monotonic()
    while min(finished) < args.rounds and time.monotonic() - start < args.minutes * 60:
        for i, game in enumerate(games):
            game.pump(0.01)
            result = "Enter: rematch" in game.text()
            if result and not showing[i]:
                finished[i] += 1
                print(f"{time.monotonic() - start:6.1f} s  game {i + 1}: round {finished[i]}")
            showing[i] = result
            if result and finished[i] < args.rounds:
                game.send("\r")  # ignored until the result screen takes keys
    for game in games:
        game.send("q")
        game.wait_exit(10)
    done = subprocess.run(
        [sys.executable, "-m", "stress_tui", "stats", "--json"],
        cwd=REPO,
        env={**os.environ, "STRESS_TUI_DATA_DIR": data},
        capture_output=True,
        text=True,
        check=True,
    )
    counted = sum(row["rounds_won"] for row in json.loads(done.stdout)["players"])
    print(f"finished {sum(finished)} rounds, the record counted {counted}")
    return 0 if counted == sum(finished) else 1


if __name__ == "__main__":
    sys.exit(main())
