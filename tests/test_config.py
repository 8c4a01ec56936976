"""The config file: where it is, what it sets, what flags override, and every way it can be
wrong, each said in one line naming the file, the line and the key."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import platformdirs
import pytest

from stress_tui.cli.config import (
    Config,
    default_path,
    find_line,
    load_config,
    load_keys,
    to_toml,
)
from stress_tui.cli.main import main
from stress_tui.cli.parser import build
from stress_tui.cli.settings import settings_from_args
from stress_tui.core.houserules import FalseStress, StressPenalty
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.terminal.layouts import TWO_PLAYER_LAYOUT


@pytest.fixture(autouse=True)
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The config file the tests write (absent until they do)."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("STRESS_TUI_CONFIG", str(path))
    yield path


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def settings(*argv: str) -> Settings:
    return settings_from_args(build(list(argv))[0].parse_args(list(argv)), load_config())


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``main`` (``--rules`` unless told otherwise); one line on stderr and status 2."""
    assert main(list(argv) or ["--rules"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err.rstrip("\n")


P1_KEYS: dict[str, str] = {
    "left1": "1",
    "left2": "2",
    "left3": "3",
    "left4": "4",
    "right1": "q",
    "right2": "w",
    "right3": "e",
    "right4": "r",
    "stress": "v",
    "ready": "c",
    "stop": "x",
}
LONG_ROW_KEYS = {**P1_KEYS, "left5": "5", "right5": "t"}


def keys_toml(side: str, keys: dict[str, str]) -> str:
    return f"[keys.{side}]\n" + "".join(f'{a} = "{k}"\n' for a, k in keys.items())


# --------------------------------------------------------------------------- where it is


def test_the_file_is_in_the_users_config_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STRESS_TUI_CONFIG")
    expected = Path(platformdirs.user_config_dir("stress-tui")) / "config.toml"
    assert default_path() == expected
    monkeypatch.setenv("STRESS_TUI_CONFIG", "")
    assert default_path() == expected


def test_the_environment_names_another_file(config: Path) -> None:
    assert default_path() == config


def test_a_missing_file_is_an_empty_config(config: Path) -> None:
    assert not config.exists()
    assert load_config() == Config()
    assert settings() == Settings(rules=Rules.for_deck("standard"))


# --------------------------------------------------------------------------- what it sets


def test_the_config_sets_every_setting(config: Path) -> None:
    write(
        config,
        """
names = ["Ann", "Bob"]

[rules]
deck = "skat"
jokers = 2
deal = "each"
row = 5
stacking = false
wrap = false
stress-penalty = "give"
false-stress = "lockout"
stress-stop = true
lockout = 1
wins = 4

[players]
p1 = "human"
p2 = "bot:expert"

[display]
theme = "light"
ascii = true
four-colour = true

[keys]
keyboard = "fr"
"""
        + keys_toml("p1", LONG_ROW_KEYS),
    )
    s = settings()
    assert s.rules == Rules.for_deck(
        "skat",
        jokers=2,
        deal="each",
        row_size=5,
        stacking=False,
        wrap=False,
        stress_penalty=StressPenalty.GIVE,
        false_stress=FalseStress.LOCKOUT,
        stress_stop=True,
        lockout=1.0,
        wins=4,
    )
    assert s.names == ("Ann", "Bob")
    assert s.players == ("human", "bot:expert")
    assert s.ascii and s.four_colour
    assert (s.theme, s.keyboard) == ("light", "fr")
    assert s.keymap == {"p1": LONG_ROW_KEYS}
    assert s.seed is None


def test_the_config_overrides_the_decks_defaults(config: Path) -> None:
    write(config, '[rules]\ndeck = "Jass"\nwins = 2\n')
    r = settings().rules
    assert (r.deck, r.wins, r.row_size, r.stress_stop) == ("jass", 2, 4, True)


def test_flags_override_the_config(config: Path) -> None:
    write(
        config,
        """
names = ["Ann", "Bob"]
[rules]
deck = "jass"
row = 5
stacking = false
stress-stop = true
[players]
p1 = "bot:easy"
[display]
ascii = true
""",
    )
    s = settings(
        "--deck",
        "skat",
        "--row",
        "2",
        "--stacking",
        "--no-stress-stop",
        "--names",
        "Cy,Di",
        "--p1",
        "human",
        "--no-ascii",
    )
    assert s.rules == Rules.for_deck("skat", row_size=2, stacking=True)
    assert s.names == ("Cy", "Di")
    assert s.players == ("human", "human")
    assert not s.ascii


def test_the_configs_rules_apply_to_the_deck_a_flag_chooses(config: Path) -> None:
    write(config, "[rules]\nrow = 5\nwins = 7\n")
    r = settings("--deck", "skat").rules
    assert (r.deck, r.row_size, r.wins) == ("skat", 5, 7)


def test_a_key_file_replaces_the_configs_table_for_each_player_it_gives(
    config: Path, tmp_path: Path
) -> None:
    p2 = dict(TWO_PLAYER_LAYOUT["p2"], stress="n")
    write(config, keys_toml("p1", TWO_PLAYER_LAYOUT["p1"]) + keys_toml("p2", p2))
    keys = write(tmp_path / "keys.toml", keys_toml("p1", P1_KEYS))
    assert settings("--keys", str(keys)).keymap == {"p1": P1_KEYS, "p2": p2}
    assert settings().keymap == {"p1": TWO_PLAYER_LAYOUT["p1"], "p2": p2}


def test_a_key_file_holds_key_tables_only(tmp_path: Path) -> None:
    keys = write(tmp_path / "keys.toml", keys_toml("p2", TWO_PLAYER_LAYOUT["p2"]))
    assert load_keys(keys).keymap == {"p2": TWO_PLAYER_LAYOUT["p2"]}


# --------------------------------------------------------------------------- --print-config


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--deck", "jass"],
        [
            "--deck",
            "doppelkopf",
            "--jokers",
            "3",
            "--deal",
            "each",
            "--row",
            "7",
            "--no-stacking",
            "--no-wrap",
            "--stress-penalty",
            "one",
            "--false-stress",
            "lockout",
            "--stress-stop",
            "--lockout",
            "0.4",
            "--wins",
            "9",
        ],
        ["--names", 'Zoë "Z",Back\\slash', "--p1", "bot:easy", "--p2", "bot:hard"],
        ["--ascii", "--four-colour"],
    ],
)
def test_print_config_reads_back_as_the_same_settings(
    capsys: pytest.CaptureFixture[str], config: Path, argv: list[str]
) -> None:
    assert main(["--print-config", *argv]) == 0
    out = capsys.readouterr().out
    expected = settings(*argv)
    write(config, out)
    assert settings() == expected
    assert main(["--print-config"]) == 0
    assert capsys.readouterr().out == out


