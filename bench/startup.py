"""Start-up: each command against its reference, measured in the same run.

    python bench/startup.py [--repeat 40] [--starts 15] [--compile]

- ``stress-tui --version``, ``stress-tui --help`` (the commands, each in a line) and
  ``stress-tui play --help`` (the game's flags, made from the house-rule table, with
  ``dataclasses``; no goal) against ``python -c pass``: the interpreter, started the same
  way (``sys.executable``), doing nothing. The command runs
  as the ``stress-tui`` script does (``from stress_tui.cli.main import main``). They
  take turns, ``--repeat`` times each, in a rotating order, so that a load that comes and
  goes weighs on all alike; the figure is the ratio of the medians.
- ``the help's stdlib``: the interpreter importing the standard library's modules the help
  is made with (``HELP_STDLIB``) and nothing of ours, against ``python -c pass`` in the same
  turns: how much of ``--help``'s figure is ours.
- ``--lang de --version`` against ``--lang en --version``, in the same turns: both make
  every flag's help text (``--version`` after another flag is argparse's), in German
  from the compiled catalogue (the ``.mo`` file the build makes), in English from none.
- The first frame of a game (``stress-tui --seed 12`` in an 80x24 pseudo-terminal, from
  the start of the process until the table is on screen; run as the script runs it, not
  through ``python -m``, whose ``runpy`` no player's start pays) against the minimal blessed
  program's (``tests/fixtures/echo_app.py``, until its first line is drawn), ``--starts``
  each, taking turns; and the same game against the computer (``--p2 bot``).

Python's compiled bytecode is kept, as it is for an installed program: the children run
without ``PYTHONDONTWRITEBYTECODE`` and with ``PYTHONPYCACHEPREFIX`` set to a folder of
this run (so the tree is left clean), and every command runs twice before it is timed.
``--compile`` measures instead what a source tree never compiled costs (the bytecode is
neither read nor written: every module of stress_tui compiled at every start).

Goals: ``--version`` at most 3x and ``--help`` at most 3.5x ``python -c pass``; the first
frame at most 1.5x the minimal program's; German no dearer than English (``--lang de
--version`` at most 1.1x ``--lang en --version``: reading the compiled catalogue is about
1 ms).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.latency import BASELINES, echo_ready
from tests.tty import TtySession

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "import sys; from stress_tui.cli.main import main; sys.exit(main())"
"""What the ``stress-tui`` script runs."""
GAME_ARGS = ["--seed", "12"]
COMPUTER_ARGS = ["--p2", "bot"]
HELP_STDLIB = ("argparse", "gettext", "locale", "textwrap", "typing")
"""The standard library's modules ``--help`` is made with (argparse loads ``locale`` through
gettext to look up its own texts; our modules are typed with typing's names): imported
alone, the part of ``--help``'s time no change of ours can take away."""
GOALS = {"stress-tui --version": 3.0, "stress-tui --help": 3.5}
"""Each command's most against ``python -c pass``, whole processes, wall-clock and CPU."""
FRAME_GOAL = 1.5
"""A game's first frame against the minimal blessed program's."""
LANGUAGE_GOAL = 1.1
"""``--lang de --version`` against ``--lang en --version``: no more but the catalogue's
reading (about 1 ms of gettext parsing its 670 entries) and the noise of a median."""


def child_env(pycache: str | None) -> dict[str, str | None]:
    """The children's environment (``None``: a variable taken out): this tree first on
    the path, and the bytecode kept in ``pycache``; or, with ``None``, as a source tree
    runs where ``PYTHONDONTWRITEBYTECODE`` is set (the standard library's and blessed's
    bytecode read as installed, stress_tui's compiled at every start)."""
    env: dict[str, str | None] = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    if pycache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = None
    else:
        env["PYTHONDONTWRITEBYTECODE"] = None
        env["PYTHONPYCACHEPREFIX"] = pycache
    return env


def _plain(env: Mapping[str, str | None]) -> dict[str, str]:
    return {key: value for key, value in env.items() if value is not None}


