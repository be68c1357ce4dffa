"""Batched engines: many games stepped together in numpy arrays, for self-play and statistics.

>>> import parlour.batch
>>> parlour.batch.play_random("clobber", n_games=4, seed=0).shape
(4, 2)
"""

from parlour.batch.clobber import ClobberBatch, play_random
from parlour.batch.layout import Layout
from parlour.batch.plank import PlankBatch, play_random_plank

__all__ = ["ClobberBatch", "Layout", "PlankBatch", "play_random", "play_random_plank"]
