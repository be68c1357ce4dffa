"""Where the server keeps its data, and how a ``--db`` URL is read.

With no setup the server uses an SQLite file in the user's data directory (platformdirs), so
``parlour serve`` works on a fresh machine; ``--db`` takes any SQLAlchemy URL, and a plain
``postgresql://`` URL is pointed at the psycopg 3 driver.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

DB_ENV = "PARLOUR_DB"
"""Environment variable read when no ``--db`` is given."""


def default_db_url() -> str:
    """``$PARLOUR_DB``, or an SQLite file in the user's data directory (created if needed)."""
    if env := os.environ.get(DB_ENV):
        return normalise_db_url(env)
    folder = Path(platformdirs.user_data_dir("parlour", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'parlour.db'}"


def normalise_db_url(url: str) -> str:
    """Accept ``postgres://``/``postgresql://`` (psycopg 3) and bare file paths (SQLite)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url
