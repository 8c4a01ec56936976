"""How the table reads on any terminal: themes with enough contrast, overlays that hide the
table, notices that say what is true now, lines shortened by words, marks for the last
play, ``xN`` with one meaning. Drawn from positions, at the sizes players use."""

from __future__ import annotations

import io
import random

import pyte
import pytest
from blessed import Terminal

from stress_tui.core.actions import Play, ReadyToFlip, StopStress
from stress_tui.core.engine import Game
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.terminal.draw.canvas import Canvas, Frame, plain_lines
from stress_tui.terminal.draw.encode import encode
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.draw.theme import (
    DARK,
    HIGH_CONTRAST,
    LIGHT,
    Ink,
    Theme,
    contrast_ratio,
    xterm_rgb,
)
from stress_tui.terminal.layout import flipped, layout
from stress_tui.terminal.notices import Notices
from stress_tui.terminal.render import render
from stress_tui.terminal.scene import Scene
from stress_tui.terminal.screens.base import ModalScreen
from stress_tui.terminal.screens.help import HelpScreen
from stress_tui.terminal.screens.pause import PauseScreen
from stress_tui.terminal.screens.result import Result, ResultScreen
from tests.test_render import table_at as render_table_at
from tests.test_render import view_of

SIZES = [(60, 16), (80, 24), (160, 48)]

PLAYING = (
    "rules: standard; phase: playing;"
    " p1 row: JS | 2D 2C | 9D | 4C; p1 draw: 5S 6S 7S;"
    " piles: TC 9C 8H | 4H;"
    " p2 row: JC | KS | 5C | TH; p2 draw: 8S 9S"
)


@pytest.fixture(scope="module")
def term() -> Terminal:
    return Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)


def table_at(text: str = PLAYING) -> Table:
    return render_table_at(text)


def draw(
    term: Terminal, view: Scene, width: int = 80, height: int = 24, theme: Theme = DARK
) -> Frame:
    return render(view, Palette(term, theme=theme), Canvas(width, height, term.length))


def lines_of(term: Terminal, view: Scene, width: int = 80, height: int = 24) -> list[str]:
    return plain_lines(draw(term, view, width, height))


# ----------------------------------------------------------------------------- contrast

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
DEFAULT_FG = {True: BLACK, False: (0xE5, 0xE5, 0xE5)}
"""The terminal's own text colour on a light and on a dark background."""
DEFAULT_BG = {True: WHITE, False: BLACK}

_NAMED = {
    name: number
    for number, name in enumerate(
        ("black", "red", "green", "brown", "blue", "magenta", "cyan", "white")
    )
}


def pyte_rgb(colour: str, default: tuple[int, int, int], bright: bool) -> tuple[int, int, int]:
    """A pyte cell colour as RGB (xterm's palette): a name, a hex, or ``default``. A basic
    colour drawn bold shows bright, as in xterm."""
    if colour == "default":
        return default
    if colour in _NAMED:
        return xterm_rgb(_NAMED[colour] + (8 if bright else 0))
    if colour.startswith("bright") and colour[6:] in _NAMED:
        return xterm_rgb(_NAMED[colour[6:]] + 8)
    if colour == "bfightmagenta":  # pyte 0.8.2's spelling of 105
        return xterm_rgb(13)
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def low_contrast_cells(screen: pyte.Screen, light: bool, least: float = 4.5) -> list[str]:
    """Every cell with a visible character whose colour is too close to its background
    (the terminal's default colours taken for ``default``)."""
    bad = []
    for y in range(screen.lines):
        line = screen.buffer[y]
        for x in range(screen.columns):
            cell = line[x]
            if not cell.data.strip():
                continue
            fg = pyte_rgb(cell.fg, DEFAULT_FG[light], cell.bold)
            bg = pyte_rgb(cell.bg, DEFAULT_BG[light], False)
            if cell.reverse:
                fg, bg = bg, fg
            ratio = contrast_ratio(fg, bg)
            if ratio < least:
                bad.append(f"{cell.data!r} at {y},{x}: {cell.fg}/{cell.bg} {ratio:.1f}")
    return bad


def screen_after(frame: Frame, term: Terminal, width: int, height: int) -> pyte.Screen:
    screen = pyte.Screen(width, height)
    pyte.Stream(screen).feed(encode(None, frame, term))
    return screen


