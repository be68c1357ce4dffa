"""A plain exhaustive search over the game's own rules: the reference the solver must match."""

from __future__ import annotations

from parlour.games.clobber import ClobberState


def mover_wins(state: ClobberState, memo: dict[str, bool] | None = None) -> bool:
    """Negamax over every legal move, memoised on the position text only."""
    memo = {} if memo is None else memo
    key = state.position()
    found = memo.get(key)
    if found is None:
        found = any(not mover_wins(state.child(a), memo) for a in state.legal_actions())
        memo[key] = found
    return found


def winning_moves(state: ClobberState) -> list[str]:
    memo: dict[str, bool] = {}
    return sorted(
        state.action_to_string(a)
        for a in state.legal_actions()
        if not mover_wins(state.child(a), memo)
    )
