"""Ratings: Glicko-2 arithmetic, and the fit that puts the computer levels on its scale.

A player's strength is a ``Rating``: a number on the familiar scale where a new player
starts at 1500, how sure we are of it (the rating deviation, RD: two RDs either side of
the rating hold the player's true strength with 95% confidence), and how erratic the player
is (the volatility). ``rate`` is one rating period of Mark Glickman's Glicko-2 system, as
his paper "Example of the Glicko-2 system" (2013) sets it out step by step; the step numbers
below are his. ``docs/ratings.md`` says why Glicko-2 and how it is used here (every finished
round is a rating period of its own).

``fit_levels`` is the other direction: from how often bots of each level beat each other
(the simulator's counts) to ratings on the same scale, by maximum likelihood under the
same model of who wins (Bradley-Terry, Glicko-2's expected score), with one level pinned.

Pure arithmetic: no clock, no random, no files.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SCALE = 400 / math.log(10)
"""Rating points per unit of Glicko-2's internal scale (173.7178...)."""

START_RATING = 1500.0
"""Where every new player starts (Glicko-2's default)."""

START_DEVIATION = 350.0
"""A new player's rating deviation: nothing is known yet (Glicko-2's default)."""

START_VOLATILITY = 0.06
"""A new player's volatility (Glicko-2's default)."""

TAU = 0.5
"""Glicko-2's system constant: how much the volatility may change in a period. Glickman
suggests 0.3 to 1.2; 0.5 is the value of his example, and the middle of the range for a
game with as much luck in the deal as Stress."""

EPSILON = 0.000001
"""When the volatility's iteration stops (Glickman's convergence tolerance)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's strength as Glicko-2 sees it."""

    rating: float = START_RATING
    """The rating, 1500 for a new player."""
    deviation: float = START_DEVIATION
    """The rating deviation (RD): the uncertainty of ``rating``, in rating points."""
    volatility: float = START_VOLATILITY
    """How much the player's strength is expected to vary (sigma)."""

    @property
    def low(self) -> float:
        """The bottom of the 95% interval: two RDs below the rating."""
        return self.rating - 2 * self.deviation

    @property
    def high(self) -> float:
        """The top of the 95% interval: two RDs above the rating."""
        return self.rating + 2 * self.deviation


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a rating period, from the rated player's side."""

    opponent: Rating
    """The opponent's rating before the period."""
    score: float
    """1 for a win, 0 for a loss, 0.5 for a draw."""


