"""The key map: the default layouts, the config's checks, and naming what a terminal sends."""

from __future__ import annotations

import io

import pytest
from blessed import Terminal

from stress_tui.core.keyboards import KEYBOARDS
from stress_tui.terminal.keynames import KeyMapError, key_label, key_name, normalize_key
from stress_tui.terminal.keynotes import playable_row, unplayable_piles
from stress_tui.terminal.keys import (
    GLOBAL_BINDINGS,
    REQUIRED_ACTIONS,
    RESERVED_KEYS,
    Intent,
    default_keymap,
    keymap_for,
    keymap_from_config,
)
from stress_tui.terminal.layouts import SOLO_LAYOUT, TWO_PLAYER_LAYOUT

# The letter keys of a QWERTY keyboard by column, left to right, and the halves.
COLUMNS = ["1qaz", "2wsx", "3edc", "4rfv", "5tgb", "6yhn", "7ujm", "8ik,", "9ol.", "0p;/"]
LEFT_HALF = set("".join(COLUMNS[:4]))
MIDDLE = set("tgbyhn")
RIGHT_HALF = set("".join(COLUMNS[6:])) | {"'", "[", "]"}


def p1_p2_keys() -> tuple[set[str], set[str]]:
    keys = default_keymap()
    return (
        {b.key for b in keys.player_bindings(0)},
        {b.key for b in keys.player_bindings(1)},
    )


# ----------------------------------------------------------------------------- the layouts


def test_two_players_share_the_keyboard_by_halves_with_a_gap_between() -> None:
    p1, p2 = p1_p2_keys()
    assert p1 <= LEFT_HALF
    assert p2 <= RIGHT_HALF
    assert not (p1 | p2) & MIDDLE


def test_every_player_has_every_action_for_rows_up_to_four() -> None:
    keys = default_keymap()
    for player in (0, 1):
        for pile in range(4):
            assert keys.key_for(Intent.LEFT, player, pile) is not None
            assert keys.key_for(Intent.RIGHT, player, pile) is not None
        for intent in (Intent.STRESS, Intent.READY, Intent.STOP):
            assert keys.key_for(intent, player) is not None


def test_the_default_layout_reads_left_to_right() -> None:
    keys = default_keymap()
    assert [keys.key_for(Intent.LEFT, 0, i) for i in range(4)] == list("qwer")
    assert [keys.key_for(Intent.RIGHT, 0, i) for i in range(4)] == list("asdf")
    assert [keys.key_for(Intent.LEFT, 1, i) for i in range(4)] == list("uiop")
    assert [keys.key_for(Intent.RIGHT, 1, i) for i in range(4)] == list("jkl;")
    assert (keys.key_for(Intent.STRESS, 0), keys.key_for(Intent.STRESS, 1)) == ("v", "m")


def test_shared_keys_are_not_in_a_play_zone() -> None:
    p1, p2 = p1_p2_keys()
    shared = {b.key for b in GLOBAL_BINDINGS if b.scope.value == "global"}
    assert shared == {"?", "f1", "escape", "ctrl+c", "ctrl+l"}
    assert not shared & (p1 | p2)
    assert not any(key.isalpha() and len(key) == 1 for key in shared)


def test_menu_keys_only_count_on_menus() -> None:
    keys = default_keymap()
    play = keys.lookup("q")
    menu = keys.lookup("q", menu=True)
    assert play is not None and play.intent is Intent.LEFT and play.player == 0
    assert menu is not None and menu.intent is Intent.MENU_QUIT
    assert keys.lookup("enter") is None
    confirm = keys.lookup("enter", menu=True)
    assert confirm is not None and confirm.intent is Intent.CONFIRM
    # Shared keys count everywhere.
    for menu_scope in (False, True):
        found = keys.lookup("?", menu=menu_scope)
        assert found is not None and found.intent is Intent.HELP


