"""A throwaway PostgreSQL cluster on 127.0.0.1, for the tests and benchmarks that need a real
PostgreSQL (several ``parlour serve`` processes on one database).

It uses Debian's ``postgresql`` package (``initdb``, ``pg_ctl``, ``createdb``), started as the
``postgres`` user when run as root (PostgreSQL refuses to run as root), in a fresh folder that
is removed afterwards. Nothing here is used by ``parlour serve`` itself.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def pg_bin(name: str) -> str:
    """The path of a PostgreSQL program (newest installed version first)."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    path = found[-1] if found else shutil.which(name)
    if not path:
        raise RuntimeError(f"PostgreSQL's {name} is needed: apt-get install postgresql")
    return path


def _as_postgres(command: list[str]) -> list[str]:
    """initdb and postgres refuse to run as root: run them as the 'postgres' user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def throwaway_cluster(max_connections: int = 200) -> Iterator[str]:
    """Start a cluster, create database ``parlour``, yield its URL; stop and delete it after."""
    # not under a private tmp folder: the cluster runs as the 'postgres' user
    folder = Path(tempfile.mkdtemp(prefix="parlour-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    port = _free_port()
    subprocess.run(_as_postgres([pg_bin("initdb"), "-D", str(data), "-U", "postgres",
                                 "--auth=trust", "--no-sync"]),
                   check=True, capture_output=True)
    subprocess.run(_as_postgres([
        pg_bin("pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "start",
        "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=on "
        f"-c max_connections={max_connections}",
    ]), check=True, capture_output=True)
    try:
        subprocess.run([pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U",
                        "postgres", "parlour"], check=True, capture_output=True)
        yield f"postgresql://postgres@127.0.0.1:{port}/parlour"
    finally:
        subprocess.run(_as_postgres([pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate",
                                     "stop"]), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
