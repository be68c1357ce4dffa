"""The tables this process has in memory: loading them from the database, finding them by id
or seat link, and forgetting them when nobody uses them.

Memory stays bounded by the tables in use: a table is loaded when someone opens it (or when
it waits for the server itself), a finished table nobody watches is forgotten at once, an
unfinished idle one after ``idle_unload_seconds``, and the least recently used go first beyond
``loaded_tables``. The database keeps everything; a forgotten table is rebuilt on the next
request (:func:`parlour.server.tables.replay.build_table`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from parlour.core import RulesVersionError
from parlour.server.limits import Limits
from parlour.server.persistence.records import HandData, TableData
from parlour.server.persistence.store import Store
from parlour.server.tables.replay import build_table
from parlour.server.tables.table import Table

Refresh = Callable[[Table], Awaitable[None]]
"""A unit of work on a loaded table that catches it up with the database (``refresh``) or
rebuilds it from there (``reload``), telling its listeners if it moved."""

REPLACED = ("game", "seed", "seats", "hands", "state", "notes", "acks", "clock", "events",
            "outcome", "covered", "taken_over", "resigned", "timeouts", "archived", "awaited",
            "expires_at")
"""What a rebuild from the database replaces in a loaded table (its listeners, lock and tasks
stay)."""


class Registry:
    """Every table loaded in this process, by id, and the seat links that open them."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, str] = {}  # token -> table id, for the tables in memory
        self._loading: dict[str, asyncio.Lock] = {}
        self.refresh: Refresh | None = None
        """Set by the hub when several processes share the database."""
        self.refused: dict[str, RulesVersionError] = {}
        """Tables stored under another version of their game's rules: never replayed here
        (:func:`parlour.server.tables.replay.build_table`), and not loaded again to learn that."""
        self.reload: Refresh | None = None
        """Set by the hub: rebuild a loaded table (a seat link another process gave out)."""

    async def table(self, table_id: str) -> Table | None:
        """The table ``table_id``, loaded if need be; ``None`` if there is none. Raises
        :class:`RulesVersionError` for a table stored under other rules."""
        if table_id in self.refused:
            raise self.refused[table_id]
        if table_id in self.tables:
            found = self.tables[table_id]
            found.last_active = time.monotonic()
            if self.refresh is not None:  # the database is the truth: catch up first
                await self.refresh(found)
            return found
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            if table_id in self.tables:
                return self.tables[table_id]
            data = await self.store.run(self.store.load, table_id)
            if data is None:
                self._loading.pop(table_id, None)
                return None
            try:
                table = await self.build(data)
            except RulesVersionError as exc:
                self.refused[table_id] = exc
                self._loading.pop(table_id, None)
                raise
            if data.rematch_id:
                await self.link_rematch(table, data.rematch_id)
            self.remember(table)
            return table

    async def find_token(self, token: str) -> tuple[Table, HandData] | None:
        """The table and hand a seat link opens, or ``None``."""
        if not token or len(token) > 64:
            return None
        table_id = self.tokens.get(token) or await self.store.run(self.store.table_of_token, token)
        table = await self.table(table_id) if table_id else None
        if table is None:
            return None
        hand = table.hand_by_token(token)
        if hand is None and self.reload is not None:  # a seat another process gave out
            await self.reload(table)
            hand = table.hand_by_token(token)
        return (table, hand) if hand is not None else None

    async def build(self, data: TableData) -> Table:
        """A table rebuilt from its rows (off the event loop: a long game takes a while)."""
        return await asyncio.to_thread(build_table, data, self.limits.invitation_seconds)

    async def fresh(self, table: Table) -> Table | None:
        """A new build of ``table`` from the database (``None`` if it has gone)."""
        data = await self.store.run(self.store.load, table.id)
        return None if data is None else await self.build(data)

    def replace(self, table: Table, fresh: Table) -> None:
        """Give a loaded table (and so its listeners) the contents of a fresh rebuild."""
        for name in REPLACED:
            setattr(table, name, getattr(fresh, name))
        table.undo_request = None
        for hand in table.hands:
            self.tokens[hand.token] = table.id

    def remember(self, table: Table) -> None:
        self.tables[table.id] = table
        for hand in table.hands:
            self.tokens[hand.token] = table.id

    def add_hand(self, table: Table, hand: HandData) -> None:
        """A new seat link of a loaded table (a seat taken from the lobby)."""
        table.hands = (*table.hands, hand)
        self.tokens[hand.token] = table.id

    async def link_rematch(self, table: Table, rematch_id: str) -> None:
        data = await self.store.run(self.store.load, rematch_id)
        table.rematch_id = rematch_id
        if data is not None:
            table.rematch_tokens = {h.hand: h.token for h in data.hands}

    # -- forgetting ---------------------------------------------------------------------------
    def unloadable(self, table: Table) -> bool:
        return (
            not table.connections
            and (table.ai_task is None or table.ai_task.done())
            and not table.lock.locked()
            and self.tables.get(table.id) is table
        )

    def unload(self, table: Table) -> None:
        del self.tables[table.id]
        self._loading.pop(table.id, None)
        for hand in table.hands:
            self.tokens.pop(hand.token, None)

    def forget(self, table: Table) -> None:
        """Drop a table from memory if nobody uses it (it reloads from the database)."""
        if self.unloadable(table):
            self.unload(table)

    def forget_if_over(self, table: Table) -> None:
        """Forget at once a finished table nobody is looking at (unfinished idle ones go by
        :meth:`sweep`)."""
        if table.over:
            self.forget(table)

    def sweep(self, now: float | None = None) -> int:
        """Unload idle tables nobody watches, and the least recently used beyond the cap."""
        now = time.monotonic() if now is None else now
        idle = [t for t in self.tables.values() if self.unloadable(t)]
        idle.sort(key=lambda t: t.last_active)
        excess = len(self.tables) - self.limits.loaded_tables
        unloaded = 0
        for table in idle:
            if excess > 0 or now - table.last_active >= self.limits.idle_unload_seconds:
                self.unload(table)
                excess -= 1
                unloaded += 1
        return unloaded

    async def sweep_forever(self) -> None:
        period = max(1.0, min(30.0, self.limits.idle_unload_seconds / 4))
        while True:
            await asyncio.sleep(period)
            self.sweep()
