"""Computer players, run off the event loop, each move under a hard deadline.

An AI move is computed from what can be pickled cheaply (game name, parameters, the action
list and a seed) in a worker process: the worker rebuilds the state, builds the agent and asks
it for one action. Nothing is shared with the server's memory, and a crashing agent cannot
take the server down. The agent itself decides from what its seat may see (the agents'
contract); the server only hands it the state, as any program using the library would.

Why our own workers rather than a ``ProcessPoolExecutor``: a pool cannot stop one task, so an
agent that thinks too long (an unbounded search, a greedy player on a 99 x 26 board) would hold
a worker for minutes. Here every move has a deadline; a worker that misses it is killed and
replaced, and the table is told that the computer's move was cut short. Workers are killed with
the server (and, on Linux, by the kernel if the server itself is killed), so none is left
thinking on its own. Jobs wait for a worker in the order a fair queue gives them
(:mod:`parlour.server.fairness`: people waiting before tables where only computers play,
clients in turn, none holding every worker), and each table has at most one move in flight.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import hashlib
import json
import logging
import multiprocessing
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from multiprocessing.connection import Connection
from typing import Any

from parlour.agents import answers_at_once
from parlour.agents.strengths import WORDS
from parlour.i18n import Message
from parlour.server.fairness import FairQueue, JobClass

log = logging.getLogger("parlour.server")

AI_DEADLINE = 5.0
"""Seconds a computer player may think about one move before the server stops it. The web
offers agents whose own budgets are far below it (``hard`` thinks at most 2 s); it catches agents
whose time grows with the board (a greedy player on a 99 x 26 Clobber board)."""
WORKER_START_TIMEOUT = 60.0
"""Seconds a new worker process may take to start and import parlour."""

WEB_AGENTS: dict[str, str] = {
    name: Message("Computer ({strength})", strength=WORDS[name])
    for name in ("random", "easy", "medium", "hard", "greedy", "net")
}
"""Agents the web table offers, each with a time budget well under :data:`AI_DEADLINE`, and
how a seat they hold is named (``net``, the learned player, takes about 0.1 s a move and plays
where a network ships for the configuration: ``parlour.agents.plays_configuration``). A
game's fixed strategies, registered as answering at once, are accepted too
(:func:`is_web_agent`); unbounded searches (``mcts``, ``perfect``) are not offered on the
web."""


def is_web_agent(spec: str) -> bool:
    """Whether the web table accepts agent ``spec`` (no options: a player picks a name): one
    of :data:`WEB_AGENTS`, or one the agents' registry says answers at once (the server names
    no game's agents)."""
    return spec in WEB_AGENTS or answers_at_once(spec)


@lru_cache(maxsize=64)
def _game(name: str, params_json: str) -> Any:
    from parlour import load_game  # importing parlour registers every game

    return load_game(name, **json.loads(params_json))


def choose_action(
    game: str, params_json: str, actions: tuple[int, ...], agent: str, seed: int
) -> int:
    """The action agent ``agent`` picks after ``actions`` (runs in a worker)."""
    from parlour.agents import make_agent

    configured = _game(game, params_json)
    state = configured.new_state_from_actions(actions)
    return int(make_agent(agent, configured, seed).step(state))


