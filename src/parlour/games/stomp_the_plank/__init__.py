"""Stomp the Plank (rulings P1-P8). See ``docs/rules/stomp-the-plank.md``."""

from parlour.games.stomp_the_plank.deck import COPIES, DECK_SIZE, TREASURES
from parlour.games.stomp_the_plank.game import (
    DRAW,
    STOP,
    StompThePlankGame,
    StompThePlankState,
    parse_crates,
)
from parlour.games.stomp_the_plank.plank import PlankModel
from parlour.games.stomp_the_plank.position import Position
from parlour.games.stomp_the_plank.presentation import StompThePlankPresentation

CONFORMANCE_CONFIGS: list[dict[str, object]] = [
    {},
    {"players": 3},
    {"players": 4},
    {"players": 3, "crates": "1,2,4", "tip_at": 12, "step_weight": 3, "supply": 20},
    {"players": 4, "supply": 9, "max_turns": 200},
]
"""Configurations the conformance suite plays (tests/conformance)."""

__all__ = [
    "CONFORMANCE_CONFIGS",
    "COPIES",
    "DECK_SIZE",
    "DRAW",
    "STOP",
    "TREASURES",
    "PlankModel",
    "Position",
    "StompThePlankGame",
    "StompThePlankPresentation",
    "StompThePlankState",
    "parse_crates",
]
