"""Input fuzz against the real program in a pseudo-terminal, with every card accounted for.

Random bytes go into the game while it is being played: both players' keys, other keys,
control bytes, escape sequences (every one blessed knows as a key, random CSI, kitty
keyboard reports, SGR and X10 mouse reports, focus events, late answers to queries, OSC and
DCS strings, Alt+key, sequences cut short), bracketed pastes, UTF-8 and invalid UTF-8, and
now and then a lone Esc (then a pause longer than any escape delay, so that it is the Esc
key and pauses the game). A ``profile`` picks the kinds (``PROFILES``): ``known`` (keys
only), ``unknown`` (and sequences blessed does not know), ``all`` (and invalid UTF-8).

The bytes go in bursts of ``window`` bytes (512), each sent as soon as the program has
answered a Ctrl-L sent after the one before, so that all of it is read; ``--window 0``
sends everything at once, as fast as the pty takes it. Afterwards:

- the program is still running and answers Ctrl-L (a full redraw) within its usual time,
  measured before the fuzz on the same program (``FuzzResult.answers_in_usual_time``);
- the table read back from the screen (draw piles, row piles with their ``xN`` counts,
  play piles with their ``N cards``) holds every card of the deck;
- the program's own count, taken inside the very process by ``audited_main`` (below), is
  exact for every round played: the cards on the table at the end of a round are the
  cards dealt, none created, lost or duplicated;
- Ctrl-C exits with 130 and the terminal is restored (output and termios).

What the stream never holds (``FORBIDDEN_BYTES``, ``FORBIDDEN_KEYS``): Ctrl-C, Ctrl-Z and
Ctrl-\\ (the signal keys, tested on their own in tests/test_reliability.py), Ctrl-S and
Ctrl-Q (flow control, likewise), Ctrl-L (the harness's own question), and any ``q``, which
quits from the pause, help and result screens the fuzz keeps opening; player 1's ``q``
(row pile 1 onto the left pile) moves to ``t`` (``--keys``). Every stream is parsed
offline with blessed's own key parser (``parse_stream``) to check that no keystroke in it
has one of those names, and to count the escape-delay waits it costs.

    python bench/fuzz.py [--bytes 100000] [--profile all] [--window 512] [--seed 1]
                         [--runs 1] [--json]

The card count from the inside: the program is run as ``python -c "...audited_main()"``,
which is ``python -m stress_tui`` with ``App.new_table`` wrapped to remember each round's
dealt cards; at exit it writes every round's count to the file named by
``STRESS_TUI_AUDIT``. Nothing in the game is changed. (The app has no hook of its own for
this; ``STRESS_TUI_DUMP=PATH``, the final position in notation written at exit, is
proposed in docs/reliability.md.)
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import random
import select
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `tests.tty` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.screen import Screenful, has_people, restore_problems, say_ready
from tests.tty import TtySession

REPO = Path(__file__).resolve().parent.parent
AUDIT_ENV = "STRESS_TUI_AUDIT"
"""The file ``audited_main`` writes every round's card count to (a harness variable, not the
app's)."""
AUDIT_CACHE_CAPS_ENV = "STRESS_TUI_AUDIT_CACHE_CAPS"
"""``CELLS,SPRITES``: ``audited_main`` caps the drawing caches lower than the game does (an
experiment, to tell growth of the caches from a leak)."""
AUDIT_MEMORY_ENV = "STRESS_TUI_AUDIT_MEMORY"
"""Set: ``audited_main`` also traces allocations (``tracemalloc``) and writes the sites that
grew most from the start of the fourth round to the exit."""

NO_CONFIG = {"STRESS_TUI_CONFIG": "/nonexistent/stress-tui-reliability/config.toml"}
"""No config file from the machine the tests run on."""

ROWS, COLS = 24, 80

# Player 1's keys with row pile 1 onto the left pile on ``t`` instead of ``q``.
P1_KEYS = {
    "left1": "t",
    "left2": "w",
    "left3": "e",
    "left4": "r",
    "right1": "a",
    "right2": "s",
    "right3": "d",
    "right4": "f",
    "stress": "v",
    "ready": "c",
    "stop": "x",
}
P1_PLAY = "twerasdfvcx"
P2_PLAY = "uiopjkl;m,."

FORBIDDEN_BYTES = frozenset(b"\x03\x1a\x1c\x11\x13\x0cqQ")
"""Bytes the random stream never holds: the signal keys, flow control, ``q``, and Ctrl-L
(the redraw this harness asks for to know the program has read everything before it)."""
FORBIDDEN_KEYS = frozenset({"q", "ctrl+c", "ctrl+z", "ctrl+l"})
"""Key names (``stress_tui.terminal.keys.key_name``) no keystroke of the stream may have."""

