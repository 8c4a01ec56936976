"""The argument parser: the program's, with only the parser of the command asked for,
and argparse's complaints said as one line (``--flag: problem``) in the player's language.

Only the flags of the command asked for are made: the others' would cost time (their
help texts, and what they are made from). The program's own ``--help`` is its overview:
the commands, each in a line, and the flags every command has; the game's flags (the
house rules...) are ``stress-tui play --help``'s, each command's its own ``--help``'s. Each
loads only what its text is made from (``tests/test_startup.py``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from stress_tui.cli.commands import COMMANDS, PLAY, PLAY_ABOUT, command
from stress_tui.cli.errors import CONFIG_VAR, PROG, UsageError, _


class Answered(Exception):
    """``--help`` or ``--version`` has been answered: leave with this status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class Parser(argparse.ArgumentParser):
    """An argument parser that reports a bad command line as one ``UsageError`` line and
    never exits the process itself."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(_one_line(self, message))

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise Answered(status)

    def format_help(self) -> str:
        # argparse's own words, in the player's language too.
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        return super().format_help().replace("usage: ", _("usage: "), 1)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # As argparse's own, with the width found without shutil (which loads bz2, lzma
        # and more).
        formatter: Callable[..., argparse.HelpFormatter] = self.formatter_class
        return formatter(prog=self.prog, width=_help_width())


class ProgramParser(Parser):
    """The program's own parser, whose help ends saying where the settings come from and
    where the documents are: written when the help is, which a game never asks for."""

    def format_help(self) -> str:
        self.epilog = _epilog()
        return super().format_help()


def _help_width() -> int:
    """The help's width, as argparse finds it: ``$COLUMNS``, else the terminal's, else
    80; less 2."""
    try:
        return int(os.environ["COLUMNS"]) - 2
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns - 2  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80 - 2


def _one_line(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's complaint, said as ``--flag: problem``."""
    message = " ".join(message.split())
    from stress_tui.core.text import harmless
    from stress_tui.core.words import listed

    found = re.match(r"argument (\S+?): (.*)", message)
    if found:
        name, problem = found.group(1).split("/")[0], found.group(2)
        if name == "COMMAND":
            bad = re.search(r"invalid choice: '?([^' ]*)'?", problem)
            what = harmless(bad.group(1)) if bad else _("that")
            if what == PLAY:  # after a flag of the game's: the command, in the wrong place
                return _("{play}: the command comes first, before any flag, or not at all").format(
                    play=PLAY
                )
            return _("{what}: no such command (the commands are {commands}; try --help)").format(
                what=what, commands=listed([PLAY, *COMMANDS], _)
            )
        return f"{name}: {_argparse_problem(problem)}"
    found = re.match(r"the following arguments are required: (.*)", message)
    if found:
        return _("the following arguments are required: {names}").format(
            names=harmless(found.group(1))
        )
    found = re.match(r"unrecognized arguments: (\S+)", message)
    if found:
        word = harmless(found.group(1))
        if word.startswith("-"):
            import difflib

            flag = word.split("=")[0]
            options = [s for a in parser._actions for s in a.option_strings]
            close = difflib.get_close_matches(flag, options, n=1)
            hint = _("did you mean {flag}?").format(flag=close[0]) if close else _("try --help")
            return _("{flag}: no such option ({hint})").format(flag=flag, hint=hint)
        return _("{word}: unexpected argument (try --help)").format(word=word)
    return message


def _argparse_problem(problem: str) -> str:
    """argparse's complaint about one argument (after ``argument --flag:``) in the player's
    language: argparse says it in English (its texts go through gettext's default domain,
    which the game leaves alone), so its few fixed phrases are said again here; the
    program's own complaints (a value's ``BadValue``) come through as they are."""
    from stress_tui.core.text import harmless

    if problem == "expected one argument":
        return _("needs a value")
    if problem == "expected at least one argument":
        return _("needs at least one value")
    found = re.fullmatch(r"not allowed with argument (\S+?)(?:/\S+)?", problem)
    if found:
        return _("not allowed with {flag}").format(flag=found.group(1))
    if re.fullmatch(r"ignored explicit argument .*", problem):
        return _("takes no value")
    found = re.fullmatch(r"invalid choice: '?(.*?)'? \(choose from (.*)\)", problem)
    if found:
        return _("{value} is not one of {choices}").format(
            value=harmless(found.group(1)), choices=found.group(2).replace("'", "")
        )
    return problem


