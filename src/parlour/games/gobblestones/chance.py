"""What chance draws in GobbleStones and by what law (B1, B2, B6, G-1), on a state's Fields.

While the board is built, one chance action per stone square picks its colour, by the colours
left in the board square being built (five of each), then one action per board square picks
its value permutation, uniform over those no earlier board square has (B1). A tile drawn from
the bag is one action picking its colour, with probability proportional to the tiles of that
colour left (B2, B6). Who draws, and what follows a draw, is the course of the turn
(``turns.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    NUM_COLOURS,
    PANEL,
    PANEL_CELLS,
    PANEL_STEPS,
    PERMUTATIONS,
    panel_permutation,
)
from parlour.games.gobblestones.fields import Fields
from parlour.games.gobblestones.snapshot import Phase

COLOURED = tuple(
    cells[step] if step < len(cells) else -1 for cells in PANEL_CELLS for step in range(PANEL_STEPS)
)
"""The stone square each chance step of the board colours (-1: a step that gives a board
square its values), by the step's number (B1)."""


def chance_outcomes(f: Fields) -> list[tuple[int, float]]:
    """The chance actions now and their probabilities (none at a player's decision)."""
    phase = f.phase
    if phase == Phase.BOARD and f.board_steps % PANEL_STEPS == PANEL * PANEL:
        used = used_permutations(f, f.board_steps // PANEL_STEPS)
        p = 1.0 / (len(PERMUTATIONS) - len(used))
        return [(i, p) for i in range(len(PERMUTATIONS)) if i not in used]
    if phase not in (Phase.BOARD, Phase.DEAL, Phase.DRAW):
        return []
    counts, total = colour_counts(f)
    return [(c, k / total) for c, k in enumerate(counts) if k]


def colour_counts(f: Fields) -> tuple[Sequence[int], int]:
    """The law of the colour chance draws now, as counts: how many of each colour are left
    to draw, and how many in all. While the board is drawn, the colours left in the board
    square being built, five of each (B1); else the tiles in the bag (B2, B6)."""
    if f.phase is Phase.BOARD:
        return f.left, PANEL * PANEL - f.board_steps % PANEL_STEPS
    return f.bag, sum(f.bag)


def used_permutations(f: Fields, panel: int) -> list[int]:
    """B1: board squares differ, so a board square's values avoid earlier ones' permutations."""
    if f.used is None:
        used = []
        for k in range(panel):
            index = panel_permutation(f.colour, f.value, k)
            if index is not None:
                used.append(index)
        f.used = used
    return f.used


def colour_square(f: Fields, colour: int) -> None:
    """The next stone square of the board square being built gets ``colour`` (B1)."""
    colours = f.colour
    assert isinstance(colours, list)  # a list while the board is drawn
    colours[COLOURED[f.board_steps]] = colour
    f.left[colour] -= 1
    f.board_steps += 1


def value_board_square(f: Fields, permutation: int) -> bool:
    """The board square just coloured gets its values: value permutation ``permutation``
    of its colours, one no earlier board square has (B1). True once the whole board is
    drawn: the deal begins then."""
    panel = f.board_steps // PANEL_STEPS
    colours, values, by_colour = f.colour, f.value, PERMUTATIONS[permutation]
    assert isinstance(values, list)  # a list while the board is drawn
    for s in PANEL_CELLS[panel]:
        values[s] = by_colour[colours[s]]
    f.used = [*used_permutations(f, panel), permutation]
    f.left = [PANEL] * NUM_COLOURS
    f.board_steps += 1
    return f.board_steps == BOARD_STEPS
