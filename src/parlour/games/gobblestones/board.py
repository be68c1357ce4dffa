"""The GobbleStones board (B1): geometry, colours, values, and the board text.

The board is one 15 x 15 grid made of nine 5 x 5 *board squares*; each of its 225 *stone
squares* has a colour and a value. Within one board square every colour has a single value, so a
board square's values are a permutation of (2, 3, 4, 5, 6) over the five colours (B1).

Squares are numbered ``row * 15 + column`` with row 0 the top rank, and named like chess: files
``a``-``o`` from the left, ranks ``1``-``15`` from the bottom, so ``h8`` is the middle of the
board. Everything here is a constant computed once at import: neighbour masks, the 2 x 2 blocks
through each square (B5), the nine centre squares (B3), and the order in which chance builds the
board.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Container, Sequence

from parlour.core import NotationError
from parlour.i18n import N_, Message, in_context

SIZE = 15
SQUARES = SIZE * SIZE
PANEL = 5
"""Width of one board square, in stone squares."""
FILES = "abcdefghijklmno"

COLOURS = "RYGBP"
"""Colour letters, in colour-index order: red, yellow, green, blue, purple."""
COLOUR_NAMES = (N_("red"), N_("yellow"), N_("green"), N_("blue"), N_("purple"))
TILE_COLOURS = (in_context("tile", "red"), in_context("tile", "yellow"),
                in_context("tile", "green"), in_context("tile", "blue"),
                in_context("tile", "purple"))
"""Each colour's word for a tile: a colour agrees with its noun in some languages (French
"tuile verte"), so each noun has its own words in the catalog (contexts)."""
SQUARE_COLOURS = (in_context("square", "red"), in_context("square", "yellow"),
                  in_context("square", "green"), in_context("square", "blue"),
                  in_context("square", "purple"))
"""Each colour's word for a board square (French "case verte")."""
NUM_COLOURS = len(COLOURS)
VALUES = (2, 3, 4, 5, 6)
PERMUTATIONS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(VALUES))
"""The 120 ways to give the five colours of a board square their values, in lexicographic order:
``PERMUTATIONS[i][colour]`` is that colour's value under permutation ``i``."""
PERMUTATION_INDEX = {p: i for i, p in enumerate(PERMUTATIONS)}
TILES_PER_COLOUR = 20
RACK_DRAW = 5
MAX_PLAY = 5


def square_name(square: int) -> str:
    row, col = divmod(square, SIZE)
    return f"{FILES[col]}{SIZE - row}"


_SQUARE = re.compile(r"^([a-o])(\d{1,2})$")


def parse_square(text: str) -> int:
    """The index of a square written like ``h8``; raises :class:`NotationError`."""
    match = _SQUARE.match(text.strip().lower())
    if not match or not 1 <= int(match.group(2)) <= SIZE:
        raise NotationError(Message("no square {text!r}: files run a-o, ranks 1-15 (like h8)",
                                    text=text))
    return (SIZE - int(match.group(2))) * SIZE + FILES.index(match.group(1))


def colour_index(letter: str) -> int:
    index = COLOURS.find(letter.upper()) if len(letter) == 1 else -1
    if index < 0:
        raise NotationError(f"no colour {letter!r}: use R, Y, G, B or P (red, yellow, ...)")
    return index


def _neighbours(square: int) -> tuple[int, ...]:
    row, col = divmod(square, SIZE)
    out = []
    for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
        r, c = row + dr, col + dc
        if 0 <= r < SIZE and 0 <= c < SIZE:
            out.append(r * SIZE + c)
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(SQUARES))
NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << n for n in ns) for ns in NEIGHBOURS)


def _blocks(square: int) -> tuple[int, ...]:
    """Bit masks of the (up to four) 2 x 2 blocks of squares that contain ``square``."""
    row, col = divmod(square, SIZE)
    masks = []
    for top in (row - 1, row):
        for left in (col - 1, col):
            if 0 <= top < SIZE - 1 and 0 <= left < SIZE - 1:
                corner = top * SIZE + left
                masks.append((0b11 << corner) | (0b11 << (corner + SIZE)))
    return tuple(masks)


BLOCKS: tuple[tuple[int, ...], ...] = tuple(_blocks(s) for s in range(SQUARES))
CENTRES: tuple[int, ...] = tuple(
    (PANEL * i + PANEL // 2) * SIZE + PANEL * j + PANEL // 2 for i in range(3) for j in range(3)
)
"""The centre stone square of each of the nine board squares (B3)."""
CENTRE_MASK = sum(1 << s for s in CENTRES)


def panel_of(square: int) -> int:
    """Which board square (0-8, reading order) a stone square belongs to."""
    row, col = divmod(square, SIZE)
    return (row // PANEL) * 3 + col // PANEL


PANEL_OF: tuple[int, ...] = tuple(panel_of(s) for s in range(SQUARES))
PANEL_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in range(SQUARES) if PANEL_OF[s] == k) for k in range(9)
)
"""The 25 stone squares of each board square, in reading order (top row first)."""

PANEL_STEPS = PANEL * PANEL + 1
"""Chance steps that build one board square: 25 colours, then one value permutation."""
BOARD_STEPS = 9 * PANEL_STEPS


# -- board text ------------------------------------------------------------------------------
_CELL = re.compile(r"([RYGBP?])([2-6?])", re.I)