def _epilog() -> str:
    # Where the config file is, said without looking for it (that takes platformdirs,
    # and with it pathlib, tempfile, shutil, bz2, lzma, urllib...): --print-config says.
    text = _(
        "Settings not given as flags come from the config file, then from the deck's "
        "defaults. The config file is config.toml in the folder for stress-tui among your "
        "settings (~/.config/stress-tui on Linux; the environment variable {variable} "
        "names another); --print-config prints one, with where to save it. "
        "'stress-tui sim' plays "
        "bots against each other without a screen: see 'stress-tui sim --help'. Every "
        "round is recorded: 'stress-tui replay --list' lists them, 'stress-tui replay "
        "FILE' shows one again, 'stress-tui stats' prints the record of wins and best "
        "times."
    ).format(variable=CONFIG_VAR)
    return _fill(f"{text} {_docs_line()}")


def _fill(text: str) -> str:
    return textwrap.fill(text, width=78, break_on_hyphens=False, break_long_words=False)


def _docs_line() -> str:
    return _(
        "The documents this help names (docs/keys.md, docs/network.md...) are installed "
        "with the game: {folder}"
    ).format(folder=docs_folder())


def docs_folder() -> str:
    """Where the documents the help names are: in the package, where a wheel installs
    them (``hatch_build.py``), else the source tree's ``docs/`` (an editable install)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    installed = os.path.join(package, "docs")
    return installed if os.path.isdir(installed) else os.path.join(os.path.dirname(package), "docs")


def build_parser() -> argparse.ArgumentParser:
    """The ``stress-tui`` argument parser (with every command)."""
    return build()[0]


def build(
    argv: Sequence[str] | None = None,
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The program's parser and its commands' parsers, by name: with ``argv``, only the
    parser of the command it names (if any), or, if it asks for the program's help alone
    (``overview``), the overview's."""
    if argv is not None and asks_for_overview(argv):
        return overview(), {}
    parser = _program(_("The card game Stress, in real time, in the terminal."))
    command(PLAY).declare(parser)
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", help=argparse.SUPPRESS, parser_class=Parser, prog=PROG
    )
    wanted = list(COMMANDS) if argv is None else _named(parser, argv)
    made = {name: command(name).declare(commands) for name in wanted}
    return parser, made