CLEAR = b"\x1b[2J"
"""What a full redraw (Ctrl-L) starts with."""
REDRAW = b"\x0c"


# ----------------------------------------------------------------------------- the child


def audited_argv(args: list[str]) -> list[str]:
    """The command line that runs the game with ``args`` under ``audited_main``."""
    code = "import sys; from bench.fuzz import audited_main; sys.exit(audited_main(sys.argv[1:]))"
    return [sys.executable, "-c", code, *args]


def audited_main(argv: list[str]) -> int:
    """``python -m stress_tui ARGV``, counting every round's cards from the inside.

    Each table the app makes (``App.new_table``: the first round and every next round or
    rematch) is remembered with the cards it was dealt (``state.cards()``). When the next
    table replaces it, and at exit, its cards now are compared with them. The result goes,
    as JSON, to the file named by ``$STRESS_TUI_AUDIT``: the exit status and, per round,
    the cards dealt, the cards now and whether they are the same multiset (the final
    position in notation too, for the last round and any round that does not add up).
    """
    from collections import Counter

    from stress_tui.cli import main as cli
    from stress_tui.core.notation import format_position
    from stress_tui.terminal import app as app_module

    out = Path(os.environ[AUDIT_ENV])
    rounds: list[dict[str, Any]] = []
    current: list[tuple[Any, Counter[Any]]] = []
    memory: dict[str, Any] = {}
    caps = os.environ.get(AUDIT_CACHE_CAPS_ENV)
    if caps:  # an experiment, not the game: smaller drawing caches, to see memory level off
        from stress_tui.terminal.draw import canvas

        cells_cap, sprites_cap = (int(n) for n in caps.split(","))
        canvas.RenderCache.cells_limit = cells_cap
        canvas.RenderCache.sprites_limit = sprites_cap
    if os.environ.get(AUDIT_MEMORY_ENV):
        import tracemalloc

        tracemalloc.start(8)

    def audit(last: bool) -> None:
        game, dealt = current.pop()
        now = game.state.cards()
        same = now == dealt
        entry: dict[str, Any] = {
            "dealt": sum(dealt.values()),
            "now": sum(now.values()),
            "same": same,
            "phase": game.state.phase.value,
        }
        if last or not same:
            entry["position"] = format_position(game.state)
        rounds.append(entry)

    original = app_module.App.new_table

    def new_table(self: Any, game: Any = None) -> Any:
        table = original(self, game)
        if current:
            audit(last=False)
            rounds[-1].update(_memory_now(self))
        if os.environ.get(AUDIT_MEMORY_ENV) and len(rounds) == 3:
            import tracemalloc

            memory["after_round_3"] = tracemalloc.take_snapshot()
        current.append((table.game, Counter(table.game.state.cards())))
        return table

    app_module.App.new_table = new_table  # type: ignore[method-assign]
    code = 2
    try:
        code = cli.main(argv)
    finally:
        if current:
            audit(last=True)
        grown: list[str] = []
        if "after_round_3" in memory:
            import tracemalloc

            diff = tracemalloc.take_snapshot().compare_to(memory["after_round_3"], "traceback")
            grown = [
                f"{d.size_diff:+d} B in {d.count_diff:+d} blocks: "
                + " < ".join(
                    f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno}"
                    for f in reversed(d.traceback[-5:])
                )
                for d in diff[:12]
            ]
        text = json.dumps({"exit": code, "rounds": rounds, "memory": grown})
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(text)
        tmp.replace(out)
    return code


def _memory_now(app: Any) -> dict[str, int]:
    """The process's resident memory, the objects the garbage collector tracks, the memory
    Python has allocated (when ``tracemalloc`` traces) and the sizes of the app's drawing
    caches, now: resident memory can grow while the rest stays flat (the allocator's
    pages), which tells that apart from objects being kept."""
    import gc
    import tracemalloc

    sizes = {"rss_kb": 0, "objects": len(gc.get_objects())}
    if tracemalloc.is_tracing():
        sizes["traced_kb"] = tracemalloc.get_traced_memory()[0] // 1024
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                sizes["rss_kb"] = int(line.split()[1])
    cache = getattr(app, "cache", None)
    for name in ("sprites", "cells"):
        if hasattr(cache, name):
            sizes[name] = len(getattr(cache, name))
    return sizes


@dataclass
class Audit:
    """What ``audited_main`` wrote at exit."""

    exit: int
    rounds: list[dict[str, Any]]
    memory: list[str] = field(default_factory=list)
    """With ``STRESS_TUI_AUDIT_MEMORY``: the allocation sites that grew most."""

    @property
    def bad_rounds(self) -> list[dict[str, Any]]:
        return [r for r in self.rounds if not r["same"]]

    @classmethod
    def read(cls, path: Path) -> Audit:
        data = json.loads(path.read_text())
        return cls(data["exit"], data["rounds"], data.get("memory", []))


