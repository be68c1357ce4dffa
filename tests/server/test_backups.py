"""Backups while the server plays, and restores into a fresh server (issue 64).

A player keeps moving at several tables while ``parlour db backup`` runs; the backup is
restored into an empty database and a new server on it serves every move acknowledged before
the backup began, the replays, the accounts (sign-in) and the ratings. On SQLite (the online
backup API) and on PostgreSQL (pg_dump, pg_restore). What the commands refuse changes nothing.
"""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from parlour.server.persistence.devdb import pg_bin, throwaway_cluster

from .helpers import PASSWORD, TIMEOUT, ServerProcess, account, play_out, play_turn

BOARD = {"rows": 6, "columns": 6}


def parlour_db(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from parlour.cli import main; main()", "db",
                           *args], capture_output=True, text=True, timeout=300)


class Player(threading.Thread):
    """Plays tables one after the other, both seats, until told to stop; counts, per table,
    the turns the server acknowledged."""

    def __init__(self, server: ServerProcess) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.acked: dict[str, int] = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.error: BaseException | None = None
        self.rng = random.Random(1)

    def snapshot(self) -> dict[str, int]:
        with self.lock:
            return dict(self.acked)

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                self._table()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _table(self) -> None:
        table = self.server.create("clobber", BOARD)
        clients = [self.server.client(table["url"]), self.server.client(
            table["invites"][0]["url"])]
        try:
            message = clients[0].wait_state()
            while not message.get("terminal") and not self.stopping.is_set():
                mover = clients[message["to_act"]]
                seen = mover.wait_state(lambda m, v=message["version"]: m["version"] >= v)
                reply = play_turn(mover, seen, self.rng.choice)
                assert reply["type"] == "ack", reply
                with self.lock:
                    self.acked[table["table"]] = self.acked.get(table["table"], 0) + 1
                message = clients[0].wait_state(lambda m, v=seen["version"]: m["version"] > v)
        finally:
            for client in clients:
                client.close()


def rated_game(server: ServerProcess, names: tuple[str, str]) -> str:
    white, black = (account(server, name) for name in names)
    made = white.post("/api/tables", json={"game": "clobber", "params": {"size": "3x4"},
                                           "open": True, "rated": True,
                                           "clock": {"per_move": 600}}).json()
    link = black.post(f"/api/tables/{made['table']}/seats/1").json()["url"]
    clients = [server.client(made["url"]), server.client(link)]
    try:
        assert play_out(clients, random.Random(3).choice)["terminal"]
    finally:
        for client in clients:
            client.close()
    return made["table"]


def backup_during_play(server: ServerProcess, path: Path, db: str) -> tuple[
        dict[str, int], dict[str, list], dict[str, dict]]:
    """Rated game first, then backup while a player moves; returns the turns acknowledged
    before the backup began, every table's replay at the end, and the players' profiles."""
    names = (f"bk-{path.stem}-w", f"bk-{path.stem}-b")
    rated = rated_game(server, names)
    player = Player(server)
    player.start()
    try:
        while sum(player.snapshot().values()) < 20 and player.error is None:
            player.join(0.05)  # until twenty turns are stored (no fixed wait)
        acked = player.snapshot()
        made = parlour_db("backup", str(path), "--db", db)
        assert made.returncode == 0, made.stderr
        assert "backed up to" in made.stdout
        after = sum(player.snapshot().values())
    finally:
        player.stopping.set()
        player.join(TIMEOUT)
    assert player.error is None, repr(player.error)
    assert after >= sum(acked.values())
    replays = {t: server.get(f"/api/watch/{t}/replay").json()["steps"]
               for t in [*player.snapshot(), rated]}
    profiles = {n: server.get(f"/api/players/{n}").json() for n in names}
    acked[rated] = len(replays[rated])
    return acked, replays, profiles


def check_restored(restored: ServerProcess, acked: dict[str, int], replays: dict[str, list],
                   profiles: dict[str, dict]) -> None:
    for table, turns in acked.items():
        replay = restored.get(f"/api/watch/{table}/replay")
        assert replay.status_code == 200, replay.text
        steps = replay.json()["steps"]
        assert len(steps) >= turns, f"{table}: {len(steps)} of {turns} acknowledged turns"
        assert steps == replays[table][:len(steps)]  # what the live server played, in order
    for name, profile in profiles.items():
        assert restored.get(f"/api/players/{name}").json() == profile  # ratings, games
        signed = httpx.post(f"{restored.base}/api/session", timeout=TIMEOUT,
                            json={"username": name, "password": PASSWORD})
        assert signed.status_code == 200, signed.text


