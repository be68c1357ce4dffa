"""GobbleStones under the Gumbel search: the batched engine inside the tree, worlds at the root.

A GobbleStones player cannot see the other rack or the bag, so every search starts from a
*determinized world*: a whole game drawn from the mover's view and memory (``sample_world``,
the draw the searching bots use, consistent with everything the mover has seen). The world is
a reference state (it carries its history, which the next draw needs); inside the tree the
positions are the arrays of :class:`parlour.batch.GobbleStonesBatch`, so the children of
hundreds of nodes are made in one call of the batched engine, and the tile draws after a play
(B2, B6) are chance events sampled by their law as each child is made.

Two kinds of :data:`~parlour.agents.learned.search.Positions` therefore pass through the
adapter: the games being played (``{"state": reference states}``: self-play's real games,
whose history the worlds are drawn from) and search positions (the batch's arrays, batch
first). The search only ever holds the second kind.

**What the network sees** (:func:`view_planes`, and :meth:`GobbleStonesBatchAdapter.observe`,
the same numbers computed on the arrays): the game's observation tensor (G-3: 53 planes built
from the player's view only: the board, the tiles whose colours the player knows, its own
rack, rack sizes, scores, the bag's size, the phase), and five more constant planes, the tiles
of each colour the player has *not* seen (in other racks, the bag, or face down and not its
own) over 20. Those follow from the view alone (20 tiles a colour minus those it can see) but
are what a player counts to guess the other rack, and a small network would have to learn to
add 225 squares up to get them. Nothing the view does not hold enters: a test builds the
observation of worlds that differ only in what the mover cannot see and finds them equal.
"""

from __future__ import annotations

import numpy as np

from parlour.agents.learned.search import Described, Positions
from parlour.batch.gobblestones import (
    CHALLENGE,
    DEAL,
    DRAW,
    END,
    PLAY,
    GobbleStonesBatch,
)
from parlour.core import State, View
from parlour.games.gobblestones import GobbleStonesGame, GobbleStonesState
from parlour.games.gobblestones.board import (
    CENTRES,
    COLOURS,
    NUM_COLOURS,
    SIZE,
    SQUARES,
    TILES_PER_COLOUR,
)
from parlour.games.gobblestones.views import NUM_PLANES, tensor

UNSEEN_PLANES = NUM_PLANES
"""The first of the five planes of unseen tiles by colour."""
PLANES = NUM_PLANES + NUM_COLOURS


def view_planes(view: View) -> np.ndarray:
    """The network's input from ``view`` alone (see the module): the game's tensor and the
    unseen tiles of each colour. The reference the batched :meth:`observe` is tested against."""
    base = tensor(view)
    out = np.zeros((PLANES, SIZE, SIZE), dtype=np.float32)
    out[:NUM_PLANES] = base
    seen = np.zeros(NUM_COLOURS)
    for row in view["tiles"]:
        for mark in row:
            if mark not in (".", "?"):
                seen[COLOURS.index(mark.upper())] += 1
    for _square, colour in view["play"]:
        if colour != "?":
            seen[COLOURS.index(colour)] += 1
    rack = view["rack"] or ""
    for c in range(NUM_COLOURS):
        seen[c] += rack.count(COLOURS[c])
        out[UNSEEN_PLANES + c] = (TILES_PER_COLOUR - seen[c]) / 20.0
    return out


_CENTRE = np.zeros(SQUARES, dtype=np.float32)
_CENTRE[list(CENTRES)] = 1.0


def batch_planes(batch: GobbleStonesBatch, rows: np.ndarray) -> np.ndarray:
    """:func:`view_planes` of the player to act in games ``rows`` of ``batch`` (unfinished
    games at a decision), computed on the arrays: only what that player's view holds is read
    (the public board, owners of face-down tiles, the player's own rack, counts, scores)."""
    n, players = rows.size, batch.players
    out = np.zeros((n, PLANES, SQUARES), dtype=np.float32)
    phase = batch.phase[rows]
    turn = batch.turn[rows]
    viewer = np.where(phase == CHALLENGE, batch.decider[rows], turn)
    colour = batch.colour[rows].astype(np.int64)
    value = batch.value[rows].astype(np.float32)
    i = np.arange(n)[:, None]
    sq = np.arange(SQUARES)[None, :]
    drawn = colour >= 0
    out[np.broadcast_to(i, colour.shape)[drawn], np.maximum(colour, 0)[drawn],
        np.broadcast_to(sq, colour.shape)[drawn]] = 1.0
    out[:, 5] = value / 6.0
    out[:, 6] = _CENTRE
    tile = batch.tile[rows].astype(np.int64)
    owner = batch.owner[rows].astype(np.int64)
    placed = tile >= 0
    down = placed & (owner >= 0)
    known = placed & ((owner < 0) | (owner == viewer[:, None]))  # not at the end: no G-5
    ii, ss = np.nonzero(known)
    out[ii, 7 + tile[ii, ss], ss] = 1.0
    out[:, 12] = placed
    out[:, 13] = down
    out[:, 14] = placed & ~known
    out[:, 15] = down & (owner == viewer[:, None])
    seen = np.zeros((n, NUM_COLOURS), dtype=np.float32)
    np.add.at(seen, (ii, tile[ii, ss]), 1.0)
    npend = batch.npend[rows]
    pend_sq = batch.pending[rows]
    pend_col = batch.pending_colour[rows]
    shown = np.full(n, True) if not batch.bluff else (viewer == turn)
    for j in range(pend_sq.shape[1]):
        on = np.flatnonzero(npend > j)
        s = pend_sq[on, j]
        out[on, 12, s] = 1.0
        out[on, 16, s] = 1.0
        vis = on[shown[on]]
        hid = on[~shown[on]]
        out[vis, 7 + pend_col[vis, j], pend_sq[vis, j]] = 1.0
        out[hid, 14, pend_sq[hid, j]] = 1.0
        np.add.at(seen, (vis, pend_col[vis, j]), 1.0)
    racks = batch.racks[rows]  # (n, players, 5)
    own = racks[np.arange(n), viewer]
    out[:, 17:22] = (own / 10.0)[:, :, None]
    seen += own
    sizes = racks.sum(axis=2)
    points = batch.points[rows]
    for j in range(players):
        seat = (viewer + j) % players
        out[:, 22 + j] = (sizes[np.arange(n), seat] / 20.0)[:, None]
        out[:, 26 + j] = (points[np.arange(n), seat] / 100.0)[:, None]
    out[:, 30] = (batch.bag[rows].sum(axis=1) / 100.0)[:, None]
    out[:, 31] = (phase == PLAY)[:, None]
    out[:, 32] = (phase == CHALLENGE)[:, None]
    out[:, 33] = 1.0  # the viewer is the player to act
    out[np.arange(n), 34 + (turn - viewer) % players] = 1.0
    out[:, UNSEEN_PLANES:] = ((TILES_PER_COLOUR - seen) / 20.0)[:, :, None]
    return out.reshape(n, PLANES, SIZE, SIZE)


