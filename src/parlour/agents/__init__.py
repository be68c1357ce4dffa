"""Agents that choose actions: the interface, and the named strengths players pick from.

An agent sees a game only through the public API of the state it is handed and must base its
decision on what its player may see (``state.view(player)``, ``legal_actions()``,
``sample_world``): never on hidden parts of the state. Every module of this package is
imported here so that the agents it defines register their names.
"""

import importlib
import pkgutil

from parlour.agents.base import Agent, RandomAgent, agent_names, make_agent, register_agent

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent", "register_agent"]
