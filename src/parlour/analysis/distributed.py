"""Solving one Clobber position on Ray workers: the search tree split into shared tasks.

The driver keeps a tree of sub-positions and a work queue; every worker is a Ray actor with
its own :class:`~parlour.analysis.ClobberSolver`, whose tables persist from one task to the
next. A task solves one sub-position exactly ("does the side to move win?") with the same
search as ``parlour solve`` on one machine.

How the work splits:

* the root is split at once: each of its moves is a task (moves leaving the opponent the
  fewest replies first, the local solver's order);
* when a worker is idle and the queue is empty, the longest-running unsplit task is split
  too (it keeps running): a sub-position of several regions into its regions, each solved
  with either side to move, which decide it when their outcome classes do (see
  :func:`decide_sum`); else into its moves (the root's grandchildren, then deeper), queued
  last move first since the running task tries them first to last;
* positions are keyed by their regions in normal form, so transposed and mirrored
  sub-positions are solved once, and every proven value is shared by the whole tree.

A value proven anywhere is propagated up at once (a sub-position is won as soon as one of its
moves leads to a lost position, and lost once all its moves lead to won ones); every task
that no open proof needs any more is stopped with ``ray.cancel`` (the worker's search looks
at its cancellation flag four times a second). A root move proven winning ends the solve
unless every winning move is asked for. The answer is the local solver's: the same winner,
and the same winning moves with ``all_moves`` (without it, the first winning move proven,
which may be another winning move than the one the local solver tries first).

The modules: the workers are :mod:`parlour.analysis.ray_worker`, the tree of sub-positions
:mod:`parlour.analysis.ray_tree`, the driver's search of one solve and its answer
:mod:`parlour.analysis.ray_search`; this one starts the workers and runs the solves, and its
names are the ones to import.

Ray is the ``ray`` extra (``pip install 'parlour[ray]'``); without it
:class:`~parlour.core.extras.MissingExtraError` names it.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable
from typing import Any

from parlour.analysis.ray_search import (
    MAX_SPLIT_DEPTH,
    TASKS_PER_WORKER,
    RaySolution,
    RayStats,
    Search,
)
from parlour.analysis.ray_tree import SYMBOLS, decide_sum, ordered_actions, place_region
from parlour.analysis.ray_worker import (
    CANCEL_CHECK,
    WORKER_TT_BITS,
    SolverWorker,
    shared_table_path,
)
from parlour.analysis.solver import ClobberSolver
from parlour.core.extras import needs_extra
from parlour.games.clobber import ClobberGame, ClobberState

__all__ = [
    "CANCEL_CHECK",
    "MAX_SPLIT_DEPTH",
    "SYMBOLS",
    "TASKS_PER_WORKER",
    "WORKER_TT_BITS",
    "RayClobberSolver",
    "RaySolution",
    "RayStats",
    "SolverWorker",
    "decide_sum",
    "ordered_actions",
    "place_region",
    "shared_table_path",
    "solve_on_ray",
]


def _shape(game: Any) -> tuple[Any, ...]:
    """What a solver's tables depend on: the board (or graph) and the cannibal rule."""
    grid = game.grid
    shape = (grid.rows, grid.columns) if grid is not None else game.params["graph"]
    return (shape, bool(game.params["cannibal"]))


_QUIET_INIT: dict[str, Any] = {
    "include_dashboard": False,
    "log_to_driver": False,
    "logging_level": logging.ERROR,
}


