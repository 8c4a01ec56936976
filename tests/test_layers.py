"""The layer contract: the package's folders are its layers, and imports flow one way.

core -> players -> storage -> net -> terminal -> cli. A layer may import itself and the layers
before it, never one after it; ``docs/architecture.md`` draws the same picture. Inside the
terminal, the drawing layer (``terminal/draw``: palette, canvas, encoder) knows nothing of
the game: it imports no other part of the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "stress_tui"

MAY_IMPORT: dict[str, set[str]] = {
    "core": {"core"},
    "players": {"core", "players"},
    "storage": {"core", "storage"},
    "net": {"core", "players", "storage", "net"},
    "terminal": {"core", "players", "storage", "net", "terminal"},
    "cli": {"core", "players", "storage", "net", "terminal", "cli"},
}
"""Each layer and the layers its modules may import."""

TOP_LEVEL = {"__init__.py", "__main__.py", "py.typed"}

pytestmark = pytest.mark.one_python
"""A reading of the package's source files (``ast``), the same whichever Python reads them."""


def _imports(path: Path) -> set[str]:
    """The modules of ``stress_tui`` that a module imports (at any depth in the file), by
    their dotted names (``from stress_tui.core import cards`` counts as ``stress_tui.core``
    and ``stress_tui.core.cards``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import; write stress_tui.<layer>..."
            names = [node.module or ""]
            if (node.module or "").startswith("stress_tui"):
                names += [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "stress_tui" and len(parts) > 1 and parts[1] != "__version__":
                found.add(name)
    return found


def _layer_imports(path: Path) -> set[str]:
    """The layers of ``stress_tui`` that a module imports (at any depth in the file)."""
    return {name.split(".")[1] for name in _imports(path)}


def test_every_module_lives_in_a_layer() -> None:
    loose = {p.name for p in PACKAGE.iterdir() if p.is_file()} - TOP_LEVEL
    assert loose == set()
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(MAY_IMPORT)


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_a_layer_imports_only_itself_and_the_layers_before_it(layer: str) -> None:
    wrong = {
        str(path.relative_to(ROOT)): sorted(_layer_imports(path) - MAY_IMPORT[layer])
        for path in sorted((PACKAGE / layer).rglob("*.py"))
    }
    assert {path: layers for path, layers in wrong.items() if layers} == {}


def test_the_contract_would_see_an_import_against_the_flow(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from stress_tui.terminal.app import run\n"
        "def f() -> None:\n    import stress_tui.cli.main\n",
        encoding="utf-8",
    )
    assert _layer_imports(bad) == {"terminal", "cli"}


DRAWING = PACKAGE / "terminal" / "draw"
"""The drawing layer: no game in it."""


def test_the_drawing_layer_imports_nothing_of_the_game() -> None:
    modules = sorted(DRAWING.rglob("*.py"))
    assert {p.stem for p in modules} >= {"palette", "canvas", "encode"}
    wrong = {
        str(path.relative_to(ROOT)): sorted(
            name
            for name in _imports(path)
            if name != "stress_tui.terminal.draw"
            and not name.startswith("stress_tui.terminal.draw.")
        )
        for path in modules
    }
    assert {path: names for path, names in wrong.items() if names} == {}


def test_the_drawing_contract_would_see_a_game_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from stress_tui.terminal.draw.canvas import Canvas\n"
        "from stress_tui.core import cards\n"
        "def f() -> None:\n    from stress_tui.terminal.keys import Intent\n",
        encoding="utf-8",
    )
    assert _imports(bad) == {
        "stress_tui.terminal.draw.canvas",
        "stress_tui.terminal.draw.canvas.Canvas",
        "stress_tui.core",
        "stress_tui.core.cards",
        "stress_tui.terminal.keys",
        "stress_tui.terminal.keys.Intent",
    }
