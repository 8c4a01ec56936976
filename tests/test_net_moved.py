"""A peer's table moved by what changed: the host sends each action it applied and the cards
it turned face up, and the peer's own engine comes to the host's table, card for card as far
as anyone can see, without ever holding a card it could not see."""

from __future__ import annotations

import collections
import random
from typing import Any

import pytest

from stress_tui.core.actions import (
    Action,
    CallStress,
    Flip,
    Play,
    PlayTogether,
    ReadyToFlip,
    StopStress,
)
from stress_tui.core.cards import Card
from stress_tui.core.engine import Game, Phase, State
from stress_tui.core.events import Flipped
from stress_tui.core.lifecycle import Stage
from stress_tui.core.rules import Rules
from stress_tui.core.rulevalues import Deal, FalseStress, FlipReady, StressPenalty, Taken
from stress_tui.core.view import STAND_IN, table_view
from stress_tui.net import host as host_module
from stress_tui.net.client import Client
from stress_tui.net.host import Host
from stress_tui.net.protocol import HOST_MESSAGES, encode
from stress_tui.net.standing import HOST_SEAT
from stress_tui.net.wire import (
    Mirror,
    OutOfStep,
    check,
    mirror_state,
    public_standing,
    public_view,
    turned_up,
)
from tests.test_net import run, seated, table, until

SEEDS = 4
"""Rounds played with each set of rules."""

RULES = [
    Rules(),
    Rules.for_deck("standard", taken=Taken.MIXED, stress_penalty=StressPenalty.ONE),
    Rules.for_deck("standard", deal=Deal.EACH, jokers=2, false_stress=FalseStress.TAKE),
    Rules.for_deck("skat", flip_ready=FlipReady.ONE, stress_penalty=StressPenalty.GIVE),
    Rules.for_deck("jass", stacking=True, false_stress=FalseStress.LOCKOUT),
    Rules.for_deck("doppelkopf", stress_stop=True),
]


def _any_action(game: Game, rng: random.Random, time: float, careless: bool) -> Action:
    """What two players and the table might do next: careless ones also call stress for
    nothing, misplay, stop and say ready at any time; careful ones play what fits."""
    player = rng.randrange(2)
    phase = game.phase
    if phase is Phase.WAITING_FLIP:
        return Flip(time) if not careless or rng.random() < 0.7 else ReadyToFlip(player, time)
    if phase is Phase.STRESS:
        return CallStress(player, time)
    plays = game.legal_plays(player)
    roll = rng.random() if careless else 0.0
    if plays and roll < 0.8:
        pile, target = rng.choice(plays)
        return (PlayTogether if rng.random() < 0.3 else Play)(player, pile, target, time)
    if not careless or roll >= 0.95:
        return ReadyToFlip(player, time)
    if roll < 0.85:
        return CallStress(player, time)
    if roll < 0.9:
        return StopStress(player, time)
    size = game.rules.row_size
    return Play(player, rng.randrange(size), rng.randrange(2), time)


def _mirror_of(game: Game, applied: int = 0) -> Mirror:
    state = mirror_state(public_view(game), game.rules, public_standing(game))
    return Mirror(state, applied)


def _holds_only_what_shows(state: State) -> bool:
    """Whether ``state`` holds stand-ins face down and, under each top, its top again."""
    piles = [pile for player in state.players for pile in player.row]
    piles += list(state.play_piles)
    hidden = [card for player in state.players for card in player.draw_pile]
    return set(hidden) <= {STAND_IN} and all(len(set(pile)) <= 1 for pile in piles)


@pytest.mark.one_python  # pure logic (the engine and net/wire's Mirror, no socket), any seed
def test_a_mirror_moved_by_actions_and_the_cards_they_turned_up_stays_the_hosts_table() -> None:
    """Whole rounds of every kind of action, by every set of rules (flips from one draw
    pile, piles taken under or mixed in, draw piles recycled, stress won and false,
    misplays): after each, the mirror shows what the host's table shows, counts what it
    counts, and holds nothing it could not see; made again from the whole table now and
    then (a peer arriving mid-round), it goes on alike."""
    followed = collections.Counter[str]()
    for rules in RULES:
        for seed in range(SEEDS):
            rng = random.Random(seed)
            game = Game.deal(rules, random.Random(seed))
            mirror = _mirror_of(game)
            time = 0.0
            for step in range(4000):
                if game.phase is Phase.ROUND_OVER:
                    break
                if step % 37 == 36:  # made again from the whole table, as a peer arriving
                    mirror = _mirror_of(game)
                time += rng.random() * 0.4
                action = _any_action(game, rng, time, careless=seed % 2 == 0)
                events = game.apply(action)
                seen = mirror.follow(action, turned_up(events))
                assert [type(e) for e in seen] == [type(e) for e in events]
                assert check(mirror.game) == check(game), (rules, seed, action)
                assert table_view(mirror.game.state) == table_view(game.state)
                assert _holds_only_what_shows(mirror.game.state)
                for event in events:
                    followed[type(event).__name__] += 1
                    if isinstance(event, Flipped) and None not in event.cards:
                        followed["from one pile"] += event.sources[0] == event.sources[1]
    # The rounds came to what a mirror finds hardest.
    for hard in ("PilesTaken", "PilesRecycled", "from one pile", "StressWon", "LockedOut"):
        assert followed[hard], hard