def keys_file(folder: Path) -> Path:
    """A ``--keys`` file moving player 1's ``q`` to ``t``."""
    path = folder / "fuzz-keys.toml"
    path.write_text("[keys.p1]\n" + "".join(f'{k} = "{v}"\n' for k, v in P1_KEYS.items()))
    return path


def private_env(folder: Path) -> dict[str, str | None]:
    """Every place a program may write to (home, XDG directories, the data directory)
    inside ``folder``, and no config file."""
    env: dict[str, str | None] = dict(NO_CONFIG)
    for name in (
        "HOME",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "XDG_CACHE_HOME",
        "STRESS_TUI_DATA_DIR",
    ):
        path = folder / name.lower()
        path.mkdir(exist_ok=True)
        env[name] = str(path)
    return env


@contextlib.contextmanager
def audited_game(
    folder: Path,
    args: list[str],
    env: Mapping[str, str | None] | None = None,
    rows: int = ROWS,
    cols: int = COLS,
    first_frame: bool = True,
) -> Iterator[tuple[TtySession, Path]]:
    """The game under ``audited_main`` in a pty; yields the session and the audit file."""
    audit = folder / "audit.json"
    audit.unlink(missing_ok=True)
    full_env = {**private_env(folder), AUDIT_ENV: str(audit), **(env or {})}
    with TtySession(audited_argv(args), rows=rows, cols=cols, env=full_env, cwd=REPO) as s:
        if first_frame:
            wait_table(s)
            if has_people(args):
                say_ready(s)  # the round starts when the people at the table say so
        yield s, audit


# ----------------------------------------------------------------------------- the screen


def wait_table(s: Screenful, timeout: float = 10.0) -> None:
    """Wait until a whole frame of the table is up (its last line is drawn last)."""
    s.wait_for(lambda: table_whole(s), timeout=timeout, what="the whole table")


def table_whole(s: Screenful) -> bool:
    """Whether the screen shows the whole table at 80x24 (title, both rows, both hints)."""
    from stress_tui.terminal.layout import layout

    lay = layout(s.cols, s.rows, 4)
    if lay is None:
        return False
    return (
        "STRESS" in s.row(lay.title_y)
        and "draw" in s.row(lay.rows_y[0] + 1)
        and "draw" in s.row(lay.rows_y[1] + 1)
        and (s.row(lay.hints_y[1]).strip() != "" or "computer" in s.row(lay.rows_y[1] + 2))
    )


def overlay_on_screen(text: str) -> str | None:
    """Which overlay the screen shows: ``help``, ``pause``, ``result``, ``small``, or None."""
    if "Make the window larger" in text or "Too small" in text:
        return "small"
    if "The rules in play" in text or "? or Esc: back to the game" in text:
        return "help"
    if "Esc or Enter: play on" in text:
        return "pause"
    if " wins the round!" in text or " wins the match!" in text:
        return "result"
    return None


def to_the_table(s: TtySession, timeout: float = 10.0) -> None:
    """Close whatever overlay is up (help: ``?``; pause: Enter; result: Enter once its keys
    are live) until the table shows with none."""
    deadline = time.monotonic() + timeout
    while True:
        s.pump(0.02)
        text = s.text()
        shown = overlay_on_screen(text)
        if shown is None and table_whole(s):
            return
        if time.monotonic() > deadline:
            s.wait_for(lambda: False, 0, f"the table without an overlay (now: {shown})")
        mark = len(s.log)
        if shown == "help":
            s.send("?")
        elif shown == "pause" or (shown == "result" and "Enter: " in text):
            s.send("\r")
        else:
            continue
        s.wait_for(functools.partial(_grown, s, mark), timeout=2, what="the overlay to change")


def _grown(s: TtySession, mark: int) -> bool:
    return len(s.log) > mark


def redrawn_since(s: TtySession, mark: int) -> bool:
    """Whether the program has started a full redraw since offset ``mark`` of its output."""
    return CLEAR in s.log[mark:]


