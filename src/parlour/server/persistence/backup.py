"""Backups of a server's database while it serves, and their restore into an empty database.

SQLite in WAL mode cannot be copied with ``cp`` while a server writes (the file and its
``-wal`` are copied at different moments); SQLite's online backup API copies one consistent
snapshot instead: every transaction committed before the copy began, and none half. The copy
is switched to a plain rollback journal, so that the backup is one self-contained file.

PostgreSQL is backed up with ``pg_dump`` in its custom format (one consistent snapshot too,
taken without stopping anyone) and restored with ``pg_restore``; both come with PostgreSQL's
client programs (Debian: ``postgresql-client``), which must be as new as the server.

A backup holds every seat token and every table's secret seed: it is written readable by its
owner only (0600), never over an existing file. A restore goes only into an empty database,
and a refused one changes nothing.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import make_url

from parlour.server.persistence.config import secure_sqlite_file
from parlour.server.persistence.migrations.schema import VERSION_TABLE, shown_url

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
PG_CLIENT_HINT = (
    "install PostgreSQL's client programs, as new as the server (Debian: apt-get install "
    "postgresql-client), or put them on PATH"
)


class BackupError(RuntimeError):
    """A backup or restore refused, or failed: nothing was changed (a partial backup file is
    removed)."""


@dataclass(frozen=True)
class Done:
    """What a backup or restore did, for the command to print."""

    path: Path
    size: int
    kind: str
    """``sqlite`` or ``postgresql``."""


def backup(url: str, path: Path) -> Done:
    """Write a backup of the database at ``url`` to the new file ``path``."""
    path = Path(path)
    if path.exists() or path.is_symlink():
        raise BackupError(f"{path} already exists: a backup is never written over a file. "
                          "Choose a new path (nothing was changed)")
    if not path.parent.is_dir():
        raise BackupError(f"the folder {path.parent} does not exist (nothing was changed)")
    kind = _kind(url)
    if kind == "sqlite":
        source = _sqlite_path(url)
        if not source.is_file():
            raise BackupError(f"there is no database at {source}")
    else:
        program = pg_program("pg_dump")  # before any file is made
    descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    try:
        if kind == "sqlite":
            os.close(descriptor)
            _backup_sqlite(source, path)
        else:
            try:
                _pg_dump(program, url, descriptor)
            finally:
                os.close(descriptor)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return Done(path, path.stat().st_size, kind)


def restore(path: Path, url: str) -> Done:
    """Restore the backup ``path`` into the empty database at ``url``."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"there is no backup file at {path}")
    with path.open("rb") as handle:
        head = handle.read(len(SQLITE_MAGIC))
    kind = _kind(url)
    found = ("sqlite" if head.startswith(SQLITE_MAGIC)
             else "postgresql" if head.startswith(PG_DUMP_MAGIC) else None)
    if found is None:
        raise BackupError(f"{path} is not a backup made by parlour db backup (neither an SQLite "
                          "file nor a pg_dump custom-format archive); nothing was changed")
    if found != kind:
        raise BackupError(f"{path} is a backup of an {_named(found)} database: it restores "
                          f"into {_named(found)}, not into {_named(kind)} (nothing was changed)")
    _refuse_non_empty(url)
    if kind == "sqlite":
        _restore_sqlite(path, _sqlite_path(url))
    else:
        _pg_restore(path, url)
    return Done(path, path.stat().st_size, kind)


# -- SQLite ---------------------------------------------------------------------------------------
def _backup_sqlite(source: Path, path: Path) -> None:
    src = sqlite3.connect(source, timeout=30)
    dst = sqlite3.connect(path)
    try:
        src.backup(dst)  # in one step: one consistent snapshot, writers go on (WAL)
        dst.execute("PRAGMA journal_mode=DELETE")
        check = dst.execute("PRAGMA quick_check").fetchone()
        if not check or check[0] != "ok":
            raise BackupError(f"the backup's check failed ({check}); it was removed")
        names = {row[0] for row in dst.execute("SELECT name FROM sqlite_master "
                                              "WHERE type='table'")}
    finally:
        dst.close()
        src.close()
    if not names:
        raise BackupError(f"the database at {source} is empty: there is nothing to back up")


def _restore_sqlite(path: Path, target: Path) -> None:
    src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = {row[0] for row in src.execute("SELECT name FROM sqlite_master "
                                              "WHERE type='table'")}
        if VERSION_TABLE not in names and "parlour_tables" not in names:
            raise BackupError(f"{path} holds no parlour database (nothing was changed)")
        secure_sqlite_file(f"sqlite:///{target}")
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory database cannot be backed up or restored")
    return Path(database)


# -- PostgreSQL -----------------------------------------------------------------------------------
def pg_program(name: str) -> str:
    """The path of ``pg_dump`` or ``pg_restore``: on PATH, else the newest of Debian's
    ``/usr/lib/postgresql/*/bin``; :class:`BackupError` saying how to install them."""
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    found = shutil.which(name) or (versions[-1] if versions else None)
    if not found:
        raise BackupError(f"{name} was not found: {PG_CLIENT_HINT} (nothing was changed)")
    return found


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A libpq connection URL without the password, and the environment that carries it (a
    password never appears on the process list)."""
    parsed = make_url(url)
    env = dict(os.environ)
    if parsed.password is not None:
        env["PGPASSWORD"] = str(parsed.password)
    plain = parsed.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _pg_dump(program: str, url: str, descriptor: int) -> None:
    conninfo, env = _libpq(url)
    done = subprocess.run([program, "--format=custom", "--no-password", "--dbname", conninfo],
                          stdout=descriptor, stderr=subprocess.PIPE, env=env, check=False)
    if done.returncode:
        raise BackupError(f"pg_dump failed: {_said(done.stderr)}; the partial backup was "
                          "removed")


def _pg_restore(path: Path, url: str) -> None:
    program = pg_program("pg_restore")
    listed = subprocess.run([program, "--list", str(path)], capture_output=True, check=False)
    if listed.returncode or b"parlour_tables" not in listed.stdout:
        raise BackupError(f"{path} holds no parlour database (nothing was changed)")
    conninfo, env = _libpq(url)
    done = subprocess.run(
        [program, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
         "--no-password", "--dbname", conninfo, str(path)],
        capture_output=True, env=env, check=False,
    )
    if done.returncode:
        raise BackupError(f"pg_restore failed (in one transaction: nothing was restored): "
                          f"{_said(done.stderr)}")


def _said(stderr: bytes) -> str:
    lines = [line for line in stderr.decode(errors="replace").splitlines() if line.strip()]
    return " / ".join(lines[-3:]) or "no message"


# -- both -----------------------------------------------------------------------------------------
def _kind(url: str) -> str:
    name = make_url(url).get_backend_name()
    if name not in ("sqlite", "postgresql"):
        raise BackupError(f"backups are made of SQLite and PostgreSQL databases, not {name}")
    return name


def _named(kind: str) -> str:
    return "SQLite" if kind == "sqlite" else "PostgreSQL"


def _refuse_non_empty(url: str) -> None:
    if _kind(url) == "sqlite":
        target = _sqlite_path(url)
        if not target.exists():
            return
        if target.stat().st_size == 0:
            return
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            names = inspect(connection).get_table_names()
    finally:
        engine.dispose()
    if names:
        raise BackupError(f"the database {shown_url(url)} is not empty ({len(names)} tables): a "
                          "backup is restored only into an empty database. Create a new one, "
                          "or give a new SQLite file (nothing was changed)")
