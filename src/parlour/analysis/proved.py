"""Clobber positions the solver has proved already, answered from data instead of a search.

parlour's hunt for new Clobber results (``bench/clobber_hunt.py``) keeps one *record* per
position it solved: 6x6 (a first-player win, with b6b5: record ``first:2``), 3x12, 4x8, the
long strips, every position of the MCGS 6x6 page, and the moves it refuted on the way. Those
proofs took up to tens of CPU hours; asking ``parlour solve`` or the analysis board about one
of those positions should not start them again. ``data/clobber-proved.txt.gz`` holds every
position the records decide, one line each, built from the records by ``python
bench/clobber_proved.py`` (a test builds it again and compares)::

    <key> TAB <W or L> TAB <record>

``W``: the side to move wins; ``L``: it loses; ``record``: the hunt record that proves it
(``first:2``, ``3x12+b2a2``...). The key is the position as the solver's tables see it: its
live regions, each in normal form (the least of its eight turned and mirrored copies, the
side to move's stones written ``x``), in order, joined by spaces; so a position turned,
mirrored, moved on the board, with the colours swapped (the other side to move) or with dead
stones added is the same key. Only plain Clobber on a grid (not Cannibal Clobber, not graphs)
is keyed.

:func:`lookup` answers a position from the data and from its moves one ply down: a move into
a position lost for its side to move wins; a position every move of which leads into a
position won for its side to move is lost. A position the data does not decide gets ``None``
(the caller searches, as before).
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from parlour.analysis.regions import GridRegion, grid_regions, region_text

DATA_FILE = "clobber-proved.txt.gz"
"""The shipped data, in ``parlour/analysis/data/``."""
HEADER = "# parlour proved Clobber positions v1: key<TAB>W|L<TAB>record"
"""The data file's first line (a file without it is refused, not misread)."""
SOURCE = "parlour's Clobber hunt (bench/clobber_hunt_records)"
"""Where the records live, for messages."""


@dataclass(frozen=True)
class Proof:
    """What the shipped records prove about one position.

    ``mover_wins``: whether the side to move wins. ``winning_moves`` (and their actions): the
    moves the records prove winning, in the position's own notation; when the side to move
    wins they may be empty (a record holds the result without its move). ``complete``: every
    move of the position is decided by the records, so ``winning_moves`` is every winning
    move. ``records``: the records the answer rests on.
    """

    mover_wins: bool
    winning_moves: tuple[str, ...]
    winning_actions: tuple[int, ...]
    complete: bool
    records: tuple[str, ...]

    def describe(self) -> str:
        """``"proved by record first:2"`` (records: their names joined)."""
        noun = "record" if len(self.records) == 1 else "records"
        return f"proved by {noun} {', '.join(self.records)} of {SOURCE}"


def key_of_regions(regions: Iterable[GridRegion]) -> str:
    """The key of a sum of regions in normal form (``a`` the side to move's stones)."""
    return " ".join(region_text(region, "x") for region in sorted(regions))


def key(state: Any) -> str | None:
    """The key of a Clobber state (see the module), or ``None`` when it has none: a graph
    (C7) or Cannibal Clobber (C8)."""
    game = state.get_game()
    if game.grid is None or game.params.get("cannibal"):
        return None
    mover, other = state.stones(state.to_move), state.stones(1 - state.to_move)
    return key_of_regions(grid_regions(game.grid.rows, game.grid.columns, mover, other))


def live_stones(key_text: str) -> int:
    """How many stones the regions of a key hold."""
    return sum(key_text.count(mark) for mark in "ox")


@dataclass(frozen=True)
class Table:
    """The decided positions: key -> (the side to move wins, the record)."""

    entries: dict[str, tuple[bool, str]]
    max_stones: int
    """The most live stones of any position in the table: a position with more than one stone
    above it is neither in it nor one move above it, and is not looked at."""

    @classmethod
    def from_lines(cls, lines: Iterable[str], header: str = HEADER) -> Table:
        """Read the data file's lines (``header`` first: the opening book's file,
        :mod:`parlour.analysis.openings`, has the same lines under its own header)."""
        lines = iter(lines)
        if next(lines, "").rstrip("\n") != header:
            raise ValueError(f"not a proved-positions file (its first line is not {header!r})")
        entries: dict[str, tuple[bool, str]] = {}
        for line in lines:
            text, outcome, record = line.rstrip("\n").split("\t")
            if outcome not in ("W", "L") or text in entries:
                raise ValueError(f"bad proved-positions line {line!r}")
            entries[text] = (outcome == "W", record)
        return cls(entries, max((live_stones(k) for k in entries), default=0))

    def lines(self, header: str = HEADER) -> Iterator[str]:
        """The data file's lines, header first, the keys in order (the file is the same
        whatever order the records were read in)."""
        yield header
        for text in sorted(self.entries):
            wins, record = self.entries[text]
            yield f"{text}\t{'W' if wins else 'L'}\t{record}"


def read(data: bytes, header: str = HEADER) -> Table:
    """A table from the bytes of a data file (gzip-compressed)."""
    return Table.from_lines(gzip.decompress(data).decode("utf-8").splitlines(), header)


def write(table: Table, header: str = HEADER) -> bytes:
    """A data file's bytes (gzip, no time stamp: the same table gives the same text)."""
    text = "\n".join(table.lines(header)) + "\n"
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


@cache
def shipped() -> Table:
    """The table that ships with parlour (read once per process)."""
    data = resources.files("parlour.analysis").joinpath("data", DATA_FILE).read_bytes()
    return read(data)


def lookup(state: Any, table: Table | None = None) -> Proof | None:
    """What the records prove about ``state`` (``table``: the shipped one by default), or
    ``None`` when they do not decide it, or it is over (the solver answers that at once)."""
    table = shipped() if table is None else table
    own_key = key(state)
    if own_key is None or state.is_terminal() or live_stones(own_key) > table.max_stones + 1:
        return None
    own = table.entries.get(own_key)
    wins: list[tuple[int, str]] = []
    refuted: list[str] = []
    actions = state.legal_actions()
    for action in actions:
        below = table.entries.get(key(state.child(action)) or "")
        if below is None:
            continue
        their_win, record = below
        if their_win:
            refuted.append(record)
        else:
            wins.append((action, record))
    complete = len(wins) + len(refuted) == len(actions)
    if wins:
        return Proof(True, tuple(state.action_to_string(a) for a, _ in wins),
                     tuple(a for a, _ in wins), complete, _names(r for _, r in wins))
    if own is not None:
        return Proof(own[0], (), (), not own[0], (own[1],))
    if complete:  # every move refuted
        return Proof(False, (), (), True, _names(refuted))
    return None


def _names(records: Iterable[str]) -> tuple[str, ...]:
    """The records named once each, in order of first mention."""
    return tuple(dict.fromkeys(records))
