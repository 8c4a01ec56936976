"""Hostile text and output that cannot be written, tried on the commands in-process
(``tests/command.py``) and on the screens through the in-process terminal
(``tests/pilot.py``): crafted names, rules and fields in a config file, a record or a
replay, values too long, numbers not finite, nesting too deep, a garbage position; standard
output ASCII-only, on a full disk, a closed pipe, a closed terminal. Every one gives one
clear line (or none, where nobody is left to read it) and the conventional exit status;
nothing read from a file reaches the terminal raw.

What needs a process of its own (a file that is not a file, a memory limit, Ctrl-C, the
interpreter's exit after output failed, the terminal never taken before a refusal) is in
``tests/test_hostile.py``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import tests.test_replay
from stress_tui.core.rules import Rules
from stress_tui.storage.record import count_round
from tests import command, pilot
from tests.screen import say_ready
from tests.test_stats import won_by

NO_CONFIG = "/nonexistent/stress-tui-tests/config.toml"

RAW = re.compile(
    rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]"
)
"""Bytes that drive a terminal or reorder text: C0 controls but tab and newline, DEL, the
C1 controls (UTF-8), the bidirectional embeddings, overrides and isolates."""

CRAFTED = {
    "title": "\x1b]0;PWNED\x07",
    "clipboard": "\x1b]52;c;ZXZpbA==\x07",
    "clear": "A\x1b[2J\x1b[H",
    "c1": "B\u009b2J",
    "bidi": "C\u202eevil",
}
"""Strings a crafted file may hold: set the window title, write the clipboard (OSC 52),
blank the screen (CSI 2 J, also as the 8-bit C1 CSI), reverse the text that follows."""


def stress_tui(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[bytes]:
    """``stress-tui ARGS`` in-process, no terminal, the test's own data folder and no
    config file (unless ``extra`` sets ``STRESS_TUI_CONFIG``); output as bytes."""
    env = {"STRESS_TUI_DATA_DIR": str(tmp_path / "data"), "STRESS_TUI_CONFIG": NO_CONFIG}
    return command.run(*args, env={**env, **extra})


def one_line(done: subprocess.CompletedProcess[bytes], status: int = 2) -> str:
    """The one error line a command printed (checked: nothing else, no traceback)."""
    err = done.stderr.decode()
    assert done.returncode == status, (done.returncode, err[-500:])
    assert err.count("\n") == 1 and err.startswith("stress-tui: "), err[-500:]
    assert "Traceback" not in err
    return err.rstrip("\n")


def record_round(folder: Path, names: tuple[str, str] = ("Ann", "Bo"), seed: int = 3) -> Path:
    """A whole round between two plain players, recorded as the game records one, under
    ``names``."""
    path, _ = tests.test_replay.record_round(Rules.for_deck("skat", wins=1), seed, folder)
    craft_header(path, names=list(names))
    return path


def craft_header(path: Path, **fields: object) -> None:
    """Change fields of a replay's header, as a crafted file would."""
    lines = path.read_text().splitlines(keepends=True)
    header = {**json.loads(lines[0]), **fields}
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))


def not_a_file(
    tmp_path: Path,
    make: Callable[[Path], object],
    said: str,
    role: str,
    run: Callable[..., subprocess.CompletedProcess[bytes]],
) -> None:
    """Make a file that is not a file with ``make`` where ``role`` (``config``, ``keys``,
    ``replay-verify``, ``replay-list``) reads one, run the command that reads it with
    ``run(*args, **environment)``, and check the one line it says (``said`` in it)."""
    args, env, path = not_a_file_command(tmp_path, make, role)
    said_of_not_a_file(run(*args, **env), said, role, path)


def not_a_file_command(
    tmp_path: Path, make: Callable[[Path], object], role: str
) -> tuple[tuple[str, ...], dict[str, str], Path]:
    """Make a file that is not a file with ``make`` where ``role`` reads one (under
    ``tmp_path``, whose ``data`` folder is the command's): the command that reads it, its
    arguments and what it adds to the environment, and the file's path."""
    folder = tmp_path / "data" / "replays"
    folder.mkdir(parents=True)
    path = folder / "odd.jsonl" if role == "replay-list" else tmp_path / "odd"
    make(path)
    if role == "config":
        return ("--print-config",), {"STRESS_TUI_CONFIG": str(path)}, path
    if role == "keys":
        return ("--keys", str(path), "--print-config"), {}, path
    if role == "replay-verify":
        return ("replay", "--verify", str(path)), {}, path
    record_round(folder)
    return ("replay", "--list"), {}, path


