"""Stomple (rulings S1-S12). See ``docs/rules/stomple.md``."""

from parlour.games.stomple.board import HOLES, KIND_LETTERS, KIND_NAMES, NAMES, OUTER
from parlour.games.stomple.game import DEFAULT_TARGETS, StompleGame, StompleState
from parlour.games.stomple.position import Snapshot, format_position, parse_position
from parlour.games.stomple.presentation import StomplePresentation

FORK_POSITION = (
    "w.....k/..y.y.c/...y.../...0.../.r...../......./1.....b 0 rbg ssf - 2,5,0 2"
)
"""A hand-made round in progress: player 0 (red, on d4) can start a yellow string that forks
at d5; player 2 still has a first turn to take. Used by the tests and the conformance suite."""

CONFORMANCE_CONFIGS: list[dict[str, object]] = [
    {},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"rounds": 1},
    {"players": 3, "target": 8},
    {"position": FORK_POSITION},
]
"""Configurations the conformance suite plays (tests/conformance)."""

__all__ = [
    "CONFORMANCE_CONFIGS",
    "DEFAULT_TARGETS",
    "FORK_POSITION",
    "HOLES",
    "KIND_LETTERS",
    "KIND_NAMES",
    "NAMES",
    "OUTER",
    "Snapshot",
    "StompleGame",
    "StomplePresentation",
    "StompleState",
    "format_position",
    "parse_position",
]
