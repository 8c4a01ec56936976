"""The engine is pure: it imports no terminal and no event loop, reads no clock and no
global random, and the same seed and timed actions always give the same events."""

from __future__ import annotations

import ast
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from stress_tui.core.actions import Action, CallStress, Flip, Play, ReadyToFlip, StopStress
from stress_tui.core.engine import Game, Phase
from stress_tui.core.events import Event
from stress_tui.core.notation import format_position
from stress_tui.core.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
ENGINE_MODULES = sorted(p.stem for p in (ROOT / "stress_tui" / "core").glob("*.py"))


def test_importing_the_engine_imports_no_terminal_and_no_event_loop() -> None:
    code = (
        "import json, sys\n"
        "import stress_tui.core.cards, stress_tui.core.rules\n"
        "import stress_tui.core.engine, stress_tui.core.notation\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    modules = set(json.loads(done.stdout))
    assert "stress_tui.core.engine" in modules
    for banned in ("blessed", "asyncio", "curses", "termios"):
        assert not {m for m in modules if m == banned or m.startswith(banned + ".")}, banned


def _problems(path: Path) -> list[str]:
    """Every use of a clock, the global random, a terminal or an event loop in a file."""
    banned_modules = {"time", "datetime", "asyncio", "blessed", "curses"}
    problems = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            problems += [
                alias.name for alias in node.names if alias.name.split(".")[0] in banned_modules
            ]
        elif isinstance(node, ast.ImportFrom) and node.module:
            root = node.module.split(".")[0]
            if root in banned_modules:
                problems.append(f"from {node.module}")
            if root == "random":
                problems += [
                    f"from random import {a.name}" for a in node.names if a.name != "Random"
                ]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "random" and node.attr != "Random":
                problems.append(f"random.{node.attr}")
            if node.value.id in banned_modules:
                problems.append(f"{node.value.id}.{node.attr}")
    return problems


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_the_engine_reads_no_clock_and_no_global_random(module: str) -> None:
    assert _problems(ROOT / "stress_tui" / "core" / f"{module}.py") == []


def test_the_source_check_would_see_a_clock_or_the_global_random(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import random\nimport time\nfrom random import shuffle\n"
        "def f(r: random.Random) -> float:\n    random.shuffle([])\n    return time.time()\n",
        encoding="utf-8",
    )
    assert sorted(_problems(bad)) == [
        "from random import shuffle",
        "random.shuffle",
        "time",
        "time.time",
    ]


# --------------------------------------------------------------------------- determinism


def _play_out(rules: Rules, seed: int, script: int) -> list[Action]:
    """The actions of a whole round played by a seeded, fallible policy."""
    g = Game.deal(rules, random.Random(seed))
    rng = random.Random(script)
    actions: list[Action] = []
    now = 0.0
    while g.phase is not Phase.ROUND_OVER and len(actions) < 3000:
        now += rng.choice((0.0, 0.1, 0.4))
        player = rng.randrange(2)
        action: Action
        if g.phase is Phase.WAITING_FLIP:
            action = Flip(now)
        elif g.phase is Phase.STRESS:
            action = CallStress(player, now)
        elif rng.random() < 0.1:
            action = rng.choice(
                (
                    CallStress(player, now),
                    StopStress(player, now),
                    ReadyToFlip(player, now),
                    Play(player, rng.randrange(rules.row_size), 1, now),
                )
            )
        elif g.legal_plays(player):
            action = Play(player, *rng.choice(g.legal_plays(player)), now)
        else:
            action = ReadyToFlip(player, now)
        g.apply(action)
        actions.append(action)
    return actions


def _replay(rules: Rules, seed: int, actions: Sequence[Action]) -> tuple[list[list[Event]], str]:
    g = Game.deal(rules, random.Random(seed))
    events = [g.apply(action) for action in actions]
    return events, format_position(g.state)


RULE_SETS = [
    Rules.for_deck("standard"),
    Rules.for_deck("jass", jokers=2, stress_penalty="one"),
    Rules.for_deck("skat", deal="each", stress_penalty="give", false_stress="lockout"),
    Rules.for_deck("doppelkopf", jokers=1, stacking=False, wrap=False),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=[r.deck for r in RULE_SETS])
def test_the_same_seed_and_timed_actions_give_the_same_events(rules: Rules) -> None:
    actions = _play_out(rules, seed=11, script=3)
    random.seed(1)
    first = _replay(rules, 11, actions)
    random.seed(2)  # the global random has no say
    second = _replay(rules, 11, actions)
    assert first == second
    assert any(first[0])


def test_another_seed_deals_another_round() -> None:
    rules = Rules.for_deck("standard")
    actions = [Flip(0.0)]
    assert _replay(rules, 1, actions) != _replay(rules, 2, actions)


def test_a_round_runs_with_the_clock_and_the_global_random_unplugged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = Rules.for_deck("jass", jokers=2)
    actions = _play_out(rules, seed=5, script=5)
    expected = _replay(rules, 5, actions)

    def unplugged(*args: object, **kwargs: object) -> None:
        raise AssertionError("the engine used the clock or the global random")

    for name in ("random", "shuffle", "choice", "randrange", "randint", "sample", "seed"):
        monkeypatch.setattr(random, name, unplugged)
    for name in ("time", "monotonic", "perf_counter", "sleep"):
        monkeypatch.setattr(time, name, unplugged)
    assert _replay(rules, 5, actions) == expected
