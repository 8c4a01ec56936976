"""A table for two of ``stress-tui serve``, scripted and counted: the Python calls the
server makes for its two screens, its host and its joiner's end, per key its players press.

    python bench/serve_calls.py [--seconds 60] [--seed 1] [--top 0]

The table is ``tests/test_partial_frames.py``'s ``table_for_two``: the server's
``ServedHost`` and ``ServedClient``, each end's ``NetScreen`` on an in-process terminal
(``tests/pilot.py``), all on one event loop with a virtual clock, so that a run is the same
run every time: the same deal, the same keys at the same virtual moments, the same frames.
Each seat is played by ``bench/serve_tables.py``'s ``Person`` (the table read from its
screen, ``bot:normal``'s reaction, one aimed key in twenty slipping), its rng seeded.

What is counted, from the first round's first play for ``--seconds`` of the virtual clock:
every call of a Python function and of a built-in one (``sys.setprofile``) the server's
side makes, that is all of the loop's work but what a player's own terminal does with the
bytes (pyte reads them outside the count, when the person looks). The SSH channel is not
there (asyncssh's packets and their encryption: ``bench/serve_tables.py`` measures the
server whole), so these are the calls that the table's own code makes. Beside them, the
keys pressed and the frames the two screens wrote and their bytes: the same keys and
frames in two trees (a change that should not change what the players see) make their
counts comparable. ``--top N`` prints the N functions called most.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from contextlib import nullcontext
from pathlib import Path
from types import FrameType
from typing import Any

if __package__ in (None, ""):  # run as a script: make `bench` and `tests` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pytest

from bench.serve_tables import Person
from stress_tui.core.actions import Play
from stress_tui.terminal.netplay import NetScreen
from tests.pilot import Pilot
from tests.test_partial_frames import table_for_two


class Counted:
    """Calls counted by ``sys.setprofile`` while on (each Python function's and built-in's
    call once), by function where ``by_function``."""

    def __init__(self, by_function: bool) -> None:
        self.calls = 0
        self.by_function = by_function
        self.functions: Counter[str] = Counter()

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            self.calls += 1
            if self.by_function:
                code = frame.f_code
                where = code.co_filename.rsplit("stress_tui/", 1)[-1]
                self.functions[f"{where}:{code.co_firstlineno}({code.co_name})"] += 1
        elif event == "c_call":
            self.calls += 1
            if self.by_function:
                self.functions[f"~({getattr(arg, '__qualname__', arg)})"] += 1

    def __enter__(self) -> Counted:
        sys.setprofile(self.hook)
        return self

    def __exit__(self, *_: object) -> None:
        sys.setprofile(None)


class Seat:
    """A pilot's screen as its person reads it: what the screen wrote is kept aside and
    fed to the person's pyte screen only when they look (outside the count)."""

    def __init__(self, pilot: Pilot, person: Person) -> None:
        self.pilot = pilot
        self.person = person
        person.screen, person.stream = pilot.screen, pilot.stream  # what is drawn so far
        self.unread = bytearray()
        self.frames = 0
        self.bytes = 0
        pilot.endpoint.on_output = self.output

    def output(self, data: bytes) -> None:
        self.unread += data
        self.frames += 1
        self.bytes += len(data)

    def look(self) -> str:
        """The key the person presses at what the screen shows now."""
        data, self.unread = bytes(self.unread), bytearray()
        self.person.read(data)
        return self.person.key()


def play(seconds: float, seed: int, counted: Counted) -> dict[str, float]:
    """The scripted table, counted from its first play for ``seconds`` virtual seconds."""
    with (
        tempfile.TemporaryDirectory(prefix="stress-serve-calls-") as folder,
        pytest.MonkeyPatch.context() as patch,
        table_for_two(Path(folder), patch) as pilots,
    ):
        rng = random.Random(seed)
        seats = [Seat(p, Person(random.Random(rng.random()))) for p in pilots]
        loop = pilots[0].loop
        screen = pilots[0].app
        assert isinstance(screen, NetScreen)
        host = screen.link.model
        due = [loop.time() + seat.person.reaction() for seat in seats]
        keys = 0
        started: float | None = None
        while started is None or loop.time() < started + seconds:
            turn = min(range(len(seats)), key=lambda i: due[i])
            wait = max(0.0, due[turn] - loop.time())
            if started is not None:
                wait = min(wait, started + seconds - loop.time())
            with counted if started is not None else nullcontext():
                pilots[0].pump(wait)
            if loop.time() < due[turn]:
                continue
            key = seats[turn].look()
            if started is None and any(isinstance(a, Play) for a in host_actions(host)):
                started = loop.time()
                for seat in seats:
                    seat.frames = seat.bytes = 0
            if started is not None:
                keys += 1
            with counted if started is not None else nullcontext():
                seats[turn].pilot.send(key)
            due[turn] = loop.time() + seats[turn].person.reaction()
        return {
            "keys": keys,
            "frames": sum(seat.frames for seat in seats),
            "bytes": sum(seat.bytes for seat in seats),
        }


def host_actions(host: Any) -> list[Any]:
    """The actions the host's round has taken so far."""
    return [] if host.fair is None else list(host.fair.inputs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="virtual seconds counted")
    parser.add_argument("--seed", type=int, default=1, help="the players' seed (default 1)")
    parser.add_argument("--top", type=int, default=0, help="print the N functions called most")
    args = parser.parse_args(argv)
    counted = Counted(by_function=args.top > 0)
    seen = play(args.seconds, args.seed, counted)
    keys, frames = seen["keys"], seen["frames"]
    print(
        f"a table for two on the server, scripted ({args.seconds:g} virtual seconds, seed"
        f" {args.seed}): {keys:.0f} keys, {frames:.0f} frames written ({seen['bytes']:.0f} B)"
    )
    print(
        f"calls {counted.calls}: {counted.calls / max(keys, 1):.0f} a key,"
        f" {counted.calls / max(frames, 1):.0f} a frame, {frames / max(keys, 1):.2f} frames a key"
    )
    for name, count in counted.functions.most_common(args.top):
        print(f"  {count:8d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
