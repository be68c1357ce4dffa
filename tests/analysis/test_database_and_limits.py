"""The on-disk region table (rebuilt when missing or corrupt) and time limits (never a guess)."""

from __future__ import annotations

import pytest

import parlour
from parlour.analysis import ClobberSolver, SolverTimeout, database

BIG = {"c": "4x5", "python": "4x4"}
"""Boards that take each engine far longer than a millisecond (both first-player wins)."""


def board(size: str):
    game = parlour.load_game("clobber", size=size)
    return game, game.new_initial_state()


def test_region_table_is_saved_and_reused(tmp_path, engine_options):
    game, state = board("3x4")
    first = ClobberSolver(game, disk_cache=tmp_path, **engine_options)
    assert first.solve(state).winner == "x"
    path = database.cache_path(False, tmp_path)
    records = database.load(False, tmp_path)
    assert path.exists() and len(records) % database.RECORD_SIZE == 0 and records
    second = ClobberSolver(game, disk_cache=tmp_path, **engine_options)
    loaded = second.c_engine.db_size if second.c_engine else len(second.py_engine.outcomes)
    assert loaded == len(records) // database.RECORD_SIZE  # read back before any search
    assert second.solve(state).winner == "x"


def test_a_corrupt_table_is_discarded_and_rebuilt(tmp_path, engine_options):
    game, state = board("2x5")
    ClobberSolver(game, disk_cache=tmp_path, **engine_options).solve(state)
    path = database.cache_path(False, tmp_path)
    blob = bytearray(path.read_bytes())
    blob[20] ^= 0xFF
    path.write_bytes(bytes(blob))
    assert database.load(False, tmp_path) == b""  # checksum fails: discarded
    assert not path.exists()
    solution = ClobberSolver(game, disk_cache=tmp_path, **engine_options).solve(state)
    assert solution.winner == "o" and path.exists()  # 2x5 is a first-player win; rebuilt


def test_truncated_or_foreign_files_are_ignored(tmp_path):
    path = database.cache_path(False, tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a table")
    assert database.load(False, tmp_path) == b""
    assert database.load(True, tmp_path) == b""  # missing


def test_records_round_trip():
    table = {(1, 2, 0b01, 0b10): 3, (2, 3, 0b000111, 0b111000): 0}
    assert database.decode(database.encode(table)) == table


def test_time_limit_raises_and_stores_nothing_wrong(engine_options):
    game, state = board(BIG[engine_options["engine"]])
    solver = ClobberSolver(game, **engine_options)
    with pytest.raises(SolverTimeout, match="time limit"):
        solver.solve(state, time_limit=0.002)
    # The interrupted search left only sound entries behind: the answer is still right.
    assert solver.outcome(state) == "N"


def test_progress_is_reported_on_long_solves(cmodule):
    game, state = board("3x8")  # far more than a second of search on any machine
    seen: list[int] = []
    with pytest.raises(SolverTimeout):
        ClobberSolver(game, engine="c", engine_module=cmodule).solve(
            state, time_limit=1.0, progress=lambda nodes, seconds: seen.append(nodes)
        )
    assert seen and seen == sorted(seen)


def test_a_timeout_is_a_timeout_error_with_figures(engine_options):
    game, state = board(BIG[engine_options["engine"]])
    with pytest.raises(TimeoutError) as info:
        ClobberSolver(game, **engine_options).mover_wins(state, time_limit=1e-4)
    assert isinstance(info.value, SolverTimeout) and info.value.nodes >= 0
