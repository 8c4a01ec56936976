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
import enum
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from stress_tui.core.decks import DECK_FACTS, deck_size
from stress_tui.core.text import Problem
from stress_tui.core.words import N_, Say, listed, number, quoted, rank_word, seconds, shown
from stress_tui.core.words import with_article as a

if TYPE_CHECKING:
    from stress_tui.core.rules import Rules

DEAD_FLIPS = 12
"""Flips in a row without a card played after which the table is dead and the round is
drawn: some positions (one card left on each pile, nothing fits, or the same card flipped
back into the same stress) would otherwise repeat for ever."""

STALE_PLAYS_PER_CARD = 10
"""Plays in a row without progress, for every card dealt, after which the round is drawn
(``Rules.stale_limit``: 520 with the standard deck split): a play is progress when it
leaves its player with fewer cards (draw pile and row) than they had ever held before in
the round. Long rounds are no loop: every stress hands the middle back to one player, so
the cards held wander up and down, the more so the more cards are dealt and the more
stresses jokers open; measured with ``stress-tui sim``, bot:normal against bot:normal, the
longest such run was under 6 plays a card dealt with four jokers and a deck each
(``docs/rules.md``). The limit only stops a round that would never end."""

RULE_NAME = "rule"
"""The placeholder where a ``RulesError``'s problem names its own rule again (``({rule} at
most 15)``): ``said_as`` fills it in with the name the flag or the config entry has."""


class _Bad(Problem, ValueError):
    """A value a kind of setting cannot take; the text says why, without the rule's name
    (an ``N_`` text and its values, said in the player's language by the edge)."""


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


class Deal(str, enum.Enum):
    """How the cards reach the players."""

    SPLIT = "split"
    """One shuffled deck is halved (000, Swedish)."""
    EACH = "each"
    """Every player shuffles a full deck of their own (001, German)."""


class StressPenalty(str, enum.Enum):
    """What the slower player gets when stress is won."""

    BOTH = "both"
    """The slower takes both play piles (000 and 001: the common rule)."""
    ONE = "one"
    """The slower takes only one pile, the smaller (000, documented variant)."""
    GIVE = "give"
    """The faster hands one pile to the slower, the larger (000, documented variant)."""


class Taken(str, enum.Enum):
    """Where the cards a player has to take up go (after a stress lost or a false call)."""

    UNDER = "under"
    """Shuffled and put under the draw pile: the cards one was about to draw stay next
    (000: "Blanda alltid de kort du tvingas ta upp innan du lägger dem i plockhögen")."""
    MIXED = "mixed"
    """Shuffled together with the whole draw pile (001: "welche er zu seinen Karten in der
    Hand dazumischen muss")."""


class FalseStress(str, enum.Enum):
    """What calling stress costs when there is no stress."""

    TAKE = "take"
    """The caller takes both play piles (001, Strafen)."""
    IGNORE = "ignore"
    """Nothing happens (001's Swiss sentence read as forgiving every false call)."""
    LOCKOUT = "lockout"
    """The caller may not play for the lockout time (our choice, a milder penalty)."""


class FlipReady(str, enum.Enum):
    """Who must say ready to flip new cards while a card could still be played."""

    BOTH = "both"
    """Both players (the flip is done together)."""
    ONE = "one"
    """One is enough (001: "oder ein Spieler einen möglichen Zug nicht wahrnehmen will")."""


class Section(enum.Enum):
    """Where a rule's sentences go among the rules in words (``rulestext.plain_words``)."""

    CARDS = enum.auto()
    """The deck and the deal."""
    ROW = enum.auto()
    """The row in front of each player."""
    PLAY = enum.auto()
    """Playing a card."""
    STRESS = enum.auto()
    """Stress and calling it."""
    MATCH = enum.auto()
    """Winning a round and the match."""


