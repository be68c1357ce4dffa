"""parlour.openspiel: every parlour game runs under OpenSpiel's own checks and algorithms."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import parlour
import parlour.openspiel as pos
from parlour.core import game_class

from .cases import CASES, IDS, random_step, shortest_case


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_openspiel_random_sim_test_passes(name: str, config: dict) -> None:
    """OpenSpiel's full-API check (with serialisation) on every configuration."""
    game = pos.load(name, **config)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_the_openspiel_game_is_the_parlour_game(name: str, config: dict) -> None:
    """Every parameter is declared; sizes, types and the game string carry the configuration."""
    game = pos.load(name, **config)
    reference = parlour.load_game(name, **config)
    assert game.parlour_game == reference
    assert set(game.get_type().parameter_specification) == set(game_class(name).parameters)
    assert game.get_type().short_name == pos.spiel_name(name)
    assert game.num_distinct_actions() == reference.num_distinct_actions()
    assert game.max_chance_outcomes() == reference.max_chance_outcomes()
    assert game.num_players() == reference.num_players()
    assert game.max_game_length() == reference.max_game_length()
    assert (game.min_utility(), game.max_utility()) == (
        reference.min_utility(), reference.max_utility()
    )
    assert tuple(game.observation_tensor_shape()) == reference.observation_tensor_shape()
    again = pyspiel.load_game(str(game))  # the game string round-trips, commas included
    assert again.parlour_game == reference
    assert pickle.loads(pickle.dumps(game)).parlour_game == reference


@pytest.mark.parametrize(
    "name", [n for n in parlour.list_games() if "position" in game_class(n).parameters]
)
def test_position_parameters_survive_openspiel_game_strings(name: str) -> None:
    """Position text full of ``=``, ``,`` and spaces goes through ``str(game)`` and back."""
    game = parlour.load_game(name)
    state, rng = game.new_initial_state(), random.Random(1)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(random_step(state, rng))
    position = state.position()
    spiel = pos.load(name, position=position)
    again = pyspiel.load_game(str(spiel))
    assert again.parlour_game == parlour.load_game(name, position=position)
    assert pos.unwrap(again.new_initial_state()).position() == position


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_openspiel_states_delegate_to_parlour_states(name: str, config: dict) -> None:
    """Along random games, what OpenSpiel reports is what the parlour state says."""
    game = pos.load(name, **config)
    rng = random.Random(5)
    state = game.new_initial_state()
    reference = game.parlour_game.new_initial_state()
    step = 0
    while True:
        assert state.current_player() == reference.current_player()
        assert state.is_terminal() == reference.is_terminal()
        assert state.returns() == reference.returns()
        assert state.legal_actions() == reference.legal_actions()
        if state.is_chance_node():
            assert state.chance_outcomes() == reference.chance_outcomes()
        if step < 10 or step % 10 == 0 or reference.is_terminal():  # views cost: sample them
            for p in range(game.num_players()):
                np.testing.assert_array_equal(
                    np.array(state.observation_tensor(p)),
                    reference.observation_tensor(p).ravel(),
                )
                assert state.observation_string(p) == reference.observation_string(p)
                assert state.information_state_string(p) == reference.information_state_string(p)
        if reference.is_terminal():
            break
        action = random_step(reference, rng)
        assert state.action_to_string(state.current_player(), action) == (
            reference.action_to_string(action, reference.current_player())
            if reference.is_player_node() else reference.action_to_string(action)
        )
        twin = state.clone()
        state.apply_action(action)
        reference.apply_action(action)
        assert pos.unwrap(twin).history() == reference.history()[:-1]  # clones are separate
        step += 1
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert pos.unwrap(restored).position() == reference.position()
    assert pos.unwrap(pickle.loads(pickle.dumps(state))).position() == reference.position()


@pytest.mark.parametrize("config", [{"rows": 5, "columns": 6}, {"rows": 3, "columns": 4},
                                    {"rows": 6, "columns": 7}, {"rows": 4, "columns": 4}], ids=str)
def test_parlour_clobber_in_openspiel_matches_openspiel_clobber(config: dict) -> None:
    """C2/C4: same action ids, move strings, tensors and returns as OpenSpiel's C++ clobber."""
    ours = pos.load("clobber", **config)
    theirs = pyspiel.load_game("clobber", config)
    rng = random.Random(2)
    for _ in range(5):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not b.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            assert a.current_player() == b.current_player()
            for p in (0, 1):
                assert a.observation_tensor(p) == b.observation_tensor(p)
            action = rng.choice(b.legal_actions())
            assert a.action_to_string(a.current_player(), action) == (
                b.action_to_string(b.current_player(), action)
            )
            a.apply_action(action)
            b.apply_action(action)
        assert a.is_terminal()
        assert a.returns() == b.returns()


