"""Work that must happen exactly once across server processes (a computer player's move, a
pending chance event), claimed by one until it expires, and what a dead process left behind;
and the readiness check's ping."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import delete, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from parlour.server.persistence.repository import Repository
from parlour.server.persistence.rows import ClaimRow, SeatRow, TableRow


class ClaimsRepo(Repository):
    """Claims on tables' work, decided by the database in one statement."""

    def claim(self, table_id: str, owner: str, version: int, ttl: float) -> bool:
        """Claim the work at ``version`` of a table for ``ttl`` seconds; ``True`` if ours.

        Granted when nobody holds the table, when the holder's claim expired or was for an
        earlier version, or when ``owner`` holds it already (a renewal). The database decides
        (one statement), so two processes asking at once cannot both win.
        """
        now = time.time()
        dialect = self.engine.dialect.name
        upsert: Callable[..., Any] = postgresql.insert if dialect == "postgresql" else sqlite.insert
        statement = upsert(ClaimRow).values(
            table_id=table_id, owner=owner, version=version, expires_at=now + ttl
        )
        held = ClaimRow.__table__.c
        claim = statement.on_conflict_do_update(
            index_elements=[held.table_id],
            set_={"owner": owner, "version": version, "expires_at": now + ttl},
            where=(held.expires_at < now) | (held.version < version)
            | ((held.owner == owner) & (held.version == version)),
        ).returning(held.owner)
        with self.engine.begin() as connection:
            return connection.execute(claim).first() is not None

    def release(self, table_id: str, owner: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                delete(ClaimRow).where(
                    ClaimRow.table_id == table_id, ClaimRow.owner == owner
                )
            )

    def unclaimed_waiting_ids(self, quiet_for: float) -> list[str]:
        """Tables waiting for a computer or chance to act that no live claim covers and that
        have not changed for ``quiet_for`` seconds (the process that stored the last move has
        that long to claim the next): work a dead process left behind."""
        now = time.time()
        with Session(self.engine) as session:
            ai_to_act = (
                select(SeatRow.table_id)
                .where(SeatRow.kind == "ai", SeatRow.seat == TableRow.to_act)
                .where(SeatRow.table_id == TableRow.id)
                .exists()
            )
            live = (
                select(ClaimRow.table_id)
                .where(ClaimRow.table_id == TableRow.id, ClaimRow.expires_at >= now)
                .exists()
            )
            query = select(TableRow.id).where(
                TableRow.finished.is_(False),
                (TableRow.to_act < 0) | ai_to_act,
                ~live,
                TableRow.updated_at < now - quiet_for,
            )
            return list(session.scalars(query).all())

    def ping(self) -> None:
        """Raise if the database cannot be reached (for the readiness check)."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
