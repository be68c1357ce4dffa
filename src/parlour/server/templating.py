"""The pages, rendered in the reader's language: Jinja2 templates (``templates/``) whose text is
marked ``{{ _("...") }}`` for the catalog, rendered with :mod:`parlour.i18n`'s gettext.

Every page gets ``lang`` (its ``<html lang>``) and ``languages`` (the header's choice).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from parlour import i18n
from parlour.server.language import language_names

TEMPLATES = Path(__file__).resolve().parent / "templates"

_env = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(["html"]),
    extensions=["jinja2.ext.i18n"],
    auto_reload=False,
)
_env.install_gettext_callables(  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
    i18n.gettext, i18n.ngettext, newstyle=True
)


def render(name: str, **context: Any) -> str:
    """The template ``name`` in the current language."""
    return _env.get_template(name).render(
        lang=i18n.current(), languages=language_names(), **context
    )


def page(name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """A page as a response."""
    return HTMLResponse(render(name, **context), status_code=status_code)
