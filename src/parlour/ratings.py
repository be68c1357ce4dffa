"""Glicko-2 ratings: a rating, how sure it is, and how erratic the player is.

Glickman's Glicko-2 system ("Example of the Glicko-2 system", Mark E. Glickman, 2013) keeps
three numbers per player: the rating (1500 for a new player), the rating deviation RD (350:
nothing known yet), and the volatility sigma (0.06), how much the player's strength moves.
After a rating period, :func:`glicko2_update` turns them and the period's results into the
new three. A player who played nothing in the period gets a wider RD and keeps the rest.

It is used for puzzle ratings (a puzzle is an opponent with a rating of its own) and is meant
for the arena and the server too, so it depends on nothing else of parlour.

    >>> rating, rd, vol = glicko2_update(1500, 200, 0.06,
    ...                                  [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    >>> round(rating, 2), round(rd, 2), round(vol, 6)
    (1464.05, 151.52, 0.059996)

(Glickman's paper prints 1464.06 and 0.05999: it rounds mu' to -0.2069 before converting
back, and cuts the volatility to five decimals.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable

NEW_RATING = 1500.0
NEW_RD = 350.0
NEW_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
"""The system constant: how much the volatility may change (0.3-1.2 are reasonable)."""
SCALE = 173.7178
"""Glicko-2's internal scale: mu = (r - 1500) / SCALE, phi = RD / SCALE."""
EPSILON = 1e-6
"""Convergence tolerance of the volatility iteration (Glickman's)."""
MAX_ITERATIONS = 200
"""A bound on the volatility iteration; it converges in a handful of steps."""


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _check(name: str, value: float, low: float, high: float = math.inf) -> float:
    value = float(value)
    if not (low <= value <= high) or math.isnan(value):
        bound = f"between {low:g} and {high:g}" if high != math.inf else f"at least {low:g}"
        raise ValueError(f"{name} must be {bound}, not {value!r}")
    return value


def glicko2_update(
    rating: float,
    rd: float,
    volatility: float,
    results: Iterable[tuple[float, float, float]],
    tau: float = DEFAULT_TAU,
) -> tuple[float, float, float]:
    """The player's (rating, RD, volatility) after one rating period.

    ``results`` lists the period's games as ``(opponent_rating, opponent_rd, score)``, the
    score 1 for a win, 0 for a loss, 0.5 for a draw (any value between 0 and 1 is accepted).
    Step for step Glickman's algorithm, with the Illinois method for the new volatility.
    Raises ``ValueError`` for a non-positive RD or volatility or a score outside [0, 1].
    """
    rd = _check("rd", rd, 1e-9)
    volatility = _check("volatility", volatility, 1e-9)
    tau = _check("tau", tau, 1e-9)
    rating = float(rating)
    if not math.isfinite(rating):
        raise ValueError(f"rating must be a finite number, not {rating!r}")
    games = [
        (
            (float(r) - NEW_RATING) / SCALE,
            _check("opponent_rd", d, 1e-9) / SCALE,
            _check("score", s, 0.0, 1.0),
        )
        for r, d, s in results
    ]
    mu, phi = (rating - NEW_RATING) / SCALE, rd / SCALE
    if not games:  # step 6 only: the deviation grows with the volatility
        return rating, math.sqrt(phi * phi + volatility * volatility) * SCALE, volatility

    # Step 3: the estimated variance v; step 4: the estimated improvement delta.
    inv_v = 0.0
    gain = 0.0
    for mu_j, phi_j, score in games:
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / inv_v
    delta = v * gain

    # Step 5: the new volatility, the root of f by the Illinois algorithm.
    a = math.log(volatility * volatility)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < MAX_ITERATIONS:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(MAX_ITERATIONS):
        if abs(high - low) <= EPSILON:
            break
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    new_volatility = math.exp(low / 2.0)

    # Steps 6-8: the pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_volatility * new_volatility)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return new_mu * SCALE + NEW_RATING, new_phi * SCALE, new_volatility


def placing_scores(places: list[float]) -> list[list[tuple[int, float]]]:
    """Each seat's pairwise results in one game, from the seats' placings.

    ``places[i]`` is seat i's standing, higher is better (a return, or a return then points);
    every pair of seats is one result: 1 to the better placed, 0 to the other, 0.5 each when
    they are level. This is the Bradley-Terry decomposition of a ranking (the "full
    pair" model of Weng and Lin, "A Bayesian Approximation Method for Online Ranking", JMLR
    12, 2011), the way Board Game Arena and most multi-player Elo systems rate a game of several
    players; for two players it is the game's own win, loss or draw.

    Returns, for each seat, ``[(opponent seat, score), ...]``.

    >>> placing_scores([1.0, -1.0, -1.0])
    [[(1, 1.0), (2, 1.0)], [(0, 0.0), (2, 0.5)], [(0, 0.0), (1, 0.5)]]
    """
    return [
        [
            (j, 1.0 if places[i] > places[j] else 0.0 if places[i] < places[j] else 0.5)
            for j in range(len(places))
            if j != i
        ]
        for i in range(len(places))
    ]


def rate_game(
    players: list[tuple[float, float, float]],
    places: list[float],
    tau: float = DEFAULT_TAU,
) -> list[tuple[float, float, float]]:
    """Everyone's new (rating, RD, volatility) after one game, as one rating period.

    ``players[i]`` is seat i's (rating, RD, volatility) before the game and ``places[i]`` its
    placing (:func:`placing_scores`); each seat is updated against every other seat's rating
    *before* the game, so the order of the seats does not matter.

    >>> [round(r) for r, _, _ in rate_game([(1500, 350, 0.06), (1500, 350, 0.06)], [1, -1])]
    [1662, 1338]
    """
    if len(players) != len(places):
        raise ValueError("one placing per player")
    return [
        glicko2_update(*players[i], [(players[j][0], players[j][1], s) for j, s in pairs], tau)
        for i, pairs in enumerate(placing_scores(places))
    ]
