"""One hash of every action and event of thousands of seeded rounds: behaviour kept or not.

    .venv/bin/python bench/event_hash.py                   # 3,000 rounds, seed 0
    .venv/bin/python bench/event_hash.py --rounds 6000 --seed 7

Round ``i`` is played by the rules ``i % len(variants)`` of every deck with every house rule
(deal, jokers, the deck's row and one smaller, stacking, wrap, stress penalty, false-stress
penalty, stress stop, lockout on and off), between a pairing of bot levels taken in turn
(all sixteen, both ways round). Most rounds run on the simulator's virtual clock
(``Table.advance``); every fourth has its second player outside the table, its moves
handed in through ``Table.submit`` the way keys are. Every action applied and the events
it gave go into one SHA-256, in a canonical form: nested JSON lists of field values in
declaration order, each value tagged with its class's name, enum members by name, cards
as rank and suit. Not ``repr``: a field's type or a message's wording may change and the
hash stays; a renamed class goes into ``RENAMED`` (new name -> old) to keep it.

The same hash before and after a change means every one of those rounds went exactly as
before. It runs on the layered package (``stress_tui.core``...) and on the flat one it
was cut from (commit 75261d1), so a change can be held up against the code before it:

    git worktree add --detach /tmp/before main
    PYTHONPATH=/tmp/before .venv/bin/python bench/event_hash.py
    PYTHONPATH=. .venv/bin/python bench/event_hash.py
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import functools
import hashlib
import itertools
import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

try:
    from stress_tui.core.actions import Action
    from stress_tui.core.cards import DECKS
    from stress_tui.core.engine import Game, Phase
    from stress_tui.core.events import Event
    from stress_tui.core.notation import NotationError, parse_rules
    from stress_tui.core.rules import Rules
    from stress_tui.core.table import Table
    from stress_tui.core.view import player_view
    from stress_tui.players.bot import make_bot
    from stress_tui.players.sim import STEP, round_rngs
except ImportError:  # the flat package before the layers (75261d1)
    from stress_tui.bot import make_bot  # type: ignore[import-not-found, no-redef]
    from stress_tui.cards import DECKS  # type: ignore[import-not-found, no-redef]
    from stress_tui.engine import Action, Event, Game, Phase  # type: ignore[import-not-found, no-redef]
    from stress_tui.notation import NotationError, parse_rules  # type: ignore[import-not-found, no-redef]
    from stress_tui.rules import Rules  # type: ignore[import-not-found, no-redef]
    from stress_tui.sim import STEP, round_rngs  # type: ignore[import-not-found, no-redef]
    from stress_tui.table import Table  # type: ignore[import-not-found, no-redef]

RENAMED: dict[str, str] = {}
"""Classes renamed since the hash was first recorded: new name -> the name it hashes as."""

LEVELS = ("easy", "normal", "hard", "expert")

PAIRS = tuple(itertools.product(LEVELS, repeat=2))
"""Every pairing of levels, both ways round."""

MAX_ACTIONS = 20_000
"""A round still going after this many actions is cut off (and that is hashed too)."""


def variants() -> list[str]:
    """Every deck with every combination of house rules that can be played, in notation
    (the text form replays keep, so it reads the same on old and new code)."""
    return list(rule_sets())


@functools.cache
def rule_sets() -> Mapping[str, Rules]:
    """``variants`` in their order, each with the rules it reads as: made once a process
    (thousands of texts, each parsed and checked)."""
    found: dict[str, Rules] = {}
    for name in DECKS:
        row = parse_rules(name).row_size  # the deck's own (kept by the deck before the table)
        rows = sorted({row, row - 1} - {0})
        for deal, jokers, row, stacking, wrap, penalty, false, stop, lockout in itertools.product(
            ("split", "each"),
            (0, 2),
            rows,
            ("on", "off"),
            ("on", "off"),
            ("both", "one", "give"),
            ("take", "ignore", "lockout"),
            ("off", "on"),
            ("0.75", "0"),
        ):
            text = (
                f"{name} deal={deal} jokers={jokers} row={row} stacking={stacking} "
                f"wrap={wrap} penalty={penalty} false-stress={false} stress-stop={stop} "
                f"lockout={lockout}"
            )
            try:
                found[text] = parse_rules(text)
            except NotationError:
                continue
    return found


def canonical(value: Any) -> Any:
    """``value`` as JSON-ready lists, numbers, strings and ``None``.

    >>> canonical(Phase.PLAYING)
    'PLAYING'
    >>> canonical((1, 2.5, None, True))
    [1, 2.5, None, True]
    """
    if isinstance(value, enum.Enum):
        return value.name
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        name = type(value).__name__
        return [
            RENAMED.get(name, name),
            *(canonical(getattr(value, f.name)) for f in dataclasses.fields(value)),
        ]
    if isinstance(value, (tuple, list)):
        return [canonical(item) for item in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"no canonical form for {type(value).__name__}: add one")


def _advance_only(table: Table, outside: Any) -> Iterator[None]:
    """The simulator's loop: jump to the next deadline and a step on."""
    game = table.game
    table.start(game.state.time)
    while game.state.phase is not Phase.ROUND_OVER and table.actions <= MAX_ACTIONS:
        deadline = table.next_deadline()
        if deadline is None:
            return
        table.advance(deadline + STEP)
        yield


