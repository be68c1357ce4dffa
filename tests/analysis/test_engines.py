"""Building and choosing the engines: the compiled one from source, the Python fallback."""

from __future__ import annotations

import pytest

import parlour
from parlour.analysis import ClobberSolver, cengine

from .reference import winning_moves


def test_the_c_source_compiles_with_the_plain_compiler_too(tmp_path):
    """Without setuptools the engine is built with the compiler Python was built with."""
    module = cengine.load_from(cengine._compile_directly(tmp_path))
    engine = module.Engine(tt_bits=12)
    assert engine.win([(1, 3, 0b011, 0b100)]) == 1  # xxo seen by x: up, x wins moving first
    assert engine.win([(1, 3, 0b100, 0b011)]) == 0  # the same seen by o, to move: o loses


def test_without_the_compiled_engine_python_takes_over(monkeypatch):
    monkeypatch.setattr(cengine, "load", lambda: None)
    game = parlour.load_game("clobber", size="2x4")
    solver = ClobberSolver(game)  # type: ignore[arg-type]
    assert solver.engine_name == "python" and solver.c_engine is None
    assert solver.solve(game.new_initial_state()).winner == "o"


SNAKE = (
    "xxoxxxoxxo/x........./xxxxxxxxxx/.........x/xxxxoxxxxx/"
    "x........./xxxxxxxxxx/.........x/xxxxxxxxxo/o........."
)


@pytest.mark.parametrize("side", ["o", "x"])
def test_regions_too_wide_for_the_compiled_engine_use_python(side, cmodule):
    """A snake winding over a 10x10 board is one region with a 100-cell box: more than the
    compiled engine's 64, so the Python engine solves it, still exactly."""
    game = parlour.load_game("clobber", position=f"{SNAKE} {side}")
    solver = ClobberSolver(game, engine="c", engine_module=cmodule)  # type: ignore[arg-type]
    state = game.new_initial_state()
    assert any(h * w > 64 for h, w, _a, _b in solver.regions(state))
    before = solver.py_engine.nodes
    solution = solver.solve(state, all_moves=True)
    assert solver.py_engine.nodes > before  # the Python engine did the work
    assert sorted(solution.winning_moves) == winning_moves(state)


def test_engines_mapping_one_shared_table_find_each_others_proofs(tmp_path, cmodule):
    """``shared_table``: the transposition table (and the pattern history) as a shared mapping
    of one file; a second engine on the same file answers what the first proved in one node,
    while an engine of its own searches again, and all three give the same answer."""
    game = parlour.load_game("clobber", size="3x7")
    state = game.new_initial_state()
    path = str(tmp_path / "table")
    first, second = (ClobberSolver(game, engine_module=cmodule, tt_bits=18,
                                   c_options={"shared_table": path}) for _ in range(2))
    alone = ClobberSolver(game, engine_module=cmodule, tt_bits=18)
    assert first.c_engine.shared and not alone.c_engine.shared
    assert first.mover_wins(state) is second.mover_wins(state) is alone.mover_wins(state) is True
    assert second.nodes == 1 and alone.nodes == first.nodes > 1000
    with pytest.raises(OSError):
        ClobberSolver(game, engine_module=cmodule, tt_bits=18,
                      c_options={"shared_table": str(tmp_path / "no" / "such" / "folder")})
