"""One Ray worker of a distributed Clobber solve: :class:`SolverWorker`, a Ray actor.

A worker keeps one :class:`~parlour.analysis.ClobberSolver` for the whole solve (its tables
persist from one task to the next) and answers one task at a time; the driver
(:mod:`parlour.analysis.ray_search`) cancels a task no open proof needs, and the worker's
search notices within :data:`CANCEL_CHECK` seconds. Ray pickles this class by reference, so
every machine of a cluster imports it from here.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import time
import uuid
from typing import Any

from parlour.analysis.solver import ClobberSolver, SolverTimeout
from parlour.games.clobber import ClobberGame

WORKER_TT_BITS = 24
"""Each worker's transposition table: 2^24 entries of 16 bytes (256 MB at most)."""
CANCEL_CHECK = 0.25
"""How often (seconds) a worker's search looks at its task's cancellation flag."""


class _Cancelled(Exception):
    """Raised inside a worker's search once the driver has cancelled its task."""


class SolverWorker:
    """One Ray actor: a solver for one game configuration, its tables kept between tasks.

    A task is one call of :meth:`ClobberSolver.mover_wins`, the very search the local solver
    runs for each move it tries. To stop it when its task is cancelled, an interval timer
    (SIGALRM, every :data:`CANCEL_CHECK` seconds) looks at Ray's cancellation flag; the
    engines handle signals during the search (the compiled one every 2^18 nodes), so the
    handler's exception ends the search without storing anything half-searched.
    """

    def __init__(
        self,
        params: dict[str, Any],
        tt_bits: int,
        engine: str,
        disk_cache: bool = False,
        shared_table: str | None = None,
    ) -> None:
        import parlour

        game = parlour.load_game("clobber", **params)
        assert isinstance(game, ClobberGame)
        self.game = game
        self.shared_table = shared_table
        options = {"shared_table": shared_table} if shared_table else None
        # the on-disk region table is read, never written: workers only call mover_wins
        self.solver = ClobberSolver(game, engine=engine, tt_bits=tt_bits, disk_cache=disk_cache,
                                    c_options=options)
        self.stopped = 0  # tasks whose search a ray.cancel interrupted
        self._searching = False
        try:
            # installed for good: a late alarm after a search finds the handler, never the
            # default action (which would end the process)
            signal.signal(signal.SIGALRM, self._on_alarm)
            self._alarm = True
        except ValueError:  # not the main thread: the progress calls check instead
            self._alarm = False

    def solve(self, position: str, time_limit: float | None) -> tuple[bool | None, int]:
        """Whether the side to move wins ``position`` (``None``: out of time or cancelled)."""
        state = self.game.state_from_position(position)
        before = self.solver.nodes
        self._searching = True
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, CANCEL_CHECK, CANCEL_CHECK)
        try:
            if self._alarm:
                wins: bool | None = self.solver.mover_wins(state, time_limit)
            else:
                wins = self.solver.solve(
                    state, time_limit=time_limit, progress=self._on_progress
                ).mover_wins
        except SolverTimeout:
            wins = None
        except _Cancelled:
            wins = None
            self.stopped += 1
        finally:
            if self._alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
            self._searching = False
        return wins, self.solver.nodes - before

    def shares(self) -> bool:
        """Whether this worker's transposition table is the machine's shared one."""
        return self.solver.c_engine is not None and bool(self.solver.c_engine.shared)

    def forget_table_name(self) -> None:
        """Remove the shared table's file name: the workers that mapped it keep the table,
        and the memory goes back to the machine when the last of them stops."""
        if self.shared_table:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.shared_table)

    def counts(self) -> tuple[int, int, float]:
        """Search nodes so far, searches a cancellation stopped, and CPU seconds (once idle)."""
        return self.solver.nodes, self.stopped, time.process_time()

    def _on_alarm(self, _signum: int, _frame: Any) -> None:
        if self._searching and _cancelled():
            self._searching = False
            raise _Cancelled

    def _on_progress(self, _nodes: int, _seconds: float) -> None:
        if _cancelled():
            raise _Cancelled


def _cancelled() -> bool:
    """Whether ``ray.cancel`` was called on the running task."""
    import ray

    is_canceled = getattr(ray.get_runtime_context(), "is_canceled", None)  # Ray >= 2.44
    return bool(is_canceled is not None and is_canceled())

def shared_table_path() -> str:
    """A fresh name for a shared table: in ``/dev/shm`` (memory) when the machine has it."""
    folder = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else (
        tempfile.gettempdir())
    return os.path.join(folder, f"parlour-clobber-{os.getpid()}-{uuid.uuid4().hex}.tt")