def count_on_screen(s: TtySession) -> int:
    """The cards the table on screen shows: both draw piles, every row pile (``xN`` below
    the suit when it holds more than one), both play piles (``N cards`` beside them)."""
    from stress_tui.terminal.layout import layout

    lay = layout(s.cols, s.rows, 4)
    assert lay is not None
    total = 0
    for player in (0, 1):
        words = s.row(lay.rows_y[player] + 1).split()
        total += int(words[words.index("draw") + 1])
        for pile in range(4):
            x = lay.row_x + pile * (lay.card_w + lay.gap)
            label = s.row(lay.rows_y[player])[x + 1 : x + lay.card_w - 1].strip(" .")
            if not label:
                continue
            total += _stack(s, lay.rows_y[player], x, lay.card_h, lay.card_w)
    middle = s.row(lay.piles_y + lay.card_h // 2)
    for word, following in zip(middle.split(), middle.split()[1:], strict=False):
        if following in ("card", "cards") and word.isdigit():
            total += int(word)
    return total


def _stack(s: TtySession, y: int, x: int, h: int, w: int) -> int:
    for dy in range(1, h - 1):
        word = s.row(y + dy)[x : x + w].strip()
        if word.startswith("x") and word[1:].isdigit():
            return int(word[1:])
    return 1


# ----------------------------------------------------------------------------- latency


def redraw_latency(s: Screenful, timeout: float = 5.0) -> float:
    """Seconds (of the session's clock) from writing Ctrl-L to the start of the full
    redraw it asks for."""
    mark = len(s.log)
    start = s.now()
    s.send(REDRAW)
    deadline = start + timeout
    while CLEAR not in s.log[mark:]:
        remaining = deadline - s.now()
        if remaining <= 0:
            s.wait_for(lambda: False, 0, "the redraw asked for with Ctrl-L")
        s.pump(min(remaining, 0.05))
    return s.now() - start


def answered(s: Screenful, timeout: float, every: float = 0.25) -> float:
    """Seconds (of the session's clock) until the program answers Ctrl-L, sending it again
    every ``every`` seconds (a program that drops a flood of input may drop a Ctrl-L that
    came with it)."""
    start = s.now()
    deadline = start + timeout
    while True:
        mark = len(s.log)
        s.send(REDRAW)
        again = min(s.now() + every, deadline)
        while CLEAR not in s.log[mark:] and s.now() < again:
            s.pump(0.01)
        if CLEAR in s.log[mark:]:
            return s.now() - start
        if s.now() >= deadline:
            s.wait_for(lambda: False, 0, f"an answer to Ctrl-L within {timeout} s")


def redraw_latencies(s: TtySession, n: int) -> list[float]:
    """``n`` Ctrl-L round trips, one after the other, each waited for and the frame read."""
    samples = []
    for _ in range(n):
        samples.append(redraw_latency(s))
        s.pump(0.005)
    return samples


# ----------------------------------------------------------------------------- the stream


PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
_SAFE_TEXT = bytes(b for b in range(0x20, 0x7F) if b not in FORBIDDEN_BYTES)
_CSI_FINALS = bytes(b for b in range(0x40, 0x7F) if b not in FORBIDDEN_BYTES and b != ord("u"))
_ALT_KEYS = bytes(b for b in b"abcdefghijklmnoprstuvwxyz0123456789,.;/=-")
_KITTY_AVOID = {3, 12, 26, 28, 67, 76, 81, 90, 92, 99, 108, 113, 122}
"""Codepoints a kitty key report must not carry: C, L, Q, Z (any case), Ctrl-C, Ctrl-L,
Ctrl-Z, \\."""


WEIGHTS: dict[str, int] = {
    # Input a terminal sends for keys, which blessed knows.
    "player_key": 40,
    "printable": 8,
    "control": 6,
    "known_key": 8,
    "kitty": 6,
    "alt_key": 2,
    "utf8": 4,
    # Sequences blessed does not know as keys (mouse and focus reports the game never asked
    # for, late answers to queries, pastes, cut-off sequences).
    "csi": 6,
    "mouse_sgr": 4,
    "mouse_legacy": 2,
    "focus_or_report": 2,
    "osc_or_dcs": 2,
    "paste": 2,
    "junk_escape": 3,
    # Bytes that are not UTF-8.
    "bad_utf8": 5,
}
"""Each kind of token's weight in the stream."""

PROFILES: dict[str, tuple[str, ...]] = {
    "known": ("player_key", "printable", "control", "known_key", "kitty", "alt_key", "utf8"),
    "unknown": (
        "player_key",
        "printable",
        "control",
        "known_key",
        "kitty",
        "alt_key",
        "utf8",
        "csi",
        "mouse_sgr",
        "mouse_legacy",
        "focus_or_report",
        "osc_or_dcs",
        "paste",
        "junk_escape",
    ),
    "all": tuple(WEIGHTS),
}
"""Which kinds of token a stream holds: ``known`` (keys only, valid UTF-8), ``unknown``
(and escape sequences blessed does not know), ``all`` (and invalid UTF-8)."""


class Stream:
    """Random input, token by token, from a seeded ``random.Random``."""

    def __init__(self, seed: int, profile: str = "all") -> None:
        self.rng = random.Random(seed)
        self.profile = profile
        self.kinds: list[Callable[[], bytes]] = [getattr(self, k) for k in PROFILES[profile]]
        self.weights = [WEIGHTS[k] for k in PROFILES[profile]]
        self.counts: dict[str, int] = {k.__name__: 0 for k in self.kinds}
        self._known_keys = _known_sequences()

    def token(self) -> bytes:
        kind = self.rng.choices(self.kinds, self.weights)[0]
        self.counts[kind.__name__] += 1
        data = kind()
        assert not (set(data) & FORBIDDEN_BYTES), (kind.__name__, data)
        return data

    def _text(self, lo: int, hi: int) -> bytes:
        return bytes(self.rng.choice(_SAFE_TEXT) for _ in range(self.rng.randint(lo, hi)))

    def _num(self) -> bytes:
        return str(self.rng.choice([0, 1, 2, 5, 9, 27, 99, 200, 999, 65535, 2**31])).encode()

    def player_key(self) -> bytes:
        keys = P1_PLAY + P2_PLAY + "\r "
        return "".join(self.rng.choice(keys) for _ in range(self.rng.randint(1, 8))).encode()

    def printable(self) -> bytes:
        return self._text(1, 4)

    def control(self) -> bytes:
        pool = [b for b in range(0x20) if b not in FORBIDDEN_BYTES and b != 0x1B] + [0x7F]
        return bytes([self.rng.choice(pool)])

    def csi(self) -> bytes:
        prefix = self.rng.choice([b"", b"", b"?", b">", b"=", b"<"])
        params = b";".join(self._num() for _ in range(self.rng.randint(0, 4)))
        inter = self.rng.choice([b"", b"", b"", b" ", b"$", b"!"])
        return b"\x1b[" + prefix + params + inter + bytes([self.rng.choice(_CSI_FINALS)])

    def known_key(self) -> bytes:
        """A sequence blessed knows as a key (arrows, function keys with modifiers, ...)."""
        return self.rng.choice(self._known_keys)

    def kitty(self) -> bytes:
        while True:
            code = self.rng.choice([*range(32, 127), 9, 13, 27, 127, 57399, 57441, 57358])
            if code not in _KITTY_AVOID:
                break
        text = str(code).encode()
        mods = self.rng.choice([b"", b";1", b";2", b";3", b";5", b";9", b";1:2", b";1:3"])
        return b"\x1b[" + text + mods + b"u"

    def mouse_sgr(self) -> bytes:
        button = self.rng.choice([0, 1, 2, 32, 35, 64, 65])
        x, y = self.rng.randint(1, 300), self.rng.randint(1, 100)
        return f"\x1b[<{button};{x};{y}{self.rng.choice('Mm')}".encode()

    def mouse_legacy(self) -> bytes:
        """An X10 mouse report: three bytes of 32 + value; past column 95 they are not
        UTF-8 (so only up to 95 when invalid UTF-8 is left out)."""
        top = 256 if "bad_utf8" in PROFILES[self.profile] else 128
        pool = [b for b in range(32, top) if b not in FORBIDDEN_BYTES]
        return b"\x1b[M" + bytes(self.rng.choice(pool) for _ in range(3))

    def focus_or_report(self) -> bytes:
        return self.rng.choice(
            [
                b"\x1b[I",
                b"\x1b[O",
                b"\x1b[12;40R",
                b"\x1b[?1;2c",
                b"\x1b[?2026;2$y",
                b"\x1b[?0u",
                b"\x1b[8;24;80t",
            ]
        )

    def alt_key(self) -> bytes:
        """Alt and a letter or digit, as xterm sends it (Esc, then the key)."""
        return b"\x1b" + bytes([self.rng.choice(_ALT_KEYS)])

    def osc_or_dcs(self) -> bytes:
        if self.rng.random() < 0.5:
            return b"\x1b]0;" + self._text(0, 12) + self.rng.choice([b"\x07", b"\x1b\\"])
        return b"\x1bP" + self._text(0, 12) + b"\x1b\\"

    def paste(self) -> bytes:
        body = bytearray(self._text(0, 40))
        for _ in range(self.rng.randint(0, 3)):
            body.insert(self.rng.randint(0, len(body)), self.rng.choice(b"\r\n\t"))
        return PASTE_START + bytes(body) + PASTE_END

    def junk_escape(self) -> bytes:
        """An escape sequence cut short or never ended, then ordinary text."""
        return self.rng.choice([b"\x1b[", b"\x1b[1;", b"\x1bO", b"\x1b[<1;2", b"\x1b]"]) + (
            self._text(1, 3)
        )

    def utf8(self) -> bytes:
        return self.rng.choice(["é", "♠", "♦", "€", "日", "😀", "\u00a0", "\u200b"]).encode()

    def bad_utf8(self) -> bytes:
        return self.rng.choice(
            [
                bytes([self.rng.randrange(0x80, 0x100)]),
                b"\xc0\xaf",
                b"\xe2\x82",
                b"\xed\xa0\x80",
                b"\xf8\x88\x80\x80\x80",
                b"\xff\xfe",
                b"\xf0\x9f\x98",
                b"\x9b",
            ]
        )

    def make(self, n_bytes: int) -> list[bytes]:
        """Tokens, at least ``n_bytes`` bytes of them."""
        out, size = [], 0
        while size < n_bytes:
            out.append(self.token())
            size += len(out[-1])
        return out


def _parser() -> Any:
    import io

    from blessed import Terminal

    return Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)


