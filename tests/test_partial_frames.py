"""A frame drawn in part is the frame drawn whole: the game draws again only the pieces and
rows whose inputs changed (``draw.canvas.FrameCanvas``) and writes only the cells that
changed (``draw.encode``); across seeded rounds the computer plays against itself,
in-process (``tests/pilot.py``), each frame is checked against the same scene drawn whole
on a fresh canvas, and the screen against that frame written whole (row by row, each row as
writing it alone on a blank screen leaves it), on the way through a resize, the help over
the table, a light terminal's theme and the stress banner."""

from __future__ import annotations

import asyncio
import math
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyte
import pytest
from blessed import Terminal
from pyte.screens import Char

from stress_tui.core.events import Event
from stress_tui.core.rules import Rules
from stress_tui.core.view import table_view
from stress_tui.net.host import HOST_SEAT, JOINER_SEAT
from stress_tui.terminal import frames
from stress_tui.terminal.draw.canvas import Canvas, Cell, Frame, RenderCache, plain_lines
from stress_tui.terminal.draw.encode import encode
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Intent
from stress_tui.terminal.netplay import NetScreen
from stress_tui.terminal.notices import LATE_SECONDS, MARK_SECONDS
from stress_tui.terminal.render import render
from stress_tui.terminal.running import Running
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.server import here
from stress_tui.terminal.tables import ServedClient, ServedHost
from tests.pilot import Pilot, VirtualTimeLoop, game
from tests.test_app_e2e import countdown

BOTS = ("--p1", "bot:normal", "--p2", "bot:normal")


class WholeFrames:
    """Every frame the game renders, drawn whole beside it and compared."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.drawn: list[Frame] = []
        """Each frame as drawn whole, in order."""
        self.texts: list[str] = []
        """Each frame's text, all lines."""
        self.differing: list[int] = []
        """The frames drawn in part that were not the frame drawn whole."""
        self.last: dict[int, Frame] = {}
        """Each screen's last frame drawn whole, by its cache (``RenderCache``: one a
        screen, kept from frame to frame)."""
        self.render = render
        self.row_cells: dict[tuple[Cell, ...], list[Char]] = {}
        """Each row's cells as writing it whole leaves them (``written``)."""

        def render_both(scene: Scene, palette: Palette, canvas: Canvas) -> Frame:
            rows = render(scene, palette, canvas)
            whole = self.whole(scene, palette, canvas)
            if rows != whole:  # said by the test (the game would take it for a crash)
                self.differing.append(len(self.drawn))
            self.drawn.append(whole)
            self.last[id(canvas.cache)] = whole
            self.texts.append("\n".join(plain_lines(whole)))
            return rows

        monkeypatch.setattr(frames, "render", render_both)

    def whole(self, scene: Scene, palette: Palette, canvas: Canvas) -> Frame:
        """``scene`` drawn whole, on a fresh canvas of ``canvas``'s size."""
        fresh = Canvas(canvas.width, canvas.height, canvas.measure, RenderCache())
        return self.render(scene, palette, fresh)

    def check_screen(self, s: Pilot) -> None:
        """The screen shows its last frame exactly as writing it whole would: each of the
        frame's rows as writing that row whole on a blank screen does, blank around them."""
        term = s.endpoint.term
        last = self.last[id(s.app.frames.cache)]
        top, left = s.app.frames.origin
        blank = s.screen.default_char
        for y in range(s.rows):
            shown = s.screen.buffer[y]
            row = [shown[x] for x in range(s.cols)]
            want = [blank] * s.cols
            if top <= y < top + len(last):
                cells = self.written(last[y - top], term)
                want[left : left + len(cells)] = cells
            if row != want:
                x = next(x for x, (a, b) in enumerate(zip(row, want, strict=True)) if a != b)
                raise AssertionError((len(self.drawn), y, x, row[x], want[x]))

    def written(self, row: list[Cell], term: Terminal) -> list[Char]:
        """What writing ``row`` whole (``encode``) leaves on a blank screen, cell by cell;
        kept by the row's cells, as most rows come back from frame to frame."""
        key = tuple(row)
        cells = self.row_cells.get(key)
        if cells is None:
            fresh = pyte.Screen(len(row), 1)
            pyte.ByteStream(fresh).feed(encode(None, [row], term, clear=True).encode())
            cells = self.row_cells[key] = [fresh.buffer[0][x] for x in range(len(row))]
        return cells


