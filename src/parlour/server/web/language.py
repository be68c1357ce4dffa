"""Which language a page, a reply or a websocket speaks, and the catalog the pages' JS reads.

The language is the player's choice in the header (remembered in the ``parlour_lang`` cookie),
else the best of the browser's ``Accept-Language`` that parlour speaks, else English. The
:class:`Language` middleware decides it once per request or websocket and makes it the context's
(:func:`parlour.i18n.using`), so everything built while answering (a page, an error, a state
message) is in that language; ``Content-Language`` and ``Vary`` tell caches so.

The pages' JavaScript translates with the same catalog: ``/i18n/LANG.json`` holds the entries
whose source is the JavaScript (``static/js``), with the language's plural rule as CLDR
categories (the browser's ``Intl.PluralRules``) mapped to the catalog's plural forms.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, get_origin
from urllib.parse import parse_qs

from babel import Locale
from babel.messages.pofile import read_po
from fastapi import APIRouter
from fastapi.routing import APIRoute
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parlour import i18n

COOKIE = "parlour_lang"
"""The cookie that remembers the language chosen in the header (a year)."""
MAX_HEADER = 512
"""Longest ``Accept-Language`` or cookie read (a longer one is cut there)."""
_RANGE = re.compile(
    r"^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([01](?:\.\d{0,3})?))?\s*$"
)


def accepted(header: str | None) -> list[str]:
    """The language ranges of an ``Accept-Language`` header, best first (RFC 9110: ``q=0``
    refuses; malformed parts are skipped)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "")[:MAX_HEADER].split(",")[:32]):
        found = _RANGE.match(part)
        if found is None:
            continue
        quality = float(found.group(2)) if found.group(2) else 1.0
        if quality > 0:
            ranked.append((-quality, index, found.group(1)))
    return [code for _q, _i, code in sorted(ranked)]


def negotiate(accept_language: str | None, cookie: str | None = None) -> str:
    """The language to speak: a cookie naming one parlour speaks, else the first of the
    browser's that it speaks (``fr-CA`` is French), else English."""
    if cookie and i18n.choose(cookie[:16]) == cookie[:16]:
        return cookie[:16]
    for code in accepted(accept_language):
        if code == "*":
            return i18n.SOURCE_LANGUAGE
        found = i18n.choose(code)
        if found != i18n.SOURCE_LANGUAGE or code.lower().startswith(i18n.SOURCE_LANGUAGE):
            return found
    return i18n.SOURCE_LANGUAGE


def _headers(scope: Scope) -> dict[bytes, str]:
    return {k.lower(): v.decode("latin-1")[:MAX_HEADER] for k, v in scope.get("headers", [])}


def _cookie(header: str | None) -> str | None:
    for part in (header or "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return value.strip()
    return None


def scope_language(scope: Scope) -> str:
    """The language of a request or websocket, from its headers; a page's websocket says the
    language its page was rendered in (``?lang=fr``), since a browser need not send its
    ``Accept-Language`` with a websocket's handshake."""
    if scope["type"] == "websocket":
        asked = parse_qs(scope.get("query_string", b"")[:MAX_HEADER].decode("latin-1")).get("lang")
        if asked and i18n.choose(asked[0][:16]) == asked[0][:16]:
            return asked[0][:16]
    headers = _headers(scope)
    return negotiate(headers.get(b"accept-language"), _cookie(headers.get(b"cookie")))


class Language:
    """The middleware: each request and websocket answered in its language."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        language = scope_language(scope)
        scope.setdefault("state", {})["language"] = language

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    (b"content-language", language.encode()),
                    (b"vary", b"Accept-Language, Cookie"),
                ]
            await send(message)

        with i18n.using(language):
            await self.app(scope, receive, send_with_language if scope["type"] == "http" else send)


class LocalisedJSON(JSONResponse):
    """A JSON reply with every :class:`parlour.i18n.Message` in it in the asker's language (the
    app's default response class: a route returns messages, the reply reads in French)."""

    def render(self, content: Any) -> bytes:
        return super().render(i18n.localise(content))


def localised_replies(router: APIRouter) -> APIRouter:
    """``router`` with its routes' replies left to :class:`LocalisedJSON` as they were built,
    and documented from their return annotations.

    FastAPI serialises a reply by the route's response model (inferred from its return
    annotation) before the response class sees it, and newer versions straight to JSON bytes:
    either way every :class:`parlour.i18n.Message` would become plain English first, and the
    move path would pay for a validation of what the type checker already holds to its shape
    (:mod:`parlour.server.messages.schemas`). So the model moves to the route's documented
    answer (``responses``, which OpenAPI shows and nothing checks at run time) and the reply
    reaches :class:`LocalisedJSON`, which translates it, as it was built."""
    for route in router.routes:
        if isinstance(route, APIRoute):
            model = route.response_model
            if model is not None and _documented(model):
                status = route.status_code or 200
                route.responses.setdefault(status, {}).setdefault("model", model)
            route.response_model = None
    return router


def _documented(model: Any) -> bool:
    """Whether a return annotation names a typed answer (not a bare ``dict`` or ``Any``)."""
    return model is not Any and get_origin(model) not in (dict, Mapping) and model is not dict


def language_names() -> list[dict[str, str]]:
    """The header's choice: each language parlour speaks, named in itself (``Français``)."""
    return [{"code": code, "name": (Locale.parse(code).get_display_name(code) or code).capitalize()}
            for code in i18n.languages()]


def _po_path(language: str) -> Any:
    return i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


@lru_cache(maxsize=8)
def js_catalog(language: str) -> dict[str, Any]:
    """The entries of ``language``'s catalog that the pages' JavaScript uses (``{}`` in
    English), each a string or a list of plural forms, and ``plural``: CLDR category -> form."""
    language = i18n.choose(language)
    reply: dict[str, Any] = {"language": language, "messages": {}, "plural": {}}
    if language == i18n.SOURCE_LANGUAGE:
        return reply
    with open(_po_path(language), "rb") as source:
        catalog = read_po(source, locale=language)
    for message in catalog:
        if not message.id or not any(path.endswith(".js") for path, _line in message.locations):
            continue
        if isinstance(message.id, tuple):
            reply["messages"][message.id[0]] = list(message.string or ())
        elif message.string:  # a message with a context is keyed "context\x04id", as gettext
            key = message.id if message.context is None else f"{message.context}\x04{message.id}"
            reply["messages"][key] = message.string
    form_of = gettext.c2py(catalog.plural_expr)
    rule = Locale.parse(language).plural_form
    for n in range(0, 1001):
        reply["plural"].setdefault(rule(n), form_of(n))
    return reply
