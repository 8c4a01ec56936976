"""The screens over the table, in-process: which are on the stack comes from the match's
lifecycle, only the top one takes keys, and each says what its keys do."""

from __future__ import annotations

import io

import pytest
from blessed import Terminal

from stress_tui.core.lifecycle import RESULT_GRACE, Hold, Lifecycle
from stress_tui.terminal import lang
from stress_tui.terminal.clock import Clock
from stress_tui.terminal.controller import GameController
from stress_tui.terminal.keys import Intent, default_keymap, key_hint, replay_keymap, title_hint
from stress_tui.terminal.screens.base import ModalScreen, ScreenStack
from stress_tui.terminal.screens.help import HelpScreen, ReplayHelpScreen
from stress_tui.terminal.screens.netpanel import QUIT_ONLY, NetPanelScreen, NetWaitingScreen
from stress_tui.terminal.screens.pause import PauseScreen
from stress_tui.terminal.screens.question import QuitScreen
from stress_tui.terminal.screens.result import ReplayResultScreen, Result, ResultScreen
from tests.test_clock import Outside
from tests.test_controller import Host, press
from tests.test_render import draw, table_at, text, view_of


@pytest.fixture(scope="module")
def term() -> Terminal:
    return Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)


def game() -> tuple[GameController, Host, Lifecycle]:
    host = Host()
    life = Lifecycle()
    clock = Clock(Outside(), life)
    clock.set(0.0)
    life.deal(100.0)
    return GameController(host, clock, default_keymap()), host, life


def kinds(controller: GameController) -> list[type[ModalScreen]]:
    controller.top  # noqa: B018 - the stack is made to match the lifecycle when read
    return [type(screen) for screen in controller.stack.screens]


def test_nothing_covers_a_round_in_play() -> None:
    controller, _, _ = game()
    assert controller.top is None and kinds(controller) == []


def test_the_lifecycles_holds_and_the_result_stack_their_screens_in_order() -> None:
    controller, _, life = game()
    life.hold(Hold.PAUSE, 101.0)
    assert kinds(controller) == [PauseScreen]
    life.hold(Hold.HELP, 102.0)
    assert kinds(controller) == [PauseScreen, HelpScreen]
    life.release(Hold.HELP, 103.0)
    assert kinds(controller) == [PauseScreen]
    life.release(Hold.PAUSE, 104.0)
    life.advance(110.0)
    life.round_over(111.0, match_over=False)
    controller.show_result(Result(0, False))
    assert kinds(controller) == [ResultScreen]


def test_a_screen_still_wanted_stays_the_same_screen() -> None:
    controller, _, life = game()
    life.hold(Hold.PAUSE, 101.0)
    pause = controller.top
    life.hold(Hold.HELP, 102.0)
    assert isinstance(controller.top, HelpScreen) and controller.stack.beneath is pause
    life.release(Hold.HELP, 103.0)
    assert controller.top is pause


def test_the_question_whether_to_quit_takes_every_key_over_the_screen_it_was_asked_on(
    term: Terminal,
) -> None:
    controller, host, life = game()
    life.round_over(101.0, match_over=False)
    life.advance(101.0 + RESULT_GRACE)
    controller.show_result(Result(0, False))
    press(term, controller, "q")
    assert kinds(controller) == [ResultScreen, QuitScreen]
    assert isinstance(controller.stack.beneath, ResultScreen)
    press(term, controller, "\r")  # Enter answers no, and goes on to nothing else
    assert kinds(controller) == [ResultScreen] and host.rounds == 0
    press(term, controller, "q", "y")
    assert host.finished == [0]


def test_a_screen_takes_only_its_own_keys(term: Terminal) -> None:
    controller, host, life = game()
    life.hold(Hold.HELP, 101.0)
    press(term, controller, "a", "\r")  # a player's key, and Enter: not the help's
    assert host.plays == [] and host.rounds == 0
    assert controller.overlay == HelpScreen.NAME
    assert HelpScreen().lookup("a") is None


def test_every_screens_keys_say_what_they_do() -> None:
    for screen in (HelpScreen, ReplayHelpScreen, PauseScreen, ResultScreen, QuitScreen):
        assert screen.BINDINGS
        for binding in screen.BINDINGS:
            assert binding.description, (screen, binding)
    other = QuitScreen().lookup("x")  # any other key: no
    assert other is not None and other.intent is Intent.NO


