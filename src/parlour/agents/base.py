"""The agent interface and the registry of agents by name (``--vs random``, ``--vs hard``)."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable

from parlour.core import Game, State


class Agent(ABC):
    """Chooses an action for the player to act. Seeded, so a game replays exactly."""

    name: str = "agent"

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.rng = random.Random(seed)

    @abstractmethod
    def step(self, state: State) -> int:
        """The action to play in ``state`` (a player node)."""

    def restart(self) -> None:
        """Forget anything remembered from an earlier game."""


class RandomAgent(Agent):
    """Uniformly random among the legal actions: the baseline every agent must beat."""

    name = "random"

    def step(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())


AgentFactory = Callable[[Game, int | None], Agent]
_AGENTS: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def make_agent(name: str, game: Game, seed: int | None = None) -> Agent:
    """Build the agent called ``name`` for ``game``; unknown names list the known ones."""
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise ValueError(
            f"unknown agent {name!r}; known agents: {', '.join(agent_names())}"
        ) from None
    return factory(game, seed)


register_agent("random", RandomAgent)
