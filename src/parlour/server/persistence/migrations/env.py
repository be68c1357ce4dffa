"""How Alembic runs parlour's revisions: on the connection :mod:`.schema` opened (in its
transaction, under its lock), never on a URL of its own; SQLite in batch mode, since SQLite's
``ALTER TABLE`` cannot drop or change a column (batch mode copies the table instead)."""

from __future__ import annotations

from alembic import context

from parlour.server.persistence.migrations.models import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata(),
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
    transaction_per_migration=False,
)
with context.begin_transaction():
    context.run_migrations()