def test_the_stack_pushes_and_pops_to_what_is_wanted() -> None:
    stack = ScreenStack()
    stack.show([PauseScreen, HelpScreen])
    pause, help_ = stack.screens
    stack.show([PauseScreen, ResultScreen])
    assert stack.screens[0] is pause and isinstance(stack.top, ResultScreen)
    assert help_ not in stack.screens
    stack.show([])
    assert stack.top is None


@pytest.mark.parametrize(
    ("code", "live", "before"),
    [
        ("en", "Esc or Enter: play on    ?: help    q: quit", "Esc: play on    ?: help"),
        ("de", "Esc/Enter: weiter    ?: Hilfe    q: Ende", "Esc: weiter    ?: Hilfe"),
        ("sv", "Esc/Enter: spela vidare    ?: hjälp    q: sluta", "Esc: spela vidare    ?: hjälp"),
    ],
)
def test_the_pause_box_says_its_keys_from_its_bindings_in_the_language(
    code: str, live: str, before: str
) -> None:
    lang.choose(code)
    try:
        assert key_hint(PauseScreen.BINDINGS) == live
        assert key_hint(PauseScreen.BINDINGS, live=False) == before  # Enter and q: not yet
    finally:
        lang.choose(None)


@pytest.mark.parametrize(
    ("code", "pause", "waiting", "quit_only"),
    [
        ("en", "Enter: play on    ?: help    q: quit", "Esc or q: give up", "q: quit"),
        ("de", "Enter: weiter    ?: Hilfe    q: Ende", "Esc/q: aufgeben", "q: Ende"),
        ("sv", "Enter: spela vidare    ?: hjälp    q: sluta", "Esc/q: ge upp", "q: sluta"),
    ],
)
def test_a_network_tables_panels_say_their_keys_from_their_bindings_in_the_language(
    code: str, pause: str, waiting: str, quit_only: str
) -> None:
    lang.choose(code)
    try:
        assert key_hint(NetPanelScreen.BINDINGS) == pause
        assert key_hint(NetWaitingScreen.BINDINGS) == waiting
        assert key_hint(QUIT_ONLY) == quit_only
    finally:
        lang.choose(None)


@pytest.mark.parametrize(
    ("code", "game", "replay", "paused"),
    [
        (
            "en",
            "? help  Esc pause  ^C quit",
            "Spc pause  ? keys  q quit",
            "Spc go on  ? keys  q quit",
        ),
        (
            "de",
            "? Hilfe  Esc Pause  ^C Ende",
            "Spc Pause  ? Tasten  q Ende",
            "Spc weiter  ? Tasten  q Ende",
        ),
        (
            "sv",
            "? hjälp  Esc paus  ^C sluta",
            "Spc paus  ? tangenter  q sluta",
            "Spc vidare  ? tangenter  q sluta",
        ),
    ],
)
def test_the_title_lines_say_their_keys_from_the_bindings_in_the_language(
    code: str, game: str, replay: str, paused: str
) -> None:
    lang.choose(code)
    try:
        assert title_hint(default_keymap().bindings) == game
        assert title_hint(replay_keymap().bindings) == replay
        assert title_hint(replay_keymap().bindings, {Intent.PAUSE: "go on"}) == paused
    finally:
        lang.choose(None)


@pytest.mark.parametrize(
    ("code", "next_round", "rematch", "again"),
    [
        (
            "en",
            "Enter: next round    q: quit",
            "Enter: rematch    q: quit",
            "Enter: watch again    q or Esc: leave",
        ),
        (
            "de",
            "Enter: nächste Runde    q: Ende",
            "Enter: Revanche    q: Ende",
            "Enter: nochmal ansehen    q/Esc: verlassen",
        ),
        (
            "sv",
            "Enter: nästa omgång    q: sluta",
            "Enter: ny match    q: sluta",
            "Enter: se igen    q/Esc: lämna",
        ),
    ],
)
def test_the_result_says_its_keys_from_its_bindings_in_the_language(
    term: Terminal, code: str, next_round: str, rematch: str, again: str
) -> None:
    lang.choose(code)
    try:
        for screen, result, said in (
            (ResultScreen(), Result(0, False, keys_live=True), next_round),
            (ResultScreen(), Result(0, True, keys_live=True), rematch),
            (ReplayResultScreen(), Result(0, True, keys_live=True), again),
        ):
            view = view_of(table_at(), overlay=screen, result=result)
            assert said in text(draw(term, view))
    finally:
        lang.choose(None)
