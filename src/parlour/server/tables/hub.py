"""The live tables of one server process: the parts that run them, wired together.

Each part owns one concern and is given only what it needs (see docs/architecture.md):

- :class:`~parlour.server.tables.registry.Registry`: the tables in memory, loading and forgetting;
- :class:`~parlour.server.tables.cluster.Cluster`: other processes on the same database
  (catching up, claims, the janitor);
- :class:`~parlour.server.tables.unit.Changes`: the unit of work every change to a table runs in;
- :class:`~parlour.server.tables.moves.Mover`: players' moves and the chance they lead to;
- :class:`~parlour.server.tables.computer.Computer`: the computer players' turns;
- :class:`~parlour.server.tables.timeouts.Timekeeper`: clocks running out;
- :class:`~parlour.server.tables.seats.Seats`, :class:`~parlour.server.tables.creation.TableMaker`,
  :class:`~parlour.server.tables.finishing.Finisher`,
  :class:`~parlour.server.tables.undo.Takebacker`,
  :class:`~parlour.server.tables.chat.Chat`, :class:`~parlour.server.tables.presence.Presence`,
  :class:`~parlour.server.tables.archive.Archivist`: seats, new tables and rematches, resigning,
  undo, chat, listeners, archiving.

The routes (:mod:`parlour.server.web.routes`) talk to these parts through the hub.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Sequence
from typing import Any

from parlour.core import RulesVersionError
from parlour.server.ai import AIRunner, is_web_agent
from parlour.server.limits import Limits
from parlour.server.messages.outgoing import Outbox
from parlour.server.persistence.records import HandData
from parlour.server.persistence.store import Store
from parlour.server.tables.archive import Archivist
from parlour.server.tables.chat import Chat
from parlour.server.tables.cluster import Cluster
from parlour.server.tables.computer import Computer
from parlour.server.tables.creation import TableMaker
from parlour.server.tables.finishing import Finisher
from parlour.server.tables.moves import Mover
from parlour.server.tables.presence import Presence
from parlour.server.tables.registry import Registry
from parlour.server.tables.seats import Seats
from parlour.server.tables.table import Table, to_act
from parlour.server.tables.timeouts import Timekeeper
from parlour.server.tables.undo import Takebacker
from parlour.server.tables.unit import Changes

log = logging.getLogger("parlour.server")


class Hub:
    """Every loaded table, the database behind them, and the computer players."""

    def __init__(
        self,
        store: Store,
        ai: AIRunner,
        *,
        ai_delay: float = 0.0,
        limits: Limits | None = None,
        extra_agents: Sequence[str] = (),
        archive_after: float | None = None,
    ) -> None:
        self.store = store
        self.ai = ai
        self.limits = limits or Limits()
        self.extra_agents = frozenset(extra_agents)
        self._background: set[asyncio.Task[Any]] = set()
        self.resumed = 0
        self.ready = False

        self.registry = Registry(store, self.limits)
        self.cluster = Cluster(store, self.registry, self.spawn)
        self.changes = Changes(store, self.cluster.catch_up)
        self.mover = Mover(store, self.changes)
        self.computer = Computer(ai, self.mover, self.cluster, ai_delay)
        self.clocks = Timekeeper(store, self.changes, self.mover, self.cluster, self.table)
        self.changes.after_each(self.clocks.arm)
        self.changes.after_each(self.computer.wake)
        self.seats = Seats(store, self.changes, self.registry, self.allows_agent, self.reload,
                           self.spawn)
        self.maker = TableMaker(store, self.changes, self.registry, self.limits,
                                self.allows_agent)
        self.finisher = Finisher(self.changes)
        self.takebacker = Takebacker(store, self.changes, self.reload)
        self.chat = Chat(store)
        self.outbox = Outbox(self.limits)
        """Bytes waiting for each client's sockets (:mod:`parlour.server.messages.outgoing`)."""
        self.presence = Presence(self.registry, self.limits, self.computer.wake)
        self.archivist = Archivist(store, self.registry, archive_after) if archive_after else None

        if store.shared:
            self.registry.refresh = self.refresh
        self.registry.reload = self.reload
        self.cluster.refresh = self.refresh
        self.cluster.settle = self.settle

    # -- running -----------------------------------------------------------------------------
    async def start(self) -> None:
        """Resume, in the background, the unfinished tables that wait for the server itself
        (a computer player or a chance event to act). Other tables stay in the database until
        someone opens them: a restart costs nothing per idle table. On a shared database
        (PostgreSQL) also listen for other processes' moves (:class:`Cluster`)."""
        self.cluster.start()
        self.spawn(self._resume())
        self.spawn(self.registry.sweep_forever())
        self.spawn(self.clocks.scan())
        if self.archivist is not None:
            self.spawn(self.archivist.run())

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run ``coroutine`` in the background until it ends or the hub closes."""
        task = asyncio.create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def close(self) -> None:
        await self.cluster.stop()
        for task in list(self._background):
            task.cancel()
        for table in self.registry.tables.values():
            for running in (table.ai_task, table.presence_task):
                if running is not None:
                    running.cancel()
            for conn in list(table.connections):
                conn.close()
        self.ai.close()

    async def _resume(self) -> None:
        try:
            ids = await self.store.run(self.store.waiting_table_ids)
            for table_id in ids:
                try:
                    table = await self.table(table_id)
                except RulesVersionError as exc:  # kept as it was stored, never replayed
                    log.warning("table %s not resumed: %s", table_id, exc)
                    continue
                if table is None:
                    continue
                await self.settle(table)
                await self.store.run(self.store.set_to_act, table.id, to_act(table.state))
                self.resumed += 1
                self.registry.forget_if_over(table)
            log.info("resumed %d tables waiting for the server", self.resumed)
        finally:
            self.ready = True

    # -- tables --------------------------------------------------------------------------------
    async def table(self, table_id: str) -> Table | None:
        return await self.registry.table(table_id)

    async def find_token(self, token: str) -> tuple[Table, HandData] | None:
        return await self.registry.find_token(token)

    def allows_agent(self, agent: str | None) -> bool:
        """Computer players the web offers (time-capped), plus any the app was built with."""
        return agent is not None and (is_web_agent(agent) or agent in self.extra_agents)

    async def refresh(self, table: Table) -> None:
        """Catch a table up with the database; if it moved, show everyone at it here."""
        async with self.changes.at(table):
            pass

    async def reload(self, table: Table) -> None:
        """Rebuild a loaded table from the database in place (after an undo, an early start,
        or a seat another process gave out); its listeners see the result."""
        async with self.changes.at(table) as unit:
            fresh = await self.registry.fresh(table)
            if fresh is not None:
                self.registry.replace(table, fresh)
                unit.show()

    async def settle(self, table: Table) -> None:
        """Make a resumed table move on: draw a pending chance event, wake a computer seat."""
        await self.mover.draw_pending_chance(table, self.cluster.claim)
        self.computer.wake(table)