def said_of_not_a_file(
    done: subprocess.CompletedProcess[bytes], said: str, role: str, path: Path
) -> None:
    """Check what ``not_a_file_command``'s command said: one line with ``said`` and the
    path, exit 2; the replay list lists the good replay all the same, exit 0."""
    if role == "replay-list":
        assert done.stdout.count(b"\n") == 1  # the good replay is listed all the same
        line = done.stderr.decode().rstrip("\n")
        assert done.returncode == 0 and "\n" not in line and said in line, line
        return
    line = one_line(done)
    assert said in line and str(path) in line, line


NOT_FILES: dict[str, tuple[Callable[[Path], object], str]] = {
    "folder": (lambda p: p.mkdir(), "is a folder, not"),
    "loop": (lambda p: p.symlink_to(p.name), "symbolic links that lead round in a loop"),
}
"""Files that are not files that no reader can hang on or fill its memory with, each made
at a path, and what the line about it says (a FIFO, a device, a huge file, in a process
with a memory limit: ``tests/test_hostile.py``)."""


@pytest.mark.parametrize("case", list(NOT_FILES))
@pytest.mark.parametrize("role", ["config", "keys", "replay-verify", "replay-list"])
def test_a_folder_or_a_loop_of_links_is_one_line(tmp_path: Path, case: str, role: str) -> None:
    """A folder or links that lead round in a loop as the config file, the ``--keys``
    file or a replay: one clear line, exit 2; the replay list lists the good ones all the
    same."""
    make, said = NOT_FILES[case]
    not_a_file(tmp_path, make, said, role, lambda *a, **e: stress_tui(tmp_path, *a, **e))


POISON = "N\x1b]0;PWNED\x07\x1b]52;c;UFdORUQ=\x07\x1b[2J\u009b2J\u202ex\u200by\u2066z"
"""Every kind of text that may not reach a terminal from a file, in one string: OSC 0 (the
window title), OSC 52 (the clipboard), CSI 2 J and the 8-bit C1 CSI (clear the screen), a
bidirectional override and isolate, a zero-width space."""

FROM_FILE = (
    b"\x1b]0;PWNED",
    b"\x1b]52;c;UFdORUQ",
    b"\xc2\x9b",
    "\u202e".encode(),
    "\u2066".encode(),
    "\u200b".encode(),
)
"""What of ``POISON`` would show that it was written raw (the program writes none of these
itself, in a pseudo-terminal or elsewhere)."""

HEADER_FIELDS = (
    "format", "version", "engine", "seed", "rules", "players", "names", "started", "round",
    "score", "id", "again", "daily", "commit", "salt", "comment",
)  # fmt: skip
"""Every field a replay's header has, and one no version writes."""

END_FIELDS = ("t", "winner", "position", "digest", "comment")


def raw_from_file(data: bytes) -> list[bytes]:
    """Which of ``POISON``'s parts ``data`` holds raw."""
    return [part for part in FROM_FILE if part in data]


def poisoned_replays(folder: Path) -> dict[str, Path]:
    """A replay of a whole round for every field of a header, of the end line and of an
    action, that field (or one string inside it) replaced by ``POISON``."""
    good = record_round(folder / "good")
    lines = good.read_text().splitlines(keepends=True)
    found: dict[str, Path] = {}

    def write(name: str, changed: list[str]) -> None:
        path = folder / f"20990101-000000-{len(found):06d}.jsonl"  # newest: listed first
        path.write_text("".join(changed))
        found[name] = path

    header = json.loads(lines[0])
    for field in HEADER_FIELDS:
        value = header.get(field)
        poisoned = [POISON, POISON] if isinstance(value, list) else POISON
        write(f"header {field}", [json.dumps({**header, field: poisoned}) + "\n", *lines[1:]])
    first = json.loads(lines[1])
    for field in first:
        action = json.dumps({**first, field: POISON}) + "\n"
        write(f"action {field}", [lines[0], action, *lines[2:]])
    end = json.loads(lines[-1])
    for field in END_FIELDS:
        write(f"end {field}", [*lines[:-1], json.dumps({**end, field: POISON}) + "\n"])
    good.unlink()
    folder.joinpath("good").rmdir()
    return found


