"""Stomp the Plank by loads: the turn's transitions in a small form, and the game solved for
2-4 players with an endless deck (max^n).

A plank tips when ``crates + step_weight * step >= tip_at`` (P5), and both a step and a crate
add to the same sum, so at the start of a turn all that matters of a plank is its *load*
(``crates + step_weight * step``, 0..tip_at-1) and of the table the crates left in the supply
(P5, P10). :class:`LoadModel` states the turn's transitions on ``(loads, supply)``, loads
listed clockwise from the active player: a stop (P3, P10: crates handed out clockwise while
the supply lasts; P6: every plank that tips loses), a step (P4) and the last spot (P2), and
the chances of a reveal from a draw pile of known counts (P1, P7). Agents build their
look-ahead from these functions instead of restating rules; ``tests/games/stomp_the_plank/
test_loads.py`` checks each one against the engine.

:func:`maxn_table` solves the game with an endless deck (a draw with ``k`` cards on the
pontoon matches with chance ``k / 7``) for any number of players: every player maximises
their own expected return (``+1`` for a win, ``-1`` for a loss, ``0`` at the turn limit,
G-4). That is *max^n*, chosen over *paranoid* play (everyone else against one player) because
a stop hands the same crates to every other player: nobody can aim at one opponent, and every
player simply tries not to be the one who tips, which is what max^n assumes of them.

Returns are from the frame of the active player (index 0 = whoever is to move, then
clockwise). The supply is exact: it is ``supply - crates on planks`` and crates on planks are
``sum(loads) - step_weight * total steps``, so the table is indexed by the loads and the total
of steps taken (or by the loads alone when the supply can never run short).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

from parlour.games.stomp_the_plank.deck import COPIES, TREASURES
from parlour.games.stomp_the_plank.game import StompThePlankGame

Loads = tuple[int, ...]
KINDS = len(TREASURES)


@dataclass(frozen=True)
class Over:
    """The game ended; ``returns`` in the frame of the turn's active player (G-4)."""

    returns: tuple[float, ...]


@dataclass(frozen=True)
class Next:
    """The next player's turn starts: ``loads`` from them clockwise, ``supply`` left
    (``None``: the supply cannot run short in this configuration)."""

    loads: Loads
    supply: int | None


@dataclass(frozen=True)
class LoadModel:
    """One configuration's turn transitions over loads (rulings P2-P7, P10)."""

    players: int
    crates: tuple[int, ...]
    tip_at: int
    step_weight: int
    supply: int
    """The supply at the start of the game (``supply`` parameter)."""

    @classmethod
    def of(cls, game: StompThePlankGame) -> LoadModel:
        params = game.params
        return cls(game.num_players(), tuple(game.crates),
                   int(params["tip_at"]), int(params["step_weight"]), int(params["supply"]))

    @property
    def spots(self) -> int:
        return len(self.crates) + 1

    @property
    def unlimited(self) -> bool:
        """The supply can never run short: even with every plank just short of tipping, it
        still holds a full stop's crates for every other player."""
        most = max(self.crates, default=0)
        return self.supply >= self.players * (self.tip_at - 1) + (self.players - 1) * most

    def load(self, crates: int, step: int) -> int:
        return crates + self.step_weight * step

    def start_of(self, planks: list[tuple[int, int]], active: int,
                 supply: int) -> tuple[Loads, int | None]:
        """``(loads, supply)`` of a table: planks ``(crates, step)`` by seat, ``active`` first."""
        n = len(planks)
        loads = tuple(self.load(*planks[(active + i) % n]) for i in range(n))
        return loads, None if self.unlimited else supply

    def match_chance(self, cards: int) -> float:
        """Endless deck: the next card matches one of ``cards`` different ones (P4)."""
        return cards / KINDS

    def last_spot(self) -> Over:
        """P2: the active player wins, every other player loses."""
        return Over((1.0,) + (-1.0,) * (self.players - 1))

    def stop(self, loads: Loads, supply: int | None, cards: int) -> Over | Next:
        """P3, P10: the others take the crates of spot ``cards`` clockwise while the supply
        lasts; P6: every plank that tips loses, everyone else wins."""
        give = self.crates[cards - 1]
        after, left = list(loads), supply
        for i in range(1, self.players):
            taken = give if left is None else min(give, left)
            if left is not None:
                left -= taken
            after[i] += taken
        tipped = [load >= self.tip_at for load in after]
        if any(tipped):
            return Over(tuple(-1.0 if t else 1.0 for t in tipped))
        return Next((*after[1:], after[0]), left)

    def step(self, loads: Loads, supply: int | None) -> Over | Next:
        """P4: caught by the Captain, the active player's elephant steps; P6 if it tips."""
        mine = loads[0] + self.step_weight
        if mine >= self.tip_at:
            return Over((-1.0,) + (1.0,) * (self.players - 1))
        return Next((*loads[1:], mine), supply)


