"""The tree of sub-positions a distributed Clobber solve keeps, and what decides them.

A sub-position (:class:`Node`) is settled by its moves (won when one leads to a lost
position) or, when it falls apart into regions, by the regions' outcome classes
(:func:`decide_sum`), each region solved alone on the board (:func:`place_region`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour.games.clobber import ClobberState

SYMBOLS = "ox"


def decide_sum(pairs: list[tuple[bool | None, bool | None]]) -> bool | None:
    """Whether the mover wins a sum of regions, from each region's outcome class alone.

    ``(first, second)`` per region: does the mover win it moving first, and when the opponent
    moves first. Second-player wins (P, ``(False, True)``) add nothing; one remaining region
    decides; regions all won by the same side whoever starts sum to a win for that side.
    Anything else (two first-player wins...) is not decided by outcome classes: ``None``.

    >>> decide_sum([(False, True), (True, False)])  # P + N: the mover wins
    True
    >>> decide_sum([(True, False), (True, False)]) is None  # N + N: could be either
    True
    """
    if any(first is None or second is None for first, second in pairs):
        return None
    rest = [(f, s) for f, s in pairs if (f, s) != (False, True)]
    if not rest:
        return False
    if len(rest) == 1:
        return bool(rest[0][0])
    if all(f and s for f, s in rest):
        return True
    if all(not f and not s for f, s in rest):
        return False
    return None


def place_region(
    region: tuple[int, int, int, int], rows: int, columns: int, mover: int
) -> str | None:
    """A grid region (``(h, w, a, b)``, ``a`` the mover's) alone on the board as position text.

    >>> place_region((1, 3, 0b101, 0b010), 2, 3, 1)
    'xox/... x'
    >>> place_region((3, 1, 0b001, 0b110), 2, 3, 0)  # 3x1 does not fit: turned back to 1x3
    'oxx/... o'
    """
    h, w, a, b = region
    cells = {(i // w, i % w): SYMBOLS[mover] for i in range(h * w) if (a >> i) & 1}
    cells.update({(i // w, i % w): SYMBOLS[1 - mover] for i in range(h * w) if (b >> i) & 1})
    if h > rows or w > columns:  # turned round in its normal form: turn it back
        cells = {(c, r): mark for (r, c), mark in cells.items()}
        h, w = w, h
        if h > rows or w > columns:
            return None
    ranks = ("".join(cells.get((r, c), ".") for c in range(columns)) for r in range(rows))
    return "/".join(ranks) + f" {SYMBOLS[mover]}"


# -- the tree of sub-positions ---------------------------------------------------------------
@dataclass(eq=False)
class Node:
    """A sub-position, won when a move leads to a lost child (or its regions decide it)."""

    state: ClobberState
    key: tuple[Any, ...]
    parents: list[Node] = field(default_factory=list)
    children: list[Node] | None = None  # its moves, once split
    region_pairs: list[tuple[Node, Node]] | None = None  # each region: mover first, other
    value: bool | None = None  # does the side to move win
    ref: Any = None  # its running task
    worker: int = -1
    started: float = 0.0
    queued: bool = False
    depth: int = 0  # moves from the root (the fewest, over its parents)


def ordered_actions(state: ClobberState) -> list[int]:
    """Moves leaving the opponent the fewest replies first (the local solver's order)."""
    return sorted(state.legal_actions(), key=lambda a: len(state.child(a).legal_actions()))
