"""Each screen's key hints say its own bindings, in-process (``tests/pilot.py``): the game's
title line, pause box, help and result, the replay viewer's, and a network table's. A hint
says, for each word a screen's bindings hint, the keys bound to it; read back from the
screen here and compared with the screen class's ``BINDINGS``. The help scrolls itself
within its lines."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from blessed import Terminal

from stress_tui.core.rules import Rules
from stress_tui.core.rulestext import short_line
from stress_tui.net import texts
from stress_tui.net.host import HOST_SEAT, Host
from stress_tui.storage import replay as replays
from stress_tui.terminal import lang
from stress_tui.terminal.draw.canvas import Canvas, RenderCache, plain_lines
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.endpoint import MemoryEndpoint
from stress_tui.terminal.keynames import key_label
from stress_tui.terminal.keys import Binding, Intent, Scope, default_keymap, replay_keymap
from stress_tui.terminal.lang import _
from stress_tui.terminal.netplay import LinkBar, NetScreen
from stress_tui.terminal.playback import ReplayApp
from stress_tui.terminal.render import render
from stress_tui.terminal.screen import ASCII_NOTE
from stress_tui.terminal.screens.help import HelpScreen, ReplayHelpScreen
from stress_tui.terminal.screens.netpanel import NetPanelScreen, NetWaitingScreen
from stress_tui.terminal.screens.pause import PauseScreen
from stress_tui.terminal.screens.question import QuitScreen
from stress_tui.terminal.screens.result import ReplayResultScreen, ResultScreen
from stress_tui.terminal.screens.table import ReplayTableScreen, TableScreen
from tests.pilot import Pilot, game, game_settings
from tests.screen import KEYS, say_ready
from tests.test_render import draw, table_at, view_of
from tests.test_replay_cli import play_round

FULL_NAMES = {"enter": "Enter", "down": "Down"}
"""Keys a panel's hint names in full (a title line and the help's lists say ``Ent``)."""

LAST_CARD = (
    "rules: standard wins=1; phase: playing; p1 row: 5H | - | - | -; p1 draw: -;"
    " piles: 4C | 9D; p2 row: JC | QC | 8D | KS; p2 draw: 7S 7H"
)
"""Player 1's last card (q) fits the left pile: the match is one play from its end."""


def said(
    bindings: Iterable[Binding],
    *,
    title: bool = False,
    live: bool = True,
    only: Iterable[Intent] | None = None,
    instead: Mapping[Intent, str] | None = None,
) -> list[str]:
    """What a hint must say of ``bindings`` (those of the intents ``only``): each hinted
    word once, after its keys (a title line: after its first key)."""
    words: dict[str, list[str]] = {}
    for b in bindings:
        if not b.hint or (only is not None and b.intent not in only):
            continue
        if not live and b.scope is Scope.MENU:
            continue
        word = _((instead or {}).get(b.intent, b.hint))
        name = key_label(b.key) if title else FULL_NAMES.get(b.key, key_label(b.key))
        words.setdefault(word, []).append(name)
    if title:
        return [f"{keys[0]} {word}" for word, keys in words.items()]
    return [f"{' or '.join(keys)}: {word}" for word, keys in words.items()]


def hint_row(s: Pilot, start: str) -> str:
    """The row whose text (inside its panel) begins with ``start``, stripped."""
    for y in range(s.rows):
        text = s.row(y).strip()
        if text.startswith(start):
            return text
    raise AssertionError(f"no row begins with {start!r}:\n{s.text()}")