def _known_sequences() -> list[bytes]:
    """Every escape sequence blessed knows as a key for xterm-256color, but those that
    name a forbidden key."""
    from blessed.keyboard import resolve_sequence

    from stress_tui.terminal.keynames import key_name

    term = _parser()
    found = []
    for text in sorted(term._keymap):
        if not text.startswith("\x1b") or len(text) < 2:
            continue
        data = text.encode()
        stroke = resolve_sequence(
            text + "a",
            term._keymap,
            term._keycodes,
            term._keymap_prefixes,
            final=False,
            dec_mode_cache=term._dec_mode_cache,
        )
        if (
            set(data) & FORBIDDEN_BYTES
            or len(stroke) != len(text)
            or key_name(stroke) in FORBIDDEN_KEYS
        ):
            continue
        found.append(data)
    return found


@dataclass
class Parsed:
    """A stream as the game's key reader takes it, worked out offline."""

    names: dict[str, int]
    """How often each key name (``stress_tui.terminal.keys.key_name``) comes out."""
    stalls: int
    """How many times the reader waits its escape delay (0.35 s) with more input already
    there: an Esc that blessed cannot complete into a key it knows."""


def parse_stream(data: bytes) -> Parsed:
    """Parse ``data`` as blessed 1.52's ``async_inkey`` does, all of it read at once:
    ``resolve_sequence`` on what is buffered; a lone Esc with more input after it that
    blessed calls incomplete is a stall of ``esc_delay``, then resolved with ``final``."""
    from blessed.keyboard import resolve_sequence

    from stress_tui.terminal.keynames import key_name

    term = _parser()
    args = (term._keymap, term._keycodes, term._keymap_prefixes)
    whole = data.decode("utf-8", errors="replace")
    names: dict[str, int] = {}
    stalls = 0
    at = 0
    while at < len(whole):
        text = whole[at : at + 256]  # longer than any sequence the stream holds
        stroke = resolve_sequence(text, *args, final=False, dec_mode_cache=term._dec_mode_cache)
        if (
            stroke.code == term.KEY_ESCAPE
            and len(stroke) == 1
            and len(text) > 1
            and (term._is_incomplete_keystroke(text))
        ):
            stalls += 1
            stroke = resolve_sequence(text, *args, final=True, dec_mode_cache=term._dec_mode_cache)
        name = key_name(stroke) if len(stroke) else None
        if name is not None:
            names[name] = names.get(name, 0) + 1
        at += len(stroke) or 1
    return Parsed(names, stalls)