def play_round(s: Pilot, whole: WholeFrames, seconds: float = 600.0) -> Iterator[float]:
    """Let the round run, checking the screen after each frame, until the last frame says
    who won it (the screen is that frame: checked); yields the game's virtual time at each
    look, so that the caller can act along the way."""
    deadline = s.now() + seconds
    checked = 0
    while not whole.texts or "wins the round" not in whole.texts[-1]:
        assert s.now() < deadline, "the round never ended"
        s.pump(0.05)
        assert not s.eof, "the game ended"
        assert not whole.differing, f"frames {whole.differing} drawn in part are not whole"
        if len(whole.drawn) > checked:
            checked = len(whole.drawn)
            whole.check_screen(s)
        yield s.now()


@pytest.mark.parametrize(
    ("seed", "background"),
    [(3, None), (2, (250, 250, 245))],
    ids=["dark", "light theme"],
)
def test_every_frame_of_a_round_drawn_in_part_is_the_frame_drawn_whole(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
    background: tuple[int, int, int] | None,
) -> None:
    whole = WholeFrames(monkeypatch)
    with game(tmp_path, "--seed", str(seed), *BOTS, background=background) as s:
        start = s.now()
        done: set[str] = set()
        for now in play_round(s, whole):
            if now - start > 2.0 and "resize" not in done:
                done.add("resize")
                s.resize(30, 100)
            elif now - start > 4.0 and "help" not in done:
                done.add("help")
                s.send("?")
            elif now - start > 5.0 and "help closed" not in done:
                done.add("help closed")
                s.send("\x1b")
                s.pump(0.1)  # the Esc is a key of its own once its delay has passed
            elif now - start > 7.0 and "back" not in done:
                done.add("back")
                s.resize(24, 80)
        assert {"resize", "help", "help closed", "back"} <= done
    assert len(whole.drawn) > 50
    assert any("The rules in play" in text for text in whole.texts), "the help showed"
    assert any("STRESS!" in text for text in whole.texts), "the stress banner showed"


# --------------------------------------------------------------------------- a table for two

TWO_KEYS = [*"asdfjkl;"] * 4 + ["g", "g", "\r", " "]
"""What each player presses at random: the one-player layout's pile keys (``docs/keys.md``),
the ready key, Enter and the stress key."""


async def _at_once(call: Callable[..., Any], *args: Any) -> Any:
    """``asyncio.to_thread`` on the loop itself: on the virtual clock, the loop's clock
    would jump past the handshake's deadline while a thread works out the code's key."""
    return call(*args)


