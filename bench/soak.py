"""Long play: bot against bot in the real table for as long as asked, memory watched; and the
simulator's 10,000 rounds over every deck and house rule.

The table soak runs ``python -m stress_tui --p1 bot:expert --p2 bot:expert --seed S`` in a
pseudo-terminal (80x24, the data directory in a temporary folder, so replays and the record
are written as in play) and presses Enter on every result screen (next round, rematch), so
rounds and matches follow one another for the whole run. Every few seconds it reads the
program's resident memory (``VmRSS`` in ``/proc/PID/status``) and its open files
(``/proc/PID/fd``). At the end it quits with Ctrl-C and checks the exit status (130) and the
terminal (restored). With ``--audit`` the program runs under ``bench.fuzz.audited_main``,
which counts every round's cards from the inside.

Memory is judged after a warm-up (the first minute: imports, card drawings, caches): the
median of the last quarter of the samples against the median of the first quarter, and the
least-squares slope over all of them.

    python bench/soak.py --minutes 30 [--interval 5] [--seed 1] [--deck D] [--wins N]
                         [--audit] [--trace-memory] [--cache-caps 1024,256] [--out FILE]
    python bench/soak.py --sim 10000 [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `tests.tty` and `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fuzz import (
    AUDIT_CACHE_CAPS_ENV,
    AUDIT_ENV,
    AUDIT_MEMORY_ENV,
    REPO,
    Audit,
    audited_argv,
    private_env,
)
from tests.screen import restore_problems
from tests.tty import TtySession

BOTS = ["--p1", "bot:expert", "--p2", "bot:expert"]
WARM_UP = 60.0
"""Seconds of samples left out of the memory verdict."""
GROWTH_LIMIT_KB = 2048
"""Most the resident memory may grow from the first quarter to the last (after warm-up)."""
LOG_KEEP = 1 << 18
"""Bytes of the program's output kept (the rest is dropped as the run goes)."""


