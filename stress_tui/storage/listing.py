"""The recent replays as ``replay --list`` lists them: one ``Summary`` a round, newest
first, and a line for each file that does not read (the command line formats them).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from stress_tui.core.actions import Play
from stress_tui.core.notation import format_rules, parse_rules
from stress_tui.core.text import Say
from stress_tui.core.words import N_
from stress_tui.storage.files import StorageError, cannot_read
from stress_tui.storage.recorder import being_played
from stress_tui.storage.replay import load, replay_dir


@dataclass(frozen=True)
class Summary:
    """One line of ``replay --list``."""

    path: Path
    """The replay file."""
    started: str
    """When the round began (ISO 8601, UTC)."""
    names: tuple[str, str]
    """The players' names, as the replay keeps them (``You``: a name nobody gave)."""
    kinds: tuple[str, str]
    """Who played each side: ``human``, ``bot:hard``."""
    rules: str
    """The rules in notation."""
    winner: str
    """The winner's name, ``nobody`` (a drawn round), ``(being played)`` (a game is playing
    it now), ``(cut short)`` or ``(sealed)`` (a network joiner's, its seed never come)."""
    seconds: float | None
    """How long the round lasted (to its last recorded action when cut short or being
    played)."""


def summaries(
    folder: Path | None = None, limit: int = 20, _: Say = N_
) -> tuple[list[Summary], list[str]]:
    """The most recent replays, newest first, and one line for each unreadable file (said
    with ``_``)."""
    folder = folder if folder is not None else replay_dir()
    try:
        if not folder.is_dir():
            return [], []
        entries = list(folder.iterdir())
    except OSError as error:
        return [], [cannot_read(folder, error).said(_)]
    paths = sorted(
        (p for p in entries if p.name.endswith((".jsonl", ".jsonl.part"))),
        key=lambda p: p.name,
        reverse=True,
    )
    found: list[Summary] = []
    problems: list[str] = []
    for path in paths:
        if len(found) + len(problems) >= limit:
            break
        try:
            replay = load(path)
        except StorageError as error:
            problems.append(error.said(_))
            continue
        if not any(isinstance(action, Play) for action in replay.actions):
            continue  # quit before the first card was played: nothing to watch
        header = replay.header
        names = header.get("names") or ["p1", "p2"]
        kinds = header.get("players") or ["?", "?"]
        if replay.end is None and being_played(path):
            winner = N_("(being played)")
            seconds = replay.actions[-1].time if replay.actions else 0.0
        elif replay.end is None:
            winner = N_("(sealed)") if replay.sealed else N_("(cut short)")
            seconds = replay.actions[-1].time if replay.actions else 0.0
        else:
            won = replay.end.get("winner")
            winner = names[won] if won in (0, 1) else N_("nobody")
            seconds = float(replay.end.get("t", 0.0))
        found.append(
            Summary(
                path,
                str(header.get("started", "?")),
                (str(names[0]), str(names[1])),
                (str(kinds[0]), str(kinds[1])),
                format_rules(parse_rules(str(header.get("rules")))),
                winner,
                seconds,
            )
        )
    return found, problems
