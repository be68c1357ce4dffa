"""parlour.batch.StompleBatch: random playouts end, illegal actions are refused, conversions
round-trip, whole deals follow the laws.

That it plays Stomple exactly as the reference engine does, move by move, is
``test_against_the_reference.py`` (every game's engine, one test).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import parlour
import parlour.batch
from parlour.batch import StompleBatch
from parlour.core import IllegalActionError


def test_random_actions_are_legal_and_playouts_end() -> None:
    batch = StompleBatch("stomple", 32, seed=3, players=3)
    for _ in range(20000):
        if batch.terminated().all():
            break
        batch.step(batch.random_actions())  # raises if any action were illegal
    assert batch.terminated().all()
    returns = parlour.batch.play_random("stomple", n_games=300, seed=1, players=4)
    assert returns.shape == (300, 4)
    assert ((returns == 1.0).sum(axis=1) >= 1).all()  # every game has a winner (S11)


def test_illegal_actions_name_the_rule_and_change_nothing() -> None:
    game = parlour.load_game("stomple", position=parlour.games.stomple.FORK_POSITION)
    batch = StompleBatch(game, 2, seed=0)
    before = [batch.snapshot(i) for i in range(2)]
    state = game.new_initial_state()
    inner = next(h for h in range(49) if h not in state.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        batch.step([state.legal_actions()[0], inner])
    assert err.value.rule.startswith("S")
    assert "game 1" in str(err.value)
    assert [batch.snapshot(i) for i in range(2)] == before


def test_set_state_round_trips() -> None:
    game = parlour.load_game("stomple", players=3)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(80):
        state.apply_action(state.sample_chance_outcome(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    batch = StompleBatch(game, 2, seed=0)
    batch.set_state(1, state)
    assert batch.snapshot(1) == StompleBatch.reference_snapshot(state)
    assert batch.state(1).position() == state.position()


@pytest.mark.parametrize("players", [2, 6])
def test_dealing_a_round_at_once_gives_a_legal_start(players: int) -> None:
    """``deal_rounds`` (the playouts' shortcut) deals 7 marbles of each kind and distinct
    colours (S1, S2); the reference engine agrees on what follows."""
    game = parlour.load_game("stomple", players=players)
    batch = StompleBatch(game, 200, seed=9)
    batch.deal_rounds()
    assert (batch.dealt == 49).all() and (batch.drawn == players).all()
    for i in range(0, 200, 20):
        snap = batch.snapshot(i)
        assert [m.bit_count() for m in snap["masks"]] == [7] * 7
        assert len(set(snap["colour"])) == players and min(snap["colour"]) >= 0
        state = batch.state(i)
        assert list(np.flatnonzero(batch.legal_actions_mask()[i])) == state.legal_actions()
    kinds_on_a7 = [next(k for k in range(7) if batch.masks[i, k] & np.uint64(1))
                   for i in range(200)]
    assert len(set(kinds_on_a7)) == 7  # every kind turns up on the first hole
