"""Where the server keeps its data, and how a ``--db`` URL is read.

With no setup the server uses an SQLite file in the user's data directory (platformdirs), so
``parlour serve`` works on a fresh machine; ``--db`` takes any SQLAlchemy URL, and a plain
``postgresql://`` URL is pointed at the psycopg 3 driver.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

import platformdirs

DB_ENV = "PARLOUR_DB"
"""Environment variable read when no ``--db`` is given."""


def default_db_url() -> str:
    """``$PARLOUR_DB``, or an SQLite file in the user's data directory (created if needed)."""
    if env := os.environ.get(DB_ENV):
        return normalise_db_url(env)
    folder = Path(platformdirs.user_data_dir("parlour", appauthor=False))
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)  # our own folder: the database in it holds every seat token
    return f"sqlite:///{folder / 'parlour.db'}"


def secure_sqlite_file(url: str) -> None:
    """Create an SQLite database file readable by its owner only (0600), in a folder made 0700
    if it did not exist: the file holds every seat token and every table's secret seed.

    SQLite gives its ``-wal`` and ``-shm`` files the database file's permissions. An existing
    file is tightened to 0600; an existing folder is left as its owner made it.
    """
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url == prefix + ":memory:":
        return
    path = Path(url[len(prefix):].split("?", 1)[0])
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True)
    if path.exists():
        path.chmod(0o600)
        return
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


def normalise_db_url(url: str) -> str:
    """Accept ``postgres://``/``postgresql://`` (psycopg 3) and bare file paths (SQLite)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


class DatabaseInUse(RuntimeError):
    """Another server process already serves this SQLite file."""


def hold_sqlite_lock(url: str) -> IO[bytes] | None:
    """Hold an exclusive lock beside an SQLite database for as long as the returned file stays
    open; ``None`` for other databases.

    SQLite serves one server process: each process keeps its tables in memory, and only with
    PostgreSQL do processes tell each other about moves (LISTEN/NOTIFY). A second
    ``parlour serve`` on the same file is therefore refused at start, rather than allowed to
    accept moves its neighbour would never show.
    """
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url == prefix + ":memory:":
        return None
    secure_sqlite_file(url)  # creates the folder (0700) if need be
    path = Path(url[len(prefix):].split("?", 1)[0])
    descriptor = os.open(path.with_name(path.name + ".lock"), os.O_CREAT | os.O_WRONLY, 0o600)
    handle = os.fdopen(descriptor, "wb")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DatabaseInUse(
            f"another parlour server is already using {path}: SQLite serves one process. "
            "Stop the other one, give this one its own --db, or run several processes on "
            "PostgreSQL (--db postgresql://...)"
        ) from None
    return handle
