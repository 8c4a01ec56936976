"""``stress-tui sim``: bots against each other on a virtual clock, no screen; or the
computer levels' ratings measured (``--rate-levels``)."""

from __future__ import annotations

import argparse
from typing import Any

from stress_tui.cli.errors import PROG, UsageError, _
from stress_tui.cli.flags import (
    add_lang_flag,
    add_player_flags,
    add_rule_flags,
    not_with,
    positive,
    typed,
)

DEFAULT_PLAYER = "bot:normal"
"""Who plays a side when ``--p1``/``--p2`` is not given."""


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command

    sim = add_command(
        commands,
        "sim",
        usage=f"{PROG} sim [OPTION...]",
        description=_(
            "Play whole rounds between bots on a virtual clock, as fast as the "
            "machine allows, and print statistics. House rules come from the flags and the "
            "config file as for a game."
        ),
    )
    add_rule_flags(sim)
    add_player_flags(sim, default_kind=DEFAULT_PLAYER)
    add_lang_flag(sim, top=False)
    simulation = sim.add_argument_group(_("simulation"))
    simulation.add_argument(
        "--games",
        type=typed(positive, "games"),
        metavar="N",
        default=100,
        help=_("rounds to play; default: 100"),
    )
    simulation.add_argument(
        "--json",
        action="store_true",
        default=False,
        help=_("print one JSON object instead of a table"),
    )
    simulation.add_argument(
        "--jobs",
        type=typed(positive, "jobs"),
        metavar="N",
        help=_(
            "rounds played at once, each process its own (the results are the same "
            "for any N), on no more than the cores free as the run starts (it says so "
            "when fewer); default: one per free core"
        ),
    )
    simulation.add_argument(
        "--rate-levels",
        action="store_true",
        default=False,
        help=_(
            "measure the computer levels' ratings instead: --games rounds of every level "
            "against every other, each way round, and the ratings that fit who won "
            "(docs/ratings.md); --p1 and --p2 are not used"
        ),
    )
    return sim


def run(args: argparse.Namespace, flagged: bool) -> int:
    import dataclasses

    from stress_tui.cli.settings import load_config, settings_from_args
    from stress_tui.core.choices import PLAYER_KINDS

    config = load_config(flagged)
    if args.rules or args.print_config:
        raise not_with(args, "sim")
    if args.rate_levels:
        for side in ("p1", "p2"):
            if getattr(args, side, None) is not None:
                raise UsageError(
                    _("--{side}: not with --rate-levels (it plays every level)").format(side=side)
                )
    for side in ("p1", "p2"):
        kind = getattr(args, side, None)
        if kind is None:
            setattr(args, side, DEFAULT_PLAYER)
        elif not kind.startswith("bot:"):
            bots = ", ".join(k for k in PLAYER_KINDS if k.startswith("bot:"))
            raise UsageError(
                _("--{side}: the simulator plays bots only (choose from {bots})").format(
                    side=side, bots=bots
                )
            )
    settings = settings_from_args(args, dataclasses.replace(config, players={}))
    if settings.first_round != 1:
        raise UsageError(_("--seed: the simulator takes a seed, not a round (no /R)"))
    if args.rate_levels:
        from stress_tui.players import anchors

        return anchors.run_cli(settings, args.games, args.json, getattr(args, "jobs", None), _)
    from stress_tui.players.sim import run_cli

    return run_cli(settings, args.games, args.json, getattr(args, "jobs", None), _)
