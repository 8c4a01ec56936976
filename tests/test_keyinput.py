"""Keys from a terminal's bytes (``terminal/keyinput.py``): pastes dropped whole, floods
bounded, sequences never cut in two, a lone Esc an Esc once its delay has passed, and the
start-up answers (``terminal/endpoint.py``) read apart from the keys that came with them."""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Callable

import pytest
from blessed import Terminal
from blessed.keyboard import Keystroke

from stress_tui.terminal.endpoint import Listener, MemoryEndpoint, parse_answers, questions
from stress_tui.terminal.keyinput import (
    CHUNK,
    ESC_DELAY,
    FLOOD,
    FLOOD_QUIET,
    PASTE_QUIET,
    READ_SIZE,
    InputDecoder,
)


def decoder() -> InputDecoder:
    return InputDecoder(Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True))


def all_keys(d: InputDecoder) -> list[str]:
    """Every key that can be taken now, as text (a named key by its name)."""
    keys: list[str] = []
    while d.ready:
        keys += [key.name or str(key) for key in d.take()]
    return keys


def test_keys_come_out_in_order_and_a_sequence_whole() -> None:
    d = decoder()
    d.feed(b"qa\x1b[Aw", 0.0)
    assert all_keys(d) == ["q", "a", "KEY_UP", "w"]


def test_a_sequence_split_between_two_reads_is_one_key() -> None:
    d = decoder()
    d.feed(b"q\x1b", 0.0)
    assert all_keys(d) == ["q"]  # the Esc waits for what may follow it
    assert d.due() == ESC_DELAY
    d.feed(b"[A", 0.01)
    assert all_keys(d) == ["KEY_UP"]


def test_a_lone_esc_is_the_esc_key_once_its_delay_has_passed() -> None:
    d = decoder()
    d.feed(b"\x1b", 0.0)
    assert all_keys(d) == []
    d.release(ESC_DELAY / 2)
    assert all_keys(d) == []
    d.release(ESC_DELAY)
    assert all_keys(d) == ["KEY_ESCAPE"]
    assert d.due() is None


def test_a_paste_is_dropped_whole_as_one_event_its_markers_split_anywhere() -> None:
    paste = b"q" * 5000 + b"\x1b[A"
    data = b"a\x1b[200~" + paste + b"\x1b[201~w"
    for cut in (1, 3, 5, 7, 2000, len(data) - 3, len(data) - 1):
        d = decoder()
        d.feed(data[:cut], 0.0)
        d.feed(data[cut:], 0.0)
        d.release(ESC_DELAY)
        assert all_keys(d) == ["a", "w"], cut
        assert d.pastes == 1


def test_a_paste_without_its_end_ends_when_the_input_goes_quiet() -> None:
    d = decoder()
    d.feed(b"\x1b[200~2024", 0.0)
    assert all_keys(d) == [] and d.due() == PASTE_QUIET
    d.release(PASTE_QUIET)
    d.feed(b"q", PASTE_QUIET + 0.1)
    assert all_keys(d) == ["q"] and d.pastes == 1


def calls_to_feed(d: InputDecoder, reads: int, size: int) -> int:
    """The calls (of Python functions and built-in ones) that feeding ``reads`` reads of
    ``size`` letters makes: a count the machine's load does not move."""
    count = 0

    def counted(frame: object, event: str, arg: object) -> None:
        nonlocal count
        count += event in ("call", "c_call")

    sys.setprofile(counted)
    try:
        for _ in range(reads):
            d.feed(b"x" * size, 0.0)
    finally:
        sys.setprofile(None)
    return count


def test_a_flood_keeps_what_came_first_and_drops_the_rest_at_a_bounded_cost() -> None:
    d = decoder()
    calls_4k = calls_to_feed(d, 100, 4096)  # 400 kB, as an endpoint reads it
    assert len(d.text) == FLOOD and d.dropped == 400 * 1024 - FLOOD
    calls_64k = calls_to_feed(d, 100, 65536)  # 6.4 MB: reads 16 times the size
    assert calls_64k <= calls_4k, "a flood's cost grows with what it sends"
    assert calls_4k < 100 * 50, f"{calls_4k} calls for 100 reads"
    keys = d.take()
    assert len(keys) == CHUNK  # one turn's work, whatever is waiting


