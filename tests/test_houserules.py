"""The house rules are declared once, in ``rules.HOUSE_RULES``: every rule of the table can be
set by its one name in the notation, the config file and the flags, is listed in ``--help``
and said in ``--rules`` and on the rule line, because each of those is made from the table.
A rule's error carries the rule and the value as data, and older names stay readable.

These tests go over the table itself, so a rule added to it is checked everywhere by them
with no edit here; ``test_the_places_that_name_rules_name_none_themselves`` checks that
nothing but the table (and the engine) has to change for it.
"""

from __future__ import annotations

import argparse
import ast
import json
from dataclasses import fields
from pathlib import Path

import pytest

from stress_tui.cli.config import load_config, to_toml
from stress_tui.cli.main import main
from stress_tui.cli.parser import build, build_parser
from stress_tui.cli.settings import settings_from_args
from stress_tui.core.decks import DECK_FACTS
from stress_tui.core.houserules import (
    BY_FIELD,
    BY_NAME,
    DECK_RULE,
    DEFAULTS,
    HOUSE_RULES,
    Choice,
    Deal,
    FalseStress,
    FlipReady,
    HouseRule,
    RulesError,
    Seconds,
    StressPenalty,
    Switch,
    Taken,
    Whole,
)
from stress_tui.core.notation import NotationError, format_rules, parse_rules
from stress_tui.core.rules import Rules
from stress_tui.core.rulestext import plain_words, short_line
from stress_tui.core.settings import Settings
from stress_tui.players.soak import rule_variants
from stress_tui.storage.listing import summaries
from stress_tui.storage.record import Record
from stress_tui.storage.replay import load
from stress_tui.storage.verify import verify

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures"
STANDARD = Rules.for_deck("standard")


def _samples(rule: HouseRule) -> list[object]:
    """Values of a rule worth trying: both ends and one between, every choice."""
    kind = rule.kind
    if isinstance(kind, Whole):
        return [kind.low, kind.low + 1, kind.high if kind.high is not None else kind.low + 4]
    if isinstance(kind, Seconds):
        return [float(kind.low), 0.5, float(kind.high)]
    if isinstance(kind, Switch):
        return [True, False]
    return list(kind.options.values())


def _changed() -> list[tuple[HouseRule, Rules]]:
    """Every rule with every sample value that differs from the standard deck's and can be
    played on it: the rules that gives."""
    found = []
    for rule in HOUSE_RULES:
        for value in _samples(rule):
            if value == getattr(STANDARD, rule.field):
                continue
            try:
                if rule is DECK_RULE:
                    found.append((rule, Rules.for_deck(str(value))))
                else:
                    found.append((rule, Rules.for_deck("standard", **{rule.field: value})))
            except RulesError:
                continue
    return found


CHANGED = _changed()
IDS = [f"{rule.name}={rule.write(getattr(rules, rule.field))}" for rule, rules in CHANGED]


@pytest.fixture(autouse=True)
def no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The config file read is one of the test's own (absent unless the test writes it)."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("STRESS_TUI_CONFIG", str(path))
    return path


def _argv(rule: HouseRule, value: object) -> list[str]:
    """The flag that sets a rule to a value."""
    if isinstance(rule.kind, Switch):
        return [rule.flag if value else f"--no-{rule.name}"]
    return [rule.flag, rule.write(value)]


def _settings(*argv: str) -> Settings:
    return settings_from_args(build(list(argv))[0].parse_args(list(argv)), load_config())


# --------------------------------------------------------------------------- the table


def test_every_rules_setting_is_one_house_rule_with_one_name() -> None:
    settable = [f.name for f in fields(Rules) if f.init]
    assert [rule.field for rule in HOUSE_RULES] == settable  # the notation's order, too
    names = [name for rule in HOUSE_RULES for name in (rule.name, *rule.old_names)]
    assert len(names) == len(set(names)), "a name stands for one rule"
    for rule in HOUSE_RULES:
        assert rule.help and rule.help_text().startswith(rule.help.split("{")[0])
        assert rule.name == rule.name.lower() and " " not in rule.name


def test_every_deck_s_rules_start_from_the_table_s_defaults() -> None:
    """The table is the one place of every default: ``Rules``' fields take theirs from it,
    ``for_deck`` its per-deck ones, and ``--help`` says the same values without a
    ``Rules`` (it loads no dataclass)."""
    assert {f.name: f.default for f in fields(Rules) if f.init} == DEFAULTS
    others = [rule for rule in HOUSE_RULES if rule is not DECK_RULE]
    for deck in DECK_FACTS:
        rules = Rules.for_deck(deck)
        played = {rule.name: getattr(rules, rule.field) for rule in others}
        assert played == {rule.name: rule.default_for(deck) for rule in others}, deck
    assert Rules() == Rules.for_deck("standard")


