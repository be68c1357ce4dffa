"""Every table the code declares, in one metadata: the modules whose rows sit on the store's
declarative ``Base`` are imported here, so that autogenerate and the no-drift test see all of
them (a module left out of :data:`MODULES` is a table the migrations would not know)."""

from __future__ import annotations

import importlib
from typing import Any

from sqlalchemy import Connection, MetaData

MODULES = (
    "parlour.server.persistence.rows",
    "parlour.server.accounts.models",
    "parlour.server.accounts.challenges",
    "parlour.server.bots.tokens",
    "parlour.server.study.puzzles",
    "parlour.server.study.puzzle_mining",
    "parlour.server.tournaments.models",
)
"""The modules that define rows (``class ...Row(Base)``), in every group: named, not imported,
so that the persistence group imports none of the groups above it (the migrations read the
whole schema only when they run, as Alembic's entry point)."""


def metadata() -> MetaData:
    """The models' metadata, every table included."""
    for name in MODULES:
        importlib.import_module(name)
    from parlour.server.persistence.rows import Base

    return Base.metadata


def drift(connection: Connection) -> list[Any]:
    """The differences between ``connection``'s schema and the models' (``[]``: none), as
    Alembic's ``compare_metadata`` finds them."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, metadata()))