def reveal_chances(pile: tuple[int, ...], pontoon: tuple[int, ...]) -> list[tuple[int, float]]:
    """The chance of each treasure on the next draw from a pile of these counts (P1), the
    discards reshuffled first when the pile is empty (P7: every card not on the pontoon)."""
    if not any(pile):
        pile = tuple(COPIES - pontoon.count(t) for t in range(KINDS))
    total = sum(pile)
    return [(t, c / total) for t, c in enumerate(pile) if c]


def reveals(pile: tuple[int, ...],
            pontoon: tuple[int, ...]) -> list[tuple[int, float, tuple[int, ...]]]:
    """:func:`reveal_chances` with the pile each card leaves behind (P1, P7)."""
    if not any(pile):
        pile = tuple(COPIES - pontoon.count(t) for t in range(KINDS))
    total = sum(pile)
    return [(t, c / total, (*pile[:t], c - 1, *pile[t + 1:])) for t, c in enumerate(pile) if c]


def pile_after_turn(pile: tuple[int, ...]) -> tuple[int, ...]:
    """P7: a pile emptied by the turn is the whole deck again once the turn's cards are
    discarded."""
    return pile if any(pile) else (COPIES,) * KINDS


# -- the endless-deck table for any number of players ------------------------------------------

MAX_STATES = 2_000_000
"""Larger tables (huge planks) are not solved: memory grows with ``tip_at ** players``."""


def tabulable(model: LoadModel) -> bool:
    """Whether :func:`maxn_table` solves this configuration (steps must add load, so every
    turn but a stop worth nothing moves the game on; the pontoon fits the seven treasures)."""
    if model.step_weight < 1 or model.spots > KINDS or not 2 <= model.players <= 4:
        return False
    return table_size(model) <= MAX_STATES


