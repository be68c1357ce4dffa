"""Independent regions of a Clobber position, and their normal forms.

A Clobber move only ever lands on an occupied square next to the moving stone, so the set of
occupied squares only shrinks: two groups of stones that are not connected through occupied
squares can never interact again. A position is therefore the *sum* (in the sense of
combinatorial game theory) of its connected groups, which we call regions; a region where
nobody can move is worth 0 and is dropped.

A grid region is written ``(h, w, a, b)``: the height and width of its bounding box and two
bitboards over that box (bit ``r * w + c``), ``a`` the stones of the player to move and ``b`` the
other player's. Where a region sits on the board does not matter, nor does turning or
mirroring it, so every region is brought to a *normal form*: the least of its eight turned and
mirrored copies. Swapping the roles of ``a`` and ``b`` gives the negative of the region (the
same stones seen by the other player); a region and its negative in one sum cancel out.

Graph regions (ruling C7) keep their nodes: ``(a, b)`` are bitboards over the whole graph's
nodes and the normal form is the region itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from parlour.games.clobber.board import Topology, iter_bits

GridRegion = tuple[int, int, int, int]
"""``(h, w, a, b)``: bounding box height and width, mover's stones, other stones."""

MAX_CELLS = 64
"""The compiled engine keeps a region's box in one 64-bit word."""


