"""Sizes: no module in ``stress_tui/`` over 600 lines and no class over 300 (issue 25's
goal), so that each part stays one job a reader can hold: a module or class that
outgrows its line is split where a part has its own state and job.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "stress_tui"

MODULE_LINES = 600
"""The most lines a module may have."""

CLASS_LINES = 300
"""The most lines a class may have (``class`` to its last line)."""

pytestmark = pytest.mark.one_python
"""A reading of the package's source files (``ast``), the same whichever Python reads them."""


def sizes(root: Path = PACKAGE) -> dict[str, int]:
    """Every module under ``root`` (its lines) and every class in them, at any depth (its
    lines, ``class`` to its last), keyed by the module's path, a class as ``path:Name``."""
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root.parent).as_posix()
        text = path.read_text(encoding="utf-8")
        found[name] = len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                found[f"{name}:{node.name}"] = node.end_lineno - node.lineno + 1
    return found


def over(found: dict[str, int]) -> dict[str, int]:
    """The modules and classes over their line."""
    return {
        name: size
        for name, size in found.items()
        if size > (CLASS_LINES if ":" in name else MODULE_LINES)
    }


def test_no_module_is_over_600_lines_and_no_class_over_300() -> None:
    assert over(sizes()) == {}


def test_the_measure_sees_a_long_module_and_a_long_class(tmp_path: Path) -> None:
    package = tmp_path / "stress_tui"
    (package / "core").mkdir(parents=True)
    body = "".join(f"    x{i} = {i}\n" for i in range(CLASS_LINES))
    (package / "core" / "long.py").write_text(
        "class Long:\n" + body + "\n" * (MODULE_LINES - CLASS_LINES), encoding="utf-8"
    )
    (package / "core" / "short.py").write_text("class Short:\n    x = 1\n", encoding="utf-8")
    assert over(sizes(package)) == {
        "stress_tui/core/long.py": MODULE_LINES + 1,
        "stress_tui/core/long.py:Long": CLASS_LINES + 1,
    }
