"""What one server process is doing, for its operators: the metrics and the one-line hooks
that feed them, shared by every group (the store times its calls, the tables count moves).
:mod:`parlour.server.web.metrics` serves them at ``GET /metrics`` in Prometheus's text format
(the ``prometheus-client`` library), only to the addresses ``--metrics-from`` allows.

The metrics (docs/web.md lists them with their labels):

- ``parlour_moves_total{game}``: turns stored, by anyone (players, computer players, a
  time-out's default);
- ``parlour_move_seconds``: a player's move, from its message arriving (the websocket frame,
  or the HTTP request of the seat API and the Bot API) to its turn being committed;
- ``parlour_websockets``, ``parlour_tables_live``: open websockets, and unfinished tables loaded
  in this process;
- ``parlour_ai_wait_seconds{outcome}``: a computer player's move, from asking for it (its place
  in the fair queue included) to having it;
- ``parlour_sign_ins_total{method,result}``: password and passkey sign-ins, by how they ended;
- ``parlour_db_seconds{operation}``: each database call on the store's thread;
- and the ``process_*`` series of the process itself (CPU, memory, open files).

Several processes: every series carries a ``process`` label (``HOST:PORT`` of the process),
added when the page is written. Each ``parlour serve`` is a separate server with its own
address, scraped on its own, so one registry per process is right; Prometheus's
multiprocess mode (values in files shared by the pre-forked workers of one server) is for
another shape and would lose the live gauges. The label keeps two processes' series apart
even where their ``instance`` labels are rewritten or both are scraped through one name.

Hooks elsewhere are one line each and cost a few microseconds a move
(``bench/metrics_cost.py``); ``--no-metrics`` turns every one into nothing.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.metrics_core import Metric

T = TypeVar("T")

REGISTRY = CollectorRegistry(auto_describe=True)
"""This process's metrics (not prometheus-client's global registry, which other libraries
in the process may fill)."""
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

MOVES = Counter("parlour_moves", "Turns stored, by game (players' and computer players').",
                ["game"], registry=REGISTRY)
MOVE_SECONDS = Histogram(
    "parlour_move_seconds", "A player's move: its message received to its turn stored.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
    registry=REGISTRY)
WEBSOCKETS = Gauge("parlour_websockets", "Websockets open on this process.", registry=REGISTRY)
TABLES_LIVE = Gauge("parlour_tables_live", "Unfinished tables loaded in this process.",
                    registry=REGISTRY)
AI_WAIT = Histogram(
    "parlour_ai_wait_seconds", "A computer player's move: asked for (queue included) to had.",
    ["outcome"], buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30), registry=REGISTRY)
SIGN_INS = Counter("parlour_sign_ins", "Sign-ins, by method and how they ended.",
                   ["method", "result"], registry=REGISTRY)
DB_SECONDS = Histogram(
    "parlour_db_seconds", "Database calls on the store's thread, by operation.", ["operation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5),
    registry=REGISTRY)

SIGN_IN_PATHS = {"/api/session": "password", "/api/session/passkey": "passkey"}
"""The sign-in routes (``POST``), counted by the status they answer."""


def sign_in_result(status: int) -> str:
    """How a sign-in ended, from its HTTP status.

    >>> [sign_in_result(s) for s in (200, 401, 429, 422, 500)]
    ['ok', 'refused', 'throttled', 'invalid', 'error']
    """
    if status < 300:
        return "ok"
    if status in (401, 403):
        return "refused"
    if status == 429:
        return "throttled"
    return "invalid" if status < 500 else "error"


@dataclass
class _State:
    on: bool = True
    process: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")


STATE = _State()
_received: ContextVar[float | None] = ContextVar("parlour_received", default=None)
_moves: dict[str, Any] = {}
_db: dict[str, Any] = {}
"""Each label's series, found once (prometheus-client's ``labels()`` costs a lock and a
lookup each call)."""


def configure(*, on: bool = True, process: str | None = None) -> None:
    """Record metrics or not (``--no-metrics``), and name this process in its series
    (``HOST:PORT`` when serving; ``HOST:PID`` otherwise)."""
    STATE.on = on
    if process:
        STATE.process = process


# -- hooks: one line each where the thing happens -------------------------------------------------
def received() -> None:
    """A client's message has just arrived (in the task that will handle it)."""
    if STATE.on:
        _received.set(time.perf_counter())


def move_stored(game: str, by_player: bool) -> None:
    """A turn was committed; a player's is timed from its message's arrival."""
    if not STATE.on:
        return
    counter = _moves.get(game)
    if counter is None:
        counter = _moves.setdefault(game, MOVES.labels(game))
    counter.inc()
    start = _received.get()
    if by_player and start is not None:
        MOVE_SECONDS.observe(time.perf_counter() - start)


@contextlib.contextmanager
def ai_wait() -> Iterator[None]:
    """Time a computer player's move (``failed`` when it gave none)."""
    if not STATE.on:
        yield
        return
    start = time.perf_counter()
    outcome = "failed"
    try:
        yield
        outcome = "moved"
    finally:
        AI_WAIT.labels(outcome).observe(time.perf_counter() - start)


def db_call(fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` timed where it runs (the store's thread), by its name."""
    if not STATE.on:
        return fn
    name = getattr(fn, "__name__", "call").strip("_<>") or "call"
    histogram = _db.get(name)
    if histogram is None:
        histogram = _db.setdefault(name, DB_SECONDS.labels(name))

    def timed(*args: Any) -> T:
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            histogram.observe(time.perf_counter() - start)

    return timed


class Labelled:
    """A registry's metrics with ``process="..."`` added to every sample (a collector that
    :func:`prometheus_client.generate_latest` writes)."""

    def __init__(self, registry: CollectorRegistry, process: str) -> None:
        self.registry = registry
        self.process = process

    def collect(self) -> Iterator[Metric]:
        for family in self.registry.collect():
            out = Metric(family.name, family.documentation, family.type, family.unit)
            out.samples = [s._replace(labels={**s.labels, "process": self.process})
                           for s in family.samples]
            yield out