@lru_cache(maxsize=4096)
def _transforms(h: int, w: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """The eight symmetries of an ``h`` x ``w`` box: ``(new_h, new_w, new_index_of[old])``."""
    out = []
    for k in range(8):
        perm = []
        nh, nw = (h, w) if k < 4 else (w, h)
        for r in range(h):
            for c in range(w):
                if k == 0:
                    rr, cc = r, c
                elif k == 1:
                    rr, cc = r, w - 1 - c
                elif k == 2:
                    rr, cc = h - 1 - r, c
                elif k == 3:
                    rr, cc = h - 1 - r, w - 1 - c
                elif k == 4:
                    rr, cc = c, r
                elif k == 5:
                    rr, cc = c, h - 1 - r
                elif k == 6:
                    rr, cc = w - 1 - c, r
                else:
                    rr, cc = w - 1 - c, h - 1 - r
                perm.append(rr * nw + cc)
        out.append((nh, nw, tuple(perm)))
    return tuple(out)


def _apply(bits: int, perm: tuple[int, ...]) -> int:
    out = 0
    while bits:
        low = bits & -bits
        out |= 1 << perm[low.bit_length() - 1]
        bits ^= low
    return out


def normal_form(h: int, w: int, a: int, b: int) -> GridRegion:
    """The least of the eight turned and mirrored copies of a region whose box is tight."""
    best: GridRegion | None = None
    for nh, nw, perm in _transforms(h, w):
        candidate = (nh, nw, _apply(a, perm), _apply(b, perm))
        if best is None or candidate < best:
            best = candidate
    assert best is not None
    return best


@lru_cache(maxsize=1 << 16)
def _masks(h: int, w: int) -> tuple[int, int, int]:
    """``(full, not_first_column, not_last_column)`` for an ``h`` x ``w`` box."""
    full = (1 << (h * w)) - 1
    first = sum(1 << (r * w) for r in range(h))
    return full, full & ~first, full & ~(first << (w - 1))


def neighbours_of(bits: int, h: int, w: int) -> int:
    """Every square orthogonally next to a square of ``bits`` (inside the box)."""
    full, not_first, not_last = _masks(h, w)
    return (
        (bits >> w)
        | ((bits << w) & full)
        | ((bits << 1) & not_first)
        | ((bits >> 1) & not_last)
    )


def components(occupied: int, h: int, w: int) -> Iterator[int]:
    """The 4-connected groups of ``occupied`` in an ``h`` x ``w`` box."""
    while occupied:
        group = occupied & -occupied
        while True:
            grown = (group | neighbours_of(group, h, w)) & occupied
            if grown == group:
                break
            group = grown
        occupied ^= group
        yield group


def crop(h: int, w: int, a: int, b: int) -> GridRegion:
    """Shrink the box of a region to the rows and columns it uses."""
    occupied = a | b
    rows = [r for r in range(h) if (occupied >> (r * w)) & ((1 << w) - 1)]
    row_bits = 0
    for r in rows:
        row_bits |= (occupied >> (r * w)) & ((1 << w) - 1)
    cols = [c for c in range(w) if (row_bits >> c) & 1]
    r0, r1, c0, c1 = rows[0], rows[-1], cols[0], cols[-1]
    nh, nw = r1 - r0 + 1, c1 - c0 + 1
    if (nh, nw) == (h, w):
        return h, w, a, b
    row_mask = ((1 << nw) - 1) << c0
    na = nb = 0
    for i, r in enumerate(range(r0, r1 + 1)):
        na |= (((a >> (r * w)) & row_mask) >> c0) << (i * nw)
        nb |= (((b >> (r * w)) & row_mask) >> c0) << (i * nw)
    return nh, nw, na, nb


def is_live(a: int, b: int, cannibal: bool) -> bool:
    """Whether anyone can move in a connected group: both colours (or, cannibal, two stones)."""
    if cannibal:
        both = a | b
        return both & (both - 1) != 0
    return a != 0 and b != 0


def grid_regions(
    rows: int, columns: int, mover: int, other: int, cannibal: bool = False
) -> list[GridRegion]:
    """The live regions of a grid position, each in normal form, ``a`` = the mover's stones."""
    regions = []
    for group in components(mover | other, rows, columns):
        a, b = mover & group, other & group
        if is_live(a, b, cannibal):
            regions.append(normal_form(*crop(rows, columns, a, b)))
    return regions


def grid_moves(region: GridRegion, cannibal: bool) -> list[tuple[int, int]]:
    """``(from_bit, to_bit)`` of every move of the ``a`` player in a region."""
    h, w, a, b = region
    targets = a | b if cannibal else b
    full, not_first, not_last = _masks(h, w)
    moves = []
    # A stone at s can move north onto s - w when that square is a target, and so on.
    for sources, delta in (
        (a & (targets << w), -w),
        (a & ((targets >> w) & full), w),
        (a & ((targets >> 1) & not_last), 1),
        (a & ((targets << 1) & not_first), -1),
    ):
        for s in iter_bits(sources):
            moves.append((s, s + delta))
    return moves


def mobility(region: GridRegion, cannibal: bool) -> tuple[int, int]:
    """How many moves the ``a`` player and the ``b`` player have in a region."""
    h, w, a, b = region
    _full, not_first, not_last = _masks(h, w)

    def count(x: int, y: int) -> int:
        return (
            (x & (y << w)).bit_count()
            + (x & (y >> w)).bit_count()
            + (x & (y >> 1) & not_last).bit_count()
            + (x & (y << 1) & not_first).bit_count()
        )

    if cannibal:
        return count(a, a | b), count(b, a | b)
    return count(a, b), count(b, a)


def region_text(region: GridRegion, mover: str = "x") -> str:
    """A region drawn in position-text style, the ``a`` stones as ``mover``."""
    h, w, a, b = region
    other = "o" if mover == "x" else "x"
    ranks = []
    for r in range(h):
        rank = ""
        for c in range(w):
            i = r * w + c
            rank += mover if (a >> i) & 1 else other if (b >> i) & 1 else "."
        ranks.append(rank)
    return "/".join(ranks)


def parse_region(text: str, mover: str = "x") -> GridRegion:
    """A region from position-text ranks (``"xxo"`` or ``"xo/ox"``), ``a`` = ``mover``'s stones."""
    ranks = text.strip().split("/")
    h, w = len(ranks), len(ranks[0])
    if any(len(r) != w for r in ranks):
        raise ValueError(f"ranks of {text!r} differ in length")
    a = b = 0
    for r, rank in enumerate(ranks):
        for c, ch in enumerate(rank):
            if ch == mover:
                a |= 1 << (r * w + c)
            elif ch in "ox":
                b |= 1 << (r * w + c)
            elif ch != ".":
                raise ValueError(f"unknown mark {ch!r} in {text!r}")
    return h, w, a, b


# -- graphs (C7) ---------------------------------------------------------------------------
def graph_adjacency(topology: Topology) -> tuple[int, ...]:
    """For each node, the bitboard of its neighbours."""
    return tuple(
        sum(1 << n for n in slots if n >= 0) for slots in topology.neighbours
    )


def graph_components(occupied: int, adjacency: tuple[int, ...]) -> Iterator[int]:
    while occupied:
        group = frontier = occupied & -occupied
        while frontier:
            grown = 0
            for node in iter_bits(frontier):
                grown |= adjacency[node]
            frontier = grown & occupied & ~group
            group |= frontier
        occupied ^= group
        yield group


def graph_regions(
    adjacency: tuple[int, ...], mover: int, other: int, cannibal: bool = False
) -> list[tuple[int, int]]:
    """The live regions of a graph position as ``(a, b)`` bitboards over the graph's nodes."""
    regions = []
    for group in graph_components(mover | other, adjacency):
        a, b = mover & group, other & group
        if is_live(a, b, cannibal):
            regions.append((a, b))
    return regions
