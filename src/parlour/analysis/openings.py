"""parlour's Clobber opening book: the standard boards' starts and first moves, solved ahead.

An analyst opens the start of a board first, then the position after a move or two; on the
default 5x6 board the solver needs minutes of CPU for those (676 CPU s for the start), far
beyond the analysis board's few seconds. ``data/clobber-openings.txt.gz`` holds them solved
ahead of time by ``python bench/clobber_openings.py`` (one process, a time budget; a position
the solver did not finish in its budget is left out, never guessed). Its lines are those of
the hunt's proved positions (:mod:`parlour.analysis.proved`), under their own header::

    <key> TAB <W or L> TAB openings

keyed the same way (the live regions in normal form, the side to move's stones ``x``), so a
position turned, mirrored, with the colours swapped or with dead stones added is one entry,
and every won position has a position lost for its side to move among its children (so
:func:`lookup` finds the winning move one ply down).

:func:`lookup` answers from the book and the hunt's records together (6x6 and its first
moves, 3x12, 4x8, the long 2xn and 3xn strips): one table, so a move into a position either
decides counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any

from parlour.analysis import proved

DATA_FILE = "clobber-openings.txt.gz"
"""The shipped book, in ``parlour/analysis/data/``."""
HEADER = "# parlour Clobber opening book v1: key<TAB>W|L<TAB>openings"
"""The book file's first line."""
RECORD = "openings"
"""The name an entry of the book carries where a hunt record carries the record's name."""
SEARCH_FIRST_STONES = 20
"""Positions of at most this many stones are searched rather than looked up (by ``parlour
solve`` and the analysis board): the solver answers them in a fraction of a second (the 4x5
start, 20 stones, in 0.07 s), with every winning move and, on the board, the whole line."""
BOOK_SOURCE = "from parlour's opening book (bench/clobber_openings.py)"
"""Where a book answer comes from, for the command line."""


@cache
def shipped() -> proved.Table:
    """The book that ships with parlour (read once per process)."""
    data = resources.files("parlour.analysis").joinpath("data", DATA_FILE).read_bytes()
    return proved.read(data, HEADER)


@cache
def known() -> proved.Table:
    """The book and the hunt's proved positions in one table (they agree where both hold a
    position: a test checks it)."""
    book, hunt = shipped(), proved.shipped()
    entries = {**book.entries, **hunt.entries}
    return proved.Table(entries, max(book.max_stones, hunt.max_stones))


def lookup(state: Any, table: proved.Table | None = None) -> proved.Proof | None:
    """What the book and the hunt's records decide about ``state`` (see
    :func:`parlour.analysis.proved.lookup`), or ``None``."""
    return proved.lookup(state, known() if table is None else table)


def from_book(records: Iterable[str]) -> bool:
    """Whether an answer resting on ``records`` rests on the opening book alone."""
    names = set(records)
    return bool(names) and names <= {RECORD}


def hunt_records(records: Iterable[str]) -> tuple[str, ...]:
    """The hunt's records among ``records`` (the book's name left out)."""
    return tuple(name for name in records if name != RECORD)


def describe(proof: proved.Proof) -> str:
    """Where an answer comes from, for the command line: ``"from parlour's opening book"``,
    ``"proved by record first:2 of ..."`` (:meth:`~parlour.analysis.proved.Proof.describe`),
    or both."""
    hunt = hunt_records(proof.records)
    said = [BOOK_SOURCE] if RECORD in proof.records else []
    if hunt:
        said.append(proved.Proof(proof.mover_wins, (), (), proof.complete, hunt).describe())
    return " and ".join(said)


def position_of(key: str) -> str:
    """A position whose key is ``key``: its regions side by side, each with empty squares
    around it, Black (``x``, the key's side to move) to move (no region: a lone stone)."""
    regions = [region.split("/") for region in key.split()]
    if not regions:
        return "x. x"
    height = max(len(ranks) for ranks in regions) + 2
    rows = ["."] * height
    for ranks in regions:
        width = len(ranks[0])
        for i in range(height):
            rows[i] += (ranks[i - 1] if 1 <= i <= len(ranks) else "." * width) + ".."
    return "/".join(rows) + " x"
