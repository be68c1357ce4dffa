"""The rules of each game, in the project's own words, for the "Rules" button.

They are read from the package (``parlour/rules/<game>.md``, shipped as package data) and, in
a source checkout, from ``docs/rules/<game>.md``; then rendered to HTML with markdown-it
(raw HTML in the text is not passed through).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from markdown_it import MarkdownIt

_DOCS = Path(__file__).resolve().parents[3] / "docs" / "rules"


def _candidates(game: str) -> list[str]:
    return list(dict.fromkeys([game, game.replace("-", "_"), game.replace("_", "-")]))


@lru_cache(maxsize=32)
def rules_markdown(game: str) -> str | None:
    """The rules text of ``game``, or ``None`` if none is shipped."""
    for name in _candidates(game):
        packaged = resources.files("parlour").joinpath("rules", f"{name}.md")
        if packaged.is_file():
            return packaged.read_text(encoding="utf-8")
        source = _DOCS / f"{name}.md"
        if source.is_file():
            return source.read_text(encoding="utf-8")
    return None


@lru_cache(maxsize=32)
def rules_html(game: str) -> str | None:
    text = rules_markdown(game)
    if text is None:
        return None
    return MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
