"""Which plays are legal (B3, B4, B5), computed once per turn.

A play is a *segment*: ``length`` (1-5) consecutive squares starting at ``start`` and running
``step`` = 1 (rightwards) or 15 (downwards); a single tile has ``step`` 0. Tiles of a play are
entered in board order (the start square first), so each play is exactly one sequence of
actions and a search tree holds no transpositions.

:func:`turn_plays` is what the state uses: whole-board bitboard arithmetic, no loop over
squares. For each direction and length it yields the bitboard of the squares where a legal play
of that length starts (:class:`TurnPlays`); "may this tile still be part of a legal play?" is
then a bit test. Being empty, matching a tile of the rack and leaving no 2 x 2 block are kept
by every prefix of a legal segment, touching the board (B4) or a centre square (B3) is only
gained, and the rack's limit per colour is a count of that colour's squares in the segment,
kept as bit-sliced counters (one bitboard per count reached).

:func:`legal_plays` is the straightforward version, kept as the reference the bitboards are
tested against: it walks every start square and extends it square by square, stopping at the
first failure. :func:`play_problem` checks one whole set of squares from scratch and names the
rule it breaks; it is the source of error messages.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import NamedTuple

from parlour.games.gobblestones.board import (
    BLOCKS,
    CENTRE_MASK,
    MAX_PLAY,
    NEIGHBOUR_MASK,
    NUM_COLOURS,
    SIZE,
    SQUARE_COLOURS,
    SQUARES,
    TILE_COLOURS,
    square_name,
)
from parlour.i18n import Message

Plays = dict[tuple[int, int], tuple[int, ...]]
"""``(start, step) -> legal lengths``; ``step`` 0 holds the single-tile play ``(1,)``."""

RIGHT, DOWN = 1, SIZE
FULL = (1 << SQUARES) - 1
FIRST_COL = sum(1 << (r * SIZE) for r in range(SIZE))
NOT_FIRST_COL = FULL & ~FIRST_COL
NOT_LAST_COL = FULL & ~(FIRST_COL << (SIZE - 1))
FIRST_ROW = (1 << SIZE) - 1
CORNERS = NOT_LAST_COL & (FULL >> SIZE)
"""Top-left corners of the 2 x 2 blocks: every square but the last column and the last row."""


class TurnPlays(NamedTuple):
    """The legal plays of a turn as bitboards (bit ``s`` = square ``s``).

    ``single``: squares where a one-tile play is legal. ``right[k]`` / ``down[k]`` (``k`` 2-5;
    entries 0 and 1 are 0): squares where a legal play of ``k`` tiles starts and runs rightwards
    / downwards. ``starts``: every square where some legal play starts (the first tile's
    squares). ``right_any`` / ``down_any``: the union of ``right`` / ``down``.
    """

    single: int
    right: tuple[int, ...]
    down: tuple[int, ...]
    starts: int
    right_any: int
    down_any: int


NO_PLAYS = TurnPlays(0, (0,) * (MAX_PLAY + 1), (0,) * (MAX_PLAY + 1), 0, 0, 0)

_ROW_BITS = tuple(tuple(i for i in range(8) if (v >> i) & 1) for v in range(256))


def squares_of(bits: int) -> list[int]:
    """The squares of a bitboard, ascending (eight squares per table look-up)."""
    out: list[int] = []
    base = 0
    while bits:
        chunk = bits & 255
        if chunk:
            out.extend([base + i for i in _ROW_BITS[chunk]])
        bits >>= 8
        base += 8
    return out


def select_square(bits: int, k: int) -> int:
    """The ``k``-th lowest square of a bitboard (``k`` from 0): ``squares_of(bits)[k]``."""
    base = 0
    chunk = bits & 0xFFFFFFFF
    count = chunk.bit_count()
    while k >= count:
        k -= count
        bits >>= 32
        base += 32
        chunk = bits & 0xFFFFFFFF
        count = chunk.bit_count()
    for _ in range(k):
        chunk &= chunk - 1
    return base + (chunk & -chunk).bit_length() - 1


@functools.lru_cache(maxsize=1024)
def first_squares(plays: TurnPlays) -> tuple[int, ...]:
    """Where a play's first tile may go (the squares of ``plays.starts``), remembered for the
    plays a search meets again."""
    return tuple(squares_of(plays.starts))


def board_masks(occupied: int) -> tuple[int, int, int, int]:
    """``(ok, h_ok, v_ok, target)`` for a board whose covered squares are ``occupied``.

    ``ok`` are the empty squares a tile may cover without completing a 2 x 2 block with three
    covered squares; ``h_ok``/``v_ok`` are those that may also follow the square to their
    left/above in a play without completing a block together with it (B5: in a straight play
    those are the only ways to complete one); ``target`` are the squares whose covering makes
    the play legal, the empty neighbours of the tiles on the board (B4) or, for the game's
    first play, the centre squares (B3).
    """
    o = occupied
    if o == 0:
        return FULL, FULL & NOT_FIRST_COL, FULL & ~FIRST_ROW, CENTRE_MASK
    x0, x1 = o & CORNERS, (o >> 1) & CORNERS
    x2, x3 = (o >> SIZE) & CORNERS, (o >> (SIZE + 1)) & CORNERS
    three = (
        (x1 & x2 & x3 & ~x0)
        | ((x0 & x2 & x3 & ~x1) << 1)
        | ((x0 & x1 & x3 & ~x2) << SIZE)
        | ((x0 & x1 & x2 & ~x3) << (SIZE + 1))
    )
    ok = FULL & ~o & ~three
    pairs_h = o & (o << 1) & NOT_FIRST_COL
    pairs_v = o & (o << SIZE)
    h_ok = ok & NOT_FIRST_COL & ~((pairs_h << SIZE) | (pairs_h >> SIZE))
    v_ok = ok & ~FIRST_ROW & ~(((pairs_v << 1) & NOT_FIRST_COL) | ((pairs_v >> 1) & NOT_LAST_COL))
    target = (
        ((o << 1) & NOT_FIRST_COL) | ((o >> 1) & NOT_LAST_COL) | (o << SIZE) | (o >> SIZE)
    ) & ok
    return ok, h_ok, v_ok, target


def turn_plays(
    occupied: int, limits: ColourLimits, rack: Sequence[int] | None, tiles: int
) -> TurnPlays:
    """Every legal non-empty play, as bitboards (see :class:`TurnPlays`).

    ``limits`` are the board's colour counts (:func:`colour_limits`); ``rack`` the mover's
    tiles per colour, each tile matching its square (B4); with ``rack=None`` (the bluffing
    variant, B9) any ``tiles`` tiles may go on any squares. Gives exactly what
    :func:`legal_plays` gives.
    """
    longest = min(MAX_PLAY, tiles)
    if longest <= 0:
        return NO_PLAYS
    ok, h_ok, v_ok, target = board_masks(occupied)
    if rack is None:
        usable = ok
        no_limit = (0,) * (MAX_PLAY + 1)
        forbid_right = forbid_down = no_limit
    else:
        masks = limits.masks
        usable = 0
        for c in range(NUM_COLOURS):
            if rack[c]:
                usable |= masks[c]
        usable &= ok
        forbid_right, forbid_down = limits.forbidden(rack)
    single = usable & target
    if longest == 1:
        zero = (0,) * (MAX_PLAY + 1)
        return TurnPlays(single, zero, zero, single, 0, 0)
    right = [0, 0, 0, 0, 0, 0]
    down = [0, 0, 0, 0, 0, 0]
    for step, follow, forbid, out in (
        (RIGHT, h_ok, forbid_right, right), (SIZE, v_ok, forbid_down, down)
    ):
        follow &= usable
        run = usable
        touch = target
        shift = 0
        for length in range(2, longest + 1):
            shift += step
            run &= follow >> shift
            if not run:
                break
            touch |= target >> shift
            out[length] = run & touch & ~forbid[length]
    right_any = right[2] | right[3] | right[4] | right[5]
    down_any = down[2] | down[3] | down[4] | down[5]
    return TurnPlays(
        single, tuple(right), tuple(down), single | right_any | down_any, right_any, down_any
    )


class ColourLimits:
    """What a board's colouring says about segments, computed once per board.

    ``masks[c]``: the squares of colour ``c``. ``right[k][c][m]`` (``down[k][c][m]``): the
    squares from which ``k`` squares rightwards (downwards) hold more than ``m`` squares of
    colour ``c`` (``m`` < ``k``), so a rack with ``m`` tiles of ``c`` cannot cover them (B4).
    Segments running off the board's edge are never legal anyway, whatever they count.
    """

    __slots__ = ("_forbidden", "_plays", "down", "masks", "right")

    CACHE = 4096
    """Racks whose :meth:`forbidden` masks are kept (the cache starts again when full)."""

    def __init__(self, masks: tuple[int, ...], right: tuple[tuple[tuple[int, ...], ...], ...],
                 down: tuple[tuple[tuple[int, ...], ...], ...]) -> None:
        self.masks, self.right, self.down = masks, right, down
        self._forbidden: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self._plays: dict[tuple[int, tuple[int, ...] | int], TurnPlays] = {}

    def plays(self, occupied: int, rack: Sequence[int] | None, tiles: int) -> TurnPlays:
        """:func:`turn_plays` on this board, remembered: a search meets the same board and
        rack again and again."""
        key = (occupied, tiles if rack is None else tuple(rack))
        known = self._plays.get(key)
        if known is None:
            if len(self._plays) >= self.CACHE:
                self._plays.clear()
            known = self._plays[key] = turn_plays(occupied, self, rack, tiles)
        return known

    def forbidden(self, rack: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per length ``k``, the starts of the ``k``-square segments rightwards and downwards
        that need more tiles of some colour than ``rack`` holds (colours it holds at all)."""
        key = tuple(rack)
        known = self._forbidden.get(key)
        if known is not None:
            return known
        tables = []
        for over in (self.right, self.down):
            forbid = [0] * (MAX_PLAY + 1)
            for length in range(2, MAX_PLAY + 1):
                mask = 0
                for c, count in enumerate(rack):
                    if 0 < count < length:
                        mask |= over[length][c][count]
                forbid[length] = mask
            tables.append(tuple(forbid))
        if len(self._forbidden) >= self.CACHE:
            self._forbidden.clear()
        result = self._forbidden[key] = (tables[0], tables[1])
        return result


