"""The driver's side of one distributed Clobber solve: the tree, the queue, the tasks.

:class:`Search` splits the tree of sub-positions (:mod:`parlour.analysis.ray_tree`) into
tasks, hands them to the workers (:mod:`parlour.analysis.ray_worker`) one at a time, settles
the tree as their answers come, cancels what no open proof needs and answers a
:class:`RaySolution`. How the work splits is told in :mod:`parlour.analysis.distributed`,
whose :class:`~parlour.analysis.distributed.RayClobberSolver` starts the workers and runs one
:class:`Search` per solve.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from parlour.analysis.ray_tree import SYMBOLS, Node, decide_sum, ordered_actions, place_region
from parlour.analysis.solver import ClobberSolver, Solution, SolverTimeout
from parlour.games.clobber import ClobberGame, ClobberState

TASKS_PER_WORKER = 2
"""Before the first task, the tree is split deeper while it has fewer distinct open
sub-positions than this many per worker..."""
MAX_SPLIT_DEPTH = 3
"""...but never deeper than this many moves."""

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


class _Workers(Protocol):
    """What a search needs of the solver that started the workers
    (:class:`~parlour.analysis.distributed.RayClobberSolver`)."""

    @property
    def _ray(self) -> Any: ...  # the ray module

    @property
    def _actors(self) -> list[Any]: ...  # the workers, SolverWorker actors

    @property
    def _keys(self) -> ClobberSolver: ...  # regions and keys only

    @property
    def game(self) -> ClobberGame: ...

    @property
    def shared(self) -> bool: ...

    def key(self, state: ClobberState) -> tuple[Any, ...]: ...


class Search:
    """The driver's side of one solve: the tree, the queue, and the workers' tasks."""

    def __init__(
        self,
        owner: _Workers,
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
        self.nodes: dict[tuple[Any, ...], Node] = {}
        self.queue: deque[Node] = deque()
        self.running: dict[Any, Node] = {}  # task -> its sub-position
        # worker -> its task, or after a cancellation a call that answers once it has stopped:
        # a worker gets one task at a time, so that no task ever waits in an actor's queue
        self.busy: dict[int, Any] = {}
        self.failures = 0
        self.tasks = self.cancelled = self.splits = self.region_splits = self.preempted = 0
        self.done_nodes = 0
        self.task_nodes: list[int] = []
        self.root = Node(state, owner.key(state))
        self.nodes[self.root.key] = self.root
        self.root_moves: list[int] = []
        self.before: list[tuple[int, int, float]] = []

    # -- the tree ---------------------------------------------------------------------------
    def node(self, state: ClobberState, parent: Node) -> Node:
        key = self.owner.key(state)
        found = self.nodes.get(key)
        if found is None:
            found = self.nodes[key] = Node(state, key, depth=parent.depth + 1)
            if key == ("sum",):
                found.value = False  # no move left: the side to move has lost
        found.depth = min(found.depth, parent.depth + 1)
        found.parents.append(parent)
        return found

    def split_moves(self, node: Node) -> list[Node]:
        actions = ordered_actions(node.state)
        node.children = [self.node(node.state.child(a), node) for a in actions]
        if node is self.root:
            self.root_moves = actions
        else:
            self.splits += 1
        self.update(node)
        return node.children

    def split_regions(self, node: Node) -> list[Node]:
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

    def update(self, node: Node) -> None:
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

    def needed(self) -> set[Node]:
        """The unsettled sub-positions an open proof still depends on."""
        out: set[Node] = set()
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
    def _parts(node: Node) -> Iterator[Node]:
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
            deeper: list[Node] = []
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
    def _open(frontier: list[Node]) -> list[Node]:
        """The distinct unsettled, unsplit sub-positions of ``frontier``, in its order."""
        return list(dict.fromkeys(n for n in frontier if n.children is None and n.value is None))

    def _counts_since(self) -> list[tuple[Any, ...]]:
        """Each worker's counts since this solve began (once its cancelled task stopped)."""
        return [
            tuple(b - a for a, b in zip(old, new, strict=True))
            for old, new in zip(self.before, self._worker_counts(), strict=True)
        ]

    def _enqueue(self, parts: list[Node], *, first: bool = False) -> int:
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

    def _next(self) -> Node | None:
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
    def _speculative(node: Node) -> bool:
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