def test_a_flood_goes_on_being_dropped_until_the_input_is_typing_again() -> None:
    """Once past ``FLOOD``, every read of more than ``FLOOD`` bytes (more than typing sends
    between two reads), or of any size within ``FLOOD_QUIET`` of the one before, is dropped
    whole, however much of what came first has been taken: a flood costs a read and no
    keys a read, so what the terminal holds behind it (Ctrl-C) comes soon."""
    d = decoder()
    for _ in range(2):
        d.feed(b"x" * READ_SIZE, 0.0)
    assert all_keys(d) == ["x"] * FLOOD  # what came first
    d.feed(b"y" * READ_SIZE, 1.0)
    d.feed(b"y", 1.0 + FLOOD_QUIET / 2)
    assert all_keys(d) == []  # the flood goes on
    d.feed(b"y", 2.0)
    assert all_keys(d) == []  # its end: a small read after a quiet moment
    d.feed(b"q", 2.0)
    assert all_keys(d) == ["q"]
    assert d.dropped == 3 * READ_SIZE + 2 - FLOOD


@pytest.mark.parametrize("ctrl_c", [b"\x03", b"\x1b[99;5u", b"\x1b[99;69:1u"])
def test_a_ctrl_c_in_a_flood_is_kept_after_what_came_first(ctrl_c: bytes) -> None:
    """The quit key, a byte (over ssh) or the kitty keyboard protocol's, is never dropped
    with a flood: in the read that overflows, in one dropped whole, in the flood's end."""
    for read in range(3):
        d = decoder()
        reads = [b"x" * READ_SIZE for _ in range(3)]
        reads[read] = reads[read][:1000] + ctrl_c + reads[read][1000:]
        for data in reads:
            d.feed(data, 0.0)
        assert all_keys(d)[FLOOD:] == ["KEY_CTRL_C"], read


def test_bytes_not_valid_in_the_character_set_are_a_key_nobody_has() -> None:
    d = decoder()
    d.feed(b"q\xff\xc0\xafw", 0.0)
    keys = all_keys(d)
    assert keys[0] == "q" and keys[-1] == "w" and set(keys[1:-1]) == {"\ufffd"}


def test_a_key_typed_alone_after_a_character_cut_short_is_read_after_it() -> None:
    """A byte typed alone with nothing waiting is its character at once; after a read that
    ended in the middle of a character, that character is ended first (cut short: a key
    nobody has), as when both come in one read; after an Esc, it may be part of a
    sequence and waits with it."""
    d = decoder()
    d.feed(b"q", 0.0)
    assert all_keys(d) == ["q"]
    d.feed(b"\xc3", 0.1)
    assert all_keys(d) == []
    d.feed(b"q", 0.2)
    assert all_keys(d) == ["\ufffd", "q"]
    d.feed(b"\x1b", 0.3)
    d.feed(b"[", 0.3)
    d.feed(b"A", 0.3)
    assert all_keys(d) == ["KEY_UP"]


