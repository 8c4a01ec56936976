"""The terminal game: keys in, timed actions to the table, changed cells out, on one loop.

``run(settings)`` owns the terminal from start to end. One asyncio task awaits
``Terminal.async_inkey()``; every key is stamped with the round's clock (the loop's clock
minus the round's start minus the time spent paused) and applied at once, in the order the
keys arrived, so two keys in one burst are settled by their order. The table's own doings
(the flip after "1 2 3", a computer player's move) and the countdown's ticks are carried
out by one timer set for the next of them; with nothing due, nothing runs. A frame is drawn
only after something changed, and only the cells that changed are written, in one write.

The terminal is put back on every way out: quit, Ctrl-C (exit 130), Ctrl-\\ (131),
SIGTERM (143), SIGHUP (129), SIGPIPE (141) and a crash (exit 1: one line saying so, then
the traceback, printed after the terminal is restored). Ctrl-Z suspends with the terminal
restored and draws everything again on ``fg``.

What is not a key press is not acted on: the rest of an escape sequence blessed does not
know and the inside of a bracketed paste are dropped (``keys.SequenceFilter``), bytes that
are not UTF-8 become U+FFFD (no key), a flood of input larger than any typing is discarded,
and flow control is off, so Ctrl-S cannot freeze the screen.

Every round dealt from a seed is recorded as it is played (``stress_tui.replay``: each
action written the moment it is applied), and when it ends its statistics are shown
(``stress_tui.stats``) and counted in the record kept across matches. A recording or
record problem (a data directory that cannot be written, a broken record file) is said
once and the game plays on without it; it never ends the game.

``Screen`` is what the game and the replay viewer (``stress_tui.playback``) share: the
terminal, the round's clock (which a replay runs faster or slower), the one timer, the
one task reading keys, and the drawing. ``App`` is the game.

Test hooks (environment variables, not for players): ``STRESS_TUI_POSITION`` starts the
first round at a position in notation (``stress_tui.notation``) instead of dealing, with
that position's rules (such a round has no seed, so it is neither recorded nor counted in
the record; its statistics are shown); ``STRESS_TUI_TEST_CRASH=1`` makes the first key
raise, to check the crash path. ``STRESS_TUI_DATA_DIR`` puts replays and the record in
another directory (``stress_tui.storage``).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import copy
import errno
import functools
import gc
import os
import random
import secrets
import signal
import sys
import termios
import traceback
from collections.abc import Callable
from typing import Any

from blessed import Terminal
from blessed.keyboard import Keystroke

from stress_tui.core.engine import (
    Action,
    CallStress,
    Event,
    Game,
    Match,
    Play,
    ReadyToFlip,
    RoundDrawn,
    RoundWon,
    State,
    StopStress,
)
from stress_tui.core.notation import format_rules
from stress_tui.core.rules import Rules
from stress_tui.core.settings import Settings
from stress_tui.core.stats import RoundStats, round_stats
from stress_tui.core.table import Driver, Table
from stress_tui.storage.files import StorageError, reason
from stress_tui.storage.record import Record, count_round
from stress_tui.storage.replay import Recorder, replay_dir
from stress_tui.terminal.draw.canvas import Frame, FrameCanvas, RenderCache
from stress_tui.terminal.draw.encode import encode
from stress_tui.terminal.draw.palette import Palette
from stress_tui.terminal.keys import Binding, Intent, KeyMap, SequenceFilter, key_name, keymap_for
from stress_tui.terminal.layout import Layout, layout
from stress_tui.terminal.notices import Notice, Notices
from stress_tui.terminal.overlays import help_page
from stress_tui.terminal.pieces import countdown_ticks, warm_cards
from stress_tui.terminal.render import render
from stress_tui.terminal.view import Overlay, Result, View

EXIT_QUIT = 0
EXIT_CRASH = 1
EXIT_NOT_A_TERMINAL = 2
EXIT_SIGHUP = 128 + signal.SIGHUP
EXIT_SIGINT = 128 + signal.SIGINT
EXIT_SIGTERM = 128 + signal.SIGTERM
EXIT_SIGQUIT = 128 + signal.SIGQUIT
EXIT_SIGPIPE = 128 + signal.SIGPIPE

ESC_DELAY = 0.03
"""Seconds to wait after Esc for the rest of a sequence. blessed's 0.35 s also holds up
every key behind a sequence it does not know (a paste, a mouse report); a terminal sends
a whole sequence at once, and 30 ms covers a slow link."""

FLOOD = 512
"""Characters read ahead past which the input is a flood (a paste, a stuck key repeating
into a slow terminal), not typing: it is discarded, since blessed reads a burst in time
that grows with the square of its length."""

RESULT_GRACE = 0.5
"""Seconds after a round ends during which the result screen ignores keys, so that a
player still hammering their keys does not skip it (or quit)."""

QUERY_TIMEOUT = 0.5
"""Seconds to wait for the terminal to answer a question (kitty keyboard, sync output)."""

WARNING_SECONDS = 5.0
"""How long a warning (replays off, a broken record file) stays on the banner line."""

POSITION_ENV = "STRESS_TUI_POSITION"
CRASH_ENV = "STRESS_TUI_TEST_CRASH"

_GONE = (errno.EIO, errno.EPIPE, errno.ENXIO, errno.EBADF)
"""Errors that mean the terminal is no longer there."""

_SYNC_BEGIN = "\x1b[?2026h"
_SYNC_END = "\x1b[?2026l"


class KeyboardClosedError(OSError):
    """The keyboard's end was read: the terminal has gone (a hangup)."""


