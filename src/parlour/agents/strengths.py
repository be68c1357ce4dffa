"""The named strengths players pick from: ``easy``, ``medium``, ``hard``.

Each is one documented agent and budget, the same for every game (the agent adapts through the
game's declared information and its registered evaluation), except that ``hard`` plays Clobber
with its own program (:mod:`parlour.agents.clobber_search`: exact proofs, then compiled MCTS):

========  ===================================================================  ==============
name      agent                                                                budget per move
========  ===================================================================  ==============
easy      greedy: best end-of-turn position by the game's evaluation, one      <= ~0.1 s
          random move in ten (2000 positions at most)
medium    MCTS (information-set MCTS when information is hidden)               0.25 s
hard      MCTS (information-set MCTS when information is hidden); in Clobber   1.0 s
          the solver's proofs first, then compiled MCTS over bitboards
========  ===================================================================  ==============

Stomp the Plank has its own three, none a search (its draw decides so much that searching
players and careful greedy ones play alike there, and the names would mean nothing):

========  ===================================================================  ==============
easy      the greedy beginner: draws for spot 5 (5 crates) every turn          microseconds
          (:mod:`parlour.agents.plank_levels`)
medium    the steady player: stops on spot 3 (2 crates), one turn in three     microseconds
          on spot 4 (:mod:`parlour.agents.plank_levels`)
hard      solved tables, an exact look-ahead over the turn and, with two       milliseconds
          players, a best response to a model of the opponent
          (:mod:`parlour.agents.plank_hard`)
========  ===================================================================  ==============

Both rules also stop at once when a stop tips another plank (a win).

Options override the defaults: ``hard:time=0.1``, or ``hard:iterations=3000`` for a budget
that reproduces exactly from the seed (a time budget depends on the machine).
"""

from __future__ import annotations

from typing import Any

from parlour.agents.base import Agent, register_agent
from parlour.agents.clobber_search import ClobberSearchAgent
from parlour.agents.greedy import GreedyAgent
from parlour.agents.mcts import MCTSAgent
from parlour.agents.plank_hard import plank_hard
from parlour.agents.plank_levels import plank_easy, plank_medium
from parlour.core import Game
from parlour.games.clobber import ClobberGame

EASY_EPSILON = 0.1
MEDIUM_SECONDS = 0.25
HARD_SECONDS = 1.0


def _mcts(seconds: float):
    def factory(game: Game, seed: int | None = None, **options: Any) -> Agent:
        if "iterations" not in options:
            options.setdefault("time", seconds)
        return MCTSAgent(game, seed, **options)

    return factory


def hard(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """MCTS for ``HARD_SECONDS`` a move; Clobber and Stomp the Plank have their own programs."""
    if game.name == "stomp-the-plank":  # solved tables and a model of the opponent
        return plank_hard(game, seed, **options)
    if isinstance(game, ClobberGame):  # exact proofs, then compiled MCTS
        if "iterations" not in options:
            options.setdefault("time", HARD_SECONDS)
        return ClobberSearchAgent(game, seed, **options)
    return _mcts(HARD_SECONDS)(game, seed, **options)


def medium(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """MCTS for ``MEDIUM_SECONDS`` a move; Stomp the Plank has its own rule."""
    if game.name == "stomp-the-plank":  # the steady player: stop on spot 3 (or 4)
        return plank_medium(game, seed, **options)
    return _mcts(MEDIUM_SECONDS)(game, seed, **options)


def easy(game: Game, seed: int | None = None, **options: Any) -> Agent:
    if game.name == "stomp-the-plank":  # the greedy beginner: play for spot 5
        return plank_easy(game, seed, **options)
    options.setdefault("epsilon", EASY_EPSILON)
    return GreedyAgent(game, seed, **options)


register_agent(
    "easy", easy, f"greedy by the game's evaluation, a random move {EASY_EPSILON:.0%} of the time"
    " (Stomp the Plank: the greedy beginner, who draws for spot 5)",
)
register_agent(
    "medium", medium, f"MCTS / information-set MCTS, {MEDIUM_SECONDS} s a move"
    " (Stomp the Plank: the steady player, who stops on spot 3, sometimes on spot 4)",
)
register_agent(
    "hard",
    hard,
    f"MCTS / information-set MCTS, {HARD_SECONDS} s a move (Clobber: solver proofs, then "
    "compiled MCTS; Stomp the Plank: solved tables, best response to a model of the opponent)",
)