def test_print_config_keeps_key_maps(
    capsys: pytest.CaptureFixture[str], config: Path, tmp_path: Path
) -> None:
    keys = write(tmp_path / "keys.toml", keys_toml("p1", P1_KEYS))
    assert main(["--print-config", "--keys", str(keys)]) == 0
    write(config, capsys.readouterr().out)
    assert settings().keymap == {"p1": P1_KEYS}


def test_print_config_leaves_the_decks_defaults_to_the_deck(
    capsys: pytest.CaptureFixture[str], config: Path
) -> None:
    assert main(["--print-config", "--deck", "jass", "--row", "3"]) == 0
    out = capsys.readouterr().out
    assert 'deck = "jass"' in out and "\nrow = 3\n" in out
    assert "\n# wins = 5\n" in out
    write(config, out)
    # The saved file pins the row it was given, but the match length stays the deck's.
    r = settings("--deck", "skat").rules
    assert (r.row_size, r.wins, r.stress_stop) == (3, 3, False)


def test_print_config_never_writes_the_file(
    capsys: pytest.CaptureFixture[str], config: Path
) -> None:
    assert main(["--print-config", "--deck", "skat"]) == 0
    assert not config.exists()
    assert to_toml(settings("--deck", "skat"), config) == capsys.readouterr().out