@dataclass(frozen=True, slots=True)
class Whole:
    """A whole number from ``low`` up to ``high`` (no end above if ``None``)."""

    low: int
    """The smallest allowed."""
    high: int | None = None
    """The largest allowed."""
    metavar: ClassVar[str | None] = "N"
    """What the flag's value is called in ``--help``."""

    def from_text(self, text: str) -> int:
        """The value a flag or the notation writes."""
        try:
            return int(text.strip())
        except ValueError:
            raise _Bad(N_("{value} is not a whole number"), value=shown(text)) from None

    def from_toml(self, value: object) -> int:
        """The value a config file gives (any TOML value)."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(N_("must be a whole number, not {value}"), value=shown(value))
        return value

    def coerce(self, value: object) -> object:
        """The value as ``Rules`` keeps it (``problem`` says if it is not one)."""
        return value

    def problem(self, value: object) -> Problem | None:
        """What is wrong with a value of the field, or ``None``."""
        if isinstance(value, bool) or not isinstance(value, int):
            return _Bad(N_("must be a whole number, not {value}"), value=shown(value))
        if self.high is None:
            if value >= self.low:
                return None
            return _Bad(N_("must be at least {low}, not {value}"), low=self.low, value=value)
        if not self.low <= value <= self.high:
            return _Bad(
                N_("must be between {low} and {high}, not {value}"),
                low=self.low,
                high=self.high,
                value=value,
            )
        return None

    def write(self, value: Any) -> str:
        """The value in the notation (and in help texts)."""
        return str(value)

    def toml(self, value: Any) -> str:
        """The value in a config file."""
        return str(value)

    def span(self, _: Say = N_) -> str:
        """The allowed values, for help texts: ``, 0 to 16`` (empty if there is no end)."""
        if self.high is None:
            return ""
        return _(", {low} to {high}").format(low=self.low, high=self.high)


@dataclass(frozen=True, slots=True)
class Seconds:
    """A time in seconds from ``low`` to ``high``."""

    low: float
    """The shortest allowed."""
    high: float
    """The longest allowed."""
    metavar: ClassVar[str | None] = "SECONDS"
    """What the flag's value is called in ``--help``."""

    def from_text(self, text: str) -> float:
        """The value a flag or the notation writes."""
        try:
            value = float(text.strip())
        except ValueError:
            raise _Bad(N_("{value} is not a number of seconds"), value=shown(text)) from None
        if not math.isfinite(value):
            raise _Bad(N_("{value} is not a number of seconds"), value=shown(text))
        return value

    def from_toml(self, value: object) -> float:
        """The value a config file gives (any TOML value)."""
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            raise _Bad(N_("must be a number of seconds, not {value}"), value=shown(value))
        return float(value)

    def coerce(self, value: object) -> object:
        """The value as ``Rules`` keeps it: a whole number of seconds becomes a float."""
        if isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        return value

    def problem(self, value: object) -> Problem | None:
        """What is wrong with a value of the field, or ``None``."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return _Bad(N_("must be a number of seconds, not {value}"), value=shown(value))
        if not self.low <= value <= self.high:
            return _Bad(
                N_("must be between {low} and {high} seconds, not {value}"),
                low=number(self.low),
                high=number(self.high),
                value=value,
            )
        return None

    def write(self, value: Any) -> str:
        """The value in the notation (and in help texts), exactly."""
        return number(value)

    def toml(self, value: Any) -> str:
        """The value in a config file."""
        return repr(float(value))

    def span(self, _: Say = N_) -> str:
        """The allowed values, for help texts."""
        return _(", {low} to {high}").format(low=number(self.low), high=number(self.high))


class Switch:
    """On or off."""

    metavar: ClassVar[str | None] = None
    """A switch is a flag with a ``--no-`` partner, without a value."""

    def span(self, _: Say = N_) -> str:
        """Nothing to say about the allowed values."""
        return ""

    def from_text(self, text: str) -> bool:
        """``on`` or ``off``, as the notation writes it."""
        word = text.strip().lower()
        if word not in ("on", "off"):
            raise _Bad(N_("{value} is not on or off"), value=shown(text))
        return word == "on"

    def from_toml(self, value: object) -> bool:
        """The value a config file gives (any TOML value)."""
        if not isinstance(value, bool):
            raise _Bad(N_("must be true or false, not {value}"), value=shown(value))
        return value

    def coerce(self, value: object) -> object:
        """The value as ``Rules`` keeps it."""
        return value

    def problem(self, value: object) -> Problem | None:
        """What is wrong with a value of the field, or ``None``."""
        if isinstance(value, bool):
            return None
        return _Bad(N_("must be on or off, not {value}"), value=shown(value))

    def write(self, value: Any) -> str:
        """The value in the notation (and in help texts)."""
        return "on" if value else "off"

    def toml(self, value: Any) -> str:
        """The value in a config file."""
        return "true" if value else "false"


@dataclass(frozen=True, slots=True)
class Choice:
    """One of a few words; ``options`` gives the value each word stands for."""

    options: Mapping[str, object]
    """Each word and its value (an enum member, or the word itself)."""
    refusal: str
    """What a word that is none of them is told, an ``N_`` text with ``{value}`` and
    ``{choices}``: ``{value} is not a deal (choose from {choices})``."""

    @classmethod
    def of(cls, kind: type[enum.Enum], refusal: str) -> Choice:
        """A choice among an enum's members, by their values."""
        return cls({str(member.value): member for member in kind}, refusal)

    def span(self, _: Say = N_) -> str:
        """The metavar lists the words already."""
        return ""

    @property
    def metavar(self) -> str:
        """``{split,each}``."""
        return "{" + ",".join(self.options) + "}"

    def _word(self, value: object) -> str | None:
        """The word of a value that is one of the options exactly, else ``None``."""
        for word, option in self.options.items():
            if value is option or (type(value) is type(option) and value == option):
                return word
        return None

    def _refused(self, value: object) -> _Bad:
        return _Bad(self.refusal, value=shown(value), choices=", ".join(self.options))

    def from_text(self, text: str) -> object:
        """One of the words, in any case, with any blanks around."""
        word = text.strip().lower()
        if word not in self.options:
            raise self._refused(text)
        return self.options[word]

    def from_toml(self, value: object) -> object:
        """The value a config file gives (any TOML value)."""
        if not isinstance(value, str):
            raise _Bad(N_("must be a string, not {value}"), value=shown(value))
        return self.from_text(value)

    def coerce(self, value: object) -> object:
        """The value as ``Rules`` keeps it: a word becomes the option it names."""
        if self._word(value) is None and isinstance(value, str):
            if value not in self.options:
                raise self._refused(value)
            return self.options[value]
        return value

    def problem(self, value: object) -> Problem | None:
        """What is wrong with a value of the field, or ``None``."""
        return None if self._word(value) is not None else self._refused(value)

    def write(self, value: Any) -> str:
        """The value's word."""
        word = self._word(value)
        assert word is not None, value
        return word

    def toml(self, value: Any) -> str:
        """The value in a config file."""
        return quoted(self.write(value))