def test_every_role_of_the_light_and_high_contrast_themes_reads_on_white() -> None:
    for theme in (LIGHT, HIGH_CONTRAST):
        for role, look in theme.roles.items():
            if role == "card_face":
                continue  # only a background: the suits' roles carry the text on it
            for colours in (256, 8):
                fg, bg = _rgb(look, colours, light=True)
                assert contrast_ratio(fg, bg) >= 4.5, (theme.name, role, colours, fg, bg)


def test_every_role_of_the_dark_theme_reads_on_black() -> None:
    for role, look in DARK.roles.items():
        if role == "card_face":
            continue
        for colours in (256, 8):
            fg, bg = _rgb(look, colours, light=False)
            assert contrast_ratio(fg, bg) >= 4.5, (role, colours, fg, bg)


def test_the_dark_themes_keys_read_on_white_too() -> None:
    # Where the terminal does not say its background (tmux 3.3a answers no one), a light
    # one is drawn for with the dark theme: the keys under the cards must still show.
    for colours in (256, 8):
        fg, bg = _rgb(DARK.roles["hint_key"], colours, light=True)
        assert contrast_ratio(fg, bg) >= 4.5, (colours, fg, bg)


def test_the_light_themes_cards_have_edges_on_white() -> None:
    face = LIGHT.roles["card_face"].bg
    assert face is not None
    assert contrast_ratio(xterm_rgb(face[0]), WHITE) > 1.3


def _rgb(look: Ink, colours: int, light: bool) -> tuple[tuple[int, int, int], ...]:
    """What a role looks like (text, background) on a terminal of ``colours`` colours."""
    attrs = look.attrs if colours >= 256 or look.basic_attrs is None else look.basic_attrs
    bold = "bold" in attrs
    fg: tuple[int, int, int] = DEFAULT_FG[light]
    bg: tuple[int, int, int] = DEFAULT_BG[light]
    if look.fg is not None:
        rich, basic = look.fg
        fg = xterm_rgb(rich if colours >= 256 else basic % 8 + (8 if bold else 0))
    if look.bg is not None:
        rich, basic = look.bg
        bg = xterm_rgb(rich if colours >= 256 else basic % 8)
    if "reverse" in attrs:
        fg, bg = bg, fg
    return fg, bg


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("colours", [256, 8])
def test_no_text_of_the_light_table_is_too_close_to_white(
    width: int, height: int, colours: int
) -> None:
    kind = "xterm-256color" if colours == 256 else "xterm"
    term = Terminal(kind=kind, stream=io.StringIO(), force_styling=True)
    table = table_at()
    notices = Notices()
    notices.note(table.submit(Play(0, 1, 0, 1.0)), 1.0, table.game)  # a misplay: a warning
    notices.note(table.submit(ReadyToFlip(1, 1.1)), 1.1, table.game)
    for overlay in (None, PauseScreen(), HelpScreen()):
        view = view_of(table, now=1.2, notices=notices, overlay=overlay, seed=7)
        frame = draw(term, view, width, height, theme=LIGHT)
        bad = low_contrast_cells(screen_after(frame, term, width, height), light=True)
        assert not bad, bad[:5]


# ----------------------------------------------------------------------------- overlays


def card_marks(lines: list[str], lay_rows: range) -> list[str]:
    return [line for y, line in enumerate(lines) if y in lay_rows and ("♠" in line or "♣" in line)]


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("overlay", [PauseScreen(), HelpScreen(), ResultScreen()])
def test_an_overlay_hides_the_whole_table(
    term: Terminal, width: int, height: int, overlay: ModalScreen
) -> None:
    table = table_at()
    result = Result(0, False, keys_live=True)
    view = view_of(table, overlay=overlay, result=result, seed=3)
    lines = lines_of(term, view, width, height)
    body = "\n".join(lines[1:])
    for piece in ("♠", "♣", "♦", "♥", "draw 3", "wins 0/", "<q ", "3 cards", "computer,"):
        assert piece not in body, (piece, body)
    assert "STRESS" in lines[0]


# ----------------------------------------------------------------------------- notices


def notice_line(term: Terminal, view: Scene, player: int, width: int = 80) -> str:
    lay = layout(width, 24, view.rules.row_size)
    assert lay is not None
    if view.bottom == 0:
        lay = flipped(lay)
    return lines_of(term, view, width)[lay.notice_y[player]].strip()


def test_both_ready_leaves_no_waiting_notice(term: Terminal) -> None:
    table = table_at()
    notices = Notices()
    notices.note(table.submit(ReadyToFlip(1, 1.0)), 1.0, table.game)
    assert "waiting for Player 1" in notice_line(term, view_of(table, now=1.0, notices=notices), 1)
    notices.note(table.submit(ReadyToFlip(0, 1.1)), 1.1, table.game)
    view = view_of(table, now=1.1, notices=notices)
    lines = "\n".join(lines_of(term, view))
    assert "Both ready" in lines
    assert "waiting" not in lines


