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

Ray is the ``ray`` extra (``pip install 'parlour[ray]'``); without it
:class:`~parlour.core.extras.MissingExtraError` names it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import tempfile
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from parlour.analysis.solver import ClobberSolver, Solution, SolverTimeout
from parlour.core.extras import needs_extra
from parlour.games.clobber import ClobberGame, ClobberState

SYMBOLS = "ox"
WORKER_TT_BITS = 24
"""Each worker's transposition table: 2^24 entries of 16 bytes (256 MB at most)."""
TASKS_PER_WORKER = 2
"""Before the first task, the tree is split deeper while it has fewer distinct open
sub-positions than this many per worker..."""
MAX_SPLIT_DEPTH = 3
"""...but never deeper than this many moves."""
CANCEL_CHECK = 0.25
"""How often (seconds) a worker's search looks at its task's cancellation flag."""


@dataclass(frozen=True)
class RayStats:
    """What the workers did in one solve."""

    workers: int
    tasks: int
    """Tasks that ran to their end."""
    cancelled: int
    """Tasks cancelled (running or queued) because no open proof needed them any more..."""
    stopped: int
    """...of which running ones whose search the cancellation interrupted."""
    splits: int
    """Sub-positions below the root split into their moves or regions..."""
    region_splits: int
    """...of which into their regions."""
    worker_nodes: tuple[int, ...]
    """Search nodes per worker, cancelled work included."""
    worker_seconds: tuple[float, ...] = ()
    """CPU seconds per worker: on a machine shared with other work, the wall time of the solve
    is longer than the largest of these."""
    task_nodes: tuple[int, ...] = ()
    """Search nodes of each task that ran to its end, in the order they finished."""
    shared: bool = False
    """Whether the workers of each machine shared one transposition table."""
    preempted: int = 0
    """Speculative tasks stopped to give their worker a task an open proof surely needs."""


