"""Every parlour game as a PettingZoo AEC environment, action masks as in ``pettingzoo.classic``.

>>> from parlour.pettingzoo import env
>>> e = env("clobber", rows=3, columns=4)
>>> e.reset(seed=42)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0 .. player_{n-1}`` (seat order, G-4). An agent's observation is a dict:
``"observation"``, its observation tensor (from its view only, G-3), and ``"action_mask"``, an
int8 vector over every action id with 1 for the legal ones (all zero when it is not that
agent's turn). Chance events (deals, draws, G-1) are played inside the environment from the
seed given to ``reset``, so the agents only ever see player turns. Games where the same player
acts several times in a row (a Stomple string, a GobbleStones play of several tiles) select the
same agent again. Rewards are the game's: +1/-1 returns at the end (G-4), paid to every agent.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from parlour.core import Game, State
from parlour.rl.common import (
    action_mask,
    agent_name,
    make_game,
    mask_space,
    observation,
    tensor_space,
)


class ParlourAECEnv(AECEnv):
    """A parlour game as a turn-based (AEC) multi-agent environment."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "parlour_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game: Game | str, render_mode: str | None = None, **params: Any) -> None:
        super().__init__()
        self.game = make_game(game, params)
        self.metadata = {**self.metadata, "name": f"parlour_{self.game.name.replace('-', '_')}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        n = self.game.num_players()
        self.possible_agents = [agent_name(p) for p in range(n)]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict(
                {"observation": tensor_space(self.game), "action_mask": mask_space(self.game)}
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.game.num_distinct_actions())
            for agent in self.possible_agents
        }
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the AEC cycle -------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._after_move(self.possible_agents[0], self._play_chance())

    def _live(self) -> State:
        """The game in play (``reset()`` starts one)."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        return {
            "observation": observation(self._live(), seat),
            "action_mask": action_mask(self._live(), seat),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if action is None:
            raise TypeError("None is the step of a finished agent: pass an action id")
        state = self._live()
        state.apply_action(int(action))  # an illegal action raises, naming its rule (G-2)
        rewards = np.asarray(state.rewards(), dtype=np.float64) + self._play_chance()
        self._after_move(agent, rewards)

    def _play_chance(self) -> np.ndarray:
        """Play chance events from the environment's generator; the rewards they pay."""
        total = np.zeros(self.game.num_players())
        state = self._live()
        while state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(self.np_random))
            total += state.rewards()
        return total

    def _after_move(self, agent: str, rewards: np.ndarray) -> None:
        """Pay the step's rewards and select the next agent (every agent once the game ends)."""
        state = self._live()
        self.rewards = {
            name: float(r) for name, r in zip(self.possible_agents, rewards, strict=True)
            if name in self.agents
        }
        if state.is_terminal():
            self.terminations = {name: True for name in self.agents}
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()

    # -- display -------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = self.state.observation_string(None)  # a spectator's view: public information
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(name: Game | str, render_mode: str | None = None, **params: Any) -> ParlourAECEnv:
    """The AEC environment of game ``name`` with its parameters: ``env("stomple", players=3)``."""
    return ParlourAECEnv(name, render_mode=render_mode, **params)


raw_env = env
