"""The schema as the server made it before migrations (parlour 0.x, up to issue 62).

A new database gets every table of :mod:`parlour.server.persistence.migrations.baseline`; a
database made before migrations (no ``alembic_version``) gets what it lacks of them, and keeps
every row.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from parlour.server.persistence.migrations import baseline

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    existing = set(sa.inspect(bind).get_table_names())
    baseline.metadata.create_all(bind)  # the missing tables, with their indexes
    inspector = sa.inspect(bind)
    for table in baseline.metadata.sorted_tables:
        if table.name not in existing:
            continue
        present = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name not in present:  # nullable, as the old migrate added it
                op.add_column(table.name, sa.Column(column.name, column.type, nullable=True))
        indexes = {i["name"] for i in inspector.get_indexes(table.name)}
        for index in table.indexes:
            if index.name not in indexes:
                index.create(bind)


def downgrade() -> None:
    baseline.metadata.drop_all(op.get_bind())
