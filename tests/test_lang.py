"""The game in the languages of its rules: every text marked in the code has a translation
in every catalogue, with the same placeholders; the language comes from ``--lang``, the
config file or the environment as gettext reads it; English is the fallback.
"""

from __future__ import annotations

import functools
import gettext
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest

from stress_tui.cli.main import main
from stress_tui.terminal import lang
from stress_tui.terminal.lang import (
    LANGUAGES,
    SOURCE,
    catalogue_path,
    from_environment,
    messages_in,
    parse_po,
)

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = [code for code in LANGUAGES if code != SOURCE]

Key = tuple[str | None, str]


@functools.cache  # read once for every catalogue
def marked() -> dict[Key, tuple[str | None, str]]:
    """Every text marked in the package: (context, text) -> (plural, where)."""
    found: dict[Key, tuple[str | None, str]] = {}
    for path in sorted((ROOT / "stress_tui").rglob("*.py")):
        for context, text, plural, line in messages_in(path.read_text(encoding="utf-8")):
            found.setdefault((context, text), (plural, f"{path.relative_to(ROOT)}:{line}"))
    return found


def catalogue(code: str) -> dict[Key, tuple[str | None, list[str]]]:
    path = Path(catalogue_path(code))
    entries = parse_po(path.read_text(encoding="utf-8"))
    return {(c, t): (p, forms) for c, t, p, forms in entries if t}


def placeholders(text: str) -> list[str]:
    """The placeholders of a text, sorted: ``{name}`` fields with their format spec and
    ``%s``-style conversions."""
    fields = [
        "{" + name + (":" + spec if spec else "") + "}"
        for _lit, name, spec, _conv in string.Formatter().parse(text)
        if name is not None
    ]
    return sorted(fields + re.findall(r"%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[sdifrx%]", text))


def problems(
    wanted: dict[Key, tuple[str | None, str]], have: dict[Key, tuple[str | None, list[str]]]
) -> list[str]:
    """What is wrong with a catalogue for the texts ``wanted``: an entry missing or
    untranslated, placeholders that differ from the original's, a plural without its
    forms, an entry for a text the code no longer has."""
    found = []
    for key, (plural, where) in wanted.items():
        entry = have.get(key)
        if entry is None or not entry[1] or not all(entry[1]):
            found.append(f"{where}: {key[1]!r} has no translation")
            continue
        if (entry[0] is None) != (plural is None):
            found.append(f"{where}: {key[1]!r}: the plural differs from the code's")
            continue
        originals = [key[1]] if plural is None else [key[1], plural]
        for form in entry[1]:
            if all(placeholders(form) != placeholders(o) for o in originals):
                found.append(f"{where}: {form!r} has other placeholders than {key[1]!r}")
    found += [f"{key[1]!r} is in the catalogue, not in the code" for key in have.keys() - wanted]
    return found


@pytest.mark.one_python  # the source (ast) and the catalogues read: the same on every Python
@pytest.mark.parametrize("code", CATALOGUES)
def test_every_marked_text_has_a_translation_with_the_same_placeholders(code: str) -> None:
    assert problems(marked(), catalogue(code)) == [], "run scripts/catalogues, then translate"


def test_the_check_sees_a_missing_text_and_a_lost_placeholder() -> None:
    wanted: dict[Key, tuple[str | None, str]] = {
        (None, "{name} wins"): (None, "a.py:1"),
        (None, "quit"): (None, "a.py:2"),
        (None, "{n} card"): ("{n} cards", "a.py:3"),
    }
    have: dict[Key, tuple[str | None, list[str]]] = {
        (None, "{name} wins"): (None, ["{namn} vinner"]),
        (None, "{n} card"): ("{n} cards", ["{n} kort", ""]),
        (None, "gone"): (None, ["borta"]),
    }
    assert problems(wanted, have) == [
        "a.py:1: '{namn} vinner' has other placeholders than '{name} wins'",
        "a.py:2: 'quit' has no translation",
        "a.py:3: '{n} card' has no translation",
        "'gone' is in the catalogue, not in the code",
    ]
    assert placeholders("%s of %(n)d {x:>3}") == ["%(n)d", "%s", "{x:>3}"]