def safe_stream(
    n_bytes: int, seed: int, profile: str = "all"
) -> tuple[list[bytes], Stream, Parsed]:
    """The tokens of a stream of at least ``n_bytes`` that parses to no forbidden key
    (checked), the stream (its ``counts`` of each kind) and how it parses."""
    stream = Stream(seed, profile)
    tokens = stream.make(n_bytes)
    parsed = parse_stream(b"".join(tokens))
    bad = FORBIDDEN_KEYS & set(parsed.names)
    assert not bad, f"seed {seed}: the stream holds {bad}"
    return tokens, stream, parsed


def bursts(tokens: list[bytes], window: int | None) -> list[bytes]:
    """The tokens joined into bursts of at most ``window`` bytes (a longer token alone),
    never cutting a token; ``None``: one burst."""
    if window is None:
        return [b"".join(tokens)]
    out: list[bytes] = []
    current = bytearray()
    for token in tokens:
        if current and len(current) + len(token) > window:
            out.append(bytes(current))
            current.clear()
        current += token
    if current:
        out.append(bytes(current))
    return out


# ----------------------------------------------------------------------------- the run


@dataclass
class FuzzResult:
    """What a fuzz run came to."""

    seed: int
    profile: str
    bytes_sent: int
    lone_escapes: int
    stalls_predicted: int = 0
    """Escape-delay waits the stream costs the key reader (``parse_stream``)."""
    window: int | None = None
    """Bytes per burst (``None``: all at once, as fast as the pty takes them)."""
    send_seconds: float = 0.0
    """From the first byte written to the last."""
    drain_seconds: float | None = None
    """From the last byte written until the program answered a Ctrl-L sent after it (sent
    again every 0.25 s, since a flood may be dropped with the Ctrl-L in it; ``None``: no
    answer within the time allowed)."""
    baseline_ms: list[float] = field(default_factory=list)
    """Ctrl-L round trips before the fuzz."""
    after_ms: list[float] = field(default_factory=list)
    """Ctrl-L round trips after it."""
    alive_after: bool = False
    screen_cards: int | None = None
    deck_cards: int = 0
    exit_code: int | None = None
    restore_problems: list[str] = field(default_factory=list)
    tty_mode_restored: bool = False
    rounds: list[dict[str, Any]] = field(default_factory=list)
    """Every round the program played, counted from the inside (``audited_main``)."""
    tokens: dict[str, int] = field(default_factory=dict)
    failure: str | None = None
    """Why the run stopped early (the program died or stopped answering), if it did."""
    traceback: str | None = None
    """The traceback the program printed, if it crashed."""

    @property
    def answers_in_usual_time(self) -> bool:
        """After the fuzz, Ctrl-L is answered about as fast as before it: the median within
        twice the median before (or 5 ms more), the slowest within three times the slowest
        before (or 100 ms more)."""
        if not self.baseline_ms or not self.after_ms:
            return False
        before, after = statistics.median(self.baseline_ms), statistics.median(self.after_ms)
        return after <= max(2 * before, before + 5) and max(self.after_ms) <= max(
            3 * max(self.baseline_ms), max(self.baseline_ms) + 100
        )

    @property
    def cards_exact(self) -> bool:
        return (
            self.screen_cards == self.deck_cards
            and bool(self.rounds)
            and all(r["same"] for r in self.rounds)
        )

    @property
    def restored(self) -> bool:
        return not self.restore_problems and self.tty_mode_restored

    @property
    def held(self) -> bool:
        return (
            self.failure is None
            and self.alive_after
            and self.answers_in_usual_time
            and self.cards_exact
            and self.exit_code == 130
            and self.restored
        )

    @property
    def throughput(self) -> float:
        """Bytes per second, from the first byte sent to the answer after the last."""
        total = self.send_seconds + (self.drain_seconds or 0.0)
        return self.bytes_sent / total if total > 0 else 0.0

    def summary(self) -> str:
        def ms(samples: list[float]) -> str:
            if not samples:
                return "-"
            return f"median {statistics.median(samples):.2f} ms, max {max(samples):.2f} ms"

        bad = [r for r in self.rounds if not r["same"]]
        drain = "never" if self.drain_seconds is None else f"{self.drain_seconds:.2f} s"
        burst = "all at once" if self.window is None else f"in bursts of {self.window}"
        lines = [
            f"profile {self.profile}, seed {self.seed}: {self.bytes_sent} bytes {burst} "
            f"({self.lone_escapes} lone Esc, {self.stalls_predicted} escape-delay stalls "
            f"predicted) sent in {self.send_seconds:.1f} s, drained {drain} after "
            f"({self.throughput / 1000:.1f} kB/s)",
            f"  Ctrl-L before: {ms(self.baseline_ms)}; after: {ms(self.after_ms)}; "
            f"usual time: {self.answers_in_usual_time}",
            f"  alive after: {self.alive_after}; cards on screen {self.screen_cards} of "
            f"{self.deck_cards}; rounds counted inside {len(self.rounds)}, not adding up "
            f"{len(bad)}",
            f"  exit {self.exit_code}; terminal restored: {self.restored}"
            + (f" ({'; '.join(self.restore_problems)})" if self.restore_problems else ""),
        ]
        if self.failure:
            lines.append(f"  FAILED: {self.failure}")
        if self.traceback:
            lines.append("  " + self.traceback.replace("\n", "\n  "))
        return "\n".join(lines)