def test_the_games_title_pause_help_and_result_say_their_bindings(tmp_path: Path) -> None:
    with game(tmp_path, env={"STRESS_TUI_POSITION": LAST_CARD}) as s:
        title = "  ".join(said(TableScreen.BINDINGS, title=True))
        assert title == "? help  Esc pause  ^C quit"
        assert s.row(0).rstrip().endswith(title), s.row(0)
        assert title == "  ".join(said(default_keymap().bindings, title=True))
        say_ready(s)
        s.pump(3.0)  # the count to the flip
        # The pause box: the keys that work at once, then its menu keys too.
        s.send(KEYS["escape"])
        s.wait_text("Paused", timeout=2)
        assert hint_row(s, "Esc") == "    ".join(said(PauseScreen.BINDINGS, live=False))
        s.pump(1.0)
        live = "    ".join(said(PauseScreen.BINDINGS))
        assert live == "Esc or Enter: play on    ?: help    q: quit"
        assert hint_row(s, "Esc") == live
        # The help over it: the way back, that there is more below, quitting.
        s.send("?")
        s.wait_text("Everyone", timeout=2)
        s.pump(1.0)
        back = said(HelpScreen.BINDINGS, only=[Intent.HELP, Intent.PAUSE])
        more = said(HelpScreen.BINDINGS, only=[Intent.SCROLL_DOWN])
        leave = said(HelpScreen.BINDINGS, only=[Intent.MENU_QUIT])
        footer = "   ".join([f"{_('Paused.')}  {back[0]}", *more, *leave])
        assert footer == "Paused.  ? or Esc: back to the game   Down or PgDn: more   q: quit"
        assert hint_row(s, "Paused.") == footer
        s.send("?")  # back to the pause box, and play on
        s.pump(0.1)
        s.send("\r")
        s.wait_for(lambda: "Paused" not in s.text(), timeout=2, what="the pause closed")
        s.pump(4.0)  # the count after the pause
        # The result: Enter's word says what it goes on to.
        s.send("q")
        going = said(ResultScreen.BINDINGS, instead={Intent.CONFIRM: "rematch"})
        assert going == ["Enter: rematch", "q: quit"]
        s.wait_text("    ".join(going), timeout=3)


def test_the_question_whether_to_quit_says_its_bindings_where_the_pause_said_its(
    tmp_path: Path,
) -> None:
    with game(tmp_path) as s:
        say_ready(s)
        s.send(KEYS["escape"])
        s.wait_text("Paused", timeout=2)
        s.pump(1.0)
        s.send("q")
        keys = "    ".join(said(QuitScreen.BINDINGS))
        assert keys == "y: quit"
        asked = f"{_('Quit this match?')}  {keys}   {_('any other key: no')}"
        s.wait_text(asked, timeout=2)
        assert "Esc or Enter: play on" not in s.text()
        s.send("n")
        s.wait_text("Esc or Enter: play on", timeout=2)
        assert asked not in s.text()


def test_the_help_scrolls_itself_within_its_lines(tmp_path: Path) -> None:
    with game(tmp_path, rows=16, cols=100) as s:
        s.send("?")
        s.wait_text("Everyone", timeout=2)
        s.pump(1.0)  # its menu keys work a moment after it opened
        earlier = said(HelpScreen.BINDINGS, only=[Intent.SCROLL_UP])[0]
        more = said(HelpScreen.BINDINGS, only=[Intent.SCROLL_DOWN])[0]
        assert (earlier, more) == ("Up or PgUp: earlier", "Down or PgDn: more")
        top = s.text()
        assert more in top and earlier not in top
        s.send(KEYS["down"])
        s.wait_text(earlier, timeout=2)
        for _page in range(6):  # past the end: it stops at the last line
            s.send("\x1b[6~")
            s.pump(0.1)
        end = s.text()
        assert more not in end and earlier in end and "fewer cards than before" in end, s.dump()
        s.send("\x1b[6~")
        s.pump(0.1)
        s.send(KEYS["down"])
        s.pump(0.1)
        assert s.text() == end
        for _page in range(6):  # back to the top, and no further
            s.send("\x1b[5~")
            s.pump(0.1)
        assert s.text() == top
        s.send("?")  # closed and opened again: from the top
        s.pump(0.1)
        s.send("?")
        s.pump(1.0)
        assert s.text() == top


@contextmanager
def watching(tmp_path: Path) -> Iterator[Pilot]:
    """The replay viewer on a recorded round, in-process, once its title line is up."""
    path, _events = play_round(Rules.for_deck("jass"), 1, tmp_path / "replays")
    settings = game_settings()
    pilot = Pilot(lambda endpoint: ReplayApp(endpoint, replays.load(path), settings=settings))
    try:
        pilot.wait_for(lambda: "REPLAY" in pilot.row(0), timeout=10, what="the replay")
        yield pilot
    finally:
        pilot.close()


