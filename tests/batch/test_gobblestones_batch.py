"""parlour.batch.GobbleStonesBatch plays GobbleStones exactly as the reference engine does.

Differential: a batch of games and one reference state per game take the same actions (chance
by its law, player actions at random among the reference's legal ones); after every step each
game's fields, player to act, legal actions, chance law, rewards and returns agree.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import parlour
from parlour.batch import GobbleStonesBatch, play_random_gobblestones
from parlour.batch.gobblestones import reference_snapshot
from parlour.core import IllegalActionError
from parlour.games import conformance_configs

CASES = [config for name, config in conformance_configs("gobblestones")]


def _compare(batch: GobbleStonesBatch, states: list, full: bool) -> None:
    mask = batch.legal_actions_mask()
    players = batch.current_player()
    returns = batch.returns()
    probs = batch.chance_probabilities() if full else None
    for i, state in enumerate(states):
        assert batch.snapshot(i) == reference_snapshot(state)
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


@pytest.mark.parametrize("config", CASES, ids=str)
def test_batch_matches_the_reference_move_by_move(config: dict) -> None:
    game = parlour.load_game("gobblestones", **config)
    n = 3
    batch = GobbleStonesBatch(game, n, seed=0)
    states = [game.new_initial_state() for _ in range(n)]
    rng = random.Random(3)
    _compare(batch, states, True)
    for step in range(20000):
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
        _compare(batch, states, step % 7 == 0)
    assert all(s.is_terminal() for s in states)


@pytest.mark.parametrize("config", [{}, {"players": 3, "bluff": True}], ids=str)
def test_random_actions_are_legal_and_playouts_end(config: dict) -> None:
    batch = GobbleStonesBatch("gobblestones", 8, seed=3, **config)
    for _ in range(20000):
        if batch.terminated().all():
            break
        batch.step(batch.random_actions())  # checked: raises if any action were illegal
    assert batch.terminated().all()
    returns = play_random_gobblestones("gobblestones", n_games=20, seed=1, **config)
    assert returns.shape == (20, batch.players)
    assert ((returns == 1.0).sum(axis=1) >= 1).all()


def test_illegal_actions_name_the_rule_and_change_nothing() -> None:
    from parlour.games.gobblestones import EXAMPLE_BOARD

    game = parlour.load_game("gobblestones", board=EXAMPLE_BOARD)
    batch = GobbleStonesBatch(game, 2, seed=0)
    while (batch.current_player() < 0).any():
        batch.step(batch.random_actions())
    before = [batch.snapshot(i) for i in range(2)]
    with pytest.raises(IllegalActionError) as err:
        batch.step([game.PASS, game.END])  # 'end' before any tile (B4)
    assert err.value.rule == "B4"
    assert "game 1" in str(err.value)
    assert [batch.snapshot(i) for i in range(2)] == before
