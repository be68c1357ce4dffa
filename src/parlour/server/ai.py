"""Computer players, run off the event loop so the server answers while they think.

An AI move is computed from what can be pickled cheaply (game name, parameters, the action
list and a seed) in a worker process: the worker rebuilds the state, builds the agent and asks
it for one action. Nothing is shared with the server's memory, and a crashing agent cannot
take the server down. The agent itself decides from what its seat may see (the agents'
contract); the server only hands it the state, as any program using the library would.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import multiprocessing
import os
import random
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from typing import Any

log = logging.getLogger("parlour.server")


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
    """A random legal action, used when an agent fails, so a table never stalls."""
    return random.Random(seed).choice(legal)


class AIRunner:
    """Runs :func:`choose_action` in worker processes (or threads, for tests and light use)."""

    def __init__(self, mode: str = "process", workers: int | None = None) -> None:
        self.mode = mode
        self.workers = workers or max(1, min(4, (os.cpu_count() or 2) - 1))
        self._executor: Executor | None = None

    def _make(self) -> Executor:
        if self.mode == "thread":
            return ThreadPoolExecutor(self.workers, thread_name_prefix="parlour-ai")
        # spawn: the server process holds threads and an event loop; forking it is unsafe.
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(self.workers, mp_context=context)

    async def choose(self, *args: Any) -> int:
        if self._executor is None:
            self._executor = self._make()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, choose_action, *args)
        except BrokenProcessPool:
            log.warning("AI worker pool broke; starting a new one")
            self._executor = self._make()
            return await loop.run_in_executor(self._executor, choose_action, *args)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
