"""parlour.batch.PlankBatch: random playouts end, illegal actions are refused, conversions
round-trip.

That it plays Stomp the Plank exactly as the reference engine does, move by move, is
``test_against_the_reference.py`` (every game's engine, one test).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import parlour
import parlour.batch
from parlour.batch import PlankBatch
from parlour.core import IllegalActionError


def test_random_actions_are_legal_and_playouts_end() -> None:
    batch = PlankBatch("stomp-the-plank", 64, seed=3, players=3)
    for _ in range(5000):
        if batch.terminated().all():
            break
        batch.step(batch.random_actions())  # raises if any action were illegal
    assert batch.terminated().all()
    returns = parlour.batch.play_random("stomp-the-plank", n_games=500, seed=1, players=4)
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
