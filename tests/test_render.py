"""The screen, drawn from positions: it fits, it says what happened, it sends only changes."""

from __future__ import annotations

import io
import itertools
import random
from typing import cast

import pyte
import pytest
from blessed import Terminal

from stress_tui.core.actions import CallStress, Play, ReadyToFlip, StopStress
from stress_tui.core.cards import Suit
from stress_tui.core.engine import Game
from stress_tui.core.notation import parse_position
from stress_tui.core.rules import Rules
from stress_tui.core.table import Table
from stress_tui.terminal.draw.canvas import Canvas, Frame, FrameCanvas, RenderCache, plain_lines
from stress_tui.terminal.draw.encode import encode
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import default_keymap
from stress_tui.terminal.layout import MIN_HEIGHT, MIN_WIDTH, layout
from stress_tui.terminal.layout import flipped as turned
from stress_tui.terminal.notices import Notices
from stress_tui.terminal.pieces import count_up, countdown_text, countdown_ticks, lockout_ticks
from stress_tui.terminal.render import render
from stress_tui.terminal.scene import Scene, person_at_bottom
from stress_tui.terminal.screens.help import HelpScreen, help_lines
from stress_tui.terminal.screens.pause import PauseScreen
from stress_tui.terminal.screens.result import Result, ResultScreen

PLAYING = (
    "rules: standard; phase: playing;"
    " p1 row: JS | 2D 2C | 9D | 4C; p1 draw: 5S 6S 7S;"
    " piles: TC | 4H;"
    " p2 row: JC | KS | 5C | TH; p2 draw: 8S 9S"
)


@pytest.fixture(scope="module")
def term() -> Terminal:
    return Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)


def table_at(text: str = PLAYING) -> Table:
    table = Table(Game(parse_position(text), random.Random(1)))
    table.start(table.game.state.time)
    return table


def view_of(table: Table, **kw: object) -> Scene:
    fields: dict[str, object] = {
        "table": table,
        "now": table.game.state.time,
        "keymap": default_keymap(),
        "notices": Notices(),
    }
    fields.update(kw)
    return Scene(**fields)  # type: ignore[arg-type]


def draw(term: Terminal, view: Scene, width: int = 80, height: int = 24, **palette: bool) -> Frame:
    colour, four = palette.get("colour", True), palette.get("four_colour", False)
    return render(view, Palette(term, colour, four), Canvas(width, height, term.length))


def text(frame: Frame) -> str:
    return "\n".join(plain_lines(frame))


def screen_of(term: Terminal, data: str, width: int, height: int) -> pyte.Screen:
    screen = pyte.Screen(width, height)
    pyte.Stream(screen).feed(data)
    return screen


# ----------------------------------------------------------------------------- fitting


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40), (60, 16), (200, 60)])
def test_the_table_fits_the_screen(term: Terminal, width: int, height: int) -> None:
    frame = draw(term, view_of(table_at()), width, height)
    assert len(frame) == height
    for row in frame:
        assert len(row) == width
        line = "".join(ch for ch, _ in row)
        assert term.length(line) == width


def test_bigger_terminals_get_bigger_cards() -> None:
    small, medium, large = layout(60, 16, 4), layout(80, 24, 4), layout(120, 40, 4)
    assert small is not None and medium is not None and large is not None
    assert small.card_h < medium.card_h < large.card_h
    assert small.card_w < medium.card_w < large.card_w


