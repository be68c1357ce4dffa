"""Canonical forms of combinatorial games, and the values of Clobber regions.

A game is ``{left options | right options}``; its *canonical form* is the unique simplest game
equal to it (dominated options removed, reversible options bypassed; Conway, *On Numbers and
Games*; Siegel, *Combinatorial Game Theory*, ch. II). Equal games have the same canonical form,
so :class:`Value` objects are interned: two values are equal exactly when they are the same
object, and a sum of regions can be replaced by the sum of their values.

Left is Black (``x``) and Right is White (``o``), as in the CGT literature on Clobber: ``xo``
is ``*``, ``xxo`` is ``↑`` (up), ``xoo`` is ``↓``. Every plain Clobber position is *all-small*
(whenever one player can move, so can the other), so its value is an infinitesimal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from parlour.analysis.engine import GraphSpace, GridSpace, RegionSpace


class Value:
    """A game in canonical form. Interned: build values with :func:`game`, never directly."""

    __slots__ = ("id", "left", "right")
    left: tuple[Value, ...]
    right: tuple[Value, ...]
    id: int

    def __repr__(self) -> str:
        return f"<Value {name(self)}>"

    def __str__(self) -> str:
        return name(self)

    def __add__(self, other: Value) -> Value:
        return add(self, other)

    def __neg__(self) -> Value:
        return neg(self)

    def __sub__(self, other: Value) -> Value:
        return add(self, neg(other))

    def __ge__(self, other: Value) -> bool:
        return ge(self, other)

    def __le__(self, other: Value) -> bool:
        return ge(other, self)

    def __gt__(self, other: Value) -> bool:
        return ge(self, other) and self is not other

    def __lt__(self, other: Value) -> bool:
        return ge(other, self) and self is not other

    def __hash__(self) -> int:
        return self.id

    def __eq__(self, other: object) -> bool:
        return self is other


_INTERN: dict[tuple[tuple[int, ...], tuple[int, ...]], Value] = {}
_GE: dict[tuple[int, int], bool] = {}
_ADD: dict[tuple[int, int], Value] = {}
_NEG: dict[int, Value] = {}


def _intern(left: Iterable[Value], right: Iterable[Value]) -> Value:
    lt = tuple(sorted(set(left), key=lambda v: v.id))
    rt = tuple(sorted(set(right), key=lambda v: v.id))
    key = (tuple(v.id for v in lt), tuple(v.id for v in rt))
    found = _INTERN.get(key)
    if found is None:
        found = Value.__new__(Value)
        found.left, found.right, found.id = lt, rt, len(_INTERN)
        _INTERN[key] = found
    return found


class _Form:
    """A game form that is not (yet) canonical; its options are canonical values."""

    __slots__ = ("left", "right")

    def __init__(self, left: Sequence[Value], right: Sequence[Value]) -> None:
        self.left, self.right = tuple(left), tuple(right)


def ge(g: Any, h: Any) -> bool:
    """``g >= h``: Left wins ``g - h`` moving second (no ``g^R <= h`` and no ``h^L >= g``)."""
    both = isinstance(g, Value) and isinstance(h, Value)
    if both:
        if g is h:
            return True
        key = (g.id, h.id)
        found = _GE.get(key)
        if found is not None:
            return found
    result = not any(ge(h, gr) for gr in g.right) and not any(ge(hl, g) for hl in h.left)
    if both:
        _GE[(g.id, h.id)] = result
    return result


def game(left: Iterable[Value] = (), right: Iterable[Value] = ()) -> Value:
    """The canonical form of ``{left | right}`` (options must be canonical values)."""
    lefts, rights = list(set(left)), list(set(right))
    while True:
        lefts = [x for x in lefts if not any(y is not x and ge(y, x) for y in lefts)]
        rights = [x for x in rights if not any(y is not x and ge(x, y) for y in rights)]
        form = _Form(lefts, rights)
        changed = False
        new_left: list[Value] = []
        for x in lefts:
            reverse = next((xr for xr in x.right if ge(form, xr)), None)
            if reverse is None:
                new_left.append(x)
            else:
                new_left.extend(reverse.left)  # x reverses through xr: bypass it
                changed = True
        new_right: list[Value] = []
        for x in rights:
            reverse = next((xl for xl in x.left if ge(xl, form)), None)
            if reverse is None:
                new_right.append(x)
            else:
                new_right.extend(reverse.right)
                changed = True
        lefts, rights = list(set(new_left)), list(set(new_right))
        if not changed:
            return _intern(lefts, rights)


ZERO = game()
STAR = game([ZERO], [ZERO])
UP = game([ZERO], [STAR])
DOWN = game([STAR], [ZERO])
ONE = game([ZERO], [])


def neg(g: Value) -> Value:
    found = _NEG.get(g.id)
    if found is None:
        found = _intern([neg(r) for r in g.right], [neg(x) for x in g.left])
        _NEG[g.id] = found
        _NEG[found.id] = g
    return found


def add(g: Value, h: Value) -> Value:
    """The canonical form of the sum ``g + h``."""
    if g is ZERO:
        return h
    if h is ZERO:
        return g
    key = (g.id, h.id) if g.id <= h.id else (h.id, g.id)
    found = _ADD.get(key)
    if found is None:
        found = game(
            [add(gl, h) for gl in g.left] + [add(g, hl) for hl in h.left],
            [add(gr, h) for gr in g.right] + [add(g, hr) for hr in h.right],
        )
        _ADD[key] = found
    return found


def total(values: Iterable[Value]) -> Value:
    result = ZERO
    for v in values:
        result = add(result, v)
    return result


@cache
def nimber(n: int) -> Value:
    """``*n``: options every smaller nimber, for both players."""
    smaller = [nimber(i) for i in range(n)]
    return _intern(smaller, smaller) if n else ZERO  # already canonical


@cache
def integer(n: int) -> Value:
    if n == 0:
        return ZERO
    if n > 0:
        return _intern([integer(n - 1)], [])
    return _intern([], [integer(n + 1)])


def ups(n: int, star: int = 0) -> Value:
    """``n·↑ + *star`` (``n`` may be negative: downs)."""
    unit = UP if n >= 0 else DOWN
    return total([unit] * abs(n) + [nimber(star)])


def outcome(g: Value) -> str:
    """``"P"`` (g = 0), ``"L"`` (g > 0), ``"R"`` (g < 0) or ``"N"`` (g fuzzy with 0)."""
    left_second, right_second = ge(g, ZERO), ge(ZERO, g)
    if left_second and right_second:
        return "P"
    if left_second:
        return "L"
    if right_second:
        return "R"
    return "N"


# -- names --------------------------------------------------------------------------------
_NAMES: dict[int, str] = {}


def _star(k: int) -> str:
    return "" if k == 0 else "*" if k == 1 else f"*{k}"


def _named() -> dict[int, str]:
    if _NAMES:
        return _NAMES
    for k in range(8):
        _NAMES.setdefault(nimber(k).id, "0" if k == 0 else _star(k))
    for n in range(-6, 7):
        if n:
            _NAMES.setdefault(integer(n).id, str(n))
    half = game([ZERO], [ONE])
    _NAMES.setdefault(half.id, "1/2")
    _NAMES.setdefault(neg(half).id, "-1/2")
    arrows = {1: "↑", 2: "⇑", -1: "↓", -2: "⇓"}
    for n in range(-8, 9):
        for k in range(8):
            if n == 0:
                continue
            base = arrows.get(n) or (f"{n}·↑" if n > 0 else f"{-n}·↓")
            _NAMES.setdefault(ups(n, k).id, base + _star(k))
    return _NAMES


def name(g: Value) -> str:
    """A readable name: ``0``, ``*``, ``*2``, ``↑``, ``⇑*``, ``3·↑``, ``1``, or ``{L | R}``."""
    named = _named().get(g.id)
    if named is not None:
        return named
    if len(g.left) == 1 and len(g.right) == 1 and g.left[0] is neg(g.right[0]) and ge(
        g.left[0], g.right[0]
    ):
        return f"±{_option_name(g.left[0])}"
    left = ", ".join(_option_name(x) for x in g.left)
    right = ", ".join(_option_name(x) for x in g.right)
    return "{" + f"{left} | {right}".strip() + "}"


def _option_name(g: Value) -> str:
    text = name(g)
    return f"({text})" if text.startswith("±") else text


# -- Clobber regions --------------------------------------------------------------------------
class RegionValues:
    """Values of the regions of one kind of board; memoised by normal form.

    Region keys are read with ``a`` = Left's (Black's, ``x``) stones.
    """

    def __init__(self, space: RegionSpace) -> None:
        self.space = space
        self._memo: dict[Any, Value] = {}

    def value(self, key: Any) -> Value:
        found = self._memo.get(key)
        if found is not None:
            return found
        space = self.space
        # Left moves: the parts are seen by Right (a = Right's stones), so each is negated.
        left = [total(neg(self.value(p)) for p in parts) for parts in space.children(key)]
        # Right moves: children of the negative are seen by Left again.
        right = [total(self.value(p) for p in parts) for parts in space.children(space.neg(key))]
        found = self._memo[key] = game(left, right)
        return found


_GRID_VALUES = {False: RegionValues(GridSpace(False)), True: RegionValues(GridSpace(True))}


def region_value(region: tuple[int, int, int, int], cannibal: bool = False) -> Value:
    """The value of a grid region ``(h, w, a, b)`` in normal form, ``a`` = Left's stones."""
    return _GRID_VALUES[cannibal].value(region)


def position_value(state: Any) -> Value:
    """The value of a whole Clobber position (Left = Black ``x``); exponential in its size.

    Meant for small positions and endgames: it is the sum of the values of its regions.
    """
    from parlour.analysis.regions import graph_adjacency, graph_regions, grid_regions

    game_ = state.get_game()
    cannibal = bool(game_.params["cannibal"])
    black, white = state.stones(1), state.stones(0)
    if game_.grid is not None:
        regions = grid_regions(game_.grid.rows, game_.grid.columns, black, white, cannibal)
        return total(region_value(r, cannibal) for r in regions)
    adjacency = graph_adjacency(game_.topology)
    values = RegionValues(GraphSpace(adjacency, cannibal))
    return total(values.value(r) for r in graph_regions(adjacency, black, white, cannibal))