class GameTerminal(Terminal):
    """blessed's ``Terminal``, with the keyboard's end reported as the terminal gone.

    When the terminal closes, a read of the keyboard finds its end: blessed's ``getch``
    raises ``EOFError``, which ``flushinp`` (run at the start of every ``async_inkey``)
    swallows, after which ``async_inkey`` waits for a byte that never comes in a loop that
    never sleeps: a game whose SIGHUP did not arrive spun at 100% of a core, and one whose
    read came before its SIGHUP exited with 1 as if it had crashed. Raised as an
    ``OSError`` with ``EIO`` instead, the end leaves ``async_inkey`` and the game ends as on
    a hangup (129)."""

    def getch(self, decode_latin1: bool = False) -> str:
        try:
            return super().getch(decode_latin1=decode_latin1)
        except EOFError:
            raise KeyboardClosedError(errno.EIO, "the keyboard has closed") from None


def make_terminal() -> tuple[Terminal, bool]:
    """A ``Terminal`` for the game, and whether colour may be used.

    ``NO_COLOR`` makes blessed drop every sequence, cursor moves included, which would leave
    a full-screen table unable to draw. So the terminal is made without it in sight and the
    game honours it itself: no colours, only bold and reverse video.
    """
    no_color = bool(os.environ.get("NO_COLOR"))
    if not no_color:
        return _lenient(GameTerminal()), True
    saved = os.environ.pop("NO_COLOR")
    try:
        return _lenient(GameTerminal()), False
    finally:
        os.environ["NO_COLOR"] = saved


def _lenient(term: Terminal) -> Terminal:
    """Keyboard bytes that are not valid in the terminal's encoding become U+FFFD (a key
    nobody has) instead of an exception out of blessed's strict decoder."""
    encoding = getattr(term, "_encoding", None)
    if encoding and hasattr(term, "_keyboard_decoder"):
        term._keyboard_decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    return term


def _no_flow_control() -> None:
    """Turn off XON/XOFF in the keyboard's terminal (cbreak leaves it on), so that Ctrl-S,
    next to player 1's S, cannot stop the screen, and keep input on a signal key (NOFLSH);
    the mode cbreak saved puts both back."""
    fd = sys.stdin.fileno()
    attrs = termios.tcgetattr(fd)
    attrs[0] &= ~(termios.IXON | termios.IXOFF)
    # Keep unread input when Ctrl-C, Ctrl-\ or Ctrl-Z raise their signal: flushing it can
    # leave blessed blocked reading a byte it saw waiting, with the signal never handled.
    attrs[3] |= termios.NOFLSH
    termios.tcsetattr(fd, termios.TCSANOW, attrs)