Kind = Whole | Seconds | Switch | Choice
"""How a house rule's values are read, checked and written."""


def _no_short(rules: Rules, _: Say = N_) -> tuple[str, str] | None:
    return None


def _no_sentence(rules: Rules, _: Say = N_) -> list[str]:
    return []


@dataclass(frozen=True, slots=True)
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
        except _Bad as bad:
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
            what = what.format(decks=_deck_summary(_))
        return _("{what}{span}; default: {default}").format(
            what=what, span=self.kind.span(_), default=self.default_text(_)
        )


# --------------------------------------------------------------------------- the table
# Each rule's words: its sentences for --rules and the help screen, its part of the rule
# line. They read ``Rules`` only, and are plain ASCII-safe text, said with ``_`` (a ``Say``:
# the English as written unless the edge that shows them gives a translation).


def _deck_summary(_: Say = N_) -> str:
    """Each deck with its cards: ``skat 32 (7..A)``, ``doppelkopf 48 (9..A twice)``."""
    parts = []
    for name, (ranks, copies, _source) in DECK_FACTS.items():
        low, high = ranks[0], ranks[-1]
        text = _("{deck} {cards} ({low}..{high} twice)") if copies == 2 else None
        text = text or _("{deck} {cards} ({low}..{high})")
        parts.append(
            text.format(deck=name, cards=deck_size(name), low=low, high="A" if high == 14 else high)
        )
    return ", ".join(parts)


