"""Every batched engine plays its game exactly as the reference engine does, move by move.

Differential: a batch of games and one reference state per game take the same actions (chance
by its law, player actions at random among the reference's legal ones); after every step each
game's fields (``snapshot`` against ``reference_snapshot``), player to act, legal actions,
chance law, rewards and returns agree. One test for every game with a batched engine, on
every conformance configuration it plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import pytest

import parlour
import parlour.batch
from parlour.batch import BatchEngine
from parlour.games import conformance_configs


@dataclass(frozen=True)
class Run:
    """How each game's batch is run: its size, the seed of the reference's choices, a bound on
    the steps, and how often the (costly) chance laws are compared."""

    games: int
    seed: int
    steps: int
    laws_every: int = 1


RUNS = {
    "clobber": Run(games=8, seed=3, steps=3000),
    "gobblestones": Run(games=3, seed=3, steps=20000, laws_every=7),
    "stomp-the-plank": Run(games=24, seed=7, steps=3000),
    "stomple": Run(games=6, seed=5, steps=20000),
}
CASES = [
    (name, config) for name, config in conformance_configs()
    if not (name == "clobber" and "graph" in config)  # ClobberBatch plays grids (C7)
]


def _compare(batch: BatchEngine, states: list, laws: bool) -> None:
    mask = batch.legal_actions_mask()
    players = batch.current_player()
    returns = batch.returns()
    probs = batch.chance_probabilities() if laws else None
    for i, state in enumerate(states):
        assert batch.snapshot(i) == batch.reference_snapshot(state)
        assert players[i] == state.current_player()
        if state.is_player_node():
            assert list(np.flatnonzero(mask[i])) == state.legal_actions()
        else:
            assert not mask[i].any()
        if probs is not None:
            expected = np.zeros(probs.shape[1])
            for a, p in state.chance_outcomes():
                expected[a] = p
            np.testing.assert_allclose(probs[i], expected)
        np.testing.assert_array_equal(returns[i], state.returns())


def test_every_game_is_covered() -> None:
    assert set(RUNS) == set(parlour.batch.ENGINES) == set(parlour.list_games())


@pytest.mark.parametrize(("name", "config"), CASES, ids=str)
def test_batch_matches_the_reference_move_by_move(name: str, config: dict) -> None:
    run = RUNS[name]
    game = parlour.load_game(name, **config)
    batch = parlour.batch.engine(game, run.games, seed=0)
    states = [game.new_initial_state() for _ in range(run.games)]
    rng = random.Random(run.seed)
    _compare(batch, states, True)
    for step in range(run.steps):
        if all(s.is_terminal() for s in states):
            break
        actions = []
        for s in states:
            if s.is_terminal():
                actions.append(-1)
            elif s.is_chance_node():
                actions.append(s.sample_chance_outcome(rng))
            else:
                actions.append(rng.choice(s.legal_actions()))
        rewards, done = batch.step(actions)
        for i, (s, a) in enumerate(zip(states, actions, strict=True)):
            if a >= 0:
                s.apply_action(a)
            assert done[i] == s.is_terminal()
            ended_now = a >= 0 and s.is_terminal()
            expected = s.returns() if ended_now else [0.0] * game.num_players()
            np.testing.assert_array_equal(rewards[i], expected)
        _compare(batch, states, step % run.laws_every == 0)
    assert all(s.is_terminal() for s in states)
