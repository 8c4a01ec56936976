"""The house rules, declared once: ``HOUSE_RULES``, the table that says, for every rule,
its one name, how its values are read, checked and written, its default with the standard
deck and with each deck whose default differs, its help text, its short form for the rule
line and its sentences for ``--rules`` and the help screen.

Everything that names a house rule is made from the table: the ``Rules`` a round is played
by (``core/rules.py``, whose fields' defaults are the table's), the notation's ``rules:``
line (``core/notation.py``), the config file's ``[rules]`` keys (``cli/config.py``), the
flags (``cli/flags.py``) and the rule texts (``core/rulestext.py``).

A rule's words read a ``Rules`` only when they are said.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from stress_tui.core.decks import DECK_FACTS
from stress_tui.core.kinds import BadValue, Choice, Kind, Seconds, Switch, Whole
from stress_tui.core.rulevalues import (
    DEAD_FLIPS,
    STALE_PLAYS_PER_CARD,
    Deal,
    FalseStress,
    FlipReady,
    Section,
    StressPenalty,
    Taken,
)
from stress_tui.core.rulewords import (
    FALSE_SHORTS,
    PENALTY_SENTENCES,
    PENALTY_SHORTS,
    deal_sentences,
    deck_sentences,
    deck_short,
    deck_summary,
    false_sentences,
    flip_sentences,
    joker_sentences,
    lockout_sentences,
    lockout_short,
    on_and_off,
    race_short,
    said_pair,
    wins_sentences,
    wrap_sentences,
)
from stress_tui.core.text import Problem
from stress_tui.core.words import N_, Say, listed

if TYPE_CHECKING:
    from stress_tui.core.rules import Rules

__all__ = [
    "BY_FIELD",
    "BY_NAME",
    "DEAD_FLIPS",
    "DECK_RULE",
    "DEFAULTS",
    "HOUSE_RULES",
    "ROOMIEST",
    "RULE_NAME",
    "STALE_PLAYS_PER_CARD",
    "Choice",
    "Deal",
    "FalseStress",
    "FlipReady",
    "HouseRule",
    "Kind",
    "RulesError",
    "Seconds",
    "Section",
    "StressPenalty",
    "Switch",
    "Taken",
    "Whole",
]

RULE_NAME = "rule"
"""The placeholder where a ``RulesError``'s problem names its own rule again (``({rule} at
most 15)``): ``said_as`` fills it in with the name the flag or the config entry has."""


class RulesError(Problem, ValueError):
    """A setting, or a combination of settings, that cannot be played.

    ``field`` is the house rule it is about, by its one name (``row``, ``stress-penalty``,
    ``deck``), ``value`` the value refused and ``problem`` what is wrong with it (an
    ``N_`` text and the ``values`` of its placeholders, or a ``Problem``), said after the
    rule's name: ``str(error)`` is ``"row: must be at least 1, not 0"``; ``said_as`` says
    it in a language.

    >>> error = RulesError("row", 0, N_("must be at least {low}, not {value}"), low=1, value=0)
    >>> error.field, error.value, str(error)
    ('row', 0, 'row: must be at least 1, not 0')
    """

    def __init__(
        self, field: str, value: object, problem: str | Problem, /, **values: object
    ) -> None:
        super().__init__(problem, **values)
        self.field = field
        """The house rule's one name (``HOUSE_RULES``)."""
        self.value = value
        """The value refused."""

    @property
    def problem(self) -> str:
        """What is wrong, without the rule's name in front: ``must be at least 1, not 0``."""
        return self.said_as(self.field)

    def said_as(self, name: str, _: Say = N_) -> str:
        """The problem with the rule called ``name`` where it names it again (``--row``,
        ``rules.row``), as a flag or a config entry says it, in the language ``_`` says."""
        return Problem(self.text, **{**self.values, RULE_NAME: name}).said(_)

    def said(self, _: Say = N_) -> str:
        """The rule's name and the problem, in the language ``_`` says."""
        return f"{self.field}: {self.said_as(self.field, _)}"


def _no_short(rules: Rules, _: Say = N_) -> tuple[str, str] | None:
    return None


def _no_sentence(rules: Rules, _: Say = N_) -> list[str]:
    return []