DECK_WORDS = (N_("standard"), N_("jass"), N_("skat"), N_("doppelkopf"), N_("german"))
"""The decks' names as the rule texts say them (``_(rules.deck)``: Jass, Skat and
Doppelkopf in the languages whose card games they are)."""


def _jokers(n: int, _: Say) -> str:
    return (_("{n} joker") if n == 1 else _("{n} jokers")).format(n=n)


def _deck_short(rules: Rules, _: Say = N_) -> tuple[str, str]:
    deck, jokers = _(rules.deck), rules.jokers
    if jokers:
        return f"{deck} +{_jokers(jokers, _)}", f"{deck}+{jokers}J"
    return deck, deck


def _deck_sentences(rules: Rules, _: Say = N_) -> list[str]:
    spec = rules.spec
    low, high = rank_word(spec.ranks[0], _), rank_word(spec.ranks[-1], _)
    twice = _(", every card twice") if spec.copies == 2 else ""
    jokers = (
        _("with {jokers}").format(jokers=_jokers(rules.jokers, _))
        if rules.jokers
        else _("no jokers")
    )
    text = _("A {deck} deck: {cards} cards, {low} up to {high}{twice}, {jokers}.")
    if rules.deck == "german":
        text = _(
            "The German game (001), a standard deck: {cards} cards, {low} up to {high}, {jokers}."
        )
    return [
        text.format(
            deck=_(rules.deck), cards=len(spec), low=low, high=high, twice=twice, jokers=jokers
        )
    ]


def _joker_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if not rules.jokers:
        return []
    return [
        _(
            "A joker is wild: it goes on any card, any card goes on it, and a joker played is "
            "stress (one flipped is not)."
        )
    ]


def _deal_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.deal is Deal.EACH:
        text = _("Each player plays from a deck of their own: {cards} cards each.")
        return [text.format(cards=rules.cards_per_deck)]
    total = rules.cards_per_deck
    first, second = (total + 1) // 2, total // 2
    share = (
        _("{first} cards each") if first == second else _("{first} and {second} cards")
    ).format(first=first, second=second)
    return [_("One deck is shuffled and split between the players: {share}.").format(share=share)]


def _wrap_sentences(rules: Rules, _: Say = N_) -> list[str]:
    ranks = rules.spec.ranks
    low, high = rank_word(ranks[0], _), rank_word(ranks[-1], _)
    if rules.wrap:
        text = _("The ranks go round: the {high} and the {low} are neighbours.")
        return [text.format(high=high, low=low)]
    below = a(rank_word(ranks[-2], _), _, rank_word(ranks[-2]))
    above = a(rank_word(ranks[1], _), _, rank_word(ranks[1]))
    text = _(
        "The ranks do not go round: only {below} goes on the {high}, only {above} on the {low}."
    )
    return [text.format(below=below, high=high, above=above, low=low)]


def _lockout_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.lockout > 0:
        text = _(
            "A card that does not fit locks you out for {lockout}; one that lost a race by "
            "up to {race} does not."
        )
        return [text.format(lockout=seconds(rules.lockout, _), race=seconds(rules.race_window, _))]
    return [_("A card that does not fit costs nothing: there is no lockout.")]


def _lockout_short(rules: Rules, _: Say = N_) -> tuple[str, str] | None:
    if rules.lockout == DEFAULTS["lockout"]:
        return None
    said = number(rules.lockout)
    return _("lockout {n}s").format(n=said), _("lock {n}s").format(n=said)


