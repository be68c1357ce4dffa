"""Clobber's ``hard`` program: the compiled search plays legal moves, its proofs agree with the
exact solver, and ``hard`` plays a winning move wherever the solver proves one."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.agents import MCTSAgent, make_agent
from parlour.agents.clobber_search import ClobberSearchAgent, compiled
from parlour.analysis import ClobberSolver

needs_compiled = pytest.mark.skipif(
    not compiled(), reason="parlour was installed without a C compiler: no compiled search"
)


def random_position(game, seed: int, plies: int):
    """A position a few random moves from the start (or an earlier one if the game ends)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        actions = state.legal_actions()
        child = state.child(rng.choice(actions))
        if child.is_terminal():
            break
        state = child
    return state


def searcher(game, seed: int = 0, **options):
    from parlour.agents import _cclobber_search  # type: ignore[attr-defined]

    grid = game.grid
    return _cclobber_search.Search(
        grid.rows, grid.columns, seed=seed, cannibal=game.params["cannibal"], **options
    )


@needs_compiled
@pytest.mark.parametrize(
    "size, cannibal", [("5x6", False), ("6x6", False), ("4x7", False), ("8x8", False),
                       ("1x9", False), ("9x1", False), ("4x5", True)],
)
def test_the_compiled_search_returns_legal_moves(size, cannibal):
    game = parlour.load_game("clobber", size=size, cannibal=cannibal)
    search = searcher(game)
    for seed in range(12):
        state = random_position(game, seed, seed * 2)
        result = search.search(state.stones(0), state.stones(1), state.to_move, iterations=300)
        assert result["action"] in state.legal_actions()
        # every root child is a legal move, each exactly once
        assert sorted(kid[0] for kid in result["children"]) == sorted(state.legal_actions())


@needs_compiled
def test_the_tree_is_reused_along_a_game_and_every_move_is_legal():
    game = parlour.load_game("clobber", size="5x6")
    search = searcher(game, 3)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        result = search.search(state.stones(0), state.stones(1), state.to_move, iterations=500)
        state.apply_action(result["action"])  # raises on an illegal move
        if not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    "shape, expected",  # published outcomes (issue 7): N first-player win, P second-player win
    [((2, 3), "P"), ((2, 4), "N"), ((2, 6), "P"), ((3, 3), "N"), ((3, 4), "P"), ((1, 6), "P"),
     ((1, 8), "N")],
)
@needs_compiled
def test_its_proofs_of_start_positions_agree_with_the_published_outcomes(shape, expected):
    game = parlour.load_game("clobber", rows=shape[0], columns=shape[1])
    state = game.new_initial_state()
    result = searcher(game).search(state.stones(0), state.stones(1), 0, iterations=2_000_000)
    assert result["proven"] == (1 if expected == "N" else -1)


@needs_compiled
@pytest.mark.parametrize("size", ["3x4", "4x4", "2x7"])
def test_its_proofs_agree_with_the_solver_on_random_positions(size):
    game = parlour.load_game("clobber", size=size)
    solver = ClobberSolver(game)
    search = searcher(game, 1)
    checked = 0
    for seed in range(15):
        state = random_position(game, seed, 2 + seed % 5)
        result = search.search(
            state.stones(0), state.stones(1), state.to_move, iterations=300_000, reuse=False
        )
        if not result["proven"]:
            continue
        checked += 1
        assert result["proven"] == (1 if solver.mover_wins(state) else -1)
        for action, _visits, _wins, proven in result["children"]:
            if proven:  # a winning move (+1) leaves a position lost for the opponent
                assert solver.mover_wins(state.child(action)) == (proven < 0)
    assert checked >= 10


@needs_compiled
def test_playouts_count_wins_of_the_side_to_move():
    game = parlour.load_game("clobber", position="ox.. o")  # White takes and Black is stuck
    state = game.new_initial_state()
    search = searcher(game)
    assert search.playouts(state.stones(0), state.stones(1), 0, 100) == 100
    assert search.playouts(state.stones(0), state.stones(1), 1, 100) == 100  # Black: one move


@needs_compiled
def test_bad_input_is_refused():
    from parlour.agents import _cclobber_search  # type: ignore[attr-defined]

    with pytest.raises(ValueError, match="at most 64 squares"):
        _cclobber_search.Search(9, 9)
    search = _cclobber_search.Search(2, 3)
    with pytest.raises(ValueError, match="bad position"):
        search.search(1, 1, 0, iterations=10)
    with pytest.raises(ValueError, match="game is over"):
        search.search(0b1, 0b100, 0, iterations=10)
    with pytest.raises(ValueError, match="time_limit or a number of iterations"):
        search.search(0b1, 0b10, 0)


@pytest.mark.parametrize("seed", range(8))
def test_hard_plays_a_winning_move_wherever_the_solver_proves_one(seed):
    game = parlour.load_game("clobber", size="4x5")
    solver = ClobberSolver(game)
    state = random_position(game, seed, 6 + seed % 4)
    solution = solver.solve(state, all_moves=True)
    if not solution.winning_actions:  # lost for the mover: look one move on
        state = state.child(state.legal_actions()[0])
        solution = solver.solve(state, all_moves=True)
    assert solution.winning_actions, "one side of two consecutive positions wins"
    hard = make_agent("hard:time=1", game, seed)
    assert hard.step(state) in solution.winning_actions


def test_hard_wins_the_won_start_position_of_3x5_against_random():
    game = parlour.load_game("clobber", size="3x5")  # a first-player win (published)
    for seed in range(3):
        players = [make_agent("hard:time=0.2", game, seed), make_agent("random", game, seed)]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].step(state))
        assert state.returns() == [1.0, -1.0]


def test_iteration_budgets_reproduce_from_the_seed():
    game = parlour.load_game("clobber", size="5x6")
    state = random_position(game, 5, 4)
    moves = {make_agent("hard:iterations=2000", game, 9).step(state) for _ in range(3)}
    assert len(moves) == 1


def test_hard_is_clobber_search_in_clobber_and_mcts_elsewhere():
    assert isinstance(make_agent("hard", parlour.load_game("clobber"), 0), ClobberSearchAgent)
    assert isinstance(make_agent("hard", parlour.load_game("stomple"), 0), MCTSAgent)
    with pytest.raises(ValueError, match="plays only clobber"):
        make_agent("clobber-search", parlour.load_game("stomple"), 0)


def test_boards_beyond_64_squares_search_with_mcts():
    game = parlour.load_game("clobber", size="10x10")
    agent = make_agent("hard:time=0.3", game, 0)
    state = game.new_initial_state()
    assert agent.step(state) in state.legal_actions()
    assert agent.last_search["by"] == "mcts"


def test_graph_boards_search_with_mcts():
    game = parlour.load_game("clobber", graph="a-b b-c c-d d-e", position="oxoxo o")
    agent = make_agent("hard:time=0.2", game, 0)
    state = game.new_initial_state()
    assert agent.step(state) in state.legal_actions()
    assert agent.last_search["by"] == "mcts"
