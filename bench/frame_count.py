"""A game's first frame against the minimal blessed program's, in instructions: a count
that does not move with the machine's load, where ``bench/startup.py``'s times do.

    python bench/frame_count.py [--p2 bot]

Each program runs under ``valgrind --tool=callgrind`` in an 80x24 pseudo-terminal, as
``bench/startup.py`` starts it (the game as the ``stress-tui`` script runs it, with
``--seed 12``; ``tests/fixtures/echo_app.py``), and ends as its first frame is written:
the game at its first ``LocalEndpoint.write_frame``, the echo after its first
``EchoApp.draw_all``. The figure is every instruction from the interpreter's start to
there. Python's bytecode is kept (compiled by a run without valgrind first) and its hash
seed fixed, so that two runs count alike. Needs valgrind.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.latency import ECHO_APP
from bench.startup import FRAME_GOAL, GAME_ARGS, ROOT, child_env
from tests.tty import TtySession

GAME = """
import os, sys
from stress_tui.cli.main import main
from stress_tui.terminal.session import LocalEndpoint
write_frame = LocalEndpoint.write_frame
def first(endpoint, text):
    write_frame(endpoint, text)
    os._exit(0)
LocalEndpoint.write_frame = first
sys.argv[0] = "stress-tui"
sys.exit(main())
"""
"""The game, ended as its first frame is written."""

ECHO = f"""
import os, sys
path = {str(ECHO_APP)!r}
echo = {{"__name__": "echo_app"}}
with open(path, encoding="utf-8") as source:
    exec(compile(source.read(), path, "exec"), echo)
draw_all = echo["EchoApp"].draw_all
def first(app):
    draw_all(app)
    os._exit(0)
echo["EchoApp"].draw_all = first
sys.exit(echo["main"]())
"""
"""The minimal blessed program, compiled from its source as a script is, ended as its first
frame is drawn."""


def instructions(code: str, args: list[str], env: dict[str, str | None]) -> int:
    """Instructions ``python -c code args`` runs until it exits, in a pty, by callgrind."""
    argv = [sys.executable, "-c", code, *args]
    with TtySession(argv, env=env, cwd=ROOT) as session:  # compile and cache the bytecode
        session.wait_exit(30)
    with tempfile.TemporaryDirectory(prefix="frame-count-") as folder:
        out = Path(folder) / "callgrind.out"
        grind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv]
        with TtySession(grind, env=env, cwd=ROOT) as session:
            session.wait_exit(600)
        for line in out.read_text(encoding="utf-8").splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError("callgrind wrote no total")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--p2", help="the game's second player (bot: against the computer)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="stress-pycache-") as pycache:
        env = child_env(pycache)
        env["PYTHONHASHSEED"] = "0"
        echo = instructions(ECHO, [], env)
        game_args = [*GAME_ARGS, *(["--p2", args.p2] if args.p2 else [])]
        game = instructions(GAME, game_args, env)
    ratio = game / echo
    met = "met" if ratio <= FRAME_GOAL else "not met"
    name = " ".join(["game", *game_args])
    print("instructions to the first frame in an 80x24 pty (callgrind)")
    print(f"  {'echo (minimal blessed)':26s} {echo / 1e6:7.1f} M   1.00x")
    print(f"  {name:26s} {game / 1e6:7.1f} M  {ratio:5.2f}x", end="")
    print(f"  (the goal, in time, at most {FRAME_GOAL}x: {met} in instructions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