@functools.lru_cache(maxsize=64)
def colour_limits(colours: tuple[int, ...]) -> ColourLimits:
    """The :class:`ColourLimits` of a board (bit-sliced counters: one bitboard per count)."""
    masks = colour_masks(colours)
    tables = []
    for step in (RIGHT, SIZE):
        per_length: list[list[list[int]]] = [[] for _ in range(MAX_PLAY + 1)]
        for mask in masks:
            levels = [mask]  # levels[m]: the segment so far holds more than m squares of c
            for length in range(2, MAX_PLAY + 1):
                new = mask >> ((length - 1) * step)
                levels.append(levels[-1] & new)
                for m in range(length - 2, 0, -1):
                    levels[m] |= levels[m - 1] & new
                levels[0] |= new
                per_length[length].append(list(levels))
        tables.append(tuple(tuple(tuple(lv) for lv in by_colour) for by_colour in per_length))
    return ColourLimits(masks, tables[0], tables[1])


def legal_plays(
    occupied: int, colours: Sequence[int], rack: Sequence[int] | None, tiles: int
) -> Plays:
    """Every legal non-empty play on a board whose covered squares are ``occupied``.

    ``rack`` holds the mover's tiles per colour, and each tile must match its square (B4); with
    ``rack=None`` (the bluffing variant, B9) any ``tiles`` tiles may go on any squares.

    The board-wide work is :func:`board_masks`' (the squares a play may cover, follow on and
    must touch); this walks each line from there.
    """
    longest = min(MAX_PLAY, tiles)
    plays: Plays = {}
    if longest <= 0:
        return plays
    ok, h_ok, v_ok, target = board_masks(occupied)
    if rack is None:
        usable = ok
    else:
        masks = colour_masks(tuple(colours))
        usable = 0
        for c, count in enumerate(rack):
            if count:
                usable |= masks[c]
        usable &= ok
    single = usable & target
    while single:
        low = single & -single
        plays[(low.bit_length() - 1, 0)] = (1,)
        single ^= low
    if longest == 1:
        return plays
    for step, follow in ((RIGHT, h_ok), (DOWN, v_ok)):
        reach = target
        for k in range(1, longest):
            reach |= target >> (k * step)
        starts = usable & (follow >> step) & reach
        while starts:
            low = starts & -starts
            starts ^= low
            start = low.bit_length() - 1
            square = start
            touch = target & low
            left = None
            if rack is not None:
                left = list(rack)
                left[colours[start]] -= 1
            lengths = []
            for length in range(2, longest + 1):
                square += step
                if not (follow >> square) & 1:
                    break  # covered (B4: no gap of any kind), off the line, or a 2 x 2 (B5)
                if left is not None:
                    c = colours[square]
                    if not left[c]:
                        break
                    left[c] -= 1
                if not touch:
                    touch = (target >> square) & 1
                if touch:
                    lengths.append(length)
            if lengths:
                plays[(start, step)] = tuple(lengths)
    return plays


