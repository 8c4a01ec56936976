"""How the table reads, played in-process at the sizes players use
(``tests/pilot.py``: the game on an in-process terminal, its clock virtual): overlays that
leave nothing of the table around or inside their box, notices that say what is true now
and go when it stops being true, ``xN`` with one meaning, the last play on each pile shown
for a moment, lines shortened by words, and no text of the light theme too close to the
background. Rows nobody can play, from a flag or the config file, are refused in one line
before the game would take the terminal (``tests/command.py``; a refusal on a real
terminal: ``tests/test_hostile.py``). ``tests/test_looks.py`` draws the same points from
positions, a frame at a time.

Positions come in through the program's test hook, ``STRESS_TUI_POSITION`` (see
docs/notation.md); where a dealt table does, ``--seed 12``: after its first flip the piles
are 10C | 4H and player 1's row JS | 2D | 9D | 4C (``q`` fits, ``w`` does not).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from stress_tui.core.houserules import HOUSE_RULES
from stress_tui.core.rules import Rules
from tests import command
from tests.pilot import Pilot, game
from tests.screen import banner, draw_count, notice, pile_top, say_ready, settle, table_layout
from tests.test_looks import low_contrast_cells
from tests.test_terminals import SIZES, WHITE

SUITS = set("♠♥♦♣")

# A busy table: player 1 has two 2s stacked (x2) and a 2 to draw next, which stacks on
# them once the 9D is played (e: onto the 8H); player 2's 5C fits the right pile (l),
# then the stack of 10s that its draw pile makes fits the 9 (u: played whole).
BUSY = (
    "rules: standard; phase: playing;"
    " p1 row: JS | 2D 2C | 9D | 4C; p1 draw: 5S 6S 7S 8C 3H 5H 6H 2H;"
    " piles: 2S 3S 4S 5D 6D 7D 8D 9S TS JD QD KD AD 3C 9C 8H | 4H;"
    " p2 row: TC | KS | 5C | QH; p2 draw: 8S JH QS KH AH 9H TH"
)

# Player 1 goes out in eleven plays onto the left pile, q w e r q w e r q w e (each
# place refilled from the draw pile while it lasts); the right pile's 3 never meets the
# left pile's top. Player 2's 7 does not fit the 4 (u): a misplay, locked out 3 s.
RUN_OUT = (
    "rules: standard lockout=3; phase: playing;"
    " p1 row: 5H | 6H | 7H | 8H; p1 draw: 2H AH KH QH JH TH 9H;"
    " piles: 2S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2D 4D 5D 6D 4C | 3C 3S;"
    " p2 row: 7C | 8C 8D | 9C | KC; p2 draw: JD QD KD AD 2C 5C"
)
RUN_OUT_KEYS = "qwerqwerqwe"

LOCKED_OUT = re.compile(r"locked out (\d+\.\d)s")
"""A lockout's countdown as a notice says it: a value that moves while the clock runs."""


def without_countdowns(rows: list[str]) -> list[str]:
    """The rows with every lockout's countdown blanked (what stands still as a clock runs)."""
    return [LOCKED_OUT.sub("locked out -s", row) for row in rows]


def countdowns(rows: list[str]) -> list[float]:
    """The lockout countdowns the rows show, top to bottom."""
    return [float(m.group(1)) for row in rows for m in LOCKED_OUT.finditer(row)]


# Both draw piles empty and the table waiting for a flip: the flip gives each player a
# play pile to draw from (10 and 6 cards), flips one of each and fills the rows' gaps.
RAN_OUT = (
    "rules: standard; phase: waiting; p1 row: 5H | - | - | -;"
    " piles: 2S 3S 4S 5S 6S 7S 8S 9S TS KS | 3D 4D 6D 7D 8D 2D; p2 row: 9C | - | - | -"
)

# Jass, with no card of player 2's that would make stress: a stress stop is refused.
NO_THREAT = (
    "rules: jass; phase: playing; p1 row: JS | 8D | 9D | QC; p1 draw: 6S;"
    " piles: TC | AH; p2 row: JC | KS | 6C | TH; p2 draw: 8S"
)