def _g(phi: float) -> float:
    """Glicko-2's ``g``: how much a game counts, less for an opponent rated less surely."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    """Glicko-2's ``E``: the expected score against opponent ``j``."""
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The share of games ``player`` is expected to win against ``opponent`` (the
    opponent's uncertainty taken into account, as in Glicko-2's ``E``)."""
    return _e(
        (player.rating - START_RATING) / SCALE,
        (opponent.rating - START_RATING) / SCALE,
        opponent.deviation / SCALE,
    )


def rate(player: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The player's rating after a rating period with ``games`` (all rated against the
    opponents' ratings before the period). No games: the rating stays, the deviation
    grows by the volatility (step 6 alone)."""
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    # Steps 3 and 4: the estimated variance v and the estimated improvement delta.
    info = 0.0
    gain = 0.0
    for game in games:
        mu_j = (game.opponent.rating - START_RATING) / SCALE
        phi_j = game.opponent.deviation / SCALE
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        info += g * g * e * (1 - e)
        gain += g * (game.score - e)
    v = 1 / info
    delta = v * gain
    # Step 5: the new volatility.
    sigma = _volatility(phi, sigma, v, delta, tau)
    # Steps 6 and 7: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu = mu + phi * phi * gain
    # Step 8: back to the rating scale.
    return Rating(SCALE * mu + START_RATING, SCALE * phi, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of Glickman's ``f`` found by the Illinois
    algorithm (regula falsi, halving the side that stays)."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


# --------------------------------------------------------------------------- levels

PINNED_LEVEL = "normal"
"""The computer level whose rating is fixed at ``START_RATING``: a new player is taken to
be as strong as it until the rounds say otherwise."""

LEVEL_RATINGS: dict[str, Rating] = {
    "easy": Rating(1093, 4),
    "normal": Rating(1500, 0),
    "hard": Rating(1859, 3),
    "expert": Rating(2128, 4),
}
"""Each computer level's rating and its deviation, fixed: measured by the simulator
(``stress-tui sim --rate-levels``; the run is in ``docs/ratings.md``), every level
against every other, the deviation being the measurement's standard error. A level's
rating never moves: rounds against it move only the person's."""


@dataclass(frozen=True, slots=True)
class LevelFit:
    """The ratings that best explain how often each level beat the others."""

    ratings: dict[str, float]
    """Each level's rating, the pinned one at its given value."""
    errors: dict[str, float]
    """Each level's standard error, relative to the pinned level (0 for it)."""


def fit_levels(
    wins: Mapping[tuple[str, str], int],
    pinned: str,
    at: float = START_RATING,
    rounds: int = 10_000,
) -> LevelFit:
    """Ratings for the levels from ``wins[(a, b)]``, the rounds ``a`` won against ``b``:
    the maximum-likelihood Bradley-Terry fit on Glicko-2's scale (a level rated ``d``
    points above another is expected to win ``1 / (1 + 10 ** (-d / 400))`` of their
    rounds), with ``pinned`` at ``at``. Found by Hunter's MM iteration (at most
    ``rounds`` passes); the standard errors come from the inverse of the observed
    information with ``pinned`` held fixed. Every level must have won and lost a round
    (else its rating is not finite); ``ValueError`` otherwise."""
    levels = sorted({level for pair in wins for level in pair})
    if pinned not in levels:
        raise ValueError(f"{pinned!r} has played no rounds")
    won = {level: 0 for level in levels}
    lost = {level: 0 for level in levels}
    for (a, b), count in wins.items():
        if count < 0:
            raise ValueError(f"a negative count of wins for {a!r} against {b!r}")
        won[a] += count
        lost[b] += count
    for level in levels:
        if not won[level] or not lost[level]:
            raise ValueError(f"{level!r} must have won and lost rounds to be rated")
    games = {
        (a, b): wins.get((a, b), 0) + wins.get((b, a), 0) for a in levels for b in levels if a != b
    }
    strength = dict.fromkeys(levels, 1.0)
    for _ in range(rounds):
        new = {
            a: won[a] / sum(games[a, b] / (strength[a] + strength[b]) for b in levels if b != a)
            for a in levels
        }
        norm = new[pinned]
        new = {a: s / norm for a, s in new.items()}
        settled = max(abs(math.log(new[a] / strength[a])) for a in levels) < 1e-12
        strength = new
        if settled:
            break
    mu = {a: math.log(strength[a]) for a in levels}
    free = [a for a in levels if a != pinned]
    info = [[0.0] * len(free) for _ in free]
    for i, a in enumerate(free):
        for b in levels:
            if b == a or not games[a, b]:
                continue
            p = 1 / (1 + math.exp(mu[b] - mu[a]))
            w = games[a, b] * p * (1 - p)
            info[i][i] += w
            if b != pinned:
                info[i][free.index(b)] -= w
    covariance = _inverse(info)
    return LevelFit(
        ratings={a: at + SCALE * mu[a] for a in levels},
        errors={
            a: 0.0 if a == pinned else SCALE * math.sqrt(covariance[free.index(a)][free.index(a)])
            for a in levels
        },
    )


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a small square matrix (Gauss-Jordan with partial pivoting)."""
    n = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if rows[pivot][col] == 0:
            raise ValueError("the levels' games do not connect them all")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]