def _solve(state: parlour.State) -> float:
    """Exact value of a small Clobber position for the player to move (+1 win, -1 loss)."""
    if state.is_terminal():
        return -1.0
    return max(-_solve(state.child(a)) for a in state.legal_actions())


def test_mcts_bot_finds_the_winning_move() -> None:
    """OpenSpiel's MCTSBot, solving through the adapter, picks a move exact search proves wins."""
    position = "oxo.x/xx.oo/.oxo. o"
    game = pos.load("clobber", position=position)
    reference = game.parlour_game.state_from_position(position)
    winning = {a for a in reference.legal_actions() if _solve(reference.child(a)) == -1.0}
    assert winning and winning != set(reference.legal_actions())  # the choice matters
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=2000, evaluator=mcts.RandomRolloutEvaluator(1),
        solve=True, random_state=np.random.RandomState(0),
    )
    state = game.new_initial_state(position)
    assert bot.step(state) in winning


@pytest.mark.parametrize("name", parlour.list_games())
def test_mcts_bot_plays_a_whole_game_of_every_game(name: str) -> None:
    """MCTSBot in seat 0, random bots elsewhere, through a whole game; the game replays in
    parlour (G-1) to the same end and returns."""
    config = shortest_case(name)
    game = pos.load(name, **config)
    bots = [mcts.MCTSBot(game, 2.0, 6, mcts.RandomRolloutEvaluator(1),
                         random_state=np.random.RandomState(0))]
    bots += [pyspiel.make_uniform_random_bot(p, p) for p in range(1, game.num_players())]
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_step(pos.unwrap(state), rng))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    replayed = parlour.load_game(name, **config).new_state_from_actions(state.history())
    assert replayed.is_terminal()
    assert replayed.position() == pos.unwrap(state).position()
    assert state.returns() == replayed.returns()
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())


def test_load_takes_parlour_keywords_and_refuses_unknown_ones() -> None:
    """Values convert as parlour converts them; unset and bad parameters are parlour's errors."""
    game = pos.load("clobber", cannibal="false", rows="3", columns=4)
    assert game.parlour_game == parlour.load_game("clobber", rows=3, columns=4)
    assert pyspiel.load_game("parlour_clobber", {"rows": 3, "columns": 4}).parlour_game == (
        game.parlour_game
    )
    with pytest.raises(parlour.InvalidParameterError, match="valid parameters"):
        pos.load("clobber", nope=1)
    with pytest.raises(parlour.InvalidParameterError, match="rows"):
        pos.load("clobber", rows="x")


@pytest.mark.parametrize(("name", "config"), CASES, ids=IDS)
def test_information_states_pass_openspiel_perfect_recall_algorithms(
    name: str, config: dict
) -> None:
    """Issue 19: OpenSpiel's outcome-sampling MCCFR keys its regret tables by information
    state and checks that every state of one information state has the same legal actions;
    OpenSpiel's observer for the information-state type gives one tensor size throughout.

    MCCFR recurses once per action, so long games are shortened here (40 turns; one Stomple
    round) to stay inside Python's recursion limit."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    shorter = {"max_turns": 40, "rounds": 1}
    for key, value in shorter.items():
        if key in game_class(name).parameters and key not in config:
            config = {**config, key: value}
    game = pos.load(name, **config)
    assert game.get_type().provides_information_state_string
    assert game.get_type().provides_information_state_tensor
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(0)
    for _ in range(3):
        solver.iteration()
    size = game.information_state_tensor_size()
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(40):
        if state.is_terminal():
            break
        if not state.is_chance_node():
            for p in range(game.num_players()):
                assert len(state.information_state_tensor(p)) == size
        state.apply_action(random_step(pos.unwrap(state), rng))


def test_cfr_solves_a_small_clobber_through_information_states() -> None:
    """Full-tree CFR (which needs perfect recall) on 1x5 Clobber reaches a Nash equilibrium."""
    from open_spiel.python.algorithms import cfr, exploitability

    game = pos.load("clobber", rows=1, columns=5)
    solver = cfr.CFRSolver(game)
    for _ in range(50):
        solver.evaluate_and_update_policy()
    assert exploitability.nash_conv(game, solver.average_policy()) < 0.05
