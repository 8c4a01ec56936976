"""A piece kept from the last frame is put back only when it would be drawn the same: random
tables, frame after frame on one kept canvas (``FrameCanvas``) whose cache has the counts
drawn ahead (``counts.warm_counts``, as the game draws them), each frame against the same
table drawn whole on a fresh canvas with nothing drawn before. A piece or a drawing kept by
a key that leaves out something it shows (a stack's size under the same top card, a score,
a name, a key map...) shows the last frame's instead, and this fails."""

from __future__ import annotations

import io
import random

import pytest
from blessed import Terminal

from stress_tui.core.engine import Game
from stress_tui.core.notation import parse_position
from stress_tui.core.table import Table
from stress_tui.terminal.counts import warm_counts
from stress_tui.terminal.draw.canvas import Canvas, FrameCanvas, RenderCache
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import default_keymap
from stress_tui.terminal.layout import layout
from stress_tui.terminal.notices import Notices
from stress_tui.terminal.render import render
from stress_tui.terminal.scene import Scene

RANKS = "23456789TJQKA"
"""Each place's rank, in the order of the places (no card is on the table twice)."""

PLACES = 12
"""The piles a table is made of: both rows (0 to 7), the play piles, the draw piles (10
and 11)."""

PLAY_PILES = (8, 9)
"""The places of the two play piles."""

KEYMAPS = [(("human", "human"), "us"), (("human", "human"), "fr"), (("human", "bot:normal"), "us")]
"""The key maps a table is drawn with: whose keys, on which keyboard."""


@pytest.fixture(scope="module")
def term() -> Terminal:
    return Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)


def pile(place: int, shown: int) -> str:
    """One of the few piles a place takes (``shown``): a card alone, the same card on
    another of its rank (a stack of two, or a play pile of two), that other card alone,
    or nothing (a play pile is never empty in play)."""
    rank = RANKS[place]
    forms = [f"{rank}C", f"{rank}D {rank}C", f"{rank}D", "-"]
    return forms[shown % (3 if place in PLAY_PILES else 4)]


CHOICES = {
    **{f"pile {place}": 3 if place in PLAY_PILES else 4 for place in range(PLACES)},
    "wins": 2,
    "stress stop": 2,
    "kinds": 2,
    "keymap": len(KEYMAPS),
    "name 1": 2,
    "name 2": 2,
    "score 1": 2,
    "score 2": 2,
    "ascii": 2,
    "bottom": 2,
}
"""What a table drawn here shows, and how many values each thing takes."""


def scene_of(shown: dict[str, int]) -> Scene:
    """The table ``shown`` says (each thing's value by its index)."""
    piles = [pile(place, shown[f"pile {place}"]) for place in range(PLACES)]
    stop = ["off", "on"][shown["stress stop"]]
    text = (
        f"rules: standard wins={2 + shown['wins']} stress-stop={stop}; phase: playing;"
        f" p1 row: {' | '.join(piles[0:4])}; p1 draw: {piles[10]};"
        f" piles: {' | '.join(piles[8:10])};"
        f" p2 row: {' | '.join(piles[4:8])}; p2 draw: {piles[11]}"
    )
    return Scene(
        table=Table(Game(parse_position(text), random.Random(1))),
        now=0.0,
        keymap=default_keymap(*KEYMAPS[shown["keymap"]]),
        notices=Notices(),
        names=(["Ann", "Bo"][shown["name 1"]], ["Cy", "Di"][shown["name 2"]]),
        kinds=[("human", "human"), ("human", "bot:normal")][shown["kinds"]],
        score=(shown["score 1"], shown["score 2"]),
        ascii=bool(shown["ascii"]),
        bottom=shown["bottom"],
    )


@pytest.mark.parametrize("seed", range(3))
def test_every_frame_drawn_on_a_kept_canvas_is_the_frame_drawn_afresh(
    term: Terminal, seed: int
) -> None:
    """Frame after frame, one or two things on the table change (a pile, a name, the
    score, the keys...), now and then the window's size; each frame drawn on the kept
    canvas is the one a fresh canvas and cache draw. (Checked to fail with any one of the
    things a piece or a card's drawing shows left out of its key.)"""
    rng = random.Random(seed)
    palette = Palette(term, colour=True, four_colour=seed == 1)
    cache = RenderCache()
    size = (80, 24)
    canvas = FrameCanvas(*size, term.length, cache)
    shown = {name: 0 for name in CHOICES}
    warm = True
    for frame in range(400):
        if rng.random() < 0.05:  # as the game does on a resize: a new canvas, the cache kept
            size = (100, 30) if size == (80, 24) else (80, 24)
            canvas = FrameCanvas(*size, term.length, cache)
            warm = True
        for name in rng.sample(sorted(CHOICES), rng.choice([1, 1, 2])):
            shown[name] = (shown[name] + rng.randrange(1, CHOICES[name])) % CHOICES[name]
        scene = scene_of(shown)
        if warm:  # and then, as the game does, its counts drawn ahead
            lay = layout(*size, scene.rules.row_size)
            assert lay is not None
            warm_counts(scene, palette, Canvas(0, 0, term.length, cache), lay)
            warm = False
        kept = render(scene, palette, canvas)
        fresh = render(scene, palette, Canvas(*size, term.length, RenderCache()))
        assert kept == fresh, (frame, shown)
