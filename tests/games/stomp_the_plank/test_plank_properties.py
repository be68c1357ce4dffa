"""Stomp the Plank: random playouts and property tests over every configuration we ship.

Checks invariants that must hold in every reachable state: the 49 cards are all somewhere
(P1), crates are conserved (P5), no plank stands tipped while play goes on (P6), chance
outcomes are a distribution (G-1), the position text round-trips, and views and tensors are
the same for every player and built from the view alone (G-3).
"""

from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core import NotationError
from parlour.games.stomp_the_plank import CONFORMANCE_CONFIGS

from .plank_support import game, random_playout

CONFIGS = [*CONFORMANCE_CONFIGS, {"players": 2, "crates": "3", "tip_at": 7, "step_weight": 2}]


def _check_state(g, state) -> None:
    n = g.num_players()
    # P1: every card is in the pile, the discards or on the pontoon.
    on_pontoon = [state.pontoon().count(t) for t in
                  ("coins", "ruby", "map", "compass", "sword", "hook", "spyglass")]
    totals = [a + b + c for a, b, c in
              zip(state.pile_counts(), state.discard_counts(), on_pontoon, strict=True)]
    assert totals == [7] * 7
    # P5: crates are conserved.
    assert sum(state.plank(i)[0] for i in range(n)) + state.supply == g.params["supply"]
    # P6: a tipped plank means the game is over.
    if not state.is_terminal():
        assert all(state.balance(i) > 0 for i in range(n))
        assert len(set(state.pontoon())) == len(state.pontoon()) < g.spots
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert math.isclose(sum(p for _, p in outcomes), 1.0)
        assert all(0 <= a < g.max_chance_outcomes() and p > 0 for a, p in outcomes)
    elif state.is_player_node():
        assert set(state.legal_actions()) <= {0, 1}
        for action in state.legal_actions():
            assert state.string_to_action(state.action_to_string(action)) == action
    # Position text round-trips, and so does everything derived from it.
    twin = g.state_from_position(state.position())
    assert twin.position() == state.position()
    assert twin.view(None) == state.view(None)
    assert twin.legal_actions() == state.legal_actions()
    assert twin.chance_outcomes() == state.chance_outcomes()
    assert twin.returns() == state.returns()
    # G-3: the view is JSON; every player sees the same table; the tensor is the view's.
    views = [state.view(p) for p in range(n)]
    assert json.loads(json.dumps(views[0])) == views[0]
    for p, view in enumerate(views):
        assert {k: v for k, v in view.items() if k != "player"} == {
            k: v for k, v in views[0].items() if k != "player"
        }
        tensor = state.observation_tensor(p)
        assert tensor.shape == g.observation_tensor_shape() and tensor.dtype == np.float32
        assert np.isfinite(tensor).all()
        np.testing.assert_array_equal(tensor, twin.observation_tensor(p))
        assert state.sample_world(p, random.Random(p)).view(p) == view


@pytest.mark.parametrize("params", CONFIGS, ids=str)
def test_random_playouts_keep_every_invariant(params):
    g = game(**params)
    rng = random.Random(repr(params))
    for _ in range(6):
        states = random_playout(g.new_initial_state(), rng, stop_chance=rng.uniform(0.2, 0.8))
        for state in states:
            _check_state(g, state)
        final = states[-1]
        assert len(final.history()) <= g.max_game_length()
        assert g.new_state_from_actions(final.history()).position() == final.position()
        returns = final.returns()
        if final.end == "turn-limit":
            assert returns == [0.0] * g.num_players()
        else:
            assert set(returns) == {-1.0, 1.0}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4),
       stop_chance=st.floats(0.05, 0.8))
def test_hypothesis_playouts_end_with_a_ruling_end(seed, players, stop_chance):
    g = game(players=players)
    final = random_playout(g.new_initial_state(), random.Random(seed), stop_chance)[-1]
    _check_state(g, final)
    assert final.end in ("tip-stop", "tip-step", "last-spot")
    losers = final.losers()
    if final.end == "tip-step":
        assert losers == [final.active_player]
    elif final.end == "last-spot":
        assert final.winners() == [final.active_player]
    else:
        assert final.active_player not in losers and losers


def test_clone_is_independent():
    g = game(players=3)
    state = g.new_initial_state()
    state.apply_action(0)
    twin = state.clone()
    twin.apply_action(3)
    assert state.is_chance_node() and state.pontoon() == []
    assert twin.pontoon() == ["compass"] and twin.history() == [0, 3]


