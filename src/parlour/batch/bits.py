"""Vectorised bit tricks on arrays of 64-bit words: population count and "select the k-th set bit".

These are the two operations a random playout needs per move (how many legal moves, which one
was drawn), done for a whole batch of games in a few numpy calls instead of a Python loop.
"""

from __future__ import annotations

import numpy as np

U64 = np.uint64

if hasattr(np, "bitwise_count"):  # numpy >= 2.0: one hardware popcount per element

    def popcount(words: np.ndarray) -> np.ndarray:
        """Set bits per element, as int64."""
        return np.bitwise_count(words).astype(np.int64)

else:  # pragma: no cover - numpy 1.26 fallback: the SWAR popcount
    _M1, _M2, _M4 = U64(0x5555555555555555), U64(0x3333333333333333), U64(0x0F0F0F0F0F0F0F0F)
    _H01 = U64(0x0101010101010101)

    def popcount(words: np.ndarray) -> np.ndarray:
        x = words - ((words >> U64(1)) & _M1)
        x = (x & _M2) + ((x >> U64(2)) & _M2)
        x = (x + (x >> U64(4))) & _M4
        return ((x * _H01) >> U64(56)).astype(np.int64)


def low_mask(width: int) -> int:
    """The integer with the ``width`` lowest bits set."""
    return (1 << width) - 1


def select_bit(words: np.ndarray, rank: np.ndarray, width: int = 64) -> np.ndarray:
    """The position of the ``rank``-th (0-based, lowest first) set bit of each word.

    A binary search on popcounts: at each halving, count the set bits of the low half and step
    into the high half when the rank lies beyond them. Only the lowest ``width`` bits may be set;
    ``rank`` must be below each word's popcount. Returns int64 positions.
    """
    half = 1
    while half * 2 < width:
        half *= 2
    words = words.copy()
    rank = rank.astype(np.int64, copy=True)
    pos = np.zeros(words.shape, dtype=np.int64)
    while half >= 1:
        low = popcount(words & U64(low_mask(half)))
        up = rank >= low
        rank -= np.where(up, low, 0)
        words = np.where(up, words >> U64(half), words)
        pos += up * half
        half //= 2
    return pos
