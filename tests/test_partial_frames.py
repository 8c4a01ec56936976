"""A frame drawn in part is the frame drawn whole: the game draws again only the pieces and
rows whose inputs changed (``draw.canvas.FrameCanvas``) and writes only the cells that
changed (``draw.encode``); across seeded rounds the computer plays against itself,
in-process (``tests/pilot.py``), each frame is checked against the same scene drawn whole
on a fresh canvas, and the screen against that frame written whole, on the way through a
resize, the help over the table, a light terminal's theme and the stress banner."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyte
import pytest

from stress_tui.terminal import frames
from stress_tui.terminal.draw.canvas import Canvas, Frame, RenderCache, plain_lines
from stress_tui.terminal.draw.encode import encode
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.scene import Scene
from tests.pilot import Pilot, game

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
        from stress_tui.terminal.render import render

        def render_both(scene: Scene, palette: Palette, canvas: Canvas) -> Frame:
            rows = render(scene, palette, canvas)
            fresh = Canvas(canvas.width, canvas.height, canvas.measure, RenderCache())
            whole = render(scene, palette, fresh)
            if rows != whole:  # said by the test (the game would take it for a crash)
                self.differing.append(len(self.drawn))
            self.drawn.append(whole)
            self.texts.append("\n".join(plain_lines(whole)))
            return rows

        monkeypatch.setattr(frames, "render", render_both)

    def check_screen(self, s: Pilot) -> None:
        """The screen shows the last frame exactly as writing it whole would."""
        term = s.endpoint.term
        fresh = pyte.Screen(s.cols, s.rows)
        whole = encode(None, self.drawn[-1], term, clear=term.clear, origin=s.app.frames.origin)
        pyte.ByteStream(fresh).feed(whole.encode())
        for y in range(s.rows):
            for x in range(s.cols):
                a, b = s.screen.buffer[y][x], fresh.buffer[y][x]
                assert (a.data, a.fg, a.bg, a.bold, a.reverse) == (
                    b.data,
                    b.fg,
                    b.bg,
                    b.bold,
                    b.reverse,
                ), (len(self.drawn), y, x)


def play_round(s: Pilot, whole: WholeFrames, seconds: float = 600.0) -> Iterator[float]:
    """Let the round run, checking the screen after each frame; yields the game's virtual
    time at each look, so that the caller can act along the way."""
    deadline = s.now() + seconds
    checked = 0
    while "wins the round" not in s.text():
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
