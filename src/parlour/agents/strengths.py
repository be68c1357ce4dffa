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

Stomple and GobbleStones search a fixed number of iterations (their knowledge's
``search_iterations``, :mod:`parlour.agents.knowledge`), so that a
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

from collections.abc import Callable
from typing import Any

from parlour.agents.base import Agent, own_strength, register_agent
from parlour.agents.clobber_search import HARD_SECONDS as CLOBBER_HARD_SECONDS
from parlour.agents.evaluation import knowledge_for
from parlour.agents.greedy import GreedyAgent
from parlour.agents.mcts import MCTSAgent
from parlour.core import Game
from parlour.i18n import Message

WORDS: dict[str, str] = {
    "random": Message("random"), "easy": Message("easy"), "medium": Message("medium"),
    "hard": Message("hard"), "greedy": Message("greedy"), "net": Message("learned"),
}
"""The strengths (and the two simplest programs, and the learned player) as players name them,
in their language: "Computer (easy)" reads "Ordinateur (facile)" in French."""
EASY_SECONDS = 1.0
"""A ceiling on ``easy``'s thinking: reached only on the largest Clobber boards, where greedy
looking at every move would take twenty seconds."""
EASY_EPSILON = 0.1
"""How often ``easy`` plays a random legal action instead of its greedy choice (a game's
knowledge may ask for more: ``Knowledge.easy_epsilon``)."""
MEDIUM_SECONDS = 0.25
HARD_CEILING = 2.0
"""Seconds a move of an iteration-budget ``hard`` may take at most: a ceiling for slow or busy
machines (here 20000 GobbleStones iterations take 0.15-0.5 s, and 2000 Stomple iterations
about 0.2 s)."""


def _mcts(seconds: float, level: int = 0) -> Callable[..., Agent]:
    """A factory of MCTS agents: the game's ``Knowledge.search_iterations[level]`` iterations
    (at most ``seconds``: the strength is then the same on every machine and at any load, and
    a game replays exactly from its seed), or ``seconds`` a move for games without an
    iteration budget."""

    def factory(game: Game, seed: int | None = None, **options: Any) -> Agent:
        budget = knowledge_for(game).search_iterations
        if "iterations" not in options and "time" not in options:
            if budget is not None:  # the normal budget: iterations, the time a ceiling
                options["iterations"] = budget[level]
            options["time"] = seconds
        return MCTSAgent(game, seed, **options)

    return factory


def hard(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """MCTS (information-set MCTS where information is hidden); a game may have its own."""
    own = own_strength(game, "hard")
    if own is not None:
        return own(game, seed, **options)
    return _mcts(HARD_CEILING, 1)(game, seed, **options)


def medium(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """MCTS for ``MEDIUM_SECONDS`` a move (or the game's iterations); a game may have its own."""
    own = own_strength(game, "medium")
    if own is not None:
        return own(game, seed, **options)
    return _mcts(MEDIUM_SECONDS, 0)(game, seed, **options)


def easy(game: Game, seed: int | None = None, **options: Any) -> Agent:
    """Greedy with a random move now and then; a game may have its own."""
    own = own_strength(game, "easy")
    if own is not None:
        return own(game, seed, **options)
    epsilon = knowledge_for(game).easy_epsilon
    options.setdefault("epsilon", EASY_EPSILON if epsilon is None else epsilon)
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
    f"MCTS / information-set MCTS, {CLOBBER_HARD_SECONDS} s a move (Stomple and GobbleStones: "
    "a fixed number of iterations, 10 and 200 times medium's; Clobber: solver proofs, then "
    "compiled MCTS; Stomp the Plank: solved tables, best response to a model of the opponent)",
)
