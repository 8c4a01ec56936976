"""What the help says to a player: ``stress-tui --help`` every command, each with what it
does, and the flags every command has; ``stress-tui play --help`` the game's flags, the
house rules among them; each command's ``--help`` its own, with the house rules where they
are chosen (the game, ``sim``, ``host``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from stress_tui.cli.commands import COMMANDS
from stress_tui.cli.main import main
from stress_tui.core.houserules import HOUSE_RULES
from stress_tui.terminal import lang


@pytest.fixture
def english() -> Iterator[None]:
    """The help in English; the language as the environment says after the test."""
    lang.choose("en")
    yield
    lang.choose(None)


def said(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What ``stress-tui ARGV`` prints, its lines joined (as a player reads a wrapped help),
    having left with status 0."""
    assert main(list(argv)) == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_the_program_s_help_lists_every_command_with_what_it_does(
    flag: str, capsys: pytest.CaptureFixture[str], english: None
) -> None:
    out = said(capsys, flag)
    assert "play the game, at one keyboard or against the computer" in out
    assert "sim play bots against each other without a screen and print statistics" in out
    assert "replay watch, check or list recorded rounds" in out
    assert "join take the other seat at a table on the network" in out
    for name, (usage, _about) in COMMANDS.items():
        assert f"stress-tui {name} {usage}" in out, name
    assert "'stress-tui play --help'" in out and "'stress-tui COMMAND --help'" in out
    for every in ("-h, --help", "-V, --version", "--print-completion", "--lang LANG"):
        assert every in out


def test_the_program_s_help_says_its_commands_in_the_language(
    capsys: pytest.CaptureFixture[str], english: None
) -> None:
    out = said(capsys, "--lang", "de", "--help")
    assert "Befehle:" in out
    assert "sim Computer gegeneinander spielen lassen, ohne Bildschirm" in out
    assert "'stress-tui play --help'" in out
    assert "commands:" not in out and "watch a match" not in out


@pytest.mark.parametrize("code", ["en", "sv", "de"])
def test_every_usage_line_fits_a_terminal_of_80_columns(
    code: str,
    capsys: pytest.CaptureFixture[str],
    english: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The usage lines of the program's help and of each command's, in each language, fit
    80 columns: none goes on on the next line in the middle of a word ("[--data-di",
    "r DIR]")."""
    monkeypatch.setenv("LANGUAGE", code)  # (serve takes no --lang: its sessions have theirs)
    for command in ([], ["play"], *([name] for name in COMMANDS)):
        assert main([*command, "--help"]) == 0
        usage = capsys.readouterr().out.split("\n\n")[0]
        for line in usage.splitlines():
            assert len(line) <= 80, line


@pytest.mark.parametrize("command", ["play", "sim", "host"])
def test_where_house_rules_are_chosen_the_help_lists_every_one(
    command: str, capsys: pytest.CaptureFixture[str], english: None
) -> None:
    out = said(capsys, command, "--help")
    assert "house rules:" in out
    for rule in HOUSE_RULES:
        assert rule.flag in out, rule.name
    assert "--row N piles in each player's row" in out
    assert "default: the deck's: 3 for skat, 4 for the others" in out


def test_the_game_s_help_lists_its_players_display_and_information(
    capsys: pytest.CaptureFixture[str], english: None
) -> None:
    out = said(capsys, "play", "--help")
    for group in ("deck:", "players:", "display:", "information:"):
        assert group in out
    for flag in ("--seed N[/R]", "--p2 KIND", "--keyboard", "--theme", "--rules", "--version"):
        assert flag in out


@pytest.mark.parametrize("name", list(COMMANDS))
def test_each_command_s_help_gives_its_usage_and_what_it_does(
    name: str, capsys: pytest.CaptureFixture[str], english: None
) -> None:
    out = said(capsys, name, "--help")
    assert out.startswith(f"usage: stress-tui {name}")
    assert "-h, --help show this help and exit" in out


def test_play_names_the_game_the_program_plays_without_a_command(
    capsys: pytest.CaptureFixture[str], english: None
) -> None:
    assert said(capsys, "play", "--deck", "jass", "--rules") == said(
        capsys, "--deck", "jass", "--rules"
    )


def test_a_command_after_a_flag_is_said_to_come_first_not_to_be_none(
    capsys: pytest.CaptureFixture[str], english: None
) -> None:
    """``stress-tui --theme dark play`` is refused saying where ``play`` goes, where it said
    "play: no such command (the commands are play, ...)"."""
    assert main(["--theme", "dark", "play"]) == 2
    err = capsys.readouterr().err
    assert err == "stress-tui: play: the command comes first, before any flag, or not at all\n"


def test_a_command_after_play_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], english: None
) -> None:
    assert main(["play", "--deck", "jass", "sim"]) == 2
    assert capsys.readouterr().err == "stress-tui: sim: a command of its own, not after play\n"