def test_the_scan_finds_every_marker_with_a_literal_text() -> None:
    source = (
        'a = _("one")\nb = N_("two")\nc = ngettext("{n} card", "{n} cards", n)\n'
        'd = pgettext("card", "J")\ne = _(variable)\nf = other("not marked")\n'
    )
    assert messages_in(source) == [
        (None, "one", None, 1),
        (None, "two", None, 2),
        (None, "{n} card", "{n} cards", 3),
        ("card", "J", None, 4),
    ]


@pytest.mark.parametrize("code", CATALOGUES)
def test_the_built_catalogue_says_every_translation_of_its_po_file(code: str) -> None:
    """The ``.mo`` file the build made (``hatch_build.py``) is there and says what the
    ``.po`` file says now: one older than a translation fails here, not on a screen."""
    mo = Path(catalogue_path(code, compiled=True))
    rebuild = "pip install -e . (scripts/test does) builds it again"
    assert mo.is_file(), f"{mo} is missing: {rebuild}"
    read = lang.translation(code)
    assert isinstance(read, gettext.GNUTranslations), f"{mo} is not read: {rebuild}"
    for context, text, plural, forms in parse_po(Path(catalogue_path(code)).read_text("utf-8")):
        if not text or not all(forms):
            continue
        if plural is not None:
            said = [read.ngettext(text, plural, n) for n in (1, 2)]
        elif context is not None:
            said = [read.pgettext(context, text)]
        else:
            said = [read.gettext(text)]
        assert said == forms, f"{mo} is older than its .po ({text!r}): {rebuild}"


@pytest.mark.parametrize(
    ("environ", "code"),
    [
        ({}, "en"),
        ({"LANG": "sv_SE.UTF-8"}, "sv"),
        ({"LANG": "de_CH.UTF-8"}, "de"),
        ({"LC_MESSAGES": "de_AT.UTF-8", "LANG": "sv_SE.UTF-8"}, "de"),
        ({"LC_ALL": "sv_FI.UTF-8", "LC_MESSAGES": "de_DE", "LANG": "en_GB"}, "sv"),
        ({"LANGUAGE": "fr:de:sv", "LC_ALL": "sv_SE.UTF-8"}, "de"),
        ({"LANGUAGE": "fr", "LANG": "sv_SE.UTF-8"}, "en"),  # as gettext.find: the first set
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANGUAGE": "", "LANG": "sv_SE"}, "sv"),
    ],
)
def test_the_language_comes_from_the_environment_as_gettext_reads_it(
    environ: dict[str, str], code: str
) -> None:
    assert from_environment(environ) == code


@pytest.fixture
def speaking() -> Iterator[None]:
    """Leave the language as the environment says after the test."""
    yield
    lang.choose(None)


def test_english_is_the_fallback_for_a_text_a_catalogue_lacks(speaking: None) -> None:
    lang.choose("sv")
    assert lang._("Make the window larger") == "Gör fönstret större"
    assert lang._("a text no catalogue has") == "a text no catalogue has"
    assert lang.rank_name(11) == "Kn"
    assert lang.rank_name(10) == "10"
    lang.choose("de")
    assert [lang.rank_name(rank) for rank in (11, 12, 13, 14)] == ["B", "D", "K", "A"]
    lang.choose("en")
    assert lang._("Make the window larger") == "Make the window larger"


def test_a_language_the_game_does_not_speak_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    assert main(["--lang", "fr", "--rules"]) == 2
    err = capsys.readouterr().err
    assert (
        err == 'stress-tui: --lang: "fr" is not a language of the game (choose from en, sv, de)\n'
    )


def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> Path:
    """A config file holding ``text``, the one the game reads."""
    config = tmp_path / "config.toml"
    config.write_text(text, encoding="utf-8")
    monkeypatch.setenv("STRESS_TUI_CONFIG", str(config))
    return config


