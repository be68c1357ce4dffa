"""Long texts in translatable pieces: a rules page (Markdown) cut into paragraphs, headings,
list items and picture captions, and a tutorial's words, one catalog entry each.

The same cut serves ``pybabel extract`` (:func:`extract_markdown`, :func:`extract_tutorial`,
named in ``babel.cfg``) and the reader (:func:`translate_markdown`), so a translator sees
whole sentences and the page rebuilds itself from their translations; a piece with no
translation stays English, so a page is never missing a paragraph.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterator
from typing import IO, Any

from parlour.i18n import gettext

FENCE = "```"
_ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)(.*)$")
_HEADING = re.compile(r"^(#{1,6}\s+)(.*)$")
_CAPTION = re.compile(r'^(caption\s*=\s*)(".*")\s*$')
TUTORIAL_WORDS = ("title", "intro", "finish", "instruction", "hint", "explain")
"""The fields of a tutorial and of its steps that a player reads."""

Piece = tuple[int, str, str, str]
"""A translatable piece: its first line (from 1), what goes before it (a list marker, a
heading's hashes, ``caption = ``), its text on one line, and what ends it."""


def _pieces(text: str) -> Iterator[tuple[str, Piece | None]]:
    """The Markdown's lines as pieces (``("", piece)``) between what is not translated
    (``(raw, None)``: blank lines, fences, a picture's position)."""
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith(FENCE):
            yield line, None
            index += 1
            while index < len(lines) and not lines[index].startswith(FENCE):
                found = _CAPTION.match(lines[index])
                if found:
                    caption = tomllib.loads(f"c = {found.group(2)}")["c"]
                    yield "", (index + 1, found.group(1), caption, "")
                else:
                    yield lines[index], None
                index += 1
            if index < len(lines):
                yield lines[index], None
                index += 1
            continue
        if not line.strip():
            yield line, None
            index += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            yield "", (index + 1, heading.group(1), heading.group(2).strip(), "")
            index += 1
            continue
        item = _ITEM.match(line)
        prefix, words = (item.group(1), [item.group(2)]) if item else ("", [line.strip()])
        start = index + 1
        index += 1
        while index < len(lines) and lines[index].strip() and not lines[index].startswith(FENCE):
            if _ITEM.match(lines[index]) or _HEADING.match(lines[index]):
                break
            words.append(lines[index].strip())
            index += 1
        yield "", (start, prefix, " ".join(words), "")


def translate_markdown(text: str, translate: Callable[[str], str] = gettext) -> str:
    """``text`` (a rules page) with each piece translated (captions stay TOML strings)."""
    out = []
    for raw, piece in _pieces(text):
        if piece is None:
            out.append(raw)
            continue
        _line, prefix, words, _end = piece
        translated = translate(words)
        if prefix.startswith("caption"):
            translated = '"' + translated.replace("\\", "\\\\").replace('"', '\\"') + '"'
        out.append(prefix + translated)
    return "\n".join(out)


def _source(fileobj: IO[bytes]) -> str:
    return fileobj.read().decode("utf-8")


def extract_markdown(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
                     ) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor of a rules page: each piece is a message."""
    for _raw, piece in _pieces(_source(fileobj)):
        if piece is not None:
            yield piece[0], "", piece[2], []


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in TUTORIAL_WORDS and isinstance(inner, str):
                yield inner
            elif isinstance(inner, dict | list):
                yield from _strings(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner)


def extract_tutorial(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
                     ) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor of a ``tutorial.toml``: each word a player reads is a message (at
    the line where it stands)."""
    source = _source(fileobj)
    lines = source.split("\n")
    for words in _strings(tomllib.loads(source)):
        first = words.split("\n")[0][:40]
        number = next((n + 1 for n, line in enumerate(lines) if first in line), 1)
        yield number, "", words, []