@contextmanager
def at(tmp_path: Path, position: str, rows: int, cols: int, *args: str) -> Iterator[Pilot]:
    """The game at ``position`` (through the test hook), once both have said ready."""
    with game(tmp_path, *args, rows=rows, cols=cols, env={"STRESS_TUI_POSITION": position}) as s:
        say_ready(s)
        yield s


def beside(s: Pilot, target: int, below: int = 0) -> str:
    """What is written beside a play pile on its middle line (its size), or ``below``
    lines under it (who played its top card): left of the left pile, right of the right,
    past the column right beside the card (where a bar says a card just landed there)."""
    lay = table_layout(s)
    line = s.row(lay.piles_y + lay.card_h // 2 + below)
    if target == 0:
        return line[: lay.pile_x[0] - 1].strip()
    return line[lay.pile_x[1] + lay.card_w + 1 :].strip()


def flipped_to(s: Pilot, left: str, right: str) -> None:
    s.wait_for(
        lambda: pile_top(s, 0) == left and pile_top(s, 1) == right,
        timeout=4,
        what=f"the flip {left} | {right}",
    )


# ----------------------------------------------------------------------------- overlays


def leaks(s: Pilot) -> list[str]:
    """What of the table shows with an overlay up: under the title line, the only thing
    drawn must be one box, a rectangle of its own background filled to its edges; every
    cell outside it blank, and no card's suit inside it."""
    body = range(1, s.rows)
    boxed = [(y, x) for y in body for x in range(s.cols) if s.cell(y, x).bg != "default"]
    if not boxed:
        return ["no box drawn"]
    top, bottom = min(y for y, _x in boxed), max(y for y, _x in boxed)
    left, right = min(x for _y, x in boxed), max(x for _y, x in boxed)
    colour = s.cell(top, left).bg
    found = []
    for y in body:
        for x in range(s.cols):
            cell = s.cell(y, x)
            if top <= y <= bottom and left <= x <= right:
                if cell.bg != colour or cell.data in SUITS:
                    found.append(f"{cell.data!r} at {y},{x} inside the box ({cell.bg})")
            elif cell.data.strip() or cell.bg != "default" or cell.reverse:
                found.append(f"{cell.data!r} at {y},{x} around the box")
    return found


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_pause_help_and_result_boxes_leave_nothing_of_the_table(
    tmp_path: Path, rows: int, cols: int
) -> None:
    # A lockout far longer than the test, so that it is still running after the pause.
    with at(tmp_path, RUN_OUT.replace("lockout=3", "lockout=30"), rows, cols) as s:
        lay = table_layout(s)
        # A table with everything on it: player 2 locked out with a notice, player 1's
        # last play marked beside the left pile, a refill between the keys, two sizes.
        s.send("u")
        s.wait_text("7 on 4", timeout=2, row=lay.notice_y[1])
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "5♥", timeout=2, what="the 5 played")
        s.wait_for(lambda: beside(s, 0, 1) == "Player 1", timeout=2, what="the last-play mark")
        assert beside(s, 0).split()[0] == "18" and beside(s, 1).split()[0] == "2"
        # The lockout's countdown runs until the pause: everything else stands still.
        table = [s.row(y) for y in range(s.rows)]
        assert leaks(s)  # the check sees the table, when nothing covers it
        s.send("\x1b")
        s.wait_text("Paused", timeout=2)
        paused_at = s.now()
        settle(s, 0.2)
        assert not leaks(s), "\n".join([s.dump(), *leaks(s)[:8]])
        assert s.row(0).startswith(" STRESS")
        s.send("?")
        s.wait_text("Everyone", timeout=2)
        settle(s, 0.2)
        assert not leaks(s), "\n".join([s.dump(), *leaks(s)[:8]])
        s.send("?")  # back to the pause box, then play on
        s.wait_for(lambda: "Everyone" not in s.text(), timeout=2, what="help closed")
        s.wait_text("Esc or Enter: play on", timeout=2)
        s.send("\r")
        s.wait_text("Play goes on", timeout=2)
        s.wait_for(lambda: "Play goes on" not in s.text(), timeout=3, what="the count over")
        paused_for = s.now() - paused_at
        # The table is whole again, as it was: the clock stood still meanwhile, so the
        # lockout's countdown, which ran until the pause took hold, went on by far less than
        # the pause lasted (two seconds and more: the settles and the count).
        again = [s.row(y) for y in range(s.rows)]
        assert without_countdowns(again) == without_countdowns(table), s.dump()
        before, after = countdowns(table), countdowns(again)
        assert len(after) == len(before) and all(
            b - paused_for < a <= b for a, b in zip(after, before, strict=True)
        ), (before, after, paused_for)
        s.send(RUN_OUT_KEYS[1:])
        s.wait_text("Player 1 wins the round!", timeout=3)
        s.wait_text("q: quit", timeout=2)
        settle(s, 0.2)
        assert not leaks(s), "\n".join([s.dump(), *leaks(s)[:8]])
        text = s.text()
        assert "Player 1 1 : 0 Player 2" in text
        if rows > 16:  # the statistics, each count whole
            for measure, p1, p2 in (("cards played", "11", "0"), ("misplays", "0", "1")):
                line = next(line for line in text.splitlines() if measure in line)
                assert line.split()[-2:] == [p1, p2], line
        else:
            assert "(a taller window shows the statistics)" in text


