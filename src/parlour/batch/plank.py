"""Stomp the Plank for a batch of games at once, in numpy arrays.

The rules are the reference engine's (:mod:`parlour.games.stomp_the_plank`, rulings P1-P10):
the crates per spot, the plank model (P5), the supply and the turn cap are read from a
configured :class:`~parlour.games.stomp_the_plank.StompThePlankGame`, action ids are the same
(``0`` draw, ``1`` stop; chance outcomes are treasure ids 0-6), and a test plays batched games
next to reference states move by move. Every game of a batch is a row of small integer
arrays; a step is a handful of whole-array operations whatever the batch size.

Chance (G-1) is explicit, as in the reference: a game whose player has just drawn is at a chance
node (``current_player() == -1``); its entry in :meth:`PlankBatch.step` is the treasure revealed.
:meth:`PlankBatch.random_actions` draws chance outcomes by their probabilities (the cards left
in the pile) and player actions uniformly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from parlour.batch.base import BatchEngine
from parlour.core import CHANCE_PLAYER, TERMINAL_PLAYER, Game
from parlour.games.stomp_the_plank import (
    COPIES,
    DRAW,
    STOP,
    TREASURES,
    Position,
    StompThePlankGame,
    StompThePlankState,
)

START, CHOOSE, CARD, OVER = 0, 1, 2, 3
PHASES = ("start", "choose", "card", "over")
NO_END, TIP_STOP, TIP_STEP, LAST_SPOT, TURN_LIMIT = 0, 1, 2, 3, 4
ENDS = (None, "tip-stop", "tip-step", "last-spot", "turn-limit")
KINDS = len(TREASURES)
_KIND_IDS = np.arange(KINDS)[None, None, :]
PLAYOUT_CHUNK = 1 << 14
"""Games simulated together by :meth:`PlankBatch.play_random`."""


class PlankBatch(BatchEngine[StompThePlankGame, StompThePlankState]):
    """``batch_size`` games of Stomp the Plank stepped together.

    >>> batch = PlankBatch("stomp-the-plank", 4, seed=0)
    >>> batch.legal_actions_mask().shape
    (4, 2)
    >>> rewards, done = batch.step(batch.random_actions())

    Arrays (row = game): ``pile``, ``discards`` ``(B, 7)`` card counts; ``pontoon`` ``(B, spots)``
    treasure ids in spot order with ``size`` ``(B,)`` cards on it; ``crates``, ``steps``
    ``(B, players)``; ``supply``, ``active``, ``turn``, ``phase``, ``end`` ``(B,)``. A game that
    has ended stays ended until :meth:`reset`; its entries in :meth:`step` are ignored.
    """

    game_class = StompThePlankGame
    playout_chunk = PLAYOUT_CHUNK
    _FIELDS = ("pile", "total", "discards", "pontoon", "seen", "dup", "size", "crates", "steps",
               "supply", "active", "turn", "phase", "end")

    def __init__(
        self, game: Game | str = "stomp-the-plank", batch_size: int = 1024,
        seed: int | None = None, **params: Any,
    ) -> None:
        super().__init__(game, batch_size, seed, **params)
        self.spots = self.game.spots
        self.crate_table = np.array([*self.game.crates, 0], dtype=np.int64)
        self.tip_at = self.game.plank.tip_at
        self.step_weight = self.game.plank.step_weight
        self.max_turns = int(self.game.params["max_turns"])
        self._start = Position.parse(self.game.new_initial_state().position())
        b, n = self.batch_size, self.players
        self.pile = np.zeros((b, KINDS), dtype=np.int64)
        self.discards = np.zeros((b, KINDS), dtype=np.int64)
        self.pontoon = np.full((b, self.spots + 1), -1, dtype=np.int64)
        self.size = np.zeros(b, dtype=np.int64)
        self.total = np.zeros(b, dtype=np.int64)  # cards in the pile
        self.seen = np.zeros(b, dtype=np.int64)  # bitmask of treasures on the pontoon
        self.dup = np.zeros(b, dtype=np.int64)  # the card that matched (P4), or -1
        self.crates = np.zeros((b, n), dtype=np.int64)
        self.steps = np.zeros((b, n), dtype=np.int64)
        self.supply = np.zeros(b, dtype=np.int64)
        self.active = np.zeros(b, dtype=np.int64)
        self.turn = np.zeros(b, dtype=np.int64)
        self.phase = np.zeros(b, dtype=np.int64)
        self.end = np.zeros(b, dtype=np.int64)
        self.reset()

    # -- state --------------------------------------------------------------------------
    def reset(self, where: np.ndarray | Sequence[bool] | None = None) -> None:
        """Restart every game, or those where ``where`` is true."""
        rows = np.arange(self.batch_size) if where is None else np.flatnonzero(
            np.asarray(where, dtype=bool)
        )
        self._load(rows, self._start)

    def _load(self, i: int | np.ndarray, pos: Position) -> None:
        pontoon = list(pos.pontoon)
        self.pontoon[i] = -1
        self.pontoon[i, : len(pontoon)] = pontoon
        self.size[i] = len(pontoon)
        self.discards[i] = pos.discards
        self.pile[i] = [COPIES - pontoon.count(t) - pos.discards[t] for t in range(KINDS)]
        self.total[i] = self.pile[i].sum(axis=-1)
        self.seen[i] = sum(1 << t for t in set(pontoon))
        matched = len(set(pontoon)) < len(pontoon)
        self.dup[i] = pontoon[-1] if matched else -1
        self.crates[i] = [c for c, _s in pos.planks]
        self.steps[i] = [s for _c, s in pos.planks]
        self.supply[i] = pos.supply
        self.active[i] = pos.active
        self.turn[i] = pos.turn
        self.phase[i] = PHASES.index(pos.phase)
        self.end[i] = ENDS.index(pos.end)

    def terminated(self) -> np.ndarray:
        """Games over (a plank tipped, the last spot was reached, or the turn cap)."""
        return np.asarray(self.phase == OVER, dtype=bool)

    def current_player(self) -> np.ndarray:
        """The seat to act, ``-1`` at a chance node (a card to reveal), ``-4`` at the end."""
        out = self.active.copy()
        out[self.phase == CARD] = CHANCE_PLAYER
        out[self.phase == OVER] = TERMINAL_PLAYER
        return out

    def _tips(self, crates: np.ndarray, steps: np.ndarray) -> np.ndarray:
        return np.asarray(crates + self.step_weight * steps >= self.tip_at, dtype=bool)  # P5

    def returns(self) -> np.ndarray:
        """``(batch_size, players)``: +1 per winner, -1 per loser at the end (P6, G-4);
        zeros before the end and at the turn limit."""
        return self._returns_of(np.arange(self.batch_size))

    def _returns_of(self, idx: np.ndarray) -> np.ndarray:
        end = self.end[idx][:, None]
        tipped = self._tips(self.crates[idx], self.steps[idx])
        seat = np.arange(self.players)[None, :]
        out = np.where((end == TIP_STOP) | (end == TIP_STEP), np.where(tipped, -1.0, 1.0), 0.0)
        winner = seat == self.active[idx][:, None]
        out = np.where(end == LAST_SPOT, np.where(winner, 1.0, -1.0), out)
        return out.astype(np.float32)

    # -- actions ------------------------------------------------------------------------
    def legal_actions_mask(self) -> np.ndarray:
        """``(batch_size, 2)`` booleans over the player actions (all false at chance nodes
        and at the end): draw always at a player node, stop only after a card (P3)."""
        mask = np.zeros((self.batch_size, self.num_actions), dtype=bool)
        mask[:, DRAW] = (self.phase == START) | (self.phase == CHOOSE)
        mask[:, STOP] = self.phase == CHOOSE
        return mask

    def chance_probabilities(self) -> np.ndarray:
        """``(batch_size, 7)``: at a chance node, each treasure's probability (P1); else 0."""
        probs = self.pile / np.maximum(self.total, 1)[:, None]
        return np.where((self.phase == CARD)[:, None], probs, 0.0)

    def random_actions(self) -> np.ndarray:
        """A legal action per game: chance by the pile's counts, players uniformly; -1 at
        the end."""
        b = self.batch_size
        r = self.rng.random(b)
        cum = np.cumsum(self.pile, axis=1)
        card = (cum <= (r * self.total)[:, None]).sum(axis=1)
        player = np.where(self.phase == CHOOSE, (r < 0.5).astype(np.int64), DRAW)
        out = np.where(self.phase == CARD, np.minimum(card, KINDS - 1), player)
        return np.where(self.phase == OVER, -1, out)

    def _legal(self, actions: np.ndarray) -> np.ndarray:
        phase = self.phase
        safe = np.clip(actions, 0, KINDS - 1)
        return np.asarray(np.where(
            phase == CARD,
            (actions >= 0) & (actions < KINDS)
            & (self.pile[np.arange(self.batch_size), safe] > 0),
            (actions == DRAW) | ((actions == STOP) & (phase == CHOOSE)),
        ), dtype=bool)

    def _apply(self, actions: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        card = (self.phase == CARD) & live
        player = live & ~card
        self._draw(player & (actions == DRAW))
        stop = player & (actions == STOP)
        self._reveal(card, np.clip(actions, 0, KINDS - 1))
        self._stop(stop)
        done = self.phase == OVER
        rewards = np.zeros((self.batch_size, self.players), dtype=np.float32)
        ended = np.flatnonzero(done & live)
        if ended.size:
            rewards[ended] = self._returns_of(ended)
        return rewards, done

    def _reshuffle(self, idx: np.ndarray) -> None:
        """P7: for the games ``idx`` whose pile is empty, the discards become the pile."""
        empty = idx[self.total[idx] == 0]
        if empty.size:
            self.pile[empty] = self.discards[empty]
            self.total[empty] = self.discards[empty].sum(axis=1)
            self.discards[empty] = 0

    def _draw(self, rows: np.ndarray) -> None:
        idx = np.flatnonzero(rows)
        self._reshuffle(idx)
        self.phase[idx] = CARD

    def _reveal(self, rows: np.ndarray, card: np.ndarray) -> None:
        if not rows.any():
            return
        idx = np.flatnonzero(rows)
        t = card[idx]
        self.pile[idx, t] -= 1
        self.total[idx] -= 1
        bit = np.left_shift(1, t)
        matched = (self.seen[idx] & bit) != 0
        self.seen[idx] |= bit
        self.pontoon[idx, self.size[idx]] = t
        self.size[idx] += 1
        # P4: a match steps the elephant, which may tip (P6)
        m = idx[matched]
        self.dup[m] = t[matched]
        a = self.active[m]
        self.steps[m, a] += 1
        tipped = self._tips(self.crates[m, a], self.steps[m, a])
        self._finish(m[tipped], TIP_STEP)
        rest = idx[~matched]
        full = self.size[rest] == self.spots
        self._finish(rest[full], LAST_SPOT)  # P2
        self.phase[rest[~full]] = CHOOSE
        self._end_turn(m[~tipped])

    def _stop(self, rows: np.ndarray) -> None:
        if not rows.any():
            return
        idx = np.flatnonzero(rows)
        give = self.crate_table[self.size[idx] - 1]
        tipped = np.zeros(idx.size, dtype=bool)
        for offset in range(1, self.players):  # P10: clockwise from the stopper's left
            seat = (self.active[idx] + offset) % self.players
            taken = np.minimum(give, self.supply[idx])
            self.supply[idx] -= taken
            self.crates[idx, seat] += taken
            tipped |= self._tips(self.crates[idx, seat], self.steps[idx, seat])
        self._finish(idx[tipped], TIP_STOP)
        self._end_turn(idx[~tipped])

    def _end_turn(self, idx: np.ndarray) -> None:
        if not idx.size:
            return
        # P7: the turn's cards are discarded: one of each treasure seen, plus a matched card
        self.discards[idx] += (self.seen[idx][:, None] >> _KIND_IDS[0]) & 1
        dup = self.dup[idx]
        has = dup >= 0
        self.discards[idx[has], dup[has]] += 1
        self.seen[idx] = 0
        self.dup[idx] = -1
        self.pontoon[idx] = -1
        self.size[idx] = 0
        self._reshuffle(idx)
        self.active[idx] = (self.active[idx] + 1) % self.players
        self.turn[idx] += 1
        over = self.turn[idx] > self.max_turns
        self._finish(idx[over], TURN_LIMIT)
        self.phase[idx[~over]] = START

    def _finish(self, idx: np.ndarray, end: int) -> None:
        self.phase[idx] = OVER
        self.end[idx] = end

    # -- conversions ------------------------------------------------------------------------
    def position(self, index: int) -> Position:
        """Game ``index`` as the reference's position value."""
        size = int(self.size[index])
        return Position(
            turn=int(self.turn[index]),
            active=int(self.active[index]),
            phase=PHASES[int(self.phase[index])],
            end=ENDS[int(self.end[index])],
            pontoon=tuple(int(t) for t in self.pontoon[index, :size]),
            discards=tuple(int(d) for d in self.discards[index]),
            supply=int(self.supply[index]),
            planks=tuple(
                (int(c), int(s)) for c, s in zip(self.crates[index], self.steps[index],
                                                 strict=True)
            ),
        )

    def state(self, index: int) -> StompThePlankState:
        """Game ``index`` as a reference state (without its history)."""
        return StompThePlankState(self.game, self.position(index))

    def set_state(self, index: int, state: StompThePlankState) -> None:
        """Put a reference state of the same game into slot ``index``."""
        if state.game != self.game:
            raise ValueError(f"a state of {state.game} does not fit a batch of {self.game}")
        self._load(index, Position.parse(state.position()))

    def snapshot(self, index: int) -> str:
        """Game ``index``'s position text (what the differential test compares)."""
        return self.position(index).text()

    @staticmethod
    def reference_snapshot(state: StompThePlankState) -> str:
        return state.position()
