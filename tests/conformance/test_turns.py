"""Turns of several actions: ``State.turn_in_progress`` says when the next action belongs to
the same turn. The web table previews only turns in progress and stores a turn whole once it
ends, so a wrong answer here would let a preview show what only a stored move may reveal."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.core import CHANCE_PLAYER
from parlour.games import conformance_configs

CASES = conformance_configs()
IDS = [f"{name}-{i}" for i, (name, _config) in enumerate(CASES)]


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_a_turn_in_progress_belongs_to_the_player_who_started_it(name, config):
    game = parlour.load_game(name, **config)
    rng = random.Random(7)
    for _ in range(4):
        state = game.new_initial_state()
        last_mover = None
        while not state.is_terminal():
            if state.turn_in_progress():
                assert state.current_player() >= 0
                assert state.current_player() == last_mover
            player = state.current_player()
            if player == CHANCE_PLAYER:
                action = state.sample_chance_outcome(rng)
            else:
                action = rng.choice(state.legal_actions())
                last_mover = player
            state.apply_action(action)
        assert not state.turn_in_progress()


def _turn_lengths(name: str, config: dict, games: int = 4) -> set[int]:
    """How many actions the players' turns took in random games (chance draws between the
    actions of one turn do not end it)."""
    game = parlour.load_game(name, **config)
    rng = random.Random(11)
    lengths: set[int] = set()
    for _ in range(games):
        state = game.new_initial_state()
        run = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance_outcome(rng))
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            run += 1
            while state.is_chance_node():
                state.apply_action(state.sample_chance_outcome(rng))
            if not state.turn_in_progress():
                lengths.add(run)
                run = 0
    return lengths


def test_clobber_moves_are_whole_turns():
    assert _turn_lengths("clobber", {}) == {1}


def test_a_gobblestones_play_of_several_tiles_is_one_turn():
    # B4: a play lays up to five tiles, then ends: several actions, one turn
    assert max(_turn_lengths("gobblestones", {})) > 2


def test_a_stomple_string_is_one_turn():
    # S7: a string is several stomps of the same turn
    assert max(_turn_lengths("stomple", {"players": 2}, games=6)) > 1


def test_a_stomp_the_plank_turn_is_its_draws_and_the_stop():
    # P3: draw at least once, then draw again or stop: one turn
    assert max(_turn_lengths("stomp-the-plank", {})) > 1


def test_a_bluff_decision_ends_the_deciders_turn():
    # B9: in a two-player bluffing game the decider is also the next to play; the decision is
    # a turn of its own, so it is stored (and its outcome shown) only as a whole turn.
    game = parlour.load_game("gobblestones", bluff=True)
    rng = random.Random(3)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 6:
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
            continue
        legal = state.legal_actions()
        if game.CHALLENGE in legal:
            state.apply_action(game.CHALLENGE if decisions % 2 == 0 else game.TRUST)
            decisions += 1
            assert not state.turn_in_progress()
            continue
        state.apply_action(rng.choice([a for a in legal if a != game.PASS] or legal))
    assert decisions == 6