def _toml(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text)


def poisoned_configs() -> dict[str, str]:
    """A config file for every place a string can stand in one, that string ``POISON``:
    each value (the names, the language, every rule, the players, the display, the
    keyboard, a key) and each key and table name."""
    from stress_tui.core.houserules import HOUSE_RULES
    from stress_tui.terminal.keys import REQUIRED_ACTIONS

    p = _toml(POISON)
    whole_keys = "".join(
        f"{action} = {_toml(key)}\n"
        for action, key in zip(REQUIRED_ACTIONS[1:], "wertyuiopzx", strict=False)
    )
    found = {
        "names first": f'names = [{p}, "Bo"]',
        "names second": f'names = ["Ann", {p}]',
        "lang": f"lang = {p}",
        "top key": f"{p} = 1",
        "top table": f"[{p}]\na = 1",
        "players p1": f"[players]\np1 = {p}",
        "players side": f'[players]\n{p} = "human"',
        "rules key": f"[rules]\n{p} = 1",
        "display theme": f"[display]\ntheme = {p}",
        "display ascii": f"[display]\nascii = {p}",
        "display key": f"[display]\n{p} = true",
        "keyboard": f"[keys]\nkeyboard = {p}",
        "keys side": f"[keys.{p}]\nleft1 = 'x'",
        "keys action": f"[keys.p1]\n{p} = 'x'",
        "keys key": f"[keys.p1]\n{whole_keys}left1 = {p}",
        "keys one character": f"[keys.p1]\n{whole_keys}left1 = {_toml(chr(0x202E))}",
    }
    for short in ("A\x1b]0;X\x07", "\u202eAnn", "A\u200bB", "A\x1b[2J", "A\u009b2J"):
        found[f"names {short!r}"] = f'names = [{_toml(short)}, "Bo"]'

    for rule in HOUSE_RULES:
        found[f"rules {rule.name}"] = f"[rules]\n{rule.name} = {p}"
    return found


def test_text_from_a_crafted_replay_never_reaches_the_terminal_raw(tmp_path: Path) -> None:
    """A replay's names, players and start time, which ``replay --list`` and ``--verify``
    print, could set the window title, write the clipboard or blank the screen if printed
    as written. They are made harmless where they are read: each control character shown
    as ``\\u001B``, never sent."""
    folder = tmp_path / "data" / "replays"
    path = record_round(folder)
    craft_header(
        path,
        names=[CRAFTED["title"], CRAFTED["clipboard"]],
        players=[CRAFTED["clear"], CRAFTED["bidi"]],
        started=CRAFTED["c1"],
    )
    odd_name = folder / "x\x1b]0;NAMED\x07.jsonl"  # a file name is outside text too
    odd_name.write_bytes(path.read_bytes())
    listed = stress_tui(tmp_path, "replay", "--list")
    assert listed.returncode == 0 and listed.stderr == b""
    assert not RAW.search(listed.stdout), listed.stdout
    text = listed.stdout.decode()
    assert "\\u001B]0;PWNED\\u0007" in text and "\\u202Eevil" in text
    assert "x\\u001B]0;NAMED\\u0007.jsonl" in text
    verified = stress_tui(tmp_path, "replay", "--verify", str(path))
    assert verified.returncode == 0 and not RAW.search(verified.stdout), verified.stdout
    assert "verified" in verified.stdout.decode() and "winner \\u001B]" in verified.stdout.decode()
    broken = stress_tui(tmp_path, "replay", "--verify", str(odd_name) + "\x1b[2J")
    assert not RAW.search(broken.stderr) and "\\u001B[2J" in one_line(broken)


