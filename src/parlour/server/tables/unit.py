"""The one way a table changes: a unit of work.

Every change to a table, whoever asks for it (a player's move, a computer's, a time-out, a
seat taken from the lobby, a resignation, an undo, another process's move arriving), runs as

1. take the table's lock (one asyncio lock per table orders every change to it);
2. catch up from the database (another process may have stored moves or events meanwhile);
3. check and apply the change on a copy, and store it, committed, before anyone is told;
4. then tell: every listener gets its own new view (a broadcast, once);
5. after the lock: arm the deadline of the turn now running and wake the computer player
   whose turn it is.

So concurrency is reasoned about here only: two changes to one table meet one after the
other inside its lock, and the second finds the first already stored. The parts that make
changes (:mod:`~parlour.server.tables.moves`, :mod:`~parlour.server.tables.seats`,
:mod:`~parlour.server.tables.timeouts`...) are given a :class:`Changes` and never take a lock,
broadcast or schedule by hand.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any

from parlour.server.logs import at_table
from parlour.server.persistence.records import ConflictError, EventData, HandData, SeatData
from parlour.server.persistence.store import Store
from parlour.server.tables.events import EventKind
from parlour.server.tables.replay import apply_event, ends_game
from parlour.server.tables.results import end_by_event
from parlour.server.tables.table import Table

log = logging.getLogger("parlour.server")

CatchUp = Callable[[Table], Awaitable[bool]]
"""Apply what other processes stored since the table was loaded; ``True`` if it moved."""
AfterChange = Callable[[Table], None]
"""Work that follows a change, outside the lock: arming a deadline, waking a computer."""
TableWork = Callable[[Table], Coroutine[Any, Any, None]]
"""Work on one table that runs as a unit of work of its own (a rebuild, a catch-up)."""
Spawn = Callable[[Coroutine[Any, Any, Any]], None]
"""Run a coroutine in the background, owned by the hub (cancelled when it closes)."""


class Unit:
    """One change to one table, inside its lock: what the change stores goes through here."""

    def __init__(self, table: Table, store: Store, moved: bool) -> None:
        self.table = table
        self.store = store
        self.moved = moved
        """Catching up from the database moved the table before this change began."""
        self.shown = False

    def show(self) -> None:
        """Have every listener told when the change ends (a change that stores nothing, such
        as an undo request, but that people must see)."""
        self.shown = True

    async def record(
        self,
        kind: EventKind,
        seat: int | None,
        data: dict[str, Any] | None = None,
        *,
        seats: tuple[SeatData, ...] = (),
        hands: tuple[HandData, ...] = (),
    ) -> EventData | None:
        """Store a table event (with what it changes: a result, a seat, a new hand), then
        apply it; ``None`` if another process stored that event number first (the caller
        looks again)."""
        table = self.table
        now = time.time()
        event = EventData(len(table.events), table.version, kind, seat, data or {}, now)
        finished = True if ends_game(table, event) else None
        end = end_by_event(table, event) if finished else None
        try:
            await self.store.run(
                lambda: self.store.add_event(
                    table.id, event, finished=finished, to_act=None,
                    deadline=None, seats=seats, hands=hands, end=end,
                )
            )
        except ConflictError:
            return None
        await self.apply(event)
        return event

    async def apply(self, event: EventData) -> None:
        """An event just stored, applied to the table (and its deadline written)."""
        table = self.table
        apply_event(table, event)
        table.tick(event.created_at)
        log.info("table %s: %s %s at move %d", table.id, event.kind,
                 "" if event.seat is None else f"seat {event.seat}", event.at)
        await self.save_deadline()
        self.shown = True

    async def save_deadline(self) -> None:
        """Write the deadline of the turn now running, for the scan that applies deadlines
        of tables not in memory (the clock itself is computed from the stored rows)."""
        deadline = self.table.deadline()
        with contextlib.suppress(Exception):
            await self.store.run(self.store.set_deadline, self.table.id, deadline)


class Changes:
    """Opens units of work (:meth:`at`) and runs what follows each change."""

    def __init__(self, store: Store, catch_up: CatchUp) -> None:
        self.store = store
        self.catch_up = catch_up
        self._after: list[AfterChange] = []

    def after_each(self, hook: AfterChange) -> None:
        """Run ``hook(table)`` after every change, outside the lock (in registration order)."""
        self._after.append(hook)

    def settled(self, table: Table) -> None:
        """What follows a change: arm the running turn's deadline, wake its computer."""
        for hook in self._after:
            hook(table)

    @contextlib.asynccontextmanager
    async def at(self, table: Table) -> AsyncIterator[Unit]:
        """One change to ``table``: lock, catch up, the caller's change, tell, then settle.

        If the table moved (a stored action, a caught-up one) or the change stored an event or
        asked to be shown, every listener is told and the table settled (its deadline armed,
        its computer woken); otherwise nothing happened and nothing follows. A change that
        raises stored nothing, but what catching up brought is still shown.
        """
        async with table.lock, at_table(table.id):  # its log lines name the table
            before = (table.version, len(table.events))
            unit = Unit(table, self.store, await self.catch_up(table))
            try:
                yield unit
            except Exception:
                if unit.moved:
                    table.broadcast()
                    self.settled(table)
                raise
            # events count too: a move refused because another process ended the game first
            # catches that ending up inside the change, and its listeners must see it
            changed = unit.shown or unit.moved or (table.version, len(table.events)) != before
            if changed:
                table.broadcast()
        if changed:
            self.settled(table)