def send_all(s: TtySession, data: bytes, chunk: int = 512) -> None:
    """Write ``data`` as fast as the program takes it, reading its output meanwhile (or
    both sides would block once the pty's buffers fill)."""
    view = memoryview(data)
    fd = s.child.child_fd
    while view:
        if not s.alive():
            raise ChildProcessError("the program is gone")
        writable = select.select([], [fd], [], 0.05)[1]
        if writable:
            written = os.write(fd, view[:chunk])
            view = view[written:]
        s.pump(0)


def run_fuzz(
    n_bytes: int,
    seed: int,
    folder: Path,
    *,
    profile: str = "all",
    window: int | None = 512,
    lone_escapes: int | None = None,
    latency_samples: int = 20,
    drain_timeout: float = 30.0,
    game_seed: int = 12,
) -> FuzzResult:
    """Fuzz the game with ``safe_stream(n_bytes, seed, profile)`` and ``lone_escapes`` lone
    Esc keys (default one per 10,000 bytes), then check it as the module docstring says.

    ``window``: bytes written in a burst, each burst followed by a Ctrl-L and sent as soon as
    the program has answered the one before (so at most one burst waits in the program),
    or ``None``: everything as fast as the pty takes it. Never raises for what the program
    does: the result says it (``failure``).
    """
    tokens, stream, parsed = safe_stream(n_bytes, seed, profile)
    escapes = max(1, n_bytes // 10_000) if lone_escapes is None else lone_escapes
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(tokens)), escapes))
    pieces = [tokens[a:b] for a, b in zip([0, *cuts], [*cuts, len(tokens)], strict=True)]
    from stress_tui.core.rules import Rules

    size = sum(map(len, tokens))
    result = FuzzResult(seed, profile, size, escapes, parsed.stalls, tokens=stream.counts)
    result.window = window
    result.deck_cards = len(Rules().spec.cards(0))
    args = ["--seed", str(game_seed), "--keys", str(keys_file(folder))]
    with audited_game(folder, args) as (s, audit):
        try:
            s.wait_for(lambda: "1 card" in s.text(), timeout=5, what="the first flip")
            result.baseline_ms = [1000 * x for x in redraw_latencies(s, latency_samples)]
            started = time.perf_counter()
            for index, piece in enumerate(pieces):
                for burst in bursts(piece, window):
                    send_all(s, burst)
                    if window is not None:
                        redraw_latency(s, timeout=drain_timeout)
                if index < len(pieces) - 1:
                    # A lone Esc: nothing follows it for longer than the escape delay.
                    send_all(s, b"\x1b")
                    _quiet(s, 0.5)
            result.send_seconds = time.perf_counter() - started
            started = time.perf_counter()
            answered(s, timeout=drain_timeout)  # after everything sent before it
            result.drain_seconds = time.perf_counter() - started
            result.alive_after = s.alive()
            result.after_ms = [1000 * x for x in redraw_latencies(s, latency_samples)]
            to_the_table(s)
            result.screen_cards = count_on_screen(s)
            s.send(b"\x03")
            result.exit_code = s.wait_exit(timeout=10)
        except (AssertionError, ChildProcessError, OSError) as error:
            result.failure = _first_lines(str(error))
            result.alive_after = s.alive()
            with contextlib.suppress(AssertionError):
                s.wait_exit(timeout=1)
            result.exit_code = s.exit_code
            result.traceback = _traceback(s.raw_log())
        result.restore_problems = restore_problems(s.raw_log())
        result.tty_mode_restored = s.tty_mode_restored()
    if audit.exists():
        result.rounds = Audit.read(audit).rounds
    return result


