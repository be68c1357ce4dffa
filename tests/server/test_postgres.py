"""The same guarantees on PostgreSQL (``--db postgresql://...``, driver psycopg 3).

The test starts a throwaway PostgreSQL cluster of its own (Debian's ``postgresql`` package
provides ``initdb`` and ``pg_ctl``; the cluster lives in a temporary folder, listens on
127.0.0.1 only, and is stopped afterwards), then runs a real server process against it:
a game over websockets, a resend, the database refusing a second action for one move, and a
SIGKILL with the table resumed from PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parlour.server.persistence.devdb import throwaway_cluster
from parlour.server.persistence.records import ActionData, ConflictError
from parlour.server.persistence.store import Store

from .helpers import ServerProcess


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with throwaway_cluster() as url:
        yield url


class PostgresServer(ServerProcess):
    """A server process on the PostgreSQL database at ``url`` (its log file in ``folder``)."""

    def __init__(self, url: str, folder: Path, **options: Any) -> None:
        super().__init__(folder / "pg-server.db", db_url=url, **options)


def test_postgres_play_resend_conflict_and_sigkill(postgres_url: str, tmp_path: Path):
    server = PostgresServer(postgres_url, tmp_path).start()
    try:
        table = server.create("clobber", {"rows": 3, "columns": 4},
                              seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
        with server.client(table["url"]) as me:
            message = me.wait_state()
            first = me.act([message["legal"][0]["a"]], client_id="pg-1", at=0)
            assert first["type"] == "ack"
            assert me.act([message["legal"][0]["a"]], client_id="pg-1", at=0)["duplicate"]
            message = me.wait_state(lambda m: m["version"] == 2)  # the AI answered
            last = me.act([message["legal"][0]["a"]], client_id="pg-2", at=2)
            assert last["type"] == "ack"
        server.kill()
    finally:
        server.stop()
    store = Store(postgres_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        stored = store.load(table["table"])
        assert stored is not None and len(stored.actions) >= 3
        with pytest.raises(ConflictError):  # the move number is taken: refused by PostgreSQL
            store.append(table["table"], [ActionData(0, 5, 0, None)], finished=False)
    finally:
        store.close()
    again = PostgresServer(postgres_url, tmp_path).start()
    try:
        with again.client(table["url"]) as me:
            resumed = me.wait_state(lambda m: m["version"] >= 4)  # the AI moved after restart
            assert [n["text"] for n in resumed["log"]][:1] == [message["log"][0]["text"]]
            assert me.act([0], client_id="pg-2", at=2)["duplicate"]
    finally:
        again.stop()
