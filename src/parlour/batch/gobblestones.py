"""GobbleStones for a batch of games at once, on 225-bit boards held as four uint64 words.

The rules are the reference engine's (:mod:`parlour.games.gobblestones`, rulings B1-B9, the
bluffing variant included): players, variant, a fixed board, the turn cap and any starting
position are read from a configured
:class:`~parlour.games.gobblestones.GobbleStonesGame`; action ids and chance outcomes are the
same, and a test plays batched games next to reference states move by move.

The expensive part of the rules, which plays are legal at the start of a turn (B3, B4, B5), is
the reference's own bitboard computation (``plays.legal_plays``) carried out for every game of
the batch at once: a board is four 64-bit words (bit ``s`` of the 225-bit number is square
``s``), shifted with carries between words. Per game and direction it yields, for each length
1-5, the squares where a legal play of that length starts; placing a play's tiles one by one is
then a lookup in those boards, exactly as the reference looks up its table of plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from parlour.batch.base import BatchEngine
from parlour.batch.bits import U64, popcount, select_bit
from parlour.core import CHANCE_PLAYER, TERMINAL_PLAYER, Game
from parlour.games.gobblestones import GobbleStonesGame, GobbleStonesState
from parlour.games.gobblestones.board import (
    BOARD_STEPS,
    CENTRE_MASK,
    MAX_PLAY,
    NUM_COLOURS,
    PANEL_CELLS,
    PANEL_STEPS,
    PERMUTATIONS,
    RACK_DRAW,
    SIZE,
    SQUARES,
    panel_permutation,
)
from parlour.games.gobblestones.plays import CORNERS, FIRST_ROW, FULL, NOT_FIRST_COL, NOT_LAST_COL
from parlour.games.gobblestones.snapshot import Phase, Snapshot

WORDS = 4
BOARD, DEAL, PLAY, CHALLENGE, DRAW, END = range(6)
PHASES = ("board", "deal", "play", "challenge", "draw", "end")
END_REASONS = (None, "bag", "no-tiles", "passes", "max-turns")
PERMS = len(PERMUTATIONS)
_PERM_VALUES = np.array(PERMUTATIONS, dtype=np.int64)  # (120, 5): value of each colour
_PANEL_CELLS = np.array(PANEL_CELLS, dtype=np.int64)  # (9, 25)
_PANEL_OF = np.zeros(SQUARES, dtype=np.int64)
for _k, _cells in enumerate(PANEL_CELLS):
    _PANEL_OF[list(_cells)] = _k
PLAYOUT_CHUNK = 2048
"""Games simulated together by :meth:`GobbleStonesBatch.play_random`."""


def _words(value: int) -> np.ndarray:
    """A 225-bit Python int as a ``(4, 1)`` column of words."""
    return np.array([(value >> (64 * w)) & ((1 << 64) - 1) for w in range(WORDS)],
                    dtype=U64)[:, None]


_FULL, _CORNERS = _words(FULL), _words(CORNERS)
_NOT_FIRST, _NOT_LAST, _FIRST_ROW = _words(NOT_FIRST_COL), _words(NOT_LAST_COL), _words(FIRST_ROW)
_CENTRES = _words(CENTRE_MASK)


def shl(x: np.ndarray, n: int) -> np.ndarray:
    """``x << n`` for ``(..., 4, B)`` word arrays (0 < n < 64), cut to 225 bits."""
    out = x << U64(n)
    out[..., 1:, :] |= x[..., :-1, :] >> U64(64 - n)
    return cast(np.ndarray, out & _FULL)


def shr(x: np.ndarray, n: int) -> np.ndarray:
    """``x >> n`` for ``(..., 4, B)`` word arrays (0 < n < 64)."""
    out = x >> U64(n)
    out[..., :-1, :] |= x[..., 1:, :] << U64(64 - n)
    return cast(np.ndarray, out)


def _bit(board: np.ndarray, square: np.ndarray) -> np.ndarray:
    """Bit ``square[j]`` of game ``j``'s board, as booleans."""
    word, bit = np.divmod(square, 64)
    cols = np.arange(board.shape[1])
    return cast(np.ndarray, ((board[word, cols] >> bit.astype(U64)) & U64(1)) == 1)


def _set_bit(board: np.ndarray, idx: np.ndarray, square: np.ndarray) -> None:
    word, bit = np.divmod(square, 64)
    board[word, idx] |= U64(1) << bit.astype(U64)


