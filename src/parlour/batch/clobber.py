"""Clobber for a batch of games at once, on bitboards held in numpy arrays.

The rules are the reference engine's (:mod:`parlour.games.clobber`, rulings C1-C8): the start
position, the side to move and the variant (``cannibal``) are read from a configured
:class:`~parlour.games.clobber.ClobberGame`, action ids are the same (C4), and a test plays
batched games against the reference move by move. Only move generation is re-expressed, as
shifts and masks over whole arrays, because that is what makes thousands of games per numpy call
possible (the pgx idea, without an accelerator).

Boards are split into 64-bit words of whole rows (:class:`~parlour.batch.layout.Layout`), so
any grid the reference accepts (up to 99 x 26) works; a board of up to 64 squares (5x6, 6x7,
8x8) is one word per colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from parlour.batch.base import BatchEngine, whole_number
from parlour.batch.bits import U64, low_mask, popcount, select_bit
from parlour.batch.layout import EAST, NORTH, SOUTH, WEST, Layout
from parlour.batch.playout import configured_game
from parlour.core import TERMINAL_PLAYER, Game
from parlour.games.clobber import ClobberGame, ClobberState

PLAYOUT_CHUNK = 1 << 14
"""Games simulated together by :meth:`ClobberBatch.play_random` (fits the arrays in a core's
cache)."""


class _Mover:
    """Move generation and application for one layout: the part shared by every batch path."""

    def __init__(self, layout: Layout, cannibal: bool) -> None:
        self.layout = layout
        self.cannibal = cannibal
        self.words = layout.num_words
        self.full, self.not_first, self.not_last = layout.masks()
        c, k = layout.columns, layout.rows_per_word
        self.c = U64(c)
        self.wrap = U64((k - 1) * c)
        self.row0 = U64(low_mask(c))
        self.one = U64(1)
        self.bits = layout.bits_per_word

    def direction_masks(self, own: np.ndarray, other: np.ndarray) -> np.ndarray:
        """``(words * 4, n)`` masks: the stones of ``own`` that may move in each direction.

        Row ``w * 4 + d`` holds, for word ``w``, the sources of legal moves in direction ``d``
        (0 N, 1 E, 2 S, 3 W, as in the action ids, C4). ``own`` and ``other`` are ``(words, n)``.
        """
        targets = own | other if self.cannibal else other
        out = np.empty((self.words * 4, own.shape[1]), dtype=U64)
        for w in range(self.words):
            o, t = own[w], targets[w]
            north = t << self.c
            if w > 0:
                north |= targets[w - 1] >> self.wrap
            np.bitwise_and(o, north, out=out[4 * w + NORTH])
            np.bitwise_and(o & (t >> self.one), self.not_last[w], out=out[4 * w + EAST])
            south = t >> self.c
            if w + 1 < self.words:
                south |= (targets[w + 1] & self.row0) << self.wrap
            np.bitwise_and(o, south, out=out[4 * w + SOUTH])
            np.bitwise_and(o & (t << self.one), self.not_first[w], out=out[4 * w + WEST])
        return out

    def target(self, word: np.ndarray, bit: np.ndarray, direction: np.ndarray):
        """The word and bit a move from ``(word, bit)`` in ``direction`` lands on."""
        c, size = self.layout.columns, self.bits
        delta = np.array([-c, 1, c, -1], dtype=np.int64)[direction]
        tbit = bit + delta
        tword = word
        if self.words > 1:
            up = tbit < 0
            down = tbit >= size
            tword = word - up + down
            tbit = tbit + size * up - size * down
        return tword, tbit

    def apply(self, mover: np.ndarray, other: np.ndarray, word, bit, direction):
        """The boards after each game's mover moves: ``(new mover's, new other's)`` stones.

        Returned in the order of the *next* turn: the side that just moved becomes ``other``.
        """
        tword, tbit = self.target(word, bit, direction)
        src = self.one << bit.astype(U64)
        dst = self.one << tbit.astype(U64)
        if self.words == 1:
            moved = (mover & ~src) | dst
            return other & ~dst, moved
        moved = mover.copy()
        hit = other.copy()
        for w in range(self.words):
            s = np.where(word == w, src, U64(0))
            d = np.where(tword == w, dst, U64(0))
            moved[w] = (moved[w] & ~s) | d
            hit[w] &= ~d
        return hit, moved

    def draw(self, masks: np.ndarray, rng: np.random.Generator):
        """One uniformly random legal move per game: ``(word, bit, direction, has_move)``."""
        counts = popcount(masks)
        cum = np.cumsum(counts, axis=0)
        total = cum[-1]
        has_move = total > 0
        r = np.floor(rng.random(total.shape) * total).astype(np.int64)
        j = (cum <= r).sum(axis=0)
        j = np.minimum(j, masks.shape[0] - 1)
        cols = np.arange(masks.shape[1])
        rank = r - (cum[j, cols] - counts[j, cols])
        bit = select_bit(masks[j, cols], rank, self.bits)
        return j // 4, bit, j % 4, has_move


def _layout(game: ClobberGame) -> Layout:
    """The word layout of the game's grid; a graph board (C7) is refused."""
    if game.grid is None:
        raise ValueError("parlour.batch plays Clobber on a grid, not on a 'graph' board (C7)")
    return Layout(game.grid.rows, game.grid.columns)


