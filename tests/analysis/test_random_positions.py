"""Random small positions: the solver against a plain exhaustive search of the game's rules.

Covers grids (C1-C6), graphs (C7) and Cannibal Clobber (C8), both engines, one winning move
and every winning move.
"""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.analysis import ClobberSolver
from parlour.games.clobber import ClobberState

from .reference import mover_wins, winning_moves


def random_grid_position(rng: random.Random, max_cells: int = 12) -> tuple[int, int, str]:
    while True:
        rows, columns = rng.randint(1, 4), rng.randint(2, 5)
        if rows * columns <= max_cells:
            break
    fill = rng.choice([0.6, 0.8, 1.0])
    ranks = [
        "".join(rng.choice("ox") if rng.random() < fill else "." for _ in range(columns))
        for _ in range(rows)
    ]
    return rows, columns, "/".join(ranks) + " " + rng.choice("ox")


def grid_state(text: str, cannibal: bool = False) -> ClobberState:
    game = parlour.load_game("clobber", position=text, cannibal=cannibal)
    return game.new_initial_state()  # type: ignore[return-value]


@pytest.mark.parametrize("seed", range(8))
def test_grid_positions_match_exhaustive_search(seed, engine_options):
    rng = random.Random(seed)
    for _ in range(25):
        _rows, _cols, text = random_grid_position(rng)
        state = grid_state(text)
        solver = ClobberSolver(state.get_game(), **engine_options)  # type: ignore[arg-type]
        solution = solver.solve(state, all_moves=True)
        expected = winning_moves(state)
        assert sorted(solution.winning_moves) == expected, text
        assert solution.mover_wins == bool(expected), text
        assert solver.mover_wins(state) == mover_wins(state), text


@pytest.mark.parametrize("seed", range(4))
def test_cannibal_positions_match_exhaustive_search_c8(seed, engine_options):
    rng = random.Random(100 + seed)
    for _ in range(20):
        _rows, _cols, text = random_grid_position(rng, max_cells=9)
        state = grid_state(text, cannibal=True)
        solver = ClobberSolver(state.get_game(), **engine_options)  # type: ignore[arg-type]
        solution = solver.solve(state, all_moves=True)
        assert sorted(solution.winning_moves) == winning_moves(state), text


def random_graph(rng: random.Random) -> tuple[str, str]:
    nodes = [f"n{i}" for i in range(rng.randint(3, 10))]
    edges = {tuple(sorted(rng.sample(nodes, 2))) for _ in range(rng.randint(2, 14))}
    spec = " ".join(f"{a}-{b}" for a, b in sorted(edges))
    used = list(dict.fromkeys(n for e in sorted(edges) for n in e))
    spec += "".join(f" {n}" for n in nodes if n not in used)
    return spec, "".join(rng.choice("ox.") for _ in nodes) + " " + rng.choice("ox")


@pytest.mark.parametrize("cannibal", [False, True])
def test_graph_positions_match_exhaustive_search_c7(cannibal):
    rng = random.Random(7 + cannibal)
    for _ in range(60):
        spec, text = random_graph(rng)
        game = parlour.load_game("clobber", graph=spec, position=text, cannibal=cannibal)
        state = game.new_initial_state()
        solution = ClobberSolver(game).solve(state, all_moves=True)  # type: ignore[arg-type]
        assert sorted(solution.winning_moves) == winning_moves(state), (spec, text)


def test_regions_far_apart_on_a_big_board_are_solved_as_a_sum(engine_options):
    """Three copies of the same regions spread over a 10x10 board: xo + xo cancel, xxo = up."""
    ranks = ["." * 10 for _ in range(10)]
    ranks[0] = "xo........"
    ranks[3] = "....xo...."
    ranks[6] = "xxo......."
    ranks[9] = ".......oxo"
    state = grid_state("/".join(ranks) + " o")
    solver = ClobberSolver(state.get_game(), **engine_options)  # type: ignore[arg-type]
    solution = solver.solve(state, all_moves=True)
    # * + * + up + * = up*, fuzzy: White (o) to move wins, exactly as the exhaustive search says.
    assert sorted(solution.winning_moves) == winning_moves(state)
    assert solution.winner == "o"


def test_a_finished_position_is_lost_for_the_side_to_move(engine_options):
    state = grid_state("xx../..oo x")
    solution = ClobberSolver(state.get_game(), **engine_options).solve(state)  # type: ignore[arg-type]
    assert solution.winner == "o" and solution.winning_moves == ()


@pytest.mark.parametrize("seed", range(3))
def test_larger_sparse_positions_engines_and_settings_agree(seed, cmodule):
    """4x6 boards about half full: compiled engine (tiny table, no region table) vs Python."""
    rng = random.Random(1000 + seed)
    for _ in range(4):
        ranks = ["".join(rng.choice("ox") if rng.random() < 0.55 else "." for _ in range(6))
                 for _ in range(4)]
        state = grid_state("/".join(ranks) + " " + rng.choice("ox"))
        game = state.get_game()
        results = {
            ClobberSolver(game, **options).solve(state, all_moves=True).winning_moves  # type: ignore[arg-type]
            for options in (
                {"engine": "python"},
                {"engine": "c", "engine_module": cmodule, "tt_bits": 10, "db_max_stones": 0},
                {"engine": "c", "engine_module": cmodule, "tt_bits": 16, "db_max_stones": 20},
            )
        }
        assert len(results) == 1, state.position()


@pytest.mark.parametrize("size", ["3x4", "4x4", "2x9", "3x6", "4x5", "5x3", "1x12"])
def test_fast_normal_forms_equal_the_reference_tables(size, cmodule):
    """The 8x8 bit-trick normal forms must be exactly the permutation-table ones: then both
    searches visit the very same nodes."""
    game = parlour.load_game("clobber", size=size)
    runs = []
    for slow in (False, True):
        solver = ClobberSolver(
            game, engine="c", engine_module=cmodule, tt_bits=18, c_options={"slow_path": slow}
        )
        runs.append((solver.solve(game.new_initial_state(), all_moves=True), solver.nodes))
    (fast, fast_nodes), (slow, slow_nodes) = runs
    assert fast.winning_moves == slow.winning_moves and fast_nodes == slow_nodes


def test_random_regions_fast_and_reference_normal_forms_agree(cmodule):
    rng = random.Random(5)
    for _ in range(40):
        ranks = ["".join(rng.choice("ox..") for _ in range(7)) for _ in range(6)]
        state = grid_state("/".join(ranks) + " x")
        game = state.get_game()
        runs = [
            ClobberSolver(
                game,  # type: ignore[arg-type]
                engine="c",
                engine_module=cmodule,
                tt_bits=14,
                c_options={"slow_path": slow},
            ).solve(state, all_moves=True)
            for slow in (False, True)
        ]
        assert len({(run.winning_moves, run.nodes) for run in runs}) == 1, state.position()
