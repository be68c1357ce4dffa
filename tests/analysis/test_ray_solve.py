"""Solving on Ray (``parlour.analysis.distributed``): the local solver's answers, cancellation.

One local Ray instance of two CPUs is shared by the tests of this module (starting Ray costs
several seconds); each test starts its two workers on it and stops them. The first test runs
the command line on its own instance, which it must shut down again.
"""

from __future__ import annotations

import json
import logging
import random
import sys
import threading

import pytest
import ray  # the test extra installs it
from typer.testing import CliRunner

import parlour
from parlour.analysis import ClobberSolver, SolverTimeout, database
from parlour.analysis.distributed import (
    RayClobberSolver,
    SolverWorker,
    decide_sum,
    place_region,
)
from parlour.cli import app
from parlour.core.extras import MissingExtraError

from .reference import winning_moves

runner = CliRunner()


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):
    """Keep any on-disk region table of these runs out of the user's cache directory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))


def test_the_command_line_starts_ray_quietly_and_shuts_it_down(capfd):
    assert not ray.is_initialized()
    result = runner.invoke(
        app, ["solve", "clobber", "--size", "3x4", "--ray", "--workers", "2", "--all", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert not ray.is_initialized()  # the instance it started is gone
    data = json.loads(result.stdout)  # nothing but the JSON object on stdout
    state = parlour.load_game("clobber", size="3x4").new_initial_state()
    local = ClobberSolver(state.get_game()).solve(state, all_moves=True)  # type: ignore[arg-type]
    assert data["winner"] == local.winner == "x"  # 3x4: a second-player win
    assert data["winning_moves"] == []
    assert set(data) == set(local.as_dict()) | {
        "workers", "tasks", "cancelled", "stopped", "splits", "region_splits", "worker_nodes",
        "worker_seconds", "shared", "preempted",
    }
    assert data["shared"] is True  # the two workers share one table
    assert data["workers"] == 2 and len(data["worker_nodes"]) == 2
    assert data["nodes"] == sum(data["worker_nodes"]) > 0
    assert result.stderr == ""
    assert capfd.readouterr().err == ""  # no start-up notices, not even Ray's own C++ logs


@pytest.fixture(scope="module")
def ray_instance(tmp_path_factory):
    """Two CPUs; the workers' processes see a cache directory of their own (the path)."""
    cache = tmp_path_factory.mktemp("ray-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(cache))  # inherited by Ray's worker processes
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
    yield cache
    ray.shutdown()


def on_ray(game, **options) -> RayClobberSolver:
    return RayClobberSolver(game, workers=2, **options)


def local_answer(state):
    return ClobberSolver(state.get_game()).solve(state, all_moves=True)


@pytest.mark.parametrize(
    "size, winner",
    # published outcomes (see test_published_outcomes.py): 2xn is a second-player win (x)
    # exactly when 3 divides n, 3xn exactly when n is even; 4x4 and 4x5 are first-player wins
    [("2x6", "x"), ("2x8", "o"), ("3x4", "x"), ("3x5", "o"), ("3x6", "x"), ("4x4", "o"),
     ("4x5", "o")],
)
def test_alternating_boards_get_the_local_solvers_answers(size, winner, ray_instance):
    game = parlour.load_game("clobber", size=size)
    state = game.new_initial_state()
    local = local_answer(state)
    assert local.winner == winner
    with on_ray(game) as solver:
        every = solver.solve(state, all_moves=True).solution
        assert (every.winner, every.winning_moves) == (local.winner, local.winning_moves)
        one = solver.solve(state).solution
        assert one.winner == local.winner
        assert len(one.winning_moves) == (1 if local.winning_moves else 0)
        assert set(one.winning_moves) <= set(local.winning_moves)
        deep = solver.solve(state, all_moves=True, split_depth=3).solution  # many small tasks
        assert (deep.winner, deep.winning_moves) == (local.winner, local.winning_moves)


def random_position(rng: random.Random, rows: int, columns: int) -> str:
    ranks = [
        "".join(rng.choice("ox") if rng.random() < 0.7 else "." for _ in range(columns))
        for _ in range(rows)
    ]
    return "/".join(ranks) + " " + rng.choice("ox")


def test_positions_of_many_regions_split_into_regions_agree(ray_instance):
    """Split three moves deep, sub-positions of several regions are solved region by region."""
    game = parlour.load_game("clobber", rows=4, columns=5)
    rng = random.Random(7)
    region_splits = 0
    with on_ray(game) as solver:
        for _ in range(12):
            text = random_position(rng, 4, 5)
            state = game.state_from_position(text)
            found = solver.solve(state, all_moves=True, split_depth=3)
            assert sorted(found.solution.winning_moves) == winning_moves(state), text
            region_splits += found.stats.region_splits
    assert region_splits > 0


def test_graph_and_cannibal_positions_agree(ray_instance):
    for params in (
        {"graph": "a-b b-c c-d d-e b-e", "position": "xoxox x"},
        {"size": "2x4", "cannibal": True},
    ):
        game = parlour.load_game("clobber", **params)
        state = game.new_initial_state()
        with on_ray(game) as solver:
            found = solver.solve(state, all_moves=True, split_depth=2)
        assert sorted(found.solution.winning_moves) == winning_moves(state), params


def test_a_won_root_ends_the_solve_at_its_winning_move(ray_instance):
    """4x5: once a first move is proven to win, the solve ends with it (the tasks still
    running are cancelled; how many there are, and how many tasks ran, depends on the timing
    of two workers on a loaded machine: the eldest move's replies are tasks of their own, so
    even the finished tasks may outnumber the distinct first moves)."""
    game = parlour.load_game("clobber", size="4x5")
    state = game.new_initial_state()
    with on_ray(game) as solver:
        found = solver.solve(state)
    local = ClobberSolver(game).solve(state, all_moves=True)  # type: ignore[arg-type]
    assert found.solution.winner == local.winner == "o"
    assert len(found.solution.winning_moves) == 1  # it stopped at the first one proven
    assert found.solution.winning_moves[0] in local.winning_moves
    assert found.stats.stopped <= found.stats.cancelled  # only a cancelled search is cut short
    assert found.stats.tasks == len(found.stats.task_nodes)


def test_ray_cancel_interrupts_a_running_search(ray_instance):
    """A worker's search (a 5x6 first move: minutes) stops inside the engine when cancelled."""
    game = parlour.load_game("clobber", size="5x6")
    worker = (
        ray.remote(num_cpus=1)(SolverWorker)
        .options(allow_out_of_order_execution=True)  # as RayClobberSolver starts them
        .remote(dict(game.params), 20, "auto")
    )
    try:
        assert ray.get(worker.counts.remote())[:2] == (0, 0)  # nodes, stopped
        state = game.new_initial_state()
        task = worker.solve.remote(state.child(state.legal_actions()[0]).position(), 120.0)
        ready, _ = ray.wait([task], timeout=3.0)
        assert not ready  # still searching
        ray.cancel(task)
        with pytest.raises(ray.exceptions.TaskCancelledError):
            ray.get(task)
        nodes, stopped, _cpu = ray.get(worker.counts.remote())  # runs once the search ended
        assert stopped == 1 and nodes > 0  # ended by the cancellation, not the time limit
        # a task cancelled before it reaches the worker leaves no gap the worker waits on
        # (Ray actors run tasks in order unless told otherwise: the next call would fail)
        ray.cancel(worker.solve.remote(state.position(), 120.0))
        assert ray.get(worker.counts.remote())[1] in (1, 2)  # 2: it had started, and stopped
    finally:
        ray.kill(worker)


@pytest.mark.parametrize("share", [True, False])
def test_the_workers_of_a_machine_share_one_table(ray_instance, share):
    """What one worker proves, the other finds in the shared table at once (one node); with
    tables of their own each proves it again. The table's file name is gone once both have
    mapped it, so nothing is left behind in /dev/shm."""
    import glob
    import os

    game = parlour.load_game("clobber", size="3x6")
    position = game.new_initial_state().position()
    with on_ray(game, share_tables=share) as solver:
        assert solver.shared is share
        first, second = solver._actors
        wins, nodes = ray.get(first.solve.remote(position, None))
        again, nodes_again = ray.get(second.solve.remote(position, None))
        assert wins is again is False  # 3x6 is a second-player win
        assert nodes > 1000
        assert (nodes_again == 1) if share else (nodes_again == nodes)
        found = solver.solve(game.new_initial_state(), all_moves=True)
        assert found.stats.shared is share and found.solution.winner == "x"
        assert not glob.glob(f"/dev/shm/parlour-clobber-{os.getpid()}-*")


def test_the_time_limit_is_honoured_and_the_workers_stay_usable(ray_instance):
    game = parlour.load_game("clobber", size="5x6")
    with on_ray(game) as solver:
        with pytest.raises(SolverTimeout, match="time limit of 2 s"):
            solver.solve(game.new_initial_state(), time_limit=2.0)
        small = game.state_from_position("xo..../....../....../....../...... x")
        assert solver.solve(small).solution.winning_moves == ("a5b5",)


def test_the_command_line_on_a_running_instance(ray_instance):
    result = runner.invoke(
        app, ["solve", "clobber", "--size", "4x4", "--ray", "--workers", "2"]
    )
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert "White (o) to move wins with perfect play; a winning move:" in flat
    assert "by 2 Ray workers" in flat
    assert ray.is_initialized()  # an instance it did not start is left running


def test_the_workers_start_from_the_on_disk_region_table(ray_instance, monkeypatch):
    """One worker, so that both runs hand out the same tasks in the same order (searched:
    ``--no-records``, since the opening book knows 3x7's start)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(ray_instance))  # where the workers look
    args = ["solve", "clobber", "--size", "3x7", "--all", "--json", "--no-records"]
    table = database.cache_path(cannibal=False)
    assert not table.exists()
    cold = json.loads(runner.invoke(app, [*args, "--ray", "--workers", "1"]).stdout)
    assert runner.invoke(app, args).exit_code == 0  # the local solver saves its table
    saved = table.read_bytes()
    warm = json.loads(runner.invoke(app, [*args, "--ray", "--workers", "1"]).stdout)
    assert warm["winning_moves"] == cold["winning_moves"]
    assert warm["nodes"] < cold["nodes"]
    assert table.read_bytes() == saved  # read, never written by the workers


def test_more_workers_than_cpus_is_a_clear_error(ray_instance):
    result = runner.invoke(app, ["solve", "clobber", "--size", "3x3", "--ray", "--workers", "5"])
    assert result.exit_code == 2
    assert "5 workers need 5 CPUs" in " ".join(result.stderr.split())


def test_ray_options_need_ray():
    result = runner.invoke(app, ["solve", "clobber", "--size", "3x3", "--workers", "2"])
    assert result.exit_code == 2
    assert "go with --ray" in result.stderr


def test_without_ray_the_message_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if not installed
    game = parlour.load_game("clobber", size="3x3")
    with pytest.raises(MissingExtraError, match=r"pip install 'parlour\[ray\]'"):
        RayClobberSolver(game)
    result = runner.invoke(app, ["solve", "clobber", "--size", "3x3", "--ray"])
    assert result.exit_code == 2
    assert "from the 'ray' extra: pip install 'parlour[ray]'" in " ".join(result.stderr.split())


# -- the pieces, without Ray ----------------------------------------------------------------
def test_outcome_classes_decide_sums_only_when_they_must():
    """decide_sum against the solver: whenever it answers, the answer is the sum's."""
    game = parlour.load_game("clobber", rows=4, columns=5)
    solver = ClobberSolver(game)
    rng = random.Random(3)
    decided = 0
    for _ in range(150):
        state = game.state_from_position(random_position(rng, 4, 5))
        mover = state.to_move
        pairs = []
        for region in solver.regions(state):
            text = place_region(region, 4, 5, mover)
            assert text is not None
            alone = game.state_from_position(text)
            other = game.state_from_position(text[:-1] + "ox"[1 - mover])
            pairs.append((solver.mover_wins(alone), not solver.mover_wins(other)))
        verdict = decide_sum(pairs)
        if verdict is not None:
            decided += 1
            assert verdict == solver.mover_wins(state), state.position()
    assert decided > 50


def test_a_worker_off_the_main_thread_checks_for_cancellation_in_progress_calls():
    """Only the main thread may take signals: elsewhere the solver's progress calls check."""
    game = parlour.load_game("clobber", size="3x4")
    out = {}

    def run() -> None:
        worker = SolverWorker(dict(game.params), 16, "auto")
        out["alarm"] = worker._alarm
        out["answer"] = worker.solve(game.new_initial_state().position(), None)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert out["alarm"] is False
    assert out["answer"][0] is False and out["answer"][1] > 0  # 3x4: the mover loses


def test_a_region_placed_alone_keeps_its_stones():
    game = parlour.load_game("clobber", rows=2, columns=5)
    solver = ClobberSolver(game)
    state = game.state_from_position("x...o/o...x o")
    for region in solver.regions(state):  # 2x1 columns, possibly turned in normal form
        text = place_region(region, 2, 5, state.to_move)
        assert text is not None
        assert solver.regions(game.state_from_position(text)) == [region]


def test_a_sub_position_dropped_from_the_queue_is_queued_again_once_needed():
    """The driver's queue, without Ray: a queued sub-position nothing needs any more is dropped
    (its only parent was settled); when a transposition makes it needed again (another
    sub-position's move leads to it), it is queued again, not left marked as queued and never
    run (the search then ran out of tasks unsolved)."""
    from types import SimpleNamespace

    from parlour.analysis.ray_search import Search
    from parlour.analysis.ray_tree import Node

    state = parlour.load_game("clobber", size="2x2").new_initial_state()
    owner = SimpleNamespace(_ray=None, _actors=[], key=lambda s: ("root",))
    search = Search(owner, state, False, None, None)  # type: ignore[arg-type]
    first, second, shared = (Node(state, (name,)) for name in ("first", "second", "shared"))
    search.root.children = [first, second]
    first.parents, second.parents = [search.root], [search.root]
    first.children, shared.parents = [shared], [first]
    search._enqueue([shared, second])
    first.value = False  # settled by another task: ``shared`` is needed no more
    assert search._next() is second and not shared.queued and not search.queue
    second.children, shared.parents = [shared], [first, second]  # a transposition
    assert search._orphans() and list(search.queue) == [shared]
