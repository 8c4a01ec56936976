"""The rules in effect in plain words: one short line for the table, a list for --rules."""

from __future__ import annotations

from .rules import Rules


def short_line(rules: Rules) -> str:
    """One line for the table, e.g. ``standard 52 · row 4 · stacking · both piles``."""
    parts = [rules.deck, f"row {rules.row_size}"]
    if rules.jokers:
        parts.append(f"{rules.jokers} jokers")
    if rules.stacking:
        parts.append("stacking")
    if not rules.wrap:
        parts.append("no wrap")
    parts.append(f"stress: {rules.stress_penalty.value}")
    if rules.stress_stop:
        parts.append("stress stop")
    parts.append(f"to {rules.wins}")
    return " · ".join(parts)


def plain_words(rules: Rules) -> list[str]:
    """The rules in effect, one sentence a line."""
    return [short_line(rules)]
