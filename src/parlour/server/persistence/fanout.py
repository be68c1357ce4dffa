"""Fan-out between server processes: PostgreSQL ``LISTEN``/``NOTIFY``, no other service.

Every transaction that stores actions also sends ``NOTIFY parlour_tables, 'TABLE:VERSION'``
(:meth:`Store.append_many`); PostgreSQL delivers it to every listening connection when the
transaction commits, so a process never hears of a move before it can read it. Each server
process keeps one listening connection (in a thread, since psycopg's ``notifies`` blocks) and
hands each payload to the event loop, where the hub catches that table up and pushes every
listener its own view. A notification lost while the connection was down is made good by the
hub's periodic catch-up and by the version check before every action; after a reconnect the
hub is asked to catch everything up at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable

from parlour.server.persistence.records import NOTIFY_CHANNEL

log = logging.getLogger("parlour.server")

RETRY_SECONDS = 1.0


class Listener:
    """Listens on the table channel; calls ``on_version(table_id, version)`` and, after each
    (re)connection, ``on_reconnect()``, both on ``loop``."""

    def __init__(
        self,
        dsn: str,
        loop: asyncio.AbstractEventLoop,
        on_version: Callable[[str, int], None],
        on_reconnect: Callable[[], None],
    ) -> None:
        self.dsn = dsn.replace("postgresql+psycopg://", "postgresql://", 1)
        self.loop = loop
        self.on_version = on_version
        self.on_reconnect = on_reconnect
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="parlour-listen", daemon=True)
        self.connected = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as connection:
                    connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.connected.set()
                    self.loop.call_soon_threadsafe(self.on_reconnect)
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5):
                            self._deliver(note.payload)
            except Exception as exc:  # the database went away: retry, then catch up
                self.connected.clear()
                if not self._stop.is_set():
                    log.warning("table notifications interrupted (%s); reconnecting", exc)
                    self._stop.wait(RETRY_SECONDS)

    def _deliver(self, payload: str) -> None:
        table_id, _, version = payload.rpartition(":")
        with contextlib.suppress(ValueError, RuntimeError):  # RuntimeError: loop closed
            self.loop.call_soon_threadsafe(self.on_version, table_id, int(version))