def test_lang_in_the_config_file_and_the_flag_over_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    speaking: None,
) -> None:
    config = config_file(tmp_path, monkeypatch, 'lang = "de_CH"\n')
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    assert main(["--print-config"]) == 0
    assert 'lang = "de"' in capsys.readouterr().out
    assert lang.language() == "de"
    assert main(["--lang", "sv", "--print-config"]) == 0
    assert 'lang = "sv"' in capsys.readouterr().out
    assert lang.language() == "sv"
    config.write_text('lang = "xx"\n', encoding="utf-8")
    assert main(["--print-config"]) == 2
    assert capsys.readouterr().err == (  # said in the environment's language
        f'stress-tui: {config}:1: lang: "xx" är inget av spelets språk (välj bland en, sv, de)\n'
    )


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--lang", "sv", "--rulez"],
            "stress-tui: --rulez: ingen sådan flagga (menade du --rules?)\n",
        ),
        (["--lang", "de", "spiel"], "stress-tui: spiel: kein solcher Befehl"),
    ],
)
def test_an_error_line_is_said_in_the_language(
    args: list[str], line: str, capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    assert main(args) == 2
    assert capsys.readouterr().err.startswith(line)


def test_the_ratings_chart_and_the_rating_line_in_german(speaking: None) -> None:
    from stress_tui.core.rating import Rating
    from stress_tui.core.words import rating_notes
    from stress_tui.storage.ratings import Point
    from stress_tui.terminal.ratingchart import rating_chart

    lang.choose("de")
    points = [Point(Rating(1100 + 400 * i, 90), 0.5 + i / 10, True, False) for i in range(4)]
    chart = rating_chart("Ann", points, 60)
    assert chart[0].startswith("Ann: Wertung 2300 ± 90")
    assert "4 gewertete Runden" in chart[0]
    assert all(len(line) <= 60 for line in chart)
    text = "\n".join(chart)
    assert "Profi" in text and "Reaktion" in text and "Wertung" in text
    assert "expert" not in text and "reaction" not in text
    moved = rating_notes(("Ann", "Bo"), (Rating(1500, 90), None), (Rating(1520, 88), None), lang._)
    assert moved == ["Wertung: Ann 1520 ± 88 (+20)"]
    assert rating_chart("Bo", [], 60) == ["Bo: noch keine gewerteten Runden"]


def test_a_config_error_is_said_in_the_language(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    speaking: None,
) -> None:
    config = config_file(tmp_path, monkeypatch, 'names = "Ann"\n')
    assert main(["--lang", "de", "--print-config"]) == 2
    assert capsys.readouterr().err == (
        f'stress-tui: {config}:1: names: muss eine Liste von zwei Texten sein, nicht "Ann"\n'
    )
    config.write_text("namez = 1\n", encoding="utf-8")
    assert main(["--lang", "sv", "--print-config"]) == 2
    assert "namez: okänd nyckel (menade du names? kända: " in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["sim", "--lang", "de", "--help"],
            "Ganze Runden zwischen Computern auf einer virtuellen Uhr",
        ),
        (["daily", "--lang", "sv", "--help"], "Spela dagens giv"),
        (["host", "--lang", "de", "--help"], "der Port, auf dem gelauscht wird"),
    ],
)
def test_each_command_has_its_help_in_the_language(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    assert main(args) == 0
    assert said in " ".join(capsys.readouterr().out.split())


def test_the_language_chooses_its_keyboard_unless_the_config_or_the_flag_does(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    speaking: None,
) -> None:
    config = config_file(tmp_path, monkeypatch, "")
    for args, board in (
        (["--lang", "de"], "de"),
        (["--lang", "sv"], "se"),
        (["--lang", "en"], "us"),
        (["--lang", "de", "--keyboard", "us"], "us"),
    ):
        assert main([*args, "--print-config"]) == 0
        assert f'keyboard = "{board}"' in capsys.readouterr().out, args
    config.write_text('[keys]\nkeyboard = "fr"\n', encoding="utf-8")
    assert main(["--lang", "sv", "--print-config"]) == 0
    assert 'keyboard = "fr"' in capsys.readouterr().out


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch, speaking: None) -> None:
    """The environment asks for German, as ``LANGUAGE=de stress-tui ...`` does."""
    monkeypatch.setenv("LANGUAGE", "de")
    lang.choose(None)


