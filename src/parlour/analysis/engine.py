"""The search engine: who wins a sum of Clobber regions, in pure Python.

The algorithm (shared with the compiled engine in ``_cclobber.c``, which follows it step for
step) is a boolean negamax over *sums of regions*, the representation of MCGS (Folkersen, Du,
Müller) and of Griebel & Uiterwijk's solver:

1. A position is a multiset of normalised regions seen from the player to move (``a``
   stones = the mover's). Playing in one region replaces it by the live regions it splits
   into; all others are only seen from the other side (their negatives).
2. Before searching a sum: a region and its negative cancel (``G + -G = 0``); every small
   region's outcome class is looked up in (or added to) the region table, and regions that
   are second-player wins are dropped, since such a game *equals* 0. The outcome classes of
   the rest often decide the sum at once: all positive for the mover wins, all negative
   loses, exactly one fuzzy region and the rest positive wins.
3. A transposition table keyed by the normalised sum (so transposed, turned, mirrored and
   relocated regions all meet), enhanced transposition cut-offs (a child already known lost
   for the opponent ends the node), duplicate regions searched once, and moves ordered to
   leave the opponent the fewest moves, preferring parts the region table already knows to
   be lost for the opponent.

The engine only answers "does the mover win this sum"; :mod:`parlour.analysis.solver` turns
that into winners and winning moves of a game state.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from parlour.analysis.regions import (
    GridRegion,
    components,
    crop,
    graph_components,
    grid_moves,
    is_live,
    mobility,
    normal_form,
)
from parlour.games.clobber.board import iter_bits

# Outcome classes of a region seen from the player to move (bit 0: the mover wins moving
# first; bit 1: the other player wins moving first).
POSITIVE, NEGATIVE, FUZZY, ZERO = 0b01, 0b10, 0b11, 0b00

_BONUS = {NEGATIVE: -4, ZERO: -2, POSITIVE: 4}
"""Move-ordering adjustment for a part whose outcome class (seen by the opponent) is known."""

Progress = Callable[[int, float], Any]
"""Called now and then during a long search with (nodes so far, seconds so far)."""


class SearchTimeout(Exception):
    """Raised inside an engine when its time budget runs out (no result is stored)."""


class RegionSpace(Protocol):
    """What an engine needs to know of a kind of region (grid box or graph nodes)."""

    cannibal: bool

    def neg(self, key: Any) -> Any: ...
    def children(self, key: Any) -> list[tuple[Any, ...]]: ...
    def stones(self, key: Any) -> int: ...
    def score(self, key: Any) -> int: ...


class GridSpace:
    """Regions in normal form ``(h, w, a, b)`` (see :mod:`parlour.analysis.regions`)."""

    def __init__(self, cannibal: bool = False, cache_limit: int = 200_000) -> None:
        self.cannibal = cannibal
        self._neg: dict[GridRegion, GridRegion] = {}
        self._children: dict[GridRegion, list[tuple[GridRegion, ...]]] = {}
        self._limit = cache_limit

    def neg(self, key: GridRegion) -> GridRegion:
        try:
            return self._neg[key]
        except KeyError:
            h, w, a, b = key
            value = self._neg[key] = normal_form(h, w, b, a)
            return value

    def children(self, key: GridRegion) -> list[tuple[GridRegion, ...]]:
        """For each move of the mover: the live regions after it, seen by the other player."""
        cached = self._children.get(key)
        if cached is not None:
            return cached
        if len(self._children) > self._limit:
            self._children.clear()
        h, w, a, b = key
        out = []
        for s, t in grid_moves(key, self.cannibal):
            na = (a & ~(1 << s)) | (1 << t)
            nb = b & ~(1 << t)
            parts = []
            for group in components(na | nb, h, w):
                ga, gb = na & group, nb & group
                if is_live(ga, gb, self.cannibal):
                    parts.append(normal_form(*crop(h, w, gb, ga)))
            out.append(tuple(sorted(parts)))
        self._children[key] = out
        return out

    def stones(self, key: GridRegion) -> int:
        return (key[2] | key[3]).bit_count()

    def score(self, key: GridRegion) -> int:
        """Moves of the region's mover: children leaving the opponent fewest are tried first."""
        return mobility(key, self.cannibal)[0]


class GraphSpace:
    """Regions of a graph (C7) as ``(a, b)`` bitboards over its nodes; no symmetry is used."""

    def __init__(self, adjacency: Sequence[int], cannibal: bool = False) -> None:
        self.adjacency = tuple(adjacency)
        self.cannibal = cannibal
        self._children: dict[tuple[int, int], list[tuple[tuple[int, int], ...]]] = {}

    def neg(self, key: tuple[int, int]) -> tuple[int, int]:
        return key[1], key[0]

    def children(self, key: tuple[int, int]) -> list[tuple[tuple[int, int], ...]]:
        cached = self._children.get(key)
        if cached is not None:
            return cached
        a, b = key
        targets = a | b if self.cannibal else b
        out = []
        for s in iter_bits(a):
            for t in iter_bits(self.adjacency[s] & targets):
                na = (a & ~(1 << s)) | (1 << t)
                nb = b & ~(1 << t)
                parts = []
                for group in graph_components(na | nb, self.adjacency):
                    ga, gb = na & group, nb & group
                    if is_live(ga, gb, self.cannibal):
                        parts.append((gb, ga))
                out.append(tuple(sorted(parts)))
        self._children[key] = out
        return out

    def stones(self, key: tuple[int, int]) -> int:
        return (key[0] | key[1]).bit_count()

    def score(self, key: tuple[int, int]) -> int:
        a, b = key
        targets = a | b if self.cannibal else b
        return sum((self.adjacency[s] & targets).bit_count() for s in iter_bits(a))


