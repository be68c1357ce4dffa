"""Shared helpers for the Stomp the Plank tests: build hand-made situations and play them."""

from __future__ import annotations

import random

from parlour.core import Game, State, load_game

EMPTY = "0,0,0,0,0,0,0"


def game(**params) -> Game:
    return load_game("stomp-the-plank", **params)


def at(text: str, **params) -> State:
    """The state written by ``text`` in a game with ``params``."""
    return game(**params).state_from_position(text)


def play(state: State, *moves: str) -> State:
    """Apply moves in notation: ``draw``/``stop`` for players, treasure names for chance."""
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def random_playout(state: State, rng: random.Random, stop_chance: float = 0.4) -> list[State]:
    """Play to the end with random choices; every state passed through, the first included."""
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[-1] if len(legal) > 1 and rng.random() < stop_chance
                               else legal[0])
        states.append(state.clone())
    return states