# ----------------------------------------------------------------------------- notices


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_ready_notices_go_once_both_are_ready(tmp_path: Path, rows: int, cols: int) -> None:
    with game(tmp_path, rows=rows, cols=cols) as s:
        lay = table_layout(s)
        s.wait_text("press c when ready", timeout=3, row=lay.notice_y[0])
        s.send("c")  # before the start
        s.wait_text("ready: waiting for Player 2", timeout=2, row=lay.notice_y[0])
        s.send(",")
        s.wait_text("New cards on three", timeout=2)
        settle(s, 0.1)
        assert "waiting" not in s.text() and "when ready" not in s.text(), s.dump()
        flipped_to(s, "10♣", "4♥")
        s.send("c")  # mid-round: ready to flip
        s.wait_for(lambda: "waiting" in notice(s, 0), timeout=2, what="player 1 waiting")
        assert notice(s, 0) in ("ready to flip (waiting for Player 2)", "ready: waiting")
        s.send(",")
        s.wait_text("Both ready: new cards on three", timeout=2, row=lay.banner_y)
        settle(s, 0.1)
        assert "waiting" not in s.text(), s.dump()
        # The flip: "Both ready" is over, and nobody is said to be ready any more.
        s.wait_for(lambda: pile_top(s, 0) != "10♣", timeout=3, what="the agreed flip")
        s.wait_for(lambda: "Both ready" not in s.text(), timeout=1, what="the banner cleared")
        assert notice(s, 0) == "" and notice(s, 1) == "", s.dump()


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_wait_for_the_flip_goes_with_the_flip(tmp_path: Path, rows: int, cols: int) -> None:
    with game(tmp_path, rows=rows, cols=cols) as s:
        say_ready(s)
        s.send("q")  # during the count to the first flip
        s.wait_for(lambda: "wait for the flip" in notice(s, 0), timeout=2, what="the notice")
        flipped_to(s, "10♣", "4♥")
        # A refusal stays 2 s; this one is over with its phase, long before.
        s.wait_for(lambda: notice(s, 0) == "", timeout=0.5, what="the notice gone at the flip")


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_a_lockout_keeps_its_reason_and_says_the_time_left(
    tmp_path: Path, rows: int, cols: int
) -> None:
    with game(tmp_path, "--lockout", "1.5", rows=rows, cols=cols) as s:
        say_ready(s)
        flipped_to(s, "10♣", "4♥")
        s.send("w")  # the 2 onto the 10: a misplay
        reason = ("2 on 10: not one rank above or below", "2 on 10: no fit")
        s.wait_for(lambda: "locked out" in notice(s, 0), timeout=2, what="the lockout")
        first = notice(s, 0)
        assert first.split(";")[0] in reason, first
        s.send("q")  # a card that fits, but locked out
        s.wait_for(
            lambda: notice(s, 0) != first and "locked out" in notice(s, 0),
            timeout=2,
            what="the time left going down",
        )
        line = notice(s, 0)
        said = re.fullmatch(r"(.*); locked out (\d\.\d)s", line)
        assert said is not None and said.group(1) in reason, line
        assert 0 < float(said.group(2)) < 1.5
        assert pile_top(s, 0) == "10♣"  # nothing played
        s.wait_for(lambda: "locked" not in notice(s, 0), timeout=5, what="the lockout over")
        s.send("q")
        s.wait_for(lambda: pile_top(s, 0) == "J♠", timeout=2, what="the J played after it")


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_a_notice_that_the_draw_piles_ran_out_is_true_and_goes(
    tmp_path: Path, rows: int, cols: int
) -> None:
    with at(tmp_path, RAN_OUT, rows, cols) as s:
        s.wait_for(lambda: "ran out" in banner(s), timeout=3, what="the piles recycled")
        assert banner(s) in (
            "Both draw piles ran out: each took a play pile to draw from",
            "Draw piles ran out: each took a play pile",
        )
        assert (draw_count(s, 0), draw_count(s, 1)) == (6, 2)  # drawn from since
        assert "empty" not in s.text()
        if cols == 80:  # it goes after a while (3 s), as at any size
            s.wait_for(lambda: banner(s) == "", timeout=5, what="the notice gone")


