"""What the Gumbel search and self-play need of each game, on the batched engines.

An adapter holds positions as arrays (:data:`~parlour.agents.learned.search.Positions`, first
axis the position) so the search can keep thousands of tree nodes and make the children of
hundreds of them in one call of the batched engine. It also says what a network depends on
(:attr:`SearchAdapter.config`: Clobber's board, not its start position) and gives the board's
symmetries for training.

Clobber (:class:`ClobberAdapter`) runs on :class:`parlour.batch.ClobberBatch`: a position is its
two bitboards and the colour to move; the network sees the batch's observation tensor (the
mover's stones, the other's, the empty squares), so one network plays both colours.

GobbleStones (:class:`GobbleStonesAdapter`), a game of hidden information (the other rack, the
bag), is searched on *determinized worlds*: the root of each search is a whole game drawn from
the mover's view (``State.sample_world``, consistent with everything the mover has seen), and
the network only ever sees planes built from a player's view (G-3). Inside the tree its
positions are the batched engine's arrays (:mod:`parlour.agents.learned.gobblestones`; the tile
draws are chance events sampled by their probabilities as each child is made).

Values are for the player to move and zero-sum: with two players, ``(own return - other's) /
2`` (a shared win, G-4, counts as a draw, 0).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from parlour.agents.learned.gobblestones import PLANES, GobbleStonesBatchAdapter
from parlour.agents.learned.search import Described, Positions, take
from parlour.batch import ClobberBatch
from parlour.core import Game, Information, State
from parlour.games.clobber import ClobberGame, ClobberState
from parlour.games.gobblestones import GobbleStonesGame

NORTH, EAST, SOUTH, WEST = range(4)


@dataclass(frozen=True)
class Symmetry:
    """A map of the board onto itself under which the rules are the same: ``observation``
    transforms an observation batch, and action ``a`` becomes ``actions[a]``."""

    name: str
    flip_rows: bool
    flip_columns: bool
    actions: np.ndarray
    transpose: bool = False

    def observation(self, obs: np.ndarray) -> np.ndarray:
        """Transposed first (square boards), then flipped."""
        if self.transpose:
            obs = np.swapaxes(obs, -1, -2)
        if self.flip_rows:
            obs = obs[..., ::-1, :]
        if self.flip_columns:
            obs = obs[..., ::-1]
        return np.ascontiguousarray(obs)

    def policy(self, policy: np.ndarray) -> np.ndarray:
        """Per-action values (a policy, a legal mask) carried over: ``out[actions[a]] = p[a]``."""
        out = np.empty_like(policy)
        out[..., self.actions] = policy
        return out


class SearchAdapter:
    """The interface the search, the ``net`` agent and the trainer use (see the module)."""

    game: Game
    name: str
    num_actions: int
    num_players: int = 2
    observation_shape: tuple[int, ...]
    config: dict[str, Any]
    """What a network depends on; a network file records it and refuses another."""
    stem: str
    """The shipped network's file name (without ``.npz``) for this configuration."""
    any_board_stem: str | None = None
    """The file name of a shipped network for every board of the game (``None``: the game
    has no such network), played where no network made for the configuration ships."""
    max_legal: int
    """The most legal actions a position can have (sizes the search's arrays)."""
    square_policy: tuple[int, int] | None = None
    """``(per square, extra)`` when action ``square * per_square + k`` is the k-th action on
    a square and ``extra`` more follow (what a convolutional policy head produces)."""

    def initial(self, n: int, rng: np.random.Generator) -> Positions:
        raise NotImplementedError

    def from_state(self, state: State) -> Positions:
        raise NotImplementedError

    def describe(self, positions: Positions) -> Described:
        raise NotImplementedError

    def observe(self, positions: Positions) -> np.ndarray:
        raise NotImplementedError

    def children(self, positions: Positions, actions: np.ndarray,
                 rng: np.random.Generator) -> Positions:
        raise NotImplementedError

    def returns(self, positions: Positions) -> np.ndarray:
        """``(n, players)`` returns of finished positions."""
        raise NotImplementedError

    def expand(self, positions: Positions, actions: np.ndarray, rng: np.random.Generator
               ) -> tuple[Positions, Described, np.ndarray]:
        """The children, described, and the observations of those not finished."""
        kids = self.children(positions, actions, rng)
        described = self.describe(kids)
        live = np.flatnonzero(~described.terminal)
        obs = self.observe(take(kids, live)) if live.size else np.zeros(
            (0, *self.observation_shape), dtype=np.float32)
        return kids, described, obs

    def symmetries(self, transposes: bool = False) -> list[Symmetry]:
        """Maps of the board onto itself (``transposes``: and onto its transpose, for a
        network that plays every board)."""
        return []

    def search_roots(self, positions: Positions, rng: np.random.Generator) -> Positions:
        """What a search of each position starts from: the position itself when information is
        perfect; a world drawn from the mover's view otherwise (:class:`GobbleStonesAdapter`)."""
        return positions

    def outcomes(self, positions: Positions) -> np.ndarray:
        """``(n, players)`` zero-sum values of finished positions (see the module)."""
        returns = self.returns(positions)
        if returns.shape[1] != 2:
            return returns
        return (returns - returns[:, ::-1]) / 2


