"""What a key does, in-process: the controller on a hand-driven clock, without a terminal."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from blessed import Terminal
from blessed.keyboard import Keystroke

from stress_tui.core.actions import CallStress, Play, PlayTogether, ReadyToFlip, StopStress
from stress_tui.core.lifecycle import RESULT_GRACE, Lifecycle
from stress_tui.core.rules import Rules
from stress_tui.terminal.clock import Clock
from stress_tui.terminal.controller import (
    MENU_GRACE,
    GameController,
    TogetherKey,
    action_for,
)
from stress_tui.terminal.keys import Binding, Intent, default_keymap
from stress_tui.terminal.scene import Overlay
from stress_tui.terminal.screens.help import HelpScreen
from stress_tui.terminal.screens.result import Result
from tests.test_clock import Outside


class Host:
    """Stands in for the game: notes what the controller asks of it."""

    def __init__(self) -> None:
        self.ready: list[int] = []
        self.finished: list[int] = []
        self.plays: list[Binding] = []
        self.later: list[tuple[float, Callable[[], None]]] = []
        self.draws = 0
        self.redraws = 0
        self.suspends = 0
        self.rounds = 0
        self.in_play = True
        self.strays: list[str] = []

    def finish(self, code: int) -> None:
        self.finished.append(code)

    def request_draw(self) -> None:
        self.draws += 1

    def redraw(self) -> None:
        self.redraws += 1

    def call_later(self, delay: float, callback: Callable[[], None]) -> None:
        self.later.append((delay, callback))

    def suspend(self) -> None:
        self.suspends += 1

    def play(self, binding: Binding) -> None:
        self.plays.append(binding)

    def next_round(self) -> None:
        self.rounds += 1

    def match_in_play(self) -> bool:
        return self.in_play

    def ready_to_start(self, player: int) -> None:
        self.ready.append(player)

    def stray_key(self, name: str) -> None:
        self.strays.append(name)

    def fits(self, binding: Binding) -> bool:
        return False

    def run_later(self) -> None:
        """The loop comes round to what was set for later."""
        later, self.later = self.later, []
        for _, callback in later:
            callback()


@pytest.fixture(scope="module")
def term() -> Terminal:
    return Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)


@pytest.fixture
def setup() -> tuple[GameController, Host, Clock]:
    host = Host()
    clock = Clock(Outside(), Lifecycle(count=0.0))  # play goes on at once: no count here
    clock.set(0.0)
    clock.life.deal(0.0)
    return GameController(host, clock, default_keymap()), host, clock


def press(term: Terminal, controller: GameController, *keys: str) -> None:
    for text in keys:
        term.ungetch(text)
        keystroke: Keystroke = term.inkey(timeout=0)
        controller.key(keystroke)


def test_a_players_key_on_the_table_is_a_play(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    press(term, controller, "q", "j")
    assert [(b.player, b.intent, b.pile) for b in host.plays] == [
        (0, Intent.LEFT, 0),
        (1, Intent.RIGHT, 0),
    ]


def test_help_stops_the_clock_and_takes_the_players_keys_away(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, clock = setup
    press(term, controller, "?")
    assert controller.overlay == Overlay.HELP
    assert clock.paused == {"help"}
    press(term, controller, "a", "v")
    assert host.plays == []
    press(term, controller, "?")  # ? again: back to the game
    assert controller.overlay is None
    assert clock.paused == set()
    press(term, controller, "a")
    assert len(host.plays) == 1


def test_esc_closes_help_and_opens_pause(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, clock = setup
    press(term, controller, "?", "\x1b[27u")  # Esc, as the kitty protocol sends it
    assert controller.overlay is None
    press(term, controller, "\x1b[27u")
    assert controller.overlay == Overlay.PAUSE
    assert clock.paused == {"pause"}
    host.run_later()  # a moment later
    press(term, controller, "\r")  # Enter: play on
    assert controller.overlay is None
    assert clock.paused == set()


def test_q_plays_on_the_table_and_on_pause_asks_before_it_quits_the_match(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    press(term, controller, "q")
    assert host.finished == [] and len(host.plays) == 1
    press(term, controller, "\x1b[27u")
    host.run_later()  # a moment later
    press(term, controller, "q")
    assert host.finished == [] and controller.quit_asked
    press(term, controller, "y")
    assert host.finished == [0]


def test_help_and_pause_ignore_their_menu_keys_for_a_moment_after_they_open(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    for opener in ("\x1b[27u", "?"):  # pause, help
        press(term, controller, opener)
        assert [delay for delay, _ in host.later] == [MENU_GRACE]
        assert not controller.menu_live
        top = controller.top
        if isinstance(top, HelpScreen):
            top.last = 30  # as if drawn with 30 lines more than the window holds
        press(term, controller, "q", "\r", "\x1b[B")  # player 1's q; Enter; Down
        assert (host.finished, controller.quit_asked) == ([], False)
        assert not isinstance(top, HelpScreen) or top.offset == 0
        assert controller.overlay is not None
        host.run_later()
        assert controller.menu_live
        press(term, controller, "q")
        assert controller.quit_asked
        press(term, controller, "n")  # no
        assert not controller.quit_asked
        press(term, controller, opener)  # back to the table
        assert controller.overlay is None
        assert host.finished == []


def test_a_moment_from_an_earlier_opening_does_not_count_for_a_new_one(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    press(term, controller, "\x1b[27u", "\x1b[27u", "\x1b[27u")  # pause, play on, pause
    first, _ = host.later
    first[1]()  # the first opening's moment ends
    assert not controller.menu_live
    host.run_later()
    assert controller.menu_live


def test_opening_help_from_pause_keeps_the_keys_as_they_were(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    press(term, controller, "\x1b[27u")
    host.run_later()
    press(term, controller, "?")
    assert controller.overlay == Overlay.HELP
    assert controller.menu_live and host.later == []


def test_the_question_says_no_to_any_other_key_and_ctrl_c_still_leaves(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    press(term, controller, "\x1b[27u")
    host.run_later()
    press(term, controller, "q", "q")  # the second q: no, not quit
    assert host.finished == [] and not controller.quit_asked
    assert controller.overlay == Overlay.PAUSE
    press(term, controller, "q", "\x0c")  # Ctrl-L redraws and leaves the question up
    assert controller.quit_asked and host.redraws == 1
    press(term, controller, "\x03")
    assert host.finished == [130]


def test_a_match_that_is_over_quits_at_once(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, clock = setup
    host.in_play = False
    clock.life.round_over(0.0, match_over=True)
    clock.life.advance(RESULT_GRACE)  # the result takes keys
    controller.show_result(Result(0, True))
    press(term, controller, "q")
    assert host.finished == [0]


def test_ctrl_c_leaves_at_once_wherever_it_is_pressed(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    press(term, controller, "\x03")
    press(term, controller, "?", "\x03")
    assert host.finished == [130, 130]


def test_ctrl_l_draws_everything_again(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    press(term, controller, "\x0c")
    assert host.redraws == 1


def test_the_result_screen_ignores_keys_for_a_moment(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, clock = setup
    result = Result(0, False)
    clock.life.round_over(0.0, match_over=False)
    controller.show_result(result)
    assert controller.overlay == Overlay.RESULT
    press(term, controller, "\r", "q", "a")
    assert (host.rounds, host.finished, host.plays) == (0, [], [])
    clock.life.advance(RESULT_GRACE)
    press(term, controller, "\r")
    assert host.rounds == 1
    press(term, controller, "q")  # between rounds of a match in play: asked first
    assert host.finished == [] and controller.quit_asked


def test_a_new_round_has_nothing_over_it(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, _, clock = setup
    press(term, controller, "\x1b[27u", "?")
    controller.show_result(Result(1, False))
    clock.pause("small")
    controller.new_round()
    clock.life.deal(1.0)
    assert controller.result is None
    assert clock.paused == {"small"}  # the window is still too small
    assert controller.overlay is None


def test_a_held_key_plays_once(term: Terminal, setup: tuple[GameController, Host, Clock]) -> None:
    controller, host, _ = setup
    press(term, controller, "\x1b[113u", "\x1b[113;1:2u", "\x1b[113;1:2u", "\x1b[113;1:3u")
    assert len(host.plays) == 1


def test_the_tail_of_a_mouse_report_plays_nothing(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    press(term, controller, "\x1b[", *"<0;10;5M")
    controller.burst_over()
    assert host.plays == []
    press(term, controller, "m")  # player 2's stress, after the report
    assert [b.intent for b in host.plays] == [Intent.STRESS]


def test_ctrl_z_as_a_kitty_key_suspends(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, _ = setup
    press(term, controller, "\x1b[122;5u")
    assert host.suspends == 1


def test_a_players_key_while_the_clock_is_stopped_plays_nothing(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    controller, host, clock = setup
    clock.pause("small")  # the window too small: the table is not shown
    press(term, controller, "q")
    assert host.plays == []


@pytest.mark.parametrize(
    ("binding", "action"),
    [
        (Binding("q", Intent.LEFT, 0, 0), Play(0, 0, 0, 1.5)),
        (Binding("k", Intent.RIGHT, 1, 1), Play(1, 1, 1, 1.5)),
        (Binding("v", Intent.STRESS, 0), CallStress(0, 1.5)),
        (Binding(",", Intent.READY, 1), ReadyToFlip(1, 1.5)),
        (Binding("x", Intent.STOP, 0), StopStress(0, 1.5)),
        (Binding("r", Intent.LEFT, 0, 3), None),  # a fourth pile, under rows of three
    ],
)
def test_a_players_intent_becomes_an_action_stamped_now(binding: Binding, action: object) -> None:
    assert action_for(binding, 1.5, 3) == action


def test_the_together_key_then_a_pile_key_lays_the_pile_with_its_equals() -> None:
    """001's Stapel on a keyboard: two key presses one after the other, never a chord. The
    together key arms the player's next pile key; pressed again it is taken back; without
    the rule it does nothing."""
    keys = default_keymap()
    together = TogetherKey()
    on = Rules.for_deck("skat")
    z, q, s = (keys.lookup(name) for name in ("z", "q", "s"))
    assert z is not None and q is not None and s is not None
    assert z.intent is Intent.TOGETHER and z.player == 0
    assert together.action(z, 1.0, on) is None
    assert together.shown() == (True, False)
    assert together.action(q, 1.5, on) == PlayTogether(0, 0, 0, 1.5)
    assert together.shown() == (False, False), "one pile key, then plain plays again"
    assert together.action(s, 2.0, on) == Play(0, 1, 1, 2.0)
    together.action(z, 3.0, on)
    together.action(z, 3.1, on)
    assert together.action(q, 3.2, on) == Play(0, 0, 0, 3.2), "pressed twice: taken back"
    off = Rules.for_deck("jass")
    assert together.action(z, 4.0, off) is None
    assert together.shown() == (False, False)
    assert together.action(q, 4.1, off) == Play(0, 0, 0, 4.1)


def test_a_key_that_plays_nothing_on_the_table_is_said_to_the_game(
    term: Terminal, setup: tuple[GameController, Host, Clock]
) -> None:
    """A key nobody has on the table goes to the game to be said (``stray_key``); a bound
    key, Ctrl keys and keys over a screen do not."""
    controller, host, _ = setup
    press(term, controller, "1", "q", "\x07")
    assert host.strays == ["1"]
    press(term, controller, "?", "1")
    assert host.strays == ["1"]