def time_runs(
    commands: Mapping[str, Sequence[str]], env: Mapping[str, str | None], repeat: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Wall-clock seconds of each command, ``repeat`` runs each, taking turns; and the CPU
    seconds (user and system) each run took, which other work on the machine moves less."""
    names = list(commands)
    times: dict[str, list[float]] = {name: [] for name in names}
    cpus: dict[str, list[float]] = {name: [] for name in names}
    for turn in range(repeat):
        shift = turn % len(names)
        for name in names[shift:] + names[:shift]:
            used = _children_cpu()
            start = time.perf_counter()
            subprocess.run(
                commands[name], env=_plain(env), cwd=ROOT, stdout=subprocess.DEVNULL, check=True
            )
            times[name].append(time.perf_counter() - start)
            cpus[name].append(_children_cpu() - used)
    return times, cpus


def _children_cpu() -> float:
    """User and system CPU seconds of this process's children that have ended."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def first_frames(
    programs: Mapping[str, tuple[Sequence[str], Callable[[TtySession], bool]]],
    env: Mapping[str, str | None],
    starts: int,
) -> dict[str, list[float]]:
    """Seconds from starting each program in a pty until ``ready``, taking turns."""
    times: dict[str, list[float]] = {name: [] for name in programs}
    for turn in range(starts):
        order = list(programs) if turn % 2 == 0 else list(programs)[::-1]
        for name in order:
            argv, ready = programs[name]
            start = time.perf_counter()
            with TtySession(argv, env=env, cwd=ROOT) as session:
                session.wait_for(partial(ready, session), 20, "the first frame")
                times[name].append(time.perf_counter() - start)
    return times


def _ms(samples: list[float]) -> str:
    return f"median {1000 * statistics.median(samples):6.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=40, help="runs of each command")
    parser.add_argument("--starts", type=int, default=15, help="starts of each program")
    parser.add_argument(
        "--compile", action="store_true", help="without compiled bytecode (see above)"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="stress-pycache-") as pycache:
        env = child_env(None if args.compile else pycache)
        python = sys.executable
        commands = {
            "python -c pass": [python, "-c", "pass"],
            "stress-tui --version": [python, "-c", COMMAND, "--version"],
            "stress-tui --help": [python, "-c", COMMAND, "--help"],
            "stress-tui play --help": [python, "-c", COMMAND, "play", "--help"],
            "the help's stdlib": [python, "-c", f"import {', '.join(HELP_STDLIB)}"],
            "--lang en --version": [python, "-c", COMMAND, "--lang", "en", "--version"],
            "--lang de --version": [python, "-c", COMMAND, "--lang", "de", "--version"],
        }
        time_runs(commands, env, 2)  # compile and cache, warm the disk cache
        times, cpus = time_runs(commands, env, args.repeat)
        base = statistics.median(times["python -c pass"])
        cpu_base = statistics.median(cpus["python -c pass"])
        cache = "bytecode compiled at every start" if args.compile else "bytecode cached"
        print(f"start-up ({cache}; {args.repeat} runs each, taking turns)")
        for name, samples in times.items():
            ratio = statistics.median(samples) / base
            cpu = statistics.median(cpus[name]) / cpu_base
            most = GOALS.get(name)
            goal = (
                ""
                if most is None
                else f"  (goal: at most {most}x: {_met(ratio, most)}; in CPU {_met(cpu, most)})"
            )
            print(f"  {name:22s} {_ms(samples)}  {ratio:5.2f}x, CPU {cpu:5.2f}x{goal}")
        german = statistics.median(times["--lang de --version"]) / statistics.median(
            times["--lang en --version"]
        )
        print(
            f"  German against English: {german:5.2f}x"
            f"  (goal: at most {LANGUAGE_GOAL}x: {_met(german, LANGUAGE_GOAL)})"
        )

        game = [python, "-c", COMMAND, *GAME_ARGS]
        programs: dict[str, tuple[Sequence[str], Callable[[TtySession], bool]]] = {
            "echo (minimal blessed)": (BASELINES["echo"], echo_ready),
            "game": (game, lambda s: "STRESS" in s.row(0)),
            "game --p2 bot": ([*game, *COMPUTER_ARGS], lambda s: "STRESS" in s.row(0)),
        }
        first_frames(programs, env, 1)
        frames = first_frames(programs, env, args.starts)
        echo = statistics.median(frames["echo (minimal blessed)"])
        print(f"first frame in an 80x24 pty ({args.starts} starts each, taking turns)")
        for name, samples in frames.items():
            ratio = statistics.median(samples) / echo
            goal = (
                ""
                if name == "echo (minimal blessed)"
                else f"  (goal: at most {FRAME_GOAL}x: {_met(ratio, FRAME_GOAL)})"
            )
            print(f"  {name:22s} {_ms(samples)}  {ratio:5.2f}x{goal}")
    return 0


def _met(ratio: float, goal: float) -> str:
    return "met" if ratio <= goal else "not met"


if __name__ == "__main__":
    sys.exit(main())
