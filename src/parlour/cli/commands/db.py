"""``parlour db``: the server's database: its schema revision, upgrades, backups and restores.

``current`` and ``upgrade`` run the migrations of
:mod:`parlour.server.persistence.migrations`; ``backup`` and ``restore`` those of
:mod:`parlour.server.persistence.backup` (a backup may be taken while the server runs). Each
takes ``--db`` as ``parlour serve`` does (default ``$PARLOUR_DB``, else the SQLite file in the
data directory); a refusal prints one line and changes nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from parlour.cli.common import console, err_console
from parlour.core.extras import MissingExtraError, needs_extra

DB_HELP = ("the database: an SQLAlchemy URL (postgresql://user@host/parlour) or an SQLite file; "
           "default: $PARLOUR_DB, else SQLite in your data directory")
DbOption = Annotated[str | None, typer.Option("--db", help=DB_HELP)]


def _fail(message: str, code: int = 1) -> typer.Exit:
    err_console.print(f"[red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def _say(text: str) -> None:
    """One line (never wrapped: the commands in it are copied)."""
    console.print(text, soft_wrap=True)


def _url(db: str | None) -> str:
    try:
        with needs_extra("web", "the web table's database"):
            from parlour.server.persistence.config import default_db_url, normalise_db_url
            from parlour.server.persistence.migrations import schema  # noqa: F401  (alembic is there)
    except MissingExtraError as exc:
        raise _fail(str(exc), 2) from None
    return normalise_db_url(db) if db else default_db_url()


def _engine(url: str, *, must_exist: bool) -> Any:
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    from parlour.server.persistence.config import secure_sqlite_file

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        if must_exist and not Path(parsed.database).exists():
            raise _fail(f"there is no database at {parsed.database}")
        secure_sqlite_file(url)
    return create_engine(url)


def current(db: DbOption = None) -> None:
    """Print the database's schema revision, and whether it is this parlour's."""
    url = _url(db)
    from sqlalchemy.exc import SQLAlchemyError

    from parlour.server.persistence.migrations import schema

    engine = _engine(url, must_exist=True)
    try:
        found = schema.status(engine)
    except SQLAlchemyError as exc:
        raise _fail(f"cannot read the database: {exc.__class__.__name__}: {exc.orig}"
                    if hasattr(exc, "orig") else str(exc)) from None
    finally:
        engine.dispose()
    _say(escape(found.describe()))


def upgrade(db: DbOption = None) -> None:
    """Bring the database to this parlour's schema revision (back it up first).

    Upgrades any earlier revision, and a database made before revisions existed; creates a
    new database at the head.
    """
    url = _url(db)
    from parlour.server.persistence.migrations import schema

    engine = _engine(url, must_exist=False)
    try:
        before, after = schema.prepare(engine, upgrade=True, url=url)
    except schema.SchemaError as exc:
        raise _fail(str(exc), 2) from None
    finally:
        engine.dispose()
    if before.at_head:
        _say(f"already at the head revision, {after.current}: nothing to do")
    elif before.empty:
        _say(f"created a new database at revision {after.current}")
    else:
        was = "made before revisions" if before.legacy else f"revision {before.current}"
        _say(f"upgraded from {was} to revision {after.current}")


def backup(
    path: Annotated[Path, typer.Argument(help="the new backup file (never written over)")],
    db: DbOption = None,
) -> None:
    """Back the database up, even while the server runs.

    SQLite: its online backup API (one consistent snapshot). PostgreSQL: pg_dump in its
    custom format (PostgreSQL's client programs must be installed, as new as the server).
    """
    url = _url(db)
    from parlour.server.persistence.backup import BackupError
    from parlour.server.persistence.backup import backup as run_backup

    try:
        done = run_backup(url, path)
    except BackupError as exc:
        raise _fail(str(exc)) from None
    _say(f"backed up to {escape(str(done.path))} ({done.size:,} bytes, {done.kind}); "
                  "it holds every seat token: keep it private")


def restore(
    path: Annotated[Path, typer.Argument(help="a backup made by parlour db backup")],
    db: Annotated[str, typer.Option("--db", help="the EMPTY database to restore into (an "
                                    "SQLAlchemy URL or a new SQLite file)")],
) -> None:
    """Restore a backup into an empty database (a non-empty one is refused)."""
    url = _url(db)
    from parlour.server.persistence.backup import BackupError
    from parlour.server.persistence.backup import restore as run_restore
    from parlour.server.persistence.migrations.schema import shown_url

    try:
        run_restore(path, url)
    except BackupError as exc:
        raise _fail(str(exc)) from None
    _say(f"restored {escape(str(path))} into {escape(shown_url(url))}; serve it with "
                  f"parlour serve --db {escape(shown_url(url))} (add --upgrade if it says the "
                  "backup's schema is older)")


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        name="db", no_args_is_help=True,
        help="The server's database: schema revision, upgrades, backups and restores.",
    )
    group.command("current")(current)
    group.command("upgrade")(upgrade)
    group.command("backup")(backup)
    group.command("restore")(restore)
    app.add_typer(group)