def test_the_replay_viewers_title_help_and_result_say_their_bindings(tmp_path: Path) -> None:
    with watching(tmp_path) as s:
        title = "  ".join(said(ReplayTableScreen.BINDINGS, title=True))
        assert title == "Spc pause  ? keys  q quit"
        assert title == "  ".join(said(replay_keymap().bindings, title=True))
        assert s.row(0).rstrip().endswith(title), s.row(0)
        s.send(" ")
        paused = "  ".join(
            said(ReplayTableScreen.BINDINGS, title=True, instead={Intent.PAUSE: "go on"})
        )
        s.wait_for(lambda: s.row(0).rstrip().endswith(paused), timeout=2, what=paused)
        s.send("?")
        s.wait_text("Watching a replay", timeout=2)
        footer = "   ".join(said(ReplayHelpScreen.BINDINGS))
        assert footer == "?: back to the replay   q or Esc: leave"
        assert hint_row(s, "?:") == footer
        s.send("?")  # back, and on to the end, as fast as it goes
        s.pump(0.1)
        s.send(" ")
        s.send("+" * 8)
        going = "    ".join(said(ReplayResultScreen.BINDINGS))
        assert going == "Enter: watch again    q or Esc: leave"
        s.wait_text(going, timeout=600)


def test_a_network_tables_title_and_waiting_screen_say_their_bindings(tmp_path: Path) -> None:
    settings = game_settings("--seed", "12")

    def hosting(endpoint: MemoryEndpoint) -> NetScreen:
        host = Host(settings.rules, "Ann", say=_)
        line = "stress-tui join HOST 1234"
        return NetScreen(endpoint, settings, True, model=host, seat=HOST_SEAT, join_line=line)

    s = Pilot(hosting)
    try:
        s.wait_for(lambda: "STRESS" in s.row(0), timeout=10, what="the host's table")
        title = "  ".join(said(TableScreen.BINDINGS, title=True))
        assert s.row(0).rstrip().endswith(title), s.row(0)
        waiting = "    ".join(said(NetWaitingScreen.BINDINGS))
        assert waiting == "Esc or q: give up"
        s.wait_text("Waiting for a player", timeout=2)
        assert hint_row(s, "Esc") == waiting
    finally:
        s.close()


def test_a_network_tables_title_kept_between_frames_says_each_new_delay_and_role() -> None:
    """The title line of a network table is kept between frames (most of a table's frames
    are a count going down) and made again when what it says changes."""
    term = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
    cache, palette = RenderCache(), Palette(term, True, False)

    def title(link: LinkBar) -> str:
        frame = render(view_of(table_at(), link=link), palette, Canvas(80, 24, term.length, cache))
        return plain_lines(frame)[0]

    assert "joined" in title(LinkBar("join", 12.0))
    assert "delay 12 ms" in title(LinkBar("join", 12.0))
    assert "delay 30 ms" in title(LinkBar("join", 30.4))
    assert "watching" in title(LinkBar("watch", 30.0))
    assert "delay ..." in title(LinkBar("join", None))


def test_the_waiting_screen_on_the_narrowest_window_says_the_whole_join_line() -> None:
    """At 60 columns the line a friend types to join is wider than the waiting panel: it
    goes on over two lines, the table's code whole."""
    settings = game_settings("--seed", "12")
    line = "ssh -t -p 35001 10.78.1.1 join mountain-sunset-bear-kite"

    def hosting(endpoint: MemoryEndpoint) -> NetScreen:
        host = Host(settings.rules, "Ann", say=_)
        return NetScreen(endpoint, settings, True, model=host, seat=HOST_SEAT, join_line=line)

    s = Pilot(hosting, rows=16, cols=60)
    try:
        s.wait_text("Waiting for a player", timeout=2)
        said = " ".join(s.row(y).strip() for y in range(s.rows) if s.row(y).strip())
        assert line in said, s.dump()
    finally:
        s.close()


