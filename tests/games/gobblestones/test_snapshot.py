"""The frozen snapshot the position text and the views read: it holds the whole state."""

from __future__ import annotations

import dataclasses
import random

import pytest

import parlour
from parlour.games.gobblestones import GobbleStonesState
from parlour.games.gobblestones.snapshot import Phase, Snapshot


@pytest.mark.parametrize("params", [{}, {"players": 3, "bluff": True}])
def test_a_state_rebuilt_from_its_snapshot_is_the_same_state(params):
    game = parlour.load_game("gobblestones", **params)
    rng = random.Random(7)
    state = game.new_initial_state()
    phases = set()
    for _step in range(1500):
        if state.is_terminal():
            break
        snap = state.snapshot()
        phases.add(snap.phase)
        twin = GobbleStonesState.from_snapshot(game, snap)
        assert twin.snapshot() == snap
        assert twin.position() == state.position()
        assert twin.legal_actions() == state.legal_actions()
        for player in (None, *range(game.num_players())):
            assert twin.view(player) == state.view(player)
        state.apply_action(rng.choice(state.legal_actions()))
    assert {Phase.BOARD, Phase.DEAL, Phase.PLAY} <= phases
    assert (Phase.CHALLENGE in phases) == game.bluff


def test_a_snapshot_is_frozen_and_the_phase_is_its_own_text():
    snap = parlour.load_game("gobblestones").new_initial_state().snapshot()
    assert isinstance(snap, Snapshot)
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.turn = 1  # type: ignore[misc]
    assert snap.phase is Phase.BOARD and snap.phase == "board"