class QuietChanges:
    """Every change at a network table that draws no frame (``NetScreen.on_change``): the
    screen still shows what the table drawn whole shows then."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, whole: WholeFrames) -> None:
        self.count = 0
        """Changes that drew nothing."""
        self.differing: list[str] = []
        """What a change that drew nothing left unsaid."""
        on_change = NetScreen.on_change

        def checked(screen: NetScreen, events: list[Event]) -> None:
            pending = screen.draw_pending
            on_change(screen, events)
            frames = screen.frames
            last = whole.last.get(id(frames.cache))
            timer = screen.timer
            due = timer is not None and timer.when() <= screen.loop_time()
            if pending or screen.draw_pending or last is None or frames.canvas is None or due:
                return  # a frame is on its way (or the screen is not up yet)
            self.count += 1
            now = whole.whole(screen.view(), frames.palette, frames.canvas)
            if now != last:
                self.differing.append(f"{events} at {screen.loop_time():.3f}")

        monkeypatch.setattr(NetScreen, "on_change", checked)


@contextmanager
def table_for_two(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Pilot]]:
    """A table for two on the SSH server (``terminal/tables.py``: its host, Ann, and its
    joiner, Bo, in this process), each end's screen in-process on one virtual clock."""
    monkeypatch.setenv("STRESS_TUI_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(asyncio, "to_thread", _at_once)
    loop = VirtualTimeLoop()
    host = ServedHost(Rules(), "Ann", bind="127.0.0.1", port=0, seed=4)
    loop.run_until_complete(host.start())
    seats: list[Pilot] = []
    client: ServedClient | None = None
    try:
        seats.append(
            Pilot(
                lambda endpoint: NetScreen(
                    endpoint,
                    here(players=("human", "human"), names=("Ann", "Ann")),
                    model=host,
                    seat=HOST_SEAT,
                    join_line="ssh -t join",
                ),
                loop=loop,
            )
        )
        seats[0].wait_text("Waiting for a player", timeout=5)
        client = ServedClient(host, "127.0.0.1", host.port, host.code, "Bo")
        loop.run_until_complete(client.connect())
        joined = client
        seats.append(
            Pilot(
                lambda endpoint: NetScreen(
                    endpoint,
                    here(players=("human", "human"), names=("Bo", "Bo")),
                    model=joined,
                    seat=joined.seat,
                ),
                loop=loop,
            )
        )
        seats[1].wait_text("Bo", timeout=5)
        yield seats
    finally:
        for seat in reversed(seats):
            seat.close()
        if client is not None:
            loop.run_until_complete(client.leave())
        loop.run_until_complete(host.close())
        loop.close()


def test_every_frame_at_a_table_for_two_drawn_in_part_is_the_frame_drawn_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both ends of a table for two, keys at random on both: lockouts and their counts,
    plays and their marks, the help's pause and the count after it, a resize; each frame
    drawn in part is the frame drawn whole, each screen shows its frame as writing it
    whole would, and a change that draws nothing (a key during a lockout) leaves the
    screen as the table drawn whole."""
    whole = WholeFrames(monkeypatch)
    quiet = QuietChanges(monkeypatch, whole)
    with table_for_two(tmp_path, monkeypatch) as seats:
        ann, bo = seats
        rng = random.Random(4)
        start = ann.now()
        done: set[str] = set()
        checked = 0
        while ann.now() - start < 25.0:
            at = ann.now() - start
            if at > 8.0 and "resize" not in done:
                done.add("resize")
                ann.resize(30, 100)
            elif at > 12.0 and "help" not in done:
                done.add("help")
                bo.send("?")
            elif at > 14.0 and "help closed" not in done:
                done.add("help closed")
                bo.send("\x1b")
                bo.pump(0.1)  # the Esc is a key of its own once its delay has passed
            elif at > 20.0 and "back" not in done:
                done.add("back")
                ann.resize(24, 80)
            else:
                rng.choice(seats).send(rng.choice(TWO_KEYS))
            ann.pump(rng.uniform(0.02, 0.2))
            assert not (ann.eof or bo.eof), "a screen ended"
            assert not whole.differing, f"frames {whole.differing} drawn in part are not whole"
            assert not quiet.differing, f"changes that drew nothing: {quiet.differing}"
            if len(whole.drawn) > checked:
                checked = len(whole.drawn)
                for seat in seats:
                    whole.check_screen(seat)
        assert {"resize", "help", "help closed", "back"} <= done
    assert len(whole.drawn) > 200
    texts = "\n".join(whole.texts)
    for shown in ("locked out", "Play goes on at three", "Ann", "Bo"):
        assert shown in texts, shown
    assert quiet.count > 10, "keys during a lockout drew nothing"


def test_the_count_before_play_goes_on_at_a_table_for_two_draws_each_figure_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the help at a table for two, the count to three runs on both screens: each
    screen draws a frame as its figure changes, and none between (a tick that would show
    the same figure draws nothing)."""
    drawn: list[tuple[Running, float]] = []
    draw = Running.draw

    def noted(screen: Running) -> None:
        draw(screen)
        drawn.append((screen, screen.loop_time()))

    monkeypatch.setattr(Running, "draw", noted)
    with table_for_two(tmp_path, monkeypatch) as seats:
        ann, bo = seats
        for seat in seats:
            seat.send("g")  # ready
        ann.wait_text("1", timeout=5)
        ann.pump(1.0)
        bo.send("?")
        bo.wait_text("The rules in play", timeout=5)
        bo.pump(1.0)  # (its keys live)
        bo.send("\x1b")
        ann.wait_text("Play goes on at three", timeout=5)
        began = ann.now()
        ann.wait_for(lambda: "Play goes on" not in ann.text(), timeout=5, what="play going on")
        ended = ann.now()
    for seat in seats:
        during = [at - began for who, at in drawn if who is seat.app and began < at < ended]
        assert len(during) <= 3, f"{len(during)} frames while the count ran: {during}"


@pytest.mark.parametrize("hair", [7e-7, 3e-7], ids=["shown before", "shown after"])
@pytest.mark.parametrize("seat", [0, 1], ids=["host", "joiner"])
def test_a_key_a_hair_before_the_counts_figure_changes_at_a_table_for_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seat: int, hair: float
) -> None:
    """A pile key pressed while the count to the first flip runs, a hair before its
    figure changes ('wait for the flip'), on the host's or the joiner's screen: the count
    shows ``1  2``, then ``1  2  3``, from each figure's time on (the key's frame shows the
    figure before, or, drawn a hair early, the next; or the key draws nothing)."""
    with table_for_two(tmp_path, monkeypatch) as seats:
        for each in seats:
            each.send("g")  # ready
        s = seats[seat]
        s.wait_for(lambda: countdown(s) == "1", timeout=5, what="the count")
        app = s.app
        for figures, shown in ((1, "1  2"), (2, "1  2  3")):
            table = app.table
            assert table.flip_at is not None
            tick = table.flip_at - table.countdown + figures * table.countdown / 3
            s.pump_to(app.clock.when(tick) - hair)
            assert tick - 1e-6 < app.clock.now() < tick
            s.send("a")
            s.pump(0.001)
            assert countdown(s) == shown, f"{countdown(s)!r} at {app.clock.now() - tick:+.4f} s"