def test_three_rows_top_middle_bottom(term: Terminal) -> None:
    lay = layout(80, 24, 4)
    assert lay is not None
    lines = plain_lines(draw(term, view_of(table_at())))
    assert lay.rows_y[0] < lay.piles_y < lay.rows_y[1]
    assert "Player 1" in lines[lay.rows_y[0]]
    assert "Player 2" in lines[lay.rows_y[1]]
    assert "10♣" in lines[lay.piles_y] and "4♥" in lines[lay.piles_y]
    # Name, draw pile and score beside each row.
    assert "draw 3" in lines[lay.rows_y[0] + 1] and "wins 0/3" in lines[lay.rows_y[0] + 1]
    assert "draw 2" in lines[lay.rows_y[1] + 1]
    # A stacked pile says how many cards it holds; a play pile too.
    assert "x2" in text(draw(term, view_of(table_at())))
    assert "1 card" in lines[lay.piles_y + lay.card_h // 2]


def test_the_keys_are_under_every_pile(term: Terminal) -> None:
    lay = layout(80, 24, 4)
    assert lay is not None
    lines = plain_lines(draw(term, view_of(table_at())))
    for player, (lefts, rights) in enumerate((("qwer", "asdf"), ("uiop", "jkl;"))):
        hints = lines[lay.hints_y[player]]
        for i in range(4):
            x = lay.row_x + i * (lay.card_w + lay.gap)
            under = hints[x : x + lay.card_w]
            assert under == f"<{lefts[i]}" + " " * (lay.card_w - 4) + f"{rights[i]}>"
    assert "stress v" in lines[lay.rows_y[0] + 2]
    assert "stress m" in lines[lay.rows_y[1] + 2]


@pytest.mark.parametrize("human", [0, 1])
def test_a_computer_row_has_no_keys_and_the_person_sits_at_the_bottom(
    term: Terminal, human: int
) -> None:
    players = ("human", "bot:hard") if human == 0 else ("bot:hard", "human")
    view = view_of(
        table_at(), keymap=default_keymap(players), kinds=players, bottom=person_at_bottom(players)
    )
    lay = layout(80, 24, 4)
    assert lay is not None
    if view.bottom == 0:
        lay = turned(lay)
    computer = 1 - human
    assert lay.rows_y[human] > lay.piles_y > lay.rows_y[computer]  # the person at the bottom
    lines = plain_lines(draw(term, view))
    assert lines[lay.hints_y[computer]].strip() == ""
    assert "computer, hard" in "\n".join(lines[lay.rows_y[computer] : lay.rows_y[computer] + 3])
    assert "Spc" in lines[lay.rows_y[human] + 2]  # the solo layout: stress on the space bar


def test_skat_rows_of_three(term: Terminal) -> None:
    position = (
        "rules: skat; phase: playing; p1 row: JS | 9D | 7C; p1 draw: 8S;"
        " piles: TC | KH; p2 row: JC | KS | AC; p2 draw: 8H"
    )
    lay = layout(80, 24, 3)
    assert lay is not None
    lines = plain_lines(draw(term, view_of(table_at(position))))
    assert lines[lay.hints_y[0]].split() == ["<q", "a>", "<w", "s>", "<e", "d>"]


def test_ascii_draws_suits_as_letters(term: Terminal) -> None:
    frame = text(draw(term, view_of(table_at(), ascii=True)))
    assert not set(frame) & {s.symbol for s in Suit}
    assert "10C" in frame and "4H" in frame and "JS" in frame


def test_jokers_show_as_jokers(term: Terminal) -> None:
    position = (
        "rules: standard jokers=2; phase: playing; p1 row: ** | 2D | 9D | 4C; p1 draw: 5S;"
        " piles: TC | 4H; p2 row: JC | KS | 5C | TH; p2 draw: 8S"
    )
    frame = text(draw(term, view_of(table_at(position))))
    assert "JOKER" in frame and "JK" in frame


def test_wide_suits_still_fit(term: Terminal) -> None:
    wide = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
    wide.ambiguous_width = 2
    assert wide.length("♠") == 2
    frame = draw(wide, view_of(table_at()))
    for row in frame:
        assert wide.length("".join(ch for ch, _ in row)) == 80


def test_too_small_asks_for_a_larger_window(term: Terminal) -> None:
    assert layout(MIN_WIDTH - 1, 24, 4) is None
    assert layout(80, MIN_HEIGHT - 1, 4) is None
    assert layout(MIN_WIDTH, MIN_HEIGHT, 4) is not None
    lines = plain_lines(draw(term, view_of(table_at()), 50, 12))
    assert "Make the window larger" in "\n".join(lines)
    assert "60x16, this is 50x12" in "\n".join(lines)
    tiny = plain_lines(draw(term, view_of(table_at()), 12, 3))
    assert "Too small" in "\n".join(tiny)


# ----------------------------------------------------------------------------- colour


def test_red_and_black_and_four_colours(term: Terminal) -> None:
    two = Palette(term)
    assert two.suit_styles[Suit.HEARTS.value] == two.suit_styles[Suit.DIAMONDS.value]
    assert two.suit_styles[Suit.SPADES.value] == two.suit_styles[Suit.CLUBS.value]
    assert two.suit_styles[Suit.HEARTS.value] != two.suit_styles[Suit.SPADES.value]
    four = Palette(term, four_colour=True)
    assert len(set(four.suit_styles.values())) == 4


def test_no_colour_uses_no_colour(term: Terminal) -> None:
    frame = draw(term, view_of(table_at()), colour=False)
    styles = {style for row in frame for _, style in row}
    assert not any("38;" in s or "48;" in s for s in styles)
    out = encode(None, frame, term)
    screen = screen_of(term, out, 80, 24)
    assert {(c.fg, c.bg) for line in screen.buffer.values() for c in line.values()} == {
        ("default", "default")
    }
    lay = layout(80, 24, 4)
    assert lay is not None
    assert screen.buffer[lay.piles_y][lay.pile_x[0]].reverse


# ----------------------------------------------------------------------------- notices


def test_a_rejected_play_is_shown_next_to_its_player(term: Terminal) -> None:
    table = table_at()
    notices = Notices()
    events = table.submit(Play(0, 1, 0, 1.0))  # the 2s onto the 10
    notices.note(events, 1.0, table.game)
    notice = notices.player[0]
    assert notice is not None and notice.text == "2 on 10: not one rank above or below"
    lay = layout(80, 24, 4)
    assert lay is not None
    lines = plain_lines(draw(term, view_of(table, now=1.0, notices=notices)))
    assert "2 on 10: not one rank above or below; locked out 0.8s" in lines[lay.notice_y[0]]
    assert notices.next_expiry() == pytest.approx(3.0)
    assert notices.expire(3.0) and notices.player[0] is None


def test_stress_then_who_won_it(term: Terminal) -> None:
    position = (
        "rules: standard; phase: playing; p1 row: QS | 2D | 9D | 4C; p1 draw: 5S;"
        " piles: KC | QD; p2 row: JC | KS | 5C | TH; p2 draw: 8S"
    )
    table = table_at(position)
    notices = Notices()
    notices.note(table.submit(Play(0, 0, 0, 1.0)), 1.0, table.game)
    lay = layout(80, 24, 4)
    assert lay is not None
    lines = plain_lines(draw(term, view_of(table, now=1.0, notices=notices)))
    assert "STRESS!" in lines[lay.banner_y] and "v or m" in lines[lay.banner_y]
    notices.note(table.submit(CallStress(1, 1.2)), 1.2, table.game)
    lines = plain_lines(draw(term, view_of(table, now=1.2, notices=notices)))
    assert "Player 2 called stress first: Player 1 takes 3 cards" in lines[lay.banner_y]
    assert "too slow" in lines[lay.notice_y[0]]


def test_a_round_without_progress_is_drawn_and_the_table_and_the_result_say_why(
    term: Terminal,
) -> None:
    """000 and 001 name only the player who lays the last card as the round's winner: a
    round ended by the guard is drawn, the banner says so and stays (p2, with one card
    fewer, does not win it), and the result screen says why."""
    from stress_tui.terminal.roundlog import drawn_because

    limit = Rules.for_deck("standard").stale_limit
    position = (
        f"rules: standard; phase: playing; stale: {limit - 1};"
        " p1 row: 5H | 7C | 8C | 6C; p1 draw: 2C; p1 state: fewest=3;"
        " piles: 4S | 2D; p2 row: 9D | - | - | -"
    )
    table = table_at(position)
    notices = Notices()
    happened = table.submit(Play(0, 0, 0, 1.0))
    notices.note(happened, 1.0, table.game)
    lay = layout(80, 24, 4)
    assert lay is not None
    lines = plain_lines(draw(term, view_of(table, now=1.0, notices=notices)))
    banner = f"{limit} plays and nobody nearer the end: a drawn round, dealt again"
    assert banner in lines[lay.banner_y]
    why = drawn_because(happened, table.game.rules)
    assert why == f"Drawn, for nobody: {limit} plays and nobody nearer the end"
    result = Result(None, False, keys_live=True, headline=why)
    shown = text(draw(term, view_of(table, now=1.0, overlay=ResultScreen(), result=result)))
    assert why in shown and "wins the" not in shown and "Enter: next round" in shown


def test_a_stress_stop_says_which_cards_it_points_at(term: Terminal) -> None:
    """001 (Swiss): one points "auf die potentielle Stress-Karte des Gegenüber": the
    screen says which of the opponent's cards the stop covers (both tens here)."""
    position = (
        "rules: jass; phase: playing; p1 row: 9H | 7H | QH | KH; p1 draw: 6C;"
        " piles: 9C | TD; p2 row: TC | 8S | TS | 7S; p2 draw: AC QD"
    )
    table = table_at(position)
    notices = Notices()
    notices.note(table.submit(StopStress(0, 1.0)), 1.0, table.game)
    lay = layout(80, 24, 4)
    assert lay is not None
    lines = plain_lines(draw(term, view_of(table, now=1.0, notices=notices)))
    assert "stress stop on 10, 10: laid next, no stress" in "\n".join(lines)


def test_ready_to_flip_waits_for_the_other(term: Terminal) -> None:
    table = table_at()
    notices = Notices()
    notices.note(table.submit(ReadyToFlip(1, 1.0)), 1.0, table.game)
    notice = notices.player[1]
    assert notice is not None and notice.text == "ready to flip (waiting for Player 1)"
    notices.note(table.submit(ReadyToFlip(0, 1.1)), 1.1, table.game)
    headline = notices.headline
    assert headline is not None and "Both ready" in headline.text
    notices.note(table.advance(1.1 + table.countdown), 2.5, table.game)
    assert notices.player[1] is None and notices.headline is None


def test_the_count_before_a_flip() -> None:
    table = Table(Game.deal(Rules(), random.Random(1)))
    table.start(0.0)
    assert [countdown_text(table, t) for t in (0.0, 0.39, 0.41, 0.81, 1.19)] == [
        "1",
        "1",
        "1  2",
        "1  2  3",
        "1  2  3",
    ]
    table.advance(1.2)
    assert countdown_text(table, 1.2) is None


def test_each_figure_of_a_count_and_tenth_of_a_lockout_is_due_until_its_time_has_come() -> None:
    """The time a timer is set for to draw the count's next figure, or a lockout's next
    tenth: a figure a hair ahead (less than the microsecond a clock's sums miss by) is still
    due, though the frame drawn now may show it already; once its time has come, the next
    one is (a timer never set again for a time the clock has reached)."""
    table = Table(Game.deal(Rules(), random.Random(1)))
    table.start(0.0)
    third = table.countdown / 3
    figures = [third, 2 * third]
    for tick in figures:
        for hair in (7e-7, 3e-7, 1e-9):
            assert countdown_ticks(table, tick - hair) == tick
        assert count_up(table.countdown - tick, table.countdown) == 1 + figures.index(tick) + 1
    assert countdown_ticks(table, figures[0]) == figures[1]
    assert countdown_ticks(table, figures[1]) is None
    locked = "p1 draw: 5S 6S 7S; p1 state: locked-until=4.5;"
    table = table_at(PLAYING.replace("p1 draw: 5S 6S 7S;", locked))
    tenths = [4.5 - n / 10 for n in range(30, 0, -1)] + [4.5]
    for before, tick in itertools.pairwise(tenths):
        for hair in (7e-7, 5e-8, 1e-9):
            assert lockout_ticks(table, tick - hair, (True, True)) == tick
        assert lockout_ticks(table, before, (True, True)) == tick
    assert lockout_ticks(table, 1.5, (False, True)) is None


# ----------------------------------------------------------------------------- overlays


def test_the_help_lists_every_key_and_the_rules(term: Terminal) -> None:
    view = view_of(table_at(), overlay=HelpScreen())
    lines = "\n".join(t for t, _ in help_lines(view, 80))
    for keys in (
        "q w e r",
        "a s d f",
        "u i o p",
        "j k l ;",
        "stress v",
        "stress m",
        "Esc",
        "^C",
        "?",
    ):
        assert keys in lines
    assert "The rules in play" in lines
    shown = text(draw(term, view))
    assert "Paused." in shown and "piles 1-4 onto the left pile:  q w e r" in shown


def test_the_together_key_is_shown_only_where_the_rule_is_in_play(term: Terminal) -> None:
    """001's Stapel (``together``): the key beside the row and in the help, and the note
    once it is pressed; without the rule, no word of it."""
    on = table_at(PLAYING.replace("rules: standard", "rules: standard together=on"))
    lines = "\n".join(t for t, _ in help_lines(view_of(on), 80))
    assert "equal cards together, then a pile key: z" in lines
    assert "equal cards together, then a pile key: /" in lines
    shown = text(draw(term, view_of(on, together=(True, False))))
    assert "equals z" in shown and "equals /" in shown
    assert "together: the next pile goes with its equals" in shown
    off = view_of(table_at())
    assert "together" not in "\n".join(t for t, _ in help_lines(off, 80))
    assert "equals" not in text(draw(term, off))


def test_the_result_screen(term: Terminal) -> None:
    view = view_of(
        table_at(),
        overlay=ResultScreen(),
        result=Result(0, True, keys_live=True),
        score=(3, 1),
        seed=42,
    )
    shown = text(draw(term, view))
    assert "Player 1 wins the match!" in shown
    assert "Player 1 3 : 1 Player 2" in shown
    assert "Enter: rematch    q: quit" in shown
    assert "seed 42" in shown
    view.result = Result(1, False)
    shown = text(draw(term, view))
    assert "Player 2 wins the round!" in shown and "Enter" not in shown


# ----------------------------------------------------------------------------- encoding


def test_the_changes_bring_the_screen_to_the_new_frame(term: Terminal) -> None:
    table = table_at()
    before = draw(term, view_of(table))
    table.submit(Play(0, 0, 0, 1.0))  # J onto the 10
    after = draw(term, view_of(table, now=1.0))
    stepped = screen_of(term, encode(None, before, term) + encode(before, after, term), 80, 24)
    fresh = screen_of(term, encode(None, after, term), 80, 24)
    assert stepped.display == fresh.display
    for y in range(24):
        for x in range(80):
            a, b = stepped.buffer[y][x], fresh.buffer[y][x]
            assert (a.data, a.fg, a.bg, a.bold, a.reverse) == (
                b.data,
                b.fg,
                b.bg,
                b.bold,
                b.reverse,
            )


@pytest.mark.parametrize("colour", [True, False], ids=["colour", "no-colour"])
def test_a_game_of_frames_stays_true_to_the_screen(term: Terminal, colour: bool) -> None:
    """Frame after frame (plays, a rejection, stress, the help, resizes, the pause, the
    result, a new round), drawn as the game draws them (on a ``FrameCanvas`` kept from frame
    to frame, which draws again only what changed), each frame is the one a fresh canvas
    draws, and the changes written leave the screen exactly as drawing it afresh would."""
    position = (
        "rules: standard wins=1; phase: playing; p1 row: QS | 2D | 9D | 4C; p1 draw: 5S;"
        " piles: KC | QD; p2 row: JC | KS | 5C | TH; p2 draw: 8S"
    )
    table = table_at(position)
    notices = Notices()
    cache = RenderCache()
    palette = Palette(term, colour=colour, four_colour=True)
    steps: list[tuple[object, dict[str, object]]] = [
        (None, {}),
        (Play(0, 1, 0, 1.0), {}),  # the 2 on the K: rejected, locked out
        (None, {"overlay": HelpScreen()}),
        (None, {"size": (120, 40)}),  # larger cards
        (Play(0, 0, 0, 2.0), {}),  # the Q on the K: stress
        (None, {"size": (50, 12)}),  # too small
        (None, {"size": (80, 24)}),
        (CallStress(1, 2.2), {}),
        (None, {"overlay": PauseScreen()}),
        (None, {"overlay": ResultScreen(), "result": Result(1, True, keys_live=True)}),
        ("new round", {}),
        (Play(0, 0, 0, 1.0), {}),  # the J on the 10
        (Play(1, 0, 0, 1.5), {}),  # the J on the J: rejected
        (Play(0, 3, 1, 2.0), {}),  # the 4 on the 4: rejected
        (Play(1, 3, 1, 2.5), {}),  # the 10 on the 4: rejected
    ]
    size = (80, 24)
    screen = pyte.Screen(*size)
    stream = pyte.Stream(screen)
    canvas = FrameCanvas(*size, term.length, cache)
    old: Frame | None = None
    now = 0.0
    for action, extra in steps:
        if action == "new round":
            table, now = table_at(), 0.0
            notices.clear()
            cache.new_round()
        elif isinstance(action, (Play, CallStress)):
            now = action.time
            notices.note(table.submit(action), now, table.game)
        if "size" in extra:  # as the game does on a resize: a new canvas, everything drawn
            size = cast(tuple[int, int], extra.pop("size"))
            screen.resize(size[1], size[0])
            canvas = FrameCanvas(*size, term.length, cache)
            old = None
        view = view_of(table, now=now, notices=notices, **extra)
        new = render(view, palette, canvas)
        assert new == render(view, palette, Canvas(*size, term.length)), action
        stream.feed(encode(old, new, term, clear=True, cache=cache))
        fresh = screen_of(term, encode(None, new, term, clear=True), *size)
        assert screen.display == fresh.display
        for y in range(size[1]):
            for x in range(size[0]):
                a, b = screen.buffer[y][x], fresh.buffer[y][x]
                assert (a.fg, a.bg, a.bold, a.reverse) == (b.fg, b.bg, b.bold, b.reverse), (
                    action,
                    y,
                    x,
                )
        old = new


def test_a_piece_as_it_was_is_put_back_on_its_rows_and_drawn_again_once_it_changes(
    term: Terminal,
) -> None:
    """A piece whose key is the one of the last frame is not drawn: what it drew on its
    rows then is put back in its place among what else is drawn there; a new key draws it."""
    canvas = FrameCanvas(8, 4, term.length, RenderCache())
    drawn: list[str] = []

    def frame(shown: str) -> list[str]:
        canvas.put(0, 0, "top")

        def piece() -> None:
            drawn.append(shown)
            canvas.put(1, 0, shown)
            canvas.put(2, 2, shown)

        canvas.put(2, 0, "<")  # on a row of the piece, before it
        canvas.piece(("piece", shown), 1, 3, piece)
        canvas.put(2, 3, "|")  # and after it, over it
        return plain_lines(canvas.frame())

    assert frame("ab") == ["top     ", "ab      ", "< a|    ", "        "]
    assert frame("ab") == ["top     ", "ab      ", "< a|    ", "        "]
    assert drawn == ["ab"]
    assert frame("cd") == ["top     ", "cd      ", "< c|    ", "        "]
    assert drawn == ["ab", "cd"]


def test_a_drawing_partly_off_the_canvas_keeps_the_rows_on_it(term: Terminal) -> None:
    """A drawing's rows copied above, below and past the side of a kept canvas land as on a
    plain canvas: the rows and columns on it, nothing else."""
    drawing = [[(ch, "") for ch in line] for line in ("abc", "def", "ghi", "jkl")]
    for y, x in ((-2, 0), (-5, 1), (2, 3), (3, -1), (0, 4), (5, 0)):
        kept = FrameCanvas(5, 4, term.length, RenderCache())
        plain = Canvas(5, 4, term.length, RenderCache())
        for canvas in (kept, plain):
            canvas.put(0, 0, "xxxxx")
            canvas.blit_rows(y, x, drawing)
        assert plain_lines(kept.frame()) == plain_lines(plain.frame()), (y, x)


def test_a_wide_text_over_another_leaves_every_row_as_wide_as_the_screen(
    term: Terminal,
) -> None:
    """A name of wide characters put one column to the left of another (a spectator's name
    over a player's) leaves no half of a glyph alone: the row still fills the screen, so a
    terminal shows what follows where it belongs, and the later text is whole."""
    for first in range(7):
        for second in range(7):
            canvas = Canvas(10, 1, term.length, RenderCache())
            canvas.put(0, first, "字字")
            canvas.put(0, second, "名")
            line = "".join(ch for ch, _ in canvas.rows[0])
            assert term.length(line) == 10, (first, second, line)
            assert canvas.rows[0][second : second + 2] == [("名", ""), ("", "")], line


def test_frames_of_moving_texts_written_as_changed_leave_the_screen_as_drawn_whole(
    term: Terminal,
) -> None:
    """Frame after frame of texts and drawings moving about a kept canvas, wide glyphs
    among them (their halves put over and beside others), each frame written as the game
    writes it (only the columns the canvas says may have changed compared) leaves the
    screen as writing that frame whole does."""
    rng = random.Random(7)
    width, height = 12, 3
    cache = RenderCache()
    canvas = FrameCanvas(width, height, term.length, cache)
    screen = pyte.Screen(width, height)
    stream = pyte.Stream(screen)
    card = [[("A", "\x1b[0;31m")] * 3, [("♦", "\x1b[0;31m")] * 3]
    texts = ["ab", "字", "x名y", "cd", "", "efg"]
    steady = [
        (rng.randrange(height), rng.randrange(-1, width), rng.choice(texts)) for _ in range(4)
    ]
    old: Frame | None = None
    for _ in range(300):
        strokes = steady[: rng.randrange(len(steady) + 1)]
        strokes += [
            (rng.randrange(height), rng.randrange(-1, width), rng.choice(texts))
            for _ in range(rng.randrange(3))
        ]
        for y, x, text in strokes:
            canvas.put(y, x, text, "\x1b[0;1m" if len(text) > 2 else "")
        if rng.random() < 0.5:
            canvas.blit_rows(rng.randrange(-1, height), rng.randrange(-1, width), card)
        new = canvas.frame()
        known = old is not None and old is canvas.before
        stream.feed(encode(old, new, term, clear=True, changed=canvas.changed if known else None))
        fresh = screen_of(term, encode(None, new, term, clear=True), width, height)
        assert screen.display == fresh.display, (strokes, screen.display, fresh.display)
        old = new


def test_one_play_sends_a_small_part_of_a_full_redraw(term: Terminal) -> None:
    table = table_at()
    before = draw(term, view_of(table))
    table.submit(Play(0, 0, 0, 1.0))
    after = draw(term, view_of(table, now=1.0))
    full = len(encode(None, after, term, clear=True).encode())
    change = len(encode(before, after, term).encode())
    assert change <= 0.15 * full, (change, full)
    assert encode(after, after, term) == ""


def test_the_drawing_caches_keep_one_round_and_the_terminal_s_measures() -> None:
    """A long match keeps no more than one round's drawn texts and pieces; glyph widths
    and cursor moves, which belong to the terminal, stay."""
    cache = RenderCache()
    canvas = Canvas(80, 24, len, cache)
    canvas.put(0, 0, "draw 23 \u2660", "")
    cache.moves[(1, 1)] = "\x1b[2;2H"
    assert cache.cells and cache.widths
    cache.new_round()
    assert not cache.cells and not cache.sprites
    assert cache.widths and cache.moves
    for n in range(RenderCache.cells_limit + 1):
        canvas.put(0, 0, f"draw {n}", "")
    assert len(cache.cells) == RenderCache.cells_limit + 1
    cache.trim()
    assert not cache.cells
