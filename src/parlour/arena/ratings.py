"""Win rates and Elo ratings with confidence intervals, from tournament results.

Ratings are a Bradley-Terry model fitted by maximum likelihood (Newton's method on the convex
log-likelihood, numpy only): P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400)). Every game is
split into pairwise results between seats of different agents (the better return wins, equal
returns draw, a draw counts half a win each way), which for two players is the game itself.

A clean sweep would push a maximum-likelihood rating to infinity, so, as BayesElo does, every
pair that met is given ``prior_draws`` virtual drawn games (default 1). Intervals are 95%
Wald intervals from the observed information (the inverse Hessian, taken with the ratings'
mean fixed at 0). For more than two players the pairwise results of one game are correlated,
so those intervals are somewhat too narrow.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from parlour.ratings import NEW_RATING, NEW_RD, NEW_VOLATILITY, glicko2_update, placing_scores

ELO_PER_NATURAL = 400.0 / math.log(10.0)
Z95 = 1.959963984540054


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a win rate ``wins / games``.

    Preferred to the normal approximation because it stays inside [0, 1] and is still honest
    at rates near 0% or 100%, where strength measurements often land. No games: (0, 1).
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


@dataclass(frozen=True)
class Rating:
    agent: str
    elo: float
    low: float
    high: float


@dataclass(frozen=True)
class AgentRecord:
    """One agent's games: wins and losses by return (G-4), and its mean points."""

    agent: str
    games: int
    wins: int
    losses: int
    mean_score: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class Standings:
    """Everything a tournament's report shows."""

    agents: list[str]
    records: list[AgentRecord]
    pair_wins: np.ndarray
    """``pair_wins[i, j]``: pairwise wins of agent i over agent j (draws count a half)."""
    pair_games: np.ndarray
    """``pair_games[i, j]``: pairwise results between agents i and j."""
    ratings: list[Rating] = field(default_factory=list)
    glicko: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    """Each agent's Glicko-2 (rating, RD, volatility) after the games in the order played, as
    the web server rates people (:func:`glicko`)."""

    def score(self, i: int, j: int) -> float | None:
        """Agent i's share of the points against agent j, or None if they never met."""
        games = self.pair_games[i, j]
        return float(self.pair_wins[i, j] / games) if games else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "agents": self.agents,
            "records": [
                {
                    "agent": r.agent,
                    "games": r.games,
                    "wins": r.wins,
                    "losses": r.losses,
                    "win_rate": r.win_rate,
                    "mean_score": r.mean_score,
                }
                for r in self.records
            ],
            "pairwise": {
                a: {b: self.score(i, j) for j, b in enumerate(self.agents) if j != i}
                for i, a in enumerate(self.agents)
            },
            "pair_games": self.pair_games.astype(int).tolist(),
            "ratings": [
                {"agent": r.agent, "elo": r.elo, "low": r.low, "high": r.high}
                for r in self.ratings
            ],
            "glicko2": {a: {"rating": r, "rd": d, "volatility": v}
                        for a, (r, d, v) in self.glicko.items()},
        }


