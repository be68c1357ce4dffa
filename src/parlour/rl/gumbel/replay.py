"""The replay buffer: the latest self-play positions with their search targets and outcomes."""

from __future__ import annotations

from pathlib import Path

import numpy as np


class Replay:
    """A ring of the last ``capacity`` positions: observation (float16: Clobber's planes are
    0/1, GobbleStones' small fractions), the search's improved policy (the policy target), the
    legal actions, the game's outcome for the player to move (the value target) and the
    search's root value (kept for diagnostics)."""

    def __init__(self, capacity: int, observation_shape: tuple[int, ...], actions: int) -> None:
        self.capacity = int(capacity)
        self.obs = np.zeros((self.capacity, *observation_shape), dtype=np.float16)
        self.policy = np.zeros((self.capacity, actions), dtype=np.float16)
        self.legal = np.zeros((self.capacity, actions), dtype=bool)
        self.outcome = np.zeros(self.capacity, dtype=np.float32)
        self.search_value = np.zeros(self.capacity, dtype=np.float32)
        self.size = 0
        self.head = 0

    def add(self, obs: np.ndarray, policy: np.ndarray, legal: np.ndarray, outcome: np.ndarray,
            search_value: np.ndarray) -> None:
        n = obs.shape[0]
        if n > self.capacity:
            keep = slice(n - self.capacity, n)
            obs, policy, legal = obs[keep], policy[keep], legal[keep]
            outcome, search_value = outcome[keep], search_value[keep]
            n = self.capacity
        where = (self.head + np.arange(n)) % self.capacity
        self.obs[where] = obs
        self.policy[where] = policy
        self.legal[where] = legal
        self.outcome[where] = outcome
        self.search_value[where] = search_value
        self.head = int((self.head + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        index = rng.integers(0, self.size, size=n)
        return (self.obs[index].astype(np.float32), self.policy[index].astype(np.float32),
                self.legal[index], self.outcome[index], self.search_value[index])

    def save(self, path: Path) -> None:
        keep = slice(0, self.size)
        np.savez(path, obs=self.obs[keep], policy=self.policy[keep], legal=self.legal[keep],
                 outcome=self.outcome[keep], search_value=self.search_value[keep],
                 head=np.array(self.head))

    def load(self, path: Path) -> None:
        with np.load(path, allow_pickle=False) as data:
            n = min(int(data["outcome"].shape[0]), self.capacity)
            self.obs[:n] = data["obs"][:n]
            self.policy[:n] = data["policy"][:n]
            self.legal[:n] = data["legal"][:n]
            self.outcome[:n] = data["outcome"][:n]
            self.search_value[:n] = data["search_value"][:n]
            self.size = n
            self.head = int(data["head"]) % self.capacity if n == self.capacity else n