class PythonEngine:
    """Boolean negamax over sums of regions (see the module docstring)."""

    name = "python"

    def __init__(self, space: RegionSpace, db_max_stones: int = 14, tt_limit: int = 500_000):
        self.space = space
        self.db_max_stones = db_max_stones
        self.tt: dict[tuple[Any, ...], bool] = {}
        self.tt_limit = tt_limit
        self.outcomes: dict[Any, int] = {}
        self.nodes = 0
        self._deadline = 0.0
        self._progress: Progress | None = None
        self._next_report = 0.0
        self._started = 0.0

    # -- public --------------------------------------------------------------------------
    def win(
        self,
        regions: Sequence[Any],
        time_limit: float | None = None,
        progress: Progress | None = None,
    ) -> bool:
        """Whether the player to move wins the sum of ``regions`` (normal forms, mover = a)."""
        self._started = time.monotonic()
        self._deadline = self._started + time_limit if time_limit else 0.0
        self._progress = progress
        self._next_report = self._started + 0.25
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 20_000))
        try:
            return self._win(tuple(sorted(regions)))
        finally:
            sys.setrecursionlimit(old_limit)

    def outcome(self, key: Any) -> int:
        """The outcome class of one region seen from its mover: POSITIVE, NEGATIVE, FUZZY, ZERO."""
        found = self.outcomes.get(key)
        if found is None:
            first = self._win((key,))
            second = self._win((self.space.neg(key),))
            found = self.outcomes[key] = int(first) | (int(second) << 1)
        return found

    # -- search --------------------------------------------------------------------------
    def _tick(self) -> None:
        now = time.monotonic()
        if self._deadline and now > self._deadline:
            raise SearchTimeout
        if self._progress is not None and now >= self._next_report:
            self._next_report = now + 0.25
            self._progress(self.nodes, now - self._started)

    def _simplify(self, regions: tuple[Any, ...]) -> tuple[tuple[Any, ...], bool | None]:
        """Cancel ``G + -G``, drop zero regions, and decide the sum statically if we can."""
        space = self.space
        items = list(regions)
        if len(items) >= 2:
            kept: list[Any] = []
            for key in items:
                neg = space.neg(key)
                if neg in kept:
                    kept.remove(neg)
                else:
                    kept.append(key)
            items = kept
        if len(items) < 2:
            return tuple(items), (False if not items else None)
        positive = fuzzy = negative = unknown = 0
        kept = []
        for key in items:
            if space.stones(key) > self.db_max_stones:
                unknown += 1
                kept.append(key)
                continue
            cls = self.outcome(key)
            if cls == ZERO:
                continue
            kept.append(key)
            if cls == POSITIVE:
                positive += 1
            elif cls == NEGATIVE:
                negative += 1
            else:
                fuzzy += 1
        result: bool | None = None
        if not kept:
            result = False
        elif not unknown:
            if not negative and fuzzy <= 1:
                result = True  # all > 0 (the mover wins) or one fuzzy plus positives
            elif not positive and not fuzzy:
                result = False  # all < 0
        return tuple(sorted(kept)), result

    def _win(self, regions: tuple[Any, ...]) -> bool:
        self.nodes += 1
        if not self.nodes & 1023:
            self._tick()
        regions, decided = self._simplify(regions)
        if decided is not None:
            return decided
        if len(regions) == 1:
            known_class = self.outcomes.get(regions[0])
            if known_class is not None:  # a lone region already in the region table
                return bool(known_class & POSITIVE)
        tt = self.tt
        known = tt.get(regions)
        if known is not None:
            return known
        space = self.space
        children: list[tuple[int, tuple[Any, ...]]] = []
        seen = set()
        for i, key in enumerate(regions):
            if key in seen:
                continue  # identical regions give identical children
            seen.add(key)
            rest = [space.neg(k) for k in regions[:i] + regions[i + 1 :]]
            for parts in space.children(key):
                child = tuple(sorted(rest + list(parts)))
                found = tt.get(child)
                if found is False:
                    return self._store(regions, True)  # enhanced transposition cut-off
                if found is None:
                    children.append((sum(self._order_score(p) for p in parts), child))
        children.sort(key=lambda item: item[0])
        for _score, child in children:
            if not self._win(child):
                return self._store(regions, True)
        return self._store(regions, False)

    def _order_score(self, part: Any) -> int:
        """Moves left to the opponent in a part, adjusted by what the region table knows."""
        return self.space.score(part) + _BONUS.get(self.outcomes.get(part, -1), 0)

    def _store(self, regions: tuple[Any, ...], value: bool) -> bool:
        if len(self.tt) >= self.tt_limit:
            self.tt.clear()
        self.tt[regions] = value
        return value

    # -- table export for the on-disk region cache ------------------------------------------
    def export_outcomes(self, max_stones: int) -> dict[Any, int]:
        return {k: v for k, v in self.outcomes.items() if self.space.stones(k) <= max_stones}

    def import_outcomes(self, table: dict[Any, int]) -> None:
        self.outcomes.update(table)

    def clear(self) -> None:
        self.tt.clear()
        self.outcomes.clear()