def test_a_key_typed_alone_is_told_as_it_comes_and_never_before_what_waits() -> None:
    """Through an endpoint: a key typed alone is told at once, a burst of its own, the
    first press of it and every later one (``InputDecoder.typed``); after an Esc, which
    may begin a sequence, it goes with the Esc (Alt+Q, never player 1's q); typed while
    nobody listens, it waits and is told first once someone does."""
    told: list[str] = []

    def call(callback: Callable[..., None], *args: object) -> None:
        callback(*args)

    def nothing(*args: object) -> None:
        pass

    listener = Listener(
        key=lambda key: told.append(key.name or str(key)),
        burst_over=lambda: told.append("|"),
        resize=nothing,
        end=nothing,
        suspend=nothing,
        resume=nothing,
    )
    loop = asyncio.new_event_loop()
    try:
        endpoint = MemoryEndpoint()
        endpoint.listen(loop, listener, call)
        for data in (b"q", b"q", b"w", b"q"):
            endpoint.received(data)
        assert told == ["q", "|", "q", "|", "w", "|", "q", "|"]
        told.clear()
        endpoint.received(b"\x1b")
        assert told == []
        endpoint.received(b"q")
        assert told == ["KEY_ALT_Q", "|"]
        told.clear()
        endpoint.stop()
        endpoint.received(b"q")
        endpoint.listen(loop, listener, call)
        endpoint.received(b"w")
        assert told == ["q", "w", "|"]
    finally:
        loop.close()


def test_the_start_up_answers_are_read_apart_from_keys_that_came_with_them() -> None:
    assert questions(background=False).endswith("\x1b[6n")
    data = b"q\x1b[?0u\x1b[?2026;2$y\x1b]11;rgb:ffff/ffff/ffff\x1b\\w\x1b[12;1R"
    answers, rest = parse_answers(data)
    assert answers.position and answers.kitty == 0 and answers.sync
    assert answers.background == (255, 255, 255)
    assert rest == b"qw"
    answers, rest = parse_answers(b"\x1b]11;rgb:" + b"0" * 300_000)
    assert not answers.position and answers.background is None
    assert len(rest) == 300_009  # junk, handed on as input (and bounded there)


def test_a_frame_goes_inside_a_synchronized_update_only_where_the_terminal_has_them() -> None:
    endpoint = MemoryEndpoint()
    assert endpoint.write_frame("\x1b[3;7H39")
    endpoint.answers, _ = parse_answers(b"\x1b[?2026;2$y\x1b[12;1R")
    assert endpoint.write_frame("\x1b[3;8H8")
    assert endpoint.output == b"\x1b[3;7H39\x1b[?2026h\x1b[3;8H8\x1b[?2026l"


class CountingTerminal(Terminal):
    """A terminal that counts how often it is asked to resolve a key."""

    asked = 0

    def inkey(
        self, timeout: float | None = None, esc_delay: float = 0.35, capture_cpr: bool = False
    ) -> Keystroke:
        self.asked += 1
        return super().inkey(timeout, esc_delay, capture_cpr)


def test_a_key_of_one_character_is_blessed_s_own_and_is_resolved_by_blessed_once() -> None:
    term = CountingTerminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
    d = InputDecoder(term)
    typed = "qQ ;ü\x03\x0c\r\t\x7f\x08"
    for round_ in range(3):
        d.feed(typed.encode(), 0.0)
        keys = []
        while d.ready:
            keys += d.take()
        fresh = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)
        fresh.ungetch(typed)
        expected = [fresh.inkey(timeout=0, esc_delay=0) for _ in typed]
        assert [(str(k), k.name, k.code, k.is_sequence, k.modifiers) for k in keys] == [
            (str(k), k.name, k.code, k.is_sequence, k.modifiers) for k in expected
        ], round_
        if round_ == 0:
            asked = term.asked
    assert term.asked == asked  # the later presses were the table's, blessed not asked


def test_a_key_of_one_character_is_the_same_before_a_sequence_and_an_esc_stays_blessed_s() -> None:
    d = decoder()
    d.feed(b"q", 0.0)
    assert all_keys(d) == ["q"]
    d.feed(b"q\x1b[Aq\x1bq", 0.0)
    d.release(ESC_DELAY)
    assert all_keys(d) == ["q", "KEY_UP", "q", "KEY_ALT_Q"]
    d.feed(b"\x1b", 1.0)
    d.release(1.0 + ESC_DELAY)
    assert all_keys(d) == ["KEY_ESCAPE"]
    assert "\x1b" not in d.single