def test_the_seed_is_not_kept(capsys: pytest.CaptureFixture[str], config: Path) -> None:
    assert main(["--print-config", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"^[# ]*seed\b", out, re.MULTILINE)
    write(config, out)
    assert settings().seed is None


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        (
            "[rules]\nrows = 3\n",
            "2: rules.rows",
            "unknown key (did you mean row? known: deck, jokers, deal, row, stacking, together, "
            "wrap, flip-ready, stress-penalty, taken, false-stress, stress-stop, lockout, "
            "race-window, wins)",
        ),
        (
            "[colours]\nclubs = 1\n",
            "1: colours",
            "unknown table (known: rules, players, display, keys, names, lang)",
        ),
        (
            "seed = 4\n",
            "1: seed",
            "unknown key (known: rules, players, display, keys, names, lang)",
        ),
        ('[rules]\nrow = "3"\n', "2: rules.row", 'must be a whole number, not "3"'),
        ("[rules]\nwins = 2.5\n", "2: rules.wins", "must be a whole number, not 2.5"),
        ('[rules]\nstacking = "no"\n', "2: rules.stacking", 'must be true or false, not "no"'),
        ("[rules]\nlockout = true\n", "2: rules.lockout", "must be a number of seconds, not true"),
        (
            '[rules]\ndeck = "tarot"\n',
            "2: rules.deck",
            '"tarot" is not a deck (choose from standard, jass, skat, doppelkopf, german)',
        ),
        ("[rules]\ndeal = 2\n", "2: rules.deal", "must be a string, not 2"),
        (
            '[rules]\nstress-penalty = "all"\n',
            "2: rules.stress-penalty",
            '"all" is not a stress penalty (choose from both, one, give)',
        ),
        ("[rules]\njokers = 17\n", "2: rules.jokers", "must be between 0 and 16, not 17"),
        ("[rules]\nrow = 0\n", "2: rules.row", "must be at least 1, not 0"),
        (
            "[rules]\nlockout = 61\n",
            "2: rules.lockout",
            "must be between 0 and 60 seconds, not 61.0",
        ),
        (
            '\n[rules]\ndeck = "skat"\nrow = 20\n',
            "4: rules.row",
            "20 is too large for the skat deck dealt split: a player's 16 cards must fill the "
            "row and leave one to flip (row at most 15)",
        ),
        ("rules = 3\n", "1: rules", "must be a table, not 3"),
        (
            'rules.deck = "nope"\n',
            "1: rules.deck",
            '"nope" is not a deck (choose from standard, jass, skat, doppelkopf, german)',
        ),
        ("rules = { wins = 0 }\n", "1: rules.wins", "must be between 1 and 99, not 0"),
        ('names = ["Ann"]\n', "1: names", "give exactly two names, not 1"),
        ('names = "Ann,Bob"\n', "1: names", 'must be a list of two strings, not "Ann,Bob"'),
        ('names = ["Ann", 2]\n', "1: names", "must be a list of two strings, not a list"),
        (
            'names = ["Ann", "Annabelle-Louise-X"]\n',
            "1: names",
            '"Annabelle-Louise-X" is longer than 16 characters',
        ),
        (
            '[players]\np1 = "robot"\n',
            "2: players.p1",
            '"robot" is not a player (choose from human, bot:easy, bot:normal, bot:hard, '
            "bot:expert)",
        ),
        ('[players]\np3 = "human"\n', "2: players.p3", "unknown key (known: p1, p2)"),
        (
            "[display]\nfour-color = true\n",
            "2: display.four-color",
            "unknown key (did you mean four-colour? known: theme, ascii, four-colour)",
        ),
        ("[display]\nascii = 1\n", "2: display.ascii", "must be true or false, not 1"),
        ('[keys.p3]\nstress = "m"\n', "1: keys.p3", "unknown table (known: p1, p2, keyboard)"),
        ("[keys.p1]\nstress = 7\n", "2: keys.p1.stress", "must be a key name, not 7"),
        ('[keys]\np1 = "qwer"\n', "2: keys.p1", 'must be a table, not "qwer"'),
    ],
)
def test_a_bad_entry_is_one_line_naming_file_line_and_key(
    capsys: pytest.CaptureFixture[str], config: Path, text: str, where: str, problem: str
) -> None:
    write(config, text)
    assert fails(capsys) == f"stress-tui: {config}:{where}: {problem}"


def test_a_bad_entry_is_refused_even_where_a_flag_overrides_it(
    capsys: pytest.CaptureFixture[str], config: Path
) -> None:
    write(config, "[rules]\nwins = 0\n")
    line = fails(capsys, "--rules", "--wins", "3")
    assert line == f"stress-tui: {config}:2: rules.wins: must be between 1 and 99, not 0"


def test_a_combination_names_the_config_entry_it_came_from(
    capsys: pytest.CaptureFixture[str], config: Path
) -> None:
    write(config, "# my rules\n[rules]\nrow = 20\n")
    assert fails(capsys, "--rules", "--deck", "skat") == (
        f"stress-tui: {config}:3: rules.row: 20 is too large for the skat deck dealt split: "
        "a player's 16 cards must fill the row and leave one to flip (row at most 15)"
    )
    # The flag that sets the row instead is what is named then.
    assert fails(capsys, "--rules", "--deck", "skat", "--row", "16").startswith(
        "stress-tui: --row: 16 is too large"
    )