def test_a_panel_on_the_narrowest_window_keeps_its_seconds_with_their_figure() -> None:
    """At 60 columns a spectator's lost connection goes on over two lines, broken after
    its colon: "58 s" stays whole, not "58" at the end of one line and "s" alone on the
    next; a line with no colon keeps its figure and unit together too."""
    term = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)

    def panel_lines(status: str) -> list[str]:
        link = LinkBar("watch", None, status, quit_only=True)
        view = view_of(table_at(), link=link, overlay=NetPanelScreen())
        return [line.strip() for line in plain_lines(draw(term, view, width=60, height=16))]

    lost = panel_lines(_("the connection to the host was lost: trying again, {s} s").format(s=58))
    assert "the connection to the host was lost:" in lost, "\n".join(lost)
    assert "trying again, 58 s" in lost, "\n".join(lost)
    silent = panel_lines(texts.said("lost-silent", name="Bartholomew-Jon", s=5).tell(_))
    assert "s)" not in silent and "5 s)" in silent, "\n".join(silent)  # (it fills a line)


def test_a_network_tables_title_on_the_narrowest_window_says_the_delay_whole() -> None:
    """At 60 columns, in English and in German, a network table's title line says the
    connection's delay whole, clear of the keys on the right: the role, then who plays
    whom, give way to it (their names are beside the rows too)."""
    term = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
    view = view_of(table_at(), link=LinkBar("join", 15.0), names=("Ann", "Bo"))
    try:
        lang.choose("en")
        waiting = view_of(table_at(), link=LinkBar("host", 40.0), names=("(open seat)", "Ann"))
        title = plain_lines(draw(term, waiting, width=60, height=16))[0].rstrip()
        assert "delay 40 ms  " in title and title.endswith("  ? help  Esc pause  ^C quit"), title
        for code, delay, keys in (
            ("en", "delay 15 ms", "? help  Esc pause  ^C quit"),
            ("de", "Verzögerung 15 ms", "? Hilfe  Esc Pause  ^C Ende"),
        ):
            lang.choose(code)
            title = plain_lines(draw(term, view, width=60, height=16))[0].rstrip()
            assert f"{delay}  " in title and title.endswith(f"  {keys}"), title
        lang.choose("en")
        wide = plain_lines(draw(term, view, width=80))[0]
        assert "joined  Ann v Bo  delay 15 ms" in wide, wide
    finally:
        lang.choose(None)


def test_a_title_says_the_rules_in_whole_words_beside_why_the_suits_are_letters() -> None:
    """In a terminal without the suits (the C locale), from 60 to 100 columns, at one
    keyboard and at a network table: the title says the rules in whole words, with "suits
    as letters" only where some of them fit beside it, never "stan; suits as letters"."""
    term = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
    table = table_at()
    whole = {
        piece
        for room in range(8, 100)
        for piece in short_line(table.game.rules, room, _).split(", ")
    }
    whole.add(_(ASCII_NOTE))
    for link in (None, LinkBar("join", None), LinkBar("watch", None)):
        for width in range(60, 101):
            view = view_of(table, link=link, names=("Bo", "Ann"), ascii=True, ascii_note=ASCII_NOTE)
            title = plain_lines(draw(term, view, width=width))[0]
            rules = title.split("  ? help")[0].split("delay ...")[-1].split(" STRESS ")[-1]
            if rules.strip():
                pieces = re.split(", |; ", rules.strip())
                assert whole.issuperset(pieces), title


def test_a_spectators_title_line_leaves_out_the_pause_it_cannot_ask_for() -> None:
    """A spectator's Esc pauses nothing (the match is the players'): its title line says
    the rest of the table's keys."""
    term = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
    keys = [b for b in TableScreen.BINDINGS if b.intent is not Intent.PAUSE]
    for role, said_keys in (
        ("join", said(TableScreen.BINDINGS, title=True)),
        ("watch", said(keys, title=True)),
    ):
        view = view_of(table_at(), link=LinkBar(role, 12.0))
        title = plain_lines(draw(term, view))[0].rstrip()
        assert title.endswith("  ".join(said_keys)), title
    assert said(keys, title=True) == ["? help", "^C quit"]