@dataclass(frozen=True, slots=True, eq=False)
class HouseRule:
    """One house rule, declared once; everything that names it is made from this."""

    name: str
    """Its one name: the notation's key (``row=3``), the config file's key in ``[rules]``
    (``row = 3``) and the flag (``--row 3``)."""
    field: str
    """The ``Rules`` field it sets."""
    kind: Kind
    """How its values are read (from a flag, the notation, a config file), checked and
    written."""
    help: str
    """What it does, for ``--help``; the allowed values and the default are added."""
    section: Section
    """Where its sentences go among the rules in words."""
    sentences: Callable[[Rules, Say], list[str]] = _no_sentence
    """What it means under some rules, in a card player's words, a sentence a line (for
    ``--rules`` and the help screen), said with the ``Say`` given; empty if another rule's
    sentence says it."""
    short: Callable[[Rules, Say], tuple[str, str] | None] = _no_short
    """Its part of the rule line under some rules, in a long and a short form; ``None``
    where the line says nothing of it (at the common value)."""
    _: dataclasses.KW_ONLY
    default: object
    """Its default with the standard deck: the ``Rules`` field's default, and every deck's
    but those in ``per_deck``."""
    keep_short: bool = False
    """Kept on a rule line too narrow for every part (the deck, the row, the match)."""
    per_deck: Mapping[str, object] = dataclasses.field(default_factory=dict)
    """The default of a deck whose default differs from the standard deck's."""
    group: str = N_("house rules")
    """The flags' help group it is listed in."""
    old_names: tuple[str, ...] = ()
    """Names older notation used for it, still read (replays and records keep them)."""
    soak: Callable[[Rules], tuple[object, ...]] | None = None
    """The values the simulator's soak plays in every combination with the other rules',
    given a deck's default rules; ``None``: the soak leaves it at the deck's default."""

    @property
    def flag(self) -> str:
        """``--row``."""
        return f"--{self.name}"

    def read(self, text: str) -> Any:
        """A value written by a person or the notation (``RulesError`` if it is none)."""
        return self._converted(self.kind.from_text, text)

    def read_toml(self, value: object) -> Any:
        """A value from a config file (``RulesError`` if it is none)."""
        return self._converted(self.kind.from_toml, value)

    def coerce(self, value: object) -> Any:
        """A value given to ``Rules`` in code, as the field keeps it."""
        return self._converted(self.kind.coerce, value)

    def _converted(self, convert: Callable[[Any], Any], value: object) -> Any:
        try:
            return convert(value)
        except BadValue as bad:
            raise RulesError(self.name, value, bad) from None

    def write(self, value: object) -> str:
        """A value as the notation writes it."""
        return self.kind.write(value)

    def default_for(self, deck: str) -> object:
        """Its default with the deck of that name."""
        return self.per_deck.get(deck, self.default)

    def default_text(self, _: Say = N_) -> str:
        """Its default for ``--help``: ``on``, or ``the deck's: 3 for skat, 4 for the
        others`` where the decks differ, said with ``_``."""
        if self.field == "deck":
            return self.write(self.default)
        by_value: dict[str, list[str]] = {}
        for deck in DECK_FACTS:
            said = self.write(self.default_for(deck))
            by_value.setdefault(said, []).append(deck)
        if len(by_value) == 1:
            return next(iter(by_value))
        common = max(by_value, key=lambda value: len(by_value[value]))
        parts = [
            _("{value} for {decks}").format(value=said, decks=listed(ds, _))
            for said, ds in by_value.items()
            if said != common
        ]
        return _("the deck's: {values}, {common} for the others").format(
            values=", ".join(parts), common=common
        )

    def help_text(self, _: Say = N_) -> str:
        """The flag's whole help: what it does, the allowed values, the default, said with
        ``_``."""
        what = _(self.help)
        if self.field == "deck":
            what = what.format(decks=deck_summary(_))
        return _("{what}{span}; default: {default}").format(
            what=what, span=self.kind.span(_), default=self.default_text(_)
        )