def test_names_and_rules_from_a_crafted_record_never_reach_the_terminal_raw(
    tmp_path: Path,
) -> None:
    """``stats`` prints the record's names and rule strings harmless, read back from a
    crafted record; rules in notation are shown as this version writes them."""
    record = tmp_path / "data" / "record.sqlite"
    record.parent.mkdir()
    count_round((CRAFTED["title"], CRAFTED["bidi"]), "skat  wins=1", won_by(0), False, record)
    count_round(("Ann", "Bo"), CRAFTED["clipboard"], won_by(1), True, record)
    shown = stress_tui(tmp_path, "stats")
    assert shown.returncode == 0 and shown.stderr == b""
    assert not RAW.search(shown.stdout), shown.stdout
    text = shown.stdout.decode()
    assert "\\u001B]0;PWNED\\u0007" in text and "skat wins=1" in text
    assert "\\u001B]52;c;ZXZpbA==\\u0007" in text
    as_json = stress_tui(tmp_path, "stats", "--json")
    assert as_json.returncode == 0 and not RAW.search(as_json.stdout)


def test_an_error_line_cuts_what_it_echoes(tmp_path: Path) -> None:
    """A huge value in the config is not echoed whole: every echoed value is cut (to 40
    characters), and no error line is longer than 1,000."""
    long = "x" * 900_000  # under the config file's size limit
    config = tmp_path / "config.toml"
    for text in (f'names = ["{long}", "B"]\n', f'[rules]\ndeck = "{long}"\n', f"{long} = 1\n"):
        config.write_text(text)
        line = one_line(stress_tui(tmp_path, "--print-config", STRESS_TUI_CONFIG=str(config)))
        assert len(line) < 300 and "xxx..." in line, line[:300]
    for argv in (
        ["--deck", "y" * 100_000],
        ["--names", "y" * 100_000 + ",B"],
        ["--" + "y" * 100_000],
        ["y" * 100_000],
        ["--keys", str(tmp_path / ("y" * 200))],
    ):
        line = one_line(stress_tui(tmp_path, *argv, "--print-config"))
        assert len(line) <= 1_000, (argv[0][:20], len(line))


@pytest.mark.parametrize(
    "name",
    ["\u0301\u0301", "\u2800", "\u2800\u2800\u2800", "\u3164", "\u115f", "\u200b", " \u034f "],
    ids=[
        "combining",
        "braille-blank",
        "braille-blanks",
        "hangul-filler",
        "choseong-filler",
        "zero-width-space",
        "grapheme-joiner",
    ],
)
def test_a_name_that_draws_nothing_is_refused(tmp_path: Path, name: str) -> None:
    """Names that draw as nothing (only combining marks, U+2800) are refused, from
    ``--names`` and from the config file alike."""
    line = one_line(stress_tui(tmp_path, "--names", f"{name},Bo", "--print-config"))
    assert line.startswith("stress-tui: --names: ")
    config = tmp_path / "config.toml"
    config.write_text(f'names = [{json.dumps(name)}, "Bo"]\n')  # JSON escapes are TOML's
    line = one_line(stress_tui(tmp_path, "--print-config", STRESS_TUI_CONFIG=str(config)))
    assert f"{config}:1: names: " in line
    assert not RAW.search(line.encode())


@pytest.mark.parametrize("value", ["inf", "-inf", "+inf", "1e400", "-1e400", "nan", "-nan"])
@pytest.mark.parametrize("key", ["lockout", "wins", "row", "jokers", "deck", "stacking"])
def test_a_number_that_is_not_finite_in_the_config_is_one_line(
    tmp_path: Path, key: str, value: str
) -> None:
    """``lockout = inf``, ``-inf``, ``1e400``, ``nan``, ``wins = nan``: one line saying
    which value is wrong (the message is made without ``int(inf)``)."""
    config = tmp_path / "config.toml"
    config.write_text(f"[rules]\n{key} = {value}\n")
    line = one_line(stress_tui(tmp_path, "--print-config", STRESS_TUI_CONFIG=str(config)))
    assert line.startswith(f"stress-tui: {config}:2: rules.{key}: ")
    assert line.endswith(("inf", "nan")), line


@pytest.mark.parametrize("nesting", ["[", "{a="])
def test_a_config_nested_thousands_deep_is_one_line(tmp_path: Path, nesting: str) -> None:
    """Arrays nested 3,000 deep: one line, no RecursionError."""
    close = {"[": "]", "{a=": "}"}[nesting]
    config = tmp_path / "config.toml"
    config.write_text("x = " + nesting * 3000 + "1" + close * 3000 + "\n")
    line = one_line(stress_tui(tmp_path, "--print-config", STRESS_TUI_CONFIG=str(config)))
    assert line == f"stress-tui: {config}: not valid TOML: nested too deep"


