"""Gymnasium vector environments on parlour's batched engines: self-play, many games at once.

>>> from parlour.gymnasium import vector_env
>>> envs = vector_env("clobber", num_envs=8, rows=3, columns=4)
>>> obs, info = envs.reset(seed=0)
>>> obs.shape, info["action_mask"].shape
((8, 3, 3, 4), (8, 48))

Each of the ``num_envs`` slots is one game in a batched engine (:mod:`parlour.batch`: Clobber,
GobbleStones, Stomp the Plank, Stomple). Every step plays one action in every game, for **the
player to move there** (self-play: one policy plays every seat); the observation of each game
is the tensor of the player to move next (from their view only, G-3), and the reward is the
return the player who just acted received on this step (their +1/-1 when the game ended, G-4),
including what the chance events after their action decided. Chance (G-1) is played inside the
environment from the generator seeded by ``reset(seed=...)``.

``info`` holds, per game: ``"action_mask"`` (int8, the legal actions of the player to move; all
zero for a finished game), ``"player"`` (the seat to move, ``-4`` once over), ``"mover"`` (the
seat that just acted) and ``"rewards"`` (every seat's reward on this step). A finished game is
restarted on the next step (Gymnasium's ``NEXT_STEP`` autoreset: the action given for it then
is ignored, its reward is 0). An illegal action raises the game's
:class:`~parlour.IllegalActionError` naming the rule; pass ``info["action_mask"]`` to your
policy to avoid it.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from parlour.batch import ENGINES, engine
from parlour.core import CHANCE_PLAYER, Game
from parlour.rl.common import make_game, tensor_space

__all__ = ["ENGINES", "ParlourVectorEnv", "vector_env"]
MAX_CHANCE_STEPS = 10_000
"""A bound on chance events resolved in one step (a Stomple deal is 49, G-1)."""


class ParlourVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` self-play games of one parlour game in a batched engine."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, game: Game | str, num_envs: int = 16, **params: Any) -> None:
        self.game = make_game(game, params)
        if self.game.name not in ENGINES:
            raise ValueError(
                f"no batched engine for {self.game.name!r}; vector environments exist for "
                f"{', '.join(sorted(ENGINES))}"
            )
        if num_envs < 1:
            raise ValueError("num_envs must be at least 1")
        self.num_envs = int(num_envs)
        self.players = self.game.num_players()
        self.num_actions = self.game.num_distinct_actions()
        self.single_observation_space = tensor_space(self.game)
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.batch = engine(self.game, self.num_envs)
        self._restart = np.zeros(self.num_envs, dtype=bool)

    # -- the vector API ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.batch.rng = np.random.default_rng(self.np_random.integers(2**63))
        self.batch.reset()
        self._restart[:] = False
        rewards = self._settle()
        movers = np.full(self.num_envs, -1, dtype=np.int64)
        return self._observe(), self._info(rewards, movers)

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        restart = self._restart.copy()
        movers = self.batch.current_player().astype(np.int64)
        movers[restart] = -1
        playing = ~restart & (movers >= 0)
        acted = np.where(playing, actions, -1)
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        r, _done = self.batch.step(acted, where=playing)
        rewards += r
        if restart.any():
            self.batch.reset(restart)
        rewards += self._settle()
        rewards[restart] = 0.0
        done = self.batch.terminated() & ~restart
        self._restart = done.copy()
        rows = np.arange(self.num_envs)
        reward = np.where(movers >= 0, rewards[rows, np.maximum(movers, 0)], 0.0)
        truncated = np.zeros(self.num_envs, dtype=bool)
        return (self._observe(movers), reward.astype(np.float32), done, truncated,
                self._info(rewards, movers))

    # -- helpers ---------------------------------------------------------------------------
    def _settle(self) -> np.ndarray:
        """Play chance events until every game is at a player's turn or over."""
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        for _ in range(MAX_CHANCE_STEPS):
            self.batch.deal_at_once()  # whole boards and deals at once: the same chance laws
            chance = self.batch.current_player() == CHANCE_PLAYER
            if not chance.any():
                return rewards
            r, _done = self.batch.step(self.batch.random_actions(), where=chance)
            rewards += r
        raise RuntimeError("chance did not settle")  # pragma: no cover - bounded by the rules

    def _observe(self, movers: np.ndarray | None = None) -> np.ndarray:
        """Each game's tensor for its player to move (the last mover's once it is over)."""
        players = self.batch.current_player().astype(np.int64)
        if movers is not None:
            players = np.where(players < 0, movers, players)
        return self.batch.observation_tensor(np.maximum(players, 0))

    def _info(self, rewards: np.ndarray, movers: np.ndarray) -> dict[str, Any]:
        mask = self.batch.legal_actions_mask().astype(np.int8)
        return {
            "action_mask": mask,
            "player": self.batch.current_player().astype(np.int64),
            "mover": movers,
            "rewards": rewards,
        }

    def action_masks(self) -> np.ndarray:
        """The legal-action masks of every game (``(num_envs, num_actions)`` bool)."""
        return np.asarray(self.batch.legal_actions_mask(), dtype=bool)


def vector_env(name: Game | str, num_envs: int = 16, **params: Any) -> ParlourVectorEnv:
    """A self-play vector environment of ``num_envs`` games: ``vector_env("stomple", 64)``."""
    return ParlourVectorEnv(name, num_envs, **params)
