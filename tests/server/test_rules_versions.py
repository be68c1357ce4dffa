"""A stored table says which version of its game's rules it is played under (issue 27): one
stored under another version is never replayed by the current rules, a refusal naming both
versions instead; tables stored before versions existed read as version 1."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from parlour import load_game

from .helpers import ServerProcess, token_of


def _set_version(db: Path, table_id: str, version: int | None) -> None:
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE parlour_tables SET rules_version = ? WHERE id = ?",
                           (version, table_id))


@pytest.fixture()
def stored(tmp_path: Path) -> tuple[Path, dict]:
    """A Clobber table with one move stored, its server stopped."""
    db = tmp_path / "versions.db"
    server = ServerProcess(db).start()
    try:
        table = server.create("clobber", {"rows": 3, "columns": 4})
        with server.client(table["url"]) as me:
            assert me.act([me.wait_state()["legal"][0]["a"]], at=0)["type"] == "ack"
    finally:
        server.stop()
    with sqlite3.connect(db) as connection:
        (version,) = connection.execute("SELECT rules_version FROM parlour_tables").fetchone()
    assert version == load_game("clobber").rules_version
    return db, table


def test_a_table_stored_under_other_rules_is_refused_naming_both_versions(stored):
    db, table = stored
    current = load_game("clobber").rules_version
    _set_version(db, table["table"], current + 1)
    server = ServerProcess(db).start()
    try:
        for path in (f"/api/play/{token_of(table['url'])}", f"/api/watch/{table['table']}",
                     f"/api/watch/{table['table']}/replay"):
            refused = server.get(path)
            assert refused.status_code == 409, path
            detail = refused.json()["detail"]
            assert f"rules version {current + 1}" in detail and f"version {current}" in detail
        with server.client(table["url"]) as socket:
            message = socket.recv()
            assert message["type"] == "error" and message["code"] == "rules_version"
    finally:
        server.stop()
    with sqlite3.connect(db) as connection:  # nothing was changed
        assert connection.execute("SELECT count(*) FROM parlour_actions").fetchone() == (1,)


def test_a_table_stored_before_rules_versions_reads_as_version_one(stored):
    db, table = stored
    _set_version(db, table["table"], None)
    server = ServerProcess(db).start()
    try:
        with server.client(table["url"]) as me:
            assert me.wait_state()["version"] == 1
    finally:
        server.stop()
