"""GobbleStones: the lead in points, counting the tiles in hand.

Points are what wins (B8): the squares' values scored so far (``scores()``), plus one point per
tile still in the rack at the end (B8), and tiles in the rack are also the next plays' material.
Each player's value is their lead over the best other player, squashed so that a lead of about
two good plays (``SCALE`` points) is worth three quarters of a win.
"""

from __future__ import annotations

import math

from parlour.agents.evaluation import Knowledge, register_knowledge
from parlour.core import State

SCALE = 25.0


def lead(state: State) -> list[float]:
    if state.is_terminal():
        return list(state.returns())
    n = state.get_game().num_players()
    scores = state.scores()
    points = [scores[p] + sum(state.rack(p).values()) for p in range(n)]  # type: ignore[attr-defined]
    return [
        math.tanh((points[p] - max(points[q] for q in range(n) if q != p)) / SCALE)
        for p in range(n)
    ]


register_knowledge("gobblestones", Knowledge(lead, rollout_depth=30, greedy_turns=1))
