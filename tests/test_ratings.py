"""Glicko-2 (parlour.ratings) against Glickman's worked example and the algorithm's properties."""

from __future__ import annotations

import math

import pytest

from parlour.ratings import (
    NEW_RATING,
    NEW_RD,
    NEW_VOLATILITY,
    SCALE,
    glicko2_update,
    placing_scores,
    rate_game,
)

# "Example of the Glicko-2 system" (Glickman): a 1500 / 200 / 0.06 player, tau = 0.5, beats
# a 1400 / 30 player and loses to 1550 / 100 and 1700 / 300.
EXAMPLE = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]


def test_glickmans_worked_example():
    rating, rd, volatility = glicko2_update(1500, 200, 0.06, EXAMPLE, tau=0.5)
    # the paper's figures on the Glicko-2 scale (mu' = -0.2069, phi' = 0.8722) ...
    assert (rating - 1500) / SCALE == pytest.approx(-0.2069, abs=5e-5)
    assert rd / SCALE == pytest.approx(0.8722, abs=5e-5)
    assert volatility == pytest.approx(0.05999, abs=1e-5)  # the paper prints 0.05999
    # ... and converted back: r' = 1464.06, RD' = 151.52 (the paper rounds mu' first)
    assert rating == pytest.approx(1464.06, abs=0.015)
    assert rd == pytest.approx(151.52, abs=0.005)


def test_new_player_defaults():
    assert (NEW_RATING, NEW_RD, NEW_VOLATILITY) == (1500.0, 350.0, 0.06)


def test_a_period_without_games_only_widens_the_deviation():
    rating, rd, volatility = glicko2_update(1600, 80, 0.06, [])
    assert rating == 1600 and volatility == 0.06
    assert rd == pytest.approx(math.hypot(80 / SCALE, 0.06) * SCALE)


def test_a_win_raises_and_a_loss_lowers_symmetrically():
    up, rd_up, _ = glicko2_update(1500, 350, 0.06, [(1500, 350, 1)])
    down, rd_down, _ = glicko2_update(1500, 350, 0.06, [(1500, 350, 0)])
    draw, _, _ = glicko2_update(1500, 350, 0.06, [(1500, 350, 0.5)])
    assert up > 1500 > down
    assert up - 1500 == pytest.approx(1500 - down)
    assert draw == pytest.approx(1500)
    assert rd_up == pytest.approx(rd_down) and rd_up < 350


def test_the_volatility_is_the_root_of_glickmans_function():
    """A surprising period (an upset far outside the deviation) takes the other branch of the
    bracketing (delta^2 > phi^2 + v); the new volatility must solve f(x) = 0, which is checked
    here by plain bisection, independently of the Illinois iteration (f has one root in the
    bracket for these figures; for far wilder upsets it can have three)."""
    rating, rd, vol, tau = 1500.0, 50.0, 0.06, 0.5
    games = [(1900, 50, 1)] * 3
    _, _, new_vol = glicko2_update(rating, rd, vol, games, tau=tau)
    phi = rd / SCALE
    g = 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)
    e = 1 / (1 + math.exp(-g * (0 - 400 / SCALE)))
    v = 1 / (3 * g * g * e * (1 - e))
    delta = v * 3 * g * (1 - e)
    assert delta**2 > phi**2 + v

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (
            x - math.log(vol**2)
        ) / tau**2

    low, high = math.log(vol**2), math.log(delta**2 - phi**2 - v)
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if f(mid) > 0 else (low, mid)
    assert new_vol == pytest.approx(math.exp(low / 2), rel=1e-5)
    assert new_vol > vol


@pytest.mark.parametrize(
    ("rd", "volatility", "results"),
    [(0, 0.06, []), (-5, 0.06, []), (200, 0, []), (200, 0.06, [(1500, 200, 2)]),
     (200, 0.06, [(1500, 0, 1)]), (200, 0.06, [(1500, 200, -0.5)])],
)
def test_bad_input_is_refused(rd, volatility, results):
    with pytest.raises(ValueError):
        glicko2_update(1500, rd, volatility, results)


def test_a_two_player_game_is_each_players_own_update():
    a, b = (1600.0, 80.0, 0.06), (1450.0, 200.0, 0.07)
    after = rate_game([a, b], [1.0, -1.0])
    assert after[0] == glicko2_update(*a, [(b[0], b[1], 1.0)])
    assert after[1] == glicko2_update(*b, [(a[0], a[1], 0.0)])


def test_a_shared_win_rates_as_a_draw():
    new = (NEW_RATING, NEW_RD, NEW_VOLATILITY)
    after = rate_game([new, new], [1.0, 1.0])
    assert [round(r, 9) for r, _, _ in after] == [NEW_RATING, NEW_RATING]
    assert after[0][1] < NEW_RD  # a draw is still information: both deviations shrink


def test_several_players_are_rated_pair_by_pair_by_placing():
    new = (NEW_RATING, NEW_RD, NEW_VOLATILITY)
    # GobbleStones-like placings: a winner, then two losers level on return
    after = rate_game([new, new, new], [1.0, -1.0, -1.0])
    assert after[0][0] > NEW_RATING > after[1][0]
    assert after[1] == pytest.approx(after[2])  # level placings: the same update
    # the winner's update is two wins against the pre-game ratings
    assert after[0] == glicko2_update(*new, [(NEW_RATING, NEW_RD, 1.0)] * 2)
    assert placing_scores([3.0, 1.0, 2.0])[2] == [(0, 0.0), (1, 1.0)]


def test_the_order_of_the_seats_does_not_matter():
    players = [(1500.0, 100.0, 0.06), (1700.0, 60.0, 0.05), (1400.0, 300.0, 0.06)]
    places = [2.0, 1.0, 3.0]
    forward = rate_game(players, places)
    backward = rate_game(players[::-1], places[::-1])
    assert forward == backward[::-1]
    with pytest.raises(ValueError, match="one placing per player"):
        rate_game(players, places[:2])