class GobbleStonesBatchAdapter:
    """The search-position half of the GobbleStones adapter: positions as the batch's arrays
    (batch first), children through :class:`~parlour.batch.GobbleStonesBatch` (mixed into
    :class:`parlour.agents.learned.games.GobbleStonesAdapter`)."""

    game: GobbleStonesGame
    _batches: dict[int, GobbleStonesBatch]

    def _engine(self, n: int) -> GobbleStonesBatch:
        """A batch engine of ``n`` games (one kept per size: making one costs a reset)."""
        batch = self._batches.get(n)
        if batch is None:
            batch = self._batches[n] = GobbleStonesBatch(self.game, n, seed=0)
        return batch

    def _load_arrays(self, positions: Positions) -> GobbleStonesBatch:
        n = positions["phase"].shape[0]
        batch = self._engine(n)
        for name in GobbleStonesBatch._FIELDS:
            setattr(batch, name, positions[name].copy())
        for name in GobbleStonesBatch._LAST_AXIS:
            setattr(batch, name, np.ascontiguousarray(np.moveaxis(positions[name], 0, -1)))
        return batch

    @staticmethod
    def _arrays(batch: GobbleStonesBatch) -> Positions:
        out = {name: getattr(batch, name).copy() for name in GobbleStonesBatch._FIELDS}
        for name in GobbleStonesBatch._LAST_AXIS:
            out[name] = np.ascontiguousarray(np.moveaxis(getattr(batch, name), -1, 0))
        return out

    def arrays_from_states(self, states: list[State]) -> Positions:
        """Reference states (worlds) as search positions."""
        batch = GobbleStonesBatch(self.game, len(states), seed=0)
        for k, state in enumerate(states):
            if not isinstance(state, GobbleStonesState):
                raise TypeError(f"expected a GobbleStones state, got {type(state).__name__}")
            batch.set_state(k, state)
        return self._arrays(batch)

    @staticmethod
    def _settle_batch(batch: GobbleStonesBatch, rng: np.random.Generator) -> None:
        """Draw tiles (B2, B6) by the chance law until every game is at a decision or over."""
        while True:
            chance = np.flatnonzero((batch.phase == DEAL) | (batch.phase == DRAW))
            if not chance.size:
                return
            probs = batch.chance_probabilities()[chance]
            u = rng.random(chance.size)[:, None] * probs.sum(axis=1, keepdims=True)
            pick = np.minimum((np.cumsum(probs, axis=1) < u).sum(axis=1), probs.shape[1] - 1)
            actions = np.zeros(batch.batch_size, dtype=np.int64)
            actions[chance] = pick
            where = np.zeros(batch.batch_size, dtype=bool)
            where[chance] = True
            batch.step(actions, where)

    def describe_arrays(self, positions: Positions) -> Described:
        return self._describe_batch(self._load_arrays(positions))

    @staticmethod
    def _describe_batch(batch: GobbleStonesBatch) -> Described:
        legal = batch.legal_actions_mask()
        terminal = batch.phase == END
        returns = batch.returns()
        value = ((returns[:, 0] - returns[:, 1]) / 2).astype(np.float32)  # player 0's node
        player = np.where(terminal, 0, batch.current_player()).astype(np.int64)
        return Described(legal, terminal, value, player)

    def observe_arrays(self, positions: Positions) -> np.ndarray:
        batch = self._load_arrays(positions)
        return batch_planes(batch, np.arange(batch.batch_size))

    def children_arrays(self, positions: Positions, actions: np.ndarray,
                        rng: np.random.Generator) -> Positions:
        batch = self._load_arrays(positions)
        batch.step(np.asarray(actions, dtype=np.int64))  # refuses an illegal action
        self._settle_batch(batch, rng)
        return self._arrays(batch)

    def returns_arrays(self, positions: Positions) -> np.ndarray:
        return self._load_arrays(positions).returns()

    def expand_arrays(self, positions: Positions, actions: np.ndarray, rng: np.random.Generator
                      ) -> tuple[Positions, Described, np.ndarray]:
        """The children, described, and the observations of the unfinished ones, in one pass
        through the engine (the plays of each child's turn, worked out to describe it, are kept
        in the child, so its own children do not work them out again)."""
        batch = self._load_arrays(positions)
        batch.step(np.asarray(actions, dtype=np.int64))
        self._settle_batch(batch, rng)
        described = self._describe_batch(batch)
        obs = batch_planes(batch, np.flatnonzero(~described.terminal))
        return self._arrays(batch), described, obs
