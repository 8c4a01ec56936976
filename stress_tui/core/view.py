"""What a player may see of a position: the one place that decides it.

At a real table everything but the draw piles lies face up: both rows, the top of each
play pile and how high it is, how many cards each draw pile holds, who has said ready or
stop, who is locked out, where the round stands. Never the order of a draw pile (nobody
knows it), nor the cards under a top. ``table_view`` gives that for the table as a whole
(what a spectator sees, both sides alike); ``player_view`` the same from one player's
chair, with what the rules allow each player there (``TableView.legal_plays``). The
computer players decide from it, the screen draws from it, and a peer across a
network gets it as JSON (``TableView.to_json``), so that a draw pile cannot leak by
accident through any of them.

>>> from stress_tui.core.notation import parse_position
>>> state = parse_position("rules: standard; p1 row: 5H | - | 9C 9S | KD; p1 draw: 2C 3C;"
...                        " piles: 4H 6D | 7D; p2 row: QH | QS | 2H | 3S")
>>> view = player_view(state, 0)
>>> [str(card) for card in view.me.row if card], view.me.row_sizes, view.me.draw_count
(['5H', '9S', 'KD'], (1, 0, 2, 1), 2)
>>> [str(card) for card in view.table.tops], view.table.pile_sizes, view.them.draw_count
(['6D', '7D'], (2, 1), 0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

from stress_tui.core.cards import Card, Suit
from stress_tui.core.decks import MAX_CARDS
from stress_tui.core.engine import PLAYERS, Phase, PlayerState, State
from stress_tui.core.legal import legal_plays, makes_stress
from stress_tui.core.rules import Rules

_PLAYING = Phase.PLAYING
"""The phase under a plain name: on Python 3.11 reading a member off its enum class takes
about 0.2 µs (``EnumType.__getattr__`` keeps the lookup from being specialised)."""

STAND_IN = Card(2, Suit.CLUBS)
"""The card ``position`` puts where a view shows only a count: it says nothing about the
real one."""


@dataclass(slots=True, repr=False)
class SideView:
    """One player's side of the table, as anyone at it sees it.

    The views are values: never change one once made (they are slotted dataclasses rather
    than frozen ones or named tuples for the reading: each frame's pieces read a dozen of
    their fields, and Python 3.11 specialises the read of a slot, where a named tuple's
    field is looked up on its class at every read; a frozen dataclass takes four times as
    long to make). Compared by their fields; nothing hashes them. No ``__repr__`` of
    their own: the first frame would compile it, and nothing shows a view as text
    (``to_json`` is its text)."""

    row: tuple[Card | None, ...]
    """The top card of each pile of the row (``None``: an empty place)."""
    row_sizes: tuple[int, ...]
    """How many cards each pile of the row holds (a stack shows its height)."""
    draw_count: int
    """How many cards the draw pile holds (never which, nor in what order)."""
    ready: bool
    """Has said ready to flip."""
    stop: tuple[int, ...]
    """The places of the opponent's row this player's stress stop points at (empty: no
    stop)."""
    locked_until: float
    """The player's plays are refused before this time."""


