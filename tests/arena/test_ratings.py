"""Elo by maximum likelihood (Bradley-Terry): known answers and a differential check."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from parlour.arena import fit_elo, standings, wilson
from parlour.arena.ratings import decided_share


def matrix(results: dict[tuple[int, int], tuple[float, float]], k: int):
    wins, games = np.zeros((k, k)), np.zeros((k, k))
    for (i, j), (w, n) in results.items():
        wins[i, j], wins[j, i] = w, n - w
        games[i, j] = games[j, i] = n
    return wins, games


def test_a_75_percent_score_is_about_191_elo() -> None:
    wins, games = matrix({(0, 1): (75, 100)}, 2)
    a, b = fit_elo(["a", "b"], wins, games, prior_draws=0.0)
    assert a.elo - b.elo == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert a.elo == pytest.approx(-b.elo)
    assert a.low < a.elo < a.high


def test_the_fit_matches_a_general_optimiser() -> None:
    results = {(0, 1): (30, 50), (0, 2): (41, 50), (1, 2): (28.5, 50), (0, 3): (9, 10)}
    wins, games = matrix(results, 4)
    ours = np.array([r.elo for r in fit_elo(list("abcd"), wins, games, prior_draws=1.0)])

    w = wins + 0.5 * (games > 0)  # the virtual draw of each pair that met

    def negative_log_likelihood(theta):
        d = theta[:, None] - theta[None, :]  # w[i, j] * log P(i beats j), summed
        return np.sum(w * np.logaddexp(0.0, -d))

    theta = minimize(negative_log_likelihood, np.zeros(4), method="BFGS",
                     options={"gtol": 1e-10}).x
    reference = 400 / math.log(10) * (theta - theta.mean())
    assert ours == pytest.approx(reference, abs=0.05)


def test_a_clean_sweep_gets_a_finite_rating_and_more_games_narrow_the_interval() -> None:
    few = fit_elo(["a", "b"], *matrix({(0, 1): (10, 10)}, 2))
    many = fit_elo(["a", "b"], *matrix({(0, 1): (60, 80)}, 2))
    fewer = fit_elo(["a", "b"], *matrix({(0, 1): (6, 8)}, 2))
    assert math.isfinite(few[0].elo) and few[0].elo > 0
    assert many[0].high - many[0].low < fewer[0].high - fewer[0].low


def line(agents, returns, scores=None):
    return {"metadata": {"agents": agents, "returns": returns,
                         "scores": scores or [0.0] * len(agents)}}


def test_standings_count_wins_and_pairwise_results_of_multiplayer_games() -> None:
    lines = [
        line(["a", "b", "c"], [1.0, -1.0, -1.0], [5, 2, 1]),
        line(["b", "c", "a"], [1.0, 1.0, -1.0], [4, 4, 0]),  # b and c share the win
        line(["c", "a", "b"], [-1.0, -1.0, 1.0], [1, 3, 6]),
    ]
    table = standings(lines, ["a", "b", "c"])
    records = {r.agent: r for r in table.records}
    assert (records["a"].games, records["a"].wins, records["a"].losses) == (3, 1, 2)
    assert records["a"].mean_score == pytest.approx(8 / 3)
    assert table.score(0, 1) == pytest.approx(1 / 3)  # a beat b once, lost twice
    assert table.score(1, 2) == pytest.approx(2 / 3)  # b and c: two draws (equal returns), a win
    assert table.pair_games[1, 2] == 3


@pytest.mark.parametrize(("wins", "games"), [(0, 10), (8, 10), (152, 200), (200, 200), (1, 3)])
def test_wilson_matches_scipy(wins: int, games: int) -> None:
    from scipy.stats import binomtest

    expected = binomtest(wins, games).proportion_ci(0.95, method="wilson")
    low, high = wilson(wins, games)
    assert (low, high) == pytest.approx((expected.low, expected.high), abs=1e-9)


def test_wilson_without_games_claims_nothing() -> None:
    assert wilson(0, 0) == (0.0, 1.0)



def test_decided_share_with_two_players_is_the_win_rate() -> None:
    lines = [line(["s", "w"], [1.0, -1.0]), line(["w", "s"], [1.0, -1.0]),
             line(["w", "s"], [-1.0, 1.0]), line(["s", "w"], [0.0, 0.0])]  # a draw decides nothing
    assert decided_share(lines, "s", "w") == (2, 3)


def test_decided_share_with_one_winner_is_the_ratio_of_win_rates_per_seat() -> None:
    # One table, two strong seats and one weak (G-4: one winner a game here). Strong won 3 of
    # 4 games (3 wins over 8 seats), weak 1 (1 over 4 seats): s / (s + w) = 0.375 / 0.625.
    lines = [
        line(["s", "s", "w"], [1.0, -1.0, -1.0]),
        line(["w", "s", "s"], [-1.0, -1.0, 1.0]),
        line(["s", "w", "s"], [-1.0, -1.0, 1.0]),
        line(["s", "s", "w"], [-1.0, -1.0, 1.0]),
    ]
    ahead, decided = decided_share(lines, "s", "w")
    assert (ahead, decided) == (3, 5)  # a strong win decides 1 pair, the weak win 2
    assert ahead / decided == pytest.approx(0.375 / (0.375 + 0.25))


def test_decided_share_with_one_loser_is_the_ratio_of_loss_rates_reversed() -> None:
    # Stomp the Plank (P6): whoever tips loses, everyone else wins, so a share of wins could
    # not tell the sides apart. One strong seat, two weak: strong lost 1 of 4 games (1/4 of its
    # seats), weak 3 (3/8 of its seats): l_w / (l_s + l_w) = 0.375 / 0.625.
    lines = [
        line(["s", "w", "w"], [1.0, -1.0, 1.0]),
        line(["w", "s", "w"], [-1.0, 1.0, 1.0]),
        line(["w", "w", "s"], [1.0, -1.0, 1.0]),
        line(["s", "w", "w"], [-1.0, 1.0, 1.0]),
    ]
    ahead, decided = decided_share(lines, "s", "w")
    assert (ahead, decided) == (3, 5)
    assert ahead / decided == pytest.approx(0.375 / (0.25 + 0.375))
