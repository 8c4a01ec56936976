"""The command line: every flag changes the rules the engine plays by, every mistake is one
line and exit status 2, and the game starts only on a terminal."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import types
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from stress_tui import __version__
from stress_tui.cli.config import load_config
from stress_tui.cli.main import main
from stress_tui.cli.parser import build, build_parser
from stress_tui.cli.settings import settings_from_args
from stress_tui.core.actions import CallStress, Play, StopStress
from stress_tui.core.cards import Card
from stress_tui.core.engine import Game, Match
from stress_tui.core.events import (
    FalseStressCalled,
    LockedOut,
    PilesTaken,
    Rejected,
    RejectReason,
    StopDeclared,
    StressWon,
)
from stress_tui.core.houserules import Deal, FalseStress, StressPenalty
from stress_tui.core.notation import format_rules, parse_position
from stress_tui.core.rules import Rules
from stress_tui.core.rulestext import plain_words, short_line
from stress_tui.core.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def no_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """No test reads the real user's config file: it points at one that does not exist."""
    path = tmp_path / "config.toml"
    monkeypatch.setenv("STRESS_TUI_CONFIG", str(path))
    yield path


def settings(*argv: str) -> Settings:
    """The settings a command line gives, built by the same pieces ``main`` uses."""
    return settings_from_args(build(list(argv))[0].parse_args(list(argv)), load_config())