def test_a_toml_syntax_error_gives_its_line(
    capsys: pytest.CaptureFixture[str], config: Path
) -> None:
    write(config, "[rules]\nrow = \n")
    assert fails(capsys) == f"stress-tui: {config}:2: not valid TOML: Invalid value (column 7)"
    write(config, "[rules]\nrow = 3\nrow = 4\n")
    assert fails(capsys) == (
        f"stress-tui: {config}:3: not valid TOML: Cannot overwrite a value (column 8)"
    )


def test_an_unreadable_file_is_one_line(capsys: pytest.CaptureFixture[str], config: Path) -> None:
    config.mkdir()
    assert fails(capsys) == f"stress-tui: {config}: is a folder, not a config file"


def test_a_file_that_is_not_utf8_is_one_line(
    capsys: pytest.CaptureFixture[str], config: Path
) -> None:
    config.write_bytes(b'[rules]\ndeck = "sk\xe5t"\n')
    assert fails(capsys) == f"stress-tui: {config}:2: not UTF-8 text"


def test_a_byte_order_mark_is_fine(config: Path) -> None:
    config.write_bytes("\ufeff[rules]\nrow = 3\n".encode())
    assert settings().rules.row_size == 3


def test_a_bad_key_map_is_reported_by_the_key_module_naming_the_file(
    capsys: pytest.CaptureFixture[str], config: Path, tmp_path: Path
) -> None:
    write(config, "\n" + keys_toml("p1", {k: v for k, v in P1_KEYS.items() if k != "stop"}))
    assert fails(capsys) == f"stress-tui: {config}:2: keys: [keys.p1]: no key for stop"
    clash = dict(P1_KEYS, stop="1")
    write(config, keys_toml("p1", clash))
    assert fails(capsys) == (
        f"stress-tui: {config}:1: keys: key '1' is given to two actions: p1's left1 and p1's stop"
    )
    write(config, "")
    keys = write(tmp_path / "k.toml", keys_toml("p2", dict(TWO_PLAYER_LAYOUT["p2"], stop="q")))
    assert fails(capsys, "--rules", "--keys", str(keys)) == (
        f"stress-tui: {keys}: keys: key 'q' is given to two actions: p1's left1 and p2's stop"
    )


def test_a_key_file_with_other_tables_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    keys = write(tmp_path / "k.toml", "[rules]\nrow = 3\n")
    assert fails(capsys, "--rules", "--keys", str(keys)) == (
        f"stress-tui: {keys}:1: rules: unknown table (known: keys)"
    )


def test_sim_ignores_the_configs_players_but_keeps_its_rules(
    monkeypatch: pytest.MonkeyPatch, config: Path
) -> None:
    import sys
    import types

    write(config, '[rules]\nwins = 4\n[players]\np1 = "human"\n')
    got: list[Settings] = []
    sim = types.ModuleType("stress_tui.players.sim")

    def run_cli(s: Settings, games: int, as_json: bool, jobs: int | None, _: object) -> int:
        got.append(s)
        return 0

    sim.run_cli = run_cli  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stress_tui.players.sim", sim)
    assert main(["sim", "--games", "1"]) == 0
    assert got[0].rules.wins == 4
    assert got[0].players == ("bot:normal", "bot:normal")


# --------------------------------------------------------------------------- finding lines


@pytest.mark.parametrize(
    ("text", "key", "line"),
    [
        ("[rules]\nrow = 3\n", ("rules", "row"), 2),
        ("[players]\nrow = 3\n[rules]\n\nrow = 3\n", ("rules", "row"), 5),
        ("rules.row = 3\n", ("rules", "row"), 1),
        ('"rules" . "row" = 3\n', ("rules", "row"), 1),
        ("[ rules ]  # comment\n row=3\n", ("rules", "row"), 2),
        ("rules = { row = 3 }\n", ("rules", "row"), 1),
        ('[keys.p1]\nstress = "v"\n', ("keys",), 1),
        ('x = """\nrow = 2\n"""\n[rules]\nrow = 3\n', ("rules", "row"), 5),
        ("[rules]\n", ("names",), None),
    ],
)
def test_find_line(text: str, key: tuple[str, ...], line: int | None) -> None:
    assert find_line(text, key) == line


def test_the_examples_in_the_docstrings() -> None:
    import doctest

    from stress_tui.cli import config
    from stress_tui.core import rulestext, text

    for module in (config, rulestext, text):
        assert doctest.testmod(module).failed == 0
