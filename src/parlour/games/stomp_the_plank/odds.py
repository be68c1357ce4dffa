"""Two-player Stomp the Plank, solved with an endless deck: each side's chance to win.

The real draw pile is finite (P1, P7) and its counts matter, but as a quick estimate of a
position the deck is taken as endless, so the k-th card matches one of the k - 1 on the
pontoon with chance ``(k - 1) / 7`` whatever was drawn before. The game then depends only on
the two planks, whose turn it is and the cards on the pontoon: 12 150 situations for the
default plank (P5), solved for perfect play by both sides in one backward pass (milliseconds, once
per process and configuration). Agents use it to judge two-player positions
(:mod:`parlour.agents.knowledge.stomp_the_plank`). ``bench/plank_ceiling.py`` solves the
finite deck exactly, against a random opponent, in C.

The rules are those of :mod:`~parlour.games.stomp_the_plank.game` (P2-P6), restated in array
form for the solver; ``tests/games/stomp_the_plank/test_odds.py`` checks the table against
every transition of the game engine. The crate supply is assumed never to
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


@cache  # asked at every leaf of a search: the answer depends on the configuration only
def solvable(players: int, crates: tuple[int, ...], plank: PlankModel, supply: int) -> bool:
    """Whether the endless-deck table describes this game (see the module's docstring)."""
    if players != 2 or plank.step_weight < 1 or supply < 2 * (plank.tip_at - 1):
        return False
    if any(c < 1 for c in crates[1:]):  # only the first spot may pay nothing (a pass)
        return False
    steps = plank.tip_at // plank.step_weight + 1
    return plank.tip_at * steps <= MAX_PLANKS and len(crates) < len(TREASURES)


@cache
def win_chances(crates: tuple[int, ...], plank: PlankModel) -> WinChances:
    """The solved table for one configuration (solved once per process)."""
    return WinChances(crates, plank)


def _solve(crates: tuple[int, ...], plank: PlankModel, states: list[tuple[int, int]],
           index: dict[tuple[int, int], int]) -> tuple[np.ndarray, np.ndarray]:
    """``V[k, me, other]``, the active player's chance to win, and ``D[k, me, other]``, the
    same once the draw is chosen (before the card is seen).

    Values are from the active player's side, so a turn's end reads the table with the roles
    swapped: ``1 - V[0, other', me']``. Every turn adds load to a plank (a step, or crates),
    except a stop on a first spot worth no crates, a *pass*; so positions are solved from the
    heaviest total load down, each from positions already solved, and passes are settled in
    closed form: when passing back and forth, a player draws on if that is worth more than
    1/2 and otherwise passes, and when both would rather pass the game is a draw, worth 1/2
    to each (the turn limit ends it with no loser).
    """
    n, spots = len(states), len(crates) + 1
    kinds = len(TREASURES)
    load = np.array([plank.load(c, s) for c, s in states])
    # After my step: my new plank, or -1 when the step tips it (I lose).
    stepped = np.array([index.get((c, s + 1), -1) for c, s in states])
    # After a stop on spot k: the other's plank with the crates, or -1 when it tips (I win).
    loaded = np.array(
        [[index.get((c + crates[k - 1], s), -1) if k else -1 for c, s in states]
         for k in range(spots)]
    )
    values, draws = np.full((spots, n, n), np.nan), np.full((spots, n, n), np.nan)
    start = values[0]
    total = load[:, None] + load[None, :]
    for level in sorted(set(total.ravel().tolist()), reverse=True):
        me, other = np.nonzero(total == level)
        after_step = np.where(stepped[me] < 0, 0.0, 1.0 - start[other, np.maximum(stepped[me], 0)])
        for k in range(spots - 1, -1, -1):
            # A card on the last spot wins (P2); a match steps (P4) with chance k / 7.
            fresh = 1.0 if k + 1 == spots else values[k + 1, me, other]
            draw = k / kinds * after_step + (1.0 - k / kinds) * fresh
            draws[k, me, other] = draw
            if k == 0:
                values[0, me, other] = draw
            elif k == 1 and crates[0] == 0:
                values[1, me, other] = draw  # settled below, once both sides' are known
            else:
                target = loaded[k, other]
                stop = np.where(target < 0, 1.0, 1.0 - start[np.maximum(target, 0), me])
                values[k, me, other] = np.maximum(stop, draw)
        if crates[0] == 0:
            mine, theirs = draws[1, me, other], draws[1, other, me]
            passing = np.where(theirs > 0.5, np.maximum(1.0 - theirs, mine), 0.5)
            settled = np.where(mine > 0.5, mine, passing)
            values[1, me, other] = values[0, me, other] = draws[0, me, other] = settled
    return values, draws