@pytest.mark.parametrize("human", [0, 1])
def test_one_human_against_the_computer_gets_the_solo_layout(human: int) -> None:
    players = ("human", "bot:normal") if human == 0 else ("bot:normal", "human")
    keys = default_keymap(players)
    assert keys.has_player(human) and not keys.has_player(1 - human)
    assert keys.as_config() == {f"p{human + 1}": SOLO_LAYOUT}
    space = keys.lookup("space")
    assert space is not None and space.intent is Intent.STRESS and space.player == human


def test_computers_alone_leave_only_the_shared_keys() -> None:
    keys = default_keymap(("bot:easy", "bot:hard"))
    assert not keys.has_player(0) and not keys.has_player(1)
    assert keys.lookup("?") is not None


def test_action_names_and_key_labels() -> None:
    keys = default_keymap()
    q = keys.lookup("q")
    assert q is not None and q.action == "left1"
    m = keys.lookup("m")
    assert m is not None and m.action == "stress"
    assert [key_label(k) for k in ("q", ";", "space", "escape", "f1", "ctrl+c")] == [
        "q",
        ";",
        "Spc",
        "Esc",
        "F1",
        "^C",
    ]


# ----------------------------------------------------------------------------- the config


def test_the_defaults_round_trip_through_the_config_shape() -> None:
    assert default_keymap().as_config() == TWO_PLAYER_LAYOUT
    assert keymap_from_config(TWO_PLAYER_LAYOUT) == default_keymap()


def test_a_player_section_replaces_that_players_keys() -> None:
    p1 = {**TWO_PLAYER_LAYOUT["p1"], "stress": "g", "left1": "1"}
    keys = keymap_from_config({"p1": p1})
    assert keys.key_for(Intent.STRESS, 0) == "g"
    assert keys.key_for(Intent.LEFT, 0, 0) == "1"
    assert keys.key_for(Intent.STRESS, 1) == "m"  # p2 keeps the default


def test_longer_rows_may_have_more_keys() -> None:
    p1 = {**TWO_PLAYER_LAYOUT["p1"], "left5": "t", "right5": "g"}
    keys = keymap_from_config({"p1": p1})
    assert keys.key_for(Intent.LEFT, 0, 4) == "t"
    assert keys.key_for(Intent.RIGHT, 0, 4) == "g"


def test_key_names_are_normalised() -> None:
    assert normalize_key("Q") == "q"
    assert normalize_key("semicolon") == ";"
    assert normalize_key("Esc") == "escape"
    assert normalize_key("SPACE") == "space"
    assert normalize_key("F5") == "f5"
    p1 = {**TWO_PLAYER_LAYOUT["p1"], "left1": "Q"}
    assert keymap_from_config({"p1": p1}).key_for(Intent.LEFT, 0, 0) == "q"


@pytest.mark.parametrize(
    ("mapping", "words"),
    [
        ({"p1": {**TWO_PLAYER_LAYOUT["p1"], "left2": "q"}}, ["'q'", "two actions"]),
        ({"p2": {**TWO_PLAYER_LAYOUT["p2"], "stress": "v"}}, ["'v'", "two actions", "p1", "p2"]),
        (
            {"p1": {k: v for k, v in TWO_PLAYER_LAYOUT["p1"].items() if k != "ready"}},
            ["[keys.p1]", "no key for ready"],
        ),
        ({"p1": {**TWO_PLAYER_LAYOUT["p1"], "left1": "banana"}}, ["unknown key name", "banana"]),
        ({"p1": {**TWO_PLAYER_LAYOUT["p1"], "jump": "g"}}, ["unknown action", "jump"]),
        ({"p3": TWO_PLAYER_LAYOUT["p1"]}, ["unknown keys section", "p3"]),
        ({"p1": {**TWO_PLAYER_LAYOUT["p1"], "stress": "?"}}, ["reserved"]),
        ({"p1": {**TWO_PLAYER_LAYOUT["p1"], "stress": "escape"}}, ["reserved"]),
        ({"p1": {**TWO_PLAYER_LAYOUT["p1"], "stress": "ctrl+z"}}, ["reserved"]),
        ({"p1": {**TWO_PLAYER_LAYOUT["p1"], "stress": " "}}, ["space"]),
        ({"p1": {**TWO_PLAYER_LAYOUT["p1"], "stress": 7}}, ["must be text"]),
        ({"p1": "qwer"}, ["must be a table"]),
    ],
    ids=[
        "same-player-twice",
        "across-players",
        "missing-action",
        "unknown-key",
        "unknown-action",
        "unknown-section",
        "reserved-help",
        "reserved-pause",
        "reserved-suspend",
        "bare-space",
        "not-text",
        "not-a-table",
    ],
)
def test_bad_key_maps_are_refused(mapping: dict[str, dict[str, str]], words: list[str]) -> None:
    with pytest.raises(KeyMapError) as info:
        keymap_from_config(mapping)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value)


