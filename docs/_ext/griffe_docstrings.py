"""A griffe extension that lets the API reference read parlour's docstrings as written.

The docstrings are written to be read in the source: Sphinx-style roles (:func:`load_game`)
and bare doctest sessions (``>>>`` lines). mkdocstrings renders Markdown, so before rendering
this turns each role into a cross-reference (a link when the name is documented on the site,
plain code when it is not) and each doctest session into a fenced ``pycon`` block. The doctests
themselves are run by tests/docs/test_examples.py.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):`(~?)([\w.]+)(\(\))?`")


class DocstringsForMarkdown(griffe.Extension):
    """Roles become optional cross-references; doctest sessions become fenced code."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(roles_to_refs(obj.docstring.value, obj))


def roles_to_refs(text: str, obj: griffe.Object) -> str:
    def ref(match: re.Match[str]) -> str:
        short, name, call = match.group(1), match.group(2), match.group(3) or ""
        identifier = name
        if "." not in name or name.split(".")[0] not in ("parlour",):
            scope = obj if obj.is_class or obj.is_module else obj.parent
            try:
                identifier = scope.resolve(name) if scope is not None else name
            except (griffe.NameResolutionError, AttributeError, ValueError):
                member = scope.path + "." + name if scope is not None else name
                identifier = member
        title = (name.rsplit(".", 1)[-1] if short else name) + call
        return f'<autoref identifier="{identifier}" optional><code>{title}</code></autoref>'

    return ROLE.sub(ref, text)


def fence_doctests(text: str) -> str:
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            out += ["```pycon", *textwrap.dedent("\n".join(block)).split("\n"), "```"]
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)
