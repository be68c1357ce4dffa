"""What agents know about each game's scoring: a per-game evaluation of a full (sampled) state.

An evaluation estimates the returns (G-4: +1 win, -1 loss) of a state that is not over yet, from
the game's public API only: ``scores()``, ``view(None)``, ``legal_actions()``,
``state_from_position()``. No rule is re-implemented here; a game's own methods answer every
question about its rules. Agents call evaluations on worlds they sampled from their own view,
never on the real state (see :mod:`parlour.agents.playerview`).

Games register a :class:`Knowledge`: the evaluation, and how deep MCTS rollouts should go before
the evaluation takes over (``None``: play out to the end). A game with no entry gets
:func:`score_margin`, which reads ``scores()``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from parlour.core import Game, State

S = TypeVar("S", bound=State[Any])
"""The state class of the game a :class:`Knowledge` is about."""

Evaluation = Callable[[S], list[float]]
"""``evaluate(state) -> estimated returns``, one value in [-1, 1] per player."""

Policy = Callable[[S, float], int]
"""``policy(state, r) -> action`` for the player to act; ``r`` is uniform in [0, 1)."""


@dataclass(frozen=True)
class Knowledge(Generic[S]):
    """An evaluation and the search settings that suit a game.

    Generic in the game's state class, so that a game's knowledge reads its states' own
    accessors with their types: ``Knowledge[GobbleStonesState](lead, ...)``.
    """

    evaluate: Evaluation[S]
    rollout_depth: int | None = None
    """Plies of random play before the evaluation judges a rollout (None: to the end)."""
    greedy_turns: int = 1
    """Turns the greedy agent searches: 1 its own; 2 also the next player's best reply."""
    rollout_policy: Policy[S] | None = None
    """How playouts choose player actions (None: uniformly at random)."""
    easy_epsilon: float | None = None
    """How often ``easy`` plays at random in this game (``None``: the strengths' default);
    higher where the greedy player is too good a beginner."""
    search_iterations: tuple[int, int] | None = None
    """``(medium, hard)`` iterations a move where the strengths search a fixed number of
    iterations rather than a time (``None``: a time budget)."""
    compiled_search: Callable[..., Any] | None = None
    """``compiled_search(state, observer, c=..., rollout_depth=...)``: a compiled
    information-set search from ``state`` that judges leaves exactly as this knowledge does
    (``add_world``, ``iterate(world, random)``, ``root()``; see
    ``parlour.games.gobblestones.compiled.CompiledSearch``), or None where the game has none."""


def score_margin(state: State[Any], scale: float | None = None) -> list[float]:
    """Each player's lead over the best other player, squashed into [-1, 1].

    With no points yet, every player gets 0. ``scale`` is the lead worth about three quarters
    of a win; by default the mean absolute score, so the squash adapts to the game's units.
    """
    if state.is_terminal():
        return list(state.returns())
    scores = state.scores()
    n = len(scores)
    if n < 2 or not any(scores):
        return [0.0] * n
    if scale is None:
        scale = max(1.0, sum(abs(s) for s in scores) / n)
    result = []
    for i, s in enumerate(scores):
        best_other = max(scores[j] for j in range(n) if j != i)
        result.append(math.tanh((s - best_other) / scale))
    return result


_KNOWLEDGE: dict[str, Knowledge[Any]] = {}


def register_knowledge(game_name: str, knowledge: Knowledge[Any]) -> None:
    """Give agents a better evaluation for the game named ``game_name``."""
    _KNOWLEDGE[game_name] = knowledge


def knowledge_for(game: Game) -> Knowledge[Any]:
    return _KNOWLEDGE.get(game.name, Knowledge(score_margin))


def evaluate(state: State) -> list[float]:
    """The registered evaluation of ``state`` (returns at the end)."""
    if state.is_terminal():
        return list(state.returns())
    return knowledge_for(state.get_game()).evaluate(state)
