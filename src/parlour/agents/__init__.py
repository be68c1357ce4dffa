"""Agents that choose actions: the interface, the search agents and the named strengths.

An agent decides from what its player may see: :meth:`Agent.step` hands it a
:class:`PlayerView` (the player's own view, their legal actions, and worlds sampled consistently
with the view), never the state itself. Every module of this package is imported here so that
the agents it defines register their names (``make_agent("hard", game, seed)``).
"""

import importlib
import pkgutil

from parlour.agents.base import (
    Agent,
    RandomAgent,
    agent_descriptions,
    agent_games,
    agent_names,
    agents_for,
    answers_at_once,
    make_agent,
    parse_agent_spec,
    plays,
    plays_configuration,
    register_agent,
)
from parlour.agents.evaluation import Knowledge, evaluate, knowledge_for, register_knowledge
from parlour.agents.playerview import PlayerView

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

from parlour.agents.greedy import GreedyAgent  # noqa: E402
from parlour.agents.mcts import MCTSAgent  # noqa: E402

__all__ = [
    "Agent",
    "GreedyAgent",
    "Knowledge",
    "MCTSAgent",
    "PlayerView",
    "RandomAgent",
    "agent_descriptions",
    "agent_games",
    "agent_names",
    "agents_for",
    "answers_at_once",
    "evaluate",
    "knowledge_for",
    "make_agent",
    "parse_agent_spec",
    "plays",
    "plays_configuration",
    "register_agent",
    "register_knowledge",
]