# ----------------------------------------------------------------------------- xN


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_x_n_is_only_a_stack_in_a_row(tmp_path: Path, rows: int, cols: int) -> None:
    with at(tmp_path, BUSY, rows, cols) as s:
        lay = table_layout(s)

        def stacks() -> list[tuple[int, int, str]]:
            return [
                (y, m.start(), m.group())
                for y in range(s.rows)
                for m in re.finditer(r"\bx\d+\b", s.row(y))
            ]

        def pile_of(x: int) -> int:
            return (x - lay.row_x) // (lay.card_w + lay.gap)

        def on_row(player: int) -> list[tuple[int, str]]:
            rows_y = range(lay.rows_y[player], lay.rows_y[player] + lay.card_h)
            return [(pile_of(x), text) for y, x, text in stacks() if y in rows_y]

        assert on_row(0) == [(1, "x2")] and on_row(1) == []
        assert len(stacks()) == 1  # nowhere else: not on the play piles
        assert beside(s, 0) in ("16 cards", "16") and beside(s, 1) in ("1 card", "1")
        s.send("e")  # the 9 onto the 8: the next 2 drawn stacks on the 2s
        s.wait_for(lambda: on_row(0) == [(1, "x3")], timeout=2, what="the stack grown")
        s.send("l")  # player 2's 5 onto the right pile: a 10 drawn, then its pair
        s.wait_for(lambda: on_row(1) == [(0, "x2")], timeout=2, what="player 2's stack")
        s.send("u")  # the two 10s onto the 9, whole
        s.wait_for(lambda: beside(s, 0).split()[0] == "19", timeout=2, what="19 on the pile")
        assert pile_top(s, 0) == "10♥" and on_row(1) == []
        assert [text for _y, _x, text in stacks()] == ["x3"]
        assert beside(s, 0) in ("19 cards", "19") and beside(s, 1) in ("2 cards", "2")


