"""GobbleStones (rulings B1-B9), with the bluffing variant. See ``docs/rules/gobblestones.md``."""

from parlour.games.gobblestones.board import EXAMPLE_BOARD
from parlour.games.gobblestones.game import GobbleStonesGame, GobbleStonesState
from parlour.games.gobblestones.presentation import GobbleStonesPresentation

CONFORMANCE_CONFIGS: list[dict[str, object]] = [
    {},
    {"players": 3},
    {"players": 4},
    {"bluff": True},
    {"players": 3, "bluff": True},
    {"players": 4, "bluff": True},
    {"board": EXAMPLE_BOARD},
    {"board": EXAMPLE_BOARD, "players": 3, "bluff": True},
]
"""Configurations the conformance suite plays (tests/conformance)."""

__all__ = [
    "CONFORMANCE_CONFIGS",
    "EXAMPLE_BOARD",
    "GobbleStonesGame",
    "GobbleStonesPresentation",
    "GobbleStonesState",
]