def _race_short(rules: Rules, _: Say = N_) -> tuple[str, str] | None:
    if rules.race_window == DEFAULTS["race_window"]:
        return None
    said = number(rules.race_window)
    return _("race {n}s").format(n=said), _("race {n}s").format(n=said)


_PENALTY_SENTENCES = {
    StressPenalty.BOTH: N_("The slower player takes both piles."),
    StressPenalty.ONE: N_(
        "The slower player takes only the smaller pile; both, when it is a single card "
        "and the slower's draw pile is empty."
    ),
    StressPenalty.GIVE: N_(
        "The faster player hands the slower the larger pile; both, when it is a single card "
        "and the slower's draw pile is empty."
    ),
}
_PENALTY_SHORTS = {
    StressPenalty.ONE: (N_("stress: smaller pile"), N_("stress: 1 pile")),
    StressPenalty.GIVE: (N_("stress: larger pile given"), N_("stress: give")),
}
_FALSE_SHORTS = {
    FalseStress.IGNORE: (N_("false stress free"), N_("false: free")),
    FalseStress.LOCKOUT: (N_("false stress locks out"), N_("false: lock")),
}


def _said(pair: tuple[str, str] | None, _: Say) -> tuple[str, str] | None:
    return None if pair is None else (_(pair[0]), _(pair[1]))


def _false_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.false_stress is FalseStress.TAKE:
        return [_("Calling stress when there is none costs the caller both piles.")]
    if rules.false_stress is FalseStress.IGNORE or rules.lockout == 0:
        return [_("Calling stress when there is none costs nothing.")]
    text = _("Calling stress when there is none locks the caller out for {lockout}.")
    return [text.format(lockout=seconds(rules.lockout, _))]


def _flip_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.flip_ready is FlipReady.ONE:
        return [
            _(
                "New cards are flipped, one from each draw pile onto each play pile, at the "
                "start, after stress, when nobody can play, and when one player says ready."
            )
        ]
    return [
        _(
            "New cards are flipped, one from each draw pile onto each play pile, at the start, "
            "after stress, when nobody can play, and when both players say they are ready."
        )
    ]


def _wins_sentences(rules: Rules, _: Say = N_) -> list[str]:
    if rules.wins == 1:
        won = _("Play out all your cards to win a round; 1 round win takes the match.")
    else:
        text = _("Play out all your cards to win a round; {wins} round wins take the match.")
        won = text.format(wins=rules.wins)
    drawn = _(
        "A round nobody can finish is drawn, for nobody, and the next is dealt: after "
        "{flips} flips in a row with no card played, or after {plays} plays in a row in "
        "which nobody came down to fewer cards than before."
    )
    return [won, drawn.format(flips=DEAD_FLIPS, plays=rules.stale_limit)]


def _both(rules: Rules) -> tuple[object, ...]:
    return (True, False)


HOUSE_RULES: tuple[HouseRule, ...] = (
    HouseRule(
        "deck",
        "deck",
        Choice(
            {name: name for name in DECK_FACTS}, N_("{value} is not a deck (choose from {choices})")
        ),
        N_("the cards: {decks}"),
        Section.CARDS,
        _deck_sentences,
        _deck_short,
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
        _joker_sentences,
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
        _deal_sentences,
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
        soak=_both,
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
        soak=_both,
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
        _wrap_sentences,
        lambda r, _: None if r.wrap else (_("no wrap"), _("no wrap")),
        default=True,
        soak=_both,
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
        _flip_sentences,
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
        lambda r, _: [_(_PENALTY_SENTENCES[r.stress_penalty])],
        lambda r, _: _said(_PENALTY_SHORTS.get(r.stress_penalty), _),
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
        _false_sentences,
        lambda r, _: _said(_FALSE_SHORTS.get(r.false_stress), _),
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
        soak=_both,
    ),
    HouseRule(
        "lockout",
        "lockout",
        Seconds(0, 60),
        N_("how long a player may not play after playing a card that does not fit"),
        Section.PLAY,
        _lockout_sentences,
        _lockout_short,
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
        short=_race_short,
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
        _wins_sentences,
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
