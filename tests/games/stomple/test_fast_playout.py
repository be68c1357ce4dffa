"""Stomple's ``random_playout`` against the definition (``State.random_playout``): the same
actions for the same random numbers, whole games and pieces, and games that replay (G-1), through
the compiled playouts and through the Python ones."""

from __future__ import annotations

import random

import pytest

import parlour
import parlour.games.stomple.game as engine
from parlour.core import State


@pytest.fixture(autouse=True, params=[True, False] if engine._cplayout is not None else [False],
                ids=lambda compiled: "compiled" if compiled else "python")
def compiled(request):
    engine.COMPILED_PLAYOUTS[0] = request.param
    yield request.param
    engine.COMPILED_PLAYOUTS[0] = True


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("rounds", [None, 1])
def test_G1_random_playout_plays_the_definitions_actions(players, rounds):
    params = {"players": players} | ({"rounds": rounds} if rounds else {})
    game = parlour.load_game("stomple", **params)
    for seed in range(10):
        fast, plain = game.new_initial_state(), game.new_initial_state()
        fast.random_playout(random.Random(seed).random)
        State.random_playout(plain, random.Random(seed).random)
        assert fast.history() == plain.history()
        assert fast.position() == plain.position()
        assert fast.is_terminal() and fast.returns() == plain.returns()
        assert game.new_state_from_actions(fast.history()).position() == fast.position()


@pytest.mark.parametrize("players", [2, 5])
def test_S7_random_playout_in_pieces(players):
    """Budgets stop mid-deal, mid-draw and mid-string (S7); play goes on as the definition's."""
    game = parlour.load_game("stomple", players=players)
    fast, plain = game.new_initial_state(), game.new_initial_state()
    ours, theirs = random.Random(9).random, random.Random(9).random
    step = 0
    while not fast.is_terminal():
        budget = 1 + step % 11
        assert fast.random_playout(ours, budget) == State.random_playout(plain, theirs, budget)
        assert fast.history() == plain.history()
        assert fast.position() == plain.position()
        assert fast.legal_actions() == plain.legal_actions()
        assert fast.chance_outcomes() == plain.chance_outcomes()
        step += 1