def rss_kb(pid: int) -> int:
    """The process's resident memory in kB (``VmRSS``)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise ValueError(f"no VmRSS for {pid}")


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def slope_per_minute(samples: list[tuple[float, int]]) -> float:
    """Least-squares slope of (seconds, kB) samples, in kB per minute."""
    if len(samples) < 2:
        return 0.0
    xs = [t for t, _ in samples]
    ys = [v for _, v in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    var = sum((x - mx) ** 2 for x in xs)
    if var == 0:
        return 0.0
    return 60 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var


@dataclass
class SoakResult:
    """What a table soak came to."""

    seconds: float
    audited: bool
    rounds: int = 0
    """Result screens seen (each a round ended)."""
    matches: int = 0
    """Of them, the ends of a match (``Enter: rematch``)."""
    samples: list[tuple[float, int]] = field(default_factory=list)
    """(seconds since start, resident kB)."""
    files: list[tuple[float, int]] = field(default_factory=list)
    """(seconds since start, open file descriptors)."""
    longest_silence: float = 0.0
    """The longest time the program wrote nothing (a frozen table would show here)."""
    exit_code: int | None = None
    restore_problems: list[str] = field(default_factory=list)
    tty_mode_restored: bool = False
    replays: int = 0
    part_files: int = 0
    inside: list[dict[str, Any]] = field(default_factory=list)
    """Every round counted from the inside (``--audit``)."""
    grown: list[str] = field(default_factory=list)
    """With ``--trace-memory``: the allocation sites that grew most after round 3."""
    failure: str | None = None

    @property
    def warm_up(self) -> float:
        """Seconds left out at the start: ``WARM_UP``, or a quarter of a shorter run."""
        return min(WARM_UP, self.seconds / 4)

    def warm(self) -> list[tuple[float, int]]:
        return [(t, v) for t, v in self.samples if t >= self.warm_up] or self.samples

    @property
    def files_steady(self) -> bool:
        """Open files after the warm-up never more than at its end, plus one (the replay
        being written may be open or not at a sample)."""
        warm = [n for t, n in self.files if t >= self.warm_up] or [n for _, n in self.files]
        return not warm or max(warm) <= warm[0] + 1

    @property
    def growth_kb(self) -> int:
        warm = self.warm()
        quarter = max(1, len(warm) // 4)
        first = statistics.median(v for _, v in warm[:quarter])
        last = statistics.median(v for _, v in warm[-quarter:])
        return int(last - first)

    @property
    def slope(self) -> float:
        return slope_per_minute(self.warm())

    @property
    def memory_steady(self) -> bool:
        return bool(self.samples) and self.growth_kb <= GROWTH_LIMIT_KB

    @property
    def held(self) -> bool:
        cards = all(r["same"] for r in self.inside) and (not self.audited or bool(self.inside))
        return (
            self.failure is None
            and self.rounds > 0
            and self.memory_steady
            and self.files_steady
            and cards
            and self.exit_code == 130
            and not self.restore_problems
            and self.tty_mode_restored
        )

    def summary(self) -> str:
        values = [v for _, v in self.samples]
        lines = [
            f"table soak{' (audited)' if self.audited else ''}: {self.seconds / 60:.1f} min, "
            f"{self.rounds} rounds, {self.matches} matches, {len(self.samples)} samples; "
            f"longest silence {self.longest_silence:.1f} s",
        ]
        if values:
            lines.append(
                f"  RSS kB: first {values[0]}, min {min(values)}, max {max(values)}, last "
                f"{values[-1]}; after {self.warm_up:.0f} s warm-up: growth first->last quarter "
                f"{self.growth_kb} kB, slope {self.slope:+.1f} kB/min -> "
                f"{'steady' if self.memory_steady else 'GROWING'}"
            )
        if self.files:
            lines.append(
                f"  open files: first {self.files[0][1]}, last {self.files[-1][1]}, "
                f"max {max(n for _, n in self.files)} -> "
                f"{'steady' if self.files_steady else 'GROWING'}"
            )
        bad = [r for r in self.inside if not r["same"]]
        lines.append(
            f"  replays written {self.replays} (+{self.part_files} .part); rounds counted "
            f"inside {len(self.inside)}, not adding up {len(bad)}; exit {self.exit_code}; "
            f"restored: {not self.restore_problems and self.tty_mode_restored}"
        )
        sized = [r for r in self.inside if "sprites" in r]
        if sized:
            lines.append(
                f"  drawing caches at the ends of rounds 1, {len(sized) // 2} and "
                f"{len(sized)}: sprites {sized[0]['sprites']}, "
                f"{sized[len(sized) // 2 - 1]['sprites']}, {sized[-1]['sprites']}, "
                f"max {max(r['sprites'] for r in sized)}; cells {sized[0]['cells']}, "
                f"{sized[len(sized) // 2 - 1]['cells']}, {sized[-1]['cells']}, "
                f"max {max(r['cells'] for r in sized)}"
            )
        lines += [f"  grew: {line}" for line in self.grown]
        if self.failure:
            lines.append(f"  FAILED: {self.failure}")
        return "\n".join(lines)


def run_soak(
    seconds: float,
    folder: Path,
    *,
    interval: float = 5.0,
    seed: int = 1,
    audit: bool = False,
    trace_memory: bool = False,
    cache_caps: str | None = None,
    extra_args: tuple[str, ...] | list[str] = (),
    progress: bool = False,
) -> SoakResult:
    """Bots play in the real table for ``seconds``; see the module docstring."""
    args = [*BOTS, "--seed", str(seed), *extra_args]
    env = private_env(folder)
    audit_file = folder / "audit.json"
    if audit:
        env[AUDIT_ENV] = str(audit_file)
        if trace_memory:
            env[AUDIT_MEMORY_ENV] = "1"
        if cache_caps:
            env[AUDIT_CACHE_CAPS_ENV] = cache_caps
    argv = audited_argv(args) if audit else None
    result = SoakResult(seconds, audit)
    with TtySession(argv, args=() if audit else args, env=env, cwd=REPO) as s:
        start = time.monotonic()
        next_sample = start
        last_output = start
        on_result = False
        try:
            while (now := time.monotonic()) - start < seconds:
                if not s.alive():
                    raise AssertionError(f"the program ended, status {s.exit_code}")
                if now >= next_sample:
                    result.samples.append((now - start, rss_kb(s.pid)))
                    result.files.append((now - start, open_files(s.pid)))
                    next_sample += interval
                    if progress:
                        print(
                            f"{(now - start) / 60:5.1f} min  rss {result.samples[-1][1]} kB"
                            f"  rounds {result.rounds}",
                            flush=True,
                        )
                if s.pump(0.1):
                    last_output = time.monotonic()
                    text = s.text()
                    showing = "Enter: rematch" in text or "Enter: next round" in text
                    if showing and not on_result:
                        result.rounds += 1
                        result.matches += "Enter: rematch" in text
                        s.send("\r")
                    on_result = showing
                    if len(s.log) > 2 * LOG_KEEP:
                        del s.log[:-LOG_KEEP]
                result.longest_silence = max(result.longest_silence, time.monotonic() - last_output)
            s.send(b"\x03")
            result.exit_code = s.wait_exit(timeout=10)
        except (AssertionError, OSError, ValueError) as error:
            result.failure = " | ".join(str(error).splitlines()[:3])
            result.exit_code = s.exit_code
        result.restore_problems = restore_problems(s.raw_log())
        result.tty_mode_restored = s.tty_mode_restored()
    replays = folder / "stress_tui_data_dir" / "replays"
    if replays.is_dir():
        names = [p.name for p in replays.iterdir()]
        result.replays = sum(n.endswith(".jsonl") for n in names)
        result.part_files = sum(n.endswith(".part") for n in names)
    if audit and audit_file.exists():
        audited = Audit.read(audit_file)
        result.inside, result.grown = audited.rounds, audited.memory
    return result


def run_sim(games: int, seed: int) -> int:
    """``stress_tui.players.soak.soak``: rounds over every deck and house-rule combination and every
    pairing of levels, invariants checked; prints the figures."""
    from stress_tui.players.soak import rule_variants, soak

    problems: list[str] = []

    def note(index: int, rules: Any, players: tuple[str, str], what: str) -> None:
        problems.append(f"round {index} {rules} {players}: {what}")

    started = time.perf_counter()
    result = soak(games, seed=seed, on_violation=note)
    wall = time.perf_counter() - started
    print(
        f"sim soak: {result.games} rounds over {len(rule_variants())} rule sets and 16 "
        f"pairings of levels, seed {seed}, {wall:.0f} s ({result.games_per_second:.0f} "
        f"rounds/s)"
    )
    print(
        f"  finished {result.finished}, wins {result.wins}, drawn "
        f"{result.finished - sum(result.wins)}, invariant violations "
        f"{result.invariant_violations}"
    )
    for line in problems[:20]:
        print(f"  {line}")
    return 0 if result.invariant_violations == 0 and result.finished == games else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long the bots play")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between samples")
    parser.add_argument("--seed", type=int, default=1, help="the match's seed")
    parser.add_argument("--deck", help="the deck (default: the game's, standard)")
    parser.add_argument("--wins", type=int, help="round wins that take a match")
    parser.add_argument(
        "--audit", action="store_true", help="count every round's cards from inside the program"
    )
    parser.add_argument(
        "--trace-memory",
        action="store_true",
        help="with --audit: trace allocations and show the sites that grew",
    )
    parser.add_argument(
        "--cache-caps",
        metavar="CELLS,SPRITES",
        help="with --audit: an experiment with smaller drawing caches than "
        "the game's 1024,256, to tell their growth from a leak",
    )
    parser.add_argument("--out", type=Path, help="write the result (samples too) as JSON")
    parser.add_argument(
        "--sim",
        type=int,
        metavar="ROUNDS",
        help="run the simulator's soak of ROUNDS rounds instead",
    )
    parser.add_argument("--progress", action="store_true", help="a line per sample")
    args = parser.parse_args(argv)
    if args.sim is not None:
        return run_sim(args.sim, args.seed if args.seed != 1 else 0)
    game_args = [
        *(["--deck", args.deck] if args.deck else []),
        *(["--wins", str(args.wins)] if args.wins else []),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        result = run_soak(
            args.minutes * 60,
            Path(tmp),
            interval=args.interval,
            seed=args.seed,
            audit=args.audit or args.trace_memory or bool(args.cache_caps),
            trace_memory=args.trace_memory,
            cache_caps=args.cache_caps,
            progress=args.progress,
            extra_args=game_args,
        )
    print(result.summary())
    print(f"  => {'held' if result.held else 'FAILED'}")
    if args.out:
        args.out.write_text(
            json.dumps(
                {
                    **asdict(result),
                    "growth_kb": result.growth_kb,
                    "slope_kb_per_min": result.slope,
                    "held": result.held,
                }
            )
        )
    return 0 if result.held else 1


if __name__ == "__main__":
    sys.exit(main())
