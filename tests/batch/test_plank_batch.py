"""parlour.batch.PlankBatch plays Stomp the Plank exactly as the reference engine does.

Differential: a batch of games and one reference state per game take the same actions
(chance outcomes by their probabilities, player actions at random); after every step each
game's position, player to act, legal actions, chance probabilities and returns agree.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import parlour
from parlour.batch import PlankBatch, play_random_plank
from parlour.core import IllegalActionError
from parlour.games import conformance_configs

CASES = [config for name, config in conformance_configs("stomp-the-plank")]


def _compare(batch: PlankBatch, states: list) -> None:
    mask = batch.legal_actions_mask()
    probs = batch.chance_probabilities()
    returns = batch.returns()
    players = batch.current_player()
    for i, state in enumerate(states):
        assert batch.position(i).text() == state.position()
        assert players[i] == state.current_player()
        if state.is_player_node():
            assert list(np.flatnonzero(mask[i])) == state.legal_actions()
        else:
            assert not mask[i].any()
        expected = np.zeros(7)
        for t, p in state.chance_outcomes():
            expected[t] = p
        np.testing.assert_allclose(probs[i], expected)
        np.testing.assert_array_equal(returns[i], state.returns())


@pytest.mark.parametrize("config", CASES, ids=str)
def test_batch_matches_the_reference_move_by_move(config: dict) -> None:
    game = parlour.load_game("stomp-the-plank", **config)
    n = 24
    batch = PlankBatch(game, n, seed=0)
    states = [game.new_initial_state() for _ in range(n)]
    rng = random.Random(7)
    _compare(batch, states)
    for _step in range(3000):
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
        for s, a in zip(states, actions, strict=True):
            if a >= 0:
                s.apply_action(a)
        _compare(batch, states)
        for i, (s, a) in enumerate(zip(states, actions, strict=True)):
            assert done[i] == s.is_terminal()
            ended_now = a >= 0 and s.is_terminal()
            expected = s.returns() if ended_now else [0.0] * game.num_players()
            np.testing.assert_array_equal(rewards[i], expected)
    assert all(s.is_terminal() for s in states)


def test_random_actions_are_legal_and_playouts_end() -> None:
    batch = PlankBatch("stomp-the-plank", 64, seed=3, players=3)
    for _ in range(5000):
        if batch.terminated().all():
            break
        batch.step(batch.random_actions())  # raises if any action were illegal
    assert batch.terminated().all()
    returns = play_random_plank("stomp-the-plank", n_games=500, seed=1, players=4)
    assert returns.shape == (500, 4)
    finished = np.abs(returns).sum(axis=1) > 0
    assert finished.any()
    assert set(np.unique(returns)) <= {-1.0, 0.0, 1.0}


def test_illegal_actions_name_the_rule_and_change_nothing() -> None:
    batch = PlankBatch("stomp-the-plank", 3, seed=0)
    before = [batch.position(i) for i in range(3)]
    with pytest.raises(IllegalActionError) as err:
        batch.step([0, 1, 0])  # stop before any card (P3)
    assert err.value.rule == "P3"
    assert "game 1" in str(err.value)
    assert [batch.position(i) for i in range(3)] == before


def test_set_state_and_reset_round_trip() -> None:
    game = parlour.load_game("stomp-the-plank", players=3)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(40):
        state.apply_action(state.sample_chance_outcome(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    batch = PlankBatch(game, 2, seed=0)
    batch.set_state(1, state)
    assert batch.state(1).position() == state.position()
    batch.reset([False, True])
    assert batch.state(1).position() == game.new_initial_state().position()
