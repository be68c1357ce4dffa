"""Schema revisions (issue 64): a database made before migrations is recognised, upgraded with
nothing lost and served as before by a real ``parlour serve``; an older file missing columns
gains them; an unknown (newer) revision is refused; and the revisions build exactly the
models' schema on SQLite and on PostgreSQL (no drift).

The database from before migrations is ``tests/fixtures/before-migrations.db``, made once by
``tests/fixtures/make_old_db.py`` against the last commit before migrations, with what that
server served from it in ``before-migrations.json``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine

from parlour.server.persistence.devdb import throwaway_cluster
from parlour.server.persistence.migrations import schema
from parlour.server.persistence.migrations.baseline import metadata as baseline
from parlour.server.persistence.migrations.models import drift
from parlour.server.persistence.store import Store
from tests.fixtures.make_old_db import served

from .helpers import TIMEOUT, ServerProcess

FIXTURES = Path(__file__).parent.parent / "fixtures"
OLD_DB = FIXTURES / "before-migrations.db"
OLD_SERVED = json.loads((FIXTURES / "before-migrations.json").read_text())


def keeps(new: Any, old: Any) -> bool:
    """``new`` holds everything ``old`` held, unchanged: every field the old server sent has
    the same value now (a field added to an answer since, such as a tournament's ``settings``,
    is not a loss)."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and keeps(new[k], v) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(new) == len(old) and all(
            keeps(n, o) for n, o in zip(new, old, strict=True))
    return bool(new == old)


def parlour_db(*args: str) -> subprocess.CompletedProcess[str]:
    """The ``parlour db`` command, as an operator types it."""
    return subprocess.run([sys.executable, "-c", "from parlour.cli import main; main()", "db",
                           *args], capture_output=True, text=True, timeout=120)


def rows(path: Path) -> dict[str, set[tuple]]:
    """Every row of every parlour table in an SQLite file."""
    with sqlite3.connect(path) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
                 if n.startswith("parlour_")]
        return {n: set(db.execute(f'SELECT * FROM "{n}"').fetchall()) for n in names}


def fingerprint(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def old_copy(folder: Path, name: str = "old.db") -> Path:
    path = folder / name
    shutil.copyfile(OLD_DB, path)
    return path


def test_a_database_from_before_migrations_is_refused_upgraded_and_served(tmp_path: Path):
    path = old_copy(tmp_path)
    before = rows(path)
    assert before["parlour_tables"] and before["parlour_accounts"] and before["parlour_chat"]
    unchanged = fingerprint(path)
    current = parlour_db("current", "--db", str(path))
    assert current.returncode == 0 and "made before migrations" in current.stdout

    with pytest.raises(RuntimeError) as refused:
        ServerProcess(path).start()
    said = str(refused.value)
    assert "made before schema revisions existed" in said
    assert f"parlour db upgrade --db {path}" in said and "parlour serve --upgrade" in said
    assert fingerprint(path) == unchanged  # the refusal changed nothing

    upgraded = parlour_db("upgrade", "--db", str(path))
    assert upgraded.returncode == 0, upgraded.stderr
    assert f"upgraded from made before revisions to revision {schema.head()}" in upgraded.stdout
    assert parlour_db("current", "--db", str(path)).stdout.strip() == f"{schema.head()} (head)"
    after = rows(path)
    for table, kept in before.items():
        assert kept <= after[table], f"rows of {table} lost"
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (schema.head(),)]
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        assert drift(connection) == []  # exactly the models' schema now
    engine.dispose()

    server = ServerProcess(path).start()  # at the head: no --upgrade needed
    try:
        facts = OLD_SERVED["facts"]
        assert keeps(served(server, facts), OLD_SERVED["served"])
        for name in facts["users"]:
            signed = httpx.post(f"{server.base}/api/session", timeout=TIMEOUT,
                                json={"username": name, "password": facts["password"]})
            assert signed.status_code == 200, signed.text
        token = facts["chat"]["seat_token"]
        assert server.get(f"/api/play/{token}").status_code == 200  # its seat link still plays
    finally:
        server.stop()


def test_serve_upgrade_upgrades_a_database_from_before_migrations(tmp_path: Path):
    path = old_copy(tmp_path)
    server = ServerProcess(path, extra_args=("--upgrade",)).start()
    try:
        facts = OLD_SERVED["facts"]
        table = facts["tables"][0]
        assert server.get(f"/api/watch/{table}/replay").status_code == 200
    finally:
        server.stop()
    assert parlour_db("current", "--db", str(path)).stdout.strip() == f"{schema.head()} (head)"


# columns added after the first releases, as an older file lacks them (all nullable)
LATER_COLUMNS = {
    "parlour_tables": ["unrated", "rated", "rules_version", "archived", "clock",
                       "updated_at"],
    "parlour_seats": ["bot", "name"],
    "parlour_accounts": ["language", "notify_email"],
}
LATER_INDEXES = {"ix_parlour_tables_deadline_at": ("parlour_tables", "deadline_at")}


