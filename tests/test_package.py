"""The package as a user or a packager gets it: the wheel and the sdist that
``python -m build`` makes (the license, the compiled translations, the manual page, the
documents, the metadata a package index shows), the shell completions and the manual page
made from the one argument parser, and a changelog whose version is the program's."""

from __future__ import annotations

import email
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from stress_tui import __version__
from stress_tui.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = ("sv", "de")


def test_the_changelog_s_newest_version_is_the_program_s() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\d+\.\d+\.\d+)", text, re.M)
    assert versions[0] == __version__, "CHANGELOG.md's newest section and __version__ differ"
    assert len(set(versions)) == len(versions)


def test_the_manual_page_is_made_from_the_parser_and_troff_reads_it() -> None:
    """``scripts/manpage`` (which every build runs) makes the page from the parser, with
    the standard library alone: every command is in it, and troff reads it without a
    warning."""
    made = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "manpage"), "--out", "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert made.startswith('.\\" Made by scripts/manpage')
    for flag in ("\\-\\-deck", "\\-\\-print\\-completion", "\\-V, \\-\\-version"):
        assert flag in made
    for name in ("sim", "replay", "stats", "daily", "host", "join", "watch"):
        assert f".SS {name}\n" in made
    if shutil.which("groff"):  # and troff reads it without a warning
        checked = subprocess.run(
            ["groff", "-man", "-Tutf8", "-ww", "-z"],
            input=made,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert checked.stderr == "", checked.stderr


def completion(shell: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["--print-completion", shell]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def bash_completes(script: Path, *words: str) -> list[str]:
    """What bash offers for the last of ``words``, the completion script sourced (as
    ``stress-tui <Tab>`` would offer it)."""
    line = " ".join(words)
    done = subprocess.run(
        [
            "bash",
            "--norc",
            "--noprofile",
            "-c",
            'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); '
            'COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; '
            "$(complete -p stress-tui | sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p') "
            'stress-tui "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; '
            'printf "%s\\n" "${COMPREPLY[@]}"',
            "bash",
            str(script),
            *words,
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, (line, done.stderr)
    return sorted(filter(None, done.stdout.splitlines()))


def test_the_bash_completion_completes_flags_their_values_and_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("bash") is None:
        pytest.skip("no bash")
    script = tmp_path / "stress-tui"
    script.write_text(completion("bash", capsys), encoding="utf-8")
    assert bash_completes(script, "stress-tui", "--de") == ["--deal", "--deck"]
    assert bash_completes(script, "stress-tui", "--dec") == ["--deck"]
    assert bash_completes(script, "stress-tui", "--deck", "s") == ["skat", "standard"]
    assert bash_completes(script, "stress-tui", "re") == ["replay"]
    assert bash_completes(script, "stress-tui", "replay", "--ve") == ["--verify"]
    assert "--print-completion" in bash_completes(script, "stress-tui", "--pr")


@pytest.mark.parametrize("shell", ["zsh", "tcsh"])
def test_zsh_and_tcsh_have_a_completion_script_too(
    shell: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = completion(shell, capsys)
    assert "stress-tui" in script
    for word in ("--deck", "--theme", "replay", "doppelkopf", "high-contrast"):
        assert word in script, word
    if shutil.which(shell):  # and the shell reads it
        checked = subprocess.run([shell, "-n"], input=script, text=True, capture_output=True)
        assert checked.returncode == 0, checked.stderr


def test_an_unknown_shell_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--print-completion", "fish"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "stress-tui: --print-completion: fish is not one of bash, zsh, tcsh\n"


@pytest.mark.one_python  # a pure-Python wheel: one build says it
def test_the_wheel_and_the_sdist_hold_what_a_user_and_a_packager_need(tmp_path: Path) -> None:
    """``python -m build`` makes the sdist from the tree, then the wheel from the sdist (so
    the sdist is complete enough to build from); each holds the license, the wheel the
    compiled catalogues, the documents and the manual page, the sdist the catalogues'
    sources, the manual page and the build's own hook; the metadata says what a package
    index shows."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    name = f"stress_tui-{__version__}"
    info = f"{name}.dist-info"
    with zipfile.ZipFile(tmp_path / f"{name}-py3-none-any.whl") as wheel:
        files = set(wheel.namelist())
        license_text = wheel.read(f"{info}/licenses/LICENSE").decode()
        metadata = email.message_from_bytes(wheel.read(f"{info}/METADATA"))
    assert "MIT License" in license_text
    for code in CATALOGUES:
        assert f"stress_tui/terminal/locale/{code}/LC_MESSAGES/stress_tui.mo" in files
    assert f"{name}.data/data/share/man/man1/stress-tui.1" in files
    for doc in ("keys.md", "network.md", "rules.md", "cli.md"):
        assert f"stress_tui/docs/{doc}" in files
    assert "stress_tui/py.typed" in files
    assert not any(path.startswith(("tests/", "bench/", "scripts/")) for path in files)

    assert metadata["Name"] == "stress-tui"
    assert metadata["Version"] == __version__
    assert metadata["License-Expression"] == "MIT"
    assert metadata["License-File"] == "LICENSE"
    assert metadata["Requires-Python"] == ">=3.10"
    assert metadata["Author"]
    assert "stress" in metadata["Keywords"].split(",")
    classifiers = metadata.get_all("Classifier") or []
    for classifier in (
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.13",
        "Environment :: Console",
        "Topic :: Games/Entertainment",
        "Operating System :: POSIX :: Linux",
    ):
        assert classifier in classifiers
    assert any(dist.startswith("shtab") for dist in metadata.get_all("Requires-Dist") or [])
    description = str(metadata.get_payload())
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert description.startswith("# stress-tui\n")
    assert "](docs/" not in description  # no picture an index cannot show
    assert "`docs/screenshots/`" in description

    with tarfile.open(tmp_path / f"{name}.tar.gz") as sdist:
        held = {member.name.removeprefix(f"{name}/") for member in sdist.getmembers()}
    for path in (
        "LICENSE",
        "CHANGELOG.md",
        "README.md",
        "pyproject.toml",
        "hatch_build.py",
        "test-constraints.txt",
        "docs/stress-tui.1",
        "scripts/manpage",
        "PKG-INFO",
        *(f"stress_tui/terminal/locale/{code}/LC_MESSAGES/stress_tui.po" for code in CATALOGUES),
    ):
        assert path in held, path
    assert not any(path.endswith(".mo") or path.startswith(".venv") for path in held)


@pytest.mark.parametrize("command", [[], ["host"], ["stats"]])
def test_the_help_says_where_the_documents_it_names_are(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """In a wheel they are in the package (``stress_tui/docs``, above), here the tree's."""
    assert main([*command, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    found = re.search(r"are installed with the game: (\S+)$", out)
    assert found, out[-300:]
    for name in ("keys.md", "network.md", "ratings.md", "notation.md"):
        assert (Path(found.group(1)) / name).is_file(), name
