"""GobbleStones information states: one row of numbers per step a player saw.

The generic mechanism (:mod:`parlour.core.infostate`) replays the history and hands each step
to :func:`step_row` as the player saw it: who acted, the action as announced to them
(``h8`` / ``h8:r`` for their own face-down tile / ``h8:?`` for someone else's, ``draw`` for any
draw) and their view before and after. Nothing here reads the true state.

Row layout (:data:`STEP_WIDTH` numbers):

======  ==============================================================================
0-4     who acted: chance, seat 0, 1, 2, 3
5-11    the kind: board chance, draw, place, pass, end, challenge, trust
12      the square of a placement or a board cell, ``(square + 1) / 225`` (0 otherwise)
13-17   a colour the player was told: a board cell's colour, the colour of their own
        face-down tile (B9); zero when it is unknown or implied by the square (B4)
18      a board square's value permutation, ``(index + 1) / 120`` (0 otherwise)
19-23   the player's own rack after the step, tiles of R, Y, G, B, P / 20 (own draws and
        their order show here)
24-25   the last challenge the view shows: one exists; it found the play correct
26-50   its tiles' colours, five tiles x R, Y, G, B, P one-hot (B9 reveals them)
======  ==============================================================================
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from parlour.games.gobblestones.board import (
    COLOURS,
    MAX_PLAY,
    NUM_COLOURS,
    PERMUTATION_INDEX,
    PERMUTATIONS,
    SQUARES,
    parse_square,
)

KINDS = ("board", "draw", "place", "pass", "end", "challenge", "trust")
STEP_WIDTH = 5 + len(KINDS) + 1 + NUM_COLOURS + 1 + NUM_COLOURS + 2 + MAX_PLAY * NUM_COLOURS
_PLACE = re.compile(r"^([a-o]\d{1,2})(?::([rygbp?]))?$")


def step_row(player: int, actor: int, seen: str, before: dict[str, Any],
             after: dict[str, Any]) -> np.ndarray:
    """The row of one step (see the module docstring)."""
    row = np.zeros(STEP_WIDTH, dtype=np.float32)
    row[actor + 1] = 1.0
    word = seen.strip().lower()
    kind, square, colour, perm = _read(word)
    row[5 + KINDS.index(kind)] = 1.0
    if square >= 0:
        row[12] = (square + 1) / SQUARES
    if colour >= 0:
        row[13 + colour] = 1.0
    if perm >= 0:
        row[18] = (perm + 1) / len(PERMUTATIONS)
    rack = after.get("rack") or ""
    for c, letter in enumerate(COLOURS):
        row[19 + c] = rack.count(letter) / 20.0
    last = after.get("last_challenge")
    if last is not None:
        row[24] = 1.0
        row[25] = 1.0 if last["correct"] else 0.0
        for i, (_square, letter) in enumerate(last["tiles"][:MAX_PLAY]):
            row[26 + i * NUM_COLOURS + COLOURS.index(letter)] = 1.0
    return row


def _read(word: str) -> tuple[str, int, int, int]:
    """(kind, square or -1, colour or -1, permutation index or -1) of an announced action."""
    if word.startswith("draw"):
        return "draw", -1, -1, -1
    if word in ("pass", "end", "challenge", "trust"):
        return word, -1, -1, -1
    if word.startswith("values"):
        pairs = re.findall(r"([rygbp])([2-6])", word)
        mapping = {COLOURS.index(c.upper()): int(v) for c, v in pairs}
        perm = tuple(mapping.get(c, 0) for c in range(NUM_COLOURS))
        return "board", -1, -1, PERMUTATION_INDEX.get(perm, -1)
    if "=" in word:
        name, _, letter = word.partition("=")
        return "board", parse_square(name), COLOURS.index(letter.upper()), -1
    match = _PLACE.match(word)
    if not match:
        raise ValueError(f"gobblestones: cannot read announced action {word!r}")
    letter = match.group(2)
    colour = COLOURS.index(letter.upper()) if letter and letter != "?" else -1
    return "place", parse_square(match.group(1)), colour, -1
