"""Stomple for a batch of games at once, on 49-bit bitboards held in numpy arrays.

The rules are the reference engine's (:mod:`parlour.games.stomple`, rulings S1-S12): players,
target, single round and any starting position are read from a configured
:class:`~parlour.games.stomple.StompleGame`; action ids are the same (a hole 0-48 for a stomp;
chance outcomes are marble kinds 0-6 during the deal and stomper colours 0-5 during the draw),
and a test plays batched games next to reference states move by move.

Each game is a row: ``masks`` ``(B, 7)`` bitboards of marbles by kind, ``dealt``, ``drawn``,
``colour``/``pos``/``status``/``scores`` per seat, ``to_move``, ``string`` (the kind being
stomped as a string, S7, or -1), ``round`` and ``over``. Knock-outs (S9), the end of a round and
its scoring (S10) and the next round's start (S11) happen inside :meth:`StompleBatch.step`, as
in the reference, so a game is always at a chance node, a player's stomp, or over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from parlour.batch.base import BatchEngine
from parlour.batch.bits import U64, popcount, select_bit
from parlour.core import CHANCE_PLAYER, TERMINAL_PLAYER, Game
from parlour.games.stomple import HOLES, OUTER, StompleGame, StompleState
from parlour.games.stomple.board import ADJACENT, CATS_EYE, COLOURS, KINDS, PER_KIND
from parlour.games.stomple.game import CATS_EYE_POINTS, ROUND_WIN_POINTS, SOLID_POINTS
from parlour.games.stomple.position import ON_BOARD, OUT, WAITING, Snapshot

_ADJ = np.array([*ADJACENT, 0], dtype=U64)  # index -1 (no stomper) reads 0
_OUTER = U64(OUTER)
_ONE = U64(1)
_ALL_COLOURS = (1 << COLOURS) - 1
_BAG = np.repeat(np.arange(KINDS), PER_KIND)  # the 49 marbles by kind (S1)
_HOLE_BITS = np.left_shift(np.uint64(1), np.arange(HOLES, dtype=np.uint64))
PLAYOUT_CHUNK = 1 << 14
"""Games simulated together by :meth:`StompleBatch.play_random`."""


class StompleBatch(BatchEngine[StompleGame, StompleState]):
    """``batch_size`` games of Stomple stepped together.

    >>> batch = StompleBatch("stomple", 4, seed=0)
    >>> batch.current_player().tolist()  # the deal is chance (S1)
    [-1, -1, -1, -1]
    >>> rewards, done = batch.step(batch.random_actions())
    """

    game_class = StompleGame
    playout_chunk = PLAYOUT_CHUNK
    _FIELDS = ("masks", "marbles", "dealt", "drawn", "colour", "pos", "status", "to_move",
               "string", "scores", "round", "over")

    def __init__(
        self, game: Game | str = "stomple", batch_size: int = 1024, seed: int | None = None,
        **params: Any,
    ) -> None:
        super().__init__(game, batch_size, seed, **params)
        self.target = self.game.target
        self.single = bool(self.game.single_round)
        start = self.game.new_initial_state()
        b, n = self.batch_size, self.players
        self.masks = np.zeros((b, KINDS), dtype=U64)
        self.marbles = np.zeros(b, dtype=U64)
        self.dealt = np.zeros(b, dtype=np.int64)
        self.drawn = np.zeros(b, dtype=np.int64)
        self.colour = np.zeros((b, n), dtype=np.int64)
        self.pos = np.zeros((b, n), dtype=np.int64)
        self.status = np.zeros((b, n), dtype=np.int64)
        self.to_move = np.zeros(b, dtype=np.int64)
        self.string = np.zeros(b, dtype=np.int64)
        self.scores = np.zeros((b, n), dtype=np.int64)
        self.round = np.zeros(b, dtype=np.int64)
        self.over = np.zeros(b, dtype=bool)
        self._start = self._read(start)
        self.reset()

    # -- state ----------------------------------------------------------------------------
    @staticmethod
    def _read(state: StompleState) -> dict[str, Any]:
        return {
            "masks": list(state._masks), "marbles": state._marbles, "dealt": state._dealt,
            "drawn": state._drawn, "colour": list(state._colour), "pos": list(state._pos),
            "status": list(state._status), "to_move": state._to_move, "string": state._string,
            "scores": list(state._scores), "round": state._round, "over": state._over,
        }

    def _write(self, rows: np.ndarray | int, values: dict[str, Any]) -> None:
        for name, value in values.items():
            array = getattr(self, name)
            array[rows] = np.asarray(value, dtype=array.dtype)

    def reset(self, where: np.ndarray | Sequence[bool] | None = None) -> None:
        """Restart every game, or those where ``where`` is true."""
        rows = np.arange(self.batch_size) if where is None else np.flatnonzero(
            np.asarray(where, dtype=bool)
        )
        self._write(rows, self._start)

    def terminated(self) -> np.ndarray:
        return self.over.copy()

    def _chance(self) -> np.ndarray:
        return (self.dealt < HOLES) | (self.drawn < self.players)

    def current_player(self) -> np.ndarray:
        """The player to stomp, ``-1`` during the deal and draw (chance), ``-4`` at the end."""
        out = np.where(self._chance(), CHANCE_PLAYER, self.to_move)
        return np.where(self.over, TERMINAL_PLAYER, out)

    def returns(self) -> np.ndarray:
        """``(batch_size, players)``: +1 per winner, -1 per loser at the end (S11, S12, G-4)."""
        seat = np.arange(self.players)[None, :]
        if self.single:
            won = seat == self.to_move[:, None]
        else:
            won = self.scores == self.scores.max(axis=1, keepdims=True)
        out = np.where(won, 1.0, -1.0).astype(np.float32)
        return np.where(self.over[:, None], out, np.float32(0))

    # -- rules ----------------------------------------------------------------------------
    def _legal_bits(self, idx: np.ndarray) -> np.ndarray:
        """Bitboards of legal holes of the player to move in games ``idx`` (S4-S7)."""
        p = self.to_move[idx]
        pos = self.pos[idx, p]
        status = self.status[idx, p]
        string = self.string[idx]
        adj = _ADJ[pos]
        marbles = self.marbles[idx]
        own = self.masks[idx, np.maximum(self.colour[idx, p], 0)]
        strung = adj & self.masks[idx, np.maximum(string, 0)]
        bits = np.where(status == WAITING, _OUTER & marbles, (adj & marbles) | own)
        return np.asarray(np.where(string >= 0, strung, bits), dtype=U64)

    def _can_stomp(self, idx: np.ndarray, p: np.ndarray) -> np.ndarray:
        status = self.status[idx, p]
        marbles = self.marbles[idx]
        own = self.masks[idx, np.maximum(self.colour[idx, p], 0)]
        moves = np.where(status == WAITING, _OUTER & marbles,
                         (_ADJ[self.pos[idx, p]] & marbles) | own)
        return np.asarray(moves != 0, dtype=bool)

    def legal_actions_mask(self) -> np.ndarray:
        """``(batch_size, 49)`` booleans: the holes the player to move may stomp (all false at
        chance nodes and at the end)."""
        idx = np.arange(self.batch_size)
        bits = self._legal_bits(idx)
        bits = np.where(self._chance() | self.over, U64(0), bits)
        shifts = np.arange(HOLES, dtype=U64)
        return ((bits[:, None] >> shifts) & _ONE).astype(bool)

    def chance_probabilities(self) -> np.ndarray:
        """``(batch_size, 7)``: during the deal, each kind's probability (S1); during the
        draw, each free stomper colour's (S2, kinds 0-5); zeros elsewhere."""
        left = PER_KIND - popcount(self.masks)
        deal = left / np.maximum(HOLES - self.dealt, 1)[:, None]
        taken = np.zeros((self.batch_size, KINDS), dtype=bool)
        drawn_seat = np.arange(self.players)[None, :] < self.drawn[:, None]
        for p in range(self.players):
            c = self.colour[:, p]
            has = drawn_seat[:, p] & (c >= 0)
            taken[np.flatnonzero(has), c[has]] = True
        free = ~taken
        free[:, CATS_EYE] = False
        draw = free / np.maximum(free.sum(axis=1, keepdims=True), 1)
        out = np.where((self.dealt < HOLES)[:, None], deal,
                       np.where((self.drawn < self.players)[:, None], draw, 0.0))
        return np.where(self.over[:, None], 0.0, out)

    def _taken(self) -> np.ndarray:
        """Per game, the bitmask of stomper colours already drawn (S2)."""
        colour = self.colour
        bits = np.where(colour >= 0, np.left_shift(1, np.maximum(colour, 0)), 0)
        return np.asarray(np.bitwise_or.reduce(bits, axis=1), dtype=np.int64)

    def random_actions(self) -> np.ndarray:
        """A legal action per game: chance by its law, stomps uniformly; -1 at the end."""
        b = self.batch_size
        r = self.rng.random(b)
        left = PER_KIND - popcount(self.masks)  # S1: marbles of each kind still to deal
        cum = np.cumsum(left, axis=1)
        kind = np.minimum((cum <= (r * cum[:, -1])[:, None]).sum(axis=1), KINDS - 1)
        free = U64(_ALL_COLOURS) & ~self._taken().astype(U64)  # S2: colours not drawn yet
        nfree = popcount(free)
        pick = np.minimum(np.floor(r * np.maximum(nfree, 1)).astype(np.int64),
                          np.maximum(nfree - 1, 0))
        colour = select_bit(np.where(nfree > 0, free, _ONE), pick, 8)
        bits = self._legal_bits(np.arange(b))
        count = popcount(bits)
        rank = np.floor(r * np.maximum(count, 1)).astype(np.int64)
        rank = np.minimum(rank, np.maximum(count - 1, 0))
        hole = select_bit(np.where(count > 0, bits, _ONE), rank, HOLES)
        out = np.where(self.dealt < HOLES, kind,
                       np.where(self.drawn < self.players, colour, hole))
        return np.where(self.over, -1, out)

    def deal_rounds(self) -> None:
        """Deal and draw, at once, every game about to start a round (the same laws as
        one chance action at a time, S1 and S2: a uniform layout and distinct colours)."""
        idx = np.flatnonzero(~self.over & (self.dealt == 0) & (self.drawn == 0))
        if not idx.size:
            return
        layout = self.rng.permuted(np.tile(_BAG, (idx.size, 1)), axis=1)
        for kind in range(KINDS):
            self.masks[idx, kind] = np.bitwise_or.reduce(
                np.where(layout == kind, _HOLE_BITS, U64(0)), axis=1
            )
        self.marbles[idx] = U64((1 << HOLES) - 1)
        self.dealt[idx] = HOLES
        colours = self.rng.permuted(np.tile(np.arange(COLOURS), (idx.size, 1)), axis=1)
        for seat in range(self.players - 1):
            self.colour[idx, seat] = colours[:, seat]
        self.drawn[idx] = self.players - 1
        self._draw(idx, colours[:, self.players - 1])  # the last draw starts play (S9)

    def deal_at_once(self) -> None:
        """:meth:`deal_rounds`."""
        self.deal_rounds()

    def _legal(self, actions: np.ndarray) -> np.ndarray:
        safe = np.clip(actions, 0, HOLES - 1)
        all_rows = np.arange(self.batch_size)
        kind = np.minimum(safe, KINDS - 1)
        dealing = self.dealt < HOLES
        deal_ok = popcount(self.masks[all_rows, kind]) < PER_KIND
        draw_ok = (safe < COLOURS) & (((self._taken() >> np.minimum(safe, COLOURS)) & 1) == 0)
        chance_ok = (actions >= 0) & (actions < KINDS) & np.where(dealing, deal_ok, draw_ok)
        bits = self._legal_bits(all_rows)
        play_ok = (actions >= 0) & (actions < HOLES) & (((bits >> safe.astype(U64)) & _ONE) == 1)
        return np.asarray(np.where(self._chance(), chance_ok, play_ok), dtype=bool)

    def _apply(self, actions: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        chance = self._chance() & live
        safe = np.clip(actions, 0, HOLES - 1)
        deal = live & (self.dealt < HOLES)
        draw = live & ~deal & (self.drawn < self.players)
        stomp = live & ~chance
        self._deal(np.flatnonzero(deal), safe[deal])
        self._draw(np.flatnonzero(draw), safe[draw])
        self._stomp(np.flatnonzero(stomp), safe[stomp])
        done = self.over
        rewards = np.zeros((self.batch_size, self.players), dtype=np.float32)
        ended = done & live
        if ended.any():
            rewards[ended] = self.returns()[ended]
        return rewards, done.copy()

    def _deal(self, idx: np.ndarray, kind: np.ndarray) -> None:
        """S1: the next hole of the deal gets a marble of this kind."""
        if not idx.size:
            return
        bit = _ONE << self.dealt[idx].astype(U64)
        self.masks[idx, kind] |= bit
        self.marbles[idx] |= bit
        self.dealt[idx] += 1

    def _draw(self, idx: np.ndarray, colour: np.ndarray) -> None:
        """S2: the next player draws this stomper colour; then the starter plays (S9)."""
        if not idx.size:
            return
        self.colour[idx, self.drawn[idx]] = colour
        self.drawn[idx] += 1
        ready = idx[self.drawn[idx] == self.players]
        if ready.size:
            starter = self.to_move[ready]
            stuck = ~self._can_stomp(ready, starter)
            if stuck.any():  # only on a hand-made board
                rows, seat = ready[stuck], starter[stuck]
                self._knock_out(rows, seat)
                self._advance(rows, seat)

    def _stomp(self, idx: np.ndarray, hole: np.ndarray) -> None:
        """S8: the stomper moves into the hole and its marble leaves the board; then S7."""
        if not idx.size:
            return
        p = self.to_move[idx]
        bit = _ONE << hole.astype(U64)
        has = (self.masks[idx] & bit[:, None]) != 0
        kind = has.argmax(axis=1)
        self.masks[idx, kind] ^= bit
        self.marbles[idx] ^= bit
        self.pos[idx, p] = hole
        self.status[idx, p] = ON_BOARD
        more = (_ADJ[hole] & self.masks[idx, kind]) != 0
        self.string[idx] = np.where(more, kind, -1)  # S7: stomp on along the string
        done = ~more
        self._advance(idx[done], p[done])

    def _knock_out(self, idx: np.ndarray, p: np.ndarray) -> None:
        """S9: the stomper leaves the board; the player is out of the round."""
        self.status[idx, p] = OUT
        self.pos[idx, p] = -1

    def _advance(self, idx: np.ndarray, p: np.ndarray) -> None:
        """End ``p``'s turn in games ``idx``: pass it clockwise, knocking out players who
        cannot stomp (S9), ending the round when one stomper is left after every first turn."""
        n = self.players
        while idx.size:
            status = self.status[idx]
            ending = ~(status == WAITING).any(axis=1) & ((status == ON_BOARD).sum(axis=1) <= 1)
            if ending.any():
                self._end_round(idx[ending])
                idx, p = idx[~ending], p[~ending]
                if not idx.size:
                    return
            p = (p + 1) % n
            for _ in range(n):  # to the next player still in the round
                out = self.status[idx, p] == OUT
                if not out.any():
                    break
                p = np.where(out, (p + 1) % n, p)
            can = self._can_stomp(idx, p)
            self.to_move[idx[can]] = p[can]
            stuck = ~can
            idx, p = idx[stuck], p[stuck]
            self._knock_out(idx, p)

    def _end_round(self, idx: np.ndarray) -> None:
        """S10: the last stomper's owner scores; S11/S12: the game ends or a new round starts."""
        winner = (self.status[idx] == ON_BOARD).argmax(axis=1)
        cats = popcount(self.masks[idx, CATS_EYE])
        solids = popcount(self.marbles[idx]) - cats
        self.scores[idx, winner] += ROUND_WIN_POINTS + CATS_EYE_POINTS * cats + (
            SOLID_POINTS * solids
        )
        self.to_move[idx] = winner
        self.string[idx] = -1
        finished = np.full(idx.size, True) if self.single else (
            self.scores[idx].max(axis=1) >= self.target
        )
        self.over[idx[finished]] = True
        again = idx[~finished]
        if again.size:
            self.round[again] += 1
            self.masks[again] = 0
            self.marbles[again] = 0
            self.dealt[again] = 0
            self.colour[again] = -1
            self.drawn[again] = 0
            self.pos[again] = -1
            self.status[again] = WAITING

    # -- conversions ------------------------------------------------------------------------
    def state(self, index: int) -> StompleState:
        """Game ``index`` as a reference state (without its history)."""
        snap = Snapshot(
            masks=tuple(int(m) for m in self.masks[index]),
            dealt=int(self.dealt[index]),
            colours=tuple(int(c) for c in self.colour[index]),
            stompers=tuple(int(h) for h in self.pos[index]),
            status=tuple(int(s) for s in self.status[index]),
            to_move=int(self.to_move[index]),
            string=int(self.string[index]),
            scores=tuple(int(s) for s in self.scores[index]),
            round=int(self.round[index]),
        )
        state = StompleState(self.game, snap)
        state._over = bool(self.over[index])
        return state

    def snapshot(self, index: int) -> dict[str, Any]:
        """Game ``index``'s fields as plain values (what the differential test compares)."""
        return {name: _plain(getattr(self, name)[index]) for name in self._FIELDS}

    def set_state(self, index: int, state: StompleState) -> None:
        """Put a reference state of the same game into slot ``index``."""
        if state.game != self.game:
            raise ValueError(f"a state of {state.game} does not fit a batch of {self.game}")
        self._write(index, self._read(state))

    @staticmethod
    def reference_snapshot(state: StompleState) -> dict[str, Any]:
        """A reference state's fields in :meth:`snapshot`'s form."""
        return {k: _plain(np.asarray(v, dtype=np.uint64 if k in ("masks", "marbles") else None))
                for k, v in StompleBatch._read(state).items()}


def _plain(value: Any) -> Any:
    array = np.asarray(value)
    return array.tolist() if array.ndim else array.item()
