"""The same guarantees on PostgreSQL (``--db postgresql://...``, driver psycopg 3).

The test starts a throwaway PostgreSQL cluster of its own (Debian's ``postgresql`` package
provides ``initdb`` and ``pg_ctl``; the cluster lives in a temporary folder, listens on
127.0.0.1 only, and is stopped afterwards), then runs a real server process against it:
a game over websockets, a resend, the database refusing a second action for one move, and a
SIGKILL with the table resumed from PostgreSQL.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from parlour.server.store import ActionData, ConflictError, Store

from .helpers import ServerProcess, free_port


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name)]
    assert found[-1], (
        f"PostgreSQL's {name} is needed for this test: apt-get install postgresql"
    )
    return found[-1]


def _as_postgres(command: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as the 'postgres' user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    # not under pytest's tmp folder: that one is private to root, and the cluster runs as
    # the 'postgres' user
    folder = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    port = free_port()
    subprocess.run(_as_postgres([_pg_bin("initdb"), "-D", str(data), "-U", "postgres",
                                 "--auth=trust", "--no-sync"]),
                   check=True, capture_output=True)
    subprocess.run(_as_postgres([
        _pg_bin("pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "start",
        "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=on",
    ]), check=True, capture_output=True)
    try:
        subprocess.run([_pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U",
                        "postgres", "parlour"], check=True, capture_output=True)
        yield f"postgresql://postgres@127.0.0.1:{port}/parlour"
    finally:
        subprocess.run(_as_postgres([_pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate",
                                     "stop"]), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


class PostgresServer(ServerProcess):
    def __init__(self, url: str, folder: Path) -> None:
        super().__init__(folder / "pg-server.db")
        self.url = url

    def start(self) -> PostgresServer:
        # same as ServerProcess.start, with the PostgreSQL URL as --db
        command = [sys.executable, "-m", "parlour.server", "--port", str(self.port),
                   "--db", self.url, "--no-open", "--ai", "thread", "--ai-delay", "0"]
        self.log = self.log_path.open("ab")
        self.proc = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            assert self.proc.poll() is None, self.log_path.read_text()[-2000:]
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.1)


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
