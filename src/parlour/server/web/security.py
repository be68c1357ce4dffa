"""The web table's outer wall: what every request passes before any route sees it.

One ASGI middleware (it must see websockets and the raw body stream, which Starlette's
``BaseHTTPMiddleware`` hides) applies, in order:

- per-client rate limits on HTTP requests and websocket connections, and a cap on one
  client's open connections, answered ``429`` with ``Retry-After`` (websockets: refused): its
  websockets and its long-lived HTTP responses (:data:`STREAM_PATHS`, the Bot API's streams)
  counted together, each counted before the application answers it;
- the ``Host`` check: a request or websocket whose ``Host`` is not a name the server is served
  as (the loopback names, the address it listens on, ``--allowed-host``) is refused (``400``),
  so a site whose name an attacker points at 127.0.0.1 (DNS rebinding) cannot reach it;
- the ``Origin`` check: a browser request or websocket from another site is refused (``403``),
  so another page cannot create tables or act with a visitor's seat link;
- request bodies: refused by ``Content-Length`` before a byte is read, and a body sent without
  one is read only up to the limit (``413``); ``POST`` bodies must be JSON (``415``);
- security headers on every response (CSP, ``frame-ancestors``/``X-Frame-Options``,
  ``Referrer-Policy: no-referrer`` since seat links are secrets in URLs, ``nosniff``).

And a logging filter that takes seat tokens out of every log line (access logs included).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import socket
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from parlour import i18n
from parlour.server.limits import Limits, RateLimiter, client_key
from parlour.server.web.language import scope_language

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
DOCS_CSP = (  # the OpenAPI page (/api/docs) loads Swagger UI from its CDN, with inline setup
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: "
    "https://fastapi.tiangolo.com; connect-src 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


def client_address(scope: Scope) -> str | None:
    client = scope.get("client")
    return client[0] if client else None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
"""Names a server on this machine is always served as."""
UNGUARDED_PATHS = frozenset({"/healthz", "/readyz"})
"""Paths a load balancer asks by address, whatever ``Host`` it sends (they reveal nothing)."""
STREAM_PATHS = re.compile(r"/api/bot/(?:stream|game/[^/]*/stream)")
"""HTTP responses that stay open as long as a websocket does (the Bot API's NDJSON streams):
each holds a place among its client's ``connections_per_client`` while it is open, as the
same stream's websocket form does."""


def host_name(header: str | None) -> str | None:
    """The name in a ``Host`` header, without its port (``[::1]:8000`` -> ``::1``)."""
    if not header:
        return None
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        return header[1:end] if end > 0 else None
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def served_hosts(bound: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """The names a server listening on ``bound`` is served as: the loopback names, ``bound``
    itself and ``extra`` (``--allowed-host``); listening on every interface (``0.0.0.0``,
    ``::``), also this machine's own names and addresses."""
    names = set(LOOPBACK_HOSTS) | {bound.lower()} | {h.strip().lower() for h in extra if h}
    if bound in ("0.0.0.0", "::", ""):
        machine = {socket.gethostname(), socket.getfqdn()}
        for name in list(machine):
            with contextlib.suppress(OSError):
                machine |= {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
        names |= {n.lower() for n in machine if n}
    return frozenset(names)


class Guard:
    """The middleware. ``allowed_origins`` adds origins (``https://host:port``) to the server's
    own, for a page served elsewhere that talks to this server; ``allowed_hosts`` are the names
    it is served as (:func:`served_hosts`; the loopback names by default)."""

    def __init__(self, app: ASGIApp, limits: Limits, allowed_origins: tuple[str, ...] = (),
                 allowed_hosts: frozenset[str] = LOOPBACK_HOSTS) -> None:
        self.app = app
        self.limits = limits
        self.allowed = {o.rstrip("/").lower() for o in allowed_origins}
        self.hosts = allowed_hosts
        self.requests = RateLimiter(limits.requests_burst, limits.requests_per_second,
                                    limits.rate_keys)
        self.connects = RateLimiter(limits.connects_burst, limits.connects_per_second,
                                    limits.rate_keys)
        self.open_sockets: Counter[str] = Counter()
        """Each client's open websockets and HTTP streams (:data:`STREAM_PATHS`)."""

    # -- checks ---------------------------------------------------------------------------------
    def host_allowed(self, scope: Scope) -> bool:
        """``Host`` names this server (checked before anything else: DNS rebinding)."""
        if scope.get("path", "") in UNGUARDED_PATHS:
            return True
        return host_name(_header(scope, b"host")) in self.hosts

    def origin_allowed(self, scope: Scope) -> bool:
        """No ``Origin`` (not a browser, or a same-origin GET): allowed. Otherwise it must name
        this very server (the ``Host`` it was reached at) or a configured origin."""
        origin = _header(scope, b"origin")
        if origin is None:
            return True
        origin = origin.rstrip("/").lower()
        if origin in self.allowed:
            return True
        host = (_header(scope, b"host") or "").lower()
        parts = urlsplit(origin)
        return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket":
            await self._websocket(scope, receive, send)
        elif kind == "http":
            await self._http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # -- websockets -----------------------------------------------------------------------------
    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = client_key(client_address(scope))
        reason = None
        if not self.host_allowed(scope):
            reason = "unknown host: this server is not served by that name"
        elif not self.origin_allowed(scope):
            reason = "cross-site websocket refused"
        elif not self.connects.allow(key):
            reason = "too many connections in a short time"
        elif not self._take_place(key):
            reason = "too many open connections from one client"
        if reason is not None:
            logging.getLogger("parlour.server").info("websocket refused: %s", reason)
            # closing before accepting makes the server answer the handshake with 403
            await send({"type": "websocket.close", "code": 1008, "reason": reason})
            return
        scope.setdefault("state", {})["client_key"] = key
        try:
            await self.app(scope, receive, send)
        finally:
            self._give_back(key)

    def _take_place(self, key: str) -> bool:
        """One more open connection for the client ``key``, if it has a place left. Checked
        and counted in one step (no ``await`` between them), so connections arriving together
        cannot all pass the check before any is counted."""
        if self.open_sockets[key] >= self.limits.connections_per_client:
            return False
        self.open_sockets[key] += 1
        return True

    def _give_back(self, key: str) -> None:
        self.open_sockets[key] -= 1
        if self.open_sockets[key] <= 0:
            del self.open_sockets[key]

    # -- HTTP -----------------------------------------------------------------------------------
    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        csp = (DOCS_CSP if path.startswith("/api/docs") else CSP).encode()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0] != b"x-frame-options"]
                headers += [(b"content-security-policy", csp), *SECURITY_HEADERS]
                message["headers"] = headers
            await send(message)

        if not self.host_allowed(scope):
            await _refuse(send_with_headers, scope, 400, "unknown_host", i18n.Message(
                "this server is not served by that name: start it with --allowed-host NAME to "
                "serve it so"))
            return
        key = client_key(client_address(scope))
        scope.setdefault("state", {})["client_key"] = key
        if path != "/healthz" and not self.requests.allow(key):
            wait = self.requests.retry_after(key)
            await _refuse(send_with_headers, scope, 429, "rate_limited",
                          i18n.Message("too many requests: try again in {n} s", n=wait),
                          retry_after=wait)
            return
        method = scope.get("method", "GET")
        if method not in BODY_METHODS:
            if method == "DELETE" and not self.origin_allowed(scope):  # signing out, leaving
                await _refuse(send_with_headers, scope, 403, "cross_site", CROSS_SITE)
                return
            if not STREAM_PATHS.fullmatch(path):
                await self.app(scope, receive, send_with_headers)
                return
            if not self._take_place(key):  # a stream: counted with the websockets
                await _refuse(send_with_headers, scope, 429, "too_many_connections",
                              TOO_MANY_CONNECTIONS, retry_after=STREAM_RETRY_SECONDS)
                return
            try:
                await self.app(scope, receive, send_with_headers)
            finally:
                self._give_back(key)
            return
        if not self.origin_allowed(scope):
            await _refuse(send_with_headers, scope, 403, "cross_site", CROSS_SITE)
            return
        limit = self.limits.body_bytes
        too_large = i18n.Message("request body over {n} bytes refused", n=limit)
        declared = _header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _refuse(send_with_headers, scope, 413, "too_large", too_large)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await _refuse(send_with_headers, scope, 413, "too_large", too_large)
                return
            if not message.get("more_body", False):
                break
        content_type = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if body and content_type != "application/json":
            # a body that is not JSON is what a cross-site form would send: refused
            await _refuse(send_with_headers, scope, 415, "unsupported_media_type",
                          i18n.Message("send the body as JSON (content-type: application/json)"))
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)


