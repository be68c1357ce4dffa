"""What the PettingZoo and Gymnasium adapters share: spaces, chance, observations.

Everything here goes through the public game API (``legal_actions``, ``chance_outcomes``,
``observation_tensor``), so every registered game works without adapter code of its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from parlour.core import Game, State, load_game


def make_game(game: Game | str, params: dict[str, Any]) -> Game:
    """A configured game from a name and keyword parameters, or a game as given."""
    if isinstance(game, Game):
        if params:
            raise TypeError("give parameters either in the game or as keywords, not both")
        return game
    return load_game(game, **params)


def tensor_bounds(game: Game) -> tuple[float, float]:
    """The range of the game's observation tensor values, for the observation space.

    A game may declare ``observation_tensor_bounds = (low, high)`` (on its :class:`GameInfo` or
    on the game); otherwise the space is unbounded, which is always correct.
    """
    for holder in (game.info(), game):
        bounds = getattr(holder, "observation_tensor_bounds", None)
        if bounds is not None:
            low, high = bounds
            return float(low), float(high)
    return -np.inf, np.inf


def tensor_space(game: Game) -> spaces.Box:
    """The Box holding ``state.observation_tensor(player)`` (float32, the game's shape)."""
    low, high = tensor_bounds(game)
    return spaces.Box(low, high, shape=game.observation_tensor_shape(), dtype=np.float32)


def mask_space(game: Game) -> spaces.Box:
    """The Box holding a legal-action mask: one int8 per action id, 1 when legal."""
    return spaces.Box(0, 1, shape=(game.num_distinct_actions(),), dtype=np.int8)


def action_mask(state: State, player: int) -> np.ndarray:
    """``player``'s legal actions as an int8 mask (all zero when it is not their turn)."""
    mask = np.zeros(state.get_game().num_distinct_actions(), dtype=np.int8)
    if state.current_player() == player:
        mask[state.legal_actions(player)] = 1
    return mask


def observation(state: State, player: int) -> np.ndarray:
    """A fresh float32 copy of ``player``'s observation tensor (derived from their view, G-3)."""
    return np.array(state.observation_tensor(player), dtype=np.float32, copy=True)


def agent_name(player: int) -> str:
    """PettingZoo's recommended agent naming: ``player_0``, ``player_1``..."""
    return f"player_{player}"