def test_replay_verify_of_an_empty_name_says_so(tmp_path: Path) -> None:
    """``replay --verify ''`` says that the name is empty."""
    line = one_line(stress_tui(tmp_path, "replay", "--verify", ""))
    assert line == "stress-tui: replay: FILE is empty (give a replay's path or a name from --list)"
    line = one_line(stress_tui(tmp_path, "replay", "--verify", str(tmp_path)))
    assert line == f"stress-tui: {tmp_path}: is a folder, not a replay"


def test_the_data_folder_is_never_created_by_looking(tmp_path: Path) -> None:
    """``stats`` and ``replay --list`` only read: no data folder appears."""
    for argv in (["stats"], ["replay", "--list"]):
        done = stress_tui(tmp_path, *argv)
        assert done.returncode == 0
    assert not (tmp_path / "data").exists()


def test_no_field_of_a_replay_reaches_the_terminal_raw(tmp_path: Path) -> None:
    """Every string a replay holds is read against its shape where it is read (a seed is a
    number, ``again`` a seed and a round, a day a date, a key hex digits, a name text made
    harmless; a field no version writes is not read at all): whatever a crafted file puts
    in any field, ``replay --list``, ``--verify``, the viewer to its result screen and
    ``stats`` (counting the ones left marked to count) write none of it raw."""
    from stress_tui.storage.files import StorageError
    from stress_tui.storage.pending import mark_path
    from stress_tui.storage.replay import load

    folder = tmp_path / "data" / "replays"
    replays = poisoned_replays(folder)
    listed = stress_tui(tmp_path, "replay", "--list")
    assert listed.returncode == 0, listed.stderr
    assert raw_from_file(listed.stdout + listed.stderr) == []
    assert not RAW.search(listed.stdout + listed.stderr)
    loaded = []
    for name, path in replays.items():
        verified = stress_tui(tmp_path, "replay", "--verify", str(path))
        out = verified.stdout + verified.stderr
        assert raw_from_file(out) == [] and not RAW.search(out), (name, out)
        try:
            load(path)
        except StorageError:
            continue
        loaded.append(name)
        mark_path(path).touch()  # as a game that was stopped before counting it
    assert "header names" in loaded and "header again" in loaded  # read, made harmless
    counted = stress_tui(tmp_path, "stats")
    out = counted.stdout + counted.stderr
    assert counted.returncode == 0 and raw_from_file(out) == [] and not RAW.search(out), out
    for name in loaded:
        with pilot.viewer(replays[name], speed=100) as s:
            s.wait_text("watch again", timeout=20)  # the result screen
            s.send("q")
            assert s.wait_exit() == 0
            assert raw_from_file(s.raw_log()) == [], name


def test_no_string_of_a_config_file_reaches_the_terminal_raw(tmp_path: Path) -> None:
    """Every value and every key a config file (and a ``--keys`` file) holds is read
    against its shape where it is read (a name printable text, a choice one of its
    words, a rule its kind, a key a key's name): whatever a crafted file puts anywhere,
    ``--print-config``, ``stats`` and the game's start write none of it raw."""
    for name, text in poisoned_configs().items():
        config = tmp_path / "config.toml"
        config.write_text(text + "\n")
        for argv in (["--print-config"], ["stats"], ["--seed", "1"]):
            done = stress_tui(tmp_path, *argv, STRESS_TUI_CONFIG=str(config))
            out = done.stdout + done.stderr
            assert raw_from_file(out) == [] and not RAW.search(out), (name, argv, out)
        if name.startswith("keys"):
            done = stress_tui(tmp_path, "--keys", str(config), "--print-config")
            out = done.stdout + done.stderr
            assert raw_from_file(out) == [] and not RAW.search(out), (name, out)