CROSS_SITE = i18n.Message("requests from another site are refused")
TOO_MANY_CONNECTIONS = i18n.Message(
    "too many open connections from this address (streams and websockets together): close one "
    "first")
STREAM_RETRY_SECONDS = 5
"""The ``Retry-After`` of a stream refused for its client's open connections: a place comes
free when one of them closes, not at a known time."""


async def _refuse(send: Send, scope: Scope, status: int, code: str, message: str,
                  retry_after: int | None = None) -> None:
    """An error reply in the server's usual shape (``type``, ``code``, ``message``), its text
    in the asker's language (this guard answers before the language middleware runs)."""
    text = i18n.translate(message, scope_language(scope))
    payload = json.dumps({"type": "error", "code": code, "message": text,
                          "detail": text}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(payload)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


TOKEN_IN_PATH = re.compile(r"(/(?:play|unsubscribe|confirm-email|queue)/)[A-Za-z0-9_\-]{8,}")


def redact(text: str) -> str:
    """``/play/<token>`` (and ``/ws/play/...``, ``/api/play/...``) with the token hidden; the
    same for the other secrets a path may hold: an e-mail's unsubscribe or confirmation token
    and a matchmaking ticket."""
    return TOKEN_IN_PATH.sub(r"\1<token>", text)


class RedactTokens(logging.Filter):
    """Rewrites a log record so that no seat token reaches a log file (tokens are the seats'
    only credentials). Installed on the uvicorn and parlour loggers by :func:`install_redaction`.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        # Redact the parts, not the formatted line: formatters (uvicorn's access log) read
        # the arguments themselves.
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        return True


REDACTED_LOGGERS = ("uvicorn", "uvicorn.access", "uvicorn.error", "parlour", "parlour.server",
                    "fastapi")


def install_redaction() -> None:
    """Attach the filter to every logger that may print a request path, and to the root's
    handlers (a record passes a logger's filters only where it is logged, not where it
    propagates to)."""
    flt = RedactTokens()
    for name in REDACTED_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(flt)
        for handler in logger.handlers:
            if not any(isinstance(f, RedactTokens) for f in handler.filters):
                handler.addFilter(flt)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RedactTokens) for f in handler.filters):
            handler.addFilter(flt)
