"""What may be played now in GobbleStones (B3, B4, B5, B9), read off a state's :class:`Fields`.

The turn's legal plays are computed once, when first needed, from the board and the mover's
rack at the start of the turn (:func:`turn_plays_of`, bitboards: ``plays.TurnPlays``); each
step of the play is then a bit test (:func:`next_bits`). :func:`legal_actions` lists the
actions, numbered as :class:`ActionCodes` says (the game holds them). The state
(``game.py``) caches the list in its fields and applies what is chosen.
"""

from __future__ import annotations

from typing import Protocol

from parlour.games.gobblestones.board import MAX_PLAY, NUM_COLOURS, SIZE, SQUARES
from parlour.games.gobblestones.fields import Fields
from parlour.games.gobblestones.plays import TurnPlays, colour_limits, first_squares, squares_of
from parlour.games.gobblestones.snapshot import Phase


class ActionCodes(Protocol):
    """The numbers of the actions that place no tile, after the ``place_actions`` that do
    (``GobbleStonesGame`` has them; the encoding is in ``game.py``'s docstring)."""

    place_actions: int
    PASS: int
    END: int
    CHALLENGE: int
    TRUST: int


def rack_at_turn_start(f: Fields) -> list[int]:
    """The mover's rack as the turn began: the tiles of the play being laid put back."""
    rack = list(f.racks[f.turn])
    for _square, colour in f.pending:
        rack[colour] += 1
    return rack


def tiles_of(f: Fields, squares: list[int]) -> list[int] | None:
    """The colours of tiles on ``squares`` for matching (B4); none in the bluffing variant."""
    return None if f.bluff else [f.colour[s] for s in squares]


def turn_plays_of(f: Fields) -> TurnPlays:
    """The legal plays of this turn, as bitboards (see ``plays.TurnPlays``), computed once."""
    if f.plays is None:
        rack = rack_at_turn_start(f)
        limits = f.limits
        if limits is None:
            limits = f.limits = colour_limits(tuple(f.colour))
        f.plays = limits.plays(f.occupied, None if f.bluff else rack, sum(rack))
    return f.plays


def next_bits(f: Fields) -> tuple[int, bool]:
    """Squares (a bitboard) that may take the next tile of the play, and whether ``end``
    is legal."""
    plays = turn_plays_of(f)
    pending = f.pending
    if not pending:
        return plays.starts, False
    p0 = pending[0][0]
    if len(pending) == 1:
        bits = 0
        if (plays.right_any >> p0) & 1:
            bits = 1 << (p0 + 1)
        if (plays.down_any >> p0) & 1:
            bits |= 1 << (p0 + SIZE)
        return bits, bool((plays.single >> p0) & 1)
    step = pending[1][0] - p0
    table = plays.right if step == 1 else plays.down
    k = len(pending)
    more = False
    for length in range(k + 1, MAX_PLAY + 1):
        if (table[length] >> p0) & 1:
            more = True
            break
    return (1 << (pending[-1][0] + step)) if more else 0, bool((table[k] >> p0) & 1)


def next_squares(f: Fields) -> tuple[list[int], bool]:
    """Squares that may take the next tile of the play, and whether ``end`` is legal."""
    if not f.pending:
        return list(first_squares(turn_plays_of(f))), False
    bits, can_end = next_bits(f)
    return squares_of(bits), can_end


def legal_actions(f: Fields, codes: ActionCodes) -> list[int]:
    """The legal actions of a player's decision, ascending, cached in ``f.legal`` (and as a
    set in ``f.legal_set``) until the state changes."""
    if f.legal is None:
        if f.phase == Phase.CHALLENGE:
            legal = [codes.CHALLENGE, codes.TRUST]
        else:
            squares, can_end = next_squares(f)
            if f.bluff:
                rack = f.racks[f.turn]
                legal = [
                    c * SQUARES + s for c in range(NUM_COLOURS) if rack[c] for s in squares
                ]
            else:
                legal = squares
            if not f.pending:
                legal.append(codes.PASS)
            elif can_end:
                legal.append(codes.END)
        f.legal = legal
        f.legal_set = frozenset(legal)
    return f.legal
