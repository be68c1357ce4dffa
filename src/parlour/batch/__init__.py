"""Batched engines: many games stepped together in numpy arrays, for self-play and statistics.

Clobber (:class:`ClobberBatch`), GobbleStones (:class:`GobbleStonesBatch`), Stomp the Plank
(:class:`PlankBatch`) and Stomple (:class:`StompleBatch`) follow their reference engines move by
move (differential tests); ``play_random*`` play whole random games in chunks.

>>> import parlour.batch
>>> parlour.batch.play_random("clobber", n_games=4, seed=0).shape
(4, 2)
"""

from parlour.batch.clobber import ClobberBatch, play_random
from parlour.batch.gobblestones import GobbleStonesBatch, play_random_gobblestones
from parlour.batch.layout import Layout
from parlour.batch.plank import PlankBatch, play_random_plank
from parlour.batch.stomple import StompleBatch, play_random_stomple

__all__ = [
    "ClobberBatch",
    "GobbleStonesBatch",
    "Layout",
    "PlankBatch",
    "StompleBatch",
    "play_random",
    "play_random_gobblestones",
    "play_random_plank",
    "play_random_stomple",
]
