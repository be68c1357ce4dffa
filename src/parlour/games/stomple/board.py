"""The Stomple board: 7 x 7 holes, their names, neighbours and the outer row (S1, S3, S5).

Holes are numbered like the position text reads them: row 0 is the top rank (rank 7), so hole
``row * 7 + col``; ``a7`` is 0, ``g7`` is 6 and ``g1`` is 48. Names follow chess (files a-g from
the left, ranks 1-7 from the bottom), which is what players type.

Sets of holes are bitboards (Python ints, bit ``h`` = hole ``h``): a legal-move set is then a
couple of ``&``/``|`` on precomputed neighbour masks, which is what makes random playouts fast.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from parlour.core import NotationError
from parlour.i18n import N_, Message, in_context

SIZE = 7
HOLES = SIZE * SIZE
FULL = (1 << HOLES) - 1
FILES = "abcdefg"

# Marble kinds: the six solid colours, then cat's eyes. A stomper has one of the six colours.
WHITE, YELLOW, RED, BLUE, GREEN, BLACK, CATS_EYE = range(7)
KINDS = 7
COLOURS = 6
PER_KIND = 7
KIND_NAMES = (N_("white"), N_("yellow"), N_("red"), N_("blue"), N_("green"), N_("black"),
              N_("cat's eye"))
MARBLE_COLOURS = (
    in_context("marble", "white"), in_context("marble", "yellow"), in_context("marble", "red"),
    in_context("marble", "blue"), in_context("marble", "green"), in_context("marble", "black"),
    in_context("marble", "cat's eye"))
"""Each kind's word for one marble: a colour agrees with its noun in some languages (French
"bille verte", "écraseur vert"), so each noun has its own words in the catalog (contexts)."""
MARBLES_COLOURS = (
    in_context("marbles", "white"), in_context("marbles", "yellow"),
    in_context("marbles", "red"), in_context("marbles", "blue"),
    in_context("marbles", "green"), in_context("marbles", "black"))
"""Each colour's word for several marbles (French "billes vertes")."""
KIND_LETTERS = "wyrbgkc"
"""One letter per kind, as the position text writes marbles: ``k`` is black, ``c`` cat's eye."""

NAMES: tuple[str, ...] = tuple(f"{FILES[c]}{SIZE - r}" for r in range(SIZE) for c in range(SIZE))
INDEX = {name: i for i, name in enumerate(NAMES)}


def _neighbours(hole: int) -> int:
    row, col = divmod(hole, SIZE)
    mask = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = row + dr, col + dc
            if (dr or dc) and 0 <= r < SIZE and 0 <= c < SIZE:
                mask |= 1 << (r * SIZE + c)
    return mask


ADJACENT: tuple[int, ...] = tuple(_neighbours(h) for h in range(HOLES))
"""``ADJACENT[h]``: the bitboard of the up to 8 holes around ``h`` (S5)."""

OUTER = sum(
    1 << h for h in range(HOLES) if h // SIZE in (0, SIZE - 1) or h % SIZE in (0, SIZE - 1)
)
"""The 24 holes on the board's edge (S3)."""

# Bits in ascending order for every 7-bit chunk: turning a bitboard into a sorted list of holes is
# then seven table look-ups instead of a loop over set bits.
_CHUNK = tuple(tuple(i for i in range(7) if (v >> i) & 1) for v in range(128))


def holes_of(bits: int) -> list[int]:
    """The holes of a bitboard, ascending."""
    out: list[int] = []
    base = 0
    while bits:
        chunk = bits & 127
        if chunk:
            out.extend(base + i for i in _CHUNK[chunk])
        bits >>= 7
        base += 7
    return out


def iter_holes(bits: int) -> Iterator[int]:
    """The holes of a bitboard, ascending, one at a time."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def count(bits: int) -> int:
    """How many holes a bitboard holds."""
    return bits.bit_count()


_HOLE = re.compile(r"^\s*([a-g])\s*([1-7])\s*$")


def parse_hole(text: str) -> int:
    """The hole named ``text`` (``d4``); raises :class:`NotationError`."""
    match = _HOLE.match(text.lower())
    if not match:
        raise NotationError(Message(
            "cannot read hole {text!r}: name a hole by file a-g and rank 1-7, like d4",
            text=text))
    return INDEX[match.group(1) + match.group(2)]


def parse_kind(text: str) -> int:
    """A marble kind from its name (``red``, ``cat's eye``) or letter (``r``, ``c``)."""
    key = text.strip().lower().replace("’", "'")
    if len(key) == 1 and key in KIND_LETTERS:
        return KIND_LETTERS.index(key)
    aliases = {name: i for i, name in enumerate(KIND_NAMES)}
    aliases.update({"cats eye": CATS_EYE, "catseye": CATS_EYE, "cat's-eye": CATS_EYE})
    if key in aliases:
        return aliases[key]
    raise NotationError(
        f"no marble colour {text!r}: use white, yellow, red, blue, green, black or cat's eye "
        f"(or a letter of {KIND_LETTERS})"
    )
