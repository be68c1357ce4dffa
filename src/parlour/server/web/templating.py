"""The pages, rendered in the reader's language: Jinja2 templates (``templates/``) whose text is
marked ``{{ _("...") }}`` for the catalog, rendered with :mod:`parlour.i18n`'s gettext.

Every page gets ``lang`` (its ``<html lang>``), ``languages`` (the header's choice) and
``catalog`` (the JavaScript's words, inline: ``_catalog.html``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from parlour import i18n
from parlour.server.web.language import js_catalog, language_names

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"

_env = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(["html"]),
    extensions=["jinja2.ext.i18n"],
    auto_reload=False,
)
_env.install_gettext_callables(  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
    i18n.gettext, i18n.ngettext, newstyle=False  # no %-formatting: "95%" is text
)


def render(name: str, **context: Any) -> str:
    """The template ``name`` in the current language, with the pages' catalog inline (so that
    the page's JavaScript has its words without another request)."""
    language = i18n.current()
    return _env.get_template(name).render(
        lang=language, languages=language_names(), catalog=_inline_catalog(language), **context
    )


@lru_cache(maxsize=8)
def _inline_catalog(language: str) -> Markup | None:
    """The JavaScript's catalog as JSON safe inside a ``<script type="application/json">``
    (no ``<`` to close the element), or ``None`` in English."""
    if language == i18n.SOURCE_LANGUAGE:
        return None
    text = json.dumps(js_catalog(language), ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c").replace("&", "\\u0026"))


def page(name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """A page as a response."""
    return HTMLResponse(render(name, **context), status_code=status_code)
