"""The named strengths players pick from: ``easy``, ``medium``, ``hard``.

Each is one documented agent and budget, the same for every game (the agent adapts through the
game's declared information and its registered evaluation), except that ``hard`` plays Clobber
with its own program (:mod:`parlour.agents.clobber_search`: exact proofs, then compiled MCTS):

========  ===================================================================  ==============
name      agent                                                                budget per move
========  ===================================================================  ==============
easy      greedy: best end-of-turn position by the game's evaluation, one      <= ~0.1 s
          random move in ten (in GobbleStones one in two; 2000 positions at
          most)
medium    MCTS (information-set MCTS when information is hidden)               0.25 s; Stomple
                                                                               200 iterations,
                                                                               GobbleStones
                                                                               100 (<= 0.25 s)
hard      MCTS (information-set MCTS when information is hidden); in Clobber   1.0 s; Stomple
          the solver's proofs first, then compiled MCTS over bitboards         2000 iterations,
                                                                               GobbleStones
                                                                               20000 (<= 2 s)
========  ===================================================================  ==============

Stomple and GobbleStones search a fixed number of iterations (``SEARCH_ITERATIONS``), so that a
strength is the same on every machine and a game replays from its seed; the time is only a
ceiling there. The budgets are far apart because one step up must win about two decided pairs
in three even with four players, where the others at the table blur any one player's edge
(docs/agents.md, the ladder).

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

Options override the defaults: ``hard:time=0.1`` (a time alone), or ``hard:iterations=3000``
(iterations alone, no ceiling: a budget that reproduces exactly from the seed).
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

EASY_SECONDS = 1.0
"""A ceiling on ``easy``'s thinking: reached only on the largest Clobber boards, where greedy
looking at every move would take twenty seconds."""
EASY_EPSILON = 0.1
"""How often ``easy`` plays a random legal action instead of its greedy choice."""
EASY_EPSILON_BY_GAME: dict[str, float] = {"gobblestones": 0.5}
"""Games whose greedy player is too good a beginner at ``EASY_EPSILON``: laying the best-scoring
tiles is most of GobbleStones, so its ``easy`` plays every other tile at random (with 10% it
held ``medium`` to 57% with four players)."""
MEDIUM_SECONDS = 0.25
HARD_SECONDS = 1.0
SEARCH_ITERATIONS: dict[str, tuple[int, int]] = {
    "stomple": (200, 2000),
    "gobblestones": (100, 20000),
}
"""``(medium, hard)`` iterations a move where the strengths search a fixed number of iterations
instead of a time: the strength is then the same on every machine and at any load, and a game
replays exactly from its seed. Chosen so that each step up wins about two pairs in three
(docs/agents.md, the ladder); ``MEDIUM_SECONDS`` / ``HARD_CEILING`` still bound the time a move
may take on a slow machine."""
HARD_CEILING = 2.0
"""Seconds a move of an iteration-budget ``hard`` may take at most: a ceiling for slow or busy
machines (here 20000 GobbleStones iterations take 0.15-0.5 s, and 2000 Stomple iterations
about 0.2 s)."""


def _mcts(seconds: float, level: int = 0):
    """A factory of MCTS agents: ``SEARCH_ITERATIONS[game][level]`` iterations (at most
    ``seconds``), or ``seconds`` a move for games without an iteration budget."""

    def factory(game: Game, seed: int | None = None, **options: Any) -> Agent:
        budget = SEARCH_ITERATIONS.get(game.name)
        if "iterations" not in options and "time" not in options:
            if budget is not None:  # the normal budget: iterations, the time a ceiling
                options["iterations"] = budget[level]
            options["time"] = seconds
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
    return _mcts(HARD_CEILING, 1)(game, seed, **options)


def medium(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """MCTS for ``MEDIUM_SECONDS`` a move; Stomp the Plank has its own rule."""
    if game.name == "stomp-the-plank":  # the steady player: stop on spot 3 (or 4)
        return plank_medium(game, seed, **options)
    return _mcts(MEDIUM_SECONDS, 0)(game, seed, **options)


def easy(game: Game, seed: int | None = None, **options: Any) -> Agent:
    if game.name == "stomp-the-plank":  # the greedy beginner: play for spot 5
        return plank_easy(game, seed, **options)
    options.setdefault("epsilon", EASY_EPSILON_BY_GAME.get(game.name, EASY_EPSILON))
    options.setdefault("time", EASY_SECONDS)
    return GreedyAgent(game, seed, **options)


register_agent(
    "easy", easy, f"greedy by the game's evaluation, a random move {EASY_EPSILON:.0%} of the time"
    " (GobbleStones: half the time; Stomp the Plank: the greedy beginner, who draws for spot 5)",
)
register_agent(
    "medium", medium, f"MCTS / information-set MCTS, {MEDIUM_SECONDS} s a move (Stomple and "
    "GobbleStones: a fixed number of iterations; Stomp the Plank: the steady player, who stops "
    "on spot 3, sometimes on spot 4)",
)
register_agent(
    "hard",
    hard,
    f"MCTS / information-set MCTS, {HARD_SECONDS} s a move (Stomple and GobbleStones: a fixed "
    "number of iterations, 10 and 200 times medium's; Clobber: solver proofs, then compiled "
    "MCTS; Stomp the Plank: solved tables, best response to a model of the opponent)",
)
