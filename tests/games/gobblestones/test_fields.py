"""The GobbleStones state's contents, declared once (``fields.Fields``): what is derived from
the declaration copies, freezes and hands over every field."""

from __future__ import annotations

import dataclasses
import random

import pytest

import parlour
from parlour.games.gobblestones import GobbleStonesState
from parlour.games.gobblestones.fields import COMPILED, HIDDEN, Fields
from parlour.games.gobblestones.snapshot import Phase, Snapshot


def _states(params: dict, seed: int = 2):
    """States of a random game, one in every phase it reaches (a board half drawn too)."""
    game = parlour.load_game("gobblestones", **params)
    state, rng = game.new_initial_state(), random.Random(seed)
    seen = {}
    while not state.is_terminal():
        seen.setdefault((state.phase, state.turn_in_progress()), state.clone())
        if state.move_number() == 100:
            seen["board"] = state.clone()
        state.apply_action(state.sample_chance_outcome(rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    return list(seen.values())


def test_a_snapshot_holds_fields_of_the_same_names():
    declared = [f.name for f in dataclasses.fields(Fields)]
    snapshot = [f.name for f in dataclasses.fields(Snapshot)]
    assert declared[: len(snapshot)] == snapshot


@pytest.mark.parametrize("params", [{}, {"players": 3, "bluff": True}])
def test_a_copy_shares_nothing_that_is_written_in_place(params):
    for state in _states(params):
        before = state.snapshot()
        twin = state.clone()
        twin_fields = twin._f
        for f in dataclasses.fields(Fields):
            value = getattr(twin_fields, f.name)
            if f.metadata["kind"] not in ("value", "cache") and isinstance(value, (list, dict)):
                assert value is not getattr(state._f, f.name), f.name
        for action in twin.legal_actions():  # whatever is played on the copy
            twin.clone().apply_action(action)
            child = twin.child(action)
            child.random_playout(random.Random(0).random, 40)
        assert state.snapshot() == before


def test_a_board_being_drawn_is_copied_and_a_drawn_one_shared():
    game = parlour.load_game("gobblestones")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert state.clone()._f.colour is not state._f.colour
    while state.is_chance_node() and state.phase == Phase.BOARD:
        state.apply_action(state.legal_actions()[0])
    assert state.clone()._f.colour is state._f.colour  # a tuple, never written again


def test_the_hidden_fields_are_what_the_rules_hide_and_nothing_else():
    assert set(HIDDEN) == {"tile", "racks", "bag", "pending"}  # B2, B6, B9
    state = _states({})[-1]
    with pytest.raises(ValueError, match="not hidden fields"):
        state.other_world(points=(0, 0))
    world = state.other_world(bag=(0, 0, 0, 0, 0))
    assert world.snapshot().bag == (0, 0, 0, 0, 0) and state.snapshot().bag != world.snapshot().bag


def test_the_compiled_fields_come_in_the_order_the_c_takes_them():
    """``_cplayout.c`` reads (and gives back) the tiles, racks, bag, points, phase, turn,
    drawer, tiles left to draw, passes and turns, in this order (``playout``'s docstring)."""
    assert COMPILED == ("tile", "racks", "bag", "points", "phase", "turn", "drawer", "to_draw",
                        "passes", "turns")


@pytest.mark.parametrize("params", [{}, {"players": 4, "bluff": True}])
def test_from_snapshot_works_out_the_derived_fields(params):
    game = parlour.load_game("gobblestones", **params)
    for state in _states(params):
        twin = GobbleStonesState.from_snapshot(game, state.snapshot())
        assert twin._f.occupied == state._f.occupied
        assert twin._f.left == state._f.left
        assert twin.chance_outcomes() == state.chance_outcomes()
