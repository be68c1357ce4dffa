"""How a Clobber grid is packed into 64-bit words for the batched engine.

The reference engine keeps a board as one Python integer, bit ``i`` = square ``i`` in row-major
order from the top rank. numpy has no integers wider than 64 bits, so a board of more than 64
squares is cut into *words* of whole rows: ``rows_per_word = 64 // columns`` rows each (the
last word may hold fewer). Inside a word the squares keep their row-major order, so word ``w``
is simply bits ``[w * bits_per_word, (w + 1) * bits_per_word)`` of the reference integer, and a
square's action id (C4: ``square * 4 + direction``) is read off its word and bit.

Keeping whole rows in a word means that east/west neighbours are always in the same word and
north/south neighbours are ``columns`` bits away, or in the first/last row of the adjacent word.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from parlour.batch.bits import U64, low_mask

NORTH, EAST, SOUTH, WEST = range(4)


@dataclass(frozen=True)
class Layout:
    """The word layout of a ``rows`` x ``columns`` grid, and the masks move generation needs."""

    rows: int
    columns: int

    @property
    def rows_per_word(self) -> int:
        return min(self.rows, 64 // self.columns)

    @property
    def bits_per_word(self) -> int:
        return self.rows_per_word * self.columns

    @property
    def num_words(self) -> int:
        return -(-self.rows // self.rows_per_word)

    @property
    def num_squares(self) -> int:
        return self.rows * self.columns

    def word_rows(self, word: int) -> int:
        """How many rows word ``word`` holds (only the last word may hold fewer)."""
        return min(self.rows_per_word, self.rows - word * self.rows_per_word)

    def word_full(self, word: int) -> int:
        """The mask of the squares word ``word`` holds."""
        return low_mask(self.word_rows(word) * self.columns)

    def not_first_col(self, word: int) -> int:
        c = self.columns
        first = sum(1 << (r * c) for r in range(self.word_rows(word)))
        return self.word_full(word) & ~first

    def not_last_col(self, word: int) -> int:
        c = self.columns
        last = sum(1 << (r * c + c - 1) for r in range(self.word_rows(word)))
        return self.word_full(word) & ~last

    # -- conversions to and from the reference engine's integers ------------------------
    def split(self, bits: int) -> list[int]:
        """The words of a reference bitboard (bit ``i`` = square ``i``)."""
        size = self.bits_per_word
        return [(bits >> (w * size)) & low_mask(size) for w in range(self.num_words)]

    def join(self, words: list[int] | np.ndarray) -> int:
        """The reference bitboard of a list of words."""
        size = self.bits_per_word
        return sum(int(word) << (w * size) for w, word in enumerate(words))

    def square(self, word: int | np.ndarray, bit: int | np.ndarray) -> int | np.ndarray:
        """The square index (row-major from the top) of ``bit`` of ``word``."""
        return word * self.bits_per_word + bit

    def masks(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per word: the squares held, all but the first column, all but the last column."""
        words = range(self.num_words)
        return (
            np.array([self.word_full(w) for w in words], dtype=U64),
            np.array([self.not_first_col(w) for w in words], dtype=U64),
            np.array([self.not_last_col(w) for w in words], dtype=U64),
        )
