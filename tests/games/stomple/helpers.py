"""Hand-made Stomple positions for the tests: a board from a few named holes."""

from __future__ import annotations

import random

import parlour
from parlour.games.stomple import StompleState


def board(cells: dict[str, str]) -> str:
    """Board text with ``cells`` (hole name -> mark) filled in and every other hole empty."""
    grid = [["."] * 7 for _ in range(7)]
    for name, mark in cells.items():
        grid[7 - int(name[1])]["abcdefg".index(name[0])] = mark
    return "/".join("".join(rank) for rank in grid)


def position(
    cells: dict[str, str],
    *,
    to_move: int = 0,
    colours: str = "rb",
    status: str = "ss",
    string: str = "-",
    scores: str | None = None,
    round: int = 1,
) -> str:
    scores = scores or ",".join("0" * len(status))
    return f"{board(cells)} {to_move} {colours} {status} {string} {scores} {round}"


def at(text: str, **params) -> StompleState:
    """The state of a hand-made position (players taken from the text)."""
    players = len(text.split()[3])
    return parlour.load_game("stomple", players=players, **params).state_from_position(text)


def play(state: StompleState, *holes: str) -> StompleState:
    for hole in holes:
        state.apply_action(state.string_to_action(hole))
    return state


def names(state: StompleState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def random_playout(state, rng: random.Random, stop=None):
    """Yield every state of a random playout from ``state`` (chance by its probabilities)."""
    yield state
    while not state.is_terminal():
        if stop is not None and stop(state):
            return
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(actions, probs)[0]
        else:
            action = rng.choice(state.legal_actions())
        state = state.child(action)
        yield state