def rules(*argv: str) -> Rules:
    return settings(*argv).rules


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``main``; check it said exactly one line on stderr and returned 2; the line."""
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and "usage:" not in err
    return err.rstrip("\n")


def deal(r: Rules, seed: int = 0) -> Game:
    return Game.deal(r, random.Random(seed))


def dealt_cards(g: Game) -> Counter[Card]:
    return g.state.cards()


def game_at(r: Rules, text: str) -> Game:
    """A game at a position written in notation, played by the rules ``r``."""
    return Game(parse_position(f"rules: {format_rules(r)}\n{text}"), random.Random(0))


# --------------------------------------------------------------------------- defaults


def test_no_flags_gives_the_standard_rules_and_two_people() -> None:
    s = settings()
    assert s == Settings(rules=Rules.for_deck("standard"))
    assert s.players == ("human", "human")
    assert s.names == ("Player 1", "Player 2")
    assert s.seed is None and s.keymap is None and not s.ascii and not s.four_colour


# --------------------------------------------------------------------------- the deck


def test_deck_jass_deals_36_cards_and_plays_to_5_wins() -> None:
    r = rules("--deck", "jass")
    assert (r.deck, r.wins, r.row_size) == ("jass", 5, 4)
    assert r.false_stress is FalseStress.TAKE and r.stress_stop
    assert sum(dealt_cards(deal(r)).values()) == 36
    match = Match(r, random.Random(0))
    for _ in range(4):
        match.record(0)
    assert match.winner is None
    match.record(0)
    assert match.winner == 0


def test_deck_skat_deals_32_cards_in_rows_of_three() -> None:
    r = rules("--deck", "skat")
    assert (r.deck, r.row_size, r.wins) == ("skat", 3, 3)
    g = deal(r)
    assert sum(dealt_cards(g).values()) == 32
    assert all(len(p.row) == 3 for p in g.state.players)
    assert min(card.rank for card in dealt_cards(g)) == 7


def test_deck_doppelkopf_has_every_card_twice() -> None:
    r = rules("--deck", "doppelkopf")
    cards = dealt_cards(deal(r))
    assert sum(cards.values()) == 48
    assert set(cards.values()) == {2}


def test_deck_standard_is_the_default() -> None:
    assert rules("--deck", "standard") == rules()
    assert sum(dealt_cards(deal(rules())).values()) == 52


def test_deck_name_is_case_blind() -> None:
    assert rules("--deck", "JASS").deck == "jass"


def test_jokers_are_added_to_the_deal() -> None:
    r = rules("--jokers", "2")
    assert r.jokers == 2
    cards = dealt_cards(deal(r))
    assert sum(cards.values()) == 54
    assert sum(n for card, n in cards.items() if card.is_joker) == 2


def test_deal_each_gives_every_player_a_whole_deck() -> None:
    r = rules("--deal", "each")
    assert r.deal is Deal.EACH
    g = deal(r)
    assert [p.card_total() for p in g.state.players] == [52, 52]
    assert [p.card_total() for p in deal(rules("--deal", "split")).state.players] == [26, 26]


# --------------------------------------------------------------------------- house rules


def test_row_3_deals_rows_of_three() -> None:
    r = rules("--row", "3")
    assert r.row_size == 3
    assert [len(p.row) for p in deal(r).state.players] == [3, 3]


def test_row_overrides_the_decks_default() -> None:
    assert rules("--deck", "skat", "--row", "5").row_size == 5
    assert rules("--row", "6", "--deck", "jass").row_size == 6


def test_no_stacking_gives_every_card_its_own_place() -> None:
    stacked = [deal(rules(), seed) for seed in range(40)]
    assert any(len(pile) > 1 for g in stacked for p in g.state.players for pile in p.row)
    r = rules("--no-stacking")
    assert not r.stacking
    flat = [deal(r, seed) for seed in range(40)]
    assert all(len(pile) == 1 for g in flat for p in g.state.players for pile in p.row)
    assert rules("--stacking").stacking


def test_jass_plays_without_stacking_unless_asked() -> None:
    """001, Jass: four open cards, never more than one card at once into the middle."""
    assert not rules("--deck", "jass").stacking
    assert rules("--deck", "jass", "--stacking").stacking
    flat = [deal(rules("--deck", "jass"), seed) for seed in range(20)]
    assert all(len(pile) == 1 for g in flat for p in g.state.players for pile in p.row)


def test_no_wrap_makes_an_ace_not_fit_on_a_2() -> None:
    assert rules().can_play_on(2, 14) and rules().can_play_on(14, 2)
    r = rules("--no-wrap")
    assert not r.wrap
    assert not r.can_play_on(2, 14) and not r.can_play_on(14, 2)
    assert r.can_play_on(2, 3) and r.can_play_on(14, 13)
    g = game_at(
        r,
        """
        phase: playing
        p1 row: AH | 9S | 9C | 9D
        piles: 2H | 6S
        p2 row: 8D | 8S | 8C | KC
    """,
    )
    assert g.apply(Play(0, 0, 0, 1.0))[0] == Rejected(
        0, Play(0, 0, 0, 1.0), RejectReason.NOT_ADJACENT
    )


STRESS = """
    phase: stress
    p1 row: 2C | 9S | JC | KD
    p1 draw: 3C
    piles: 4H 5C 6D | 6S
    p2 row: 8D | 2S | 3S | 7C
    p2 draw: 3D
"""


@pytest.mark.parametrize(
    ("flags", "penalty", "piles", "count"),
    [
        ((), StressPenalty.BOTH, (0, 1), 4),
        (("--stress-penalty", "both"), StressPenalty.BOTH, (0, 1), 4),
        (("--stress-penalty", "one"), StressPenalty.ONE, (1,), 1),
        (("--stress-penalty", "give"), StressPenalty.GIVE, (0,), 3),
    ],
)
def test_stress_penalty_decides_which_piles_the_slower_takes(
    flags: tuple[str, ...], penalty: StressPenalty, piles: tuple[int, ...], count: int
) -> None:
    r = rules(*flags)
    assert r.stress_penalty is penalty
    events = game_at(r, STRESS).apply(CallStress(0, 1.0))
    assert events[0] == StressWon(0, 1, 1.0)
    assert events[1] == PilesTaken(1, piles, count)


NO_STRESS = """
    phase: playing
    p1 row: 2C | 9S | JC | KD
    p1 draw: 3C
    piles: 4H 5C | 6S
    p2 row: 8D | 2S | 3S | 7C