@dataclass(frozen=True)
class RaySolution:
    """A :class:`~parlour.analysis.Solution` found on Ray, and how the workers shared it."""

    solution: Solution
    stats: RayStats

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of ``parlour solve --ray --json``: the local one plus worker counts."""
        data = self.solution.as_dict()
        data.update(
            workers=self.stats.workers,
            tasks=self.stats.tasks,
            cancelled=self.stats.cancelled,
            stopped=self.stats.stopped,
            splits=self.stats.splits,
            region_splits=self.stats.region_splits,
            worker_nodes=list(self.stats.worker_nodes),
            worker_seconds=[round(t, 3) for t in self.stats.worker_seconds],
            shared=self.stats.shared,
            preempted=self.stats.preempted,
        )
        return data


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


def decide_sum(pairs: list[tuple[bool | None, bool | None]]) -> bool | None:
    """Whether the mover wins a sum of regions, from each region's outcome class alone.

    ``(first, second)`` per region: does the mover win it moving first, and when the opponent
    moves first. Second-player wins (P, ``(False, True)``) add nothing; one remaining region
    decides; regions all won by the same side whoever starts sum to a win for that side.
    Anything else (two first-player wins...) is not decided by outcome classes: ``None``.

    >>> decide_sum([(False, True), (True, False)])  # P + N: the mover wins
    True
    >>> decide_sum([(True, False), (True, False)]) is None  # N + N: could be either
    True
    """
    if any(first is None or second is None for first, second in pairs):
        return None
    rest = [(f, s) for f, s in pairs if (f, s) != (False, True)]
    if not rest:
        return False
    if len(rest) == 1:
        return bool(rest[0][0])
    if all(f and s for f, s in rest):
        return True
    if all(not f and not s for f, s in rest):
        return False
    return None


def place_region(
    region: tuple[int, int, int, int], rows: int, columns: int, mover: int
) -> str | None:
    """A grid region (``(h, w, a, b)``, ``a`` the mover's) alone on the board as position text.

    >>> place_region((1, 3, 0b101, 0b010), 2, 3, 1)
    'xox/... x'
    >>> place_region((3, 1, 0b001, 0b110), 2, 3, 0)  # 3x1 does not fit: turned back to 1x3
    'oxx/... o'
    """
    h, w, a, b = region
    cells = {(i // w, i % w): SYMBOLS[mover] for i in range(h * w) if (a >> i) & 1}
    cells.update({(i // w, i % w): SYMBOLS[1 - mover] for i in range(h * w) if (b >> i) & 1})
    if h > rows or w > columns:  # turned round in its normal form: turn it back
        cells = {(c, r): mark for (r, c), mark in cells.items()}
        h, w = w, h
        if h > rows or w > columns:
            return None
    ranks = ("".join(cells.get((r, c), ".") for c in range(columns)) for r in range(rows))
    return "/".join(ranks) + f" {SYMBOLS[mover]}"


# -- the tree of sub-positions ---------------------------------------------------------------
@dataclass(eq=False)
class _Node:
    """A sub-position, won when a move leads to a lost child (or its regions decide it)."""

    state: ClobberState
    key: tuple[Any, ...]
    parents: list[_Node] = field(default_factory=list)
    children: list[_Node] | None = None  # its moves, once split
    region_pairs: list[tuple[_Node, _Node]] | None = None  # each region: mover first, other
    value: bool | None = None  # does the side to move win
    ref: Any = None  # its running task
    worker: int = -1
    started: float = 0.0
    queued: bool = False
    depth: int = 0  # moves from the root (the fewest, over its parents)


def shared_table_path() -> str:
    """A fresh name for a shared table: in ``/dev/shm`` (memory) when the machine has it."""
    folder = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else (
        tempfile.gettempdir())
    return os.path.join(folder, f"parlour-clobber-{os.getpid()}-{uuid.uuid4().hex}.tt")


def ordered_actions(state: ClobberState) -> list[int]:
    """Moves leaving the opponent the fewest replies first (the local solver's order)."""
    return sorted(state.legal_actions(), key=lambda a: len(state.child(a).legal_actions()))


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
        return _Search(self, state, all_moves, time_limit, progress).run(split_depth)


class _Search:
    """The driver's side of one solve: the tree, the queue, and the workers' tasks."""

    def __init__(
        self,
        owner: RayClobberSolver,
        state: ClobberState,
        all_moves: bool,
        time_limit: float | None,
        progress: Callable[[int, float], Any] | None,
    ) -> None:
        self.owner = owner
        self.ray = owner._ray
        self.actors = owner._actors
        self.all_moves = all_moves
        self.time_limit = time_limit
        self.progress = progress
        self.started = time.monotonic()
        self.deadline = self.started + time_limit if time_limit else None
        self.nodes: dict[tuple[Any, ...], _Node] = {}
        self.queue: deque[_Node] = deque()
        self.running: dict[Any, _Node] = {}  # task -> its sub-position
        # worker -> its task, or after a cancellation a call that answers once it has stopped:
        # a worker gets one task at a time, so that no task ever waits in an actor's queue
        self.busy: dict[int, Any] = {}
        self.failures = 0
        self.tasks = self.cancelled = self.splits = self.region_splits = self.preempted = 0
        self.done_nodes = 0
        self.task_nodes: list[int] = []
        self.root = _Node(state, owner.key(state))
        self.nodes[self.root.key] = self.root
        self.root_moves: list[int] = []
        self.before: list[tuple[int, int, float]] = []

    # -- the tree ---------------------------------------------------------------------------
    def node(self, state: ClobberState, parent: _Node) -> _Node:
        key = self.owner.key(state)
        found = self.nodes.get(key)
        if found is None:
            found = self.nodes[key] = _Node(state, key, depth=parent.depth + 1)
            if key == ("sum",):
                found.value = False  # no move left: the side to move has lost
        found.depth = min(found.depth, parent.depth + 1)
        found.parents.append(parent)
        return found

    def split_moves(self, node: _Node) -> list[_Node]:
        actions = ordered_actions(node.state)
        node.children = [self.node(node.state.child(a), node) for a in actions]
        if node is self.root:
            self.root_moves = actions
        else:
            self.splits += 1
        self.update(node)
        return node.children

    def split_regions(self, node: _Node) -> list[_Node]:
        """Each region alone, with either side to move (grids, two regions or more)."""
        game = self.owner.game
        regions = self.owner._keys.regions(node.state)
        if game.grid is None or len(regions) < 2:
            return []
        mover = node.state.to_move
        placed = [place_region(r, game.grid.rows, game.grid.columns, mover) for r in regions]
        if any(text is None for text in placed):
            return []
        pairs = []
        for text in placed:
            assert text is not None
            first = game.state_from_position(text)
            second = game.state_from_position(text[:-1] + SYMBOLS[1 - mover])
            pairs.append((self.node(first, node), self.node(second, node)))
        node.region_pairs = pairs
        self.splits += 1
        self.region_splits += 1
        self.update(node)
        return [n for pair in pairs for n in pair]

    def update(self, node: _Node) -> None:
        """Settle ``node`` when its moves' or regions' values decide it (then its parents)."""
        if node.value is not None:
            return
        value: bool | None = None
        if node.children is not None:
            values = [c.value for c in node.children]
            if False in values:
                value = True
            elif all(v is True for v in values):
                value = False
        if value is None and node.region_pairs is not None:
            # the second of a pair has the opponent to move: the mover wins it when they lose
            value = decide_sum(
                [(a.value, None if b.value is None else not b.value) for a, b in node.region_pairs]
            )
        if value is not None:
            node.value = value
            for parent in node.parents:
                self.update(parent)

    def needed(self) -> set[_Node]:
        """The unsettled sub-positions an open proof still depends on."""
        out: set[_Node] = set()
        if self.finished():
            return out
        stack = [self.root]
        while stack:
            node = stack.pop()
            if node in out or (node.value is not None and node is not self.root):
                continue
            out.add(node)
            stack.extend(self._parts(node))
        return out

    @staticmethod
    def _parts(node: _Node) -> Iterator[_Node]:
        if node.children is not None:
            yield from node.children
        for a, b in node.region_pairs or ():
            yield a
            yield b

    def finished(self) -> bool:
        if self.all_moves:
            return all(c.value is not None for c in self.root.children or ())
        return self.root.value is not None

    # -- the workers --------------------------------------------------------------------------
    def run(self, split_depth: int | None) -> RaySolution:
        self.before = self._worker_counts()
        frontier = self.split_moves(self.root)
        depth = 1
        wanted = TASKS_PER_WORKER * len(self.actors)
        while (depth < split_depth if split_depth is not None else (
                depth < MAX_SPLIT_DEPTH and 0 < len(self._open(frontier)) < wanted)):
            deeper: list[_Node] = []
            for node in frontier:
                if node.value is None and node.children is None:
                    deeper += self.split_regions(node)
                    deeper += self.split_moves(node)
            frontier = deeper
            depth += 1
        leaves = self._open(frontier)
        if depth == 1 and len(self.actors) > 1 and leaves:
            # The eldest move, tried first, is the likely winner on a first-player win, and
            # its proof needs every reply refuted: the workers start on its replies.
            leaves[:1] = self.split_moves(leaves[0])
        self._enqueue(leaves)
        last_report = 0.0
        while not self.finished():
            now = time.monotonic()
            if self.deadline is not None and now >= self.deadline:
                self._stop_all()
                nodes = sum(c[0] for c in self._counts_since())
                raise SolverTimeout(self.time_limit or 0.0, nodes, now - self.started)
            self._assign()
            if not self.busy:
                raise RuntimeError("the distributed search ran out of tasks unsolved")  # a bug
            wait = 0.5 if self.deadline is None else max(0.0, min(0.5, self.deadline - now))
            ready, _ = self.ray.wait(list(self.busy.values()), num_returns=1, timeout=wait)
            for ref in ready:
                self._collect(ref)
            self._preempt()
            if self.progress is not None and now - last_report >= 0.25:
                last_report = now
                self.progress(self.done_nodes, now - self.started)
        self._stop_all()
        return self._answer(self._counts_since())

    @staticmethod
    def _open(frontier: list[_Node]) -> list[_Node]:
        """The distinct unsettled, unsplit sub-positions of ``frontier``, in its order."""
        return list(dict.fromkeys(n for n in frontier if n.children is None and n.value is None))

    def _counts_since(self) -> list[tuple[Any, ...]]:
        """Each worker's counts since this solve began (once its cancelled task stopped)."""
        return [
            tuple(b - a for a, b in zip(old, new, strict=True))
            for old, new in zip(self.before, self._worker_counts(), strict=True)
        ]

    def _enqueue(self, parts: list[_Node], *, first: bool = False) -> int:
        """Queue the parts nobody works on yet, in their order, at the end or ``first``."""
        fresh = [p for p in parts if p.value is None and p.ref is None and not p.queued]
        for part in fresh:
            part.queued = True
        if first:
            self.queue.extendleft(reversed(fresh))
        else:
            self.queue.extend(fresh)
        return len(fresh)

    def _assign(self) -> None:
        """Give every idle worker the next needed task, splitting running ones if none is left."""
        for worker in range(len(self.actors)):
            if worker in self.busy:
                continue
            node = self._next()
            if node is None and (self._split() or self._orphans()):
                node = self._next()
            if node is None:
                return
            remaining = None
            if self.deadline is not None:
                remaining = max(self.deadline - time.monotonic(), 1e-3)
            ref = self.actors[worker].solve.remote(node.state.position(), remaining)
            node.ref, node.worker, node.started = ref, worker, time.monotonic()
            self.running[ref] = node
            self.busy[worker] = ref

    def _next(self) -> _Node | None:
        """The next task: the first queued one that is needed and not speculative; else (a
        worker would idle) the speculative one nearest the root."""
        needed = self.needed()
        live = [n for n in self.queue if n in needed and n.ref is None]
        for dropped in set(self.queue).difference(live):
            # no longer queued: a transposition that makes it needed again queues it anew
            # (:meth:`_orphans`); left marked queued, it would never run again
            dropped.queued = False
        self.queue = deque(live)
        if not live:
            return None
        sure = [n for n in live if not self._speculative(n)]
        node = sure[0] if sure else min(live, key=lambda n: n.depth)
        self.queue.remove(node)
        node.queued = False
        return node

    @staticmethod
    def _speculative(node: _Node) -> bool:
        """Whether ``node`` waits for an elder brother ("young brothers wait"): a move of a
        split sub-position whose first move, the one the local solver would search first, is
        not settled yet. The first move often decides its parent alone (a refutation), and
        then its brothers are wasted work; once it is settled without deciding, they are
        needed."""
        waits = False
        for parent in node.parents:
            if parent.children is None or parent.value is not None:
                continue
            eldest = parent.children[0]
            if eldest is node or eldest.value is not None:
                return False
            waits = True
        return waits

    def _preempt(self) -> None:
        """With no worker idle and a needed, not speculative task waiting, stop the latest
        speculative task: its worker takes the sure one (what the stopped search proved is in
        the shared table, or its own), and the speculative one goes back to the queue."""
        if len(self.busy) < len(self.actors) or not self.queue:
            return
        needed = self.needed()
        if not any(n in needed and n.ref is None and not self._speculative(n)
                   for n in self.queue):
            return
        guesses = [n for n in self.running.values() if self._speculative(n)]
        if guesses:
            latest = max(guesses, key=lambda n: n.started)
            assert latest.ref is not None
            self._cancel(latest.ref)
            self.preempted += 1
            self._enqueue([latest])

    def _split(self) -> bool:
        """Split the longest-running unsplit task still needed; queue its parts first.

        Into its regions when it has several (its task goes on: the regions may decide it
        sooner), else into its moves: then its task is cancelled and its worker, whose tables
        keep what the stopped search proved, takes the first move while the others take the
        next ones, so that no move is searched twice.
        """
        needed = self.needed()
        candidates = sorted(
            (n for n in self.running.values() if n in needed and n.children is None),
            key=lambda n: n.started,
        )
        for node in candidates:
            if node.region_pairs is None:
                parts = self.split_regions(node)
                if self._enqueue(parts, first=True):
                    self._cancel_unneeded()
                    return True
            if node.value is None:
                parts = self.split_moves(node)
                if node.value is None and node.ref is not None:
                    self._cancel(node.ref)
                fresh = self._enqueue(parts, first=True)
                self._cancel_unneeded()
                if fresh:
                    return True
        return False

    def _orphans(self) -> bool:
        """Queue needed sub-positions nothing is working on (their task was cancelled while
        no open proof needed them, and a transposition made them needed again)."""
        found = [
            n
            for n in self.needed()
            if n.ref is None
            and not n.queued
            and n is not self.root
            and all(p.value is not None for p in self._parts(n))
            and n.children is None
        ]
        return self._enqueue(found) > 0

    def _collect(self, ref: Any) -> None:
        worker = next(w for w, r in self.busy.items() if r == ref)
        del self.busy[worker]
        node = self.running.pop(ref, None)
        if node is None:
            return  # a worker has stopped its cancelled task
        node.ref = None
        try:
            value, nodes = self.ray.get(ref)
        except self.ray.exceptions.RayError:
            # the worker failed or was unreachable: the task goes back to the queue
            self.failures += 1
            if self.failures > 3 * len(self.actors):
                raise
            self._enqueue([node])
            return
        self.done_nodes += nodes
        if value is None:
            return  # out of time: the deadline check ends the solve
        self.tasks += 1
        self.task_nodes.append(nodes)
        node_was = node.value
        if node_was is None:
            node.value = value
            for parent in node.parents:
                self.update(parent)
        self._cancel_unneeded()

    def _cancel_unneeded(self) -> None:
        needed = self.needed()
        for ref, node in list(self.running.items()):
            if node not in needed:
                self._cancel(ref)

    def _cancel(self, ref: Any) -> None:
        node = self.running.pop(ref)
        node.ref = None
        self.cancelled += 1
        self.ray.cancel(ref)
        # the worker is free once it answers this call, which it runs after the stopped search
        self.busy[node.worker] = self.actors[node.worker].counts.remote()

    def _stop_all(self) -> None:
        for ref in list(self.running):
            self._cancel(ref)
        self.queue.clear()

    def _worker_counts(self) -> list[tuple[int, int, float]]:
        """Each worker's counts, once its cancelled task, if any, has stopped."""
        return list(self.ray.get([a.counts.remote() for a in self.actors]))

    def _answer(self, counts: list[tuple[Any, ...]]) -> RaySolution:
        worker_nodes = [int(c[0]) for c in counts]
        state = self.root.state
        children = self.root.children or []
        winning = sorted(
            {a for a, child in zip(self.root_moves, children, strict=True) if child.value is False}
        )
        if not self.all_moves:
            winning = winning[:1]  # a root move proven winning ended the solve
        mover = state.to_move
        solution = Solution(
            position=state.position(),
            to_move=SYMBOLS[mover],
            winner=SYMBOLS[mover] if winning else SYMBOLS[1 - mover],
            winning_moves=tuple(state.action_to_string(a) for a in winning),
            winning_actions=tuple(winning),
            all_moves=self.all_moves,
            nodes=sum(worker_nodes),
            seconds=time.monotonic() - self.started,
            engine="ray",
        )
        stats = RayStats(
            workers=len(self.actors),
            tasks=self.tasks,
            cancelled=self.cancelled,
            stopped=sum(int(c[1]) for c in counts),
            splits=self.splits,
            region_splits=self.region_splits,
            worker_nodes=tuple(worker_nodes),
            worker_seconds=tuple(float(c[2]) for c in counts),
            task_nodes=tuple(self.task_nodes),
            shared=self.owner.shared,
            preempted=self.preempted,
        )
        return RaySolution(solution, stats)


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
