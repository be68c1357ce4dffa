"""Self-play games stepped together through one batched Gumbel search (numpy only: the network
is any ``evaluate`` function, PyTorch's in training, numpy's in ``bench/selfplay_speed.py``)."""

from __future__ import annotations

import time

import numpy as np

from parlour.agents.learned.games import SearchAdapter
from parlour.agents.learned.search import GumbelSearch, put, take


class SelfPlay:
    """``games`` self-play games stepped together through one batched search (see the module);
    a finished game restarts at once."""

    def __init__(self, adapter: SearchAdapter, search: GumbelSearch, games: int,
                 rng: np.random.Generator, noisy_plies: int = 0) -> None:
        self.adapter, self.search, self.rng = adapter, search, rng
        self.noisy_plies = noisy_plies
        self.plies = np.zeros(games, dtype=np.int64)
        self.positions = adapter.initial(games, rng)
        self.pending: list[list[tuple[np.ndarray, np.ndarray, np.ndarray, int, float]]] = [
            [] for _ in range(games)
        ]
        self.bookkeeping = 0.0
        self.worlds = 0.0

    def step(self) -> tuple[int, tuple[np.ndarray, ...] | None]:
        """One move in every game. Returns ``(games finished, their positions)``: the
        positions as ``(obs, policy, legal, outcome, search value)`` arrays, or None."""
        adapter = self.adapter
        noise = None
        if self.noisy_plies:
            noise = np.where(self.plies < self.noisy_plies, self.search.config.gumbel_scale, 0.0)
        start = time.perf_counter()
        roots = adapter.search_roots(self.positions, self.rng)  # hidden information: worlds
        self.worlds += time.perf_counter() - start
        result = self.search.run(roots, self.rng, noise)
        self.plies += 1
        start = time.perf_counter()
        for b, rows in enumerate(self.pending):
            rows.append((result.observation[b], result.policy[b], result.legal[b],
                         int(result.player[b]), float(result.value[b])))
        self.positions = adapter.children(self.positions, result.action, self.rng)
        done = np.flatnonzero(adapter.describe(self.positions).terminal)
        data = None
        if done.size:
            returns = adapter.outcomes(take(self.positions, done))
            obs, policy, legal, outcome, value = [], [], [], [], []
            for i, game in enumerate(done):
                for o, p, m, player, v in self.pending[game]:
                    obs.append(o)
                    policy.append(p)
                    legal.append(m)
                    outcome.append(returns[i, player])
                    value.append(v)
                self.pending[game] = []
            data = (np.stack(obs).astype(np.float16), np.stack(policy).astype(np.float16),
                    np.stack(legal), np.asarray(outcome, dtype=np.float32),
                    np.asarray(value, dtype=np.float32))
            put(self.positions, done, adapter.initial(done.size, self.rng))
            self.plies[done] = 0
        self.bookkeeping += time.perf_counter() - start
        return int(done.size), data
