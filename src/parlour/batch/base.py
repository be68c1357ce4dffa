"""What every batched engine shares: :class:`BatchEngine`.

A batched engine steps ``batch_size`` games of one configured game in numpy arrays. The four
engines (Clobber, GobbleStones, Stomp the Plank, Stomple) differ in their arrays and their
rules, and in nothing else: the API, the checks of what a caller hands in and what happens to
an illegal action are written once, here, as the rules shared by every game are in
:class:`parlour.core.State` (pgx's idea):

* :meth:`BatchEngine.step` checks the shape of the actions and of ``where``, asks the engine
  which actions are legal (``_legal``), and hands the first illegal one to the reference engine,
  whose :class:`~parlour.IllegalActionError` names the rule (and the game in the batch); nothing
  changes. Only then does the engine apply the actions (``_apply``).
* :meth:`BatchEngine.apply_trusted` skips the check, for actions :meth:`random_actions` just
  drew (playout loops).
* :meth:`BatchEngine.play_random` plays whole random games, the batch kept full
  (:func:`parlour.batch.playout.play_out`).

An engine declares the game class it plays (``game_class``), its arrays (``_FIELDS``, with the
batch on the first axis; ``_LAST_AXIS``, with the batch on the last) and implements the rules.
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

import numpy as np

from parlour.batch.playout import configured_game, play_out
from parlour.core import Game, IllegalActionError, State

G = TypeVar("G", bound=Game)
S = TypeVar("S", bound=State[Any])


def whole_number(value: Any, what: str) -> int:
    """``value`` as a count (an int or a numpy integer, at least 0), or a clear error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be a whole number, got {value!r}")
    if value < 0:
        raise ValueError(f"{what} must be at least 0, got {value}")
    return int(value)


