"""The lists of tables the server scans: the lobby's pages, the tables waiting for the server
itself, a client's open tables (its quota), the turns whose time is up, and archiving."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from parlour.server.persistence.records import TableData
from parlour.server.persistence.repository import Repository
from parlour.server.persistence.rows import SeatRow, TableRow
from parlour.server.persistence.tables_repo import TablesRepo


class LobbyRepo(Repository):
    """Queries over many tables (each found table read through :class:`TablesRepo`)."""

    def __init__(self, tables: TablesRepo) -> None:
        super().__init__(tables.engine, shared=tables.shared, on_end=tables.on_end)
        self.tables = tables

    def lobby(self, page: int, per_page: int) -> tuple[list[TableData], list[TableData], bool]:
        """Listed unfinished tables, newest first: those with a free seat, and those being
        played (to watch); and whether a next page exists."""
        with Session(self.engine) as session:
            free = (
                select(SeatRow.table_id)
                .where(SeatRow.table_id == TableRow.id, SeatRow.kind == "open")
                .exists()
            )
            base = select(TableRow.id).where(
                TableRow.listed.is_(True),
                TableRow.finished.is_(False),
                TableRow.archived.is_not(True),
            )
            found: list[list[TableData]] = []
            more = False
            for query in (base.where(free), base.where(~free)):
                ids = list(session.scalars(
                    query.order_by(TableRow.created_at.desc())
                    .offset(page * per_page).limit(per_page + 1)
                ).all())
                more = more or len(ids) > per_page
                found.append([d for d in (self.tables.load(i) for i in ids[:per_page]) if d])
        return found[0], found[1], more

    def waiting_table_ids(self) -> list[str]:
        """Unfinished tables that wait for the server itself: a computer seat or a chance
        event to act, or a table from before ``to_act`` was recorded (checked once)."""
        with Session(self.engine) as session:
            ai_to_act = (
                select(SeatRow.table_id)
                .where(SeatRow.kind == "ai", SeatRow.seat == TableRow.to_act)
                .where(SeatRow.table_id == TableRow.id)
                .exists()
            )
            query = select(TableRow.id).where(
                TableRow.finished.is_(False),
                TableRow.to_act.is_(None) | (TableRow.to_act < 0) | ai_to_act,
            )
            return list(session.scalars(query).all())

    def open_tables_created_by(self, client: str) -> int:
        """How many unfinished tables ``client`` (an address hash) has created."""
        with Session(self.engine) as session:
            query = select(func.count()).select_from(TableRow).where(
                TableRow.created_by == client, TableRow.finished.is_(False)
            )
            return int(session.scalar(query) or 0)

    def expired_deadline_ids(self, now: float) -> list[str]:
        with Session(self.engine) as session:
            return list(session.scalars(
                select(TableRow.id).where(
                    TableRow.finished.is_(False),
                    TableRow.archived.is_not(True),
                    TableRow.deadline_at.is_not(None),
                    TableRow.deadline_at <= now,
                )
            ).all())

    def archive_idle(self, before: float, keep: Sequence[str]) -> int:
        """Archive unfinished tables unchanged since ``before`` (except ``keep``, the tables
        someone is connected to); returns how many."""
        with self.engine.begin() as connection:
            query = update(TableRow).where(
                TableRow.finished.is_(False),
                TableRow.archived.is_not(True),
                TableRow.updated_at < before,
            )
            if keep:
                query = query.where(TableRow.id.not_in(list(keep)))
            return int(connection.execute(query.values(archived=True)).rowcount or 0)
