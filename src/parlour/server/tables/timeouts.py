"""Clocks running out: a timer per table for the turn now running, a scan for the tables not in
memory, and what a time-out decides.

The server is the only authority on time (:mod:`~parlour.server.tables.clocks`). When the running
turn's deadline passes, it is applied once (claimed, then checked again inside a unit of work):
in a two-player game the seat loses on time; with more players the computer (``medium``)
plays that turn for it, and after :data:`TIMEOUTS_BEFORE_TAKEOVER` in a row holds the seat
until its owner claims it back; a decision with its own short limit (a GobbleStones bluff)
takes the game's default (trust, :meth:`parlour.core.Presentation.timeout_decision`).

The same deadline bounds an invitation: while an invited seat is awaited, the table's deadline
is when the invitation expires (``Limits.invitation_seconds`` after creation), and passing it
ends the table unplayed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from parlour.core import presentation
from parlour.server.persistence.store import Store
from parlour.server.tables.cluster import Cluster
from parlour.server.tables.events import AfterTimeout, EventKind
from parlour.server.tables.moves import Mover
from parlour.server.tables.table import Table
from parlour.server.tables.unit import Changes, Unit

log = logging.getLogger("parlour.server")

TIMEOUTS_BEFORE_TAKEOVER = 2
DEADLINE_SCAN_SECONDS = 2.0
TableById = Callable[[str], Awaitable[Table | None]]


class Timekeeper:
    """Applies each running turn's deadline exactly once."""

    def __init__(
        self, store: Store, changes: Changes, mover: Mover, cluster: Cluster, lookup: TableById
    ) -> None:
        self.store = store
        self.changes = changes
        self.mover = mover
        self.cluster = cluster
        self.lookup = lookup

    def arm(self, table: Table) -> None:
        """(Re)start the timer that applies the running turn's deadline."""
        if table.timer is not None and not table.timer.done():
            table.timer.cancel()
        deadline = table.deadline()
        if deadline is None:
            table.timer = None
            return
        table.timer = asyncio.create_task(self._wait(table, table.version, deadline))

    async def _wait(self, table: Table, version: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        table.timer = None  # this task now does the work: re-arming must not cancel it
        await self.time_out(table, version)

    async def scan(self) -> None:
        """Apply every deadline that passed, also of tables not in memory (and those that
        passed while the server was down): runs every couple of seconds."""
        while True:
            try:
                ids = await self.store.run(self.store.expired_deadline_ids, time.time())
                for table_id in ids:
                    table = await self.lookup(table_id)
                    if table is not None:
                        await self.time_out(table, table.version)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("applying expired deadlines failed")
            await asyncio.sleep(DEADLINE_SCAN_SECONDS)

    async def time_out(self, table: Table, version: int) -> None:
        """The running turn's time is up (checked again under the lock): apply it once."""
        if not await self.cluster.claim(table, version):
            return
        async with self.changes.at(table) as unit:
            deadline = table.deadline()
            if table.version != version or deadline is None or time.time() < deadline - 0.05:
                return
            if table.awaited:  # the invitation's time is up: the game never started
                await unit.record(EventKind.EXPIRE, min(table.awaited),
                                  {"seats": sorted(table.awaited)})
                return
            seat = table.to_act()
            if seat is None:
                return
            await self._decide(unit, seat, version)
            unit.show()

    async def _decide(self, unit: Unit, seat: int, version: int) -> None:
        table = unit.table
        default = presentation(table.game).timeout_decision(table.state)
        if default is not None:
            event = await unit.record(EventKind.TIMEOUT, seat, {"then": AfterTimeout.TRUST})
            if event is not None:
                await self.mover.store_default(unit, seat, default, f"timeout:{version}")
        elif table.game.num_players() == 2:
            await unit.record(EventKind.TIMEOUT, seat, {"then": AfterTimeout.LOST})
        else:
            count = table.timeouts.get(seat, 0) + 1
            await unit.record(EventKind.TIMEOUT, seat,
                              {"then": AfterTimeout.COMPUTER, "count": count})
            if count >= TIMEOUTS_BEFORE_TAKEOVER and seat not in table.taken_over:
                await unit.record(EventKind.TAKEOVER, seat)