@dataclass(slots=True, repr=False)
class TableView:
    """What anyone at the table sees at one moment: both sides alike (a spectator's view,
    and what a player sees too, from no chair in particular). A value, as ``SideView``."""

    rules: Rules
    """The house rules, agreed before the deal."""
    time: float
    """When it was taken, in seconds of game time."""
    phase: Phase
    """Where the round stands."""
    sides: tuple[SideView, SideView]
    """Player 1's side and player 2's."""
    tops: tuple[Card | None, Card | None]
    """The card on top of the left and the right play pile (``None``: empty)."""
    pile_sizes: tuple[int, int]
    """How many cards each play pile holds."""
    winner: int | None
    """Who won the round, once it is over (``None`` until then, and for a drawn round)."""

    def is_locked(self, player: int) -> bool:
        """Whether ``player``'s plays are refused at the view's time."""
        return self.time < self.sides[player].locked_until

    def legal_plays(self, player: int) -> list[tuple[int, int]]:
        """Every (row pile, play pile) the rules allow ``player`` at this view, lockouts
        aside: what ``Game.legal_plays`` answers of any position that shows the same."""
        if self.phase is not _PLAYING:
            return []
        return legal_plays(self.rules, self.sides[player].row, self.tops)

    def stress_threats(self, player: int) -> list[tuple[int, int]]:
        """The plays of ``player`` that would make stress (``Game.stress_threats``)."""
        row, tops = self.sides[player].row, self.tops
        threats = []
        for pile, target in self.legal_plays(player):
            card = row[pile]
            if card is not None and makes_stress(card, tops[1 - target]):
                threats.append((pile, target))
        return threats

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON values: cards in notation (``TH``, ``**``), the rules as
        the notation's ``rules:`` line, the phase as the notation writes it.

        >>> from stress_tui.core.notation import parse_position
        >>> state = parse_position("rules: skat; p1 row: 7H | - | AS; piles: 8D | -;"
        ...                        " p2 row: - | - | -")
        >>> data = table_view(state).to_json()
        >>> data["tops"], data["sides"][0]["row"], data["phase"]
        (['8D', None], ['7H', None, 'AS'], 'playing')
        >>> TableView.from_json(data) == table_view(state)
        True
        """
        # The notation, only for the wire form: a game's first frame loads none of it.
        from stress_tui.core.notation import format_rules

        return {
            "rules": format_rules(self.rules),
            "time": self.time,
            "phase": self.phase.value,
            "sides": [
                {
                    "row": [_card_text(card) for card in side.row],
                    "row_sizes": list(side.row_sizes),
                    "draw_count": side.draw_count,
                    "ready": side.ready,
                    "stop": list(side.stop),
                    "locked_until": side.locked_until,
                }
                for side in self.sides
            ],
            "tops": [_card_text(card) for card in self.tops],
            "pile_sizes": list(self.pile_sizes),
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: Any) -> TableView:
        """Read back what ``to_json`` wrote; ``ValueError`` naming the field if it is not
        such a view (the rules, a card, a size, the phase...)."""
        if not isinstance(data, dict):
            raise ValueError("a table view is a JSON object")
        from stress_tui.core.notation import parse_rules

        try:
            rules = parse_rules(_field(data, "rules", str))
        except ValueError as error:
            raise ValueError(f"rules: {error}") from None
        phases = {phase.value: phase for phase in Phase}
        phase = _field(data, "phase", str)
        if phase not in phases:
            raise ValueError(f"phase: one of {', '.join(phases)}, not {phase[:20]!r}")
        sides = _field(data, "sides", list)
        if len(sides) != 2:
            raise ValueError("sides: two, one for each player")
        winner = data.get("winner")
        if winner is not None and (not _whole(winner) or winner not in PLAYERS):
            raise ValueError("winner: 0, 1 or null")
        return cls(
            rules,
            _time(data, "time"),
            phases[phase],
            (_side(sides[0], rules, "sides[0]"), _side(sides[1], rules, "sides[1]")),
            _pair(_cards(_field(data, "tops", list), "tops"), "tops"),
            _pair(_sizes(_field(data, "pile_sizes", list), "pile_sizes"), "pile_sizes"),
            winner,
        )


class PlayerView(NamedTuple):
    """What one player sees: the table's view, from their chair (``me`` and ``them``)."""

    player: int
    """Whose view (0 or 1)."""
    table: TableView
    """The table, as everyone sees it."""

    @property
    def me(self) -> SideView:
        """The player's own side."""
        return self.table.sides[self.player]

    @property
    def them(self) -> SideView:
        """The opponent's side."""
        return self.table.sides[1 - self.player]


def table_view(state: State, now: float | None = None) -> TableView:
    """What anyone at the table sees of ``state`` at ``now`` (default: the time of its
    last action)."""
    left, right = state.play_piles
    top_left, top_right = state.tops
    one, two = state.players
    return TableView(
        state.rules,
        state.time if now is None else now,
        state.phase,
        (_side_of(one), _side_of(two)),
        (top_left, top_right),
        (len(left), len(right)),
        state.winner,
    )


def player_view(state: State, player: int, now: float | None = None) -> PlayerView:
    """What ``player`` sees of ``state`` at ``now`` (default: the time of its last
    action): everything face up, the draw piles' sizes, nothing else."""
    if player not in PLAYERS:
        raise ValueError(f"no player {player!r} (players are 0 and 1)")
    return PlayerView(player, table_view(state, now))