# --------------------------------------------------------------------------- the table


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "deck",
        "deck",
        Choice(
            {name: name for name in DECK_FACTS}, N_("{value} is not a deck (choose from {choices})")
        ),
        N_("the cards: {decks}"),
        Section.CARDS,
        deck_sentences,
        deck_short,
        default="standard",
        keep_short=True,
        group=N_("deck"),
    ),
    HouseRule(
        "jokers",
        "jokers",
        Whole(0, 16),
        N_("wild jokers added to each deck"),
        Section.CARDS,
        joker_sentences,
        default=0,
        # The rule line says the jokers with the deck: "standard +2 jokers".
        group=N_("deck"),
        soak=lambda r: (0, 2, 16),  # 16: the most allowed
    ),
    HouseRule(
        "deal",
        "deal",
        Choice.of(Deal, N_("{value} is not a deal (choose from {choices})")),
        N_("split: one deck is shuffled and halved; each: every player has a deck of their own"),
        Section.CARDS,
        deal_sentences,
        lambda r, _: (_("a deck each"), _("each")) if r.deal is Deal.EACH else None,
        default=Deal.SPLIT,
        # 001: "Jeder Mitspieler erhält die 52 Karten eines Satzes": its own game.
        per_deck={"german": Deal.EACH},
        group=N_("deck"),
        soak=lambda r: tuple(Deal),
    ),
    HouseRule(
        "row",
        "row_size",
        Whole(1),
        N_("piles in each player's row (at most a player's cards less one)"),
        Section.ROW,
        lambda r, _: [
            _(
                "Each player has a row of {cards} cards face up, the rest face down as a draw pile."
            ).format(cards=r.row_size)
        ],
        lambda r, _: (_("row {n}").format(n=r.row_size), _("row {n}").format(n=r.row_size)),
        default=4,
        keep_short=True,
        per_deck={"skat": 3},
        soak=lambda r: tuple(sorted({r.row_size, r.row_size - 1} - {0})),
    ),
    HouseRule(
        "stacking",
        "stacking",
        Switch(),
        N_(
            "a card of a rank already in the row is stacked on it and the pile is played whole; "
            "--no-stacking gives every card its own place"
        ),
        Section.ROW,
        lambda r, _: [
            _("Cards of the same rank in a row are stacked and played as one pile.")
            if r.stacking
            else _("No stacking: every card in a row has a place of its own.")
        ],
        lambda r, _: None if r.stacking else (_("no stacking"), _("no stack")),
        default=True,
        # 001 deals open cards, not piles: four with Jass (which also lays no more than one
        # card at once into the middle), three with Skat; Doppelkopf plays by the same rules.
        per_deck={"jass": False, "skat": False, "doppelkopf": False, "german": False},
        soak=on_and_off,
    ),
    HouseRule(
        "together",
        "together",
        Switch(),
        N_(
            "several ready cards of one rank may be laid together, all at once (001's Stapel; "
            "on screen: the together key, then a pile's key)"
        ),
        Section.ROW,
        lambda r, _: (
            [_("Cards of one rank in the row may be laid together, all at once.")]
            if r.together
            else []
        ),
        lambda r, _: (_("equal cards together"), _("together")) if r.together else None,
        default=False,
        # 001's Stapel; Jass lays no more than one card at once, and 000 has no such rule.
        per_deck={"skat": True, "doppelkopf": True, "german": True},
        soak=on_and_off,
    ),
    HouseRule(
        "wrap",
        "wrap",
        Switch(),
        N_(
            "the ranks go round, so the ace and the lowest card are neighbours; --no-wrap ends "
            "the ranks at both ends"
        ),
        Section.PLAY,
        wrap_sentences,
        lambda r, _: None if r.wrap else (_("no wrap"), _("no wrap")),
        default=True,
        soak=on_and_off,
    ),
    HouseRule(
        "flip-ready",
        "flip_ready",
        Choice.of(FlipReady, N_("{value} is not who says ready (choose from {choices})")),
        N_(
            "who must say ready to flip new cards while a card could still be played: both "
            "players, or one is enough (001: one player who does not want to play)"
        ),
        Section.PLAY,
        flip_sentences,
        lambda r, _: (
            (_("one ready flips"), _("1 ready")) if r.flip_ready is FlipReady.ONE else None
        ),
        default=FlipReady.BOTH,
        # 001: "oder ein Spieler einen möglichen Zug nicht wahrnehmen will", in 001's decks.
        per_deck={deck: FlipReady.ONE for deck in ("jass", "skat", "doppelkopf", "german")},
        soak=lambda r: tuple(FlipReady),
    ),
    HouseRule(
        "stress-penalty",
        "stress_penalty",
        Choice.of(StressPenalty, N_("{value} is not a stress penalty (choose from {choices})")),
        N_(
            "when stress is won: the slower player takes both play piles, or only the smaller "
            "one, or the faster gives the slower the larger one (both, when that one is a "
            "single card and the slower's draw pile is empty)"
        ),
        Section.STRESS,
        lambda r, _: [_(PENALTY_SENTENCES[r.stress_penalty])],
        lambda r, _: said_pair(PENALTY_SHORTS.get(r.stress_penalty), _),
        default=StressPenalty.BOTH,
        old_names=("penalty",),
        soak=lambda r: tuple(StressPenalty),
    ),
    HouseRule(
        "taken",
        "taken",
        Choice.of(Taken, N_("{value} is not a place for taken cards (choose from {choices})")),
        N_(
            "the cards a player takes up (stress lost, a false call): under, shuffled and put "
            "under the draw pile; mixed, shuffled together with the whole draw pile"
        ),
        Section.STRESS,
        lambda r, _: [
            _("Taken cards are shuffled and put under the draw pile.")
            if r.taken is Taken.UNDER
            else _("Taken cards are shuffled together with the whole draw pile.")
        ],
        lambda r, _: (
            (_("taken cards mixed in"), _("taken: mixed")) if r.taken is Taken.MIXED else None
        ),
        default=Taken.UNDER,
        # 001: "welche er zu seinen Karten in der Hand dazumischen muss", in 001's decks.
        per_deck={deck: Taken.MIXED for deck in ("jass", "skat", "doppelkopf", "german")},
        soak=lambda r: tuple(Taken),
    ),
    HouseRule(
        "false-stress",
        "false_stress",
        Choice.of(FalseStress, N_("{value} is not a false-stress penalty (choose from {choices})")),
        N_(
            "calling stress when there is none: the caller takes both play piles, or nothing "
            "happens, or the caller is locked out for --lockout seconds"
        ),
        Section.STRESS,
        false_sentences,
        lambda r, _: said_pair(FALSE_SHORTS.get(r.false_stress), _),
        # Jass too: 001's "Bei falscher Nennung eines Stresses bleibt dies für den Rufer
        # folgenlos" closes the paragraph of the stop, read as a stop that names no stress
        # (refused, free); a false call of stress costs as 001's Strafen say.
        default=FalseStress.TAKE,
        soak=lambda r: tuple(FalseStress),
    ),
    HouseRule(
        "stress-stop",
        "stress_stop",
        Switch(),
        N_(
            "the Swiss stress stop: a player who sees cards of the opponent's that would make "
            "stress may call stop on them, and the next play of one makes no stress"
        ),
        Section.STRESS,
        lambda r, _: [
            _(
                "Stress stop: call stop on the opponent's cards that would make stress, and the "
                "next play of one makes none; a stop when none would is refused and free."
            )
            if r.stress_stop
            else _("No stress stop.")
        ],
        lambda r, _: (_("stress stop"), _("stop")) if r.stress_stop else None,
        default=False,
        per_deck={"jass": True},
        soak=on_and_off,
    ),
    HouseRule(
        "lockout",
        "lockout",
        Seconds(0, 60),
        N_("how long a player may not play after playing a card that does not fit"),
        Section.PLAY,
        lockout_sentences,
        lockout_short,
        default=0.75,
    ),
    HouseRule(
        "race-window",
        "race_window",
        Seconds(0, 60),
        N_(
            "a card that fitted one the opponent covered at most this many seconds before lost "
            "a race: it is refused, but without a lockout"
        ),
        Section.PLAY,
        default=0.3,
        # The lockout's sentence says the race window (there is none without a lockout).
        short=race_short,
        old_names=("race",),
    ),
    HouseRule(
        "wins",
        "wins",
        Whole(1, 99),
        N_(
            "round wins that take the match; a round is won by laying the last card, and one "
            "nobody can finish (a dead table, no progress) is drawn and dealt again"
        ),
        Section.MATCH,
        wins_sentences,
        lambda r, _: (
            (_("to {n} win") if r.wins == 1 else _("to {n} wins")).format(n=r.wins),
            (_("{n} win") if r.wins == 1 else _("{n} wins")).format(n=r.wins),
        ),
        default=3,
        keep_short=True,
        per_deck={"jass": 5},
    ),
)
"""Every house rule, in the order the notation writes them and the flags list them."""

BY_NAME: dict[str, HouseRule] = {rule.name: rule for rule in HOUSE_RULES}
"""The house rules by their one name."""

BY_FIELD: dict[str, HouseRule] = {rule.field: rule for rule in HOUSE_RULES}
"""The house rules by ``Rules`` field."""

DEFAULTS: dict[str, Any] = {rule.field: rule.default for rule in HOUSE_RULES}
"""Each rule's default with the standard deck, by ``Rules`` field: the fields' defaults."""

DECK_RULE = BY_NAME["deck"]
"""The deck, which the notation writes first, without a name."""

ROOMIEST: dict[str, object] = {"deal": Deal.EACH, "jokers": 16}
"""The settings (by field) that deal a player the most cards of any deck: every other
rule's value can be checked on its own under them (the config file does), so that only a
combination of rules can still be refused."""
