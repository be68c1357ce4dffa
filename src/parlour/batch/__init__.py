"""Batched engines: many games stepped together in numpy arrays, for self-play and statistics.

Every game has one: Clobber (:class:`ClobberBatch`), GobbleStones (:class:`GobbleStonesBatch`),
Stomp the Plank (:class:`PlankBatch`) and Stomple (:class:`StompleBatch`), each following its
reference engine move by move (differential tests) behind one API (:class:`BatchEngine`).
:func:`engine` makes the engine of a game, :func:`play_random` plays whole random games.

>>> import parlour.batch
>>> parlour.batch.play_random("clobber", n_games=4, seed=0).shape
(4, 2)
>>> batch = parlour.batch.engine("stomp-the-plank", 8, seed=0, players=3)
>>> rewards, done = batch.step(batch.random_actions())
>>> rewards.shape
(8, 3)
"""

from parlour.batch.base import BatchEngine
from parlour.batch.clobber import ClobberBatch
from parlour.batch.engines import ENGINES, engine, play_random
from parlour.batch.gobblestones import GobbleStonesBatch
from parlour.batch.layout import Layout
from parlour.batch.plank import PlankBatch
from parlour.batch.stomple import StompleBatch

__all__ = [
    "ENGINES",
    "BatchEngine",
    "ClobberBatch",
    "GobbleStonesBatch",
    "Layout",
    "PlankBatch",
    "StompleBatch",
    "engine",
    "play_random",
]