class ClobberAdapter(SearchAdapter):
    """Clobber on a grid, through :class:`~parlour.batch.ClobberBatch` (see the module)."""

    name = "clobber"

    def __init__(self, game: ClobberGame) -> None:
        if game.grid is None:
            raise ValueError("the learned player plays Clobber on a grid, not on a graph (C7)")
        self.game = game
        self.rows, self.columns = game.grid.rows, game.grid.columns
        self.num_actions = game.num_distinct_actions()
        self.observation_shape = tuple(game.observation_tensor_shape())
        self.cannibal = bool(game.params["cannibal"])
        self.config = {"rows": self.rows, "columns": self.columns, "cannibal": self.cannibal}
        variant = "-cannibal" if self.cannibal else ""
        self.stem = f"clobber-{self.rows}x{self.columns}{variant}"
        self.any_board_stem = f"clobber-all{variant}"
        self.square_policy = (4, 0)  # square * 4 + direction (C4)
        # a move takes one stone to a neighbour: at most one move per pair of neighbours
        # (the mover's stone and the other's), both ways in Cannibal Clobber (C8)
        pairs = self.rows * (self.columns - 1) + self.columns * (self.rows - 1)
        self.max_legal = min(self.num_actions, pairs * (2 if self.cannibal else 1))
        self._batches: dict[int, ClobberBatch] = {}

    def _batch(self, positions: Positions) -> ClobberBatch:
        """A batch engine holding ``positions`` (one kept per size and reset, since making
        one costs more than a search step on a small board)."""
        to_move = positions["to_move"]
        n = to_move.shape[0]
        batch = self._batches.get(n)
        if batch is None:
            batch = self._batches[n] = ClobberBatch(self.game, n, seed=0)
        batch.reset()  # forgets the move masks of the positions it held
        batch.stones[...] = np.moveaxis(positions["stones"], 0, -1)
        batch.to_move[...] = to_move
        return batch

    @staticmethod
    def _positions(batch: ClobberBatch) -> Positions:
        return {"stones": np.ascontiguousarray(np.moveaxis(batch.stones, -1, 0)),
                "to_move": batch.to_move.copy()}

    def initial(self, n: int, rng: np.random.Generator) -> Positions:
        return self._positions(ClobberBatch(self.game, n, seed=0))

    def from_state(self, state: State) -> Positions:
        if not isinstance(state, ClobberState):
            raise TypeError(f"expected a Clobber state, got {type(state).__name__}")
        batch = ClobberBatch(self.game, 1, seed=0)
        batch.set_state(0, state)
        return self._positions(batch)

    def describe(self, positions: Positions) -> Described:
        return self._describe(self._batch(positions))

    @staticmethod
    def _describe(batch: ClobberBatch) -> Described:
        legal = batch.legal_actions_mask()
        terminal = np.logical_not(legal.any(axis=1))
        # the player to move without a move has lost (C5)
        return Described(legal, terminal, np.full(terminal.shape, -1.0, dtype=np.float32),
                         batch.to_move.astype(np.int64))

    def observe(self, positions: Positions) -> np.ndarray:
        return self._batch(positions).observation_tensor()

    def children(self, positions: Positions, actions: np.ndarray,
                 rng: np.random.Generator) -> Positions:
        batch = self._batch(positions)
        batch.step(np.asarray(actions, dtype=np.int64))  # refuses an illegal action
        return self._positions(batch)

    def expand(self, positions: Positions, actions: np.ndarray, rng: np.random.Generator
               ) -> tuple[Positions, Described, np.ndarray]:
        """:meth:`children`, :meth:`describe` and :meth:`observe` of the children in one
        pass through the engine (observations of the unfinished ones only)."""
        batch = self._batch(positions)
        batch.step(np.asarray(actions, dtype=np.int64))
        described = self._describe(batch)
        obs = batch.observation_tensor()[~described.terminal]
        return self._positions(batch), described, obs

    def returns(self, positions: Positions) -> np.ndarray:
        return self._batch(positions).returns()

    def symmetries(self, transposes: bool = False) -> list[Symmetry]:
        """Mirror images of the board: up-down, left-right and both. A move north becomes a
        move south when the rows flip, east becomes west when the columns do (C4's direction
        ids).

        ``transposes`` adds the board turned about its diagonal (then mirrored): rows become
        columns, so a 5x7 board becomes a 7x5 one, which only a network for every board can
        take (:func:`~parlour.agents.learned.network.any_board`); a move north becomes one
        west, east becomes south."""
        rows, columns = self.rows, self.columns
        action = np.arange(self.num_actions)
        square, direction = action // 4, action % 4
        r, c = square // columns, square % columns
        out = []
        mirrors = (("flip rows", True, False), ("flip columns", False, True),
                   ("rotate 180", True, True))
        for name, fr, fc in mirrors:
            out.append(Symmetry(name, fr, fc, _moved(r, c, direction, rows, columns, fr, fc)))
        if transposes:
            turned = np.choose(direction, [WEST, SOUTH, EAST, NORTH])  # N, E, S, W turned
            for name, fr, fc in (("identity", False, False), *mirrors):
                out.append(Symmetry(f"transpose, {name}", fr, fc,
                                    _moved(c, r, turned, columns, rows, fr, fc), True))
        return out