def _named(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[str]:
    """The command ``argv`` names, if any (none after ``play``: ``UsageError``)."""
    name = _command(parser, played(argv))
    if name is None:
        return []
    if played(argv) != argv:
        raise UsageError(_("{command}: a command of its own, not after play").format(command=name))
    return [name]


def _program(description: str) -> ProgramParser:
    """The program's parser, without a flag yet: its usage lists every command's."""
    lines = [
        f"{PROG} [{PLAY}] [OPTION...]",
        *(f"{PROG} {name} {line}" for name, (line, _about) in COMMANDS.items()),
    ]
    return ProgramParser(
        prog=PROG,
        usage=f"\n{' ' * 7}".join(lines),
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
        add_help=False,
    )


def asks_for_overview(argv: Sequence[str]) -> bool:
    """Whether ``argv`` asks for the program's help and nothing more (``--help`` or
    ``-h``, in a language ``--lang`` may name): no command, no game flag."""
    words = [word for word in argv if not word.startswith("--lang=")]
    if "--lang" in words[:-1]:
        at = words.index("--lang")
        words = words[:at] + words[at + 2 :]
    return bool(words) and set(words) <= {"--help", "-h"}


def overview() -> argparse.ArgumentParser:
    """The program's own help (``stress-tui --help``): every command with what it does in
    a line, and the flags every command has; not the game's flags, which are ``stress-tui
    play --help``'s (the house rules among them: that help loads their table)."""
    abouts = {PLAY: PLAY_ABOUT, **{name: about for name, (_line, about) in COMMANDS.items()}}
    listing = "\n".join(
        textwrap.fill(
            f"{name:8s} {_(about)}",
            width=78,
            initial_indent="  ",
            subsequent_indent=" " * 11,
            break_on_hyphens=False,
        )
        for name, about in abouts.items()
    )
    description = "\n\n".join(
        [
            _("The card game Stress, in real time, in the terminal."),
            _("commands:") + "\n" + listing,
            _fill(
                _(
                    "Each command's flags: 'stress-tui COMMAND --help'; the game's (the deck, "
                    "the house rules, the players, the display): 'stress-tui play --help'."
                )
            ),
        ]
    )
    parser = _program(description)
    info = parser.add_argument_group(_("information"))
    add_information_flags(info)
    from stress_tui.cli.flags import add_lang_flag

    add_lang_flag(info, top=True)
    return parser


def played(argv: Sequence[str]) -> Sequence[str]:
    """``argv`` without the word ``play`` that may open it (``stress-tui play --deck jass``
    is ``stress-tui --deck jass``)."""
    return argv[1:] if argv[:1] == [PLAY] else argv


def add_information_flags(info: argparse._ArgumentGroup) -> None:
    """``--help``, ``--version`` and ``--print-completion``, which every command has."""
    from stress_tui.cli.main import VERSION

    add_help_flag(info)
    info.add_argument(
        "-V",
        "--version",
        action="version",
        version=VERSION,
        help=_("show the version and exit"),
    )
    info.add_argument(
        "--print-completion",
        action=PrintCompletion,
        choices=SHELLS,
        metavar="{" + ",".join(SHELLS) + "}",
        help=_(
            "print a script that completes the flags and commands in that shell, and exit "
            "(its first lines say where it goes)"
        ),
    )


SHELLS = ("bash", "zsh", "tcsh")
"""The shells ``--print-completion`` writes a script for (shtab's)."""


class PrintCompletion(argparse.Action):
    """``--print-completion SHELL``: print the shell's completion script and exit."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: Any, values: Any, option: Any = None
    ) -> None:
        sys.stdout.write(completion(str(values)))
        parser.exit(0)


def completion(shell: str) -> str:
    """A script that completes the program's flags, their values where they are a set
    (``--deck``, ``--theme``...), its commands and theirs, and file names where a file
    goes, in ``shell``: made by shtab from the parser itself, with every command's."""
    import shtab

    parser, commands = build()
    file_args = ("keys", "file")
    for each in (parser, *commands.values()):
        for action in each._actions:
            if isinstance(action, argparse._SubParsersAction):
                action.help = None  # shtab lists the commands of a subparsers action it sees
            elif action.choices is None and re.fullmatch(r"\{[^{}]+\}", str(action.metavar)):
                action.choices = str(action.metavar)[1:-1].split(",")
            elif action.dest in file_args:
                action.complete = shtab.FILE  # type: ignore[attr-defined]
    script: str = shtab.complete(parser, shell=shell)
    return script


def _command(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not a flag of ``parser`` or a
    flag's value, if that is a command."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "--":
            return None
        elif word.startswith("-") and not re.fullmatch(r"-\d+(\.\d*)?|-\.\d+", word):
            action = parser._option_string_actions.get(word.split("=", 1)[0])
            skip = action is not None and action.nargs is None and "=" not in word
        else:
            return word if word in COMMANDS else None
    return None


def add_command(commands: Any, name: str, **texts: str) -> argparse.ArgumentParser:
    """A command's parser (its ``usage`` and ``description`` in ``texts``): a flag
    not given leaves nothing in the namespace, so that the config file's value shows
    through, and no flag is taken for an abbreviation of another; its help ends saying
    where the documents are."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=_(COMMANDS[name][1]),
        argument_default=argparse.SUPPRESS,
        allow_abbrev=False,
        add_help=False,
        epilog=_fill(_docs_line()),
        **texts,
    )
    add_help_flag(parser)
    return parser


def add_help_flag(parser: argparse._ActionsContainer) -> None:
    """``-h``/``--help``, said in the player's language (argparse's own says "show this
    help message and exit" in English)."""
    parser.add_argument("-h", "--help", action="help", help=_("show this help and exit"))


def check_options(
    parser: argparse.ArgumentParser,
    commands: dict[str, argparse.ArgumentParser],
    argv: Sequence[str],
) -> None:
    """Refuse an unknown option before argparse takes its value for a command name."""
    current = parser
    skip = False
    for word in argv:
        if skip:
            skip = False
            continue
        if word == "--":
            return
        if word.startswith("-") and not re.fullmatch(r"-\d+(\.\d*)?|-\.\d+", word):
            flag = word.split("=", 1)[0]
            action = current._option_string_actions.get(flag)
            if action is None:
                current.error(f"unrecognized arguments: {flag}")
            if action.nargs == 0 and "=" in word:
                raise UsageError(_("{flag}: takes no value").format(flag=flag))
            skip = action.nargs is None and "=" not in word
        elif current is parser and word in commands:
            current = commands[word]


def _lang_flag(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (its last), looked for before the flags are made,
    since their help is written in the language chosen."""
    found = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif word.startswith("--lang="):
            found = word.split("=", 1)[1]
    return found


def speak(argv: Sequence[str]) -> bool:
    """Speak the language ``--lang`` names (``UsageError`` if the game does not speak
    it); whether it named one."""
    code = _lang_flag(argv)
    if code is None:
        return False
    from stress_tui.terminal.lang import BadLanguage, choose

    try:
        choose(code)
    except BadLanguage as error:
        raise UsageError(f"--lang: {error}") from None
    return True
