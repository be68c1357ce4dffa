"""Every parlour game as a single-agent Gymnasium environment against parlour agents.

>>> from parlour.gymnasium import env
>>> e = env("clobber", opponent="random", rows=3, columns=4)
>>> obs, info = e.reset(seed=0)
>>> obs.shape, info["action_mask"].shape
((3, 3, 4), (48,))

The learner sits in seat ``player`` (default 0; ``None`` draws a seat per episode); every
other seat is played by a parlour agent made with :func:`parlour.agents.make_agent` (default
``"medium"``), seeded from the episode's seed. Chance events are played inside from that seed
too (G-1), so ``reset(seed=s)`` followed by the same actions replays exactly.

Observations are the learner's observation tensor (from their view only, G-3). The legal
actions are given as an int8 mask in ``info["action_mask"]`` and by :meth:`action_masks`
(the method ``sb3_contrib``'s ``MaskablePPO`` calls). An illegal action ends the episode as a
loss (reward = the game's minimum utility, ``info["illegal_action"]`` set) unless
``illegal="raise"``, which raises the game's :class:`~parlour.IllegalActionError`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from parlour.agents import Agent, make_agent
from parlour.core import Game, IllegalActionError, State, game_class, list_games
from parlour.rl.common import action_mask, make_game, observation, tensor_space

SEED_BOUND = 2**31 - 1


class ParlourEnv(gymnasium.Env):
    """One parlour game, one learning seat, parlour agents in the other seats."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        game: Game | str = "clobber",
        opponent: str = "medium",
        player: int | None = 0,
        illegal: str = "lose",
        render_mode: str | None = None,
        **params: Any,
    ) -> None:
        self.game = make_game(game, params)
        n = self.game.num_players()
        if player is not None and not 0 <= player < n:
            raise ValueError(f"player must be a seat 0-{n - 1} or None, not {player!r}")
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        make_agent(opponent, self.game, 0)  # fail now, naming the known agents, if unknown
        self.opponent = opponent
        self.fixed_player = player
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = tensor_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.player = 0 if player is None else player
        self.state: State | None = None
        self.agents: dict[int, Agent] = {}
        self._forfeit = False

    # -- the episode -----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        n = self.game.num_players()
        self.player = int(rng.integers(n)) if self.fixed_player is None else self.fixed_player
        self.agents = {
            seat: make_agent(self.opponent, self.game, int(rng.integers(SEED_BOUND)))
            for seat in range(n)
            if seat != self.player
        }
        self.state = self.game.new_initial_state()
        self._forfeit = False
        reward = self._play_others()
        return self._observation(), self._info(reward_so_far=reward)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None or state.is_terminal() or self._forfeit:
            raise RuntimeError("the episode is over: call reset()")
        try:
            state.apply_action(int(action))
        except IllegalActionError as exc:
            if self.illegal == "raise":
                raise
            self._forfeit = True
            info = self._info()
            info.update(illegal_action=True, rule=exc.rule, reason=exc.reason)
            return self._observation(), float(self.game.min_utility()), True, False, info
        reward = float(state.rewards()[self.player])
        reward += self._play_others()
        return self._observation(), reward, state.is_terminal(), False, self._info()

    def _live(self) -> State:
        """The game in play (``reset()`` starts one)."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def _play_others(self) -> float:
        """Play chance and the other seats until the learner is to act or the game ends.

        Returns the learner's rewards collected on the way.
        """
        state = self._live()
        collected = 0.0
        while not state.is_terminal() and state.current_player() != self.player:
            if state.is_chance_node():
                state.apply_action(state.sample_chance_outcome(self.np_random))
            else:
                seat = state.current_player()
                state.apply_action(self.agents[seat].step(state))
            collected += float(state.rewards()[self.player])
        return collected

    def _observation(self) -> np.ndarray:
        return observation(self._live(), self.player)

    def _info(self, reward_so_far: float = 0.0) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks(), "player": self.player}
        if self._live().is_terminal():
            info["returns"] = list(self._live().returns())
        if reward_so_far:
            info["reward_before_first_turn"] = reward_so_far
        return info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as an int8 mask (all zero once the episode is over)."""
        if self.state is None or self._forfeit:
            return np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        return action_mask(self.state, self.player)

    # -- display -------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = self.state.observation_string(self.player)
        if self.render_mode == "human":
            print(text)
            return None
        return text


ENV_IDS: dict[str, str] = {}
"""Gymnasium id of every registered parlour game: ``{"clobber": "parlour/Clobber-v0", ...}``."""


def register_envs() -> dict[str, str]:
    """Register ``parlour/<LongName>-v0`` with Gymnasium for every parlour game not yet registered.

    ``gymnasium.make("parlour/Clobber-v0", opponent="random", rows=6, columns=7)``.
    """
    for name in list_games():
        if name in ENV_IDS:
            continue
        long_name = game_class(name).game_type.long_name
        camel = "".join(part[:1].upper() + part[1:] for part in long_name.split())
        env_id = f"parlour/{camel}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=ParlourEnv, kwargs={"game": name})
        ENV_IDS[name] = env_id
    return dict(ENV_IDS)


def env(
    name: Game | str = "clobber",
    opponent: str = "medium",
    render_mode: str | None = None,
    **params: Any,
) -> ParlourEnv:
    """The single-agent environment of game ``name`` against ``opponent`` agents.

    Keywords that are not game parameters: ``player`` (the learner's seat, default 0, ``None``
    for a random seat per episode) and ``illegal`` (``"lose"`` or ``"raise"``).
    """
    options = {k: params.pop(k) for k in ("player", "illegal") if k in params}
    return ParlourEnv(name, opponent=opponent, render_mode=render_mode, **options, **params)