class Screen:
    """A round on the table in a terminal: the clock, the timer, the keys and the drawing.

    Subclasses say what a round is (``begin_round``), what is due when (``due_times``,
    ``advance``), what a key does (``on_binding``) and what a frame shows (``view``).
    """

    def __init__(self, term: Terminal, settings: Settings, colour: bool = True) -> None:
        self.term = term
        self.settings = settings
        self.rules: Rules = settings.rules
        """The rules of the round on the table."""
        self.keymap: KeyMap = keymap_for(settings.players, settings.keymap)
        self.sequences = SequenceFilter()
        """Drops escape sequences and pastes that are not key presses."""
        self.palette = Palette(term, colour=colour, four_colour=settings.four_colour)
        self.notices = Notices(settings.names)
        self.crash_on_key = os.environ.get(CRASH_ENV) == "1"
        self.out_fd = sys.stdout.fileno()

        self.loop: asyncio.AbstractEventLoop | None = None
        self.done: asyncio.Future[int] | None = None
        self.table: Table
        """The round on the table (set by the subclass)."""
        self.speed = 1.0
        """Seconds of the round's clock per second of the loop's (a replay's ``--speed``)."""
        self.clock_origin = 0.0
        """What the round's clock showed at ``round_start``."""
        self.round_start = 0.0
        self.paused_total = 0.0
        self.paused_since = 0.0
        self.paused: set[str] = set()
        """Why the round's clock is stopped: ``help``, ``pause``, ``small``, ``suspend``."""
        self.last_time = 0.0
        self.result: Result | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.timer_due = 0.0
        self.draw_pending = False
        self.help_offset = 0
        self.cache = RenderCache()
        """Glyph widths, styled text and cards, kept from frame to frame."""
        self.frame: Frame | None = None
        """What the screen shows now (``None``: unknown, draw everything)."""
        self.canvas: FrameCanvas | None = None
        """Where frames are drawn, kept from one to the next (for the screen's size)."""
        self.size = (0, 0)
        self.sync = False
        self.terminal_modes: contextlib.ExitStack | None = None
        self.resumed = False
        self.warm: tuple[int, int] | None = None
        """The card size drawn ahead of time."""
        self.bytes_written = 0
        self.frames_written = 0

    # ------------------------------------------------------------------ the clock

    def loop_time(self) -> float:
        assert self.loop is not None
        return self.loop.time()

    def game_time(self) -> float:
        """The round's clock: seconds since the round began, not counting paused time,
        times ``speed``; never runs back."""
        now = self.loop_time()
        paused = self.paused_total + (now - self.paused_since if self.paused else 0.0)
        shown = self.clock_origin + (now - self.round_start - paused) * self.speed
        self.last_time = max(self.last_time, shown)
        return self.last_time

    def loop_time_at(self, game_time: float) -> float:
        """When (on the loop's clock) the round's clock shows ``game_time``, if it is not
        paused meanwhile."""
        return self.round_start + self.paused_total + (game_time - self.clock_origin) / self.speed

    def set_clock(self, game_time: float) -> None:
        """Make the round's clock show ``game_time`` now (stopped still if paused)."""
        now = self.loop_time()
        self.clock_origin = game_time
        self.round_start = now
        self.paused_total = 0.0
        self.paused_since = now
        self.last_time = game_time

    def pause(self, reason: str) -> None:
        """Stop the round's clock for ``reason`` (several reasons may hold at once)."""
        if not self.paused:
            self.paused_since = self.loop_time()
        self.paused.add(reason)
        self.schedule()

    def unpause(self, reason: str) -> None:
        """Drop one reason to pause; the clock runs again when none is left."""
        if reason not in self.paused:
            return
        self.paused.discard(reason)
        if not self.paused:
            self.paused_total += self.loop_time() - self.paused_since
        self.schedule()

    def warn(self, text: str) -> None:
        """Say something went wrong outside the game (on the banner line, for a while)."""
        now = self.game_time() if self.loop is not None else self.last_time
        shown = self.notices.headline
        if shown is not None and shown.kind == "warn" and (shown.until or 0.0) > now:
            text = f"{shown.text}; {text}"  # another warning still up: say both
        self.notices.headline = Notice(text, "warn", now + WARNING_SECONDS)
        self.schedule()
        self.request_draw()

    # ------------------------------------------------------------------ the round

    def begin_round(self) -> None:
        """Start the round's clock and draw it."""
        raise NotImplementedError

    def due_times(self) -> list[float | None]:
        """When the round next has something to do by itself."""
        raise NotImplementedError

    def advance(self, now: float) -> None:
        """Carry out what is due by ``now``."""
        raise NotImplementedError

    def view(self) -> View:
        """What a frame shows."""
        raise NotImplementedError

    def frame_view(self, **differing: Any) -> View:
        """A frame's ``View`` with what every screen shows the same way filled in, and
        ``differing`` (score, result, seed...) as the screen gives it."""
        return View(
            table=self.table,
            now=self.game_time(),
            keymap=self.keymap,
            notices=self.notices,
            names=self.settings.names,
            kinds=self.settings.players,
            overlay=self.overlay,
            ascii=self.settings.ascii,
            **differing,
        )

    def on_binding(self, binding: Binding, overlay: str | None) -> None:
        """What a key does."""
        raise NotImplementedError

    def shut_down(self) -> None:
        """On the way out, whichever way (quit, signal, crash): let go of what is open."""

    # ------------------------------------------------------------------ the timer

    def schedule(self) -> None:
        """Set the one timer for the next thing due: a flip, a computer's move, a tick of
        the count, a notice or a lockout running out. None while paused or idle."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.loop is None or self.paused or self.result is not None:
            return
        now = self.game_time()
        times = [
            *self.due_times(),
            countdown_ticks(self.table, now),
            self.notices.next_expiry(),
        ]
        times += [p.locked_until for p in self.table.game.state.players if p.locked_until > now]
        due = [t for t in times if t is not None]
        if not due:
            return
        self.timer_due = min(due)
        self.timer = self.loop.call_at(
            self.loop_time_at(self.timer_due), self.guarded, self.on_timer
        )

    def on_timer(self) -> None:
        self.timer = None
        now = max(self.game_time(), self.timer_due)
        self.last_time = now
        self.advance(now)
        self.notices.expire(now)
        # A tick of the count, a notice or a lockout running out: the screen changes.
        self.request_draw()
        self.schedule()

    # ------------------------------------------------------------------ keys

    async def read_keys(self) -> None:
        """The one task that reads the keyboard."""
        try:
            while True:
                keystroke = await self.term.async_inkey(esc_delay=ESC_DELAY)
                self.on_key(keystroke)
                if self.buffered() > FLOOD:
                    self.term.flushinp()
                    self.sequences.burst_over()
                elif not self.input_pending():
                    self.sequences.burst_over()
        except asyncio.CancelledError:
            raise
        except OSError as error:
            if error.errno in _GONE:
                self.finish(EXIT_SIGHUP)
            else:
                self.fail(error)
        except Exception as error:
            self.fail(error)

    @property
    def overlay(self) -> str | None:
        """What covers the table now."""
        if "help" in self.paused:
            return Overlay.HELP
        if self.result is not None:
            return Overlay.RESULT
        if "pause" in self.paused:
            return Overlay.PAUSE
        return None

    def on_key(self, keystroke: Keystroke) -> None:
        """One key, as it arrived."""
        if self.crash_on_key:
            raise RuntimeError(f"{CRASH_ENV}: a crash on the first key, as asked")
        if not self.sequences.passes(keystroke):
            return
        if keystroke.repeated:
            return  # kitty keyboard protocol: a held key plays once
        name = key_name(keystroke)
        if name is None:
            return
        if name == "ctrl+z":  # only seen as a key with the kitty protocol
            self.suspend()
            return
        overlay = self.overlay
        binding = self.keymap.lookup(name, menu=overlay is not None)
        if binding is None:
            return
        self.on_binding(binding, overlay)
        # The last key of a burst is drawn at once, without waiting for the loop to
        # come round; earlier keys of the burst leave the drawing to it.
        if self.draw_pending and not self.input_pending():
            self.draw()

    def grace_over(self) -> bool:
        return self.result is not None and self.result.keys_live

    def result_keys_live(self, result: Result) -> None:
        result.keys_live = True
        self.request_draw()

    def show_result(self, result: Result) -> None:
        """Cover the table with the round's result; its keys work a moment later."""
        self.result = result
        assert self.loop is not None
        self.loop.call_later(
            RESULT_GRACE, self.guarded, functools.partial(self.result_keys_live, result)
        )
        self.request_draw()

    # ------------------------------------------------------------------ drawing

    def request_draw(self) -> None:
        """Draw soon: once the keys that arrived together have all been applied."""
        if self.draw_pending or self.loop is None:
            return
        self.draw_pending = True
        self.loop.call_soon(self.guarded, self.draw_if_pending)

    def draw_if_pending(self) -> None:
        if self.draw_pending:
            self.draw()

    def buffered(self) -> int:
        """Characters blessed has read ahead (the rest of a burst), if it says."""
        return len(getattr(self.term, "_keyboard_buf", ()))

    def input_pending(self) -> bool:
        """Whether more keys have already arrived: read ahead by blessed (it buffers the
        rest of a burst) or waiting in the terminal."""
        return self.buffered() > 0 or self.term.kbhit(timeout=0)

    def draw(self) -> None:
        """Render a frame and write what differs from the screen, in one write."""
        self.draw_pending = False
        if self.terminal_modes is None:
            return
        width, height = self.size
        self.cache.trim()
        canvas = self.canvas
        if canvas is None or (canvas.width, canvas.height) != (width, height):
            canvas = self.canvas = FrameCanvas(width, height, self.term.length, self.cache)
        rows = render(self.view(), self.palette, canvas)
        text = encode(self.frame, rows, self.term, clear=self.term.clear, cache=self.cache)
        self.frame = rows
        if text:
            self.write(_SYNC_BEGIN + text + _SYNC_END if self.sync else text)

    def write(self, text: str) -> None:
        data = text.encode("utf-8")
        view = memoryview(data)
        try:
            while view:
                written = os.write(self.out_fd, view)
                view = view[written:]
        except OSError as error:
            if error.errno in _GONE:  # the terminal has gone away: as good as a hangup
                self.finish(EXIT_SIGHUP)
                return
            raise
        self.bytes_written += len(data)
        self.frames_written += 1

    def on_resize(self) -> None:
        """Lay the table out again for the terminal's size, pausing if it is too small."""
        self.size = (self.term.width, self.term.height)
        lay = layout(self.size[0], self.size[1], self.rules.row_size)
        if lay is None:
            self.pause("small")
        else:
            self.unpause("small")
        self.frame = None
        self.request_draw()
        if lay is not None and self.loop is not None and self.warm != (lay.card_h, lay.card_w):
            self.warm = (lay.card_h, lay.card_w)
            self.loop.call_soon(self.guarded, self.warm_up, lay)

    def warm_up(self, lay: Layout) -> None:
        """After a frame is up: draw every card once, so that no play waits for its card's
        drawing, and set everything made so far aside from the garbage collector, whose
        full collections would otherwise walk it all in the middle of some key press."""
        cards = self.rules.spec.cards(self.rules.jokers)
        warm_cards(self.cache, self.term.length, self.palette, lay, cards, self.settings.ascii)
        if not gc.get_freeze_count():
            gc.collect()
            gc.freeze()

    # ------------------------------------------------------------------ the terminal

    def enter_terminal(self) -> None:
        """Full screen, cbreak, hidden cursor, kitty keys: all undone by ``leave_terminal``."""
        term = self.term
        stack = contextlib.ExitStack()
        try:
            stack.enter_context(term.fullscreen())
            stack.enter_context(term.cbreak())
            _no_flow_control()
            stack.enter_context(term.hidden_cursor())
            stack.enter_context(
                term.enable_kitty_keyboard(
                    report_events=True,
                    report_all_keys=True,
                    report_text=True,
                    timeout=QUERY_TIMEOUT,
                )
            )
            self.sync = term.does_synchronized_output(timeout=QUERY_TIMEOUT)
        except BaseException:
            stack.close()
            raise
        self.terminal_modes = stack

    def leave_terminal(self) -> None:
        """Put the terminal back as it was (as far as a terminal that has gone allows)."""
        stack, self.terminal_modes = self.terminal_modes, None
        if stack is not None:
            try:
                stack.close()
            except OSError as error:
                if error.errno not in _GONE:
                    raise

    def suspend(self) -> None:
        """Ctrl-Z: restore the terminal, stop; on ``fg`` take it again and draw it all."""
        self.pause("suspend")
        self.leave_terminal()
        os.kill(os.getpid(), signal.SIGSTOP)
        # Here again after SIGCONT.
        self.enter_terminal()
        self.unpause("suspend")
        self.resumed = True
        self.on_resize()

    def on_continue(self) -> None:
        """SIGCONT: after our own stop, already handled; after a stop from outside
        (``kill -STOP``), the screen may be anything: draw it all."""
        if self.resumed:
            self.resumed = False
            return
        self.frame = None
        self.request_draw()

    # ------------------------------------------------------------------ running

    def guarded(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run a loop callback; a crash in it ends the game (with the traceback)."""
        try:
            callback(*args)
        except Exception as error:
            self.fail(error)

    def finish(self, code: int) -> None:
        if self.done is not None and not self.done.done():
            self.done.set_result(code)

    def fail(self, error: BaseException) -> None:
        if isinstance(error, OSError) and error.errno in _GONE:
            self.finish(EXIT_SIGHUP)  # the terminal has gone: a hangup, however noticed
            return
        if self.done is not None and not self.done.done():
            self.done.set_exception(error)

    async def main(self) -> int:
        loop = asyncio.get_running_loop()
        self.loop = loop
        self.done = loop.create_future()
        handlers: dict[signal.Signals, Callable[[], None]] = {
            signal.SIGINT: functools.partial(self.finish, EXIT_SIGINT),
            signal.SIGTERM: functools.partial(self.finish, EXIT_SIGTERM),
            signal.SIGHUP: functools.partial(self.finish, EXIT_SIGHUP),
            signal.SIGQUIT: functools.partial(self.finish, EXIT_SIGQUIT),
            signal.SIGPIPE: functools.partial(self.finish, EXIT_SIGPIPE),
            signal.SIGWINCH: self.on_resize,
            signal.SIGTSTP: self.suspend,
            signal.SIGCONT: self.on_continue,
        }
        for sig, callback in handlers.items():
            loop.add_signal_handler(sig, self.guarded, callback)
        reader: asyncio.Task[None] | None = None
        try:
            self.enter_terminal()
            self.size = (self.term.width, self.term.height)
            self.begin_round()
            self.on_resize()
            reader = asyncio.create_task(self.read_keys())
            return await self.done
        finally:
            if self.timer is not None:
                self.timer.cancel()
            if reader is not None:
                reader.cancel()
            for sig in handlers:
                loop.remove_signal_handler(sig)
            try:
                self.shut_down()
            finally:
                self.leave_terminal()


class App(Screen):
    """One run of the game in a terminal."""

    def __init__(self, term: Terminal, settings: Settings, colour: bool = True) -> None:
        self.seed = settings.seed if settings.seed is not None else secrets.randbelow(10**6)
        """The match's seed (shown on the result screen to replay the deal)."""
        position = os.environ.get(POSITION_ENV)
        self.first_game: Game | None = None
        rules = settings.rules
        if position:
            from stress_tui.core.notation import parse_position

            state = parse_position(position)
            rules = state.rules
            self.first_game = Game(state, random.Random(self.seed))
        super().__init__(term, settings, colour)
        self.rules = rules
        self.match = Match(rules, random.Random(self.seed))
        self.round_number = 1
        """The round's number in the match."""
        self.round_seed: int | None = None
        """The seed the round was dealt with (``None``: a position from the test hook)."""
        self.dealt: tuple[State, Any] | None = None
        """The round as it began: its position and its random source's state."""
        self.round_actions: list[Action] = []
        """Every action applied this round, for its statistics."""
        self.recorder: Recorder | None = None
        """The round's replay being written (``None``: not recorded)."""
        self.replays_off: str | None = None
        """Why replays are not written this session (``None``: they are)."""
        self.record_off: str | None = None
        """Why the record is not updated this session (``None``: it is)."""
        self.warnings: list[str] = []
        """Said on the banner line when the first round begins."""
        try:
            Record.load()
        except StorageError as error:
            self.record_off = str(error)
            self.warnings.append(
                "The record file cannot be read: left alone, not updated "
                "(stress-tui stats says why)"
            )
        self.table = self.new_table(self.first_game)

    # ------------------------------------------------------------------ rounds

    def drivers(self) -> tuple[Driver, ...]:
        """Computer players for the sides that are not human (``bot:LEVEL``), each with a
        random source of its own, seeded from the match's seed and the round."""
        bots = [
            (i, kind[4:]) for i, kind in enumerate(self.settings.players) if kind.startswith("bot:")
        ]
        if not bots:
            return ()
        from stress_tui.players.bot import make_bot

        round_number = sum(self.match.score)
        return tuple(
            make_bot(player=i, level=level, rng=random.Random(f"{self.seed}/{round_number}/{i}"))
            for i, level in bots
        )

    def new_table(self, game: Game | None = None) -> Table:
        """The next round's table: ``game``, or a new deal from the match."""
        if game is None:
            game = self.match.new_round()
            self.round_seed = self.match.round_seed
        else:
            self.round_seed = None
        self.dealt = (_copy_state(game.state), game.rng.getstate())
        self.round_actions = []
        return Table(game, drivers=self.drivers(), on_action=self.on_action)

    def begin_round(self) -> None:
        """Start the round's clock (at the position's time), its first count and its
        recording."""
        game = self.table.game
        self.set_clock(game.state.time)
        self.paused.discard("help")
        self.paused.discard("pause")
        self.result = None
        self.notices.clear()
        self.cache.new_round()
        # Between rounds, before the first count: what the last round left for the garbage
        # collector (the record's JSON writer leaves cycles) and the free lists it filled
        # go now, instead of piling up until a full collection of Python's own choosing
        # (docs/reliability.md, F15). With startup's objects frozen (``warm_up``) this
        # takes 0.3-2 ms a round (8 ms for each of the first two).
        gc.collect()
        self.table.start(self.game_time())
        for warning in self.warnings:
            self.warn(warning)
        self.warnings = []
        self.start_recording()
        self.schedule()
        self.request_draw()

    def next_round(self) -> None:
        """After the result screen: the next round, or a new match once one is won."""
        if self.match.winner is not None:
            self.match = Match(self.rules, self.match.rng)
            self.round_number = 1
        else:
            self.round_number += 1
        self.table = self.new_table()
        self.begin_round()

    def after_events(self, events: list[Event], now: float) -> None:
        """Show what happened; end the round if it was won."""
        if not events:
            return
        self.notices.note(events, now, self.table.game)
        for event in events:
            if isinstance(event, (RoundWon, RoundDrawn)):
                self.show_result(self.end_round(event))
        self.request_draw()

    def end_round(self, event: RoundWon | RoundDrawn) -> Result:
        """Count the round, write its replay's end, measure it and count it in the record."""
        winner = event.player if isinstance(event, RoundWon) else None
        if winner is not None:
            self.match.record(winner)
        match_over = winner is not None and self.match.winner is not None
        stats = round_stats(self.dealt_game(), self.round_actions)
        notes = [self.finish_recording(), self.count_in_record(stats, match_over)]
        return Result(winner, match_over, stats=stats, notes=tuple(note for note in notes if note))

    def dealt_game(self) -> Game:
        """A copy of the round as it began (for its statistics)."""
        assert self.dealt is not None
        state, rng_state = self.dealt
        rng = random.Random()
        rng.setstate(rng_state)
        return Game(_copy_state(state), rng)

    def advance(self, now: float) -> None:
        """Carry out what the table has due by ``now``."""
        self.after_events(self.table.advance(now), now)

    def due_times(self) -> list[float | None]:
        return [self.table.next_deadline()]

    # ------------------------------------------------------------------ recording

    def on_action(self, action: Action, events: list[Event]) -> None:
        """Every action the table applies: kept for the statistics, written to the replay."""
        self.round_actions.append(action)
        if self.recorder is not None:
            try:
                self.recorder.record(action, events)
            except OSError as error:
                self.stop_recording(error)

    def start_recording(self) -> None:
        """Open the round's replay (a round dealt from a seed, while replays work)."""
        self.recorder = None
        if self.round_seed is None or self.replays_off is not None:
            return
        score = (self.match.score[0], self.match.score[1])
        try:
            self.recorder = Recorder.start(
                self.table.game,
                self.round_seed,
                self.settings.players,
                self.settings.names,
                self.round_number,
                score,
            )
        except OSError as error:
            self.stop_recording(error)

    def stop_recording(self, error: OSError) -> None:
        """A replay could not be written: say so once, play on without replays."""
        recorder, self.recorder = self.recorder, None
        if recorder is not None:
            with contextlib.suppress(OSError):
                recorder.close()
        self.replays_off = reason(error)
        self.warn(f"Not recording replays ({self.replays_off}): {replay_dir()}")

    def finish_recording(self) -> str | None:
        """End the round's replay; a line for the result screen."""
        if self.round_seed is None:
            return "not recorded: a round set up from a position has no seed"
        recorder, self.recorder = self.recorder, None
        if recorder is None:
            return None if self.replays_off is None else f"not recorded ({self.replays_off})"
        try:
            path = recorder.finish(self.table.game)
        except OSError as error:
            with contextlib.suppress(OSError):
                recorder.close()
            self.replays_off = reason(error)
            return f"replay not saved ({self.replays_off}): {recorder.part}"
        return f"replay: {path.name}"

    def count_in_record(self, stats: RoundStats, match_over: bool) -> str | None:
        """Add the round (and the match) to the record; a line for the result screen if
        that failed (said once: the record is then left alone for the session)."""
        if self.round_seed is None or self.record_off is not None or stats.winner is None:
            return None
        names, rules = self.settings.names, format_rules(self.rules)
        try:
            count_round(names, rules, stats, match_over)
        except StorageError as error:
            self.record_off = str(error)
            return "record not updated: the file cannot be read (stress-tui stats says why)"
        except OSError as error:
            self.record_off = reason(error)
            return f"record not updated ({self.record_off})"
        return None

    def shut_down(self) -> None:
        """Quit mid-round: the replay keeps its ``.part`` file, readable as it is (unless
        nothing happened yet: a round left during its first count leaves no file)."""
        recorder, self.recorder = self.recorder, None
        if recorder is not None:
            with contextlib.suppress(OSError):
                recorder.close()
                if not self.round_actions:
                    recorder.part.unlink()

    # ------------------------------------------------------------------ keys

    def on_binding(self, binding: Binding, overlay: str | None) -> None:
        intent = binding.intent
        if intent is Intent.QUIT:
            self.finish(EXIT_SIGINT)
        elif intent is Intent.REDRAW:
            self.frame = None
            self.request_draw()
        elif intent is Intent.HELP:
            if overlay == Overlay.HELP:
                self.unpause("help")
            else:
                self.help_offset = 0
                self.pause("help")
            self.request_draw()
        elif intent is Intent.PAUSE:
            if overlay == Overlay.HELP:
                self.unpause("help")
            elif overlay == Overlay.PAUSE:
                self.unpause("pause")
            elif overlay is None:
                self.pause("pause")
            self.request_draw()
        elif intent is Intent.CONFIRM:
            if overlay == Overlay.RESULT and self.grace_over():
                self.next_round()
            elif overlay == Overlay.PAUSE:
                self.unpause("pause")
                self.request_draw()
        elif intent is Intent.SCROLL_UP or intent is Intent.SCROLL_DOWN:
            if overlay == Overlay.HELP:
                step = 1 if binding.key in ("up", "down") else 10
                step = -step if intent is Intent.SCROLL_UP else step
                width, height = self.size
                self.help_offset, _ = help_page(
                    self.view(), min(width - 6, 90), height, self.help_offset + step
                )
                self.request_draw()
        elif intent is Intent.MENU_QUIT:
            if overlay != Overlay.RESULT or self.grace_over():
                self.finish(EXIT_QUIT)
        elif binding.player is not None and overlay is None and not self.paused:
            self.play(binding)

    def play(self, binding: Binding) -> None:
        """A player's key becomes an action, stamped now, applied now."""
        now = self.game_time()
        self.advance(now)  # what fell due before this key comes first
        if self.result is not None:
            return
        player = binding.player
        assert player is not None
        action: Action
        if binding.intent is Intent.LEFT or binding.intent is Intent.RIGHT:
            pile = binding.pile
            assert pile is not None
            if pile >= self.rules.row_size:
                return
            target = 0 if binding.intent is Intent.LEFT else 1
            action = Play(player, pile, target, now)
        elif binding.intent is Intent.STRESS:
            action = CallStress(player, now)
        elif binding.intent is Intent.READY:
            action = ReadyToFlip(player, now)
        elif binding.intent is Intent.STOP:
            action = StopStress(player, now)
        else:  # pragma: no cover - the key map gives players no other intents
            return
        self.after_events(self.table.submit(action), now)
        self.schedule()
        self.request_draw()

    # ------------------------------------------------------------------ drawing

    def view(self) -> View:
        return self.frame_view(
            score=(self.match.score[0], self.match.score[1]),
            result=self.result,
            seed=self.seed,
            help_offset=self.help_offset,
        )


def _copy_state(state: State) -> State:
    """A copy of a position to apply actions to (its rules, which never change, shared)."""
    return copy.deepcopy(state, {id(state.rules): state.rules})


def run(settings: Settings) -> int:
    """Play in this terminal until quit; return the exit status."""
    return run_screen(functools.partial(App, settings=settings))


def run_screen(make: Callable[..., Screen]) -> int:
    """Run the screen ``make(term, colour=...)`` makes in this terminal until it ends;
    return the exit status."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "stress-tui: not a terminal (stdin and stdout must be a terminal to play)",
            file=sys.stderr,
        )
        return EXIT_NOT_A_TERMINAL
    try:
        term, colour = make_terminal()
        screen = make(term, colour=colour)
        return asyncio.run(screen.main())
    except KeyboardInterrupt:  # Ctrl-C before the loop took over SIGINT
        return EXIT_SIGINT
    except OSError as error:
        if error.errno not in _GONE:
            return _crashed(error)
        return EXIT_SIGHUP  # the terminal went away while the game was leaving it
    except Exception as error:
        return _crashed(error)


def _crashed(error: Exception) -> int:
    """Say in one line that a bug stopped the game, then print the traceback (the terminal
    is already restored: ``main`` leaves it in its ``finally``)."""
    sys.stdout.flush()
    what = f"{type(error).__name__}: {error}".splitlines()[0]
    print(
        f"stress-tui: stopped by a bug, not by anything you did ({what}); "
        "the traceback below says where",
        file=sys.stderr,
    )
    traceback.print_exc()
    return EXIT_CRASH