class GobbleStonesBatch(BatchEngine[GobbleStonesGame, GobbleStonesState]):
    """``batch_size`` games of GobbleStones stepped together.

    >>> batch = GobbleStonesBatch("gobblestones", 4, seed=0)
    >>> batch.current_player().tolist()  # the board is drawn by chance first (B1)
    [-1, -1, -1, -1]
    >>> rewards, done = batch.step(batch.random_actions())

    Arrays (row = game): ``colour``, ``value``, ``tile``, ``owner`` ``(B, 225)`` (tile colour
    or -1; the seat owning a face-down tile or -1); ``occ`` ``(4, B)`` the covered squares as
    words; ``racks`` ``(B, players, 5)``; ``bag`` ``(B, 5)``; ``points`` ``(B, players)``;
    ``pending``/``pending_colour`` ``(B, 5)`` with ``npend``; ``phase``, ``turn``,
    ``decider``, ``drawer``, ``to_draw``, ``passes``, ``turns``, ``end``, ``gen`` ``(B,)``.
    """

    game_class = GobbleStonesGame
    playout_chunk = PLAYOUT_CHUNK
    _FIELDS = ("colour", "value", "gen", "used", "tile", "owner", "racks", "bag", "points",
               "phase", "turn", "decider", "drawer", "to_draw", "passes", "turns", "end",
               "pending", "pending_colour", "npend", "last", "last_tiles", "fresh", "lengths")
    _LAST_AXIS = ("cmask", "occ", "singles", "starts")  # words of bitboards

    def __init__(
        self, game: Game | str = "gobblestones", batch_size: int = 256, seed: int | None = None,
        **params: Any,
    ) -> None:
        super().__init__(game, batch_size, seed, **params)
        b, n = self.batch_size, self.players
        self.bluff = bool(self.game.bluff)
        self.max_turns = int(self.game.max_turns)
        self.PASS, self.END = self.game.PASS, self.game.END
        self.CHALLENGE, self.TRUST = self.game.CHALLENGE, self.game.TRUST
        self.colour = np.full((b, SQUARES), -1, dtype=np.int8)
        self.value = np.zeros((b, SQUARES), dtype=np.int8)
        self.gen = np.zeros(b, dtype=np.int64)
        self.used = np.zeros((b, PERMS), dtype=bool)
        self.cmask = np.zeros((NUM_COLOURS, WORDS, b), dtype=U64)
        self.occ = np.zeros((WORDS, b), dtype=U64)
        self.tile = np.full((b, SQUARES), -1, dtype=np.int8)
        self.owner = np.full((b, SQUARES), -1, dtype=np.int8)
        self.racks = np.zeros((b, n, NUM_COLOURS), dtype=np.int64)
        self.bag = np.zeros((b, NUM_COLOURS), dtype=np.int64)
        self.points = np.zeros((b, n), dtype=np.int64)
        self.phase = np.zeros(b, dtype=np.int64)
        self.turn = np.zeros(b, dtype=np.int64)
        self.decider = np.full(b, -1, dtype=np.int64)
        self.drawer = np.full(b, -1, dtype=np.int64)
        self.to_draw = np.zeros(b, dtype=np.int64)
        self.passes = np.zeros(b, dtype=np.int64)
        self.turns = np.zeros(b, dtype=np.int64)
        self.end = np.zeros(b, dtype=np.int64)
        self.pending = np.full((b, MAX_PLAY), -1, dtype=np.int64)
        self.pending_colour = np.full((b, MAX_PLAY), -1, dtype=np.int64)
        self.npend = np.zeros(b, dtype=np.int64)
        self.last = np.full((b, 3), -1, dtype=np.int64)  # mover, challenger, correct (B9)
        self.last_tiles = np.full((b, MAX_PLAY, 2), -1, dtype=np.int64)
        self.fresh = np.zeros(b, dtype=bool)  # the turn's plays are computed
        self.singles = np.zeros((WORDS, b), dtype=U64)
        self.starts = np.zeros((2, MAX_PLAY + 1, WORDS, b), dtype=U64)  # [dir, length]
        self.lengths = np.zeros(b, dtype=np.int64)  # bits: legal lengths of the play begun
        self._start = self.game.new_initial_state()
        self.reset()

    # -- state ----------------------------------------------------------------------------
    def reset(self, where: np.ndarray | Sequence[bool] | None = None) -> None:
        """Restart every game, or those where ``where`` is true."""
        rows = np.arange(self.batch_size) if where is None else np.flatnonzero(
            np.asarray(where, dtype=bool)
        )
        self._load(rows, self._start)

    def _load(self, rows: np.ndarray | int, state: GobbleStonesState) -> None:
        rows = np.atleast_1d(np.asarray(rows))
        s = state.snapshot()
        self.colour[rows] = s.colour
        self.value[rows] = s.value
        self.gen[rows] = s.board_steps
        used = np.zeros(PERMS, dtype=bool)
        for k in range(9):
            index = panel_permutation(s.colour, s.value, k)
            if index is not None:
                used[index] = True
        self.used[rows] = used
        for c in range(NUM_COLOURS):
            mask = sum(1 << q for q in range(SQUARES) if s.colour[q] == c)
            self.cmask[c][:, rows] = _words(mask)
        self.occ[:, rows] = _words(_occupied(s))
        self.tile[rows] = s.tile
        owner = np.full(SQUARES, -1, dtype=np.int64)
        for q, p in s.owner.items():
            owner[q] = p
        self.owner[rows] = owner
        self.racks[rows] = s.racks
        self.bag[rows] = s.bag
        self.points[rows] = s.points
        self.phase[rows] = PHASES.index(s.phase)
        self.turn[rows] = s.turn
        self.decider[rows] = s.decider
        self.drawer[rows] = s.drawer
        self.to_draw[rows] = s.to_draw
        self.passes[rows] = s.passes
        self.turns[rows] = s.turns
        self.end[rows] = END_REASONS.index(s.end)
        pending = [q for q, _c in s.pending] + [-1] * (MAX_PLAY - len(s.pending))
        colours = [c for _q, c in s.pending] + [-1] * (MAX_PLAY - len(s.pending))
        self.pending[rows] = pending
        self.pending_colour[rows] = colours
        self.npend[rows] = len(s.pending)
        last = s.last
        self.last[rows] = [-1, -1, -1] if last is None else [last[0], last[1], int(last[2])]
        tiles = [[-1, -1]] * MAX_PLAY
        if last is not None:
            tiles = [[q, c] for q, c in last[3]] + [[-1, -1]] * (MAX_PLAY - len(last[3]))
        self.last_tiles[rows] = tiles
        self.fresh[rows] = False
        if len(s.pending):  # a play in progress: compute its plays now
            self._turn_plays(rows)
            self._begin_play(rows)

    def terminated(self) -> np.ndarray:
        return cast(np.ndarray, self.phase == END)

    def current_player(self) -> np.ndarray:
        """The seat to act (the decider in a challenge, B9), ``-1`` at chance, ``-4`` at the end."""
        out = np.full(self.batch_size, CHANCE_PLAYER, dtype=np.int64)
        out = np.where(self.phase == PLAY, self.turn, out)
        out = np.where(self.phase == CHALLENGE, self.decider, out)
        return np.where(self.phase == END, TERMINAL_PLAYER, out)

    def scores(self) -> np.ndarray:
        """Points; at the end each player also has 1 per tile left in their rack (B8)."""
        bonus = np.where((self.phase == END)[:, None], self.racks.sum(axis=2), 0)
        return cast(np.ndarray, self.points + bonus)

    def returns(self) -> np.ndarray:
        """``(batch_size, players)``: +1 for the best scores (ties share), -1 for the rest."""
        scores = self.scores()
        best = scores == scores.max(axis=1, keepdims=True)
        out = np.where(best, 1.0, -1.0).astype(np.float32)
        return np.where((self.phase == END)[:, None], out, np.float32(0))

    # -- the plays of a turn (B3, B4, B5) ----------------------------------------------------
    def _turn_plays(self, idx: np.ndarray) -> None:
        """For games ``idx``: where legal plays of each length start, from the board and the
        mover's rack at the start of the turn (``plays.legal_plays``, for the whole batch)."""
        if not idx.size:
            return
        o = self.occ[:, idx]
        rack = self.racks[idx, self.turn[idx]] + self._pending_counts(idx)
        tiles = rack.sum(axis=1)
        x0, x1 = o & _CORNERS, shr(o, 1) & _CORNERS
        x2, x3 = shr(o, SIZE) & _CORNERS, shr(o, SIZE + 1) & _CORNERS
        three = ((x1 & x2 & x3 & ~x0) | shl(x0 & x2 & x3 & ~x1, 1)
                 | shl(x0 & x1 & x3 & ~x2, SIZE) | shl(x0 & x1 & x2 & ~x3, SIZE + 1))
        ok = _FULL & ~o & ~three
        pairs_h = o & shl(o, 1) & _NOT_FIRST
        pairs_v = o & shl(o, SIZE)
        h_ok = ok & _NOT_FIRST & ~(shl(pairs_h, SIZE) | shr(pairs_h, SIZE))
        v_ok = ok & ~_FIRST_ROW & ~((shl(pairs_v, 1) & _NOT_FIRST) | (shr(pairs_v, 1) & _NOT_LAST))
        empty_board = (o == 0).all(axis=0)
        near = (shl(o, 1) & _NOT_FIRST) | (shr(o, 1) & _NOT_LAST) | shl(o, SIZE) | shr(o, SIZE)
        target = np.where(empty_board, _CENTRES, near & _FULL & ~o)
        planes = self.cmask[:, :, idx]  # (5, 4, k)
        if self.bluff:
            usable = ok
        else:
            has = (rack > 0).T[:, None, :]  # (5, 1, k)
            usable = np.bitwise_or.reduce(np.where(has, planes, U64(0)), axis=0) & ok
        zero = np.zeros_like(o)
        self.singles[:, idx] = np.where(tiles >= 1, usable & target, zero)
        k = idx.size
        games = np.arange(k)[None, :]
        colours = np.arange(NUM_COLOURS)[:, None]
        pick = np.minimum(rack.T + 1, MAX_PLAY + 1)  # (5, k): count that breaks the rack
        for d, (step, follow) in enumerate(((1, h_ok), (SIZE, v_ok))):
            run = usable.copy()
            touch = target.copy()
            # levels[m, c]: at least m of the play's squares are of colour c (m = 6: never)
            levels = np.zeros((MAX_PLAY + 2, NUM_COLOURS, WORDS, k), dtype=U64)
            levels[0] = np.iinfo(np.uint64).max
            levels[1] = planes
            for length in range(2, MAX_PLAY + 1):
                shift = (length - 1) * step
                run = run & shr(follow, shift)
                touch = touch | shr(target, shift)
                fits = np.where(tiles >= length, run & touch, zero)
                if not self.bluff:
                    new = shr(planes, shift)
                    levels[1:length + 1] = levels[1:length + 1] | (levels[0:length] & new)
                    over = levels[pick, colours, :, games]  # (5, k, 4)
                    fits = fits & ~np.bitwise_or.reduce(over, axis=0).T
                self.starts[d, length][:, idx] = fits
        self.fresh[idx] = True

    def _pending_counts(self, idx: np.ndarray) -> np.ndarray:
        """Tiles of each colour in the play being made (back in the rack at turn start)."""
        counts = np.zeros((idx.size, NUM_COLOURS), dtype=np.int64)
        colours = self.pending_colour[idx]
        for c in range(NUM_COLOURS):
            counts[:, c] = (colours == c).sum(axis=1)
        return counts

    def _begin_play(self, idx: np.ndarray) -> None:
        """After a play's first tiles (games ``idx``): its possible lengths, as bits."""
        p0 = self.pending[idx, 0]
        k = self.npend[idx]
        second = self.pending[idx, 1]
        step_down = (k >= 2) & (second - p0 == SIZE)
        out = np.zeros(idx.size, dtype=np.int64)
        single = _bit(self.singles[:, idx], p0)
        out |= np.where(single & (k == 1), 1 << 1, 0)
        for d in range(2):
            for length in range(2, MAX_PLAY + 1):
                on = _bit(self.starts[d, length][:, idx], p0)
                chosen = (k == 1) | ((d == 1) == step_down)
                # bit (8 * d + length): a play of this length runs this way
                out |= np.where(on & chosen, 1 << (8 * d + length), 0)
        self.lengths[idx] = out

    # -- legal actions --------------------------------------------------------------------------
    def _ensure_plays(self) -> None:
        need = np.flatnonzero((self.phase == PLAY) & ~self.fresh)
        self._turn_plays(need)

    def _next_squares(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Per game in a play: ``(first-tile board or 0, next square A, next square B, end)``;
        next squares are -1 where none. Only meaningful in the play phase."""
        self._ensure_plays()
        b = self.batch_size
        k = self.npend
        first = self.singles.copy()
        for d in range(2):
            for length in range(2, MAX_PLAY + 1):
                first |= self.starts[d, length]
        first = np.where(k == 0, first, U64(0))
        lengths = self.lengths
        p0 = self.pending[:, 0]
        right_more = np.zeros(b, dtype=bool)
        down_more = np.zeros(b, dtype=bool)
        for length in range(2, MAX_PLAY + 1):
            right_more |= ((lengths >> length) & 1 == 1) & (length > k)
            down_more |= ((lengths >> (8 + length)) & 1 == 1) & (length > k)
        last = self.pending[np.arange(b), np.maximum(k - 1, 0)]
        step = np.where(k >= 2, self.pending[:, 1] - p0, 0)
        a = np.where((k >= 1) & right_more & ((k == 1) | (step == 1)), last + 1, -1)
        c = np.where((k >= 1) & down_more & ((k == 1) | (step == SIZE)), last + SIZE, -1)
        kk = np.clip(k, 0, 7)
        longer = (((lengths >> kk) & 1) | ((lengths >> (8 + kk)) & 1)) == 1
        can_end = np.where(k == 1, (lengths >> 1) & 1 == 1, (k >= 2) & longer)
        return first, a, c, can_end

    def legal_actions_mask(self) -> np.ndarray:
        """``(batch_size, num_actions)`` booleans (all false at chance nodes and the end)."""
        b = self.batch_size
        mask = np.zeros((b, self.num_actions), dtype=bool)
        play = self.phase == PLAY
        first, a, c, can_end = self._next_squares()
        shifts = np.arange(64, dtype=U64)
        squares = np.zeros((b, SQUARES), dtype=bool)
        for w in range(WORDS):
            width = min(64, SQUARES - 64 * w)
            squares[:, 64 * w: 64 * w + width] = (
                (first[w][:, None] >> shifts[:width]) & U64(1)
            ).astype(bool)
        rows = np.arange(b)
        for nxt in (a, c):
            on = nxt >= 0
            squares[rows[on], nxt[on]] = True
        squares &= play[:, None]
        if self.bluff:
            rack = self.racks[rows, self.turn] > 0  # (b, 5)
            for col in range(NUM_COLOURS):
                mask[:, col * SQUARES:(col + 1) * SQUARES] = squares & rack[:, col:col + 1]
        else:
            mask[:, :SQUARES] = squares
        mask[:, self.PASS] = play & (self.npend == 0)
        mask[:, self.END] = play & can_end
        if self.bluff:
            challenge = self.phase == CHALLENGE
            mask[:, self.CHALLENGE] = challenge
            mask[:, self.TRUST] = challenge
        return mask

    def chance_probabilities(self) -> np.ndarray:
        """``(batch_size, 120)``: the chance law at chance nodes (B1 board, B2 draws), else 0."""
        b = self.batch_size
        out = np.zeros((b, PERMS), dtype=np.float64)
        drawing = (self.phase == DEAL) | (self.phase == DRAW)
        total = self.bag.sum(axis=1)
        out[:, :NUM_COLOURS] = np.where(
            drawing[:, None], self.bag / np.maximum(total, 1)[:, None], 0.0
        )
        board = self.phase == BOARD
        panel, step = np.divmod(self.gen, PANEL_STEPS)
        cell_step = board & (step < PANEL_STEPS - 1)
        if cell_step.any():
            idx = np.flatnonzero(cell_step)
            cells = _PANEL_CELLS[panel[idx]]  # (k, 25)
            drawn = np.arange(PANEL_STEPS - 1)[None, :] < step[idx][:, None]
            colours = np.where(drawn, np.take_along_axis(self.colour[idx], cells, axis=1), -1)
            for col in range(NUM_COLOURS):
                left = 5 - (colours == col).sum(axis=1)
                out[idx, col] = left / (PANEL_STEPS - 1 - step[idx])
        perm_step = board & (step == PANEL_STEPS - 1)
        if perm_step.any():
            idx = np.flatnonzero(perm_step)
            free = ~self.used[idx]
            out[idx] = free / free.sum(axis=1, keepdims=True)
        return out

    def random_actions(self) -> np.ndarray:
        """A legal action per game; -1 at the end. Chance follows its law (B1, B2); a player
        picks uniformly among the squares a tile may go on next, ``pass`` and ``end`` (then,
        bluffing, uniformly among the colours in hand); a challenge is a coin toss (B9)."""
        b = self.batch_size
        r = self.rng.random(b)
        chance = self._random_chance(r)
        first, a, c, can_end = self._next_squares()
        counts = popcount(first)  # (4, b)
        n_first = counts.sum(axis=0)
        k = self.npend
        options = np.where(k == 0, n_first + 1, (a >= 0).astype(np.int64)
                           + (c >= 0) + can_end)  # + pass, or the next squares and end
        pick = np.minimum(np.floor(r * np.maximum(options, 1)).astype(np.int64),
                          np.maximum(options - 1, 0))
        cum_w = np.cumsum(counts, axis=0)
        word = np.minimum((cum_w <= pick).sum(axis=0), WORDS - 1)
        rows = np.arange(b)
        before = cum_w[word, rows] - counts[word, rows]
        bit = select_bit(np.where(n_first > 0, first[word, rows], U64(1)),
                         np.clip(pick - before, 0, 63), 64)
        square_first = 64 * word + bit
        empty_pick = np.where(pick < n_first, square_first, self.PASS)
        choices = np.stack([a, c, np.where(can_end, self.END, -1)], axis=1)
        valid = choices >= 0
        order = np.cumsum(valid, axis=1) - 1
        later = np.full(b, -1, dtype=np.int64)
        for j in range(3):
            later = np.where(valid[:, j] & (order[:, j] == pick), choices[:, j], later)
        square = np.where(k == 0, empty_pick, later)
        if self.bluff:
            rack = self.racks[rows, self.turn]
            nonzero = rack > 0
            ncol = nonzero.sum(axis=1)
            r2 = self.rng.random(b)
            cpick = np.minimum(np.floor(r2 * np.maximum(ncol, 1)).astype(np.int64),
                               np.maximum(ncol - 1, 0))
            ccum = np.cumsum(nonzero, axis=1) - 1
            colour = np.argmax(nonzero & (ccum == cpick[:, None]), axis=1)
            square = np.where(square < SQUARES, colour * SQUARES + square, square)
            decide = np.where(r < 0.5, self.CHALLENGE, self.TRUST)
            square = np.where(self.phase == CHALLENGE, decide, square)
        out = np.where(self.phase == PLAY, square, chance)
        if self.bluff:
            out = np.where(self.phase == CHALLENGE, square, out)
        return np.where(self.phase == END, -1, out)

    def _random_chance(self, r: np.ndarray) -> np.ndarray:
        """A chance outcome per game at a chance node (by its law), from uniforms ``r``."""
        b = self.batch_size
        out = np.zeros(b, dtype=np.int64)
        weights = np.where(((self.phase == DEAL) | (self.phase == DRAW))[:, None], self.bag, 0)
        board = np.flatnonzero(self.phase == BOARD)
        if board.size:
            panel, step = np.divmod(self.gen[board], PANEL_STEPS)
            cell = step < PANEL_STEPS - 1
            i = board[cell]
            if i.size:
                cells = _PANEL_CELLS[panel[cell]]
                drawn = np.arange(PANEL_STEPS - 1)[None, :] < step[cell][:, None]
                colours = np.where(drawn, np.take_along_axis(self.colour[i], cells, axis=1), -1)
                for col in range(NUM_COLOURS):
                    weights[i, col] = 5 - (colours == col).sum(axis=1)
            j = board[~cell]
            if j.size:  # a value permutation no earlier board square has (B1)
                free = ~self.used[j]
                cum = np.cumsum(free, axis=1)
                k = np.floor(r[j] * cum[:, -1]).astype(np.int64)
                out[j] = (cum <= k[:, None]).sum(axis=1)
        cum = np.cumsum(weights, axis=1)
        pick = (cum <= (r * cum[:, -1])[:, None]).sum(axis=1)
        perm = (self.phase == BOARD) & (self.gen % PANEL_STEPS == PANEL_STEPS - 1)
        return np.where(perm, out, np.minimum(pick, NUM_COLOURS - 1))

    def build_boards(self) -> None:
        """Draw at once the whole board of every game about to draw one (the same law as one
        chance action at a time, B1: each board square's colours a uniform arrangement of five
        of each, its values a permutation no other board square has); then deal (B2)."""
        idx = np.flatnonzero((self.phase == BOARD) & (self.gen == 0))
        if not idx.size:
            return
        k = idx.size
        perms = np.argsort(self.rng.random((k, PERMS)), axis=1)[:, :9]
        base = np.repeat(np.arange(NUM_COLOURS), 5)
        for panel in range(9):
            cells = _PANEL_CELLS[panel]
            colours = self.rng.permuted(np.tile(base, (k, 1)), axis=1)
            self.colour[idx[:, None], cells[None, :]] = colours
            perm = perms[:, panel]
            self.value[idx[:, None], cells[None, :]] = _PERM_VALUES[perm[:, None], colours]
            self.used[idx, perm] = True
        for c in range(NUM_COLOURS):
            bits = self.colour[idx] == c  # (k, 225)
            for w in range(WORDS):
                chunk = bits[:, 64 * w: 64 * (w + 1)]
                weights = np.left_shift(U64(1), np.arange(chunk.shape[1], dtype=U64))
                self.cmask[c, w, idx] = np.bitwise_or.reduce(
                    np.where(chunk, weights, U64(0)), axis=1
                )
        self.gen[idx] = BOARD_STEPS
        self._start_deal(idx)

    def deal_at_once(self) -> None:
        """:meth:`build_boards`."""
        self.build_boards()

    # -- stepping ---------------------------------------------------------------------------------
    def _legal(self, actions: np.ndarray) -> np.ndarray:
        rows = np.arange(self.batch_size)
        phase = self.phase
        chance = (phase == BOARD) | (phase == DEAL) | (phase == DRAW)
        probs = self.chance_probabilities()
        safe = np.clip(actions, 0, max(PERMS, self.num_actions) - 1)
        chance_ok = (actions >= 0) & (actions < PERMS) & (probs[rows, np.minimum(safe, PERMS - 1)]
                                                          > 0)
        mask = self.legal_actions_mask()
        player_ok = (actions >= 0) & (actions < self.num_actions) & mask[
            rows, np.minimum(safe, self.num_actions - 1)
        ]
        return np.asarray(np.where(chance, chance_ok, player_ok), dtype=bool)

    def _apply(self, actions: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        phase = self.phase.copy()
        board = np.flatnonzero(live & (phase == BOARD))
        draw = np.flatnonzero(live & ((phase == DEAL) | (phase == DRAW)))
        play = np.flatnonzero(live & (phase == PLAY))
        decide = np.flatnonzero(live & (phase == CHALLENGE))
        self._board(board, actions[board])
        self._draw(draw, actions[draw])
        self._play(play, actions[play])
        self._decide(decide, actions[decide] == self.CHALLENGE)
        done = self.phase == END
        rewards = np.zeros((self.batch_size, self.players), dtype=np.float32)
        ended = np.flatnonzero(done & live)
        if ended.size:
            rewards[ended] = self.returns()[ended]
        return rewards, done.copy()

    def _board(self, idx: np.ndarray, action: np.ndarray) -> None:
        """B1: a stone square's colour, or a board square's value permutation."""
        if not idx.size:
            return
        panel, step = np.divmod(self.gen[idx], PANEL_STEPS)
        cell = step < PANEL_STEPS - 1
        i, a = idx[cell], action[cell]
        square = _PANEL_CELLS[panel[cell], step[cell]]
        self.colour[i, square] = a
        for c in range(NUM_COLOURS):
            on = a == c
            _set_bit(self.cmask[c], i[on], square[on])
        j, perm = idx[~cell], action[~cell]
        if j.size:
            cells = _PANEL_CELLS[panel[~cell]]  # (k, 25)
            colours = np.take_along_axis(self.colour[j], cells, axis=1)
            values = _PERM_VALUES[perm[:, None], colours]
            rows = np.repeat(j, cells.shape[1])
            self.value[rows, cells.ravel()] = values.ravel()
            self.used[j, perm] = True
        self.gen[idx] += 1
        done = idx[self.gen[idx] == BOARD_STEPS]
        self._start_deal(done)

    def _start_deal(self, idx: np.ndarray) -> None:
        if not idx.size:
            return
        self.phase[idx] = DEAL
        self.drawer[idx] = 0
        self.to_draw[idx] = np.minimum(RACK_DRAW, self.bag[idx].sum(axis=1))
        self._next_drawer(idx[self.to_draw[idx] == 0])

    def _next_drawer(self, idx: np.ndarray) -> None:
        """B2: the deal goes round the seats, five tiles each; then seat 0 starts."""
        while idx.size:
            last = self.drawer[idx] >= self.players - 1
            done = idx[last]
            self.drawer[done] = -1
            self.to_draw[done] = 0
            self._begin_turn(done, np.zeros(done.size, dtype=np.int64))
            idx = idx[~last]
            self.drawer[idx] += 1
            self.to_draw[idx] = np.minimum(RACK_DRAW, self.bag[idx].sum(axis=1))
            idx = idx[self.to_draw[idx] == 0]

    def _begin_turn(self, idx: np.ndarray, player: np.ndarray) -> None:
        if not idx.size:
            return
        self.turn[idx] = player
        self.fresh[idx] = False
        capped = self.turns[idx] >= self.max_turns
        empty = self.racks[idx, player].sum(axis=1) == 0
        self._finish(idx[capped], 4)
        self._finish(idx[~capped & empty], 2)  # B7: the turn of a player with no tiles
        self.phase[idx[~capped & ~empty]] = PLAY

    def _finish(self, idx: np.ndarray, reason: int) -> None:
        self.phase[idx] = END
        self.end[idx] = reason
        self.decider[idx] = -1
        self.drawer[idx] = -1
        self.to_draw[idx] = 0

    def _draw(self, idx: np.ndarray, colour: np.ndarray) -> None:
        if not idx.size:
            return
        self.bag[idx, colour] -= 1
        self.racks[idx, self.drawer[idx], colour] += 1
        self.to_draw[idx] -= 1
        finished = idx[self.to_draw[idx] == 0]
        deal = finished[self.phase[finished] == DEAL]
        self._next_drawer(deal)
        turn = finished[self.phase[finished] == DRAW]
        self.drawer[turn] = -1
        self._begin_turn(turn, (self.turn[turn] + 1) % self.players)

    def _play(self, idx: np.ndarray, action: np.ndarray) -> None:
        if not idx.size:
            return
        passing = action == self.PASS
        ending = action == self.END
        placing = ~passing & ~ending
        self._after_play(idx[passing], np.zeros(int(passing.sum()), dtype=np.int64))
        i = idx[placing]
        colour, square = np.divmod(action[placing], SQUARES)
        if not self.bluff:
            colour = self.colour[i, square]
        self.racks[i, self.turn[i], colour] -= 1
        k = self.npend[i]
        self.pending[i, k] = square
        self.pending_colour[i, k] = colour
        self.npend[i] += 1
        self._begin_play(i)
        e = idx[ending]
        if self.bluff:
            self.phase[e] = CHALLENGE
            self.decider[e] = (self.turn[e] + 1) % self.players
        else:
            self._commit(e, face_down=False)

    def _commit(self, idx: np.ndarray, face_down: bool,
                challenger: np.ndarray | None = None) -> None:
        """The pending tiles stay on the board; the mover scores them (B6, B9)."""
        if not idx.size:
            return
        earned = np.zeros(idx.size, dtype=np.int64)
        for j in range(MAX_PLAY):
            on = self.npend[idx] > j
            i = idx[on]
            square = self.pending[i, j]
            self.tile[i, square] = self.pending_colour[i, j]
            _set_bit(self.occ, i, square)
            earned[on] += self.value[i, square]
            if face_down:
                self.owner[i, square] = self.turn[i]
        self.points[idx, self.turn[idx]] += earned
        if challenger is not None:
            self.points[idx, challenger] -= earned  # B9: a wrong challenge costs the points
        self._after_play(idx, self.npend[idx].copy())

    def _after_play(self, idx: np.ndarray, placed: np.ndarray, draw: bool = True) -> None:
        """Close a turn that left ``placed`` new tiles on the board (B6, B7)."""
        if not idx.size:
            return
        bag = self.bag[idx].sum(axis=1)
        self.passes[idx] = np.where((placed == 0) & (bag == 0), self.passes[idx] + 1, 0)
        self.turns[idx] += 1
        self.pending[idx] = -1
        self.pending_colour[idx] = -1
        self.npend[idx] = 0
        self.decider[idx] = -1
        self.fresh[idx] = False
        player = self.turn[idx]
        need = RACK_DRAW - placed if draw else np.zeros(idx.size, dtype=np.int64)
        empty = self.racks[idx, player].sum(axis=1) == 0
        out_of_bag = (bag < need) & empty
        self._finish(idx[out_of_bag], 1)  # B7: must draw, cannot, and holds no tile
        passed = ~out_of_bag & (self.passes[idx] >= self.players)
        self._finish(idx[passed], 3)  # B7: every player in turn placed no tile, bag empty
        count = np.minimum(need, bag)
        drawing = ~out_of_bag & ~passed & (count > 0)
        d = idx[drawing]
        self.phase[d] = DRAW
        self.drawer[d] = self.turn[d]
        self.to_draw[d] = count[drawing]
        nxt = ~out_of_bag & ~passed & ~drawing
        self._begin_turn(idx[nxt], (player[nxt] + 1) % self.players)

    def _decide(self, idx: np.ndarray, challenge: np.ndarray) -> None:
        """B9: the others decide in turn from the mover's left; the first to challenge does."""
        if not idx.size:
            return
        trust = idx[~challenge]
        self.decider[trust] = (self.decider[trust] + 1) % self.players
        all_trust = trust[self.decider[trust] == self.turn[trust]]
        self._commit(all_trust, face_down=True)
        ch = idx[challenge]
        if not ch.size:
            return
        challenger = self.decider[ch].copy()
        correct = np.ones(ch.size, dtype=bool)
        for j in range(MAX_PLAY):
            on = self.npend[ch] > j
            square = np.maximum(self.pending[ch, j], 0)
            correct &= ~on | (self.colour[ch, square] == self.pending_colour[ch, j])
        self.last[ch, 0] = self.turn[ch]
        self.last[ch, 1] = challenger
        self.last[ch, 2] = correct
        self.last_tiles[ch, :, 0] = self.pending[ch]
        self.last_tiles[ch, :, 1] = self.pending_colour[ch]
        self._commit(ch[correct], face_down=False, challenger=challenger[correct])
        wrong = ch[~correct]
        for j in range(MAX_PLAY):  # B9: a wrong play goes back to the rack, unscored, no draw
            on = self.npend[wrong] > j
            i = wrong[on]
            self.racks[i, self.turn[i], self.pending_colour[i, j]] += 1
        self._after_play(wrong, np.zeros(wrong.size, dtype=np.int64), draw=False)

    # -- conversions ------------------------------------------------------------------------------
    def snapshot(self, index: int) -> dict[str, Any]:
        """Game ``index`` in the reference's terms (what the differential test compares)."""
        k = int(self.npend[index])
        last = None
        if self.last[index, 0] >= 0:
            tiles = tuple((int(q), int(c)) for q, c in self.last_tiles[index] if q >= 0)
            last = (int(self.last[index, 0]), int(self.last[index, 1]),
                    bool(self.last[index, 2]), tiles)
        occ = 0
        for w in range(WORDS):
            occ |= int(self.occ[w, index]) << (64 * w)
        return {
            "colour": tuple(int(c) for c in self.colour[index]),
            "value": tuple(int(v) for v in self.value[index]),
            "gen": int(self.gen[index]),
            "tile": [int(t) for t in self.tile[index]],
            "owner": {q: int(p) for q, p in enumerate(self.owner[index]) if p >= 0},
            "occ": occ,
            "racks": [[int(x) for x in r] for r in self.racks[index]],
            "bag": [int(x) for x in self.bag[index]],
            "points": [int(x) for x in self.points[index]],
            "phase": Phase(PHASES[int(self.phase[index])]),
            "turn": int(self.turn[index]),
            "pending": [(int(q), int(c)) for q, c in zip(self.pending[index, :k],
                                                        self.pending_colour[index, :k],
                                                        strict=True)],
            "decider": int(self.decider[index]),
            "drawer": int(self.drawer[index]),
            "to_draw": int(self.to_draw[index]),
            "passes": int(self.passes[index]),
            "turns": int(self.turns[index]),
            "last": last,
            "end": END_REASONS[int(self.end[index])],
        }

    def state(self, index: int) -> GobbleStonesState:
        """Game ``index`` as a reference state (without its history)."""
        snap = self.snapshot(index)
        del snap["occ"], snap["gen"]  # the covered squares follow from the tiles
        return GobbleStonesState.from_snapshot(self.game, Snapshot(
            players=self.players, bluff=self.bluff, board_steps=int(self.gen[index]),
            **{name: _frozen(value) for name, value in snap.items()},
        ))

    def set_state(self, index: int, state: GobbleStonesState) -> None:
        """Put a reference state of the same game into slot ``index``."""
        if state.game != self.game:
            raise ValueError(f"a state of {state.game} does not fit a batch of {self.game}")
        self._load(index, state)

    @staticmethod
    def reference_snapshot(state: GobbleStonesState) -> dict[str, Any]:
        """A reference state's fields in :meth:`snapshot`'s form."""
        s = state.snapshot()
        return {
            "colour": s.colour, "value": s.value, "gen": s.board_steps, "tile": list(s.tile),
            "owner": dict(s.owner), "occ": _occupied(s), "racks": [list(r) for r in s.racks],
            "bag": list(s.bag), "points": list(s.points), "phase": s.phase, "turn": s.turn,
            "pending": list(s.pending), "decider": s.decider, "drawer": s.drawer,
            "to_draw": s.to_draw, "passes": s.passes, "turns": s.turns, "last": s.last,
            "end": s.end,
        }


def _occupied(snap: Snapshot) -> int:
    """The covered squares of a reference position, as one 225-bit number."""
    return sum(1 << q for q, colour in enumerate(snap.tile) if colour >= 0)


def _frozen(value: Any) -> Any:
    """A value of :meth:`GobbleStonesBatch.snapshot` in a reference snapshot's form."""
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value