CODE = ["otter", "maple", "drum", "velvet"]
"""A join code that is one."""


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--rules=1"], "--rules: nimmt keinen Wert"),
        (["--rules", "--print-config"], "--print-config: nicht zusammen mit --rules"),
        (["sim", "--games"], "--games: braucht einen Wert"),
        (["join"], "diese Argumente fehlen: HOST[:PORT], CODE"),
        (["sim", "--p1", "human"], "--p1: der Simulator spielt nur Computer (wähle aus bot:"),
        (["replay", "--list", "x"], "x: --list nimmt kein FILE"),
        (["--print-config", "stats"], "--print-config: nicht mit dem Befehl stats"),
        (["--rules", "daily"], "--rules: nicht mit dem Befehl daily"),
        (["--seed", "1/0"], "--seed: die Runde nach / muss von 1 bis 10000 sein, nicht 0"),
        (["--names", " ,Bo"], "--names: ein Name darf nicht leer sein"),
        (["--theme", "x"], '--theme: "x" ist kein Farbschema (wähle aus auto, dark,'),
        (["--lang", "xx"], '--lang: "xx" ist keine Sprache des Spiels (wähle aus en, sv, de)'),
        (["--row", "10", "--p2", "bot"], "--row: eine Reihe von 10 lässt sich nicht von der"),
        # The rules' own complaints, made in the core in no language and said here.
        (["--row", "0"], "--row: muss mindestens 1 sein, nicht 0"),
        (["--row", "x"], '--row: "x" ist keine ganze Zahl'),
        (["--jokers", "20"], "--jokers: muss zwischen 0 und 16 liegen, nicht 20"),
        (["--lockout", "x"], '--lockout: "x" ist keine Anzahl Sekunden'),
        (["--deal", "x"], '--deal: "x" ist keine Art zu geben (wähle aus split, each)'),
        (["--deck", "skat", "--row", "20"], "--row: 20 ist zu groß für das Blatt Skat, gegeben"),
        # The network's complaints about an address or a code as typed.
        (["join", "[::1", *CODE], "[::1: eine IPv6-Adresse in eckigen Klammern braucht"),
        (["join", "[::1]x", *CODE], "[::1]x: schreib eine IPv6-Adresse mit Port als"),
        (["join", "a/b", *CODE], "a/b: 'a/b' ist kein Hostname und keine Adresse"),
        (["join", "h:0", *CODE], "h:0: '0' ist kein Port (1 bis 65535)"),
        (["join", "h", "otter"], "CODE: ein Beitrittscode besteht aus 4 Wörtern, etwa otter-"),
        (["watch", "h", "otter", "maple", "drum", "xyz"], "CODE: 'xyz' ist keines der Wörter"),
    ],
)
def test_the_command_line_s_own_error_lines_are_said_in_german(
    args: list[str], line: str, capsys: pytest.CaptureFixture[str], german: None
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"stress-tui: {line}"), err
    assert err.count("\n") == 1


def test_a_row_without_keys_names_your_piles_in_the_language(
    capsys: pytest.CaptureFixture[str], german: None
) -> None:
    assert main(["--row", "10", "--p2", "bot"]) == 2
    assert "9 von deinen Stapeln" in capsys.readouterr().err


