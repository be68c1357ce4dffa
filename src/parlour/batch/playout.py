"""Random whole games through a batched engine, keeping the batch full.

A batch whose finished games simply drop out ends each chunk with a long tail of a few slow
games, where every numpy call costs as much as for a full batch. :func:`play_out` instead
restarts each finished slot with a new game until ``n_games`` have begun, then lets the last
ones finish (dropping finished slots as they go).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import numpy as np

from parlour.core import Game, load_game

G = TypeVar("G", bound=Game)


def configured_game(game: Game | str, params: dict[str, Any], kind: type[G], engine: str) -> G:
    """The game a batched engine plays: a configured ``game``, or a name and ``params``; a
    game of another kind is refused (``engine`` names the batch in the message)."""
    if isinstance(game, str):
        game = load_game(game, **params)
    elif params:
        raise TypeError("give parameters either in the game or as keywords, not both")
    if not isinstance(game, kind):
        raise ValueError(f"{engine} plays {kind.game_type.long_name}, not {game.name!r}")
    return game


class Batched(Protocol):
    """What :func:`play_out` needs of a batched engine (PlankBatch, StompleBatch)."""

    batch_size: int

    def random_actions(self) -> np.ndarray: ...
    def apply_trusted(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...
    def returns(self) -> np.ndarray: ...
    def terminated(self) -> np.ndarray: ...
    def reset(self, where: np.ndarray | None = None) -> None: ...
    def _keep(self, keep: np.ndarray) -> None: ...


B = TypeVar("B", bound=Batched)


def play_out(
    make: Callable[[int], B], n_games: int, players: int, width: int,
    before_step: Callable[[B], None] | None = None,
) -> np.ndarray:
    """``(n_games, players)`` returns of random games played ``width`` at a time."""
    out = np.zeros((n_games, players), dtype=np.float32)
    if n_games <= 0:
        return out
    size = min(width, n_games)
    batch = make(size)
    ids = np.arange(size)
    started = size
    while ids.size:
        if before_step is not None:
            before_step(batch)
        rewards, done = batch.apply_trusted(batch.random_actions())
        if not done.any():
            continue
        out[ids[done]] = rewards[done]  # a finished slot is restarted or dropped at once
        fresh = min(int(done.sum()), n_games - started)
        if fresh:
            slots = np.flatnonzero(done)[:fresh]
            restart = np.zeros(batch.batch_size, dtype=bool)
            restart[slots] = True
            batch.reset(restart)
            ids[slots] = np.arange(started, started + fresh)
            started += fresh
            done[slots] = False
        if done.any():
            keep = ~done
            ids = ids[keep]
            batch._keep(keep)
    return out
