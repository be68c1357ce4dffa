"""Every table the code declares, in one metadata: the modules whose rows sit on the store's
declarative ``Base`` are imported here, so that autogenerate and the no-drift test see all of
them (a module left out of :data:`MODULES` is a table the migrations would not know)."""

from __future__ import annotations

import importlib

from sqlalchemy import MetaData

MODULES = (
    "parlour.server.store",
    "parlour.server.accounts.models",
    "parlour.server.challenges",
    "parlour.server.tokens",
    "parlour.server.puzzles",
    "parlour.server.puzzle_mining",
    "parlour.server.tournaments.models",
)
"""The modules that define rows (``class ...Row(Base)``)."""


def metadata() -> MetaData:
    """The models' metadata, every table included."""
    for name in MODULES:
        importlib.import_module(name)
    from parlour.server.store import Base

    return Base.metadata
