"""The batched engines by game, and the two ways in: :func:`engine` and :func:`play_random`.

Every game of parlour has a batched engine (:class:`~parlour.batch.base.BatchEngine`), found by
the configured game's class; a name is loaded first (``parlour.load_game``), with ``params``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from parlour.batch.base import BatchEngine, whole_number
from parlour.batch.clobber import ClobberBatch
from parlour.batch.gobblestones import GobbleStonesBatch
from parlour.batch.plank import PlankBatch
from parlour.batch.stomple import StompleBatch
from parlour.core import Game, load_game

ENGINES: dict[str, type[BatchEngine[Any, Any]]] = {
    cls.game_class.game_type.short_name: cls
    for cls in (ClobberBatch, GobbleStonesBatch, PlankBatch, StompleBatch)
}
"""The batched engine of each game, by the game's name."""


def configured(name_or_game: Game | str, params: dict[str, Any]) -> Game:
    """The game ``name_or_game`` names (with ``params``) or is; a clear error otherwise."""
    if isinstance(name_or_game, str):
        return load_game(name_or_game, **params)
    if not isinstance(name_or_game, Game):
        raise TypeError(
            "expected a game name (such as 'clobber') or a configured parlour Game, got "
            f"{type(name_or_game).__name__} {name_or_game!r}"
        )
    if params:
        raise TypeError("give parameters either in the game or as keywords, not both")
    return name_or_game


def engine_class(game: Game) -> type[BatchEngine[Any, Any]]:
    """The batched engine that plays ``game`` (ValueError if none does)."""
    for cls in ENGINES.values():
        if isinstance(game, cls.game_class):
            return cls
    raise ValueError(
        f"no batched engine plays {game.name!r}; parlour.batch plays {', '.join(sorted(ENGINES))}"
    )


def engine(name_or_game: Game | str, n: int, seed: int | None = None,
           **params: Any) -> BatchEngine[Any, Any]:
    """``n`` games of ``name_or_game`` in its batched engine, seeded by ``seed``:
    ``engine("stomple", 64, players=3)``.

    >>> import parlour.batch
    >>> parlour.batch.engine("gobblestones", 4, seed=0).current_player().tolist()
    [-1, -1, -1, -1]
    """
    game = configured(name_or_game, params)
    return engine_class(game)(game, whole_number(n, "n"), seed)


def play_random(name_or_game: Game | str, n_games: int, seed: int | None = None,
                **params: Any) -> np.ndarray:
    """``(n_games, players)`` float32 returns of ``n_games`` whole games played at random
    (chance by its law, player actions uniformly among the legal ones) in the game's batched
    engine: ``play_random("stomp-the-plank", 10_000, seed=0, players=3)``.

    Row ``i`` holds every seat's return (+1/-1, G-4; 0 where the game stopped undecided, as a
    Stomp the Plank game at its turn limit).

    >>> import parlour.batch
    >>> parlour.batch.play_random("stomple", 3, seed=1).shape
    (3, 2)
    """
    game = configured(name_or_game, params)
    return engine_class(game).play_random(game, whole_number(n_games, "n_games"), seed)