@pytest.mark.parametrize("command", [[], ["sim"], ["replay"], ["stats"], ["daily"], ["join"]])
def test_help_says_argparse_s_own_words_in_the_language(
    command: list[str], capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    assert main([*command, "--lang", "sv", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("användning: ")
    assert "-h, --help" in out and "visa den här hjälpen och avsluta" in out
    assert "flaggor:" in out or not command  # the game's own flags are all in groups
    for english in ("show this help", "usage:", "options:", "positional arguments"):
        assert english not in out


def test_the_descriptions_of_replay_and_stats_are_said_with_the_data_folder_s_variable(
    capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    assert main(["replay", "--lang", "de", "--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "Jede Runde wird im Ordner replays im Datenordner" in said
    assert "oder $STRESS_TUI_DATA_DIR)" in said
    assert main(["stats", "--lang", "sv", "--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "eller $STRESS_TUI_DATA_DIR); sedan varje persons rating" in said
    assert main(["sim", "--lang", "sv", "--help"]) == 0
    assert "\nsimulering:\n" in capsys.readouterr().out


KINDS = ("human", "bot:hard")


def test_a_name_nobody_gave_is_kept_as_its_key_and_shown_in_the_language(
    capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    """``You`` and ``Computer`` are who played, not words: the settings (and so the record
    and the replays) keep them as they are whatever the language, and every table that
    shows them says them in the player's (an old record's ``You`` included)."""
    assert main(["--lang", "sv", "--p2", "bot", "--print-config"]) == 0
    assert 'names = ["You", "Computer"]' in capsys.readouterr().out
    from stress_tui.core.stats import PlayerStats, RoundStats
    from stress_tui.storage.record import count_round

    stats = (PlayerStats(reactions=[0.5]), PlayerStats(reactions=[0.7]))
    count_round(("You", "Bo"), "standard", RoundStats(stats, 0, 20.0), True)
    count_round(("You", "Computer"), "standard", RoundStats(stats, 0, 20.0), True, kinds=KINDS)
    assert main(["stats", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "\nDu " in out and "You" not in out
    assert "\nschwer " in out  # the computer, by its level, said as the screen says it
    assert main(["stats", "--lang", "en"]) == 0
    assert "\nYou " in capsys.readouterr().out
    assert main(["stats", "--lang", "de", "--chart", "Du"]) == 0
    assert capsys.readouterr().out.startswith("Du: Wertung ")


def test_the_replay_list_says_the_names_nobody_gave_in_the_language(
    capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    from stress_tui.core.rules import Rules
    from stress_tui.storage.replay import replay_dir
    from tests.test_hostile_text import craft_header
    from tests.test_replay import record_round

    path, _events = record_round(Rules.for_deck("standard"), 3, replay_dir())
    craft_header(path, names=["You", "Computer"], players=["human", "bot:normal"])
    assert main(["replay", "--lang", "sv", "--list"]) == 0
    out = capsys.readouterr().out
    assert "Du (människa) mot Datorn (dator, normal)" in out
    assert "standard, rad 4, till 3 vinster" in out, out
    assert "You" not in out and "Computer" not in out and "human" not in out


def test_a_rule_s_complaint_follows_the_environment_s_language_in_a_real_process() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "LANGUAGE": "de", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "stress_tui", "--row", "0"],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    assert done.returncode == 2
    assert done.stderr == "stress-tui: --row: muss mindestens 1 sein, nicht 0\n"


def test_join_says_a_bad_address_in_the_environment_s_language_in_a_real_process() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "LANGUAGE": "de", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "stress_tui", "join", "bad host", *CODE],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    assert done.returncode == 2
    assert done.stderr == ("stress-tui: bad host: 'bad host' ist kein Hostname und keine Adresse\n")


def test_a_rule_in_the_config_file_is_refused_in_the_language(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    speaking: None,
) -> None:
    config = config_file(tmp_path, monkeypatch, "[rules]\nwins = 0\n")
    assert main(["--lang", "sv", "--print-config"]) == 2
    assert capsys.readouterr().err == (
        f"stress-tui: {config}:2: rules.wins: måste vara mellan 1 och 99, inte 0\n"
    )


def test_the_rule_flags_help_says_spans_decks_and_defaults_in_the_language(
    capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    assert main(["play", "--lang", "de", "--help"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "die Karten: standard 52 (2..A), jass 36 (6..A)" in said
    assert "doppelkopf 48 (9..A doppelt)" in said
    assert "0 bis 16; Vorgabe: 0" in said
    assert "Vorgabe: die des Blatts: 3 für skat, 4 für die anderen" in said
    assert "off für standard und jass, on für die anderen" in said
    for english in ("the deck's", " for the others", " to 16", " twice", "the cards:"):
        assert english not in said


def test_a_file_the_storage_refuses_is_said_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_text("junk\n", encoding="utf-8")
    assert main(["replay", "--lang", "de", str(junk)]) == 2
    assert capsys.readouterr().err == f"stress-tui: {junk}:1: keine Zeile einer Aufzeichnung\n"
    assert main(["replay", "--lang", "sv", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"stress-tui: {tmp_path}: är en mapp, inte en repris\n"
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert main(["replay", "--lang", "de", str(loop)]) == 2
    said = "nicht lesbar: symbolische Links, die im Kreis führen"
    assert capsys.readouterr().err == f"stress-tui: {loop}: {said}\n"
    from stress_tui.storage.replay import replay_dir

    replay_dir().mkdir(parents=True)
    (replay_dir() / "junk.jsonl").write_text('{"format": "other"}\n', encoding="utf-8")
    assert main(["replay", "--lang", "de", "--list"]) == 0
    err = capsys.readouterr().err
    assert err == f"stress-tui: {replay_dir() / 'junk.jsonl'}: keine Aufzeichnung von stress-tui\n"


def test_a_record_that_is_not_one_is_said_in_the_language(
    capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    from stress_tui.storage.database import record_path

    path = record_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database at all, but long enough to look at" * 4)
    assert main(["stats", "--lang", "sv"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"stress-tui: {path}: ingen statistik från stress-tui")
    assert err.endswith("; lämnad som den är\n")


def test_a_key_file_s_complaint_is_said_in_the_language_and_blames_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    keys = tmp_path / "keys.toml"
    keys.write_text('[keys.p1]\nleftt1 = "a"\n', encoding="utf-8")
    assert main(["--lang", "de", "--keys", str(keys), "--print-config"]) == 2
    assert capsys.readouterr().err.startswith(
        f"stress-tui: {keys}:1: keys: [keys.p1]: unbekannte Aktion 'leftt1' (die Aktionen sind"
    )
    taken = {f"left{i}": f"{i}" for i in range(1, 5)} | {
        f"right{i}": "qwer"[i - 1] for i in range(1, 5)
    }
    taken |= {"stress": "1", "ready": "z", "stop": "x"}
    keys.write_text(
        "[keys.p2]\n" + "".join(f'{action} = "{key}"\n' for action, key in taken.items()),
        encoding="utf-8",
    )
    assert main(["--lang", "sv", "--keys", str(keys), "--print-config"]) == 2
    assert capsys.readouterr().err == (
        f"stress-tui: {keys}:1: keys: tangenten '1' har getts till två handlingar: "
        "p2:s left1 och p2:s stress\n"
    )


def test_replay_verify_says_its_verdict_and_the_winner_nobody_named_in_the_language(
    capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    from stress_tui.core.rules import Rules
    from stress_tui.storage.replay import load, replay_dir
    from stress_tui.storage.verify import verify
    from tests.test_hostile_text import craft_header
    from tests.test_replay import record_round

    path, _events = record_round(Rules.for_deck("standard"), 3, replay_dir())
    craft_header(path, names=["You", "Computer"], players=["human", "bot:normal"])
    verdict = verify(load(path))
    assert verdict.ok and "verified, " in verdict.message  # the English, for scripts
    winner = {"You": "Du", "Computer": "Datorn"}[verdict.message.rsplit(" ", 1)[1]]
    assert main(["replay", "--lang", "sv", "--verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: kontrollerad, ") and out.endswith(f" drag, vinnare {winner}\n")


def test_the_simulator_s_summary_is_said_in_the_language(
    capsys: pytest.CaptureFixture[str], speaking: None
) -> None:
    assert main(["sim", "--lang", "de", "--games", "2", "--seed", "1", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Regeln:       standard"
    assert lines[5].startswith("Enden:        letzte Karte 2 (100,0%), unentschieden am toten")
    assert lines[6].startswith("Siege:        p1 ") and "unentschieden" in lines[6]
    assert lines[7].endswith(" je Spiel")


@pytest.mark.parametrize(
    ("code", "lines"),
    [
        (
            "en",
            [
                "Computer called stress first: you take 3 cards",
                "You called a false stress and take 2 cards",
                "You stopped the stress",
                "You win the round!",
            ],
        ),
        (
            "sv",
            [
                "Datorn sa stress först: du tar upp 3 kort",
                "Du sa stress i onödan och tar upp 2 kort",
                "Du stoppade stressen",
                "Du vinner omgången!",
            ],
        ),
        (
            "de",
            [
                "Computer rief zuerst Stress: du nimmst 3 Karten auf",
                "Du riefst falsch Stress und nimmst 2 Karten auf",
                "Du hast den Stress gestoppt",
                "Sieg! Du gewinnst die Runde",
            ],
        ),
    ],
)
def test_the_person_nobody_named_is_spoken_to_as_you(
    code: str, lines: list[str], speaking: None
) -> None:
    import random

    from stress_tui.core.engine import Game
    from stress_tui.core.events import (
        Event,
        FalseStressCalled,
        PilesTaken,
        RoundWon,
        StressStopped,
        StressWon,
    )
    from stress_tui.core.houserules import FalseStress
    from stress_tui.core.notation import parse_position
    from stress_tui.terminal.lang import addressed, shown_names
    from stress_tui.terminal.notices import Notices
    from tests.test_render import PLAYING

    lang.choose(code)
    game = Game(parse_position(PLAYING), random.Random(1))
    names = ("You", "Computer")  # the settings' keys against the computer
    notices = Notices(shown_names(names), you=addressed(names))
    said = []
    batches: list[list[Event]] = [
        [StressWon(winner=1, loser=0, time=1.0), PilesTaken(player=0, piles=(0, 1), count=3)],
        [FalseStressCalled(player=0, penalty=FalseStress.TAKE), PilesTaken(0, (0,), 2)],
        [StressStopped(by=0)],
        [RoundWon(player=0, time=2.0)],
    ]
    for events in batches:
        notices.note(events, 1.0, game)
        assert notices.headline is not None
        said.append(notices.headline.text)
    assert said == lines
    # Someone else, named or not, is spoken of: "Computer wins the round!".
    notices.note([RoundWon(player=1, time=3.0)], 3.0, game)
    assert notices.headline is not None
    assert notices.headline.text.startswith(("Computer wins", "Datorn vinner", "Sieg! Computer"))


def test_a_broken_replay_line_and_position_are_said_in_the_language(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    speaking: None,
) -> None:
    from stress_tui.core.rules import Rules
    from tests.test_replay import record_round

    path, _events = record_round(Rules.for_deck("standard"), 3, tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = '{"t": 1.0, "a": "dance", "p": 0}'  # the second action
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", "--lang", "de", str(path)]) == 2
    assert capsys.readouterr().err == f"stress-tui: {path}:3: unbekannte Aktion 'dance'\n"
    lines[2] = '{"t": 1.0, "a": "play", "p": 0}'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", "--lang", "sv", str(path)]) == 2
    said = "play behöver heltal 'p', 'pile' och 'to'"
    assert capsys.readouterr().err == f"stress-tui: {path}:3: {said}\n"
    lines[2] = '{"t": 99.0, "a": "play", "p": 0, "pile": 9, "to": 0}'  # no such row pile
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", "--lang", "sv", "--verify", str(path)]) == 1
    said = "ett drag går inte att göra: ingen hög 9 i raden (raden har 0..3)"
    assert capsys.readouterr().out == f"{path}: {said}\n"
    monkeypatch.setenv("STRESS_TUI_POSITION", "rules: standard; p1 row: 5H")
    assert main(["--lang", "sv"]) == 2
    assert "(piles: saknas)" in capsys.readouterr().err
    monkeypatch.setenv("STRESS_TUI_POSITION", "rules: standard; p1 row: 5H; piles: 4C; p2 row: 6H")
    assert main(["--lang", "de"]) == 2
    assert "(piles: zwei Ablagestapel, nicht 1)" in capsys.readouterr().err
    position = "rules: standard wins=0; p1 row: 5H; piles: 4C | 9D; p2 row: 6H"
    monkeypatch.setenv("STRESS_TUI_POSITION", position)
    assert main(["--lang", "de"]) == 2
    assert "(rules: wins: muss zwischen 1 und 99 liegen, nicht 0)" in capsys.readouterr().err
    monkeypatch.setenv(
        "STRESS_TUI_POSITION", "rules: standard; p1 row: 5X; piles: 4C | 9D; p2 row: 6H"
    )
    assert main(["--lang", "sv"]) == 2
    assert "(p1 row: inte ett kort: '5X' (färgerna är C, D, H, S))" in capsys.readouterr().err
    position = "rules: standard; p1 row: 5H | 6H | 7H | 8H; piles: 4C | 9D; p2 row: 5H | - | - | -"
    monkeypatch.setenv("STRESS_TUI_POSITION", position)
    assert main(["--lang", "de"]) == 2
    said = "(5H: zu viele dieser Karte für das Blatt standard, wie gegeben)"
    assert said in capsys.readouterr().err


@pytest.mark.parametrize(("code", "said"), [("en", "0.75"), ("sv", "0,75"), ("de", "0,75")])
def test_numbers_with_decimals_take_the_language_s_decimal_mark(code: str, said: str) -> None:
    """Swedish and German write a decimal comma: the rules' seconds, a lockout's time left,
    the result's reaction times."""
    from stress_tui.core.words import seconds
    from stress_tui.terminal.screens.result import _seconds

    lang.choose(code)
    try:
        assert seconds(0.75, lang._).startswith(said + " ")
        assert _seconds(0.4) == said[:-2] + "40s"
    finally:
        lang.choose(None)
