"""The Python entry points: ``parlour.analysis.solve``, shared solvers, solutions as JSON."""

from __future__ import annotations

import json

import pytest

import parlour
from parlour.analysis import ClobberSolver, Solution, solve, solver_for
from parlour.analysis.cgt import UP, position_value, total

from .reference import winning_moves


def test_solve_a_state_directly():
    game = parlour.load_game("clobber", size="2x4")
    state = game.new_initial_state()
    solution = solve(state, all_moves=True)
    assert isinstance(solution, Solution)
    assert solution.to_move == "o" and solution.winner == "o" and solution.mover_wins
    assert sorted(solution.winning_moves) == winning_moves(state)
    assert [state.action_to_string(a) for a in solution.winning_actions] == list(
        solution.winning_moves
    )
    assert json.loads(json.dumps(solution.as_dict()))["winning_moves"] == list(
        solution.winning_moves
    )


def test_shared_solvers_are_reused_per_configuration():
    game = parlour.load_game("clobber", size="3x4")
    assert solver_for(game) is solver_for(parlour.load_game("clobber", rows=3, columns=4))
    assert solver_for(game, engine="python") is not solver_for(game)


def test_outcome_classes_of_boards():
    for size, expected in [("1x5", "x"), ("2x3", "P"), ("3x3", "N")]:
        game = parlour.load_game("clobber", size=size)
        assert ClobberSolver(game).outcome(game.new_initial_state()) == expected


def test_only_clobber_states_are_solved():
    with pytest.raises(TypeError):
        ClobberSolver(parlour.load_game("clobber")).solve("xo o")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="engine"):
        ClobberSolver(parlour.load_game("clobber"), engine="fast")


def test_position_value_is_the_sum_of_region_values():
    game = parlour.load_game("clobber", position="xxo../...../xo.xo x")
    # up + * + * = up: Black (Left) wins whoever starts.
    assert position_value(game.new_initial_state()) is total([UP])
    solver = ClobberSolver(game)  # type: ignore[arg-type]
    assert solver.outcome(game.new_initial_state()) == "x"
