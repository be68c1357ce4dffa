"""Exact values of Clobber positions: ``cgt_value(position)``, in CGSuite's notation.

The canonical forms come from :mod:`parlour.analysis.cgt` (a position is the sum of its
regions' values), the notation from :mod:`parlour.analysis.notation`.
"""

from __future__ import annotations

from typing import Any

from parlour.analysis.cgt import Value, position_value
from parlour.analysis.notation import write

MAX_VALUE_STONES = 16
""":func:`cgt_value` refuses regions of more stones (the work grows exponentially with them:
about a second at 12 stones, minutes beyond 14)."""


class ValueTooLarge(ValueError):
    """A region too large for its canonical form to be worked out in reasonable time."""


def value_of(position: Any, *, cannibal: bool = False,
             max_stones: int = MAX_VALUE_STONES) -> Value:
    """The canonical form (a :class:`Value`) of a Clobber position: a state, or a position
    text (C6) with or without the side to move (the value does not depend on it).

    Left is Black (``x``). Raises :class:`ValueTooLarge` when a region has more than
    ``max_stones`` stones, and the game's own errors for text that is no position."""
    from parlour.analysis.regions import components, is_live

    state = _as_state(position, cannibal)
    game_ = state.get_game()
    if game_.grid is not None:
        grid = game_.grid
        white, black = state.stones(0), state.stones(1)
        rule = bool(game_.params["cannibal"])
        for group in components(white | black, grid.rows, grid.columns):
            live = is_live(black & group, white & group, rule)
            if live and group.bit_count() > max_stones:
                raise ValueTooLarge(
                    f"a region of {group.bit_count()} stones is over the {max_stones} stones "
                    "whose value is worked out"
                )
    elif (state.stones(0) | state.stones(1)).bit_count() > max_stones:
        raise ValueTooLarge(f"values of graph positions are worked out up to {max_stones} stones")
    return position_value(state)


def cgt_value(position: Any, *, cannibal: bool = False,
              max_stones: int = MAX_VALUE_STONES) -> str:
    """The canonical form of a Clobber position or region in CGSuite's notation.

    Left is Black (``x``), as in CGSuite, MCGS and the Clobber literature; ``position`` is a
    :class:`~parlour.games.clobber.ClobberState` or a position text, the side to move optional:

    >>> cgt_value("xo"), cgt_value("xxo"), cgt_value("xoo"), cgt_value("xxxo x")
    ('*', '^', 'v', '^^*')
    >>> cgt_value("xox/ox.")      # CGSuite's own Clobber example
    '{^^*|*,v}'
    >>> cgt_value("xoxoxo"), cgt_value("xo.xo")   # a second-player win; a sum: * + * = 0
    ('0', '0')
    """
    return write(value_of(position, cannibal=cannibal, max_stones=max_stones))


def _as_state(position: Any, cannibal: bool) -> Any:
    if not isinstance(position, str):
        return position
    import parlour

    text = position.strip()
    if text[-2:] not in (" o", " x"):
        text += " x"
    return parlour.load_game("clobber", position=text, cannibal=cannibal).new_initial_state()