def move_seed(table_seed: int, move_number: int) -> int:
    """A seed per move, so an AI's choice is reproducible and differs from move to move."""
    digest = hashlib.sha256(f"ai:{table_seed}:{move_number}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def fallback_action(legal: list[int], seed: int) -> int:
    """A random legal action, played when an agent fails or runs out of time (the players
    are told), so a table never stalls."""
    return random.Random(seed).choice(legal)


class AIFailure(Exception):
    """The agent gave no move: ``reason`` says why in a player's words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AITimeout(AIFailure):
    """The job missed its deadline (its worker process was killed)."""


def _die_with_parent() -> None:
    """Linux: have the kernel kill this worker when the server process dies (even SIGKILL)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_progress_pipe: Connection | None = None
"""In a worker process: its end of the pipe, for :func:`report_progress`."""


def report_progress(data: Any) -> None:
    """Called by a job in a worker process: send ``data`` (picklable, small) to the server
    while the job goes on (the ``on_progress`` of :meth:`AIRunner.run`). Elsewhere (a thread
    worker, a plain call) it does nothing."""
    if _progress_pipe is not None:
        with contextlib.suppress(OSError):
            _progress_pipe.send(("progress", data))


def _worker_main(
    conn: Connection, parent: int, job: Callable[..., Any] = choose_action
) -> None:
    """A worker process: answer jobs (calls of ``job``) one at a time until the pipe closes."""
    global _progress_pipe
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server decides when workers stop
    if os.getppid() != parent:  # the server died before the line above took effect
        return
    import parlour  # noqa: F401  (load the games before the first job, not during it)

    _progress_pipe = conn
    conn.send(("ready", None))
    while True:
        try:
            args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", job(*args)))
        except Exception as exc:  # the agent failed: the server plays on without it
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class _Worker:
    """One worker process and its end of the pipe."""

    def __init__(self, context: Any, job: Callable[..., Any] = choose_action) -> None:
        ours, theirs = context.Pipe()
        self.conn: Connection = ours
        self.process = context.Process(
            target=_worker_main, args=(theirs, os.getpid(), job), daemon=True, name="parlour-ai"
        )
        self.process.start()
        theirs.close()
        self.jobs = 0

    def receive(self, timeout: float) -> tuple[str, Any] | None:
        """The worker's next message, or ``None`` if none came in ``timeout`` seconds."""
        if not self.conn.poll(timeout):
            return None
        try:
            message: tuple[str, Any] = self.conn.recv()
        except (EOFError, OSError):
            return ("died", "its worker process stopped")
        return message

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()


@dataclass
class AIStats:
    """Counters for the health endpoint and the tests."""

    moves: int = 0
    timeouts: int = 0
    failures: int = 0


class AIRunner:
    """Runs :func:`choose_action` in worker processes (or threads, for tests and light use),
    each move under ``deadline`` seconds.

    In ``thread`` mode a move past its deadline is abandoned (the server plays on) but its
    thread cannot be stopped: use it only with agents whose budget is bounded.

    ``job`` replaces :func:`choose_action` by another module-level function (the analysis
    board's solver, :mod:`parlour.server.study.analyse`): the same workers, deadline and kill, for
    any call that may run too long; :meth:`run` returns its result as it is.
    """

    def __init__(
        self,
        mode: str = "process",
        workers: int | None = None,
        deadline: float = AI_DEADLINE,
        job: Callable[..., Any] = choose_action,
        max_jobs: int | None = None,
    ) -> None:
        if mode not in ("process", "thread"):
            raise ValueError("AI mode is 'process' or 'thread'")
        self.mode = mode
        self.workers = workers or max(2, min(4, (os.cpu_count() or 2) - 1))
        self.queue = FairQueue(self.workers)
        """Who thinks next (:mod:`parlour.server.fairness`): a person's job before a job
        nobody waits for, clients in turn, each with at most all workers but one."""
        self.deadline = deadline
        self.job = job
        self.max_jobs = max_jobs
        """Jobs a worker answers before it is replaced by a fresh one (none: no bound), for
        jobs whose caches grow in the worker's memory."""
        self.stats = AIStats()
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: set[_Worker] = set()
        self._filling: asyncio.Task[None] | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._closed = False

    # -- worker processes -------------------------------------------------------------------
    async def _start_worker(self) -> _Worker:
        # spawn: the server process holds threads and an event loop; forking it is unsafe.
        worker = await asyncio.to_thread(_Worker, self._context, self.job)
        self._all.add(worker)
        message = await asyncio.to_thread(worker.receive, WORKER_START_TIMEOUT)
        if message is None or message[0] != "ready":
            self._retire(worker)
            raise AIFailure("the computer player could not be started")
        return worker

    def _retire(self, worker: _Worker) -> None:
        self._all.discard(worker)
        worker.kill()

    async def _acquire(self) -> _Worker:
        if self._idle is None:
            self._idle = asyncio.Queue()
            self._filling = asyncio.create_task(self._fill())
        return await self._idle.get()  # the fair queue has already decided who runs now

    async def _fill(self) -> None:
        for _ in range(self.workers):
            await self._release(None)

    async def _release(self, worker: _Worker | None) -> None:
        """Give a worker back, or a fresh one in place of one that was killed."""
        if self._closed or self._idle is None:
            if worker is not None:
                self._retire(worker)
            return
        if worker is None:
            try:
                worker = await self._start_worker()
            except AIFailure:
                log.exception("could not start an AI worker")
                return
        self._idle.put_nowait(worker)

    async def _run_in_process(
        self, *args: Any, on_progress: Callable[[Any], Any] | None = None
    ) -> Any:
        worker = await self._acquire()
        keep: _Worker | None = worker
        try:
            worker.conn.send(args)
            worker.jobs += 1
            deadline = time.monotonic() + self.deadline
            while True:
                left = max(deadline - time.monotonic(), 0.0)
                message = await asyncio.to_thread(worker.receive, left)
                if message is None or message[0] != "progress":
                    break
                if on_progress is not None:
                    on_progress(message[1])
            if message is None:
                self.stats.timeouts += 1
                self._retire(worker)
                keep = None
                raise AITimeout(f"ran out of thinking time ({self.deadline:g} s)")
            kind, value = message
            if kind == "died":
                self._retire(worker)
                keep = None
                raise AIFailure(value)
            if kind != "ok":
                raise AIFailure(f"failed ({value})")
            return value
        except (BrokenPipeError, OSError):
            self._retire(worker)
            keep = None
            raise AIFailure("its worker process stopped") from None
        except asyncio.CancelledError:
            self._retire(worker)  # it may still be thinking: never hand it another job
            keep = None
            raise
        finally:
            if keep is not None and self.max_jobs and keep.jobs >= self.max_jobs:
                self._retire(keep)  # a fresh worker in its place, with empty caches
                keep = None
            if not self._closed:
                await asyncio.shield(self._release(keep))

    # -- threads ------------------------------------------------------------------------------
    async def _run_in_thread(self, *args: Any) -> Any:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="parlour-ai")
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._threads, self.job, *args)
        try:
            return await asyncio.wait_for(future, self.deadline)
        except TimeoutError:
            self.stats.timeouts += 1
            raise AITimeout(f"ran out of thinking time ({self.deadline:g} s)") from None
        except Exception as exc:
            raise AIFailure(f"failed ({type(exc).__name__}: {exc})") from None

    async def choose(self, *args: Any, client: Hashable = None,
                     job_class: JobClass = JobClass.INTERACTIVE) -> int:
        """The agent's action; raises :class:`AIFailure` (with a reason) when it gives none."""
        return int(await self.run(*args, client=client, job_class=job_class))

    async def run(self, *args: Any, client: Hashable = None,
                  job_class: JobClass = JobClass.INTERACTIVE,
                  on_progress: Callable[[Any], Any] | None = None) -> Any:
        """``job(*args)`` in a worker, when the fair queue says it is ``client``'s turn;
        raises :class:`AIFailure` (:class:`AITimeout` past the deadline) when it gives no
        answer. The deadline counts from the start of the job, not from its wait.
        ``on_progress`` is called (in the server) with what the job sends by
        :func:`report_progress` while it runs (worker processes only)."""
        if self._closed:
            raise AIFailure("the server is shutting down")
        ticket = self.queue.join(client, job_class)
        try:
            await ticket.ready
            if self.mode == "thread":
                result = await self._run_in_thread(*args)
            else:
                result = await self._run_in_process(*args, on_progress=on_progress)
        except AIFailure:
            self.stats.failures += 1
            raise
        finally:
            self.queue.leave(ticket)
        self.stats.moves += 1
        return result

    def close(self) -> None:
        """Stop every worker now, thinking or not."""
        self._closed = True
        for worker in list(self._all):
            self._retire(worker)
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._threads = None