def _moved(r: np.ndarray, c: np.ndarray, direction: np.ndarray, rows: int, columns: int,
           flip_rows: bool, flip_columns: bool) -> np.ndarray:
    """Clobber's action ids of the moves ``(r, c, direction)`` on a ``rows`` x ``columns``
    board after flipping its rows and/or columns."""
    rr = rows - 1 - r if flip_rows else r
    cc = columns - 1 - c if flip_columns else c
    d = direction.copy()
    if flip_rows:
        d = np.select([d == NORTH, d == SOUTH], [SOUTH, NORTH], d)
    if flip_columns:
        d = np.select([d == EAST, d == WEST], [WEST, EAST], d)
    out: np.ndarray = (rr * columns + cc) * 4 + d
    return out


class ReferenceAdapter(SearchAdapter):
    """Any two-player game through its reference states (an object array ``"state"``): the
    per-move API, not a batched engine, for games whose observation tensors come from the
    reference views anyway. Chance events after an action are sampled by their
    probabilities, so a child is one sampled outcome."""

    def __init__(self, game: Game) -> None:
        if game.num_players() != 2:
            raise ValueError(f"the learned player plays two-player {game.name} only")
        self.game = game
        self.name = game.name
        self.num_actions = game.num_distinct_actions()
        self.max_legal = self.num_actions
        self.observation_shape = tuple(game.observation_tensor_shape())

    @staticmethod
    def _settle(state: State, rng: np.random.Generator) -> State:
        while state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        return state

    def _pack(self, states: list[State]) -> Positions:
        out = np.empty(len(states), dtype=object)
        out[:] = states
        return {"state": out}

    def initial(self, n: int, rng: np.random.Generator) -> Positions:
        return self._pack([self._settle(self.game.new_initial_state(), rng) for _ in range(n)])

    def from_state(self, state: State) -> Positions:
        return self._pack([state.clone()])

    def describe(self, positions: Positions) -> Described:
        states = positions["state"]
        n = len(states)
        legal = np.zeros((n, self.num_actions), dtype=bool)
        terminal = np.zeros(n, dtype=bool)
        value = np.zeros(n, dtype=np.float32)
        player = np.zeros(n, dtype=np.int64)
        for i, state in enumerate(states):
            if state.is_terminal():
                returns = state.returns()
                terminal[i] = True
                value[i] = (returns[0] - returns[1]) / 2  # for player 0, whose node it is
            else:
                player[i] = state.current_player()
                legal[i, state.legal_actions()] = True
        return Described(legal, terminal, value, player)

    def observe(self, positions: Positions) -> np.ndarray:
        return np.stack([np.asarray(s.observation_tensor(s.current_player()), dtype=np.float32)
                         for s in positions["state"]])

    def children(self, positions: Positions, actions: np.ndarray,
                 rng: np.random.Generator) -> Positions:
        kids = []
        for state, action in zip(positions["state"], actions, strict=True):
            kid = state.clone()
            kid.apply_action(int(action))  # refuses an illegal action
            kids.append(self._settle(kid, rng))
        return self._pack(kids)

    def returns(self, positions: Positions) -> np.ndarray:
        return np.array([s.returns() for s in positions["state"]], dtype=np.float32)

    def search_roots(self, positions: Positions, rng: np.random.Generator) -> Positions:
        if self.game.get_type().information == Information.PERFECT:
            return positions
        seed = np.random.SeedSequence(int(rng.integers(2**63)))
        worlds = []
        for state, child in zip(positions["state"], seed.spawn(len(positions["state"])),
                                strict=True):
            worlds.append(state.sample_world(state.current_player(),
                                             random.Random(int(child.generate_state(1)[0]))))
        return self._pack(worlds)


