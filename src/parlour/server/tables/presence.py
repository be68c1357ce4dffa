"""Who is listening at a table: websockets joining and leaving, and seats coming online.

A newcomer gets its own state at once; the others hear of it only if a seat came online or
went away (spectators coming and going change nothing anyone sees), and such changes are
gathered over ``presence_delay`` into one update, so a client that connects in a loop costs the
table one message per interval.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from parlour.server.limits import Limits
from parlour.server.messages.outgoing import Connection
from parlour.server.persistence.records import HandData
from parlour.server.tables.registry import Registry
from parlour.server.tables.table import Table


class Presence:
    def __init__(self, registry: Registry, limits: Limits, wake: Callable[[Table], None]) -> None:
        self.registry = registry
        self.limits = limits
        self.wake = wake
        """Wake the computer of a table someone opens (one where only computers play waits
        while nobody watches)."""

    def can_join(self, table: Table, hand: HandData | None) -> bool:
        """Seat holders are always let in; spectators while the table has room."""
        return hand is not None or len(table.connections) < self.limits.listeners_per_table

    def join(self, table: Table, conn: Connection) -> None:
        before = table.presence()
        table.connections.add(conn)
        table.last_active = time.monotonic()
        conn.send(table.message(conn.hand))
        if table.presence() != before:
            self._changed(table)
        self.wake(table)

    def leave(self, table: Table, conn: Connection) -> None:
        before = table.presence()
        table.connections.discard(conn)
        conn.close()
        table.last_active = time.monotonic()
        if table.presence() != before:
            self._changed(table)
        self.registry.forget_if_over(table)

    def _changed(self, table: Table) -> None:
        if table.presence_task is not None and not table.presence_task.done():
            return
        table.presence_task = asyncio.create_task(self._tell(table))

    async def _tell(self, table: Table) -> None:
        await asyncio.sleep(self.limits.presence_delay)
        if table.connections:
            table.broadcast()