class RayClobberSolver:
    """An exact solver for one Clobber configuration whose search runs on Ray workers.

    ``workers`` actors (one CPU each) are started on a local Ray instance (``workers`` CPUs,
    by default this machine's) or, with ``address``, on an existing cluster (by default one
    per CPU of the cluster; every node needs parlour installed). With ``share_tables`` (the
    default) the workers of one machine share one transposition table (``tt_bits``), a
    shared-memory mapping, so that what one proves the others find at once; a cluster's
    machines each have their own, and share proven sub-positions through the driver. A Ray
    instance this object started is shut down by :meth:`close`; one that was running already
    is left running.
    Use it as a context manager. With ``disk_cache`` each worker starts from the on-disk
    region table of its machine (see :mod:`parlour.analysis.database`), as the command line
    does, and leaves the file as it was.
    """

    def __init__(
        self,
        game: ClobberGame,
        *,
        workers: int | None = None,
        address: str | None = None,
        engine: str = "auto",
        tt_bits: int = WORKER_TT_BITS,
        disk_cache: bool = False,
        share_tables: bool = True,
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError("workers must be at least 1")
        if engine not in ("auto", "c", "python"):
            raise ValueError(f"engine must be auto, c or python, not {engine!r}")
        with needs_extra("ray", "solving on Ray"):
            import ray
        self._ray = ray
        self.game = game
        self._keys = ClobberSolver(game, engine="python")  # regions and keys only
        self._actors: list[Any] = []
        self._owns_ray = False
        self._table: str | None = None
        self.shared = False
        if not ray.is_initialized():
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage-statistics notice
            if address:
                ray.init(address=address, **_QUIET_INIT)
            else:
                ray.init(num_cpus=workers or os.cpu_count() or 1, **_QUIET_INIT)
            self._owns_ray = True
        try:
            cpus = int(ray.cluster_resources().get("CPU", 0))
            if workers is None:
                workers = max(1, cpus)
            elif workers > cpus:  # their actors would wait for CPUs for ever
                raise ValueError(
                    f"{workers} workers need {workers} CPUs; the Ray instance has {cpus}"
                )
            # Out of order: a task cancelled before it reached its actor must not leave the
            # actor waiting for it (the driver orders the work itself, one task per worker).
            actor = ray.remote(num_cpus=1)(SolverWorker).options(
                allow_out_of_order_execution=True
            )
            params = dict(game.params)
            table = shared_table_path() if share_tables and engine != "python" else None
            self._table = table
            self._actors = [
                actor.remote(params, tt_bits, engine, disk_cache, table) for _ in range(workers)
            ]
            # started, engine loaded, the table mapped by every worker: its name can go
            self.shared = all(ray.get([a.shares.remote() for a in self._actors]))
            ray.get([a.forget_table_name.remote() for a in self._actors])
        except BaseException:
            self.close()
            if self._table:  # a start that failed half-way leaves no file on this machine
                with contextlib.suppress(OSError):
                    os.unlink(self._table)
            raise

    @property
    def workers(self) -> int:
        return len(self._actors)

    def close(self) -> None:
        """Stop the workers (and the Ray instance, when this solver started it)."""
        ray = self._ray
        for actor in self._actors:
            ray.kill(actor)
        self._actors = []
        if self._owns_ray and ray.is_initialized():
            ray.shutdown()
        self._owns_ray = False

    def __enter__(self) -> RayClobberSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def key(self, state: ClobberState) -> tuple[Any, ...]:
        """Positions with equal keys have the same value for the side to move."""
        return ("sum", *sorted(self._keys.regions(state)))

    def solve(
        self,
        state: ClobberState,
        *,
        all_moves: bool = False,
        time_limit: float | None = None,
        progress: Callable[[int, float], Any] | None = None,
        split_depth: int | None = None,
    ) -> RaySolution:
        """Solve ``state`` on the workers: the local solver's answer, and what each did.

        ``progress(nodes, seconds)`` is called about four times a second with the nodes of
        the tasks finished so far. ``split_depth`` splits the tree that many moves deep before
        the first task (1: the root's moves); more gives many workers work at once, at the
        cost of searches the local solver would have cut off. By default the tree is split
        deeper where it has few distinct sub-positions: until there are
        :data:`TASKS_PER_WORKER` tasks for each worker, at most :data:`MAX_SPLIT_DEPTH` moves
        deep.
        """
        if not isinstance(state, ClobberState):
            raise TypeError(f"expected a Clobber state, got {type(state).__name__}")
        if not self._actors:
            raise RuntimeError("this solver is closed")
        if _shape(state.get_game()) != _shape(self.game):
            raise ValueError("the position is of another board or variant than this solver's")
        if split_depth is not None and split_depth < 1:
            raise ValueError("split_depth must be at least 1")
        return Search(self, state, all_moves, time_limit, progress).run(split_depth)


def solve_on_ray(
    state: ClobberState,
    *,
    all_moves: bool = False,
    time_limit: float | None = None,
    workers: int | None = None,
    address: str | None = None,
    progress: Callable[[int, float], Any] | None = None,
) -> RaySolution:
    """Solve ``state`` on Ray workers started for this one solve (see :class:`RayClobberSolver`)."""
    game = state.get_game()
    assert isinstance(game, ClobberGame)
    with RayClobberSolver(game, workers=workers, address=address) as solver:
        return solver.solve(state, all_moves=all_moves, time_limit=time_limit, progress=progress)