class GobbleStonesAdapter(GobbleStonesBatchAdapter, ReferenceAdapter):
    """Two-player GobbleStones on determinized worlds, the batched engine inside the tree
    (see :mod:`parlour.agents.learned.gobblestones`): the games being played are reference
    states (``{"state": ...}``), search positions the batch's arrays."""

    game: GobbleStonesGame

    def __init__(self, game: GobbleStonesGame) -> None:
        super().__init__(game)
        self._batches = {}
        self.observation_shape = (PLANES, *self.observation_shape[1:])
        self.max_legal = self.num_actions
        params = game.get_parameters()
        if params.get("board"):
            raise ValueError("the learned player plays GobbleStones on boards laid out by "
                             "chance, not on a given board")
        self.config = {"players": 2, "bluff": bool(params["bluff"]),
                       "max_turns": int(params["max_turns"])}
        self.stem = "gobblestones" + ("-bluff" if params["bluff"] else "")
        self.squares = self.observation_shape[1] * self.observation_shape[2]
        if not params["bluff"]:  # a square per placement, then pass and end
            self.square_policy = (1, self.num_actions - self.squares)

    # positions of either kind: the games played ("state") or search positions (arrays)
    def from_state(self, state: State) -> Positions:
        return self.arrays_from_states([state])

    def search_roots(self, positions: Positions, rng: np.random.Generator) -> Positions:
        if "state" not in positions:
            raise ValueError("search roots are drawn from the games played, not from arrays")
        return self.arrays_from_states(list(super().search_roots(positions, rng)["state"]))

    def describe(self, positions: Positions) -> Described:
        if "state" in positions:
            return super().describe(positions)
        return self.describe_arrays(positions)

    def observe(self, positions: Positions) -> np.ndarray:
        if "state" in positions:
            return self.observe_arrays(self.arrays_from_states(list(positions["state"])))
        return self.observe_arrays(positions)

    def children(self, positions: Positions, actions: np.ndarray,
                 rng: np.random.Generator) -> Positions:
        if "state" in positions:
            return super().children(positions, actions, rng)
        return self.children_arrays(positions, actions, rng)

    def expand(self, positions: Positions, actions: np.ndarray, rng: np.random.Generator
               ) -> tuple[Positions, Described, np.ndarray]:
        if "state" in positions:
            return super().expand(positions, actions, rng)
        return self.expand_arrays(positions, actions, rng)

    def returns(self, positions: Positions) -> np.ndarray:
        if "state" in positions:
            return super().returns(positions)
        return self.returns_arrays(positions)

    def symmetries(self, transposes: bool = False) -> list[Symmetry]:
        """The board's eight symmetries but the identity: B1-B5 read the same on a board
        turned or mirrored (the centre squares map to centre squares), so a placement on
        square s becomes one on its image and passing and ending stay as they are. (Bluffing
        placements carry a colour: ``colour * squares + square``.)"""
        size = self.observation_shape[1]
        action = np.arange(self.num_actions)
        place = action < (self.num_actions // self.squares) * self.squares
        colour, square = np.divmod(action, self.squares)
        r, c = np.divmod(square, size)
        out = []
        for transpose in (False, True):
            for fr in (False, True):
                for fc in (False, True):
                    if not (transpose or fr or fc):
                        continue
                    rr, cc = (c, r) if transpose else (r, c)
                    rr = size - 1 - rr if fr else rr
                    cc = size - 1 - cc if fc else cc
                    mapped = np.where(place, colour * self.squares + rr * size + cc, action)
                    name = ("transpose " if transpose else "") + f"flip {int(fr)}{int(fc)}"
                    out.append(Symmetry(name, fr, fc, mapped, transpose))
        return out


def adapter_for(game: Game) -> SearchAdapter:
    """The search adapter of ``game``; a game without one is refused with a ValueError."""
    if isinstance(game, ClobberGame):
        return ClobberAdapter(game)
    if isinstance(game, GobbleStonesGame):
        return GobbleStonesAdapter(game)
    raise ValueError(f"the learned player does not play {game.name}")
