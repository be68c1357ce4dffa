"""World sampling (G-3) remembers what it worked out from a history, and that changes nothing.

``worlds.sample_world`` keeps, per history and player, each seat's events, the peak demand of
their known placements and the answers of its look-ahead (``_possible``), so that a search
drawing hundreds of worlds from one position does not work them out again. Those are functions
of the history alone: a sampler that remembers must draw exactly the worlds of one that starts
from nothing, and the worlds stay consistent with the player's view.
"""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.games.gobblestones import worlds

from .test_properties import check_invariants


def positions(params: dict, seed: int, every: int = 4) -> list:
    """Player decisions of one random game, every ``every``-th."""
    game = parlour.load_game("gobblestones", **params)
    rng = random.Random(seed)
    state, found, step = game.new_initial_state(), [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        if step % every == 0:
            found.append(state.clone())
        step += 1
        state.apply_action(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize("params", [
    {"players": 2}, {"players": 4}, {"players": 3, "bluff": True},
], ids=["2p", "4p", "3p-bluff"])
def test_g3_remembered_sampling_draws_the_worlds_of_a_fresh_one(params):
    checked = 0
    for state in positions(params, seed=len(params) + params["players"])[::3]:
        for player in range(state.get_game().num_players()):
            warm = state.clone()
            for _ in range(6):  # fill its remembered answers
                warm.sample_world(player, random.Random(99))
            ours, theirs = random.Random(player), random.Random(player)
            for _ in range(4):
                fresh = state.clone()  # a new state: nothing remembered
                got = warm.sample_world(player, ours)
                want = fresh.sample_world(player, theirs)
                assert got.history() == want.history()
                assert got.position() == want.position()
                assert got.view(player) == state.view(player)
                checked += 1
    assert checked > 20


def test_g3_sampling_with_its_memory_cleared_when_full_draws_the_same_worlds(monkeypatch):
    """The bound on remembered answers (``ANSWERS``) clears them; the worlds do not change."""
    state = positions({"players": 3}, seed=8)[12]
    player = (state.current_player() + 1) % 3
    want = [state.clone().sample_world(player, random.Random(k)) for k in range(6)]
    monkeypatch.setattr(worlds, "ANSWERS", 3)
    small = state.clone()
    got = [small.sample_world(player, random.Random(k)) for k in range(6)]
    assert [w.history() for w in got] == [w.history() for w in want]
    for world in got:
        assert world.view(player) == state.view(player)
        check_invariants(world, set())
