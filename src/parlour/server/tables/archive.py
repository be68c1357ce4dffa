"""Archiving: unfinished tables nobody has touched for ``--archive-after`` become read-only
(replayable, never playable again), so abandoned games stop holding clocks and seats."""

from __future__ import annotations

import logging
import time

from parlour.server.periodic import every
from parlour.server.persistence.store import Store
from parlour.server.tables.registry import Registry

log = logging.getLogger("parlour.server")


class Archivist:
    def __init__(self, store: Store, registry: Registry, after: float) -> None:
        self.store = store
        self.registry = registry
        self.after = after

    async def run(self) -> None:
        await every(min(60.0, max(1.0, self.after / 10)), self.archive_idle,
                    "archiving idle tables")

    async def archive_idle(self) -> None:
        keep = [t.id for t in self.registry.tables.values() if t.connections]
        count = await self.store.run(self.store.archive_idle, time.time() - self.after, keep)
        if count:
            log.info("archived %d idle tables", count)
            for table in list(self.registry.tables.values()):
                if table.id not in keep and not table.over:
                    self.registry.forget(table)  # reloaded (read-only) when opened