def test_a_backup_during_play_restores_into_a_fresh_server_on_sqlite(tmp_path: Path):
    live = tmp_path / "live.db"
    server = ServerProcess(live).start()
    backup = tmp_path / "backup.db"
    try:
        acked, replays, profiles = backup_during_play(server, backup, str(live))
        again = parlour_db("backup", str(backup), "--db", str(live))
        assert again.returncode == 1 and "already exists" in again.stderr
    finally:
        server.stop()
    assert backup.stat().st_mode & 0o777 == 0o600  # it holds every seat token
    unchanged = hashlib.sha256(backup.read_bytes()).hexdigest()
    into_live = parlour_db("restore", str(backup), "--db", str(live))
    assert into_live.returncode == 1 and "is not empty" in into_live.stderr
    not_one = tmp_path / "notes.txt"
    not_one.write_text("hello")
    refused = parlour_db("restore", str(not_one), "--db", str(tmp_path / "x.db"))
    assert refused.returncode == 1 and "is not a backup" in refused.stderr
    assert not (tmp_path / "x.db").exists()
    fresh = tmp_path / "restored" / "parlour.db"
    done = parlour_db("restore", str(backup), "--db", str(fresh))
    assert done.returncode == 0, done.stderr
    assert hashlib.sha256(backup.read_bytes()).hexdigest() == unchanged
    restored = ServerProcess(fresh, log_path=tmp_path / "restored.log").start()
    try:
        check_restored(restored, acked, replays, profiles)
    finally:
        restored.stop()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with throwaway_cluster() as url:
        yield url


def test_a_backup_during_play_restores_into_a_fresh_server_on_postgres(
        postgres_url: str, tmp_path: Path):
    server = ServerProcess(tmp_path / "pg.db", db_url=postgres_url).start()
    backup = tmp_path / "backup.pgdump"
    try:
        acked, replays, profiles = backup_during_play(server, backup, postgres_url)
    finally:
        server.stop()
    assert backup.read_bytes()[:5] == b"PGDMP"
    into_live = parlour_db("restore", str(backup), "--db", postgres_url)
    assert into_live.returncode == 1 and "is not empty" in into_live.stderr
    into_sqlite = parlour_db("restore", str(backup), "--db", str(tmp_path / "x.db"))
    assert into_sqlite.returncode == 1 and "restores into PostgreSQL" in into_sqlite.stderr
    host, port = postgres_url.rsplit("@", 1)[1].split("/")[0].split(":")
    subprocess.run([pg_bin("createdb"), "-h", host, "-p", port, "-U", "postgres", "restored"],
                   check=True, capture_output=True)
    target = postgres_url.rsplit("/", 1)[0] + "/restored"
    done = parlour_db("restore", str(backup), "--db", target)
    assert done.returncode == 0, done.stderr
    restored = ServerProcess(tmp_path / "restored.db", db_url=target).start()
    try:
        check_restored(restored, acked, replays, profiles)
    finally:
        restored.stop()


def test_a_missing_pg_dump_is_said_and_changes_nothing(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path):
    """Without PostgreSQL's client programs (none on PATH nor in Debian's folders) the backup
    says what to install, and no file is made."""
    from parlour.server.persistence import backup

    monkeypatch.setattr(backup.shutil, "which", lambda name: None)
    monkeypatch.setattr(backup.glob, "glob", lambda pattern: [])
    path = tmp_path / "b.pgdump"
    with pytest.raises(backup.BackupError, match=r"pg_dump was not found: install PostgreSQL's "
                       r"client programs.*apt-get install postgresql-client"):
        backup.backup("postgresql+psycopg://parlour@127.0.0.1:1/parlour", path)
    assert not path.exists()
    with pytest.raises(backup.BackupError, match="there is no database at"):
        backup.backup(f"sqlite:///{tmp_path / 'none.db'}", path)
    assert not path.exists() and not (tmp_path / "none.db").exists()
