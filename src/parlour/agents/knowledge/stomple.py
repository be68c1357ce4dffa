"""Stomple: points toward the target, and who is likely to survive the round in play.

A game is won on points (S11): the round's winner scores 3, plus 3 per cat's eye and 1 per solid
marble left (S10; ``State.round_points``). Who wins a round is who keeps a legal stomp longest
(S9), so each player still in the round gets a share of its points by *mobility*: their number
of legal stomps, asked of the game itself (``StompleState.stomps_for``; no stomping rule is
re-implemented here). Shares are a softmax of mobility; players out of the round get none. Each
player's value is their expected lead over the best other player, measured against the target
(a lead of a third of the target is worth about three quarters of a win); with ``rounds=1``,
the share of the round is the value.
"""

from __future__ import annotations

import math

from parlour.agents.evaluation import Knowledge, register_knowledge
from parlour.core import NotationError
from parlour.games.stomple import StompleState

OUT = 2
"""``statuses()`` value of a player knocked out of the round (S9)."""
MOBILITY_SCALE = 3.0
"""Three more legal stomps make a player e (2.7) times likelier to outlast the others."""
TO_MOVE, STRING = 1, 4
"""Fields of the position text: the player to move, the string being stomped (or ``-``)."""


def mobility(state: StompleState, player: int) -> int:
    """How many legal stomps ``player`` would have if it were their turn now (the game's own
    ``stomps_for``; :func:`mobility_by_position` asks the same through a position text)."""
    if state.current_player() == player:
        return len(state.legal_actions())
    return state.stomps_for(player)


def mobility_by_position(state: StompleState, player: int) -> int:
    """:func:`mobility` the slow way: the position with ``player`` to move, read back with
    ``state_from_position`` (kept as the reference the tests compare ``stomps_for`` with)."""
    if state.current_player() == player:
        return len(state.legal_actions())
    fields = state.position().split(" ")
    fields[TO_MOVE], fields[STRING] = str(player), "-"
    try:
        twin = state.get_game().state_from_position(" ".join(fields))
    except NotationError:
        return 0
    return len(twin.legal_actions()) if twin.current_player() == player else 0


def round_shares(state: StompleState) -> list[float]:
    """Each player's chance of winning the round in play, from their mobility."""
    n = state.get_game().num_players()
    statuses = state.statuses()
    alive = [p for p in range(n) if statuses[p] != OUT]
    if state.current_player() < 0:  # a deal or stomper draw: nobody has moved yet
        return [1.0 / len(alive) if p in alive else 0.0 for p in range(n)]
    moves = {p: mobility(state, p) for p in alive}
    top = max(moves.values())
    weights = {p: math.exp((m - top) / MOBILITY_SCALE) if m else 0.0 for p, m in moves.items()}
    total = sum(weights.values()) or 1.0
    return [weights.get(p, 0.0) / total for p in range(n)]


def standing(state: StompleState) -> list[float]:
    if state.is_terminal():
        return list(state.returns())
    game = state.get_game()
    n = game.num_players()
    shares = round_shares(state)
    if game.params["rounds"] == 1:
        return [2.0 * s - 1.0 for s in shares]
    scores = state.scores()
    pot = state.round_points()
    expected = [scores[p] + shares[p] * pot for p in range(n)]
    scale = max(1.0, game.target / 3.0)
    return [
        math.tanh((expected[p] - max(expected[q] for q in range(n) if q != p)) / scale)
        for p in range(n)
    ]


register_knowledge("stomple", Knowledge[StompleState](
    standing, rollout_depth=60, greedy_turns=1,
    search_iterations=(200, 2000),  # each step up wins two decided pairs in three (the ladder)
))