# ----------------------------------------------------------------------------- the last play


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_the_last_play_on_each_pile_says_whose_it_is_then_goes(
    tmp_path: Path, rows: int, cols: int
) -> None:
    with at(tmp_path, BUSY, rows, cols) as s:
        lay = table_layout(s)
        arrows = {0: "▲", 1: "▼"}  # where a name has no room: towards the player's row

        def mark(target: int, player: int) -> bool:
            return beside(s, target, 1) in (
                "Player 1" if player == 0 else "Player 2",
                arrows[player],
            )

        def colour_of_mark(target: int) -> str:
            y = lay.piles_y + lay.card_h // 2 + 1
            left, right = lay.pile_x[0] - 1, lay.pile_x[1] + lay.card_w + 1  # past the bars
            xs = range(left) if target == 0 else range(right, s.cols)
            return next(s.cell(y, x).fg for x in xs if s.cell(y, x).data.strip())

        def colour_of_name(player: int) -> str:
            return str(s.cell(lay.rows_y[player], lay.info_x + 1).fg)

        assert beside(s, 0, 1) == "" and beside(s, 1, 1) == ""
        s.send("e")  # player 1's 9 onto the left pile
        s.wait_for(lambda: mark(0, 0), timeout=2, what="player 1's mark on the left pile")
        s.send("l")  # player 2's 5 onto the right pile
        s.wait_for(lambda: mark(1, 1), timeout=2, what="player 2's mark on the right pile")
        assert mark(0, 0)
        s.send("u")  # player 2 onto the left pile now: the mark there is player 2's
        s.wait_for(lambda: mark(0, 1), timeout=2, what="player 2's mark on the left pile")
        assert colour_of_mark(0) == colour_of_name(1) != colour_of_name(0)
        assert colour_of_mark(1) == colour_of_name(1)
        s.wait_for(
            lambda: beside(s, 0, 1) == "" and beside(s, 1, 1) == "",
            timeout=3,
            what="the marks gone",
        )


# ----------------------------------------------------------------------------- whole words


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_the_rule_line_is_shortened_by_whole_parts(tmp_path: Path, rows: int, cols: int) -> None:
    with game(tmp_path, "--deck", "jass", rows=rows, cols=cols) as s:
        s.wait_text("? help", timeout=3, row=0)
        title = s.row(0)
        rules = title[title.index("STRESS") + len("STRESS") : title.index("? help")].strip()
        jass = Rules.for_deck("jass")
        said = [rule.short(jass, lambda text: text) for rule in HOUSE_RULES]
        forms = {form for forms in said if forms is not None for form in forms}
        shown = [
            part for part in rules.split(", ") if not re.fullmatch(r"\d+ more in help|\+\d+", part)
        ]
        assert set(shown) <= forms, (rules, forms)
        assert shown[0] == "jass" and ("5 wins" in shown or "to 5 wins" in shown), rules


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_a_refused_stress_stop_is_said_whole(tmp_path: Path, rows: int, cols: int) -> None:
    with at(tmp_path, NO_THREAT, rows, cols) as s:
        s.send("x")
        s.wait_for(lambda: "stop" in notice(s, 0), timeout=2, what="the refusal")
        assert notice(s, 0) in (
            "stress stop: no card of the opponent's would make stress",
            "stop: no stress to stop",
        ), s.dump()


