"""Clobber (rulings C1-C8). See ``docs/rules/clobber.md``."""

from parlour.games.clobber.board import Graph, Grid, Topology
from parlour.games.clobber.game import BLACK, WHITE, ClobberGame, ClobberState
from parlour.games.clobber.presentation import ClobberPresentation

CONFORMANCE_CONFIGS: list[dict[str, object]] = [
    {},
    {"rows": 3, "columns": 4},
    {"size": "6x7", "first": "black"},
    {"rows": 1, "columns": 7},
    {"cannibal": True, "rows": 4, "columns": 4},
    {"graph": "a-b b-c c-d d-a a-c e-f f-g", "position": "oxoxoxo o"},
]
"""Configurations the conformance suite plays (tests/conformance)."""

__all__ = [
    "BLACK",
    "CONFORMANCE_CONFIGS",
    "WHITE",
    "ClobberGame",
    "ClobberPresentation",
    "ClobberState",
    "Graph",
    "Grid",
    "Topology",
]
