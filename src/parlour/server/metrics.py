"""What one server process is doing, for its operators: ``GET /metrics`` in Prometheus's text
format (the ``prometheus-client`` library), served only to the addresses ``--metrics-from``
allows.

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
import ipaddress
import os
import socket
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, MutableMapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.metrics_core import Metric

from parlour import i18n
from parlour.server.language import scope_language

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
T = TypeVar("T")
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

PATH = "/metrics"
LOOPBACK = ("127.0.0.0/8", "::1/128")
"""Who may read the metrics when ``--metrics-from`` is not given: this machine only."""

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


# -- who may read them ----------------------------------------------------------------------------
def networks(entries: Iterable[str]) -> tuple[Network, ...]:
    """``--metrics-from`` entries (addresses or networks) as networks; ``ValueError`` names
    the first that is neither.

    >>> [str(n) for n in networks(["10.0.0.7", "192.168.0.0/16", "::1"])]
    ['10.0.0.7/32', '192.168.0.0/16', '::1/128']
    """
    out = []
    for entry in entries:
        try:
            out.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an address or a network (such as 10.0.0.0/8)"
                             ) from None
    return tuple(out)


def _address(text: str | None) -> Address | None:
    """An address as a client or an ``X-Forwarded-For`` hop names it (``[::1]:80``,
    ``1.2.3.4:5``, ``::ffff:127.0.0.1``), or ``None``."""
    if not text:
        return None
    text = text.strip()
    if text.startswith("["):
        text = text[1:text.find("]")] if "]" in text else text[1:]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


@dataclass(frozen=True)
class Settings:
    """``--metrics``, ``--metrics-from`` and the ``--trusted-proxy`` addresses."""

    on: bool = True
    allowed: tuple[Network, ...] = field(default_factory=lambda: networks(LOOPBACK))
    trusted: tuple[str, ...] = ()

    def trusts(self, hop: Address | None) -> bool:
        """Whether the server (uvicorn) takes ``hop``'s ``X-Forwarded-For`` as the truth."""
        if "*" in self.trusted:
            return True
        if hop is None:
            return False
        for entry in self.trusted:
            with contextlib.suppress(ValueError):
                if hop in ipaddress.ip_network(entry.strip(), strict=False):
                    return True
        return False

    def requester(self, scope: Scope) -> Address | None:
        """Who really asks: the peer, or the client a trusted proxy forwards for; ``None``
        when that cannot be known (a proxy the server does not trust forwarded the request).

        uvicorn has already replaced the peer by the forwarded client when the peer is a
        trusted proxy (``--trusted-proxy``): the rightmost hop that is not itself trusted. So
        a request naming forwarded clients is known only if its client is that hop; else it
        came through a proxy nobody declared (such as a local one, whose own address is
        loopback) and whoever sent it to that proxy is unknown.
        """
        client = scope.get("client")
        peer = _address(client[0] if client else None)
        forwarded = _header(scope, b"x-forwarded-for")
        if forwarded is None:
            if _header(scope, b"forwarded") or _header(scope, b"x-real-ip"):
                return None  # forwarded by a proxy whose header uvicorn does not read
            return peer
        hops = [_address(h) for h in forwarded.split(",")]
        if not hops or None in hops:
            return None
        chosen = next((h for h in reversed(hops) if not self.trusts(h)), hops[0])
        return peer if chosen == peer else None

    def allows(self, scope: Scope) -> bool:
        who = self.requester(scope)
        return who is not None and any(who.version == n.version and who in n
                                       for n in self.allowed)


# -- the middleware -------------------------------------------------------------------------------
REFUSED = i18n.Message("the metrics are served only to the addresses --metrics-from allows")


class Metrics:
    """Serves ``/metrics`` to allowed addresses (403 for others, 404 with ``--no-metrics``),
    counts websockets, marks when each client message arrives, and counts sign-ins by the
    status their route answers. It sits inside the guard (its ``Host`` check and rate limits
    apply to scrapes too)."""

    def __init__(self, app: ASGIApp, settings: Settings | None = None) -> None:
        self.app = app
        self.settings = settings or Settings()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.settings.on or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        elif scope.get("path") == PATH:
            await self._serve(scope, send)
        else:
            received()
            method = SIGN_IN_PATHS.get(scope.get("path", ""))
            if method is None or scope.get("method") != "POST":
                await self.app(scope, receive, send)
                return

            async def counted(message: Message) -> None:
                if message["type"] == "http.response.start":
                    SIGN_INS.labels(method, sign_in_result(int(message["status"]))).inc()
                await send(message)

            await self.app(scope, receive, counted)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def marked() -> Message:
            message = await receive()
            if message["type"] == "websocket.receive":
                received()  # in the handler's own task: its move is timed from here
            return message

        WEBSOCKETS.inc()
        try:
            await self.app(scope, marked, send)
        finally:
            WEBSOCKETS.dec()

    async def _serve(self, scope: Scope, send: Send) -> None:
        if scope.get("method") != "GET":
            await _answer(send, 405, b"GET only\n", b"text/plain; charset=utf-8")
            return
        if not self.settings.allows(scope):
            text = i18n.translate(REFUSED, scope_language(scope)).encode() + b"\n"
            await _answer(send, 403, text, b"text/plain; charset=utf-8")
            return
        app = scope.get("app")
        hub = getattr(getattr(app, "state", None), "hub", None)
        if hub is not None:
            TABLES_LIVE.set(sum(1 for t in hub.registry.tables.values() if not t.over))
        body = generate_latest(Labelled(REGISTRY, STATE.process))
        await _answer(send, 200, body, CONTENT_TYPE_LATEST.encode())


async def _answer(send: Send, status: int, body: bytes, content_type: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", content_type),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": body})


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
