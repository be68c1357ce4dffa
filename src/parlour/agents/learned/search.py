"""Gumbel MCTS over many positions at once, in numpy (Danihelka et al., ICLR 2022).

"Policy improvement by planning with Gumbel" makes AlphaZero learn with a handful of
simulations per move, which is what a CPU can afford. This module is that search, written once
for two callers: the ``net`` agent (one position, its own small budget) and self-play training
(:mod:`parlour.rl.gumbel`: hundreds of games, one network call per simulation for all of them).

At the root (:func:`GumbelSearch.run`):

- **Gumbel-top-k**: each legal action gets Gumbel noise ``g(a)``; the ``considered`` actions
  with the highest ``g(a) + logits(a)`` are sampled without replacement (noise 0: the top ones
  by the prior);
- **sequential halving** spreads the simulations over them in phases and keeps the better half
  after each, by ``g(a) + logits(a) + sigma(q(a))``; the action played is the best survivor
  (:func:`considered_visits` gives the schedule);
- the **policy target** is ``softmax(logits + sigma(completed_q))`` over the legal actions: the
  improved policy, where an unvisited action's Q is *completed* with the mixed value estimate
  ``v_mix`` (the paper's appendix D).

``sigma(q) = (maxvisit_init + max_b N(b)) * value_scale * q``, with Q rescaled to [0, 1] over the
node's legal actions. Below the root, the action is the deterministic one of the paper's
section 5: ``argmax_a pi'(a) - N(a) / (1 + sum_b N(b))``, ``pi'`` the improved policy of that node.

A child is one action after its parent; chance events (if the game has them) are resolved by
the game adapter when the child is made, so each edge of the tree is one sampled outcome. Values
are for the player to move at each node; two-player zero-sum games only (a child whose player
differs from its parent's has the opposite value). Terminal children are exact leaves.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

Positions = dict[str, np.ndarray]
"""A batch of positions as arrays whose first axis is the position (a game adapter's format)."""

Evaluate = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
"""``evaluate(observations) -> (logits (n, actions), values (n,))``: a policy-value network."""

NEG = np.float32(-1e9)
"""The logit of an illegal action (finite, so that sums stay numbers; its probability is 0)."""
BIG, TINY, EPSILON, ONE = np.float32(3e38), np.float32(1e-30), np.float32(1e-8), np.float32(1)


@dataclass(frozen=True)
class Described:
    """What the search needs to know of positions: ``legal`` ``(n, actions)`` bools,
    ``terminal`` ``(n,)``, ``value`` ``(n,)`` (the exact value of a terminal position for its
    player to move; ignored elsewhere) and ``player`` ``(n,)`` (the player to move)."""

    legal: np.ndarray
    terminal: np.ndarray
    value: np.ndarray
    player: np.ndarray


class SearchGame(Protocol):
    """A game as the search sees it (:mod:`parlour.agents.learned.games` has the adapters).
    It may also say ``max_legal``, the most legal actions a position can have (default: every
    action), which sizes the search's arrays."""

    num_actions: int
    observation_shape: tuple[int, ...]

    def describe(self, positions: Positions) -> Described: ...

    def observe(self, positions: Positions) -> np.ndarray: ...

    def expand(self, positions: Positions, actions: np.ndarray, rng: np.random.Generator
               ) -> tuple[Positions, Described, np.ndarray]:
        """The children (one action each), described, and the observations of the children
        that are not finished, in order."""
        ...


def take(positions: Positions, index: np.ndarray | slice) -> Positions:
    return {key: value[index] for key, value in positions.items()}


def put(pool: Positions, index: np.ndarray, positions: Positions) -> None:
    for key, value in positions.items():
        pool[key][index] = value


def concat(parts: list[Positions]) -> Positions:
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def allocate(like: Positions, n: int) -> Positions:
    return {key: np.zeros((n, *value.shape[1:]), dtype=value.dtype) for key, value in
            like.items()}


@lru_cache(maxsize=64)
def considered_visits(considered: int, simulations: int) -> tuple[int, ...]:
    """The visit count an action must have to be chosen at each root simulation.

    Sequential halving with ``considered`` actions: in each phase every action still in the
    running gets ``max(1, simulations // (ceil(log2 considered) * survivors))`` more visits,
    then the better half carries on (at least two). At simulation ``i`` the root chooses,
    among the actions with exactly ``sequence[i]`` visits, the best by ``g + logits +
    sigma(q)``; so the phases need no bookkeeping of their own (as in DeepMind's ``mctx``).

    >>> considered_visits(4, 10)
    (0, 0, 0, 0, 1, 1, 2, 2, 3, 3)
    """
    if considered <= 1:
        return tuple(range(simulations))
    log2 = math.ceil(math.log2(considered))
    sequence: list[int] = []
    visits = [0] * considered
    survivors = considered
    while len(sequence) < simulations:
        extra = max(1, simulations // (log2 * survivors))
        for _ in range(extra):
            sequence.extend(visits[:survivors])
            for i in range(survivors):
                visits[i] += 1
        survivors = max(2, survivors // 2)
    return tuple(sequence[:simulations])


def _table(considered: int, simulations: int) -> np.ndarray:
    """``table[k, i]``: :func:`considered_visits` ``(k, simulations)[i]`` for k = 0..considered."""
    return np.array([considered_visits(k, simulations) for k in range(considered + 1)],
                    dtype=np.int32).reshape(considered + 1, simulations)


def _runs(table: np.ndarray) -> np.ndarray:
    """``runs[k, i]``: how many entries from ``i`` on equal ``table[k, i]`` in a row."""
    runs = np.ones_like(table)
    for i in range(table.shape[1] - 2, -1, -1):
        same = table[:, i] == table[:, i + 1]
        runs[:, i] = np.where(same, runs[:, i + 1] + 1, 1)
    return runs


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


@dataclass(frozen=True)
class GumbelConfig:
    """The search's settings. ``simulations`` network calls per move; ``considered`` actions
    sampled at the root (the paper's m); ``gumbel_scale`` 1 samples them (self-play), 0 takes
    the prior's best (strongest play); ``value_scale`` and ``maxvisit_init`` are sigma's (the
    paper's c_scale = 0.1 and c_visit = 50)."""

    simulations: int = 32
    considered: int = 16
    gumbel_scale: float = 1.0
    value_scale: float = 0.1
    maxvisit_init: float = 50.0
    rounds: bool = False
    """Simulate a phase's visits to its surviving actions side by side (one network call
    for all of them) instead of one after another: the paper's phases as written (each
    survivor visited equally, then the worse half dropped), where one at a time (mctx's
    anytime schedule) re-ranks the survivors after every visit. The subtrees below the root
    are disjoint, so only that ranking can differ; it is several times faster for one root."""

    def __post_init__(self) -> None:
        if not 1 <= self.simulations <= 100_000:
            raise ValueError("simulations must be from 1 to 100000")
        if not 1 <= self.considered <= 4096:
            raise ValueError("considered must be from 1 to 4096")
        if self.gumbel_scale < 0 or self.value_scale <= 0 or self.maxvisit_init < 0:
            raise ValueError("gumbel_scale and maxvisit_init must be >= 0, value_scale > 0")


@dataclass(frozen=True)
class SearchResult:
    """One search per root: ``action`` chosen, ``policy`` (the improved policy, the training
    target), ``value`` (the root's search value for its player), ``raw_value`` (the network's),
    ``visits`` and ``q`` (completed Q-values, unscaled) per action, the root ``observation``
    (as the network saw it), ``legal`` and ``player``."""

    action: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    raw_value: np.ndarray
    visits: np.ndarray
    q: np.ndarray
    observation: np.ndarray
    legal: np.ndarray
    player: np.ndarray


@dataclass
class SearchTimes:
    """Seconds spent in each part of the searches run so far (what the time goes to)."""

    network: float = 0.0
    engine: float = 0.0
    tree: float = 0.0
    simulations: int = 0
    evaluations: int = 0

    def total(self) -> float:
        return self.network + self.engine + self.tree


class GumbelSearch:
    """Gumbel MCTS for a batch of root positions of one game (see the module's text)."""

    def __init__(self, game: SearchGame, evaluate: Evaluate, config: GumbelConfig) -> None:
        self.game = game
        self.evaluate = evaluate
        self.config = config
        self.times = SearchTimes()

    # -- the pieces -------------------------------------------------------------------------
    # A node's actions are kept in *slots*: its legal actions in increasing order, padded to
    # the game's most legal actions a position can have (``max_legal``), so the arithmetic of
    # every simulation runs over the moves that exist rather than over every action id.
    def _sigma(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(sigma(completed_q), completed_q, visits)`` of nodes ``rows``, ``(k, slots)``.

        As in DeepMind's mctx, the min-max rescaling of Q runs over every slot, the empty ones
        holding the mixed value like the unvisited actions (which changes nothing unless every
        legal action has been visited and the mixed value lies outside their Q-values)."""
        n = self.edge_n[rows]
        q = self.edge_q[rows]
        visited = n > 0
        total = n.sum(axis=1, dtype=np.int64).astype(np.float32)
        seen = self.prior[rows] * visited  # the prior of the visited actions
        weighted = (seen * q).sum(axis=1) / np.maximum(seen.sum(axis=1), TINY)
        mixed = (self.raw[rows] + total * weighted) / (total + ONE)
        completed = np.where(visited, q, mixed[:, None])
        low = completed.min(axis=1, keepdims=True)
        scaled = (completed - low) / np.maximum(completed.max(axis=1, keepdims=True) - low,
                                                EPSILON)
        scale = (np.float32(self.config.maxvisit_init) + n.max(axis=1).astype(np.float32)) * (
            np.float32(self.config.value_scale))
        return scale[:, None] * scaled, completed, n

    def _interior(self, rows: np.ndarray) -> np.ndarray:
        sigma, _completed, n = self._sigma(rows)
        improved = softmax(self.logits[rows] + sigma)  # empty slots: logit NEG, probability 0
        score = improved - n / (ONE + n.sum(axis=1, keepdims=True, dtype=np.int64)).astype(
            np.float32)
        return np.argmax(np.where(self.legal[rows], score, -BIG), axis=1)

    def _root_paths(self, done: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The simulations of the next round: ``(root of each, its first slot)``.

        Each root takes the next ``count`` choices of its schedule, the actions with exactly
        the visit count the schedule asks for, best ``g + logits + sigma(q)`` first: one
        choice (one at a time) or the whole run of equal entries (``rounds``)."""
        roots = self.roots
        sigma, _completed, n = self._sigma(roots)
        legal = self.legal[roots]
        index = np.minimum(done, self.config.simulations - 1)
        wanted = self.table[self.num_considered, index]
        count = self.runs[self.num_considered, index] if self.config.rounds else np.ones_like(
            done)
        count = np.where(done < self.config.simulations, count, 0)
        base = np.where(legal, self.gumbel + self.logits[roots] + sigma, -np.inf)
        score = np.where(n == wanted[:, None], base, -np.inf)
        short = np.isfinite(score).sum(axis=1) < count
        if short.any():  # cannot happen with the schedule; a safe fallback all the same
            score[short] = base[short]
            count = np.where(short, np.minimum(count, legal.sum(axis=1)), count)
        if not self.config.rounds:
            owner = np.flatnonzero(count)
            return owner, np.argmax(score[owner], axis=1)
        order = np.argsort(-score, axis=1, kind="stable")
        owner, rank = np.nonzero(np.arange(order.shape[1])[None, :] < count[:, None])
        return owner, order[owner, rank]

    def _expand(self, parents: np.ndarray, slots: np.ndarray, ids: np.ndarray,
                rng: np.random.Generator) -> None:
        """Make the children ``parents --slots-->`` as nodes ``ids`` and evaluate them."""
        start = time.perf_counter()
        actions = self.slot_action[parents, slots]
        kids, described, obs = self.game.expand(take(self.pool, parents), actions, rng)
        middle = time.perf_counter()
        put(self.pool, ids, kids)
        self._store(ids, described, obs)
        self.child[parents, slots] = ids
        self.times.engine += middle - start

    def _store(self, ids: np.ndarray, described: Described, obs: np.ndarray) -> None:
        live = ~described.terminal
        width = self.legal.shape[1]
        if described.legal.sum(axis=1).max(initial=0) > width:
            raise ValueError(f"a position with more than {width} legal actions (max_legal)")
        # each node's legal actions in increasing order: its slots
        rows, actions = np.nonzero(described.legal)
        slots = (np.cumsum(described.legal, axis=1) - 1)[rows, actions]
        slot_action = np.full((ids.size, width), -1, dtype=np.int32)
        slot_action[rows, slots] = actions
        legal = slot_action >= 0
        self.slot_action[ids] = slot_action
        self.legal[ids] = legal
        self.terminal[ids] = described.terminal
        self.player[ids] = described.player
        raw = described.value.astype(np.float32)
        logits = np.full((ids.size, width), NEG, dtype=np.float32)
        if live.any():
            start = time.perf_counter()
            net_logits, net_value = self.evaluate(obs)
            self.times.network += time.perf_counter() - start
            self.times.evaluations += int(live.sum())
            full = np.zeros((ids.size, net_logits.shape[1]), dtype=np.float32)
            full[live] = net_logits
            logits[rows, slots] = full[rows, actions]
            raw[live] = net_value
        self.logits[ids] = logits
        self.prior[ids] = np.where(legal, softmax(logits), 0)
        self.raw[ids] = raw

    # -- the search -------------------------------------------------------------------------
    def run(self, roots: Positions, rng: np.random.Generator,
            noise: np.ndarray | None = None) -> SearchResult:
        """Search every position of ``roots`` (none may be over) and return the results.
        ``noise`` scales the Gumbel noise root by root (default: ``gumbel_scale`` for all)."""
        config = self.config
        start = time.perf_counter()
        engine_before, network_before = self.times.engine, self.times.network
        described = self.game.describe(roots)
        if described.terminal.any():
            raise ValueError("a search root is a finished game")
        obs = self.game.observe(roots)
        self.times.engine += time.perf_counter() - start
        b, a = described.legal.shape
        width = min(a, int(getattr(self.game, "max_legal", None) or a))
        nodes = config.simulations + 1
        total = b * nodes
        self.pool = allocate(roots, total)
        self.slot_action = np.full((total, width), -1, dtype=np.int32)
        self.legal = np.zeros((total, width), dtype=bool)
        self.terminal = np.zeros(total, dtype=bool)
        self.player = np.zeros(total, dtype=np.int64)
        self.logits = np.zeros((total, width), dtype=np.float32)
        self.prior = np.zeros((total, width), dtype=np.float32)
        self.raw = np.zeros(total, dtype=np.float32)
        self.node_n = np.zeros(total, dtype=np.int32)
        self.node_w = np.zeros(total, dtype=np.float64)
        self.child = np.full((total, width), -1, dtype=np.int32)
        self.edge_n = np.zeros((total, width), dtype=np.int32)
        self.edge_q = np.zeros((total, width), dtype=np.float32)
        self.roots = np.arange(b, dtype=np.int64) * nodes
        put(self.pool, self.roots, roots)
        self._store(self.roots, described, obs)
        self.node_n[self.roots] = 1
        self.node_w[self.roots] = self.raw[self.roots]
        self.num_considered = np.minimum(config.considered, described.legal.sum(axis=1))
        self.table = _table(config.considered, config.simulations)
        scale = np.full(b, config.gumbel_scale, dtype=np.float32) if noise is None else (
            np.asarray(noise, dtype=np.float32))
        noise = rng.gumbel(size=(b, a)).astype(np.float32) * scale[:, None]
        # the noise of each root action, in its slot
        slots = self.slot_action[self.roots]
        self.gumbel = np.where(slots >= 0, np.take_along_axis(noise, np.maximum(slots, 0), 1),
                               0).astype(np.float32)
        self.runs = _runs(self.table)
        free = np.ones(b, dtype=np.int64)
        done = np.zeros(b, dtype=np.int64)
        while (done < config.simulations).any():
            owner, first = self._root_paths(done)
            done += np.bincount(owner, minlength=b)
            paths = np.arange(owner.size)
            path_nodes = [self.roots[owner]]
            path_actions = [first]
            path_games = [paths]
            leaves = np.empty(owner.size, dtype=np.int64)
            new_parents, new_actions, new_games = [], [], []
            games, node, action = paths, path_nodes[0], first
            while games.size:
                nxt = self.child[node, action]
                fresh = nxt < 0
                if fresh.any():
                    new_parents.append(node[fresh])
                    new_actions.append(action[fresh])
                    new_games.append(games[fresh])
                known = ~fresh
                ended = known & self.terminal[np.maximum(nxt, 0)]
                leaves[games[ended]] = nxt[ended]
                going = known & ~ended
                games, node = games[going], nxt[going]
                if not games.size:
                    break
                action = self._interior(node)
                path_nodes.append(node)
                path_actions.append(action)
                path_games.append(games)
            if new_parents:
                parents = np.concatenate(new_parents)
                actions = np.concatenate(new_actions)
                which = np.concatenate(new_games)
                mine = owner[which]
                # new node numbers: each root's next free ones, in path order
                order = np.argsort(mine, kind="stable")
                ranked = np.empty_like(order)
                ranked[order] = np.arange(order.size)
                starts = np.searchsorted(mine[order], mine)
                ids = self.roots[mine] + free[mine] + (ranked - starts)
                free += np.bincount(mine, minlength=b)
                self._expand(parents, actions, ids, rng)
                leaves[which] = ids
            self._backup(leaves, path_nodes, path_actions, path_games)
            self.times.simulations += owner.size
        result = self._result(obs, described)
        self.times.tree += (time.perf_counter() - start) - (self.times.engine - engine_before) - (
            self.times.network - network_before)
        return result

    def _backup(self, leaves: np.ndarray, path_nodes: list[np.ndarray],
                path_actions: list[np.ndarray], path_games: list[np.ndarray]) -> None:
        value = self.raw[leaves].astype(np.float64)  # for each leaf's player to move
        self.node_n[leaves] += 1
        self.node_w[leaves] += value
        below = leaves.copy()  # per game: the node under the level being updated
        for nodes, actions, games in zip(reversed(path_nodes), reversed(path_actions),
                                         reversed(path_games), strict=True):
            kids = below[games]
            flip = np.where(self.player[nodes] == self.player[kids], 1.0, -1.0)
            up = value[games] * flip
            value[games] = up
            np.add.at(self.node_n, nodes, 1)  # a root is on several paths of a round
            np.add.at(self.node_w, nodes, up)
            self.edge_n[nodes, actions] = self.node_n[kids]
            self.edge_q[nodes, actions] = flip * self.node_w[kids] / self.node_n[kids]
            below[games] = nodes

    def _result(self, obs: np.ndarray, described: Described) -> SearchResult:
        roots = self.roots
        sigma, completed, n = self._sigma(roots)
        legal = self.legal[roots]
        policy = softmax(self.logits[roots] + sigma)
        most = n.max(axis=1, keepdims=True)
        score = np.where(legal & (n == most), self.gumbel + self.logits[roots] + sigma, -np.inf)
        best = np.argmax(score, axis=1)
        b, a = described.legal.shape
        rows, cols = np.nonzero(legal)
        actions = self.slot_action[roots][rows, cols]

        def spread(values: np.ndarray, dtype: Any) -> np.ndarray:
            out = np.zeros((b, a), dtype=dtype)
            out[rows, actions] = values[rows, cols]
            return out

        return SearchResult(
            action=self.slot_action[roots, best].astype(np.int64),
            policy=spread(policy, np.float32),
            value=(self.node_w[roots] / self.node_n[roots]).astype(np.float32),
            raw_value=self.raw[roots].copy(),
            visits=spread(n, np.int64),
            q=spread(completed, np.float32),
            observation=obs,
            legal=described.legal,
            player=described.player,
        )