def test_a_mirror_told_other_cards_than_were_turned_up_knows_it() -> None:
    """Too few cards for what the engine draws: out of step at once; other cards: the
    ``check`` the host sends with them differs."""
    game = Game.deal(Rules(), random.Random(3))
    flip = Flip(0.0)
    shown = turned_up(game.apply(flip))
    with pytest.raises(OutOfStep):
        _mirror_of(Game.deal(Rules(), random.Random(3))).follow(flip, shown[:-1])
    wrong = [Card.parse("AS") if card != Card.parse("AS") else Card.parse("KS") for card in shown]
    astray = _mirror_of(Game.deal(Rules(), random.Random(3)))
    astray.follow(flip, wrong)
    assert check(astray.game) != check(game)


def _cards_named(message: dict[str, Any]) -> list[str]:
    """Every card a message to a peer names (what moved shows, a view's tops)."""
    if message["t"] == "moved":
        return [card for cards in message["shown"] for card in cards]
    if message["t"] == "state":
        view = message["view"]
        tops = [*view["tops"], *(card for side in view["sides"] for card in side["row"])]
        return [card for card in tops if card is not None]
    return []


def test_a_round_reaches_the_joiner_and_a_spectator_as_what_moved_and_nothing_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A whole round of two quick players: the joiner and a spectator are sent what moved,
    their tables follow the host's to the end without asking for it whole again, the round
    costs each a small part of what the whole table each time did, and no message names a
    card that lies face down on the host's table as it is sent."""
    from bench.net_bytes import play_round

    sent: list[tuple[str, dict[str, Any]]] = []
    hidden_named: list[str] = []
    syncs: list[str] = []
    host = Host(Rules(), "Ann", countdown=0.3, record=False, seed=0)
    send, on_message = host_module.Peer.send, Host._on_message

    def sending(peer: host_module.Peer, message: dict[str, Any]) -> bool:
        sent.append((peer.role, message))
        if host.fair is not None:
            face_down = collections.Counter(
                str(card) for player in host.fair.game.state.players for card in player.draw_pile
            )
            face_up = collections.Counter(str(card) for card in host.fair.game.state.cards())
            face_up.subtract(face_down)
            named = collections.Counter(_cards_named(message))
            hidden_named.extend(card for card, n in named.items() if n > face_up[card])
        return send(peer, message)

    def hearing(self: Host, peer: host_module.Peer, message: dict[str, Any], now: float) -> None:
        if message["t"] == "sync":
            syncs.append(peer.role)
        on_message(self, peer, message, now)

    monkeypatch.setattr(host_module.Peer, "send", sending)
    monkeypatch.setattr(Host, "_on_message", hearing)

    async def test() -> None:
        joiner = await seated(host, record=False)
        watcher = Client("127.0.0.1", host.port, host.code, role="watch", record=False)
        await watcher.connect()
        for peer in (joiner, watcher):

            def only_what_shows(_events: object, peer: Client = peer) -> None:
                assert peer.shown is None or _holds_only_what_shows(peer.shown.game.state)

            peer.on_change = only_what_shows
        await play_round(host, joiner, pace=0.03, timeout=60)
        assert host.fair is not None
        for peer in (joiner, watcher):
            await until(lambda peer=peer: peer.stage is Stage.RESULT, "the result on both")  # type: ignore[misc]
            assert peer.shown is not None
            assert table_view(peer.shown.game.state) == table_view(host.fair.game.state)
        await watcher.leave()
        await joiner.leave()
        await host.close()

    run(test)
    assert syncs == []
    assert hidden_named == []
    for role in ("play", "watch"):
        kinds = collections.Counter(m["t"] for r, m in sent if r == role)
        assert kinds["moved"] > 5 * kinds["state"], kinds
        size = sum(len(encode(m)) for r, m in sent if r == role)
        assert size < 67 * 1024, (role, size)
    for _role, message in sent:  # each fits the protocol, seed or draw order in no field
        if message["t"] == "moved":
            HOST_MESSAGES["moved"].check("moved", message)


def test_a_joiner_whose_table_went_astray_gets_the_hosts_back_at_the_next_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ``check`` that comes with what moved tells the joiner its table is not the
    host's: it asks for the whole table (``sync``) and shows that."""
    syncs: list[str] = []
    on_message = Host._on_message

    def hearing(self: Host, peer: host_module.Peer, message: dict[str, Any], now: float) -> None:
        if message["t"] == "sync":
            syncs.append(peer.role)
        on_message(self, peer, message, now)

    monkeypatch.setattr(Host, "_on_message", hearing)

    async def test() -> None:
        host, joiner = await table()
        assert joiner.mirror is not None and host.fair is not None
        joiner.mirror.game.state.players[HOST_SEAT].row[0] = [Card.parse("AS")]  # astray
        host.act("ready")
        await until(lambda: syncs == ["play"], "the joiner to ask for the whole table")
        await until(
            lambda: (
                joiner.mirror is not None
                and joiner.shown is not None
                and host.fair is not None
                and table_view(joiner.shown.game.state) == table_view(host.fair.game.state)
                and check(joiner.mirror.game) == check(host.fair.game)
            ),
            "the host's table on the joiner's side",
        )
        await host.close()

    run(test)