def _traceback(log: bytes) -> str | None:
    """The last traceback in the program's output, as text."""
    start = log.rfind(b"Traceback (most recent call last)")
    if start < 0:
        return None
    return log[start:].decode("utf-8", errors="replace").replace("\r\n", "\n").strip()


def _first_lines(text: str, n: int = 3) -> str:
    return " | ".join(line for line in text.splitlines()[:n] if line.strip())


def _quiet(s: TtySession, seconds: float) -> None:
    """Read output for ``seconds`` (used only where time must pass: the escape delay)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        s.pump(left)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bytes", type=int, default=100_000, help="bytes to send")
    parser.add_argument("--seed", type=int, default=1, help="the stream's seed")
    parser.add_argument("--runs", type=int, default=1, help="runs, seeds SEED, SEED+1, ...")
    parser.add_argument(
        "--profile",
        choices=PROFILES,
        default="all",
        help="known: keys blessed knows, valid UTF-8; unknown: and escape "
        "sequences it does not know; all: and invalid UTF-8 (default)",
    )
    parser.add_argument(
        "--window",
        type=int,
        default=512,
        help="bytes per burst, each sent once the program has answered the "
        "one before; 0: everything at once as fast as the pty takes it",
    )
    parser.add_argument(
        "--drain-timeout",
        type=float,
        default=60.0,
        help="seconds the program may take to answer after the last byte",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per run")
    args = parser.parse_args(argv)
    failed = 0
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            result = run_fuzz(
                args.bytes,
                args.seed + run,
                Path(tmp),
                profile=args.profile,
                window=args.window or None,
                drain_timeout=args.drain_timeout,
            )
        failed += not result.held
        if args.json:
            print(
                json.dumps({**asdict(result), "throughput": result.throughput, "held": result.held})
            )
        else:
            print(result.summary())
            print(f"  tokens: {result.tokens}")
            print(f"  => {'held' if result.held else 'FAILED'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
