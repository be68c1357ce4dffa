"""GobbleStones: the lead in points, counting the tiles in hand.

Points are what wins (B8): the squares' values scored so far (``scores()``), plus one point per
tile still in the rack at the end (B8), and tiles in the rack are also the next plays' material.
A play being laid counts for its mover with what it would score (``play_points``), so that a
search judging positions part-way through a play does not see its tiles as lost. Not in the
bluffing variant (B9): there a play laid face down may yet be caught, and counting it made the
searcher bluff freely, be caught, and stall games to the turn cap. Each player's
value is their lead over the best other player, squashed so that a lead of about two good plays
(``SCALE`` points) is worth three quarters of a win.
"""

from __future__ import annotations

import math

from parlour.agents.evaluation import Knowledge, register_knowledge
from parlour.games.gobblestones import GobbleStonesState
from parlour.games.gobblestones.compiled import CompiledSearch

SCALE = 25.0


def lead(state: GobbleStonesState) -> list[float]:
    if state.is_terminal():
        return list(state.returns())
    game = state.get_game()
    n = game.num_players()
    scores = state.scores()
    points = [scores[p] + sum(state.rack(p).values()) for p in range(n)]
    mover = state.current_player()
    if mover >= 0 and state.turn_in_progress() and not game.bluff:
        points[mover] += state.play_points()  # laid, not yet scored
    return [
        math.tanh((points[p] - max(points[q] for q in range(n) if q != p)) / SCALE)
        for p in range(n)
    ]


ROLLOUT_DEPTH = 0
"""MCTS judges a leaf by :func:`lead` at once, with no random playout: random plays are far
from how a player lays tiles (rarely five, rarely the best squares), so a playout's noise drowns
the few points that separate good plays; searched without playouts, ``medium`` beats the
greedy ``easy`` (see docs/agents.md, the ladder), with playouts of 30 plies it did not."""



def compiled_search(state: GobbleStonesState, observer: int, *, c: float,
                    rollout_depth: int) -> CompiledSearch[GobbleStonesState] | None:
    """The game's compiled information-set search, judging leaves by :func:`lead` (its C twin,
    with this module's ``SCALE``, a play being laid counted as :func:`lead` counts it); None
    where there is none (``GobbleStonesState.compiled_search``)."""
    return state.compiled_search(observer, c=c, rollout_depth=rollout_depth, scale=SCALE)


register_knowledge("gobblestones", Knowledge[GobbleStonesState](
    lead, rollout_depth=ROLLOUT_DEPTH, greedy_turns=1, compiled_search=compiled_search,
    # laying the best-scoring tiles is most of GobbleStones: its easy plays every other tile
    # at random (with one in ten it held medium to 57% with four players)
    easy_epsilon=0.5,
    search_iterations=(100, 20000),  # each step up wins two decided pairs in three (the ladder)
))
