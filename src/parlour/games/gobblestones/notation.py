"""GobbleStones move notation: reading what a player types, writing actions back as text.

A tile is written by its square (``h8``), in the bluffing variant with the colour placed face
down (``h8:r``); several tiles as a range (``h8-h11``, bluffing ``h8-h11:rgby``, colours in
written order) or a list (``h8 h9 h10``). Chance writes a drawn square colour ``h8=R``, a
board square's values ``values R2 Y3 G4 B5 P6`` and a drawn tile ``draw R``. Which of these
an action is depends on where the game stands (``action_text.py``), and the rules decide
whether what was read is legal; this module only reads and writes the text.
"""

from __future__ import annotations

import re

from parlour.core import IllegalActionError, NotationError
from parlour.games.gobblestones.board import (
    COLOURS,
    NUM_COLOURS,
    PERMUTATION_INDEX,
    PERMUTATIONS,
    SIZE,
    colour_index,
    parse_square,
)
from parlour.i18n import Message

WORDS = ("pass", "end", "done", "challenge", "trust")
"""The words that are whole moves (``done`` is another way to write ``end``)."""

_TILE = re.compile(r"^([a-o]\d{1,2})(?::([rygbp]))?$")
_RANGE = re.compile(r"^([a-o]\d{1,2})-([a-o]\d{1,2})(?::([rygbp]+))?$")


def parse_tile(word: str) -> tuple[int, int | None]:
    """``h8`` or ``h8:r``: the square and the colour named (``None`` when none is).

    >>> parse_tile("h8:r")
    (112, 0)
    """
    match = _TILE.match(word)
    if not match:
        raise NotationError(Message(
            "cannot read {word!r}: write a square like h8 (bluffing: h8:r), 'end' or 'pass'",
            word=word))
    colour = colour_index(match.group(2)) if match.group(2) else None
    return parse_square(match.group(1)), colour


def parse_token(token: str) -> list[tuple[int, int | None]]:
    """``h8``, ``h8:r``, or a range ``h8-h11`` / ``h8-h11:rgby`` (colours in written order).

    >>> parse_token("h8-h10")
    [(112, None), (97, None), (82, None)]
    """
    match = _RANGE.match(token)
    if not match:
        return [parse_tile(token)]
    a, b = parse_square(match.group(1)), parse_square(match.group(2))
    ra, ca = divmod(a, SIZE)
    rb, cb = divmod(b, SIZE)
    if ra != rb and ca != cb:
        raise IllegalActionError(token, "B4", Message(
            "the tiles of a play lie in one straight row or column: this range bends"
        ))
    step = 1 if ra == rb else SIZE
    if b < a:
        step = -step
    squares = list(range(a, b + step, step)) if a != b else [a]
    letters = match.group(3)
    if letters is not None and len(letters) != len(squares):
        raise NotationError(
            f"{token!r} names {len(squares)} squares but {len(letters)} tile colours"
        )
    colours: list[int | None] = (
        [colour_index(ch) for ch in letters] if letters else [None] * len(squares)
    )
    return list(zip(squares, colours, strict=True))


def parse_permutation(word: str) -> int:
    """A board square's values, ``values R2 Y3 G4 B5 P6`` (or the permutation's number).

    >>> parse_permutation("values R2 Y3 G4 B5 P6"), parse_permutation("7")
    (0, 7)
    """
    body = word.removeprefix("values").replace(" ", "").upper()
    if body.isdigit() and int(body) < len(PERMUTATIONS):
        return int(body)
    match = re.fullmatch(r"(?:([RYGBP])([2-6])){5}", body)
    if match:
        pairs = re.findall(r"([RYGBP])([2-6])", body)
        mapping = {COLOURS.index(c): int(v) for c, v in pairs}
        if len(mapping) == NUM_COLOURS:
            perm = tuple(mapping[c] for c in range(NUM_COLOURS))
            if perm in PERMUTATION_INDEX:
                return PERMUTATION_INDEX[perm]
    raise NotationError(f"cannot read values {word!r}: write e.g. 'values R2 Y3 G4 B5 P6'")


def permutation_text(index: int) -> str:
    """The inverse of :func:`parse_permutation`.

    >>> permutation_text(0)
    'values R2 Y3 G4 B5 P6'
    """
    perm = PERMUTATIONS[index]
    return "values " + " ".join(f"{COLOURS[c]}{perm[c]}" for c in range(NUM_COLOURS))