def _steps_dim(model: LoadModel) -> int:
    if model.unlimited:
        return 1
    return model.players * ((model.tip_at - 1) // model.step_weight) + 1


def table_size(model: LoadModel) -> int:
    """Entries of the max^n table (loads of every player, times the totals of steps)."""
    return int(model.tip_at ** model.players) * _steps_dim(model)


class MaxnTable:
    """Each player's expected return at the start of a turn under max^n play, endless deck.

    ``value(loads, supply)``: the returns, in the frame of ``loads`` (active player first).
    ``turn(loads, supply, cards)``: ``(stop, draw)`` returns with ``cards`` on the pontoon
    (``stop`` is None with no card down: the first draw is forced, P3).
    """

    def __init__(self, model: LoadModel) -> None:
        if not tabulable(model):
            raise ValueError(f"no max^n table for {model}")
        self.model = model
        self.values, self.unsettled = _solve_maxn(model)

    def _index(self, loads: Loads, supply: int | None) -> int:
        m = self.model
        q = 0
        if not m.unlimited:
            if supply is None:
                raise ValueError("this configuration's supply can run short: give it")
            q = (supply - m.supply + sum(loads)) // m.step_weight
            q = min(max(q, 0), _steps_dim(m) - 1)
        index = 0
        for load in loads:
            index = index * m.tip_at + load
        return index * _steps_dim(m) + q

    def value(self, loads: Loads, supply: int | None) -> tuple[float, ...]:
        return tuple(float(v) for v in self.values[self._index(loads, supply)])

    def after(self, outcome: Over | Next) -> tuple[float, ...]:
        """Returns after a transition, in the frame of the turn that made it."""
        if isinstance(outcome, Over):
            return outcome.returns
        nxt = self.value(outcome.loads, outcome.supply)
        return nxt[-1:] + nxt[:-1]  # the next frame starts one seat on

    def turn(self, loads: Loads, supply: int | None,
             cards: int) -> tuple[tuple[float, ...] | None, tuple[float, ...]]:
        m = self.model

        def best(k: int) -> tuple[float, ...]:
            stop, draw = options(k)
            return stop if stop is not None and stop[0] >= draw[0] else draw

        def options(k: int) -> tuple[tuple[float, ...] | None, tuple[float, ...]]:
            p = m.match_chance(k)
            fresh = m.last_spot().returns if k + 1 == m.spots else best(k + 1)
            step = self.after(m.step(loads, supply)) if k else fresh
            draw = tuple(p * s + (1 - p) * f for s, f in zip(step, fresh, strict=True))
            stop = self.after(m.stop(loads, supply, k)) if k else None
            return stop, draw

        return options(cards)


@cache
def maxn_table(model: LoadModel) -> MaxnTable:
    """The solved table of one configuration (once per process; 4 players at the default
    plank take about a second)."""
    return MaxnTable(model)


def _solve_maxn(model: LoadModel) -> tuple[np.ndarray, np.ndarray]:
    """Backward induction from the heaviest total load down.

    Every turn adds load except a stop that hands out no crates (a *pass*: spot 1's 0 crates,
    or an empty supply), which leads to the same loads one seat on. Those cycles are settled by
    iterating over the states of one total load, starting from "everyone passes for ever"
    (returns 0, the turn limit) and letting each active player draw on where that is worth
    more to them: at most ``4 * players`` sweeps (a sweep that changes nothing ends it).
    """
    n, tip, w = model.players, model.tip_at, model.step_weight
    dim = _steps_dim(model)
    shape = (tip,) * n + (dim,)
    grid = np.indices(shape).reshape(n + 1, -1)
    loads, q = grid[:n], grid[n]
    total = loads.sum(axis=0)
    if model.unlimited:
        supply = np.full(total.shape, 10**9)
    else:
        supply = np.clip(model.supply - total + w * q, 0, model.supply)
    size = total.size
    values = np.zeros((size, n))
    unsettled = np.zeros(size, dtype=bool)
    radix = np.array([tip ** (n - 1 - i) * dim for i in range(n)])

    def flat(new_loads: np.ndarray, new_q: np.ndarray) -> np.ndarray:
        return np.asarray((new_loads * radix[:, None]).sum(axis=0) + new_q)

    lose_me = np.array([-1.0] + [1.0] * (n - 1))
    win_me = np.array([1.0] + [-1.0] * (n - 1))
    spots = model.spots
    order = np.argsort(total, kind="stable")
    bounds = np.searchsorted(total[order], np.arange(int(total.max()) + 2))
    for level in range(int(total.max()), -1, -1):
        at = order[bounds[level]:bounds[level + 1]]
        if not at.size:
            continue
        lv, qv, sv = loads[:, at], q[at], supply[at]
        # P4: a step; over if it tips the active plank, else the next seat's turn.
        mine = lv[0] + w
        step_over = mine >= tip
        step_next = flat(np.vstack([lv[1:], np.minimum(mine, tip - 1)[None]]),
                         np.minimum(qv + 1, dim - 1))
        # P3, P10: a stop on spot k, for k = 1..spots-1.
        stops = []
        for k in range(1, spots):
            give = model.crates[k - 1]
            left = sv.copy()
            after = lv.copy()
            for i in range(1, n):
                taken = np.minimum(give, left)
                left = left - taken
                after[i] = after[i] + taken
            tipped = after >= tip
            over = np.asarray(tipped.any(axis=0))
            over_returns = np.where(tipped, -1.0, 1.0).T
            rotated = np.vstack([after[1:], after[:1]])
            nxt = flat(np.minimum(rotated, tip - 1), qv)
            same = (~over) & (after.sum(axis=0) == lv.sum(axis=0))
            stops.append((over, over_returns, nxt, same))
        def after_next(index: np.ndarray) -> np.ndarray:
            return np.roll(values[index], 1, axis=1)

        # Everything but a pass leads to a heavier table, already solved: fixed in the sweeps.
        step_value = np.where(step_over[:, None], lose_me, after_next(step_next))
        stop_values = [np.where(over[:, None], over_returns, after_next(nxt))
                       for over, over_returns, nxt, _same in stops]
        passing = [(k, np.nonzero(same)[0], nxt[same])
                   for k, (_o, _r, nxt, same) in enumerate(stops, start=1) if same.any()]
        # Only passes on spots 2.. (an empty supply) make the rest of the turn move between
        # sweeps; elsewhere the draw on spot 1 is fixed and a sweep is one comparison.
        deep = np.zeros(at.size, dtype=bool)
        for k, (_o, _r, _n, same) in enumerate(stops, start=1):
            if k >= 2:
                deep |= same

        def rest_of_turn(rows: np.ndarray | slice, step_value: np.ndarray = step_value,
                         stop_values: list[np.ndarray] = stop_values) -> np.ndarray:
            """The draw on spot 1, the best choices made on spots 2.. ."""
            fresh = np.broadcast_to(win_me, (step_value[rows].shape[0], n))
            for k in range(spots - 1, 0, -1):
                p = k / KINDS
                draw = p * step_value[rows] + (1 - p) * fresh
                if k == 1:
                    return draw
                stop = stop_values[k - 1][rows]
                fresh = np.where((stop[:, 0] >= draw[:, 0])[:, None], stop, draw)
            raise AssertionError("a pontoon has at least two spots")

        draw1 = rest_of_turn(slice(None))
        for sweep in range(4 * n + 1):
            for k, rows, targets in passing:
                stop_values[k - 1][rows] = after_next(targets)
            if sweep and deep.any():
                draw1[deep] = rest_of_turn(deep)
            stop1 = stop_values[0]
            # k = 0: the forced first draw never matches, so the turn is worth spot 1's choice
            new = np.where((stop1[:, 0] >= draw1[:, 0])[:, None], stop1, draw1)
            moved = np.abs(new - values[at]).max(axis=1) > 1e-13
            if sweep == 4 * n:  # no settled choice: keep the last sweep, mark what moves
                unsettled[at] = moved
                break
            values[at] = new
            if not passing or not moved.any():
                break  # no pass at this level: one sweep is exact
    return values, unsettled


def all_loads(model: LoadModel) -> list[Loads]:
    """Every table of loads with no plank tipped (tests walk them)."""
    return list(itertools.product(range(model.tip_at), repeat=model.players))
