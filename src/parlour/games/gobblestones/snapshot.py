"""A GobbleStones state as plain, frozen data: what the position text and the views read.

The state (``game.py``, its rules in ``turns.py``, ``chance.py`` and ``legal.py``) owns its
fields; it hands a :class:`Snapshot` to the modules that write a position text
(``position.py``) or build a player's view (``views.py``), and is rebuilt from one when a
position text is read. So no other module reads or writes the state's private fields, and
none of them imports the state.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass


class Phase(enum.StrEnum):
    """Where the game stands: who acts next follows from it (``State.current_player``)."""

    BOARD = "board"
    """Chance draws the board (B1): colours square by square, then each board square's values."""
    DEAL = "deal"
    """Chance deals five tiles to each seat in turn (B2)."""
    PLAY = "play"
    """The seat to move places tiles, ends the play or passes (B3-B5)."""
    CHALLENGE = "challenge"
    """Bluffing variant: the others decide in turn to challenge or trust the play (B9)."""
    DRAW = "draw"
    """Chance refills the mover's rack after a play (B6)."""
    END = "end"
    """The game is over (B7, or the turn cap)."""


END_REASONS = ("bag", "no-tiles", "passes", "max-turns")
"""Why a game ended (B7, and the project's turn cap)."""

Tiles = tuple[tuple[int, int], ...]
"""Tiles as ``(square, colour)`` pairs."""


@dataclass(frozen=True)
class Snapshot:
    """Every part of a GobbleStones state, hidden ones included (a view cuts them, G-3)."""

    players: int
    bluff: bool
    colour: tuple[int, ...]
    """Each stone square's colour index (-1 while chance has not drawn it)."""
    value: tuple[int, ...]
    """Each stone square's value (0 while chance has not drawn it)."""
    board_steps: int
    """How many chance steps have built the board so far."""
    tile: tuple[int, ...]
    """The colour of the tile on each square (-1: empty); pending tiles are not on the board."""
    owner: Mapping[int, int]
    """Face-down tiles (B9): square -> the seat that placed it."""
    racks: tuple[tuple[int, ...], ...]
    """Each seat's tiles, counted by colour."""
    bag: tuple[int, ...]
    """Tiles left in the bag, counted by colour (the bag has no order)."""
    points: tuple[int, ...]
    phase: Phase
    turn: int
    """The seat whose turn it is (play, challenge and draw phases)."""
    pending: Tiles
    """The play being made, in board order, with the tiles' true colours."""
    decider: int
    """The seat deciding to challenge (challenge phase), else -1."""
    drawer: int
    """The seat drawing tiles (deal and draw phases), else -1."""
    to_draw: int
    passes: int
    """Turns in a row that placed no tile while the bag was empty (B7)."""
    turns: int
    """Turns completed."""
    last: tuple[int, int, bool, Tiles] | None
    """The last challenge: mover, challenger, whether the play was right, its tiles."""
    end: str | None
    """Why the game ended (one of :data:`END_REASONS`)."""