def board_text(colours: tuple[int, ...], values: tuple[int, ...], sep: str = "/") -> str:
    """15 rows (rank 15 first) of 15 cells ``<colour><value>``, rows joined by ``sep``.

    An undrawn colour or value is written ``?`` (only while chance is still building the board).
    """
    cells = [
        (COLOURS[c] if c >= 0 else "?") + (str(v) if v else "?")
        for c, v in zip(colours, values, strict=True)
    ]
    return sep.join("".join(cells[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))


def parse_board_text(text: str, partial: bool = False) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(colours, values)`` from a board text; ``partial`` allows ``?`` for undrawn parts.

    Rows may be separated by ``/``, spaces or new lines, and cells by spaces or commas;
    letters may be in either case. Checks B1: every value is 2-6 and, within each board square,
    each colour has one value and different colours have different values.
    """
    body = re.sub(r"[\s,/]+", "", text)
    cells = re.findall(r"..", body) if len(body) % 2 == 0 else []
    if len(cells) != SQUARES or any(not _CELL.fullmatch(cell) for cell in cells):
        raise NotationError(
            "a board text is 15 rows of 15 cells, each a colour letter (R Y G B P) and a value "
            "2-6, like R2Y5G3..., rank 15 first (B1)"
        )
    colours = tuple(COLOURS.find(c[0].upper()) for c in cells)
    values = tuple(int(c[1]) if c[1] != "?" else 0 for c in cells)
    if not partial and ("?" in body):
        raise NotationError("a board text names every colour and value (B1): no '?'")
    for s in range(SQUARES):
        if values[s] and colours[s] < 0:
            raise NotationError(f"{square_name(s)} has a value but no colour (B1)")
    check_panels(colours, values)
    if not partial:
        seen: dict[tuple[tuple[int, int], ...], int] = {}
        for k, panel in enumerate(PANEL_CELLS):
            key = tuple((colours[s], values[s]) for s in panel)
            if key in seen:
                raise NotationError(
                    f"board squares {seen[key] + 1} and {k + 1} are identical; board squares "
                    "differ (B1)"
                )
            seen[key] = k
    return colours, values


def tile_rows(
    tiles: Sequence[int], face_down: Container[int], hidden: Callable[[int, int], str]
) -> list[str]:
    """The tiles on the board, one text per row (rank 15 first): ``.`` for an empty square,
    the colour letter of a face-up tile, and ``hidden(square, colour)`` for a tile on one of the
    ``face_down`` squares (the position text shows its colour in lower case; a view hides it
    from everyone but its owner).

    >>> tiles = [-1] * SQUARES
    >>> tiles[0], tiles[1] = 0, 3
    >>> tile_rows(tiles, {1}, lambda square, colour: "?")[0]
    'R?.............'
    """
    rows = []
    for r in range(SIZE):
        row = []
        for s in range(r * SIZE, (r + 1) * SIZE):
            colour = tiles[s]
            if colour < 0:
                row.append(".")
            elif s in face_down:
                row.append(hidden(s, colour))
            else:
                row.append(COLOURS[colour])
        rows.append("".join(row))
    return rows


def check_panels(colours: tuple[int, ...], values: tuple[int, ...]) -> None:
    """B1: within a board square one value per colour, distinct values for distinct colours."""
    for k, cells in enumerate(PANEL_CELLS):
        seen: dict[int, int] = {}
        for s in cells:
            c, v = colours[s], values[s]
            if c < 0 or not v:
                continue
            if seen.setdefault(c, v) != v:
                raise NotationError(
                    f"board square {k + 1}: {COLOUR_NAMES[c]} has values {seen[c]} and {v}; "
                    "within one board square each colour has one value (B1)"
                )
        if len(set(seen.values())) != len(seen):
            raise NotationError(
                f"board square {k + 1}: two colours share a value; a board square's values are "
                "a permutation of 2-6 over its colours (B1)"
            )


def panel_permutation(colours: Sequence[int], values: Sequence[int], panel: int) -> int | None:
    """The permutation index of a finished board square, or None if it lacks a colour."""
    mapping = [0] * NUM_COLOURS
    for s in PANEL_CELLS[panel]:
        if colours[s] < 0 or not values[s]:
            return None
        mapping[colours[s]] = values[s]
    return PERMUTATION_INDEX.get(tuple(mapping))


EXAMPLE_BOARD = (
    "G3B6Y2P5Y2R5Y2G3R5B6Y2P5Y2R6G3/"
    "B6Y2R4P5G3P4G3Y2Y2G3P5R6G3Y2P5/"
    "G3B6P5R4B6Y2R5P4Y2R5P5G3R6B4B4/"
    "G3B6P5R4G3G3R5P4P4B6Y2R6B4R6P5/"
    "Y2Y2P5R4R4P4B6B6G3B6Y2G3B4G3B4/"
    "Y4G3Y4G3G3B6R2R2R2P5B2G3B2R5Y6/"
    "P6R5R5Y4R5P5G3R2G3Y4R5Y6Y6P4B2/"
    "B2Y4R5G3G3B6B6Y4Y4Y4P4P4R5G3G3/"
    "B2B2Y4B2P6P5B6P5G3G3G3B2P4R5Y6/"
    "P6P6P6B2R5G3B6R2Y4P5B2Y6P4R5G3/"
    "B4G2P5R3G2G3G3G3Y6R2Y5R6R6G2B4/"
    "G2P5Y6R3Y6R2Y6B5Y6P4G2P3P3P3G2/"
    "P5P5Y6B4R3R2B5R2P4P4B4P3Y5Y5B4/"
    "P5B4B4R3B4Y6G3P4R2B5Y5B4R6G2R6/"
    "R3G2Y6G2Y6Y6G3B5P4B5B4Y5G2R6P3"
)
"""A complete board in board text (once drawn by chance), as one would type in a physical board:
used by the docs, the tests and the conformance suite."""
