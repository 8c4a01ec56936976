"""The build's own steps, as hatchling's custom hooks (``pyproject.toml`` names them):

- the translations: every ``.po`` catalogue compiled to the ``.mo`` file gettext reads,
  beside it, whenever a wheel is built (an editable install too: ``pip install -e .``), so
  that the game reads a compiled catalogue and never compiles one itself. The ``.mo``
  files are made, never kept in git (``.gitignore``); a wheel carries them, the sdist does
  not (it carries the ``.po`` files and this hook).
- the manual page, ``docs/stress-tui.1``, made from the argument parser by
  ``scripts/manpage`` at every build, so that it never says other than ``--help``: the
  sdist carries it, the wheel installs it as ``share/man/man1/stress-tui.1``. It is made,
  never kept in git.
- the documents (``docs/*.md``) in the wheel as ``stress_tui/docs/``, where ``--help``
  says they are (``cli.parser.docs_folder``; an editable install reads the tree's).
- the package's long description: README.md without its screenshots (see
  ``long_description``).

Babel compiles the catalogues (``babel.messages``: the standard library reads ``.mo``
files but has no compiler); it is a build requirement and a test tool, never one of the
game's. The tests compile again any catalogue edited since (``tests/conftest.py``), so
that they never read a ``.mo`` older than its ``.po``.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
    from hatchling.metadata.plugin.interface import MetadataHookInterface
except ImportError:  # not a build: the tests compile the catalogues with this module too
    BuildHookInterface = MetadataHookInterface = object  # type: ignore[assignment,misc]

LOCALE = Path("stress_tui", "terminal", "locale")
"""Where the catalogues are: ``LANG/LC_MESSAGES/stress_tui.po``."""

MANPAGE = Path("docs", "stress-tui.1")
"""Where ``scripts/manpage`` writes the manual page."""

SCREENSHOTS = re.compile(r"\n## What it looks like\n.*?(?=\n## )", re.S)
"""README's section of pictures."""

INSTEAD = """
## What it looks like

Screenshots of the table on a dark and a white terminal, of stress and of the result
screen are in the source distribution, `docs/screenshots/`, and in README.md where the
repository is published.
"""


def compile_catalogues(root: Path) -> list[Path]:
    """Compile every catalogue under ``root`` to its ``.mo`` file (rewritten only when its
    bytes change, else only touched); the ``.mo`` files, relative to ``root``."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    made = []
    for po in sorted((root / LOCALE).glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as file:
            catalog = read_po(file, locale=po.parent.parent.name)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)  # untranslated and fuzzy entries left out: English stands
        mo = po.with_suffix(".mo")
        if not mo.is_file() or mo.read_bytes() != buffer.getvalue():
            part = mo.with_suffix(".mo.part")
            part.write_bytes(buffer.getvalue())
            os.replace(part, mo)
        else:
            mo.touch()  # newer than its .po: nothing to compile next time
        made.append(mo.relative_to(root))
    return made


def make_manpage(root: Path) -> Path:
    """Make the manual page from the parser of the tree at ``root`` (``scripts/manpage``,
    run by this Python: the parser needs nothing but the standard library); its path,
    relative to ``root``."""
    subprocess.run(
        [sys.executable, str(root / "scripts" / "manpage"), "--out", str(root / MANPAGE)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return MANPAGE


def stale_catalogues(root: Path) -> list[Path]:
    """The catalogues under ``root`` whose ``.mo`` file is missing or older than the
    ``.po`` file."""
    return [
        po
        for po in sorted((root / LOCALE).glob("*/LC_MESSAGES/*.po"))
        if not po.with_suffix(".mo").is_file()
        or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
    ]


def long_description(readme: str) -> str:
    """README.md as a package index shows it: its pictures are relative paths into the
    repository, which no index can show, so their section says where they are instead."""
    return SCREENSHOTS.sub(INSTEAD, readme, count=1)


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Makes the manual page for the sdist and the wheel, and compiles the catalogues for
    every wheel, editable or not."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        page = make_manpage(root)
        if self.target_name == "sdist":  # git-ignored, so named here to go in
            build_data["force_include"][str(root / page)] = page.as_posix()
            return
        if self.target_name != "wheel":
            return
        made = compile_catalogues(root)
        build_data["shared_data"][str(root / page)] = "share/man/man1/stress-tui.1"
        if version == "editable":  # an editable install reads the rest where it is
            return
        for mo in made:  # git-ignored, so named here to go into the wheel
            build_data["force_include"][str(root / mo)] = mo.as_posix()
        for doc in sorted((root / "docs").glob("*.md")):  # what the help names
            build_data["force_include"][str(doc)] = f"stress_tui/docs/{doc.name}"


class CustomMetadataHook(MetadataHookInterface):
    """The long description (``readme``, dynamic in ``pyproject.toml``)."""

    def update(self, metadata: dict[str, Any]) -> None:
        readme = Path(self.root, "README.md").read_text(encoding="utf-8")
        metadata["readme"] = {
            "content-type": "text/markdown",
            "text": long_description(readme),
        }
