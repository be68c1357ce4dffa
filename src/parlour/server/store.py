"""Persistence: tables, seats, hands (the secret tokens) and every committed action.

The server writes an action here, and commits, *before* it acknowledges it or shows it to
anyone; after a crash the tables are rebuilt by replaying these rows (every game replays
exactly from its actions, G-1). The primary key ``(table_id, seq)`` makes the database itself
refuse a second action for a move number that is already taken, and the unique
``(table_id, client_key)`` refuses a resent submission, so both guarantees hold even if two
writers race.

All methods are synchronous (SQLAlchemy 2 ORM); the app calls them through :meth:`Store.run`,
which runs them on the store's own thread(s), off the event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from parlour.server.config import secure_sqlite_file

T = TypeVar("T")


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "parlour_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # secret: drives the chance events
    created_at: Mapped[float] = mapped_column(Float)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Added after the first release (see :func:`migrate`): who is to act after the last
    # stored action (a seat, -1 for chance, NULL when finished), so that a server starting
    # up wakes only the tables that wait for a computer or a chance event; when the table
    # last changed; and a hash of the creating client's address, for the per-client quota.
    to_act: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    updated_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_by: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class SeatRow(Base):
    __tablename__ = "parlour_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # "human" or "ai"
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True)


class HandRow(Base):
    """A credential: one unguessable token that may act for one or more seats (hot-seat)."""

    __tablename__ = "parlour_hands"
    __table_args__ = (UniqueConstraint("table_id", "hand"),)

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), index=True)
    hand: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[int]] = mapped_column(JSON)
    role: Mapped[str] = mapped_column(String(16))  # "invite", "me" or "hotseat"
    creator: Mapped[bool] = mapped_column(Boolean, default=False)


class ActionRow(Base):
    __tablename__ = "parlour_actions"
    __table_args__ = (UniqueConstraint("table_id", "client_key"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)  # -1 for chance
    client_key: Mapped[str | None] = mapped_column(String(160), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class SeatData:
    seat: int
    kind: str
    agent: str | None


@dataclass(frozen=True)
class HandData:
    token: str
    hand: int
    seats: tuple[int, ...]
    role: str
    creator: bool


@dataclass(frozen=True)
class ActionData:
    seq: int
    action: int
    player: int
    client_key: str | None


@dataclass(frozen=True)
class TableData:
    id: str
    game: str
    params: dict[str, Any]
    seed: int
    finished: bool
    rematch_of: str | None
    rematch_id: str | None
    seats: tuple[SeatData, ...]
    hands: tuple[HandData, ...]
    actions: tuple[ActionData, ...]


Batch = tuple[str, Sequence[ActionData], bool, int | None]
"""One table's submission: table id, its new actions, finished, who is to act after them."""


class ConflictError(Exception):
    """The database refused a write: that move number or that submission is already stored."""