def test_every_required_action_is_required() -> None:
    for action in REQUIRED_ACTIONS:
        section = {k: v for k, v in TWO_PLAYER_LAYOUT["p1"].items() if k != action}
        with pytest.raises(KeyMapError, match=f"no key for {action}"):
            keymap_from_config({"p1": section})


def test_keymap_for_checks_the_whole_config_but_keeps_only_human_keys() -> None:
    config = {"p1": {**SOLO_LAYOUT, "stress": "b"}, "p2": TWO_PLAYER_LAYOUT["p2"]}
    keys = keymap_for(("human", "bot:hard"), config)
    assert keys.key_for(Intent.STRESS, 0) == "b"
    assert not keys.has_player(1)
    with pytest.raises(KeyMapError):
        keymap_for(("human", "bot:hard"), {"p2": {**TWO_PLAYER_LAYOUT["p2"], "left1": "zz"}})
    # Without a section for the human, the solo layout.
    keys = keymap_for(("bot:hard", "human"), {"p1": TWO_PLAYER_LAYOUT["p1"]})
    assert keys.as_config() == {"p2": SOLO_LAYOUT}


def test_reserved_keys() -> None:
    assert {"?", "f1", "escape", "ctrl+c", "ctrl+l", "ctrl+z"} == RESERVED_KEYS


# ----------------------------------------------------------------------------- keystrokes


@pytest.fixture(scope="module")
def term() -> Terminal:
    return Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=True)


def read(term: Terminal, text: str):  # type: ignore[no-untyped-def]
    term.ungetch(text)
    return term.inkey(timeout=0)


@pytest.mark.parametrize(
    ("sent", "name"),
    [
        ("q", "q"),
        ("Q", "q"),  # Caps Lock changes nothing
        (";", ";"),
        (",", ","),
        (" ", "space"),
        ("?", "?"),
        ("\r", "enter"),
        ("\x03", "ctrl+c"),
        ("\x0c", "ctrl+l"),
        ("\x1bOP", "f1"),
        ("\x1b[A", "up"),
        ("\x1b[6~", "pagedown"),
        ("\x1ba", None),  # Alt+a
        # The kitty keyboard protocol.
        ("\x1b[113u", "q"),
        ("\x1b[113;1:2u", "q"),  # a repeat is named; the app drops it by .repeated
        ("\x1b[113;1:3u", None),  # a release
        ("\x1b[47;2;63u", "?"),  # Shift+/ with its text
        ("\x1b[32u", "space"),
        ("\x1b[27u", "escape"),
        ("\x1b[99;5u", "ctrl+c"),
        ("\x1b[122;5u", "ctrl+z"),
        ("\x1b[57441u", None),  # left shift alone
        ("\x1b[59u", ";"),
    ],
)
def test_key_names_from_what_terminals_send(term: Terminal, sent: str, name: str | None) -> None:
    assert key_name(read(term, sent)) == name