def test_every_rule_has_a_sample_value_other_than_the_standard_deck_s() -> None:
    assert {rule.name for rule, _ in CHANGED} == set(BY_NAME)


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda rule: rule.name)
def test_every_value_of_a_choice_is_said_in_words(rule: HouseRule) -> None:
    """A choice's every member has its sentence (a missed one was a KeyError in the help
    screen) and every value of every rule makes a rule line and sentences."""
    for value in _samples(rule):
        try:
            rules = Rules.for_deck("jass", **{rule.field: value}) if rule is not DECK_RULE else None
        except RulesError:
            continue
        if rules is not None:
            assert plain_words(rules) and short_line(rules)


# --------------------------------------------------------------------------- everywhere


@pytest.mark.parametrize(("rule", "rules"), CHANGED, ids=IDS)
def test_a_rule_round_trips_through_the_notation(rule: HouseRule, rules: Rules) -> None:
    text = format_rules(rules)
    value = getattr(rules, rule.field)
    if rule is DECK_RULE:
        assert text == value
    else:
        assert text == f"standard {rule.name}={rule.write(value)}"
    assert parse_rules(text) == rules


@pytest.mark.parametrize(("rule", "rules"), CHANGED, ids=IDS)
def test_a_rule_is_set_by_its_flag(rule: HouseRule, rules: Rules) -> None:
    assert _settings(*_argv(rule, getattr(rules, rule.field))).rules == rules


@pytest.mark.parametrize(("rule", "rules"), CHANGED, ids=IDS)
def test_a_rule_is_set_by_its_config_key_and_printed_under_it(
    rule: HouseRule, rules: Rules, no_config: Path
) -> None:
    line = f"{rule.name} = {rule.kind.toml(getattr(rules, rule.field))}"
    no_config.write_text(f"[rules]\n{line}\n", encoding="utf-8")
    assert _settings().rules == rules
    printed = to_toml(Settings(rules=rules), no_config)
    assert line in printed.splitlines()
    no_config.write_text(printed, encoding="utf-8")
    assert _settings().rules == rules