def test_a_lockout_keeps_its_reason_and_counts_down(term: Terminal) -> None:
    table = table_at()
    notices = Notices()
    notices.note(table.submit(Play(0, 1, 0, 1.0)), 1.0, table.game)  # 2 on 8: a misplay
    line = notice_line(term, view_of(table, now=1.0, notices=notices), 0)
    assert line == "2 on 8: not one rank above or below; locked out 0.8s"
    # A second key during the lockout: the reason stays, the time left goes down.
    notices.note(table.submit(Play(0, 0, 0, 1.3)), 1.3, table.game)
    line = notice_line(term, view_of(table, now=1.3, notices=notices), 0)
    assert line == "2 on 8: not one rank above or below; locked out 0.5s"
    # At 60 columns the reason is said short, never cut.
    line = notice_line(term, view_of(table, now=1.3, notices=notices), 0, width=60)
    assert line == "2 on 8: no fit; locked out 0.5s"
    # Once it is over, the lockout is not mentioned.
    line = notice_line(term, view_of(table, now=1.8, notices=notices), 0)
    assert "locked" not in line


def test_wait_for_the_flip_goes_with_the_flip(term: Terminal) -> None:
    table = Table(Game.deal(Rules(), random.Random(4)))
    table.start(0.0)
    notices = Notices()
    notices.note(table.submit(Play(0, 0, 0, 0.1)), 0.1, table.game)
    assert "wait for the flip" in notice_line(term, view_of(table, now=0.1, notices=notices), 0)
    events = table.advance(table.countdown)
    notices.note(events, table.countdown, table.game)
    assert "wait for the flip" not in notice_line(
        term, view_of(table, now=table.countdown, notices=notices), 0
    )


def test_a_refused_stress_stop_is_said_short_not_cut(term: Terminal) -> None:
    rules = "rules: jass; phase: playing;"
    table = table_at(
        rules + " p1 row: JS | 8D | 9D | QC; p1 draw: 6S; piles: TC | AH;"
        " p2 row: JC | KS | 6C | TH; p2 draw: 8S"
    )
    notices = Notices()
    notices.note(table.submit(StopStress(0, 1.0)), 1.0, table.game)
    for width in (60, 80):
        line = notice_line(term, view_of(table, now=1.0, notices=notices), 0, width)
        assert line in (
            "stress stop: no card of the opponent's would make stress",
            "stop: no stress to stop",
        )
        assert not line.endswith("str")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_rule_line_keeps_the_match_length(term: Terminal, width: int, height: int) -> None:
    table = table_at(
        "rules: jass; phase: playing; p1 row: JS | 8D | 9D | QC; p1 draw: 6S;"
        " piles: TC | AH; p2 row: JC | KS | 6C | TH; p2 draw: 8S"
    )
    title = lines_of(term, view_of(table), width, height)[0]
    assert "5 wins" in title
    assert "? help" in title


# ----------------------------------------------------------------------------- the last play


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_last_play_on_each_pile_says_whose_card_it_is(
    term: Terminal, width: int, height: int
) -> None:
    table = table_at()
    notices = Notices(("Ann", "Bob"))
    notices.note(table.submit(Play(0, 2, 0, 1.0)), 1.0, table.game)  # Ann's 9 onto the 8
    notices.note(table.submit(Play(1, 2, 1, 1.1)), 1.1, table.game)  # Bob's 5 onto the 4
    view = view_of(table, now=1.2, notices=notices, names=("Ann", "Bob"))
    lay = layout(width, height, 4)
    assert lay is not None
    mid = lay.piles_y + lay.card_h // 2
    lines = lines_of(term, view, width, height)
    # (the column right beside each card is the bar that says a card just landed there)
    assert lines[mid + 1][: lay.pile_x[0] - 1].split() == ["Ann"]
    assert lines[mid + 1][lay.pile_x[1] + lay.card_w + 1 :].split() == ["Bob"]
    # They go after a moment.
    notices.expire(1.1 + 1.6)
    lines = lines_of(term, view_of(table, now=2.7, notices=notices), width, height)
    assert "Ann" not in lines[mid + 1] and "Bob" not in lines[mid + 1]


