"""The treasure deck (ruling P1) and why a pile of counts is all the state needs.

The deck holds 49 cards, 7 of each of seven treasures. The game never needs the *order* of
the draw pile: every draw is a chance event whose outcome is a treasure type, drawn with
probability ``count / cards left`` (G-1). That is exactly the physical game, by
exchangeability: when a pile is shuffled uniformly at random, the top card is a uniform draw
from the cards in it, and given what has been drawn so far the rest of the pile is still a
uniform shuffle of the cards not yet drawn. So "reveal the top card of a shuffled pile" and
"draw a card uniformly from the multiset left" give every sequence of revealed cards the same
probability. The reshuffle of ruling P7 (discards become the new pile) is therefore just
"the discard counts become the pile counts": the new shuffle needs no chance event of its
own, because its randomness is spent one card at a time, as each card is revealed.
"""

from __future__ import annotations

TREASURES: tuple[str, ...] = ("coins", "ruby", "map", "compass", "sword", "hook", "spyglass")
"""The seven treasures, in the order of their chance-action ids 0..6 (P1)."""
COPIES = 7
"""Cards of each treasure in the deck (P1)."""
DECK_SIZE = COPIES * len(TREASURES)
INDEX = {name: i for i, name in enumerate(TREASURES)}



def treasure_index(text: str) -> int:
    """The id of a treasure named by ``text`` (full name, case-insensitive).

    Raises ``KeyError`` for an unknown name; callers turn it into a NotationError.
    """
    return INDEX[text.strip().lower()]
