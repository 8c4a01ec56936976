"""A command loads what it uses and nothing more: the modules ``python -X importtime``
lists for ``stress-tui --version``, ``--help`` and the commands' own ``--help``, as sets
(how long they take is ``bench/startup.py``'s to measure, never a test's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from stress_tui.cli.commands import COMMANDS

REPO = Path(__file__).resolve().parents[1]
COMMAND = "import sys; from stress_tui.cli.main import main; sys.exit(main())"
"""What the ``stress-tui`` script runs."""

STORED = {"datetime", "hashlib", "json", "sqlite3", "secrets"}
"""What reading and writing replays and the record loads."""
FOUND = {"pathlib", "platformdirs", "tempfile", "shutil", "bz2", "lzma", "urllib", "ipaddress"}
"""What finding the config and data folders loads (platformdirs with pathlib)."""
SCREEN = {"asyncio", "blessed", "wcwidth", "ssl", "socket"}
"""What a full-screen program loads."""
HELP_TEXT = {
    "stress_tui",
    "stress_tui.cli",
    "stress_tui.cli.main",
    "stress_tui.cli.errors",
    "stress_tui.cli.flags",
    "stress_tui.cli.parser",
    "stress_tui.cli.network",
    "stress_tui.cli.commands",
    *(f"stress_tui.cli.commands.{name}" for name in ("play", *COMMANDS)),
    "stress_tui.core",
    "stress_tui.core.choices",
    "stress_tui.core.decks",
    "stress_tui.core.houserules",
    "stress_tui.core.keyboards",
    "stress_tui.core.kinds",
    "stress_tui.core.rulevalues",
    "stress_tui.core.rulewords",
    "stress_tui.core.text",
    "stress_tui.core.words",
    "stress_tui.net",
    "stress_tui.terminal",
    "stress_tui.terminal.lang",
}
"""The modules the help is made from: the house-rule table, the decks' facts, what a launch
chooses among and what they are written with, and the language it is said in (which, in
English, reads no catalogue), and the command line's modules that make the flags and
the commands' parsers; the network's package for its default port, not its
protocol (nor asyncio). Not the values made from them (``Rules``, ``Card``, ``Deck``,
``Settings``), nor the engine."""
SIGNALS = {"signal"}
"""What handling signals loads (the game's terminal, the simulator's workers); a command's
exit statuses are numbers, not looked up in it."""
VALUES = {"dataclasses", "inspect"}
"""What the value types load (``dataclasses`` brings ``inspect``, ``ast``, ``dis`` and
``tokenize``)."""


def python(*args: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` on this tree, in a fresh interpreter, which must succeed."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=REPO, env=env, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return done


def imported(*args: str) -> set[str]:
    """Every module ``stress-tui ARGS`` imports, by ``python -X importtime``."""
    done = python("-X", "importtime", "-c", COMMAND, *args)
    names = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    assert "stress_tui.cli.main" in names, done.stderr[-2000:]
    return names


def tops(names: set[str]) -> set[str]:
    """The top-level packages among ``names`` (``urllib`` for ``urllib.parse``)."""
    return {name.split(".")[0] for name in names}


def ours(names: set[str]) -> set[str]:
    return {name for name in names if name.split(".")[0] == "stress_tui"}


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version_loads_this_command_s_own_module_and_argparse_alone(flag: str) -> None:
    names = imported(flag)
    assert ours(names) == {"stress_tui", "stress_tui.cli", "stress_tui.cli.main"}
    assert tops(names) & (STORED | FOUND | SCREEN | VALUES | SIGNALS) == set()


OVERVIEW = {
    "stress_tui",
    "stress_tui.cli",
    "stress_tui.cli.main",
    "stress_tui.cli.errors",
    "stress_tui.cli.flags",
    "stress_tui.cli.parser",
    "stress_tui.cli.commands",
    "stress_tui.core",
    "stress_tui.core.choices",
    "stress_tui.core.decks",
    "stress_tui.core.text",
    "stress_tui.core.words",
    "stress_tui.terminal",
    "stress_tui.terminal.lang",
}
"""The modules the program's own help is made from: the list of commands, each in a line,
and the flags every command has, in the player's language; no command's module, not even
the game's, whose flags (the house rules) are ``stress-tui play --help``'s."""


@pytest.mark.parametrize("args", [("--help",), ("-h",), ("--lang", "de", "--help")], ids=" ".join)
def test_the_program_s_help_loads_no_command_nor_the_house_rule_table(
    args: tuple[str, ...],
) -> None:
    """Nor ``dataclasses``, which the table's declarations are made with."""
    names = imported(*args)
    assert ours(names) <= OVERVIEW, sorted(ours(names) - OVERVIEW)
    assert tops(names) & (STORED | FOUND | SCREEN | SIGNALS | VALUES) == set()