def test_a_key_of_one_character_is_named_once_per_terminal_as_that_terminal_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stress_tui.terminal import keynames

    named: list[str] = []

    def counted(keystroke: keynames.KeystrokeLike) -> str | None:
        named.append(str(keystroke))
        return key_name(keystroke)

    monkeypatch.setattr(keynames, "key_name", counted)
    xterm, linux = (
        Terminal(kind=kind, stream=io.StringIO(), force_styling=True) for kind in ("xterm", "linux")
    )
    on_xterm, on_linux = keynames.KeyNamer(), keynames.KeyNamer()
    for _ in range(3):
        assert on_xterm(read(xterm, "q")) == "q"
        assert on_xterm(read(xterm, "\x1a")) == "ctrl+z"
        assert on_linux(read(linux, "\x1a")) is None  # its terminfo has a key of its own there
        assert on_xterm(read(xterm, "\x1b[113u")) == "q"  # a sequence: named each time
    assert named == ["q", "\x1a", "\x1a", "\x1b[113u", "\x1b[113u", "\x1b[113u"]


def test_a_kitty_repeat_is_marked(term: Terminal) -> None:
    assert read(term, "\x1b[113;1:2u").repeated
    assert not read(term, "\x1b[113u").repeated
    assert not read(term, "q").repeated


def _keys_of(data: str) -> list[str]:
    """What a blessed terminal makes of ``data``, after the sequence filter: key names."""
    from blessed import Terminal
    from blessed.keyboard import resolve_sequence

    from stress_tui.terminal.keynames import SequenceFilter

    term = Terminal(force_styling=True)
    keep = SequenceFilter()
    names = []
    while data:
        keystroke = resolve_sequence(
            data, term._keymap, term._keycodes, term._keymap_prefixes, final=True
        )
        data = data[len(keystroke) :] if len(keystroke) else data[1:]
        if keep.passes(keystroke):
            names.append(key_name(keystroke) or "?")
    return names


@pytest.mark.parametrize(
    ("data", "what"),
    [
        ("\x1b[<0;10;5M", "a mouse click"),
        ("\x1b[I\x1b[O", "focus in and out"),
        ("\x1b[?0u", "a late answer to the kitty query"),
        ("\x1b[200~asdf jkl;\x1b[201~", "a bracketed paste of play keys"),
    ],
)
def test_what_is_not_a_key_press_presses_no_key(data: str, what: str) -> None:
    assert _keys_of(data) == [], what


def test_keys_around_an_unknown_sequence_still_count() -> None:
    assert _keys_of("q\x1b[<0;10;5Mw\x1b[200~x\x1b[201~e") == ["q", "w", "e"]
    assert _keys_of("\x1b[A") == ["up"]


def test_a_sequence_or_paste_cut_off_ends_with_its_burst() -> None:
    from blessed.keyboard import Keystroke

    from stress_tui.terminal.keynames import SequenceFilter

    keep = SequenceFilter()
    assert not keep.passes(Keystroke("\x1b[", name="CSI"))
    for char in "200~":
        assert not keep.passes(Keystroke(char))
    assert not keep.passes(Keystroke("q")), "inside the paste"
    keep.burst_over()
    assert keep.passes(Keystroke("q")), "a key of its own, after the burst"


# ----------------------------------------------------------------------------- keyboards


@pytest.mark.parametrize("keyboard", list(KEYBOARDS))
@pytest.mark.parametrize(
    "players", [("human", "human"), ("human", "bot:normal"), ("bot:hard", "human")]
)
def test_every_keyboard_gives_every_pile_of_a_standard_row_its_keys(
    keyboard: str, players: tuple[str, str]
) -> None:
    keys = default_keymap(players, keyboard)
    humans = [i for i, kind in enumerate(players) if kind == "human"]
    assert unplayable_piles(keys, players, 4) == []
    for player in humans:
        for intent in (Intent.STRESS, Intent.READY, Intent.STOP):
            assert keys.key_for(intent, player) is not None
        for binding in keys.player_bindings(player):
            # One key press, no Shift: a letter or an unshifted sign of that keyboard.
            assert binding.key == "space" or len(binding.key) == 1


