"""Shared pieces of the agent tests: game configurations and states drawn from random play."""

from __future__ import annotations

import random

import parlour
from parlour.agents import make_agent
from parlour.core import Game, Information, State, game_class


def configs() -> list[tuple[str, dict]]:
    """Every registered game at every player count it supports (one config per count)."""
    cases: list[tuple[str, dict]] = []
    for name in parlour.list_games():
        cls = game_class(name)
        low, high = cls.game_type.min_num_players, cls.game_type.max_num_players
        if "players" in cls.parameters and high > low:
            cases += [(name, {"players": n}) for n in range(low, high + 1)]
        else:
            cases.append((name, {}))
    return cases


def case_id(case: tuple[str, dict]) -> str:
    name, params = case
    return name + "".join(f"-{k}{str(v)[:12]}" for k, v in params.items())


def chance_step(state: State, rng: random.Random) -> int:
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    return rng.choices(actions, probs)[0]


def player_states(game: Game, count: int, seed: int = 0, max_games: int = 40) -> list[State]:
    """``count`` player-node states with at least two legal actions, spread over random games."""
    rng = random.Random(seed)
    found: list[State] = []
    for _ in range(max_games):
        state = game.new_initial_state()
        seen: list[State] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance_step(state, rng))
                continue
            if len(state.legal_actions()) > 1:
                seen.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        if seen:
            found += rng.sample(seen, min(len(seen), max(1, count // 4)))
        if len(found) >= count:
            return found[:count]
    return found


def imperfect(game: Game) -> bool:
    return game.get_type().information == Information.IMPERFECT


def play(game: Game, specs: list[str], seed: int) -> State:
    """A whole game between the agents named by ``specs`` (seat order), chance seeded."""
    agents = [make_agent(s, game, seed * 100 + i) for i, s in enumerate(specs)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance_step(state, rng))
        else:
            action = agents[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state
