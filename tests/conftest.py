"""Shared test helpers: a game from a position in notation, and its lines read back; and
no test reads or writes the real config and data directories."""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

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
    if request.node.get_closest_marker("pty") is not None or _starts_a_pty(request.module):
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


PTY_MODULES = ("tests.tty", "pexpect", "ptyprocess")
"""The pseudo-terminal harness and what it is made of."""


def _starts_a_pty(module: object) -> bool:
    """Whether a test module imports the pseudo-terminal harness (or pexpect): its tests
    run the real program in a pty."""
    return any(
        getattr(value, "__name__", None) in PTY_MODULES
        or getattr(value, "__module__", None) in PTY_MODULES
        for value in vars(module).values()
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``pty`` the tests of every module that runs the program in a pseudo-terminal,
    so that ``-m 'not pty'`` runs the in-process tests alone (``scripts/test`` on the
    other supported Pythons)."""
    pty = pytest.mark.pty
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and _starts_a_pty(module):
            item.add_marker(pty)