"""


def test_false_stress_take_costs_the_caller_both_piles() -> None:
    r = rules("--false-stress", "take")
    assert r.false_stress is FalseStress.TAKE
    events = game_at(r, NO_STRESS).apply(CallStress(0, 1.0))
    assert events[:2] == [FalseStressCalled(0, FalseStress.TAKE), PilesTaken(0, (0, 1), 3)]


def test_false_stress_ignore_costs_nothing() -> None:
    r = rules("--false-stress", "ignore")
    assert game_at(r, NO_STRESS).apply(CallStress(0, 1.0)) == [
        FalseStressCalled(0, FalseStress.IGNORE)
    ]


def test_false_stress_lockout_locks_the_caller_out_for_the_lockout() -> None:
    r = rules("--false-stress", "lockout", "--lockout", "2.5")
    assert game_at(r, NO_STRESS).apply(CallStress(0, 1.0)) == [
        FalseStressCalled(0, FalseStress.LOCKOUT),
        LockedOut(0, 3.5),
    ]


THREAT = """
    phase: playing
    p1 row: 2C | 9S | JC | KD
    piles: 4H | 5S
    p2 row: 5D | 2S | 3S | 7C
"""


def test_stress_stop_lets_a_player_stop_the_stress_the_opponent_threatens() -> None:
    off = rules()
    assert not off.stress_stop
    assert game_at(off, THREAT).apply(StopStress(0, 1.0)) == [
        Rejected(0, StopStress(0, 1.0), RejectReason.RULE_OFF)
    ]
    on = rules("--stress-stop")
    assert on.stress_stop
    assert game_at(on, THREAT).apply(StopStress(0, 1.0)) == [StopDeclared(0)]


def test_no_stress_stop_turns_off_the_jass_decks_stress_stop() -> None:
    assert rules("--deck", "jass").stress_stop
    assert not rules("--deck", "jass", "--no-stress-stop").stress_stop


def test_lockout_is_how_long_a_misplay_locks_a_player_out() -> None:
    misplay = """
        phase: playing
        p1 row: 9C | 9S | JC | KD
        piles: 4H | 6S
        p2 row: 8D | 2S | 3S | 7C
    """
    r = rules("--lockout", "2")
    assert r.lockout == 2.0
    assert game_at(r, misplay).apply(Play(0, 0, 0, 1.0))[-1] == LockedOut(0, 3.0)
    assert game_at(rules("--lockout", "0"), misplay).apply(Play(0, 0, 0, 1.0)) == [
        Rejected(0, Play(0, 0, 0, 1.0), RejectReason.NOT_ADJACENT)
    ]


def test_wins_is_the_match_length() -> None:
    r = rules("--wins", "1")
    assert r.wins == 1
    match = Match(r, random.Random(0))
    match.record(1)
    assert match.winner == 1
    assert rules("--deck", "jass", "--wins", "2").wins == 2


def test_seed_deals_the_same_cards() -> None:
    s = settings("--seed", "42")
    assert s.seed == 42
    first = deal(s.rules, s.seed)
    again = deal(settings("--seed", "42").rules, 42)
    assert first.state.players[0].draw_pile == again.state.players[0].draw_pile


# --------------------------------------------------------------------------- players, display


def test_players_and_names() -> None:
    s = settings("--p1", "bot:hard", "--p2", "human", "--names", " Ann , Bob ")
    assert s.players == ("bot:hard", "human")
    assert s.names == ("Ann", "Bob")
    assert settings("--p2", "BOT").players == ("human", "bot:normal")


def test_display_flags() -> None:
    s = settings("--ascii", "--four-colour")
    assert s.ascii and s.four_colour
    assert not settings("--no-ascii").ascii


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (
            ["--row", "30", "--deck", "skat"],
            "stress-tui: --row: 30 is too large for the skat deck dealt split: a player's 16 "
            "cards must fill the row and leave one to flip (--row at most 15)",
        ),
        (
            ["--deal", "each", "--row", "52"],
            "stress-tui: --row: 52 is too large for the standard deck dealt each: a player's "
            "52 cards must fill the row and leave one to flip (--row at most 51)",
        ),
        (["--row", "0"], "stress-tui: --row: must be at least 1, not 0"),
        (["--row", "three"], 'stress-tui: --row: "three" is not a whole number'),
        (["--row"], "stress-tui: --row: needs a value"),
        (["--jokers", "99"], "stress-tui: --jokers: must be between 0 and 16, not 99"),
        (["--jokers", "-1"], "stress-tui: --jokers: must be between 0 and 16, not -1"),
        (["--wins", "0"], "stress-tui: --wins: must be between 1 and 99, not 0"),
        (
            ["--lockout", "-1"],
            "stress-tui: --lockout: must be between 0 and 60 seconds, not -1.0",
        ),
        (["--lockout", "soon"], 'stress-tui: --lockout: "soon" is not a number of seconds'),
        (["--lockout", "inf"], 'stress-tui: --lockout: "inf" is not a number of seconds'),
        (
            ["--deck", "tarot"],
            'stress-tui: --deck: "tarot" is not a deck '
            "(choose from standard, jass, skat, doppelkopf, german)",
        ),
        (
            ["--deal", "thirds"],
            'stress-tui: --deal: "thirds" is not a deal (choose from split, each)',
        ),
        (
            ["--stress-penalty", "all"],
            'stress-tui: --stress-penalty: "all" is not a stress penalty '
            "(choose from both, one, give)",
        ),
        (
            ["--false-stress", "x"],
            'stress-tui: --false-stress: "x" is not a false-stress penalty '
            "(choose from take, ignore, lockout)",
        ),
        (["--names", "Ann"], "stress-tui: --names: give exactly two names, not 1"),
        (["--names", "A,B,C"], "stress-tui: --names: give exactly two names, not 3"),
        (["--names", "Ann, "], "stress-tui: --names: a name may not be empty"),
        (
            ["--names", "Bartholomew-Jones,Ann"],
            'stress-tui: --names: "Bartholomew-Jones" is longer than 16 characters',
        ),
        (
            ["--names", "Ann,ANN"],
            'stress-tui: --names: the two names must differ, not both "Ann"',
        ),
        (
            ["--names", "Ann\x1b[2J,Bob"],
            'stress-tui: --names: "Ann\\u001B[2J" has a character that cannot be shown',
        ),
        (
            ["--p1", "robot"],
            'stress-tui: --p1: "robot" is not a player '
            "(choose from human, bot:easy, bot:normal, bot:hard, bot:expert)",
        ),
        (
            ["--p2", "bot:godlike"],
            'stress-tui: --p2: "bot:godlike" is not a player '
            "(choose from human, bot:easy, bot:normal, bot:hard, bot:expert)",
        ),
        (
            ["--seed", "-5"],
            "stress-tui: --seed: must be a whole number from 0 to 18446744073709551615, not -5",
        ),
        (["--rwo", "3"], "stress-tui: --rwo: no such option (did you mean --row?)"),
        (["--wins=3", "--xyzzy"], "stress-tui: --xyzzy: no such option (try --help)"),
        (["--no-stacking=yes"], "stress-tui: --no-stacking: takes no value"),
        (
            ["plya"],
            "stress-tui: plya: no such command (the commands are play, sim, replay, stats,"
            " daily, learn, host, join, watch and serve; try --help)",
        ),
        (["--rules", "--print-config"], "stress-tui: --print-config: not allowed with --rules"),
        (["--keys", "/no/such/keys.toml"], "stress-tui: --keys: no such file: /no/such/keys.toml"),
        (["sim", "--games", "0"], "stress-tui: --games: must be at least 1, not 0"),
        (["sim", "--jobs", "0"], "stress-tui: --jobs: must be at least 1, not 0"),
        (["sim", "--jobs", "two"], 'stress-tui: --jobs: "two" is not a whole number'),
        (
            ["sim", "--p1", "human"],
            "stress-tui: --p1: the simulator plays bots only "
            "(choose from bot:easy, bot:normal, bot:hard, bot:expert)",
        ),
        (["sim", "--wnis", "3"], "stress-tui: --wnis: no such option (did you mean --wins?)"),
        (["--rules", "sim"], "stress-tui: --rules: not with the sim command"),
        (
            ["serve", "--forget-after", "-1"],
            "stress-tui: --forget-after: must be 0 or more (0: kept for ever), not -1",
        ),
        (
            ["serve", "--forget-after", "soon"],
            'stress-tui: --forget-after: "soon" is not a whole number',
        ),
    ],
)
def test_a_bad_command_line_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    assert fails(capsys, *argv) == line


def test_a_bad_flag_from_a_real_process_is_one_line_and_status_2(no_config: Path) -> None:
    env = {**os.environ, "STRESS_TUI_CONFIG": str(no_config)}
    done = subprocess.run(
        [sys.executable, "-m", "stress_tui", "--row", "99"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "stress-tui: --row: 99 is too large for the standard deck dealt split: a player's 26 "
        "cards must fill the row and leave one to flip (--row at most 25)"
    ]


def test_without_a_terminal_the_game_does_not_start(no_config: Path) -> None:
    env = {**os.environ, "STRESS_TUI_CONFIG": str(no_config)}
    done = subprocess.run(
        [sys.executable, "-m", "stress_tui", "--seed", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "stress-tui: not a terminal (stdin and stdout must be a terminal to play; try --help)\n"
    )


def test_not_a_terminal_is_checked_after_the_flags(capsys: pytest.CaptureFixture[str]) -> None:
    # Under pytest stdin is not a terminal: a bad flag is still what is reported.
    assert fails(capsys, "--wins", "0") == "stress-tui: --wins: must be between 1 and 99, not 0"
    assert fails(capsys).startswith("stress-tui: not a terminal")


# --------------------------------------------------------------------------- information


def test_rules_prints_the_rules_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rules", "--deck", "skat", "--no-wrap", "--wins", "2"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    r = Rules.for_deck("skat", wrap=False, wins=2)
    assert out.splitlines() == plain_words(r)
    assert "A skat deck: 32 cards, 7 up to ace, no jokers.\n" in out
    assert "a row of 3 cards" in out
    assert "The ranks do not go round: only a king goes on the ace, only an 8 on the 7.\n" in out
    assert "2 round wins take the match.\n" in out


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(capsys: pytest.CaptureFixture[str], flag: str) -> None:
    assert main([flag]) == 0
    assert capsys.readouterr().out == f"stress-tui {__version__}\n"
    assert main(["--lang", "de", flag]) == 0
    assert capsys.readouterr().out == f"stress-tui {__version__}\n"


def test_the_program_leaves_what_it_made_to_its_exit_without_another_walk() -> None:
    """Run as the program (as the ``stress-tui`` script runs it), ``main`` leaves every
    object frozen for the interpreter's exit, whose collections then walk none of them:
    once, the better part of what a Ctrl-C cost (``bench/input_bounds.py``). Called with
    its arguments (in-process, as here), it leaves the collector as it was."""
    code = (
        "import gc, sys; from stress_tui.cli.main import main; main(['--version']); "
        "print(gc.get_freeze_count()); sys.argv[1:] = ['--version']; main(); "
        "print(gc.get_freeze_count() > 1000)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines()[1::2] == ["0", "True"]


@pytest.mark.parametrize("argv", [[], ["--p2", "bot"], ["daily"], ["host"]])
def test_without_a_unix_terminal_the_game_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    no_config: Path,
    argv: list[str],
) -> None:
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(no_config.parent / "data"))
    monkeypatch.setitem(sys.modules, "termios", None)  # as on Windows outside WSL
    assert main(["--lang", "en", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("stress-tui: needs a Unix terminal: Linux, macOS or a BSD"), err
    assert "(on Windows, WSL works)" in err
    assert err.count("\n") == 1
    assert main(["--lang", "en", "--rules"]) == 0  # what needs no terminal still works


def test_help_is_grouped_and_shows_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for group in ("deck:", "house rules:", "players:", "display:"):
        assert group in out
    assert "default: the deck's: 3 for skat, 4 for the others" in out
    assert "default: the deck's: 5 for jass, 3 for the others" in out
    assert "ignore for jass" not in out, "Jass reads 001's Strafen as every deck does"
    assert "default: the deck's: on for jass, off for the others" in out
    parser = build_parser()
    for action in parser._actions:
        if action.option_strings and action.dest not in ("help", "version", "command"):
            if action.dest in ("rules", "print_config", "print_completion"):
                continue
            assert "default:" in (action.help or ""), action.dest


def test_print_config_prints_toml_the_config_reads_back(
    capsys: pytest.CaptureFixture[str], no_config: Path
) -> None:
    argv = ["--deck", "jass", "--row", "3", "--no-wrap", "--names", "Ann,Bob", "--p2", "bot"]
    assert main(["--print-config", *argv]) == 0
    out = capsys.readouterr().out
    no_config.write_text(out, encoding="utf-8")
    assert settings() == settings(*argv)


# --------------------------------------------------------------------------- wiring


def test_the_game_gets_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Settings] = []
    app = types.ModuleType("stress_tui.terminal.app")

    def run(s: Settings, offer: bool = False) -> int:
        seen.append(s)
        return 7

    app.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stress_tui.terminal.app", app)
    monkeypatch.setattr("stress_tui.cli.tty.is_terminal", lambda: True)
    assert main(["--deck", "skat", "--seed", "3"]) == 7
    assert seen == [settings("--deck", "skat", "--seed", "3")]


def test_sim_gets_the_rules_players_and_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Settings, int, bool, int | None]] = []
    sim = types.ModuleType("stress_tui.players.sim")

    def run_cli(s: Settings, games: int, as_json: bool, jobs: int | None, _: object) -> int:
        calls.append((s, games, as_json, jobs))
        return 0

    sim.run_cli = run_cli  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "stress_tui.players.sim", sim)
    assert (
        main(
            ["sim", "--games", "12", "--json", "--deck", "jass", "--p1", "bot:hard", "--seed", "9"]
        )
        == 0
    )
    assert main(["--row", "3", "sim", "--no-wrap", "--jobs", "3"]) == 0
    (first, games, as_json, jobs), (second, games2, as_json2, jobs2) = calls
    assert (games, as_json, games2, as_json2) == (12, True, 100, False)
    assert (jobs, jobs2) == (None, 3), "None: one process per core"
    assert first.rules == Rules.for_deck("jass")
    assert first.players == ("bot:hard", "bot:normal") and first.seed == 9
    assert second.rules == Rules.for_deck("standard", row_size=3, wrap=False)
    assert second.players == ("bot:normal", "bot:normal")


def test_rule_text_fits_the_table() -> None:
    assert short_line(rules()) == "standard, row 4, to 3 wins"
    crowded = rules(
        "--deck",
        "doppelkopf",
        "--jokers",
        "16",
        "--deal",
        "each",
        "--row",
        "15",
        "--no-stacking",
        "--no-wrap",
        "--stress-penalty",
        "give",
        "--false-stress",
        "lockout",
        "--stress-stop",
        "--lockout",
        "12.25",
        "--wins",
        "99",
    )
    assert len(short_line(crowded)) <= 60
    assert short_line(crowded).startswith("doppelkopf+16J, each, row 15")
    assert len(short_line(crowded, width=30)) <= 30
