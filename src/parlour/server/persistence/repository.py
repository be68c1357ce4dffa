"""What every repository shares: the engine, whether other processes share the database (then
each stored change is announced), and the work stored with a game's end."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, text

from parlour.server.persistence.records import NOTIFY_CHANNEL, EndHook, EventData, GameEnd


class Repository:
    """One concern's queries (tables, seats and events, the lobby, chat, claims) over the
    store's engine; the :class:`parlour.server.persistence.store.Store` facade holds one of
    each, so that every transaction of a concern is written in one module."""

    def __init__(self, engine: Engine, *, shared: bool, on_end: list[EndHook]) -> None:
        self.engine = engine
        self.shared = shared
        """Several server processes use the database (PostgreSQL): announce every change."""
        self.on_end = on_end
        """The store's list, shared: hooks added later are run too."""

    def _ended(self, connection: Any, table_id: str, end: GameEnd, now: float) -> None:
        for hook in self.on_end:
            hook(connection, table_id, end, now)

    @staticmethod
    def _notify(connection: Any, table_id: str, version: int) -> None:
        """Announce a table's new version to every process (delivered at commit)."""
        connection.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": NOTIFY_CHANNEL, "payload": f"{table_id}:{version}"},
        )

    @staticmethod
    def _event_row(table_id: str, event: EventData, created_at: float) -> dict[str, Any]:
        """The row of a stored table event."""
        return {"table_id": table_id, "seq": event.seq, "at": event.at, "kind": event.kind,
                "seat": event.seat, "data": event.data, "created_at": created_at}