# ----------------------------------------------------------------------------- rows


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--row", "5", "--keyboard", "fr"), "fr keyboard's keys play 4 of Player 2's piles"),
        (("--row", "6"), "us keyboard's keys play 5 of Player 1's piles"),
        (("--row", "7", "--keyboard", "de"), "de keyboard's keys play 5 of Player 1's piles"),
        (("--row", "9"), "a row of 9 cannot be played"),
        (("--row", "10", "--p2", "bot"), "play 9 of your piles"),
    ],
)
def test_a_row_nobody_can_play_is_refused_in_one_line(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    """Refused before the game would take a terminal (a refusal on a real terminal, the
    terminal never taken: ``tests/test_hostile.py``)."""
    done = command.run(*args, env={"STRESS_TUI_CONFIG": str(tmp_path / "none.toml")})
    assert done.returncode == 2 and done.stdout == b""
    out = done.stderr
    assert out.count(b"\n") == 1 and out.endswith(b"\n"), out
    line = out.decode().strip()
    assert line.startswith("stress-tui: --row: a row of ") and said in line, line
    assert b"\x1b" not in out


def test_a_row_from_the_config_is_refused_naming_its_file(tmp_path: Path) -> None:
    """A row from the config file that the keyboard cannot play: refused in one line that
    names the config file, before the game would take a terminal."""
    config = tmp_path / "config.toml"
    config.write_text('[rules]\nrow = 5\n\n[keys]\nkeyboard = "fr"\n')
    done = command.run(env={"STRESS_TUI_CONFIG": str(config)})
    assert done.returncode == 2 and done.stdout == b""
    out = done.stderr
    assert out.count(b"\n") == 1 and b"\x1b" not in out, out
    assert "a row of 5 cannot be played" in out.decode() and str(config) in out.decode()


@pytest.mark.parametrize("args", [("--row", "5"), ("--row", "9", "--p2", "bot")])
def test_a_row_that_can_be_played_starts_with_a_key_for_every_pile(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    with game(tmp_path, *args, rows=24, cols=120) as s:
        s.wait_text("press c when ready", timeout=3)
        settle(s, 0.1)
        size = int(args[1])
        lay = table_layout(s, size)
        people = (0, 1) if "bot" not in args else (1,)  # against the computer: at the bottom
        for y in (lay.hints_y[p] for p in people):
            pairs = re.findall(r"<(\S+) +(\S+)>", s.row(y))
            assert len(pairs) == size and "-" not in {k for pair in pairs for k in pair}, s.dump()
        s.send("\x03")
        assert s.wait_exit() == 130


# ----------------------------------------------------------------------------- colours


def reads(s: Pilot, what: str) -> None:
    """Once the screen is all drawn, no cell with a letter on it is too close to white."""
    settle(s, 0.1)
    bad = low_contrast_cells(s.screen, light=True)
    assert not bad, (what, bad[:8], s.dump())


@pytest.mark.parametrize(("rows", "cols"), SIZES)
@pytest.mark.parametrize("term", ["xterm-256color", "xterm"])
def test_a_white_terminal_gets_the_light_theme_and_no_text_too_close_to_white(
    tmp_path: Path, rows: int, cols: int, term: str
) -> None:
    """From the start banner to the result box, on a white terminal (the light theme
    chosen by itself), with 256 and with 8 colours: every cell with a letter on it reads."""

    env: dict[str, str | None] = {"TERM": term, "STRESS_TUI_POSITION": RUN_OUT}
    with game(tmp_path, rows=rows, cols=cols, env=env, background=WHITE) as s:
        s.wait_text("press c when ready", timeout=3)
        reads(s, "the start")
        say_ready(s)
        s.send("u")  # a misplay: a warning and a lockout
        s.send("q")  # a play: its mark, a refill
        s.wait_for(lambda: "7 on 4" in notice(s, 1) and pile_top(s, 0) == "5♥", timeout=2)
        reads(s, "the table")
        s.send("\x1b")
        s.wait_text("Paused", timeout=2)
        reads(s, "the pause box")
        s.send("?")
        s.wait_text("Everyone", timeout=2)
        reads(s, "the help")
        s.send("?")
        s.wait_text("Esc or Enter: play on", timeout=2)
        s.send("\r")
        s.wait_text("Play goes on", timeout=2)
        reads(s, "the count")
        s.wait_for(lambda: "Play goes on" not in s.text(), timeout=3, what="the count over")
        s.send(RUN_OUT_KEYS[1:])
        s.wait_text("q: quit", timeout=3)
        reads(s, "the result")


# Player 1's queen onto the king (q) makes stress: a queen on each pile.
STRESS = (
    "rules: standard; phase: playing; p1 row: QS | 3C | 5H | 8D; p1 draw: 2S 4S 6S;"
    " piles: 9C KC | QD; p2 row: 7C | JH | 2D | 4H; p2 draw: 6H 7H 8H"
)


@pytest.mark.parametrize("term", ["xterm-256color", "xterm"])
def test_stress_and_its_outcome_read_on_a_white_terminal(tmp_path: Path, term: str) -> None:
    env: dict[str, str | None] = {"TERM": term, "STRESS_TUI_POSITION": STRESS}
    with game(tmp_path, env=env, background=WHITE) as s:
        say_ready(s)
        s.send("q")
        s.wait_for(lambda: "STRESS!" in banner(s), timeout=2, what="stress open")
        reads(s, "stress open")
        s.send("m")  # player 2 first
        s.wait_for(lambda: "stress won" in notice(s, 1), timeout=2, what="stress won")
        assert "too slow" in notice(s, 0) and "called stress first" in banner(s)
        reads(s, "stress won")