@pytest.mark.parametrize("name", ["play", *COMMANDS])
def test_a_command_s_help_loads_the_rule_table_it_is_made_from_and_nothing_else(
    name: str,
) -> None:
    """Its own command's module and the program's (``play``: the game's flags come before
    any command), none of the other commands'; not the engine, the storage, the terminal or
    the players; not platformdirs to say where the files are (the help describes the
    folders), not shutil for its width."""
    names = imported(name, "--help")
    assert ours(names) <= HELP_TEXT, sorted(ours(names) - HELP_TEXT)
    assert tops(names) & (STORED | FOUND | SCREEN | SIGNALS) == set()
    prefix = "stress_tui.cli.commands."
    assert {n.removeprefix(prefix) for n in names if n.startswith(prefix)} == {"play", name}


GETTEXT_READS = {"struct", "_struct", "copy", "weakref", "_weakrefset"}
"""What ``gettext`` loads to read a compiled catalogue (a ``.mo`` file), beyond itself."""


def test_german_reads_a_compiled_catalogue_and_loads_nothing_english_does_not() -> None:
    """``--lang de --version`` makes every help text in German: from the ``.mo`` file the
    build made, with what gettext needs to read one, and nothing that would compile the
    catalogue (``ast``, which parses its quoted texts)."""
    english = imported("--lang", "en", "--version")
    german = imported("--lang", "de", "--version")
    beyond = {name for name in german - english if name.split(".")[0] != "org"}  # copy's
    assert beyond <= GETTEXT_READS, sorted(beyond)


def test_the_simulator_loads_no_terminal() -> None:
    names = imported("sim", "--games", "1", "--seed", "1", "--jobs", "1")
    assert "stress_tui.players.sim" in names
    # The language its flags' help and its lines are said in is the terminal layer's
    # ``lang`` (which imports the os module and core.words only); nothing else of it.
    terminal = {name for name in names if name.startswith("stress_tui.terminal")}
    assert terminal <= {"stress_tui.terminal", "stress_tui.terminal.lang"}, sorted(terminal)
    assert tops(names) & (SCREEN | STORED - {"json"}) == set()  # json: for --json


FIRST_FRAME = REPO / "tests" / "fixtures" / "first_frame.py"
LATER = {
    "stress_tui.core.codec",
    "stress_tui.core.daily",
    "stress_tui.core.notation",
    "stress_tui.core.rating",
    "stress_tui.core.stats",
    "stress_tui.storage.ratings",
    "stress_tui.storage.record",
    "stress_tui.storage.replay",
    "stress_tui.terminal.netplay",
    "stress_tui.terminal.screens.help",
    "stress_tui.terminal.screens.netpanel",
    "stress_tui.terminal.screens.pause",
    "stress_tui.terminal.screens.question",
    "stress_tui.terminal.screens.result",
    "stress_tui.terminal.screens.small",
    "stress_tui.terminal.playback",
    "stress_tui.terminal.ratingchart",
}
"""Our modules a game needs only after its first frame (the round's replay and record, its
statistics, the ratings, the notation and the JSON form a replay and a network peer read,
the screens over the table: help, pause, the result) or not at all (the daily deal, the
replay viewer, the network)."""


def loaded_at_first_frame(tmp_path: Path, *args: str) -> set[str]:
    """Every module ``stress-tui ARGS`` has loaded when its first frame is written, in an
    80x24 pseudo-terminal (``tests/fixtures/first_frame.py`` notes them)."""
    from tests.tty import TtySession

    out = tmp_path / "modules.txt"
    env = {
        "PYTHONPATH": str(REPO),
        "STRESS_TUI_CONFIG": str(tmp_path / "config.toml"),
        "STRESS_TUI_DATA_DIR": str(tmp_path / "data"),
    }
    argv = [sys.executable, str(FIRST_FRAME), str(out), *args]
    with TtySession(argv, env=env, cwd=REPO) as session:
        session.wait_for(out.exists, 20, "the modules at the first frame")
        assert "STRESS" in session.row(0), session.dump()
    return set(out.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("players", [(), ("--p2", "bot:hard")], ids=["people", "computer"])
def test_a_game_s_first_frame_waits_for_nothing_it_needs_later(
    tmp_path: Path, players: tuple[str, ...]
) -> None:
    """Not the record (sqlite3), the replay (json, datetime), the statistics, the ratings,
    the network, a config file's reader (tomllib) when there is no config file, nor the
    computer (its module and ``statistics``): it sits down just after the first frame,
    while the table waits for the person to say they are ready."""
    names = loaded_at_first_frame(tmp_path, "--seed", "12", *players)
    assert "stress_tui.terminal.screen" in names
    assert ours(names) & LATER == set()
    players_or_network = ("stress_tui.players", "stress_tui.net")
    assert {name for name in names if name.startswith(players_or_network)} == set()
    later = {"json", "sqlite3", "datetime", "tomllib", "statistics", "decimal", "unicodedata"}
    assert tops(names) & later == set()
