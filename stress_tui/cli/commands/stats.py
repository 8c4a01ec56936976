"""``stress-tui stats``: the record across matches and every person's rating, as tables,
as JSON, or as charts."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from stress_tui.cli.errors import DATA_VAR, EXIT_OUTPUT, EXIT_USAGE, PROG, UsageError, _
from stress_tui.cli.flags import add_lang_flag, only_display_flags
from stress_tui.core.text import N_, Say
from stress_tui.core.words import change_text, decimal, rating_text, shown_name

if TYPE_CHECKING:  # the storage loads when the command runs, not for its help
    from stress_tui.core.daily import Streak
    from stress_tui.storage.ratings import PlayerRating
    from stress_tui.storage.record import Record
    from stress_tui.storage.standings import Standing

CHART_FROM = 2
"""The fewest rated rounds ``--chart`` draws a person's chart from (fewer: a line says so;
one round makes a chart of a single dot)."""


def declare(commands: Any) -> argparse.ArgumentParser:
    from stress_tui.cli.parser import add_command

    stats = add_command(
        commands,
        "stats",
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
    from stress_tui.storage.database import record_path
    from stress_tui.storage.files import StorageError, reason
    from stress_tui.storage.pending import catch_up
    from stress_tui.storage.record import Record
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


def ratings_table(
    ratings: Mapping[str, PlayerRating],
    today: str,
    measure: Callable[[str], int] = len,
    plus_minus: str = "±",
    _: Say = N_,
) -> str:
    """The people's ratings (rating ± deviation, the change over the last matches, rated
    rounds, the level they play like, the daily streak), then the computer levels' fixed
    ratings for comparison. Columns are padded to the width ``measure`` gives a text on
    screen (``Terminal.length``: a CJK character is two columns); ``plus_minus`` is how
    the sign is written (``+-`` for an output that cannot show it)."""
    from stress_tui.core.rating import LEVEL_RATINGS
    from stress_tui.storage.ratings import CHANGE_MATCHES, nearest_level

    people = [
        (
            shown_name(name, _),
            rating_text(player.rating, plus_minus) if player.history else "-",
            change_text(player.change()),
            str(player.rated_rounds),
            _(nearest_level(player.rating)) if player.history else "-",
            _streak_text(player.streak(today), _) if player.dailies else "-",
        )
        for name, player in sorted(ratings.items())
    ]
    head = (
        _("player"),
        _("rating {pm} RD").format(pm=plus_minus),
        _("change, last {n} matches").format(n=CHANGE_MATCHES),
        _("rated rounds"),
        _("plays like"),
        _("daily streak"),
    )
    parts = []
    if people:
        parts.append(_columns([head, *people], measure))
    levels = [
        (_(level), f"{anchor.rating:.0f}", _("fixed (measured: docs/ratings.md)"))
        for level, anchor in LEVEL_RATINGS.items()
    ]
    parts.append(_columns([(_("computer"), _("rating"), ""), *levels], measure))
    return "\n\n".join(parts)


def _streak_text(streak: Streak, _: Say = N_) -> str:
    return _("{current} (best {best})").format(current=streak.current, best=streak.best)


def _columns(rows: Sequence[tuple[str, ...]], measure: Callable[[str], int]) -> str:
    widths = [max(measure(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            cell + " " * (width - measure(cell)) for cell, width in zip(row, widths, strict=True)
        )
        for row in rows
    ]
    return "\n".join(line.rstrip() for line in lines)


def ratings_json(ratings: Mapping[str, PlayerRating], today: str) -> dict[str, Any]:
    """The ratings for scripts: ``ratings`` (a person each: ``name``, ``rating``,
    ``deviation``, ``volatility``, ``rounds``, ``change``, ``plays_like``, ``streak``,
    ``best_streak``; rating fields ``null`` before any rated round) and ``levels`` (each
    computer level's fixed ``rating`` and ``deviation``)."""
    from stress_tui.core.rating import LEVEL_RATINGS
    from stress_tui.storage.ratings import nearest_level

    people = []
    for name, player in sorted(ratings.items()):
        rated = bool(player.history)
        streak = player.streak(today)
        people.append(
            {
                "name": name,
                "rating": player.rating.rating if rated else None,
                "deviation": player.rating.deviation if rated else None,
                "volatility": player.rating.volatility if rated else None,
                "rounds": player.rated_rounds,
                "change": player.change(),
                "plays_like": nearest_level(player.rating) if rated else None,
                "streak": streak.current,
                "best_streak": streak.best,
            }
        )
    return {
        "ratings": people,
        "levels": [
            {"level": level, "rating": anchor.rating, "deviation": anchor.deviation}
            for level, anchor in LEVEL_RATINGS.items()
        ],
    }


def _seconds(value: float | None, _: Say = N_) -> str:
    return "-" if value is None else decimal(value, 2, _) + "s"


def record_table(record: Record, measure: Callable[[str], int] = len, _: Say = N_) -> str:
    """The record as plain text tables, its words said with ``_``: people, a row per name
    and rule set; then computers, a row per level and rule set. Columns are padded to the
    text's width on screen as ``measure`` finds it (``Terminal.length``: a name in CJK
    characters takes two columns a character)."""
    tables = []
    people = (_("player"), record.rows(), lambda name: shown_name(name, _))
    computers = (_("computer"), record.computer_rows(), _)  # by level: said as the screen does
    for head, rows, who in (people, computers):
        if rows:
            tables.append(_standings_table(head, rows, measure, _, who))
    if not tables:
        return _("No rounds recorded yet.")
    return "\n\n".join(tables)


def _standings_table(
    head: str,
    standings: list[tuple[str, str, Standing]],
    measure: Callable[[str], int],
    _: Say,
    who_said: Say,
) -> str:
    header = (
        head,
        _("rules"),
        _("matches"),
        _("rounds"),
        _("best reaction"),
        _("best round"),
    )
    rows = [header] + [
        (
            who_said(who),
            rules,
            f"{s.matches_won}-{s.matches_lost}",
            f"{s.rounds_won}-{s.rounds_lost}",
            _seconds(s.best_reaction, _),
            _seconds(s.best_round, _),
        )
        for who, rules, s in standings
    ]
    return _columns(rows, measure)


def record_json(record: Record) -> dict[str, Any]:
    """The record for scripts: ``{"players": [{"name", "rules", ...standing}],
    "computers": [{"level", "rules", ...standing}]}``."""
    from dataclasses import asdict

    return {
        "players": [
            {"name": name, "rules": rules, **asdict(standing)}
            for name, rules, standing in record.rows()
        ],
        "computers": [
            {"level": level, "rules": rules, **asdict(standing)}
            for level, rules, standing in record.computer_rows()
        ],
    }
