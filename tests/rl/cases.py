"""The game configurations the adapter tests run: every registered game, each of its
``CONFORMANCE_CONFIGS`` (as the conformance suite does), so a new game is covered as it lands."""

from __future__ import annotations

import random

import parlour
from parlour.core import State
from parlour.games import conformance_configs

CASES = conformance_configs()
IDS = [f"{name}-{i}" for i, (name, _config) in enumerate(CASES)]


def shortest_case(name: str) -> dict:
    """The configuration of ``name`` with the shortest declared game (for slow searches)."""
    configs = [config for game, config in CASES if game == name]
    return min(configs, key=lambda c: parlour.load_game(name, **c).max_game_length())


def random_step(state: State, rng: random.Random) -> int:
    """A chance outcome by its probability, or a uniformly random legal action."""
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        return rng.choices(actions, probs)[0]
    return rng.choice(state.legal_actions())