@functools.lru_cache(maxsize=64)
def colour_masks(colours: tuple[int, ...]) -> tuple[int, ...]:
    """One bit mask per colour: the squares of that colour."""
    masks = [0] * NUM_COLOURS
    for s, c in enumerate(colours):
        if c >= 0:
            masks[c] |= 1 << s
    return tuple(masks)


def _blocked(square: int, covered: int) -> bool:
    """Whether some 2 x 2 block through ``square`` is entirely covered (B5)."""
    return any(covered & block == block for block in BLOCKS[square])


def segment(start: int, step: int, length: int) -> tuple[int, ...]:
    return tuple(start + i * step for i in range(length)) if length > 1 else (start,)


def line_problem(squares: Sequence[int], occupied: int = 0) -> tuple[str, str] | None:
    """B4's shape rules for the squares of one play, in any order: one line, no gap, at most 5."""
    if len(set(squares)) != len(squares):
        return "B4", Message("a play covers each square once")
    if len(squares) > MAX_PLAY:
        return "B4", Message("a play places at most {n} tiles", n=MAX_PLAY)
    if len(squares) <= 1:
        return None
    rows = {s // SIZE for s in squares}
    cols = {s % SIZE for s in squares}
    if len(rows) > 1 and len(cols) > 1:
        return "B4", Message(
            "the tiles of a play lie in one straight row or column: this play bends")
    ordered = sorted(squares)
    step = 1 if len(rows) == 1 else SIZE
    for a, b in itertools.pairwise(ordered):
        if b - a != step:
            if any((occupied >> s) & 1 for s in range(a + step, b, step)):
                return "B4", Message(
                    "a play covers consecutive empty squares: it may not jump over a covered "
                    "square (no gap of any kind)"
                )
            return "B4", Message(
                "the tiles of a play cover consecutive squares: this play leaves a gap")
    return None


def play_problem(
    squares: Sequence[int],
    occupied: int,
    colours: Sequence[int],
    tile_colours: Sequence[int] | None,
    rack: Sequence[int],
    *,
    complete: bool = True,
) -> tuple[str, str] | None:
    """``(rule, reason)`` for the first rule that placing tiles on ``squares`` breaks, or None.

    ``tile_colours`` are the colours of the tiles placed (None in the bluffing variant, where a
    face-down tile may claim any square); ``rack`` is the mover's rack *before* the play. With
    ``complete=False`` the squares are the start of a play, and the rules that a later tile could
    still satisfy (touching the board, B3's centre square) are not checked.
    """
    if not squares:
        return None
    for s in squares:
        if (occupied >> s) & 1:
            return "B4", Message("{square} is already covered: tiles go on empty squares",
                                 square=square_name(s))
    if problem := line_problem(squares, occupied):
        return problem
    need = [0] * len(rack)
    for i, s in enumerate(squares):
        if tile_colours is not None:
            c = tile_colours[i]
            if c != colours[s]:
                return "B4", Message(
                    "{square} is {colour}: a tile must match the colour of its square, and "
                    "this one is {tile}", square=square_name(s),
                    colour=SQUARE_COLOURS[colours[s]], tile=TILE_COLOURS[c])
            need[c] += 1
            if need[c] > rack[c]:
                colour = SQUARE_COLOURS[c]
                if need[c] > 1:
                    return "B4", Message("{square} is {colour} and your rack has no more {colour} "
                                         "tiles to match it", square=square_name(s), colour=colour)
                return "B4", Message("{square} is {colour} and your rack has no {colour} tiles to "
                                     "match it", square=square_name(s), colour=colour)
    if tile_colours is None and len(squares) > sum(rack):
        return "B4", Message("your rack holds only {n} tiles", n=sum(rack))
    covered = occupied
    for s in squares:
        covered |= 1 << s
    for s in squares:
        if _blocked(s, covered):
            return "B5", Message(
                "a tile on {square} would complete a 2 x 2 block of covered squares",
                square=square_name(s))
    if complete:
        mask = sum(1 << s for s in squares)
        if occupied == 0:
            if not mask & CENTRE_MASK:
                return "B3", Message(
                    "the game's first play must cover the centre square of a board square "
                    "(c13, h13, m13, c8, h8, m8, c3, h3 or m3)"
                )
        elif not any(NEIGHBOUR_MASK[s] & occupied for s in squares):
            return "B4", Message("a play must touch a tile already on the board (orthogonally)")
    return None