@pytest.mark.parametrize(("rule", "rules"), CHANGED, ids=IDS)
def test_a_rule_is_said_in_rules_and_on_the_rule_line(
    rule: HouseRule, rules: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    defaults = rules.defaults() if rule is not DECK_RULE else STANDARD
    assert plain_words(rules) != plain_words(defaults)
    assert short_line(rules, 200) != short_line(defaults, 200)
    assert main(["--rules", *_argv(rule, getattr(rules, rule.field))]) == 0
    assert capsys.readouterr().out.splitlines() == plain_words(rules)


@pytest.mark.parametrize("command", [[], ["sim"]])
def test_every_rule_is_a_flag_with_its_help_and_default(command: list[str]) -> None:
    parser = build_parser()
    if command:
        parser = next(
            action.choices[command[0]]
            for action in parser._actions
            if isinstance(action, argparse._SubParsersAction)
        )
    squeezed = "".join(parser.format_help().split())
    for rule in HOUSE_RULES:
        assert "".join(rule.help_text().split()) in squeezed, rule.name
        if isinstance(rule.kind, Switch):
            assert f"--no-{rule.name}" in squeezed


@pytest.mark.one_python  # the source read (ast): the same on every Python
def test_the_places_that_name_rules_name_none_themselves() -> None:
    """The notation, the config file, the command line (every command's flags), the rule
    texts and storage go through the table: none of them spells a house rule's name or
    field (so a new rule needs no edit there)."""
    words = {w for rule in HOUSE_RULES for w in (rule.name, rule.field, *rule.old_names)}
    places = [
        "stress_tui/core/notation.py",
        "stress_tui/core/rulestext.py",
        *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "stress_tui/cli").rglob("*.py"))),
        *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "stress_tui/storage").glob("*.py"))),
    ]
    generic = ("stress_tui/cli", "stress_tui/core/rulestext")
    fields_read = set(BY_FIELD) - {"deck"}  # ``rules.deck`` is also the deck's name
    found = []
    for place in places:
        tree = ast.parse((ROOT / place).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            line = getattr(node, "lineno", 0)
            if isinstance(node, ast.Constant) and node.value in words:
                found.append(f"{place}:{line}: {node.value!r}")
            attribute = node.attr if isinstance(node, ast.Attribute) else None
            if place.startswith(generic) and attribute in fields_read:
                found.append(f"{place}:{line}: .{attribute}")
    assert found == []


@pytest.mark.one_python  # pure logic: the rule sets made from the house-rule table
def test_the_soak_plays_every_value_a_rule_gives_it() -> None:
    variants = rule_variants()
    for deck in {r.deck for r in variants}:
        of_deck = [r for r in variants if r.deck == deck]
        for rule in HOUSE_RULES:
            if rule.soak is None:
                continue
            played = {getattr(r, rule.field) for r in of_deck}
            wanted = set(rule.soak(Rules.for_deck(deck)))
            assert played == wanted, (rule.name, deck)


# --------------------------------------------------------------------------- errors


def _bad(rule: HouseRule) -> tuple[object, str]:
    """A value a rule refuses, given in code and as text."""
    kind = rule.kind
    if isinstance(kind, Whole):
        return kind.low - 1, "many"
    if isinstance(kind, Seconds):
        return kind.high + 1.0, "soon"
    if isinstance(kind, Switch):
        return "maybe", "maybe"
    assert isinstance(kind, Choice)
    return "nonsense", "nonsense"


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda rule: rule.name)
def test_a_rules_error_names_its_rule_and_value_as_data(rule: HouseRule) -> None:
    value, text = _bad(rule)
    with pytest.raises(RulesError) as made:
        if rule is DECK_RULE:
            Rules.for_deck(str(value))
        else:
            Rules.for_deck("standard", **{rule.field: value})
    assert (made.value.field, made.value.value) == (rule.name, value)
    assert str(made.value) == f"{rule.name}: {made.value.problem}"
    with pytest.raises(RulesError) as read:
        rule.read(text)
    assert (read.value.field, read.value.value) == (rule.name, text)
    with pytest.raises(RulesError) as from_file:
        rule.read_toml([text])
    assert from_file.value.field == rule.name


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda rule: rule.name)
def test_a_bad_value_is_one_line_naming_the_flag_or_the_config_key(
    rule: HouseRule, capsys: pytest.CaptureFixture[str], no_config: Path
) -> None:
    value, text = _bad(rule)
    if not isinstance(rule.kind, Switch):
        assert main([rule.flag, text, "--rules"]) == 2
        assert capsys.readouterr().err.startswith(f"stress-tui: {rule.flag}: ")
    no_config.write_text(f"[rules]\n{rule.name} = {json.dumps(value)}\n", encoding="utf-8")
    assert main(["--rules"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"stress-tui: {no_config}:2: rules.{rule.name}: "), err
    assert err.count("\n") == 1


def test_a_combination_names_the_rule_refused_and_says_it_as_the_caller_does() -> None:
    with pytest.raises(RulesError) as made:
        Rules.for_deck("skat", row_size=16)
    error = made.value
    assert (error.field, error.value) == ("row", 16)
    assert error.problem.endswith("(row at most 15)")
    assert error.said_as("--row").endswith("(--row at most 15)")
    with pytest.raises(NotationError, match=r"^rules: row: 16 is too large"):
        parse_rules("skat row=16")


@pytest.mark.parametrize("number", ["nan", "inf", "-inf"])
def test_a_config_time_that_is_not_a_number_is_refused_in_one_line(
    number: str, capsys: pytest.CaptureFixture[str], no_config: Path
) -> None:
    """TOML can write nan and inf: the reader says the value is wrong, in one line."""
    no_config.write_text(f"[rules]\nlockout = {number}\n", encoding="utf-8")
    assert main(["--rules"]) == 2
    assert capsys.readouterr().err == (
        f"stress-tui: {no_config}:2: rules.lockout: must be a number of seconds, not {number}\n"
    )


# --------------------------------------------------------------------------- older names


def test_a_replay_written_with_the_older_names_still_verifies(
    tmp_path: Path,
) -> None:
    """Recorded before the house rules had one name each: the header and the final
    position say ``penalty=one`` and ``race=0.5``."""
    path = FIXTURES / "replays" / "before-one-name-per-rule.jsonl"
    replay = load(path)
    assert "penalty=one" in replay.header["rules"] and "race=0.5" in replay.header["rules"]
    assert replay.new_game().rules == Rules.for_deck(
        "standard", stress_penalty="one", race_window=0.5, lockout=0.5
    )
    assert verify(replay).ok
    (tmp_path / path.name).write_bytes(path.read_bytes())
    found, problems = summaries(tmp_path)
    assert problems == []
    assert [s.rules for s in found] == ["standard stress-penalty=one lockout=0.5 race-window=0.5"]


def test_a_record_with_the_older_names_counts_under_today_s(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    standing = {"matches_won": 1, "matches_lost": 0, "rounds_won": 2, "rounds_lost": 1}
    path.write_text(
        json.dumps(
            {
                "format": "stress-tui record",
                "version": 1,
                "players": {
                    "Ann": {
                        "skat penalty=give": {**standing, "best_reaction": 0.5},
                        "skat stress-penalty=give": {**standing, "best_reaction": 0.4},
                        "jass": standing,
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    record = Record.load(tmp_path / "record.sqlite")  # none yet: the older record.json
    assert sorted(record.standings["Ann"]) == ["jass", "skat stress-penalty=give"]
    merged = record.standings["Ann"]["skat stress-penalty=give"]
    assert (merged.matches_won, merged.rounds_won, merged.rounds_lost) == (2, 4, 2)
    assert merged.best_reaction == 0.4


# --------------------------------------------------------------------------- what the texts say


def test_the_rules_in_words_say_when_cards_are_flipped() -> None:
    """000: "Kör spelet fast ... tar båda ett nytt kort från plockhögen och lägger samtidigt
    på var sin spelhög"; 001: "oder ein Spieler einen möglichen Zug nicht wahrnehmen will";
    000: "Har den ena spelaren fått slut på kort i plockhögen ger den andra över ett kort"."""
    words = plain_words(Rules.for_deck("standard"))
    assert (
        "New cards are flipped, one from each draw pile onto each play pile, at the start, "
        "after stress, when nobody can play, and when both players say they are ready."
    ) in words
    assert (
        "A player whose draw pile is empty flips the top card of the other's; with both "
        "empty and nobody able to play, each takes up a play pile as a new draw pile."
    ) in words


@pytest.mark.parametrize(
    ("penalty", "said"),
    [
        (
            "one",
            "The slower player takes only the smaller pile; both, when it is a single card "
            "and the slower's draw pile is empty.",
        ),
        (
            "give",
            "The faster player hands the slower the larger pile; both, when it is a single "
            "card and the slower's draw pile is empty.",
        ),
    ],
)
def test_the_penalty_s_words_say_when_the_slower_takes_both_piles(penalty: str, said: str) -> None:
    """What --rules says is what the engine does: with a one-card pile named and the
    slower's draw pile empty, the slower takes both piles."""
    from stress_tui.core.actions import CallStress
    from stress_tui.core.events import PilesTaken
    from tests.conftest import game

    assert said in plain_words(Rules.for_deck("standard", stress_penalty=penalty))
    g = game(f"""
        rules: standard stress-penalty={penalty}
        phase: stress
        p1 row: 3S | - | - | -
        piles: 7H | 7D
        p2 row: 9C | - | - | -
        p2 draw: 2C
    """)
    taken = [e for e in g.apply(CallStress(1, 1.0)) if isinstance(e, PilesTaken)]
    assert taken == [PilesTaken(0, (0, 1), 2)]


def test_001_s_own_game_is_one_word_and_plays_by_001_s_rules() -> None:
    """001, Grundsätzliche Spielvorbereitung: "Jeder Mitspieler erhält die 52 Karten eines
    Satzes ... jeder Spieler legt vier Karten sichtbar vor sich aus" (a deck each, four
    open cards, no stacks); Stress: "welche er zu seinen Karten in der Hand dazumischen
    muss" (taken cards mixed in); Stapel: "darf er diese gleichzeitig ablegen" (laid
    together); Weiter Karten auflegen: "oder ein Spieler einen möglichen Zug nicht
    wahrnehmen will" (one ready flips)."""
    german = Rules.for_deck("german")
    assert (german.spec.ranks, german.cards_per_deck) == (tuple(range(2, 15)), 52)
    assert german.deal is Deal.EACH and german.row_size == 4
    assert not german.stacking and german.together
    assert german.taken is Taken.MIXED and german.flip_ready is FlipReady.ONE
    assert german.stress_penalty is StressPenalty.BOTH and german.false_stress is FalseStress.TAKE
    assert not german.stress_stop and german.wins == 3
    assert format_rules(german) == "german"
    assert plain_words(german)[0].startswith("The German game (001), a standard deck: 52 cards")


@pytest.mark.parametrize("deck", ["jass", "skat", "doppelkopf"])
def test_001_s_decks_default_to_001_s_rules_where_001_speaks(deck: str) -> None:
    """001's decks: "Diese Variante wird mit den gleichen Regeln gespielt" (Doppelkopf), so
    taken cards are mixed in ("dazumischen") and one player's wish flips, as in 001's game;
    000's standard game keeps taken cards under the draw pile and flips when both say so."""
    rules = Rules.for_deck(deck)
    assert rules.taken is Taken.MIXED and rules.flip_ready is FlipReady.ONE
    standard = Rules.for_deck("standard")
    assert standard.taken is Taken.UNDER and standard.flip_ready is FlipReady.BOTH
    assert standard.deal is Deal.SPLIT and standard.stacking


def test_the_rule_line_leaves_the_lockout_and_the_race_window_unsaid_at_the_table_s_defaults() -> (
    None
):
    from stress_tui.core import rulewords

    assert (
        DEFAULTS["lockout"],
        DEFAULTS["race_window"],
    ) == (rulewords._LOCKOUT, rulewords._RACE_WINDOW)