def test_no_string_of_a_record_reaches_the_terminal_raw(tmp_path: Path) -> None:
    """Every text a record's rows hold (the rounds' names, kinds, rules, times, days and
    keys, the dailies', the standings' sums), each in turn set to ``POISON``: ``stats``,
    and ``stats --json`` write none of it raw; a row of the wrong shape is
    named as damaged, harmless."""
    import sqlite3

    record = tmp_path / "data" / "record.sqlite"
    record.parent.mkdir()
    columns = {
        "rounds": ("finished", "rules", "name1", "name2", "kind1", "kind2", "daily", "replay"),
        "dailies": ("day", "name", "started"),
        "tallies": ("name", "kind", "rules"),
    }
    for table, names in columns.items():
        for column in names:
            record.unlink(missing_ok=True)
            count_round(("Ann", "Bo"), "skat  wins=1", won_by(0), True, record, key="a" * 32)
            with sqlite3.connect(record) as db:
                db.execute(
                    "INSERT INTO dailies VALUES ('2026-12-01', 'Ann', '2026-12-01T10:00:00', NULL)"
                )
            db.close()
            kinds = ("human", "bot:normal")
            count_round(("Ann", "Bot"), "standard", won_by(0), False, record, kinds=kinds,
                        daily="2026-12-01")  # fmt: skip
            with sqlite3.connect(record) as db:
                assert db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] > 0
                db.execute(f"UPDATE {table} SET {column} = ? || rowid", (POISON,))
            db.close()
            for argv in (["stats"], ["stats", "--json"]):
                done = stress_tui(tmp_path, *argv)
                out = done.stdout + done.stderr
                assert "Traceback" not in out.decode(errors="replace"), (table, column, out)
                assert raw_from_file(out) == [] and not RAW.search(out), (table, column, out)


def test_a_data_folder_that_is_a_file_is_said_so(tmp_path: Path) -> None:
    """The game's banner and the round's result name the file that stands where the data
    folder should."""
    blocker = tmp_path / "data"
    blocker.write_text("not a folder\n")
    with pilot.game(tmp_path, cols=250, env={"STRESS_TUI_DATA_DIR": str(blocker)}) as s:
        say_ready(s)  # the replay is first written when the round's first action is kept
        s.wait_text("Not recording replays", timeout=10)
        assert f"({blocker} is a file, where a folder should be)" in s.text(), s.text()
        assert "file exists" not in s.text()
        s.send("\x03")
        assert s.wait_exit() == 130
    assert blocker.read_text() == "not a folder\n"


def test_a_crafted_replay_s_names_are_shown_harmless_in_the_viewer(tmp_path: Path) -> None:
    """The replay viewer draws the names read from the file: the crafted sequences are
    never written (the title, the clipboard), and the names show as visible escapes."""
    path = record_round(tmp_path / "data" / "replays")
    craft_header(path, names=["A\x1b]0;PW\x07", "B\x1b]52;c;eA==\x07"])
    with pilot.viewer(path) as s:
        s.wait_for(lambda: "REPLAY" in s.row(0), timeout=10, what="the replay's title")
        s.wait_text("A\\u001B]0;PW\\u0007", timeout=5)
        s.send("q")
        assert s.wait_exit() == 0
        log = s.raw_log()
    assert b"]0;PW" not in log.replace(b"\\u001B]0;PW", b"")
    assert b"\x1b]52" not in log and b"\x1b]0;" not in log


# ----------------------------------------------------------------------------- the output


def test_an_ascii_only_stdout_shows_other_characters_as_escapes(tmp_path: Path) -> None:
    """With an ASCII-only stdout (``PYTHONIOENCODING=ascii``), ``stats``, ``replay
    --list``, ``replay --verify`` and ``--print-config`` write a non-ASCII name with a
    character ASCII lacks as an escape (``\\u00EB``) that TOML and JSON read back:
    ``--print-config``'s output is still a config file."""
    folder = tmp_path / "data" / "replays"
    path = record_round(folder, names=("Zoë", "Bø"))
    count_round(("Zoë", "Bø"), "skat", won_by(0), False, tmp_path / "data" / "record.sqlite")
    env = {"STRESS_TUI_DATA_DIR": str(tmp_path / "data"), "STRESS_TUI_CONFIG": NO_CONFIG}
    for argv in (["stats"], ["replay", "--list"], ["replay", "--verify", str(path)]):
        done = command.run(*argv, env=env, encoding="ascii")
        assert (done.returncode, done.stderr) == (0, b""), done.stderr[-300:]
        # --verify names the winner alone, whichever of the two won the recorded round.
        assert b"Zo\\u00EB" in done.stdout or b"B\\u00F8" in done.stdout, done.stdout
        assert done.stdout.isascii()
    printed = command.run("--names", "Zoë,Bø", "--print-config", env=env, encoding="ascii")
    assert printed.returncode == 0 and printed.stdout.isascii()
    config = tmp_path / "config.toml"
    config.write_bytes(printed.stdout)
    again = stress_tui(tmp_path, "--print-config", STRESS_TUI_CONFIG=str(config))
    assert b'names = ["Zo\xc3\xab", "B\xc3\xb8"]' in again.stdout