COUNTED = re.compile(r"locked out \d+\.\ds")
"""A lockout's time left, counted down in tenths."""


def test_a_lockout_counts_down_on_its_own_players_screen_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A misplay at a table for two: the locked-out player's screen says why and counts
    the lockout's time left down in tenths; the other player's says why and ``locked
    out``, without the count, draws no frame for it until the lockout ends, and one frame
    when it ends (``docs/rules.md``)."""
    seen: dict[Running, Callable[[], str]] = {}
    """Each screen's text as its frames leave it on its terminal."""
    locked: dict[Running, int] = {}
    """How many frames each screen drew that left ``locked out`` on it."""
    cleared: dict[Running, list[float]] = {}
    """When each screen drew a frame that left no ``locked out`` on it, once it had."""
    draw = Running.draw

    def noted(screen: Running) -> None:
        draw(screen)
        if screen not in seen:
            return
        if "locked out" in seen[screen]():
            locked[screen] = locked.get(screen, 0) + 1
        elif screen in locked:
            cleared.setdefault(screen, []).append(screen.loop_time())

    monkeypatch.setattr(Running, "draw", noted)
    with table_for_two(tmp_path, monkeypatch) as seats:
        ann, bo = seats
        seen.update({seat.app: seat.text for seat in seats})
        for seat in seats:
            seat.send("g")  # ready
        keys = iter("asdfjkl;" * 8)
        while not COUNTED.search(bo.text()):  # pile keys until one does not fit
            bo.send(next(keys))
            bo.pump(0.3)
        ann.wait_text("locked out", timeout=1)
        assert not COUNTED.search(ann.text()), ann.dump()
        shown = [COUNTED.search(bo.text())]
        while "locked out" in bo.text():
            bo.pump(0.05)
            shown.append(COUNTED.search(bo.text()))
        ann.wait_for(lambda: "locked out" not in ann.text(), timeout=0.2, what="the end")
        ann.pump(0.01)  # nothing else is due on her screen meanwhile
        at_end = list(cleared[ann.app])
    figures = {found.group() for found in shown if found is not None}
    assert len(figures) >= 3, f"the count on Bo's screen: {figures}"
    assert locked.get(bo.app, 0) >= 3, locked
    # The frame that says it, and at most one other for something else (a delay's figure).
    assert locked.get(ann.app, 0) <= 2, f"{locked.get(ann.app)} frames on Ann's screen"
    assert len(at_end) == 1, f"{len(at_end)} frames on Ann's screen as it ended: {at_end}"


