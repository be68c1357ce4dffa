"""``GET /metrics`` for Prometheus, served only to the addresses ``--metrics-from`` allows
(403 for others, 404 with ``--no-metrics``), and the middleware that counts websockets, marks
when each client message arrives and counts sign-ins. The metrics themselves and the hooks
the other groups call are :mod:`parlour.server.metrics`.
"""

from __future__ import annotations

import contextlib
import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from parlour import i18n
from parlour.server.metrics import (
    REGISTRY,
    SIGN_IN_PATHS,
    SIGN_INS,
    STATE,
    TABLES_LIVE,
    WEBSOCKETS,
    Labelled,
    received,
    sign_in_result,
)
from parlour.server.web.language import scope_language
from parlour.server.web.services import STATE_KEY

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

PATH = "/metrics"
LOOPBACK = ("127.0.0.0/8", "::1/128")
"""Who may read the metrics when ``--metrics-from`` is not given: this machine only."""


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
        services = scope.get("state", {}).get(STATE_KEY)
        hub = getattr(services, "hub", None)
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
