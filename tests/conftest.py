"""Shared test helpers: a game from a position in notation, and its lines read back; and
no test reads or writes the real config and data directories."""

from __future__ import annotations

import contextlib
import functools
import itertools
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression

from stress_tui.core.cards import Card, parse_cards
from stress_tui.core.engine import Game
from stress_tui.core.notation import format_position, parse_position

_HOMES = itertools.count()
"""Numbers the tests' folders (``_private_files``)."""


@pytest.fixture(autouse=True, scope="session")
def _english() -> Iterator[None]:
    """The game speaks English unless a test asks for another language: the language of
    the machine the tests run on does not count. Set once a run: the tests that set a
    language put it back (``monkeypatch``, ``tests/command.py``'s ``environment``)."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            patch.delenv(name, raising=False)
        patch.setenv("LANG", "C.UTF-8")
        yield


@pytest.fixture(autouse=True)
def _private_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point the program (and every program a test starts) at empty folders of its own,
    unless the test sets its own. The folder is named, not made: the program makes its
    data folder where it writes (most tests write nothing), and a folder made for each
    test was half of what pytest spends on an empty one."""
    folder = tmp_path_factory.getbasetemp() / "homes" / str(next(_HOMES))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("STRESS_TUI_DATA_DIR", str(folder / "data"))
        patch.setenv("STRESS_TUI_CONFIG", str(Path(folder / "config.toml")))
        yield


@pytest.fixture(autouse=True, scope="module")
def _quick_join_key(request: pytest.FixtureRequest) -> Iterator[None]:
    """In-process, a join code is stretched into its key by one PBKDF2 round, not
    ``KEY_ITERATIONS``: the same function of the same code and salt on both sides, so every
    handshake, proof and refusal is the same; 100,000 rounds cost each host and each joiner
    about 50 ms of CPU, most of the in-process network tests' time. The real count is used
    where the real program runs (the ``pty`` tests: two programs, and a test proving a code
    to a real host, test_net_e2e_crash). Set once a module, as a module's tests are all
    ``pty`` or none (``pytest_collection_modifyitems``): a fixture for each test asking for
    ``request`` and ``monkeypatch`` was a tenth of what pytest spends on an empty test."""
    if "pty" in module_marks(request.path):
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("stress_tui.net.protocol.KEY_ITERATIONS", 1)
        yield


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder of the test's own (not yet made), for the record, the ratings and the
    replays: where a test looks at what the program kept."""
    folder = tmp_path / "data"
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(folder))
    return folder


def game(text: str, seed: int = 0) -> Game:
    """A game at the position written in ``text``, shuffling with ``random.Random(seed)``."""
    return Game(parse_position(text), random.Random(seed))


def position(g: Game) -> str:
    """The game's position in canonical notation."""
    return format_position(g.state)


def table(g: Game) -> str:
    """The position without its ``time:`` line: the cards and who stands how."""
    return "\n".join(text for text in position(g).splitlines() if not text.startswith("time:"))


def line(g: Game, key: str) -> str | None:
    """The value of one line of the game's position (``"p1 row"``, ``"piles"``...), if
    the canonical notation writes it."""
    for text in position(g).splitlines():
        name, _, value = text.partition(": ")
        if name == key:
            return value
    return None


def cards(text: str) -> tuple[Card, ...]:
    """Cards in notation, as the tuple events carry (``cards("5H 5S")``)."""
    return tuple(parse_cards(text))


def card(text: str) -> Card:
    """One card in notation."""
    return Card.parse(text)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the catalogues edited since the last install (``hatch_build.py``, as the
    build does), so that no test reads a ``.mo`` file older than its ``.po``."""
    root = Path(__file__).resolve().parents[1]
    if (root / "hatch_build.py").is_file():
        import sys

        sys.path.insert(0, str(root))
        try:
            import hatch_build
        finally:
            sys.path.remove(str(root))
        if hatch_build.stale_catalogues(root):
            # without Babel (installed before it was a test tool) test_lang says to install
            with contextlib.suppress(ImportError):
                hatch_build.compile_catalogues(root)


PTY_IMPORT = re.compile(
    r"^(?:import (?:pexpect|ptyprocess)\b|from (?:pexpect|ptyprocess|tests\.tty) import "
    r"|from tests import tty\b)",
    re.MULTILINE,
)
"""A test module's import of the pseudo-terminal harness, or of what it is made of
(pexpect), at its top: its tests run the real program in a pty. (An import inside a
function, as test_startup's, makes no module ``pty``.)"""

MODULE_MARK = re.compile(r"^pytestmark = pytest\.mark\.(\w+)$", re.MULTILINE)
"""A test module's one mark for all its tests."""


@functools.cache
def module_marks(path: Path) -> frozenset[str]:
    """The marks every test of the test module at ``path`` has, as its source says:
    ``pty`` where it imports the harness (``PTY_IMPORT``), and its ``pytestmark``."""
    source = path.read_text(encoding="utf-8")
    marks = set(MODULE_MARK.findall(source))
    if PTY_IMPORT.search(source):
        marks.add("pty")
    return frozenset(marks)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``pty`` the tests of every module that runs the program in a pseudo-terminal,
    so that ``-m 'not pty'`` runs the in-process tests alone (``scripts/test`` on the
    other supported Pythons)."""
    pty = pytest.mark.pty
    for item in items:
        if "pty" in module_marks(item.path):
            item.add_marker(pty)


def leaves_out(expression: str, marks: frozenset[str]) -> bool:
    """Whether ``-m EXPRESSION`` leaves out every test that has ``marks``, whatever other
    marks it has (each of those the expression names, present or not). An expression
    that asks for a mark's arguments (``mark(key=value)``) is not judged: False."""
    if re.search(r"[^\s(]\(", expression):
        return False
    compiled = Expression.compile(expression)
    names = set(re.findall(r"[^\s()]+", expression)) - {"and", "or", "not"} - marks
    others = sorted(names)
    for count in range(len(others) + 1):
        for chosen in itertools.combinations(others, count):
            if compiled.evaluate(_having(marks | set(chosen))):
                return False
    return True


def _having(present: frozenset[str]) -> Callable[..., bool]:
    """What ``Expression.evaluate`` asks of each mark an expression names: whether a test
    with the marks ``present`` has it."""

    def has(name: str, /, **arguments: object) -> bool:
        return name in present

    return has


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A test module whose every test the run's ``-m`` leaves out, by the marks its source
    gives all of them (``module_marks``), is not imported at all: pytest learns a module's
    marks by importing it, and the ``pty`` and ``one_python`` modules import the harness,
    pexpect and Hypothesis, which ``scripts/test``'s other Pythons (``-m 'not pty and not
    one_python'``) would compile and import for nothing: collecting there, on 3.13 from no
    ``__pycache__``, 2.3 s less (0.4 s warm)."""
    expression = config.option.markexpr
    if (
        not expression
        or collection_path.suffix != ".py"
        or not collection_path.name.startswith("test_")
    ):
        return None
    marks = module_marks(collection_path)
    return True if marks and leaves_out(expression, marks) else None
