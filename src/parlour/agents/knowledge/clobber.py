"""Clobber: judge a position by mobility, the number of moves each side has.

A Clobber player who runs out of moves loses (C5), so the side with more moves to spare is
usually ahead. The other side's moves are counted by asking the game itself: the same board with
the other side to move, through ``state_from_position`` (no move rule is re-implemented).
"""

from __future__ import annotations

import math

from parlour.agents.evaluation import Knowledge, register_knowledge
from parlour.games.clobber import ClobberState

MOBILITY_SCALE = 0.25
"""tanh(0.25 * lead): a lead of four moves is worth about three quarters of a win."""


def mobility(state: ClobberState) -> list[float]:
    if state.is_terminal():
        return list(state.returns())
    mover = state.current_player()
    board, side = state.position().rsplit(" ", 1)
    other_side = "x" if side == "o" else "o"
    twin = state.get_game().state_from_position(f"{board} {other_side}")
    slots = state.get_game().topology.slots
    lead = len({a // slots for a in state.legal_actions()}) - len(
        {a // slots for a in twin.legal_actions()}
    )
    value = math.tanh(MOBILITY_SCALE * lead)
    result = [0.0, 0.0]
    result[mover] = value
    result[1 - mover] = -value
    return result


register_knowledge("clobber", Knowledge[ClobberState](mobility, rollout_depth=None, greedy_turns=2))
