"""Several server processes on one database (PostgreSQL): hearing of each other's moves,
catching tables up, and claiming work that must happen exactly once.

Each process keeps its loaded tables in memory; the database is the truth. A process hears of
another's stored actions and events through ``LISTEN``/``NOTIFY``
(:mod:`~parlour.server.persistence.fanout`) and catches the table up before it answers or
changes anything (every unit of work begins so, :mod:`~parlour.server.tables.unit`); a periodic
check makes good a notification lost while the listening connection was down. A computer move
or a pending chance event is claimed in the database
(:meth:`Store.claim`) by one process, renewed while the work goes on, so that a process killed
mid-turn loses its claim within ``CLAIM_TTL`` and a janitor in another process takes the work
over. With SQLite (one process) all of this is idle: the claim is always ours.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time

from parlour.core import RulesVersionError
from parlour.server.periodic import every
from parlour.server.persistence.fanout import Listener
from parlour.server.persistence.store import Store
from parlour.server.tables.events import HISTORY_CHANGES
from parlour.server.tables.registry import Registry
from parlour.server.tables.replay import replay_into
from parlour.server.tables.table import Table
from parlour.server.tables.unit import Spawn, TableWork

log = logging.getLogger("parlour.server")

CLAIM_TTL = 3.0
"""Seconds a process's claim on a table's next computer move lasts unless renewed (it is
renewed every second while the work goes on): a process killed mid-turn loses it this soon."""
JANITOR_SECONDS = 2.0
"""How often each process (PostgreSQL) looks for work a dead process left unclaimed."""
CATCH_UP_SECONDS = 5.0
"""How often each process (PostgreSQL) checks its watched tables against the database, in
case a notification was lost."""


class Cluster:
    """This process among the others that share the database."""

    def __init__(self, store: Store, registry: Registry, spawn: Spawn) -> None:
        self.store = store
        self.registry = registry
        self.spawn = spawn
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        """This process, as its claims name it."""
        self.listener: Listener | None = None
        self.refresh: TableWork | None = None
        """Catch a table up and tell its listeners (a unit of work; set by the hub)."""
        self.settle: TableWork | None = None
        """Make a table's waiting work go on (a chance event, a computer; set by the hub)."""

    def start(self) -> None:
        """Listen for other processes' moves, look for work a dead process left unclaimed,
        and check watched tables now and then (a shared database only)."""
        if not self.store.shared:
            return
        loop = asyncio.get_running_loop()
        self.listener = Listener(self.store.url, loop, self._on_version, self._on_reconnect)
        self.listener.start()
        self.spawn(every(JANITOR_SECONDS, self._take_over, "looking for unclaimed work"))
        self.spawn(every(CATCH_UP_SECONDS, self._catch_up, "periodic catch-up"))

    async def stop(self) -> None:
        if self.listener is not None:
            await asyncio.to_thread(self.listener.stop)

    @property
    def listening(self) -> bool:
        """Whether this process hears of other processes' moves (always, alone)."""
        return self.listener is None or self.listener.connected.is_set()

    # -- catching up ---------------------------------------------------------------------------
    async def catch_up(self, table: Table) -> bool:
        """Apply the actions and events other processes stored since this copy was made (with
        the table's lock held); ``True`` if the table changed."""
        if not self.store.shared:
            return False
        rows = await self.store.run(self.store.actions_since, table.id, table.version)
        events = await self.store.run(self.store.events_since, table.id, len(table.events))
        if not rows and not events:
            return False
        if any(e.kind in HISTORY_CHANGES for e in events):
            fresh = await self.registry.fresh(table)
            if fresh is not None:  # the history itself changed: rebuild from the database
                self.registry.replace(table, fresh)
                return True
        replay_into(table, rows, events)
        table.last_active = time.monotonic()
        if table.over and table.rematch_id is None:
            held = await self.store.run(self.store.rematch_of, table.id)
            if held:
                await self.registry.link_rematch(table, held)
        return True

    def _refresh_soon(self, table: Table) -> None:
        if self.refresh is not None:
            self.spawn(self.refresh(table))

    def _on_version(self, table_id: str, version: int) -> None:
        table = self.registry.tables.get(table_id)
        # a negative version announces a table event (a seat taken, a time-out, an undo)
        if table is not None and (version > table.version or version < 0):
            self._refresh_soon(table)

    def _on_reconnect(self) -> None:
        for table in list(self.registry.tables.values()):
            self._refresh_soon(table)

    async def _catch_up(self) -> None:
        watched = {t.id: t for t in self.registry.tables.values() if t.connections}
        versions = await self.store.run(self.store.versions, list(watched))
        events = await self.store.run(self.store.event_counts, list(watched))
        for table_id, table in watched.items():
            if (versions.get(table_id, 0) > table.version
                    or events.get(table_id, 0) > len(table.events)):
                self._refresh_soon(table)

    # -- exactly-once work -----------------------------------------------------------------------
    async def claim(self, table: Table, version: int) -> bool:
        """Claim the table's work at ``version`` (always ours on a database of one process)."""
        if not self.store.shared:
            return True
        return await self.store.run(self.store.claim, table.id, self.owner, version, CLAIM_TTL)

    async def keep_claim(self, table: Table, version: int) -> None:
        """Renew a claim while its work goes on (cancel the task when it is done)."""
        while True:
            await asyncio.sleep(CLAIM_TTL / 3)
            with contextlib.suppress(Exception):
                await self.claim(table, version)

    async def _take_over(self) -> None:
        """Take over the computer moves and chance events of tables whose process died."""
        ids = await self.store.run(self.store.unclaimed_waiting_ids, JANITOR_SECONDS)
        for table_id in ids:
            if table_id in self.registry.refused:
                continue
            try:
                table = await self.registry.table(table_id)
            except RulesVersionError as exc:
                log.warning("table %s not taken over: %s", table_id, exc)
                continue
            if table is not None and self.settle is not None:
                log.info("table %s: taking over its waiting work", table_id)
                await self.settle(table)