def _with_submit(table: Table, outside: Any) -> Iterator[None]:
    """The second player outside the table: its moves come in through ``submit``, each at
    its time, between the table's own deadlines (a tie goes to the table)."""
    game = table.game
    table.start(game.state.time)
    planned: Action | None = None
    while game.state.phase is not Phase.ROUND_OVER and table.actions <= MAX_ACTIONS:
        if planned is None:
            if hasattr(outside, "plan"):  # a tree whose bots were asked of the game
                planned = outside.plan(game, game.state.time)
            else:
                planned = outside.decide(player_view(game.state, outside.player))
        deadline = table.next_deadline()
        if planned is not None and (deadline is None or planned.time < deadline):
            table.submit(planned)
            planned = None
        elif deadline is not None:
            table.advance(deadline)
        else:
            return
        yield


def event_hash(rounds: int, seed: int) -> tuple[str, int, int]:
    """The hash of ``rounds`` rounds from ``seed``, the actions and the events hashed."""
    texts = list(rule_sets())
    rules_list = list(rule_sets().values())
    digest = hashlib.sha256()
    counts = [0, 0]

    def record(action: Action, events: list[Event]) -> None:
        line = [canonical(action), [canonical(event) for event in events]]
        digest.update(json.dumps(line, separators=(",", ":")).encode())
        digest.update(b"\n")
        counts[0] += 1
        counts[1] += len(events)

    for index in range(rounds):
        rules = rules_list[index % len(rules_list)]
        first, second = PAIRS[(index // len(rules_list) + index) % len(PAIRS)]
        deal_rng, rng0, rng1 = round_rngs(seed, index)
        game = Game.deal(rules, deal_rng)
        bots = (make_bot(0, first, rng0), make_bot(1, second, rng1))
        loop: Callable[[Table, Any], Iterator[None]]
        if index % 4 == 3:
            table = Table(game, bots[:1], on_action=record)
            loop = _with_submit
        else:
            table = Table(game, bots, on_action=record)
            loop = _advance_only
        digest.update(f"round {index}: {texts[index % len(texts)]}; {first} {second}\n".encode())
        for _ in loop(table, bots[1]):
            pass
        digest.update(f"end {game.state.phase.name} {game.state.winner}\n".encode())
    return digest.hexdigest(), counts[0], counts[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    digest, actions, events = event_hash(args.rounds, args.seed)
    print(
        f"{digest}  ({args.rounds} rounds, seed {args.seed}, {len(variants())} rule variants, "
        f"{actions} actions, {events} events, {time.perf_counter() - started:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
