"""The server's log lines: plain text (the default) or ``--log-format json``, one JSON object a
line for log collectors, each with the request and the table it is about, and never a secret.

The request and table each line is about are :mod:`parlour.server.logs`'s context variables
(the tables' group sets the table around every change). A JSON line has ``time`` (UTC, ISO
8601), ``level``, ``logger``, ``message``, and where there is one ``request_id`` (each HTTP
request and websocket gets one, also sent back as the ``X-Request-ID`` response header),
``table_id`` (set around every change to a table, or read
from a message that starts ``table ID``), ``exception`` (the traceback), and for an access
line ``client``, ``method``, ``path`` and ``status``.

Secrets are taken out of the message and the traceback before a line is written, whatever
logged them: seat links and the other secrets in paths
(:func:`parlour.server.web.security.redact`),
Bot API tokens (``plr_...``), ``Bearer`` credentials, the session cookie, and the values of
query or JSON fields named like a secret (``token``, ``password``, ``session``...).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from parlour.server.logs import REQUEST_ID, TABLE_ID
from parlour.server.web.security import install_redaction, redact

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

FORMATS = ("text", "json")
TEXT_FORMAT = "%(levelname)s %(name)s: %(message)s"

SECRET_NAMES = (r"token|password|passphrase|passwd|secret|session(?:_id)?|parlour_session|"
                r"ticket|ceremony|key|api_key|current|new")
_SECRETS = [
    (re.compile(r"\bplr_[A-Za-z0-9_\-]+"), "plr_<token>"),
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]+"), r"\1 <secret>"),
    (re.compile(rf"(?i)\b({SECRET_NAMES})=[^&\s;,\"']+"), r"\1=<secret>"),
    (re.compile(rf"(?i)([\"']({SECRET_NAMES})[\"']\s*:\s*)([\"'])(?:\\.|(?!\3).)*\3"),
     r"\1\3<secret>\3"),
]
"""Secrets a line may carry besides those in paths: Bot API tokens, ``Authorization``
credentials, ``name=value`` (query strings, cookies) and ``"name": "value"`` (JSON, reprs)."""


def scrub(text: str) -> str:
    """``text`` with every secret it holds replaced.

    >>> scrub('GET /play/AbCdEfGh12345678?x=1&token=s3cr3t "password": "hunter22" plr_abc')
    'GET /play/<token>?x=1&token=<secret> "password": "<secret>" plr_<token>'
    """
    text = redact(text)
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class JSONFormatter(logging.Formatter):
    """One JSON object a line (see the module's documentation)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": scrub(record.getMessage()),
        }
        if (request := REQUEST_ID.get()) is not None:
            line["request_id"] = request
        if (table := TABLE_ID.get() or _table_named(record)) is not None:
            line["table_id"] = table
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(
                record.args) == 5:
            client, method, path, _version, status = record.args
            line.update(client=str(client), method=str(method), path=scrub(str(path)),
                        status=status)
        if record.exc_info:
            line["exception"] = scrub(self.formatException(record.exc_info))
        elif record.exc_text:
            line["exception"] = scrub(record.exc_text)
        return json.dumps(line, ensure_ascii=False, default=str)


def _table_named(record: logging.LogRecord) -> str | None:
    """The table a ``"table %s..."`` message names (the server's own convention)."""
    if (isinstance(record.msg, str) and record.msg.startswith("table %s")
            and isinstance(record.args, tuple) and record.args):
        return str(record.args[0])
    return None


def configure(log_format: str = "text", level: int = logging.INFO) -> None:
    """The root logger's one handler (standard error), writing ``log_format`` lines; with
    ``json`` uvicorn's loggers write through it too (see :func:`uvicorn_config`)."""
    if log_format not in FORMATS:
        raise ValueError(f"unknown log format {log_format!r}: choose text or json")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JSONFormatter() if log_format == "json" else logging.Formatter(
        TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(log_format == "json")  # a warning is a line like the others
    install_redaction()


def uvicorn_config(log_format: str) -> dict[str, Any]:
    """What :class:`uvicorn.Config` is given for ``log_format``: its own handlers and
    formatters for text (uvicorn's default, unchanged), none for JSON (its loggers propagate to
    the root's JSON handler)."""
    return {} if log_format == "text" else {"log_config": None}


class RequestIds:
    """Gives each HTTP request and websocket an id its log lines carry, and answers it in
    ``X-Request-ID``. Outermost, so that even the guard's refusals are logged with one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request = secrets.token_hex(8)
        token = REQUEST_ID.set(request)

        async def tagged(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []),
                                      (b"x-request-id", request.encode())]
            await send(message)

        try:
            await self.app(scope, receive, tagged if scope["type"] == "http" else send)
        finally:
            REQUEST_ID.reset(token)
