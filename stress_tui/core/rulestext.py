"""The rules in effect in plain words: one short line for the table, sentences for --rules.

Both are plain ASCII-safe text (no symbols of ambiguous width), built from ``Rules`` only.
"""

from __future__ import annotations

from stress_tui.core.cards import ACE, JACK, KING, QUEEN
from stress_tui.core.rules import Deal, FalseStress, Rules, StressPenalty

SHORT_WIDTH = 60
"""The columns ``short_line`` fits in unless told otherwise."""

_COMMON = Rules()
"""The rules most people play by; the short line mentions what differs from them."""

_RANK_WORDS = {JACK: "jack", QUEEN: "queen", KING: "king", ACE: "ace"}


def _rank(rank: int) -> str:
    """A rank as a card player says it: ``7``, ``jack``, ``ace``."""
    return _RANK_WORDS.get(rank, str(rank))


def _a(word: str) -> str:
    """The word with its article: ``a king``, ``an ace``, ``an 8``."""
    return ("an " if word[0] in "aeiou8" else "a ") + word


def _seconds(seconds: float) -> str:
    number = str(int(seconds)) if seconds == int(seconds) else f"{seconds:g}"
    return f"{number} second" + ("" if seconds == 1 else "s")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _parts(rules: Rules) -> list[tuple[str, str]]:
    """The short line's parts, most important first, each in a long and a short form."""
    deck = rules.deck
    parts = [
        (f"{deck} +{_count(rules.jokers, 'joker')}", f"{deck}+{rules.jokers}J")
        if rules.jokers
        else (deck, deck)
    ]
    if rules.deal is Deal.EACH:
        parts.append(("a deck each", "each"))
    parts.append((f"row {rules.row_size}", f"row {rules.row_size}"))
    if not rules.stacking:
        parts.append(("no stacking", "no stack"))
    if not rules.wrap:
        parts.append(("no wrap", "no wrap"))
    if rules.stress_penalty is StressPenalty.ONE:
        parts.append(("stress: smaller pile", "stress: 1 pile"))
    elif rules.stress_penalty is StressPenalty.GIVE:
        parts.append(("stress: larger pile given", "stress: give"))
    if rules.false_stress is FalseStress.IGNORE:
        parts.append(("false stress free", "false: free"))
    elif rules.false_stress is FalseStress.LOCKOUT:
        parts.append(("false stress locks out", "false: lock"))
    if rules.stress_stop:
        parts.append(("stress stop", "stop"))
    if rules.lockout != _COMMON.lockout:
        number = _seconds(rules.lockout).split()[0]
        parts.append((f"lockout {number}s", f"lock {number}s"))
    parts.append((f"to {_count(rules.wins, 'win')}", f"to {rules.wins}"))
    return parts


def short_line(rules: Rules, width: int = SHORT_WIDTH) -> str:
    """One line for the table, at most ``width`` columns: the deck, the row, the match
    length and whatever differs from the common rules.

    >>> short_line(Rules.for_deck("standard"))
    'standard, row 4, to 3 wins'
    >>> short_line(Rules.for_deck("jass"))
    'jass, row 4, false stress free, stress stop, to 5 wins'
    """
    parts = _parts(rules)
    for form in (0, 1):
        line = ", ".join(part[form] for part in parts)
        if len(line) <= width:
            return line
    # Still too long: keep the deck, the row and the match length, then as many of the
    # others as fit, and say there is more.
    shorts = [part[1] for part in parts]
    first = [0, shorts.index(f"row {rules.row_size}"), len(shorts) - 1]
    order = first + [i for i in range(len(shorts)) if i not in first]
    kept: set[int] = set()
    for i in order:
        trial = sorted({*kept, i})
        if len(", ".join([*(shorts[j] for j in trial), "..."])) > width:
            break
        kept.add(i)
    if not kept:
        return shorts[0][:width]
    return ", ".join([*(shorts[j] for j in sorted(kept)), "..."])


def plain_words(rules: Rules) -> list[str]:
    """The rules in effect, one short sentence a line, every setting in a card player's
    words (for ``--rules`` and the help overlay).

    >>> for sentence in plain_words(Rules.for_deck("skat"))[:3]:
    ...     print(sentence)
    A skat deck: 32 cards, 7 up to ace, no jokers.
    One deck is shuffled and split between the players: 16 cards each.
    Each player has a row of 3 cards face up, the rest face down as a draw pile.
    """
    spec = rules.spec
    low, high = _rank(spec.ranks[0]), _rank(spec.ranks[-1])
    twice = ", every card twice" if spec.copies == 2 else ""
    jokers = f"with {_count(rules.jokers, 'joker')}" if rules.jokers else "no jokers"
    lines = [f"A {rules.deck} deck: {len(spec)} cards, {low} up to {high}{twice}, {jokers}."]
    if rules.jokers:
        lines.append(
            "A joker is wild: it goes on any card, any card goes on it, and a joker on top "
            "is stress."
        )

    if rules.deal is Deal.EACH:
        lines.append(
            f"Each player plays from a deck of their own: {rules.cards_per_deck} cards each."
        )
    else:
        total = rules.cards_per_deck
        first, second = (total + 1) // 2, total // 2
        share = f"{first} cards each" if first == second else f"{first} and {second} cards"
        lines.append(f"One deck is shuffled and split between the players: {share}.")

    lines.append(
        f"Each player has a row of {rules.row_size} cards face up, the rest face down as "
        "a draw pile."
    )
    lines.append(
        "Cards of the same rank in a row are stacked and played as one pile."
        if rules.stacking
        else "No stacking: every card in a row has a place of its own."
    )

    lines.append("Play a card one rank above or below a pile's top card, whatever the suit.")
    if rules.wrap:
        lines.append(f"The ranks go round: the {high} and the {low} are neighbours.")
    else:
        below_high, above_low = _rank(spec.ranks[-2]), _rank(spec.ranks[1])
        lines.append(
            f"The ranks do not go round: only {_a(below_high)} goes on the {high}, only "
            f"{_a(above_low)} on the {low}."
        )

    if rules.lockout > 0:
        lines.append(
            f"A card that does not fit locks you out for {_seconds(rules.lockout)}; one that "
            f"lost a race by up to {_seconds(rules.race_window)} does not."
        )
    else:
        lines.append("A card that does not fit costs nothing: there is no lockout.")

    lines.append("Stress is both piles showing the same rank: the first to call it wins.")
    lines.append(
        {
            StressPenalty.BOTH: "The slower player takes both piles.",
            StressPenalty.ONE: "The slower player takes only the smaller pile.",
            StressPenalty.GIVE: "The faster player hands the slower the larger pile.",
        }[rules.stress_penalty]
    )

    false_call = "Calling stress when there is none"
    if rules.false_stress is FalseStress.TAKE:
        lines.append(f"{false_call} costs the caller both piles.")
    elif rules.false_stress is FalseStress.IGNORE or rules.lockout == 0:
        lines.append(f"{false_call} costs nothing.")
    else:
        lines.append(f"{false_call} locks the caller out for {_seconds(rules.lockout)}.")

    lines.append(
        "Stress stop: if the opponent's next play could make stress, call stop, and it makes none."
        if rules.stress_stop
        else "No stress stop."
    )

    match = "1 round win takes" if rules.wins == 1 else f"{rules.wins} round wins take"
    lines.append(f"Play out all your cards to win a round; {match} the match.")
    return lines