def pairwise(lines: Iterable[dict[str, Any]], agents: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Pairwise wins (draws a half) and pairwise result counts, from results lines."""
    index = {a: i for i, a in enumerate(agents)}
    k = len(agents)
    wins = np.zeros((k, k))
    games = np.zeros((k, k))
    for line in lines:
        meta = line["metadata"]
        seats = [index[a] for a in meta["agents"]]
        returns = meta["returns"]
        for s in range(len(seats)):
            for t in range(s + 1, len(seats)):
                i, j = seats[s], seats[t]
                if i == j:
                    continue
                games[i, j] += 1
                games[j, i] += 1
                if returns[s] > returns[t]:
                    wins[i, j] += 1
                elif returns[s] < returns[t]:
                    wins[j, i] += 1
                else:
                    wins[i, j] += 0.5
                    wins[j, i] += 0.5
    return wins, games


def decided_share(lines: Iterable[dict[str, Any]], strong: str, weak: str) -> tuple[int, int]:
    """``(strong's decided pairs, all decided pairs)`` between the seats of two agents.

    Games are split into pairs of seats as for the ratings (:func:`pairwise`), but a pair is
    counted only when it is *decided*: one seat finished with the better return. So the share
    ``strong / all`` is "how often, when one of them finished ahead, it was ``strong``". With
    two players and no ties that is the win rate; at one table of a game with one winner it is
    ``s / (s + w)`` of the two agents' per-seat win rates, whatever the mix of seats (a win
    decides one pair with each seat of the other agent), and over several tables a mean of
    those weighted by the pairs each table decides; in a game with one loser (Stomp the Plank)
    it is the same ratio of per-seat loss rates, the other way round. Draws, which the ratings
    count as half a win, would pull every multi-player share toward 50%.
    """
    ahead = {strong: 0, weak: 0}
    for line in lines:
        meta = line["metadata"]
        seats = list(zip(meta["agents"], meta["returns"], strict=True))
        for s, (agent_s, return_s) in enumerate(seats):
            for agent_t, return_t in seats[s + 1:]:
                if {agent_s, agent_t} == {strong, weak} and return_s != return_t:
                    ahead[agent_s if return_s > return_t else agent_t] += 1
    return ahead[strong], ahead[strong] + ahead[weak]


def glicko(lines: Iterable[dict[str, Any]], agents: list[str]
           ) -> dict[str, tuple[float, float, float]]:
    """Glicko-2 ratings of ``agents`` after the games in order, each game one rating period
    (:mod:`parlour.ratings`, the server's system): every pair of seats of different agents is
    a result by their returns (:func:`parlour.ratings.placing_scores`). Unlike the
    Bradley-Terry fit this depends on the order of the games, as a live ladder does."""
    state = {a: (NEW_RATING, NEW_RD, NEW_VOLATILITY) for a in agents}
    for line in lines:
        meta = line["metadata"]
        seats = list(meta["agents"])
        results: dict[str, list[tuple[float, float, float]]] = {}
        for seat, pairs in enumerate(placing_scores([float(r) for r in meta["returns"]])):
            for other, score in pairs:
                if seats[other] != seats[seat]:
                    rating, rd, _vol = state[seats[other]]
                    results.setdefault(seats[seat], []).append((rating, rd, score))
        state.update({a: glicko2_update(*state[a], got) for a, got in results.items()})
    return state


def fit_elo(
    agents: list[str], wins: np.ndarray, games: np.ndarray, prior_draws: float = 1.0
) -> list[Rating]:
    """Bradley-Terry ratings (Elo scale, mean 0) with 95% intervals."""
    k = len(agents)
    met = games > 0
    w = wins + 0.5 * prior_draws * met
    n = games + prior_draws * met
    theta = np.zeros(k)
    hessian = np.zeros((k, k))
    for _ in range(100):
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))  # p[i, j] = P(i beats j)
        gradient = (w - n * p).sum(axis=1)  # d log-likelihood / d theta_i
        curvature = n * p * (1.0 - p)
        hessian = np.diag(curvature.sum(axis=1)) - curvature  # minus the log-likelihood Hessian
        step = np.linalg.pinv(hessian) @ gradient
        theta = theta + step
        theta -= theta.mean()
        if np.max(np.abs(step)) < 1e-10:
            break
    covariance = np.linalg.pinv(hessian)
    spread = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    return [
        Rating(
            agent,
            float(ELO_PER_NATURAL * theta[i]),
            float(ELO_PER_NATURAL * (theta[i] - Z95 * spread[i])),
            float(ELO_PER_NATURAL * (theta[i] + Z95 * spread[i])),
        )
        for i, agent in enumerate(agents)
    ]


def standings(
    lines: list[dict[str, Any]], agents: list[str], prior_draws: float = 1.0
) -> Standings:
    """Win rates, pairwise scores and ratings of ``agents`` from results lines."""
    records = []
    for agent in agents:
        games = wins = losses = 0
        points = 0.0
        for line in lines:
            meta = line["metadata"]
            for seat, who in enumerate(meta["agents"]):
                if who != agent:
                    continue
                games += 1
                wins += meta["returns"][seat] > 0
                losses += meta["returns"][seat] < 0
                points += meta["scores"][seat]
        records.append(AgentRecord(agent, games, wins, losses, points / games if games else 0.0))
    wins_matrix, games_matrix = pairwise(lines, agents)
    result = Standings(agents, records, wins_matrix, games_matrix)
    result.ratings = fit_elo(agents, wins_matrix, games_matrix, prior_draws)
    result.glicko = glicko(lines, agents)
    return result