def _start(game: ClobberGame, layout: Layout) -> tuple[list[int], list[int], int]:
    state = game.new_initial_state()
    return layout.split(state.stones(0)), layout.split(state.stones(1)), state.to_move


class ClobberBatch(BatchEngine[ClobberGame, ClobberState]):
    """``batch_size`` games of Clobber stepped together.

    >>> batch = ClobberBatch("clobber", 4, seed=0, rows=3, columns=4)
    >>> batch.legal_actions_mask().shape
    (4, 48)
    >>> rewards, done = batch.step(batch.random_actions())

    State lives in arrays: ``stones`` is ``(2, words, batch_size)`` (White's then Black's words,
    see :class:`~parlour.batch.layout.Layout`), ``to_move`` the colour to move per game. A game
    that has ended stays ended until :meth:`reset` restarts it; its entries in ``step`` are
    ignored.
    """

    game_class = ClobberGame
    playout_chunk = PLAYOUT_CHUNK
    _FIELDS = ("to_move",)
    _LAST_AXIS = ("stones", "_masks")

    def __init__(
        self, game: Game | str = "clobber", batch_size: int = 1024, seed: int | None = None,
        **params: Any,
    ) -> None:
        super().__init__(game, batch_size, seed, **params)
        self.layout = _layout(self.game)
        self._mover = _Mover(self.layout, bool(self.game.params["cannibal"]))
        white, black, first = _start(self.game, self.layout)
        self._start = np.array([white, black], dtype=U64)[:, :, None]
        self._first = first
        self.stones = np.empty((2, self.layout.num_words, self.batch_size), dtype=U64)
        self.to_move = np.empty(self.batch_size, dtype=np.int8)
        self._masks: np.ndarray | None = None
        self.reset()

    # -- state --------------------------------------------------------------------------
    def reset(self, where: np.ndarray | Sequence[bool] | None = None) -> None:
        """Restart every game, or those where ``where`` is true."""
        if where is None:
            self.stones[...] = self._start
            self.to_move[:] = self._first
        else:
            where = np.asarray(where, dtype=bool)
            self.stones[:, :, where] = self._start
            self.to_move[where] = self._first
        self._masks = None

    def _own_other(self) -> tuple[np.ndarray, np.ndarray]:
        black = self.to_move.astype(bool)
        white_stones, black_stones = self.stones
        own = np.where(black, black_stones, white_stones)
        other = np.where(black, white_stones, black_stones)
        return own, other

    def _direction_masks(self) -> np.ndarray:
        if self._masks is None:
            self._masks = self._mover.direction_masks(*self._own_other())
        return self._masks

    def num_legal_actions(self) -> np.ndarray:
        """How many legal moves each game's player to move has (0 once it has ended)."""
        return popcount(self._direction_masks()).sum(axis=0)

    def terminated(self) -> np.ndarray:
        """Games over: the player to move has no move and has lost (C5)."""
        return self.num_legal_actions() == 0

    def current_player(self) -> np.ndarray:
        """The player to move per game, ``TERMINAL_PLAYER`` (-4) where the game has ended."""
        return np.where(self.terminated(), TERMINAL_PLAYER, self.to_move).astype(np.int64)

    def returns(self) -> np.ndarray:
        """``(batch_size, 2)``: +1 winner, -1 loser at the end (G-4, C5); zeros before."""
        out = np.zeros((self.batch_size, 2), dtype=np.float32)
        done = self.terminated()
        rows = np.flatnonzero(done)
        loser = self.to_move[rows].astype(np.int64)
        out[rows, loser] = -1.0
        out[rows, 1 - loser] = 1.0
        return out

    # -- actions ------------------------------------------------------------------------
    def legal_actions_mask(self) -> np.ndarray:
        """``(batch_size, num_actions)`` booleans; row ``i`` is game ``i``'s legal actions."""
        masks = self._direction_masks()
        layout = self.layout
        size = layout.bits_per_word
        shifts = np.arange(size, dtype=U64)
        out = np.zeros((self.batch_size, self.num_actions), dtype=bool)
        for w in range(layout.num_words):
            squares = np.arange(layout.word_rows(w) * layout.columns)
            for d in range(4):
                bits = (masks[4 * w + d][:, None] >> shifts[: squares.size]) & U64(1)
                out[:, (layout.square(w, squares)) * 4 + d] = bits.astype(bool)
        return out

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action per game (``-1`` where the game has ended)."""
        word, bit, direction, has_move = self._mover.draw(self._direction_masks(), self.rng)
        actions = self.layout.square(word, bit) * 4 + direction
        return np.where(has_move, actions, -1)

    def _legal(self, actions: np.ndarray) -> np.ndarray:
        word, bit, direction, in_range = self._decode(actions)
        chosen = self._direction_masks()[word * 4 + direction, np.arange(self.batch_size)]
        return np.asarray(in_range & (((chosen >> bit.astype(U64)) & U64(1)) == 1), dtype=bool)

    def _decode(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                    np.ndarray]:
        """Each action's word, bit and direction (C4; 0 for an action out of range), and
        whether it is in range."""
        in_range = (actions >= 0) & (actions < self.num_actions)
        safe = np.where(in_range, actions, 0)
        square, direction = safe // 4, safe % 4
        word, bit = np.divmod(square, self.layout.bits_per_word)
        return word, bit, direction, in_range

    def _apply(self, actions: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        word, bit, direction, _in_range = self._decode(np.where(live, actions, 0))
        own, other = self._own_other()
        nxt, moved = self._mover.apply(own, other, word, bit, direction)
        black = self.to_move.astype(bool)
        new_white = np.where(black, nxt, moved)
        new_black = np.where(black, moved, nxt)
        self.stones[0] = np.where(live, new_white, self.stones[0])
        self.stones[1] = np.where(live, new_black, self.stones[1])
        self.to_move = np.where(live, 1 - self.to_move, self.to_move).astype(np.int8)
        self._masks = None
        done = self.terminated()
        rewards = np.where((done & live)[:, None], self.returns(), np.float32(0))
        return rewards.astype(np.float32), done

    # -- observations and conversions ------------------------------------------------------
    def observation_tensor(self, player: int | np.ndarray | None = None) -> np.ndarray:
        """``(batch_size, 3, rows, columns)`` float32, the reference tensor of every game.

        Planes as :meth:`ClobberState.observation_tensor`: the viewer's stones, the other
        player's, empty squares. ``player``: one seat for every game, a seat per game, or
        ``None``: each game from its player to move.
        """
        layout = self.layout
        viewer = self.to_move.astype(bool) if player is None else np.broadcast_to(
            np.asarray(player, dtype=bool), (self.batch_size,)
        )
        white, black = self.stones
        own = np.where(viewer, black, white)
        other = np.where(viewer, white, black)
        out = np.zeros((self.batch_size, 3, layout.num_squares), dtype=np.float32)
        shifts = np.arange(layout.bits_per_word, dtype=U64)
        for w in range(layout.num_words):
            n = layout.word_rows(w) * layout.columns
            start = w * layout.bits_per_word
            for plane, words in ((0, own), (1, other)):
                bits = (words[w][:, None] >> shifts[:n]) & U64(1)
                out[:, plane, start : start + n] = bits
        out[:, 2] = 1.0 - out[:, 0] - out[:, 1]
        return out.reshape(self.batch_size, 3, layout.rows, layout.columns)

    def state(self, index: int) -> ClobberState:
        """Game ``index`` as a reference :class:`ClobberState` (without its move history)."""
        white = self.layout.join(self.stones[0, :, index])
        black = self.layout.join(self.stones[1, :, index])
        return ClobberState(self.game, white, black, int(self.to_move[index]))

    def set_state(self, index: int, state: ClobberState) -> None:
        """Put a reference state of the same game into slot ``index``."""
        if state.game != self.game:
            raise ValueError(f"a state of {state.game} does not fit a batch of {self.game}")
        self.stones[0, :, index] = self.layout.split(state.stones(0))
        self.stones[1, :, index] = self.layout.split(state.stones(1))
        self.to_move[index] = state.to_move
        self._masks = None

    def snapshot(self, index: int) -> str:
        """Game ``index``'s position text (what the differential tests compare)."""
        return self.state(index).position()

    @staticmethod
    def reference_snapshot(state: ClobberState) -> str:
        return state.position()

    @classmethod
    def play_random(cls, game: ClobberGame, n_games: int, seed: int | None = None) -> np.ndarray:
        """Play ``n_games`` whole games of uniformly random moves; returns ``(n_games, 2)``
        returns.

        Row ``i`` is ``[White's return, Black's return]`` (+1/-1, G-4). Games are simulated in
        chunks of :data:`PLAYOUT_CHUNK`; every game of a chunk starts from the same position
        and moves once per step, so the side to move is the same across the chunk and
        finished games are simply dropped from the arrays (faster here than keeping the batch
        full: Clobber has no chance, and every game of a chunk moves in lockstep).
        """
        game = configured_game(game, {}, ClobberGame, cls.__name__)
        n_games = whole_number(n_games, "n_games")
        layout = _layout(game)
        mover = _Mover(layout, bool(game.params["cannibal"]))
        white, black, first = _start(game, layout)
        rng = np.random.default_rng(seed)
        losers = np.empty(n_games, dtype=np.int8)
        for begin in range(0, n_games, PLAYOUT_CHUNK):
            n = min(PLAYOUT_CHUNK, n_games - begin)
            losers[begin : begin + n] = _playout_chunk(mover, white, black, first, n, rng)
        out = np.ones((n_games, 2), dtype=np.float32)
        out[np.arange(n_games), losers] = -1.0
        return out


def _playout_chunk(
    mover: _Mover, white: list[int], black: list[int], first: int, n: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """The colour that loses each of ``n`` random games from the start position."""
    start = (white, black)
    own = np.repeat(np.array(start[first], dtype=U64)[:, None], n, axis=1)
    other = np.repeat(np.array(start[1 - first], dtype=U64)[:, None], n, axis=1)
    ids = np.arange(n)
    losers = np.empty(n, dtype=np.int8)
    colour = first
    while ids.size:
        masks = mover.direction_masks(own, other)
        word, bit, direction, has_move = mover.draw(masks, rng)
        if not has_move.all():
            losers[ids[~has_move]] = colour  # C5: no move on your turn loses
            ids = ids[has_move]
            own, other = own[:, has_move], other[:, has_move]
            word, bit, direction = word[has_move], bit[has_move], direction[has_move]
            if not ids.size:
                break
        own, other = mover.apply(own, other, word, bit, direction)
        colour = 1 - colour
    return losers