def test_an_older_file_gains_the_columns_and_indexes_it_lacks_and_keeps_its_rows(
        tmp_path: Path):
    path = old_copy(tmp_path)
    with sqlite3.connect(path) as db:  # the file as an older server left it
        for index, (table, column) in LATER_INDEXES.items():
            db.execute(f"DROP INDEX {index}")
            db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        for table, columns in LATER_COLUMNS.items():
            for column in columns:
                db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    before = rows(path)
    upgraded = parlour_db("upgrade", "--db", str(path))
    assert upgraded.returncode == 0, upgraded.stderr
    with sqlite3.connect(path) as db:
        for table, columns in {**LATER_COLUMNS, "parlour_tables": [
                *LATER_COLUMNS["parlour_tables"], "deadline_at"]}.items():
            present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            assert set(columns) <= present
        indexes = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE "
                                            "type='index'")}
        assert set(LATER_INDEXES) <= indexes
        # every row kept, the new columns empty (NULL)
        ids = {r[0] for r in before["parlour_tables"]}
        assert {r for (r,) in db.execute("SELECT id FROM parlour_tables")} == ids
        assert db.execute("SELECT count(*) FROM parlour_tables WHERE rules_version IS NOT "
                          "NULL").fetchone() == (0,)
        for table in ("parlour_actions", "parlour_chat", "parlour_ratings",
                      "parlour_tournaments", "parlour_puzzle_attempts"):
            assert set(db.execute(f"SELECT * FROM {table}").fetchall()) == before[table]
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as connection:
        assert drift(connection) == []
    engine.dispose()
    server = ServerProcess(path).start()
    try:
        for table in OLD_SERVED["facts"]["tables"]:
            replay = server.get(f"/api/watch/{table}/replay")
            assert replay.status_code == 200, replay.text
            assert len(replay.json()["steps"]) == OLD_SERVED["served"]["tables"][table]["steps"]
    finally:
        server.stop()


def test_an_unknown_revision_is_refused_and_left_alone(tmp_path: Path):
    path = tmp_path / "newer.db"
    Store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = 'f00dcafe'")
        db.commit()
        db.execute("PRAGMA journal_mode=DELETE")  # all in the one file, to fingerprint it
    unchanged = fingerprint(path)
    with pytest.raises(RuntimeError) as refused:
        ServerProcess(path, extra_args=("--upgrade",)).start()
    assert "schema revision f00dcafe, which this parlour" in str(refused.value)
    assert "a newer parlour upgraded it" in str(refused.value)
    upgrade = parlour_db("upgrade", "--db", str(path))
    assert upgrade.returncode == 2 and "f00dcafe" in upgrade.stderr
    assert "unknown to this parlour" in parlour_db("current", "--db", str(path)).stdout
    assert fingerprint(path) == unchanged


def test_a_new_database_is_created_at_the_head_by_the_quickstart(tmp_path: Path):
    path = tmp_path / "fresh" / "parlour.db"
    server = ServerProcess(path, log_path=tmp_path / "serve.log", command=(
        "-c", "from parlour.cli import main; main()", "serve")).start()
    server.stop()
    assert parlour_db("current", "--db", str(path)).stdout.strip() == f"{schema.head()} (head)"
    missing = parlour_db("current", "--db", str(tmp_path / "none.db"))
    assert missing.returncode == 1 and "there is no database" in missing.stderr
    assert not (tmp_path / "none.db").exists()


def test_the_baseline_is_frozen_apart_from_the_models():
    """Revision 0001's schema is its own copy: it holds today's tables (the models may only
    grow from it through revisions)."""
    from parlour.server.persistence.migrations.models import metadata

    assert set(baseline.tables) <= set(metadata().tables)
    assert baseline is not metadata()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with throwaway_cluster() as url:
        yield url


def test_the_revisions_build_the_models_schema_on_sqlite(tmp_path: Path):
    engine = create_engine(f"sqlite:///{tmp_path / 'new.db'}")
    before, after = schema.prepare(engine)
    assert before.empty and after.at_head
    with engine.connect() as connection:
        assert drift(connection) == []
    engine.dispose()


def test_the_revisions_build_the_models_schema_on_postgres(postgres_url: str):
    from parlour.server.persistence.config import normalise_db_url

    engine = create_engine(normalise_db_url(postgres_url))
    before, after = schema.prepare(engine)
    assert before.empty and after.at_head and after.current == schema.head()
    with engine.connect() as connection:
        assert drift(connection) == []
    again = schema.prepare(engine)  # a second start finds it at the head
    assert again[0].at_head
    engine.dispose()


LATER_REVISION = '''
"""A later change, as the next revision would make it: a NOT NULL column added in batch
mode to the table every other one refers to (SQLite copies it, drops the old one, renames)."""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.add_column(sa.Column("hidden", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("parlour_tables") as batch:
        batch.drop_column("hidden")
'''


def test_an_older_revision_is_upgraded_only_when_asked(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    """A database at 0001 when the code's head is a later revision (here one written for the
    test, beside a copy of the shipped ones): refused, then upgraded in batch mode with its
    rows kept."""
    path = old_copy(tmp_path)
    engine = create_engine(f"sqlite:///{path}")
    schema.prepare(engine, upgrade=True)  # from before migrations to 0001
    kept = rows(path)
    folder = tmp_path / "migrations"
    shutil.copytree(schema.HERE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "versions" / "0002_later.py").write_text(LATER_REVISION)
    monkeypatch.setattr(schema, "HERE", folder)
    found = schema.status(engine)
    assert (found.current, found.head, found.known) == ("0001", "0002", True)
    with pytest.raises(schema.SchemaError, match="at schema revision 0001, older than this "
                       r"parlour's \(head 0002\).*parlour db upgrade"):
        Store(f"sqlite:///{path}")
    assert schema.status(engine).current == "0001"  # refused: nothing changed
    engine.dispose()
    store = Store(f"sqlite:///{path}", upgrade=True)  # the server's engine: foreign keys on
    try:
        assert schema.status(store.engine).current == "0002"
        with store.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        store.close()
    after = rows(path)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM parlour_tables WHERE hidden = 0").fetchone() == (
            len(kept["parlour_tables"]),)
    assert {r[:-1] for r in after["parlour_tables"]} == kept["parlour_tables"]
    for table in ("parlour_seats", "parlour_actions", "parlour_chat", "parlour_hands"):
        assert after[table] == kept[table]
