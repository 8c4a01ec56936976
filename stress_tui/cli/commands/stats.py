"""``stress-tui stats``: the record across matches and every person's rating, as tables,
as JSON, or as charts."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

from stress_tui.cli.errors import DATA_VAR, EXIT_OUTPUT, EXIT_USAGE, PROG, UsageError, _
from stress_tui.cli.flags import add_lang_flag, only_display_flags

CHART_FROM = 2
"""The fewest rated rounds ``--chart`` draws a person's chart from (fewer: a line says so;
one round makes a chart of a single dot)."""


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command

    stats = add_command(
        commands,
        "stats",
        help=_("print the record across matches"),
        usage=f"{PROG} stats [--json | --chart [NAME]]",
        description=_(
            "Print the record kept across matches, per player name and rule set: "
            "matches and rounds won and lost, the best reaction time and the shortest round "
            "won (record.sqlite in the data folder for stress-tui: ~/.local/share/stress-tui "
            "on Linux, or ${variable}); then every person's rating (Glicko-2: the rating and "
            "its deviation, how much it moved over the last matches, the computer level it "
            "is nearest, the daily streak) and the computer levels' fixed ratings "
            "(docs/ratings.md)."
        ).format(variable=DATA_VAR),
    )
    add_lang_flag(stats, top=False)
    shown_as = stats.add_mutually_exclusive_group()
    shown_as.add_argument(
        "--json",
        action="store_true",
        help=_("print it as JSON, for scripts"),
    )
    shown_as.add_argument(
        "--chart",
        nargs="?",
        const="",
        metavar="NAME",
        help=_(
            "draw each person's rating and median reaction over their last rounds "
            "(or NAME's alone), in braille dots, or in ASCII where the output cannot show them"
        ),
    )
    return stats


def run(args: argparse.Namespace, flagged: bool) -> int:
    import datetime
    import json

    from stress_tui.cli.errors import said, say
    from stress_tui.cli.settings import load_config
    from stress_tui.cli.tty import display_width
    from stress_tui.storage.files import StorageError, reason
    from stress_tui.storage.pending import catch_up
    from stress_tui.storage.ratings import ratings_json, ratings_table
    from stress_tui.storage.record import Record, record_json, record_path, record_table
    from stress_tui.terminal.draw.chart import can_encode

    only_display_flags(args, "stats")
    if not flagged:
        load_config(flagged)  # for its language alone
    catch_up()  # the rounds a game finished and could not count (killed, the record held)
    chart = getattr(args, "chart", None)
    try:  # the whole of each person's history only for a chart of it
        record = Record.load(histories=chart is not None)
    except StorageError as error:
        say(said(error))
        return EXIT_USAGE
    except OSError as error:  # locked by another program past the wait, a read error
        say(_("{path}: cannot read: {why}").format(path=record_path(), why=reason(error)))
        return EXIT_OUTPUT
    today = datetime.date.today().isoformat()
    encoding = getattr(sys.stdout, "encoding", None)
    if chart is not None:
        return _charts(record.ratings, chart, ascii_=not can_encode(encoding))
    if getattr(args, "json", False):
        print(json.dumps({**record_json(record), **ratings_json(record.ratings, today)}, indent=2))
    elif not record.standings:
        print(record_table(record, display_width(), _))
    else:
        plus_minus = "±" if can_encode(encoding, "±") else "+-"
        print(record_table(record, display_width(), _))
        print()
        print(ratings_table(record.ratings, today, display_width(), plus_minus, _))
    return 0


def _charts(ratings: Mapping[str, Any], name: str, ascii_: bool) -> int:
    """``stats --chart [NAME]``: every person's chart (or NAME's), in ASCII if asked."""
    from stress_tui.cli.tty import display_width, output_width
    from stress_tui.core.text import harmless
    from stress_tui.core.words import shown_name
    from stress_tui.terminal.ratingchart import rating_chart

    if name and name not in ratings:  # a name nobody gave, as the stats table shows it
        name = next((key for key in ratings if shown_name(key, _) == name), name)
    if name and name not in ratings:
        who = repr(harmless(name, 20))
        raise UsageError(_("--chart: nobody named {name} in the record").format(name=who))
    chosen = [name] if name else sorted(ratings)
    if not chosen:
        print(_("No rounds rated yet."))
        return 0
    width = output_width() or 80
    measure = display_width()
    charts = []
    for who in chosen:
        history = ratings[who].history
        if 0 < len(history) < CHART_FROM:
            charts.append(_too_few(shown_name(who, _), len(history)))
        else:
            lines = rating_chart(who, history, width, ascii=ascii_, measure=measure)
            charts.append("\n".join(lines))
    print("\n\n".join(charts))
    return 0


def _too_few(name: str, rounds: int) -> str:
    """Why a person's chart is not drawn yet."""
    from stress_tui.terminal.lang import ngettext

    return ngettext(
        "{name}: {n} rated round so far, too few to draw (a chart starts at {least})",
        "{name}: {n} rated rounds so far, too few to draw (a chart starts at {least})",
        rounds,
    ).format(name=name, n=rounds, least=CHART_FROM)
