"""Two-player Stomp the Plank, solved with an endless deck: each side's chance to win.

The real draw pile is finite (P1, P7) and its counts matter, but as a quick estimate of a
position the deck is taken as endless, so the k-th card matches one of the k - 1 on the
pontoon with chance ``(k - 1) / 7`` whatever was drawn before. The game then depends only on
the two planks, whose turn it is and the cards on the pontoon, about forty thousand
situations, and value iteration solves it for perfect play by both sides in a few seconds
(once per process and configuration). Agents use it to judge two-player positions
(:mod:`parlour.agents.knowledge.stomp_the_plank`). ``bench/plank_ceiling.py`` solves the
finite deck exactly, against a random opponent, in C.

The rules are those of :mod:`~parlour.games.stomp_the_plank.game` (P2-P6), restated in array
form for the solver; ``tests/games/stomp_the_plank/test_odds.py`` checks the table against a
solver that asks the game engine for every transition. The crate supply is assumed never to
run out, true with two players whenever ``supply >= 2 * (tip_at - 1)``; :func:`solvable` says
when the table applies.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from parlour.games.stomp_the_plank.deck import TREASURES
from parlour.games.stomp_the_plank.plank import PlankModel

MAX_PLANKS = 400
"""Larger planks (a huge ``tip_at``) are not tabulated: the table grows with its square."""


class WinChances:
    """``chance(active, cards, mine, theirs)``: the chance that the active player wins.

    ``mine`` and ``theirs`` are ``(crates, step)`` of the active player and the other;
    ``cards`` is how many cards are on the pontoon (0: the turn has not drawn yet). With
    ``cards`` >= 1 the active player is about to choose between stopping and drawing, and the
    value is that of the better choice; ``drawing=True`` asks for the value of a draw already
    chosen (the card not yet revealed).
    """

    def __init__(self, crates: tuple[int, ...], plank: PlankModel) -> None:
        self.crates, self.plank = crates, plank
        states = [
            (c, s)
            for s in range(plank.tip_at // max(plank.step_weight, 1) + 1)
            for c in range(plank.tip_at)
            if not plank.tips(c, s)
        ]
        self.index = {p: i for i, p in enumerate(states)}
        self.values, self.draws = _solve(crates, plank, states, self.index)

    def chance(self, cards: int, mine: tuple[int, int], theirs: tuple[int, int],
               drawing: bool = False) -> float:
        table = self.draws if drawing else self.values
        return float(table[cards, self.index[mine], self.index[theirs]])


def solvable(players: int, crates: tuple[int, ...], plank: PlankModel, supply: int) -> bool:
    """Whether the endless-deck table describes this game (see the module's docstring)."""
    if players != 2 or plank.step_weight < 1 or supply < 2 * (plank.tip_at - 1):
        return False
    steps = plank.tip_at // plank.step_weight + 1
    return plank.tip_at * steps <= MAX_PLANKS and len(crates) < len(TREASURES)


@cache
def win_chances(crates: tuple[int, ...], plank: PlankModel) -> WinChances:
    """The solved table for one configuration (solved once per process)."""
    return WinChances(crates, plank)


def _solve(crates: tuple[int, ...], plank: PlankModel, states: list[tuple[int, int]],
           index: dict[tuple[int, int], int]) -> tuple[np.ndarray, np.ndarray]:
    """Value iteration: ``V[k, me, other]``, the active player's chance to win, and the
    same after choosing to draw (before the card is seen).

    Values are from the active player's side, so a turn's end reads the table with the roles
    swapped: ``1 - V[0, other', me']``. Turns that change nothing (a stop on a spot worth no
    crates) make the game cyclic, hence iteration rather than one backward pass.
    """
    n, spots = len(states), len(crates) + 1
    kinds = len(TREASURES)
    # After my step: my new plank, or -1 when the step tips it (I lose).
    stepped = np.array([index.get((c, s + 1), -1) for c, s in states])
    # After a stop on spot k: the other's plank with the crates, or -1 when it tips (I win).
    loaded = np.array(
        [[index.get((c + crates[k - 1], s), -1) if k else -1 for c, s in states]
         for k in range(spots)]
    )
    values = np.full((spots, n, n), 0.5)
    me = np.arange(n)[:, None]
    other = np.arange(n)[None, :]
    for _ in range(10_000):
        start = values[0]
        # My turn ends with a step: the other moves next, from a fresh pontoon.
        after_step = np.where(stepped[me] < 0, 0.0, 1.0 - start[other, np.maximum(stepped, 0)[me]])
        new, draws = np.empty_like(values), np.empty_like(values)
        for k in range(spots - 1, -1, -1):
            match = k / kinds
            # a card on the last spot wins (P2)
            fresh = np.ones((n, n)) if k + 1 == spots else new[k + 1]
            draw = draws[k] = match * after_step + (1.0 - match) * fresh
            if k == 0:
                new[k] = draw
                continue
            target = loaded[k]
            stop = np.where(target[other] < 0, 1.0, 1.0 - start[np.maximum(target, 0)[other], me])
            new[k] = np.maximum(stop, draw)
        delta = float(np.abs(new - values).max())
        values = new
        if delta < 1e-12:
            break
    return values, draws