@pytest.mark.parametrize("ascii_only", [False, True])
def test_a_name_with_no_room_beside_its_pile_is_an_arrow_to_its_row(
    term: Terminal, ascii_only: bool
) -> None:
    table = table_at()
    names = ("Ann", "Bartholomew")  # longer than the room beside a narrow right pile
    notices = Notices(names)
    notices.note(table.submit(Play(1, 2, 1, 1.0)), 1.0, table.game)  # Bart's 5 onto the 4
    lay = layout(60, 16, 4)
    assert lay is not None
    right = lay.pile_x[1] + lay.card_w + 1  # past the bar beside the card
    mid = lay.piles_y + lay.card_h // 2
    for bottom, down in ((1, True), (0, False)):  # player 2 at the bottom, then at the top
        view = view_of(
            table, now=1.0, notices=notices, ascii=ascii_only, bottom=bottom, names=names
        )
        shown = flipped(lay) if bottom == 0 else lay
        mark = lines_of(term, view, 60, 16)[mid + 1][right:].strip()
        assert shown.rows_y[1] > shown.piles_y if down else shown.rows_y[1] < shown.piles_y
        assert mark == {(False, True): "▼", (False, False): "▲"}.get(
            (ascii_only, down), "v" if down else "^"
        )
    wide = layout(80, 24, 4)  # where the name fits, the name
    assert wide is not None
    line = lines_of(term, view_of(table, now=1.0, notices=notices, names=names))[wide.piles_y + 3]
    assert line[wide.pile_x[1] + wide.card_w + 1 :].strip() == "Bartholomew"


def test_a_refill_is_marked_between_the_piles_keys(term: Terminal) -> None:
    table = table_at()
    notices = Notices()
    notices.note(table.submit(Play(1, 2, 1, 1.0)), 1.0, table.game)  # the 5 onto the 4
    lay = layout(80, 24, 4)
    assert lay is not None
    line = lines_of(term, view_of(table, now=1.0, notices=notices))[lay.hints_y[1]]
    assert line.split()[4:7] == ["<o", "new", "l>"]


# ----------------------------------------------------------------------------- xN


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_x_n_is_a_stack_in_a_row_never_a_play_piles_size(
    term: Terminal, width: int, height: int
) -> None:
    lay = layout(width, height, 4)
    assert lay is not None
    lines = lines_of(term, view_of(table_at()), width, height)
    middle = "\n".join(lines[lay.piles_y : lay.piles_y + lay.card_h])
    assert "x3" not in middle and "3 cards" in middle  # the play pile: said beside it
    row = "\n".join(lines[lay.rows_y[0] : lay.rows_y[0] + lay.card_h])
    assert "x2" in row  # the stacked 2s


def test_the_themes_asked_for_are_the_themes_there_are() -> None:
    from stress_tui.core.choices import THEME_NAMES
    from stress_tui.terminal.draw.theme import THEME_CHOICES, THEMES

    assert THEME_NAMES == THEME_CHOICES
    assert set(THEMES) == set(THEME_NAMES) - {"auto"}


def test_beside_small_cards_the_keys_are_whole_pairs(term: Terminal) -> None:
    table = table_at(
        "rules: jass; phase: playing; p1 row: JS | 8D | 9D | QC; p1 draw: 6S;"
        " piles: TC | AH; p2 row: JC | KS | 6C | TH; p2 draw: 8S"
    )
    lay = layout(60, 16, 4)
    assert lay is not None and lay.card_h == 3
    line = lines_of(term, view_of(table), 60, 16)[lay.rows_y[0] + 2][: lay.info_w]
    words = line.split()
    assert words[:4] == ["stress", "v", "ready", "c"]
    assert len(words) % 2 == 0  # never a name without its key, nor a word cut ("sto")


def test_the_result_table_lines_up_wide_names(term: Terminal) -> None:
    from stress_tui.core.stats import PlayerStats, RoundStats

    stats = RoundStats((PlayerStats(), PlayerStats()), 0, 12.0)
    names = ("漢字の名前", "Bo")
    view = view_of(
        table_at(),
        overlay=ResultScreen(),
        result=Result(0, True, keys_live=True, stats=stats),
        names=names,
    )
    frame = draw(term, view, 80, 24)
    rows = [[ch for ch, _style in row] for row in frame]
    # The cell where "Bo" starts on the names' row is where the second column of figures
    # starts on the rows below (the wide name's second halves are empty cells, "").
    text = ["".join(ch or "\0" for ch in row) for row in rows]
    head = next(y for y, line in enumerate(text) if "cards played" in line) - 1
    below = text[head + 1]
    assert "漢" in text[head]
    assert below.index("0", text[head].index("Bo") - 1) == text[head].index("Bo")