OUTPUT_COMMANDS = {
    "help": ["--help"],
    "version": ["--version"],
    "print-config": ["--print-config"],
    "rules": ["--rules"],
    "stats": ["stats"],
    "replay-list": ["replay", "--list"],
    "replay-verify": ["replay", "--verify", "REPLAY"],
    "sim": ["sim", "--games", "30", "--seed", "1"],
}
"""Every command that writes to standard output, by a name of its own (``REPLAY``: the
path of a replay ``output_argv`` records)."""


def output_argv(tmp_path: Path, name: str) -> list[str]:
    """The arguments of ``OUTPUT_COMMANDS[name]``, a replay recorded for it to read."""
    path = record_round(tmp_path / "data" / "replays")
    return [str(path) if word == "REPLAY" else word for word in OUTPUT_COMMANDS[name]]


def unwritable(kind: str) -> int:
    """A file descriptor (the caller's to close) that nothing can be written to: ``full``
    is ``/dev/full`` (no space left on the device), ``pipe`` a pipe whose reader has gone
    (EPIPE), ``terminal`` a terminal whose window has closed (EIO); gone before anything
    is written, so that every write fails."""
    if kind == "full":
        return os.open("/dev/full", os.O_WRONLY | os.O_CLOEXEC)
    reader, writer = os.pipe() if kind == "pipe" else os.openpty()
    os.close(reader)
    return writer


UNWRITTEN = {
    "full": (1, b"stress-tui: cannot write the output: no space left on device\n"),
    "pipe": (141, b""),
    "terminal": (129, b""),
}
"""What a command whose output cannot be written ends with (its exit status, its standard
error), by ``unwritable``'s kind: on a full disk one line and status 1, as the coreutils
do; a pipe its reader has closed (``sim --games 300 | true``, ``replay --list | head -0``)
quietly 141, what a shell reports for git or ``cat`` in the same place (128 + SIGPIPE); a
terminal that has gone a hangup, 129, and nothing said (nobody is left to read it)."""


@pytest.mark.parametrize("kind", list(UNWRITTEN))
@pytest.mark.parametrize("name", list(OUTPUT_COMMANDS))
def test_output_that_cannot_be_written_ends_the_command_as_a_shell_expects(
    tmp_path: Path, name: str, kind: str
) -> None:
    """Every command, its output on a full disk, a closed pipe or a closed terminal: the
    exit status and the line of ``UNWRITTEN``, never a traceback nor a success. (The real
    program, to the interpreter's exit: ``tests/test_hostile.py``.)"""
    argv = output_argv(tmp_path, name)
    env = {"STRESS_TUI_DATA_DIR": str(tmp_path / "data"), "STRESS_TUI_CONFIG": NO_CONFIG}
    fd = unwritable(kind)
    try:
        done = command.run(*argv, env=env, stdout_fd=fd)
    finally:
        os.close(fd)
    assert (done.returncode, done.stderr) == UNWRITTEN[kind]


@pytest.mark.parametrize("position", ["garbage", "rules: nope", "p1 row: ZZ", "\x1b[2J"])
def test_a_garbage_position_in_the_test_hook_says_what_is_wrong(
    tmp_path: Path, position: str
) -> None:
    """A garbage ``STRESS_TUI_POSITION``: one line saying what is wrong, exit 2, before the
    game asks for a terminal (the terminal never taken, in a pseudo-terminal:
    ``tests/test_hostile.py``)."""
    line = one_line(stress_tui(tmp_path, "--seed", "1", STRESS_TUI_POSITION=position))
    assert line.startswith("stress-tui: STRESS_TUI_POSITION: not a position in notation ("), line
    assert "\x1b" not in line
