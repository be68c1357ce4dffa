"""Which revision a database's schema is at, and bringing it to the head.

A server only ever runs on a database at the head revision its code knows:

- a new, empty database is created at the head (``parlour serve`` needs no setup);
- a database at an older revision, or made before migrations (it has parlour's tables and no
  ``alembic_version``), is upgraded only when asked (``parlour db upgrade``, or ``parlour serve
  --upgrade``): an upgrade changes the file for good, so the operator chooses when, after a
  backup;
- a database at a revision this code does not know (upgraded by a newer parlour) is refused.

The revisions run in one transaction under a lock (PostgreSQL: an advisory lock), so that
several processes starting on one new database create it once, and an upgrade that fails
half-way changes nothing (PostgreSQL's DDL is transactional; on SQLite each batch step copies
a table inside the transaction).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import SQLAlchemyError

HERE = Path(__file__).parent
VERSION_TABLE = "alembic_version"
LOCK_KEY = zlib.crc32(b"parlour schema")
"""The PostgreSQL advisory lock held while a schema is read and changed."""
OURS = "parlour_"
"""Every table of parlour's starts with this (the test of a database made before migrations)."""


class SchemaError(RuntimeError):
    """The database is not at the schema this code serves, and nothing was changed."""


@dataclass(frozen=True)
class Status:
    """Where a database's schema stands against this code's revisions."""

    current: str | None
    """The revision stored in ``alembic_version`` (``None``: none stored)."""
    head: str
    tables: int
    """How many tables the database holds (0: new, empty)."""
    legacy: bool
    """Made before migrations: parlour's tables, no revision stored."""
    known: bool
    """The stored revision is one of this code's (``False`` for an unknown or newer one)."""

    @property
    def empty(self) -> bool:
        return self.tables == 0

    @property
    def at_head(self) -> bool:
        return self.current == self.head

    def describe(self) -> str:
        """One line for ``parlour db current``."""
        if self.empty:
            return f"empty (a server or `parlour db upgrade` creates it at {self.head})"
        if self.legacy:
            return "made before migrations (no revision stored): run `parlour db upgrade`"
        if self.current is None:
            return "not a parlour database (it holds other tables and no revision)"
        if not self.known:
            return f"{self.current}, unknown to this parlour (a newer one upgraded it)"
        if self.at_head:
            return f"{self.current} (head)"
        return f"{self.current} (head is {self.head}: run `parlour db upgrade`)"


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, without an ``alembic.ini``: the revisions shipped in this
    package, run on ``connection``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision this code knows."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def status_of(connection: Connection) -> Status:
    names = [n for n in inspect(connection).get_table_names() if n != VERSION_TABLE]
    current = MigrationContext.configure(connection).get_current_revision()
    script = ScriptDirectory.from_config(config())
    known = False
    if current is not None:
        try:
            known = script.get_revision(current) is not None
        except CommandError:
            known = False
    return Status(
        current=current,
        head=head(),
        tables=len(names),
        legacy=current is None and any(n.startswith(OURS) for n in names),
        known=known,
    )


def status(engine: Engine) -> Status:
    """Where ``engine``'s database stands (reads only)."""
    with engine.connect() as connection:
        return status_of(connection)


def _lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    elif connection.dialect.name == "sqlite":
        # the write lock at once, and the DDL inside the transaction (Python's sqlite3 would
        # otherwise begin one only before the first INSERT, UPDATE or DELETE)
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def refusal(found: Status, url: str | None = None) -> str | None:
    """Why a server may not start on a database in this state without upgrading it (``None``:
    it may); ``url`` is named in the command to run."""
    where = f" --db {shown_url(url)}" if url else ""
    if found.empty or found.at_head:
        return None
    if found.current is None and not found.legacy:
        return ("the database holds tables that are not parlour's and no schema revision: "
                "give parlour a database of its own (--db)")
    if found.current is not None and not found.known:
        return (f"the database is at schema revision {found.current}, which this parlour "
                f"(head {found.head}) does not know: a newer parlour upgraded it. Run that "
                "newer version, or restore a backup made before the upgrade "
                f"(`parlour db restore PATH{where}` into an empty database)")
    was = ("made before schema revisions existed" if found.legacy
           else f"at schema revision {found.current}")
    return (f"the database is {was}, older than this parlour's (head {found.head}). Back it "
            f"up (`parlour db backup PATH{where}`), then upgrade it with `parlour db upgrade"
            f"{where}`, or start the server with `parlour serve --upgrade{where}`")


def prepare(engine: Engine, *, upgrade: bool = False,
            url: str | None = None) -> tuple[Status, Status]:
    """Make ``engine``'s database ready to serve: create a new one at the head, upgrade an
    older one if ``upgrade``, else raise :class:`SchemaError` (changing nothing; ``url`` is
    named in its message). Returns the status before and after."""
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        keys = sqlite and bool(connection.exec_driver_sql("PRAGMA foreign_keys").scalar())
        if keys:  # batch mode copies and drops tables others refer to: checked at the end
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        if sqlite:
            connection.commit()  # (the pragmas are outside any transaction)
        try:
            with connection.begin():
                _lock(connection)
                before = status_of(connection)
                if before.at_head:
                    return before, before
                problem = refusal(before, url)
                if problem is not None and not (upgrade and (before.known or before.legacy)):
                    raise SchemaError(problem)
                command.upgrade(config(connection), "head")
                if sqlite and (broken := connection.exec_driver_sql(
                        "PRAGMA foreign_key_check").fetchall()):
                    raise SchemaError(f"the upgrade would break {len(broken)} references "
                                      "between rows: nothing was changed")
                after = status_of(connection)
        finally:
            if keys:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()
    return before, after


def refusal_for_serving(url: str, *, upgrade: bool) -> str | None:
    """Why ``parlour serve`` may not start on the database at ``url`` (``None``: it may), read
    before the server starts so that the operator reads one clear line, not a traceback.
    With ``upgrade`` only an unknown revision or a foreign database is refused."""
    from sqlalchemy import create_engine

    prefix = "sqlite:///"
    if url.startswith(prefix) and not Path(url[len(prefix):].split("?", 1)[0]).exists():
        return None  # a new file: created at the head
    engine = create_engine(url)
    try:
        found = status(engine)
    except SQLAlchemyError:  # unreachable, a wrong password...: the server says it as before
        return None
    finally:
        engine.dispose()
    problem = refusal(found, url)
    if problem is None or (upgrade and (found.known or found.legacy)):
        return None
    return problem


def shown_url(url: str | None) -> str:
    """A database URL as it may be printed: without its password."""
    if not url:
        return ""
    from sqlalchemy.engine import make_url

    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: show only where it points
        shown = url.split("@")[-1]
    return shown.removeprefix("sqlite:///") if shown.startswith("sqlite:///") else shown