@pytest.mark.parametrize("seat", [0, 1], ids=["host", "joiner"])
def test_a_key_a_hair_before_a_lockouts_tenth_at_a_table_for_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seat: int
) -> None:
    """A player locked out at a table for two presses a key 50 ns before the lockout's
    time left goes down a tenth (the key draws nothing): their screen shows that tenth
    from its time on, not a tenth later."""
    with table_for_two(tmp_path, monkeypatch) as seats:
        for each in seats:
            each.send("g")  # ready
        s = seats[seat]
        keys = iter("asdfjkl;" * 8)
        while not COUNTED.search(s.text()):  # pile keys until one does not fit
            s.send(next(keys))
            s.pump(0.3)
        app = s.app
        assert isinstance(app, NetScreen) and app.seat is not None
        until = app.table.game.state.players[app.seat].locked_until
        tenths = math.ceil((until - app.clock.now()) * 10) - 3  # three tenths on
        tick = until - tenths / 10
        s.pump_to(app.clock.when(tick) - 5e-8)
        assert tick - 1e-7 < app.clock.now() < tick
        s.send("a")
        s.pump(0.001)
        shown = COUNTED.search(s.text())
        assert shown is not None and shown.group() == f"locked out {tenths / 10:.1f}s", shown


def test_a_network_tables_clock_shows_the_time_its_timer_was_set_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At both ends of a table for two, the round's clock a hair short of the time a
    timer was set for (the timer fired early, or the clock's sums came out a hair short)
    shows that time from then on, as at one keyboard: the timer is not set again for it."""
    with table_for_two(tmp_path, monkeypatch) as seats:
        for seat in seats:
            seat.send("g")  # ready
        seats[0].pump(0.3)  # (the round under way at both ends)
        for seat in seats:
            screen = seat.app
            assert isinstance(screen, NetScreen) and screen.link.under_way
            clock = screen.clock
            due = clock.now() + 1e-9
            assert clock.reach(due) == due
            assert clock.now() >= due


def test_each_player_and_spectator_at_a_table_for_two_sees_their_own_ssh_delay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The title of each screen at the SSH server's table for two, a spectator's too, says
    that person's one-way delay over SSH (half the round trip the server's kernel measured
    on their connection), not the loopback inside the server between the table and its
    joiner and spectators, which the table does not ping (nothing to time, nor to go
    silent, in one process)."""
    with table_for_two(tmp_path, monkeypatch) as seats:
        ann, bo = seats
        screen = ann.app
        assert isinstance(screen, NetScreen) and isinstance(screen.link.model, ServedHost)
        host = screen.link.model
        host.paths[HOST_SEAT] = lambda: 0.080
        host.paths[JOINER_SEAT] = lambda: 0.030
        for seat in seats:
            seat.send("g")  # ready: a frame on both screens
        ann.wait_text("delay 40 ms", timeout=5, row=0)
        bo.wait_text("delay 15 ms", timeout=5, row=0)
        watcher = ServedClient(host, "127.0.0.1", host.port, host.code, role="watch")
        watcher.path = lambda: 0.050
        ann.loop.run_until_complete(watcher.connect())
        settings = here(players=("human", "human"), names=("Cy", "Cy"))
        cy = Pilot(
            lambda endpoint: NetScreen(endpoint, settings, model=watcher, seat=None), loop=ann.loop
        )
        try:
            cy.wait_text("delay 25 ms", timeout=5, row=0)
            cy.pump(3.0)
            assert host.joiner is not None and host.joiner.next_ping == 0, "pinged"
            assert "delay 25 ms" in cy.text().splitlines()[0]
        finally:
            cy.close()
            ann.loop.run_until_complete(watcher.leave())


def test_a_mark_goes_with_the_next_frame_drawn_after_its_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flip's marks beside the play piles, their time up, go with the next frame a
    screen draws for anything else (Ann's key that plays nothing, said on the banner),
    not on a frame of their own; on a screen that draws nothing else (Bo's), on one frame
    of their own at most ``LATE_SECONDS`` after their time. What a player sees is the
    mark going a moment later; the frame not drawn is a count."""
    drawn: list[tuple[Running, float]] = []
    draw = Running.draw

    def noted(screen: Running) -> None:
        draw(screen)
        assert isinstance(screen, NetScreen)
        drawn.append((screen, screen.clock.now()))

    monkeypatch.setattr(Running, "draw", noted)
    with table_for_two(tmp_path, monkeypatch) as seats:
        ann, bo = seats
        screen = ann.app
        for seat in seats:
            seat.send("g")  # ready
        ann.wait_for(lambda: "flip" in ann.text(), timeout=5, what="the flip's marks")
        mark = screen.notices.piles[0]
        assert mark is not None and mark.text == "flip"
        ann.pump(mark.until + 0.2 - screen.clock.now())
        assert "flip" in ann.text(), "gone on a frame of its own"
        pressed = screen.clock.now()
        ann.send("x")  # no key here: the banner says so
        ann.wait_text("x is no key", timeout=1)
        assert "flip" not in ann.text(), "not gone with the key's frame"
        bo.pump(LATE_SECONDS)
        assert "flip" not in bo.text(), "still there past its time and LATE_SECONDS"
    late = {
        seat.app: [at - mark.until for who, at in drawn if who is seat.app and at > mark.until]
        for seat in seats
    }
    assert late[ann.app][0] >= pressed - mark.until, f"Ann's frames after its time: {late}"
    assert len([at for at in late[bo.app] if at < LATE_SECONDS + 0.01]) == 1, late


def test_the_joiners_play_at_a_table_for_two_is_drawn_once_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bo, who took the other seat, plays a card that fits: his screen draws it once, with
    the table's answer (from this same process, a moment after the key), the card on the
    play pile and its row pile given the next; not first the card alone, its place empty.
    What Bo sees is the play whole at once; the frame not drawn is a count."""
    drawn: list[Running] = []
    draw = Running.draw

    def noted(screen: Running) -> None:
        draw(screen)
        drawn.append(screen)

    monkeypatch.setattr(Running, "draw", noted)
    with table_for_two(tmp_path, monkeypatch) as seats:
        ann, bo = seats
        host = ann.app.link.model  # type: ignore[attr-defined]
        for seat in seats:
            seat.send("g")  # ready
        ann.wait_for(lambda: "flip" in ann.text(), timeout=5, what="the flip")
        bo.pump(MARK_SECONDS + LATE_SECONDS)  # the flip's marks gone
        seen = table_view(host.fair.game.state)
        pile, target = seen.legal_plays(JOINER_SEAT)[0]
        key = next(
            key
            for key in "asdfjkl;"
            if (found := bo.app.keymap.lookup(key)) is not None
            and found.pile == pile
            and (found.intent is Intent.LEFT) == (target == 0)
        )
        played = len(host.fair.applied)
        drawn.clear()
        bo.send(key)
        bo.wait_for(lambda: len(host.fair.applied) > played, timeout=1, what="the host's table")
        bo.pump(0.1)
        assert drawn.count(bo.app) == 1, f"{drawn.count(bo.app)} frames on Bo's screen"
        assert "Bo" in bo.text()  # the play's mark beside its pile