class Store:
    """The database behind the server (SQLite by default, PostgreSQL via psycopg)."""

    def __init__(self, url: str, *, synchronous: str = "NORMAL") -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            secure_sqlite_file(url)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        self.engine = create_engine(url, **kwargs)
        if self.is_sqlite:

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                # WAL: readers never block the writer. synchronous=NORMAL in WAL mode loses no
                # committed transaction when the *process* dies (SIGKILL); FULL also survives
                # a power cut, at the price of an fsync per commit.
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute(f"PRAGMA synchronous={synchronous}")
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.close()

        Base.metadata.create_all(self.engine)
        migrate(self.engine)
        # SQLite allows one writer at a time: one thread serialises the writes cleanly.
        self._executor = ThreadPoolExecutor(
            max_workers=1 if self.is_sqlite else 4, thread_name_prefix="parlour-db"
        )
        self._waiting: list[tuple[Batch, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store method on the store's thread, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.engine.dispose()

    # -- writes ---------------------------------------------------------------------------
    def create_table(
        self,
        table_id: str,
        game: str,
        params: dict[str, Any],
        seed: int,
        seats: Sequence[SeatData],
        hands: Sequence[HandData],
        actions: Sequence[ActionData],
        rematch_of: str | None = None,
        finished: bool = False,
        to_act: int | None = None,
        created_by: str | None = None,
    ) -> None:
        now = time.time()
        with self.engine.begin() as connection:
            connection.execute(
                insert(TableRow),
                [{
                    "id": table_id,
                    "game": game,
                    "params": params,
                    "seed": seed,
                    "created_at": now,
                    "finished": finished,
                    "rematch_of": rematch_of,
                    "to_act": None if finished else to_act,
                    "updated_at": now,
                    "created_by": created_by,
                }],
            )
            connection.execute(
                insert(SeatRow),
                [{"table_id": table_id, "seat": s.seat, "kind": s.kind, "agent": s.agent}
                 for s in seats],
            )
            connection.execute(
                insert(HandRow),
                [{"token": h.token, "table_id": table_id, "hand": h.hand, "seats": list(h.seats),
                  "role": h.role, "creator": h.creator} for h in hands],
            )
            if actions:
                connection.execute(
                    insert(ActionRow),
                    [{"table_id": table_id, "seq": a.seq, "action": a.action,
                      "player": a.player, "client_key": a.client_key, "created_at": now}
                     for a in actions],
                )

    def append(
        self,
        table_id: str,
        actions: Sequence[ActionData],
        finished: bool,
        to_act: int | None = None,
    ) -> None:
        """Store ``actions`` in one transaction, or raise :class:`ConflictError` and store none.

        ``to_act`` is who acts after them (``None``: not known; checked at the next start)."""
        try:
            self.append_many([(table_id, actions, finished, to_act)])
        except IntegrityError as exc:
            raise ConflictError(str(exc.orig)) from None

    def append_many(self, batches: Sequence[Batch]) -> None:
        """Store several tables' submissions in ONE transaction (a group commit).

        Raises :class:`IntegrityError` and stores nothing if any row is refused.
        """
        now = time.time()
        rows = [
            {
                "table_id": table_id,
                "seq": a.seq,
                "action": a.action,
                "player": a.player,
                "client_key": a.client_key,
                "created_at": now,
            }
            for table_id, actions, _finished, _to_act in batches
            for a in actions
        ]
        with self.engine.begin() as connection:
            connection.execute(insert(ActionRow), rows)
            for table_id, _actions, done, to_act in batches:
                connection.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id)
                    .values(
                        finished=done,
                        to_act=None if done else to_act,
                        updated_at=now,
                    )
                )

    async def append_grouped(
        self, table_id: str, actions: Sequence[ActionData], finished: bool, to_act: int | None
    ) -> None:
        """:meth:`append` from the event loop, batched with whatever else is waiting.

        Under load many tables commit at once; one transaction for all of them costs one
        commit and one hop to the store's thread instead of one each. The caller still returns
        only once its own rows are committed. If the batch is refused (a conflicting row), each
        submission is retried alone, so only the conflicting one fails.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._waiting.append(((table_id, actions, finished, to_act), future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_waiting())
        await future

    async def _write_waiting(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                await self.run(self.append_many, [item for item, _f in batch])
            except IntegrityError:
                for item, future in batch:
                    try:
                        await self.run(self.append, *item)
                    except Exception as exc:
                        future.set_exception(exc)
                    else:
                        future.set_result(None)
                continue
            except Exception as exc:
                for _item, future in batch:
                    future.set_exception(exc)
                continue
            for _item, future in batch:
                future.set_result(None)

    def set_rematch(self, table_id: str, rematch_id: str) -> str:
        """Record ``rematch_id`` as the rematch of ``table_id`` unless one is already set;
        return the one that holds."""
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(TableRow)
                .where(TableRow.id == table_id, TableRow.rematch_id.is_(None))
                .values(rematch_id=rematch_id)
            )
            return session.scalar(select(TableRow.rematch_id).where(TableRow.id == table_id))

    # -- reads ----------------------------------------------------------------------------
    def load(self, table_id: str) -> TableData | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            ).all()
            hands = session.scalars(
                select(HandRow).where(HandRow.table_id == table_id).order_by(HandRow.hand)
            ).all()
            actions = session.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.seq)
            ).all()
            return TableData(
                id=row.id,
                game=row.game,
                params=dict(row.params),
                seed=row.seed,
                finished=row.finished,
                rematch_of=row.rematch_of,
                rematch_id=row.rematch_id,
                seats=tuple(SeatData(s.seat, s.kind, s.agent) for s in seats),
                hands=tuple(
                    HandData(h.token, h.hand, tuple(h.seats), h.role, h.creator) for h in hands
                ),
                actions=tuple(
                    ActionData(a.seq, a.action, a.player, a.client_key) for a in actions
                ),
            )

    def table_of_token(self, token: str) -> str | None:
        with Session(self.engine) as session:
            return session.scalar(select(HandRow.table_id).where(HandRow.token == token))

    def open_table_ids(self) -> list[str]:
        with Session(self.engine) as session:
            return list(
                session.scalars(select(TableRow.id).where(TableRow.finished.is_(False))).all()
            )

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

    def set_to_act(self, table_id: str, to_act: int | None) -> None:
        """Record who is to act (for a table stored before the column existed)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(TableRow).where(TableRow.id == table_id).values(to_act=to_act)
            )


def migrate(engine: Any) -> None:
    """Add the columns a newer parlour declares to an older database's tables.

    ``create_all`` creates missing tables but never alters existing ones; every column added
    since the first release is nullable, so an ``ALTER TABLE ... ADD COLUMN`` brings an old
    database up to date without touching its rows.
    """
    inspector = inspect(engine)
    with engine.begin() as connection:
        for table in Base.metadata.sorted_tables:
            if not inspector.has_table(table.name):
                continue
            present = {c["name"] for c in inspector.get_columns(table.name)}
            for column in table.columns:
                if column.name in present:
                    continue
                kind = column.type.compile(dialect=engine.dialect)
                connection.execute(
                    text(f'ALTER TABLE {table.name} ADD COLUMN "{column.name}" {kind}')
                )