def test_the_key_right_of_l_is_that_keyboards_own() -> None:
    solo = ("human", "bot:normal")
    assert default_keymap(solo, "us").key_for(Intent.RIGHT, 0, 3) == ";"
    assert default_keymap(solo, "de").key_for(Intent.RIGHT, 0, 3) == "ö"
    assert default_keymap(solo, "se").key_for(Intent.RIGHT, 0, 3) == "ö"
    assert default_keymap(solo, "no").key_for(Intent.RIGHT, 0, 3) == "ø"
    assert default_keymap(solo, "dk").key_for(Intent.RIGHT, 0, 3) == "æ"
    assert default_keymap(solo, "fr").key_for(Intent.RIGHT, 0, 3) == "m"
    two = default_keymap(("human", "human"), "de")
    assert two.key_for(Intent.RIGHT, 1, 3) == "ö"


def test_azerty_keeps_the_fingers_where_they_are() -> None:
    keys = default_keymap(keyboard="fr")
    assert [keys.key_for(Intent.LEFT, 0, i) for i in range(4)] == list("azer")
    assert [keys.key_for(Intent.RIGHT, 0, i) for i in range(4)] == list("qsdf")
    assert [keys.key_for(Intent.RIGHT, 1, i) for i in range(4)] == list("jklm")
    assert (keys.key_for(Intent.STRESS, 1), keys.key_for(Intent.READY, 1)) == (",", ";")
    assert keys.key_for(Intent.STOP, 1) == ":"


def test_rows_of_five_have_keys_and_longer_ones_are_counted() -> None:
    two = ("human", "human")
    keys = default_keymap(two, "us", 5)
    assert keys.pile_keys(0, 4) == ("t", "g") and keys.pile_keys(1, 4) == ("[", "'")
    assert not {b.key for b in keys.player_bindings(0) + keys.player_bindings(1)} & set("yhn")
    assert default_keymap(two, "de", 5).pile_keys(1, 4) == ("ü", "ä")
    # AZERTY's key right of P is a dead key: player 2 has four piles' keys there.
    assert unplayable_piles(default_keymap(two, "fr", 5), two, 5) == [1]
    assert unplayable_piles(default_keymap(two, "us", 6), two, 6) == [0, 1]
    # Alone, the upper row plays left and the home row right, up to nine piles.
    solo = ("bot:easy", "human")
    keys = default_keymap(solo, "us", 9)
    assert [keys.key_for(Intent.LEFT, 1, i) for i in range(9)] == list("qwertyuio")
    assert [keys.key_for(Intent.RIGHT, 1, i) for i in range(9)] == list("asdfghjkl")
    assert playable_row(keys, 1) == 9
    assert default_keymap(solo, "de", 6).pile_keys(1, 5) == ("z", "h")  # QWERTZ
    # Rows of four keep the layouts above.
    assert default_keymap(solo, "us", 4).as_config() == {"p2": SOLO_LAYOUT}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--row", "6"], ["--row:", "a row of 6", "5 of Player 1's piles", "left6"]),
        (["--row", "5", "--keyboard", "fr"], ["--row:", "fr keyboard", "Player 2"]),
        (["--row", "7"], ["a row of 7", "5 of Player 1's piles", "left6 to left7 and right6"]),
        (["--row", "10", "--p2", "bot"], ["--row:", "9 of your piles"]),
    ],
)
def test_a_row_nobody_can_play_is_refused_in_one_line(
    argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from stress_tui.cli.main import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("stress-tui: --row: ")
    for word in words:
        assert word in err