class BatchEngine(ABC, Generic[G, S]):
    """``batch_size`` games of one configured game, stepped together (see the module).

    ``game`` is a configured game or a game name with its ``params``; ``seed`` seeds ``rng``,
    the generator :meth:`random_actions` draws from. A game that has ended stays ended until
    :meth:`reset` restarts it; its entries in :meth:`step` are ignored.
    """

    game_class: ClassVar[type[Game]]
    """The game this engine plays."""
    playout_chunk: ClassVar[int] = 2048
    """Games :meth:`play_random` simulates together."""
    _FIELDS: ClassVar[tuple[str, ...]] = ()
    """The per-game arrays, the batch on their first axis."""
    _LAST_AXIS: ClassVar[tuple[str, ...]] = ()
    """The per-game arrays with the batch on their last axis (words of bitboards)."""

    def __init__(self, game: Game | str, batch_size: int, seed: int | None = None,
                 **params: Any) -> None:
        name = type(self).__name__
        self.game = cast(G, configured_game(game, params, self.game_class, name))
        self._check_game(self.game)
        self.batch_size = whole_number(batch_size, f"{name}: batch_size")
        self.players = self.game.num_players()
        self.num_actions = self.game.num_distinct_actions()
        self.rng = np.random.default_rng(seed)

    def _check_game(self, game: G) -> None:
        """Refuse a configuration of the game this engine cannot play (ValueError)."""

    # -- state ----------------------------------------------------------------------------
    @abstractmethod
    def reset(self, where: np.ndarray | Sequence[bool] | None = None) -> None:
        """Restart every game, or those where ``where`` is true."""

    @abstractmethod
    def terminated(self) -> np.ndarray:
        """``(batch_size,)`` booleans: the games that are over."""

    @abstractmethod
    def current_player(self) -> np.ndarray:
        """The seat to act per game, ``-1`` at a chance node, ``-4`` (``TERMINAL_PLAYER``) at
        the end."""

    @abstractmethod
    def returns(self) -> np.ndarray:
        """``(batch_size, players)``: the returns of the games that are over (G-4), zeros for
        the others."""

    @abstractmethod
    def state(self, index: int) -> S:
        """Game ``index`` as a reference state (without its history)."""

    @abstractmethod
    def set_state(self, index: int, state: S) -> None:
        """Put a reference state of the same game into slot ``index``."""

    @abstractmethod
    def snapshot(self, index: int) -> Any:
        """Game ``index`` in the terms the differential tests compare with
        :meth:`reference_snapshot` of the reference state."""

    @staticmethod
    @abstractmethod
    def reference_snapshot(state: S) -> Any:
        """A reference state in :meth:`snapshot`'s terms."""

    def _keep(self, keep: np.ndarray) -> None:
        """Drop the games where ``keep`` is false (for playouts that shrink as games end)."""
        for name in self._FIELDS:
            setattr(self, name, getattr(self, name)[keep])
        for name in self._LAST_AXIS:
            array = getattr(self, name)
            if array is not None:
                setattr(self, name, array[..., keep])
        self.batch_size = int(keep.sum())

    # -- actions --------------------------------------------------------------------------
    @abstractmethod
    def legal_actions_mask(self) -> np.ndarray:
        """``(batch_size, num_actions)`` booleans: each game's legal player actions (all false
        at a chance node and at the end)."""

    def chance_probabilities(self) -> np.ndarray:
        """``(batch_size, max_chance_outcomes)``: each game's chance law at a chance node, zeros
        elsewhere (this default: a game without chance)."""
        return np.zeros((self.batch_size, self.game.max_chance_outcomes()), dtype=np.float64)

    @abstractmethod
    def random_actions(self) -> np.ndarray:
        """An action per game: chance by its law, player actions uniformly among the legal
        ones; ``-1`` where the game is over."""

    def deal_at_once(self) -> None:
        """Draw whole, by the same laws as one chance action at a time, the chance events that
        set up a game or a round (a board, a deal) in every game about to draw them; playouts
        call it before every step. This default: nothing is set up by chance."""

    def step(
        self, actions: np.ndarray | Sequence[int], where: np.ndarray | Sequence[bool] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Apply one action (or chance outcome) in every game still going, or in those of them
        where ``where`` is true (the others stand still).

        Returns ``(rewards, terminated)``: ``rewards`` ``(batch_size, players)`` holds the
        returns of the games that ended on this step (the terminal reward model), zeros
        elsewhere. An illegal action raises :class:`~parlour.IllegalActionError` naming the
        game in the batch and the rule (the reference engine's reason), and changes nothing.
        """
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.batch_size,):
            raise ValueError(f"expected {self.batch_size} actions, got shape {actions.shape}")
        live = ~self.terminated()
        if where is not None:
            chosen = np.asarray(where, dtype=bool)
            if chosen.shape != (self.batch_size,):
                raise ValueError(f"'where' needs {self.batch_size} booleans, got shape "
                                 f"{chosen.shape}")
            live &= chosen
        bad = np.flatnonzero(live & ~self._legal(actions))
        if bad.size:
            self._raise_illegal(int(bad[0]), int(actions[bad[0]]))
        return self._apply(actions, live)

    def apply_trusted(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`step` without the legality check, for actions just drawn by
        :meth:`random_actions` (playout loops); anything else goes through :meth:`step`."""
        return self._apply(actions, ~self.terminated())

    @abstractmethod
    def _legal(self, actions: np.ndarray) -> np.ndarray:
        """Per game, whether its action is legal there (read only for games still going)."""

    @abstractmethod
    def _apply(self, actions: np.ndarray, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Apply checked actions in the games ``live``; ``(rewards, terminated)``."""

    def _raise_illegal(self, index: int, action: int) -> None:
        """The reference engine's error for ``action`` in game ``index``, naming the game."""
        state = self.state(index)
        try:
            state.apply_action(action)
        except IllegalActionError as exc:
            raise IllegalActionError(
                exc.action, exc.rule, f"in game {index} of the batch: {exc.reason}"
            ) from None
        raise AssertionError(f"batch and reference disagree on action {action} in game {index}")

    # -- observations and playouts ----------------------------------------------------------
    def observation_tensor(self, player: int | np.ndarray) -> np.ndarray:
        """``(batch_size, *observation_tensor_shape)`` float32: each game's reference tensor
        from ``player``'s view (one seat for every game, or a seat per game)."""
        seats = np.broadcast_to(np.asarray(player, dtype=np.int64), (self.batch_size,))
        shape = (self.batch_size, *self.game.observation_tensor_shape())
        out = np.empty(shape, dtype=np.float32)
        for i in range(self.batch_size):
            out[i] = self.state(i).observation_tensor(int(seats[i]))
        return out

    @classmethod
    def play_random(cls, game: G, n_games: int, seed: int | None = None) -> np.ndarray:
        """``(n_games, players)`` float32 returns of ``n_games`` whole games played at random
        (chance by its law, player actions uniformly), :attr:`playout_chunk` at a time, each
        finished slot restarted with a new game (:func:`parlour.batch.playout.play_out`)."""
        n_games = whole_number(n_games, "n_games")
        rng = np.random.default_rng(seed)
        return play_out(
            lambda size: cls(game, size, int(rng.integers(2**31))),
            n_games, game.num_players(), cls.playout_chunk, before_step=cls.deal_at_once,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.game!r}, batch_size={self.batch_size})"