def test_tensor_layout_matches_its_documentation():
    g = game(players=3)
    state = g.state_from_position(
        "turn=10 active=2 phase=choose pontoon=ruby,hook discards=1,0,0,0,0,0,2 supply=51 "
        "planks=4/1,5/0,0/2"
    )
    t = state.observation_tensor(1)  # viewer: seat 1, so planks run 1, 2, 0
    assert t.shape == (6 * 7 + 7 + 7 + 4 * 3 + 1 + 4 + 1,)
    assert t[0 * 7 + 1] == 1 and t[1 * 7 + 5] == 1 and t[:42].sum() == 2  # pontoon
    np.testing.assert_allclose(t[42:49], np.array([6, 6, 7, 7, 7, 6, 5]) / 7)  # unseen
    np.testing.assert_allclose(t[49:56], np.array([1, 0, 0, 0, 0, 0, 2]) / 7)  # discards
    # Planks scaled by the P5 defaults tip_at=15, step_weight=3.
    np.testing.assert_allclose(t[56:60], [0, 5 / 15, 0, 10 / 15])  # seat 1
    np.testing.assert_allclose(t[60:64], [1, 0, 6 / 15, 9 / 15])  # seat 2, active
    np.testing.assert_allclose(t[64:68], [0, 4 / 15, 3 / 15, 8 / 15])  # seat 0
    assert t[68] == pytest.approx(51 / 60)
    np.testing.assert_array_equal(t[69:73], [0, 1, 0, 0])  # phase choose
    assert t[73] == pytest.approx(10 / 1000)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "turn=1 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=60",
        "turn=1 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=60 planks=0/0",
        "turn=1 active=2 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=60 planks=0/0,0/0",
        "turn=1 active=0 phase=begin pontoon=- discards=0,0,0,0,0,0,0 supply=60 planks=0/0,0/0",
        "turn=1 active=0 phase=start pontoon=ruby discards=0,0,0,0,0,0,0 supply=60 "
        "planks=0/0,0/0",
        "turn=1 active=0 phase=choose pontoon=gold discards=0,0,0,0,0,0,0 supply=60 "
        "planks=0/0,0/0",
        "turn=1 active=0 phase=choose pontoon=ruby,ruby discards=0,0,0,0,0,0,0 supply=60 "
        "planks=0/0,0/0",
        "turn=1 active=0 phase=choose pontoon=ruby discards=0,7,0,0,0,0,0 supply=60 "
        "planks=0/0,0/0",
        "turn=1 active=0 phase=start pontoon=- discards=0,0,0,0,0,0 supply=60 planks=0/0,0/0",
        "turn=1 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=59 planks=0/0,0/0",
        "turn=1 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=40 planks=20/0,0/0",
        "turn=1 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=60 planks=0/5,0/0",
        "turn=0 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=60 planks=0/0,0/0",
        "turn=1 active=0 phase=start end=tip-stop pontoon=- discards=0,0,0,0,0,0,0 supply=60 "
        "planks=0/0,0/0",
        "turn=1 active=0 phase=over end=tip-stop pontoon=ruby discards=0,0,0,0,0,0,0 "
        "supply=60 planks=0/0,0/0",
        "turn=1 active=0 phase=over end=last-spot pontoon=ruby discards=0,0,0,0,0,0,0 "
        "supply=60 planks=0/0,0/0",
        "turn=1 active=0 phase=card pontoon=ruby discards=7,6,7,7,7,7,7 supply=60 "
        "planks=0/0,0/0",
        "turn=1 active=0 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=60 "
        "planks=0/0,0/0 turn=2",
        "turn=1 active=-1 phase=start pontoon=- discards=0,0,0,0,0,0,0 supply=60 "
        "planks=0/0,0/0",
    ],
)
def test_bad_position_text_is_refused(text):
    with pytest.raises(NotationError):
        game().state_from_position(text)


def test_finished_positions_round_trip():
    g = game(players=3)
    for text in (
        "turn=8 active=1 phase=over end=tip-stop pontoon=coins,ruby,map discards=2,0,0,0,1,0,0 "
        "supply=37 planks=20/0,0/0,3/0",
        "turn=8 active=1 phase=over end=tip-step pontoon=coins,ruby,coins discards=0,0,0,0,0,0,0 "
        "supply=60 planks=0/0,0/5,0/0",
        "turn=8 active=0 phase=over end=last-spot pontoon=coins,ruby,map,compass,sword,hook "
        "discards=0,0,0,0,0,0,0 supply=60 planks=0/0,0/0,0/0",
    ):
        state = g.state_from_position(text)
        assert state.is_terminal() and state.position() == text
    limit = game(max_turns=5).state_from_position(
        "turn=6 active=1 phase=over end=turn-limit pontoon=- discards=0,0,0,0,0,0,0 supply=60 "
        "planks=0/0,0/0")
    assert limit.returns() == [0.0, 0.0]