def position(view: TableView) -> State:
    """A position that shows exactly what ``view`` shows and nothing more: each pile its
    top card, as many times as the pile is high; each draw pile ``STAND_IN``, as many
    times as it holds cards. What the computer players decide on when given a view, and
    what a network peer draws.

    >>> from stress_tui.core.notation import parse_position
    >>> state = parse_position("rules: skat; p1 row: 7H | - | AS; p1 draw: 8C 9C;"
    ...                        " piles: 8D 9D | -; p2 row: - | - | -")
    >>> seen = position(table_view(state))
    >>> table_view(seen) == table_view(state), seen.players[0].draw_pile == [STAND_IN] * 2
    (True, True)
    """
    players = [
        PlayerState(
            [STAND_IN] * side.draw_count,
            [
                [top] * size if top is not None else []
                for top, size in zip(side.row, side.row_sizes, strict=True)
            ],
            side.ready,
            side.locked_until,
            side.stop,
        )
        for side in view.sides
    ]
    left, right = (
        [top] * size if top is not None else []
        for top, size in zip(view.tops, view.pile_sizes, strict=True)
    )
    return State(
        view.rules,
        (players[0], players[1]),
        (left, right),
        view.phase,
        view.time,
        winner=view.winner,
    )


def _side_of(player: PlayerState) -> SideView:
    row = player.row
    return SideView(
        tuple(player.shown),
        # The sizes unpacked into the tuple's display, where ``tuple(map(...))`` made a
        # tuple of a guessed ten and cut it down: code nothing else on a play's key runs.
        (*map(len, row),),
        len(player.draw_pile),
        player.ready,
        player.stop,
        player.locked_until,
    )


# --------------------------------------------------------------------------- reading JSON


def _card_text(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _field(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if not isinstance(value, kind):
        raise ValueError(f"{name}: missing, or not a {kind.__name__}")
    return value


def _time(data: dict[str, Any], name: str) -> float:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name}: a number of seconds")
    seconds = float(value)
    if not math.isfinite(seconds):
        raise ValueError(f"{name}: a finite number of seconds")
    return seconds


def _cards(values: list[Any], where: str) -> tuple[Card | None, ...]:
    cards: list[Card | None] = []
    for value in values:
        if value is None:
            cards.append(None)
        elif isinstance(value, str):
            try:
                cards.append(Card.parse(value))
            except ValueError as error:
                raise ValueError(f"{where}: {error}") from None
        else:
            raise ValueError(f"{where}: a card in notation or null")
    return tuple(cards)


def _sizes(values: list[Any], where: str) -> tuple[int, ...]:
    if not all(_whole(value) and 0 <= value <= MAX_CARDS for value in values):
        raise ValueError(f"{where}: whole numbers from 0 to {MAX_CARDS}")
    return tuple(values)


def _pair(values: tuple[Any, ...], where: str) -> Any:
    if len(values) != 2:
        raise ValueError(f"{where}: one for each play pile")
    return values


def _side(data: Any, rules: Rules, where: str) -> SideView:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: a JSON object")
    row = _cards(_field(data, "row", list), f"{where}.row")
    sizes = _sizes(_field(data, "row_sizes", list), f"{where}.row_sizes")
    if len(row) != rules.row_size or len(sizes) != rules.row_size:
        raise ValueError(f"{where}: rows of {rules.row_size}, as the rules have them")
    if any((card is None) != (size == 0) for card, size in zip(row, sizes, strict=True)):
        raise ValueError(f"{where}: an empty place has no card and a size of 0")
    draw: Any = data.get("draw_count")
    if not _whole(draw) or not 0 <= draw <= MAX_CARDS:
        raise ValueError(f"{where}.draw_count: a whole number from 0 to {MAX_CARDS}")
    ready: Any = data.get("ready")
    if not isinstance(ready, bool):
        raise ValueError(f"{where}: ready is true or false")
    stop: Any = data.get("stop")
    if (
        not isinstance(stop, list)
        or not all(_whole(place) and 0 <= place < rules.row_size for place in stop)
        or sorted(set(stop)) != stop
    ):
        raise ValueError(f"{where}.stop: places of a row in order")
    return SideView(row, sizes, draw, ready, tuple(stop), _time(data, "locked_until"))
