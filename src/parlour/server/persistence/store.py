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
    delete,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from parlour.server import metrics
from parlour.server.persistence.config import secure_sqlite_file

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
    # Added after the first release (migration 0001): who is to act after the last
    # stored action (a seat, -1 for chance, NULL when finished), so that a server starting
    # up wakes only the tables that wait for a computer or a chance event; when the table
    # last changed; and a hash of the creating client's address, for the per-client quota.
    to_act: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    updated_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_by: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # Open tables, clocks and archiving (issue 18), also in revision 0001.
    listed: Mapped[bool | None] = mapped_column(Boolean, nullable=True, index=True)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    archived: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # The version of the game's rules the table is played under (issue 27); tables stored
    # before versions existed read as version 1.
    rules_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Accounts (issue 29): a rated table changes its players' ratings when it ends.
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Why a rated table's end changed no rating (issue 62: ``unplayed``, ``pair``,
    # ``deleted``, ``guest``), set in the transaction that ends it; NULL when it rated.
    unrated: Mapped[str | None] = mapped_column(String(16), nullable=True)


class SeatRow(Base):
    __tablename__ = "parlour_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # "human" or "ai"
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the player's name
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account that holds the seat (issue 29), if its player was signed in."""
    bot: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    """The seat's account is a bot account (issue 31): shown as such at the table."""


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
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account whose "Your games" lists this link (issue 29)."""


class ActionRow(Base):
    __tablename__ = "parlour_actions"
    __table_args__ = (UniqueConstraint("table_id", "client_key"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)  # -1 for chance
    client_key: Mapped[str | None] = mapped_column(String(160), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class EventRow(Base):
    """Something that happens at a table outside the game's rules, stored like an action
    (before anyone is told, and replayed when the table is rebuilt): a seat taken from the
    lobby, a time-out, a resignation, the computer taking a seat over or giving it back, an
    undo. ``at`` is the table's version when it happened."""

    __tablename__ = "parlour_events"

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    """One chat message: plain text, on the players' or the spectators' channel."""

    __tablename__ = "parlour_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(2000))
    created_at: Mapped[float] = mapped_column(Float)


class TakenBackRow(Base):
    """An action taken back by an undo both players agreed to: kept, never deleted."""

    __tablename__ = "parlour_taken_back"

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    undo: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)
    client_key: Mapped[str | None] = mapped_column(String(160), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class ClaimRow(Base):
    """Work that must happen exactly once, claimed by one server process until it expires:
    a computer player's move (or a pending chance event) at one move number of one table."""

    __tablename__ = "parlour_claims"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(96))
    version: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float)


NOTIFY_CHANNEL = "parlour_tables"
"""The PostgreSQL channel on which every stored action is announced (``table_id:version``)."""


@dataclass(frozen=True)
class SeatData:
    seat: int
    kind: str
    agent: str | None
    name: str | None = None
    account: int | None = None
    """The account holding the seat (its name is then the account's username)."""
    bot: bool = False
    """That account is a bot's (issue 31): a program plays the seat through the Bot API."""


@dataclass(frozen=True)
class HandData:
    token: str
    hand: int
    seats: tuple[int, ...]
    role: str
    creator: bool
    account: int | None = None
    """The account this link belongs to ("Your games" follows it to any device)."""


@dataclass(frozen=True)
class ActionData:
    seq: int
    action: int
    player: int
    client_key: str | None
    at: float = 0.0
    """When it was stored (seconds since the epoch): the clocks are computed from these."""


@dataclass(frozen=True)
class EventData:
    seq: int
    at: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    created_at: float = 0.0


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
    events: tuple[EventData, ...] = ()
    listed: bool = False
    clock: dict[str, Any] | None = None
    archived: bool = False
    created_at: float = 0.0
    to_act: int | None = None
    created_by: str | None = None
    """The creating client's address hash (the per-client quota and fair thinking)."""
    rules_version: int = 1
    """The version of the game's rules the table is played under (``Game.rules_version``)."""
    rated: bool = False


@dataclass(frozen=True)
class GameEnd:
    """How a game ended, for the work stored in the same transaction as its end (results and
    ratings, :attr:`Store.on_end`): each seat's return and points, and who resigned."""

    returns: tuple[float, ...]
    scores: tuple[float, ...]
    resigned: tuple[int, ...] = ()


EndHook = Callable[[Any, str, GameEnd, float], None]
"""Work stored with a game's end: ``(connection, table id, how it ended, when)``, run inside
the transaction that marks the table finished (an exception there stores nothing)."""

Batch = tuple[str, Sequence[ActionData], bool, int | None, float | None, GameEnd | None]
"""One table's submission: table id, its new actions, finished, who is to act after them, the
deadline of the turn that starts (``None``: no clock), and how the game ended if it did."""


SEAT_ATTEMPTS = 8
"""Tries of a seat's transaction when other seats of the table are taken at the same moment."""


class ConflictError(Exception):
    """The database refused a write: that move number or that submission is already stored."""


class Store:
    """The database behind the server (SQLite by default, PostgreSQL via psycopg)."""

    def __init__(self, url: str, *, synchronous: str = "NORMAL", upgrade: bool = False) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.shared = url.startswith("postgresql")
        """Several server processes may use this database at once (PostgreSQL): each must
        catch up from it, announce what it stores and claim exactly-once work."""
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

        # a new database at the head; an older one only if ``upgrade`` (else SchemaError)
        from parlour.server.persistence.migrations.schema import prepare

        prepare(self.engine, upgrade=upgrade, url=url)
        # SQLite allows one writer at a time: one thread serialises the writes cleanly.
        self._executor = ThreadPoolExecutor(
            max_workers=1 if self.is_sqlite else 4, thread_name_prefix="parlour-db"
        )
        self._waiting: list[tuple[Batch, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.on_end: list[EndHook] = []
        """Run in the transaction that ends a game (the accounts' results and ratings)."""

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store method on the store's thread, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor,
                                                                metrics.db_call(fn), *args)

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
        listed: bool = False,
        clock: dict[str, Any] | None = None,
        created_at: float | None = None,
        rules_version: int = 1,
        rated: bool = False,
    ) -> None:
        now = created_at or time.time()
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
                    "listed": listed,
                    "clock": clock,
                    "rules_version": rules_version,
                    "rated": rated or None,
                }],
            )
            connection.execute(
                insert(SeatRow),
                [{"table_id": table_id, "seat": s.seat, "kind": s.kind, "agent": s.agent,
                  "name": s.name, "account_id": s.account, "bot": s.bot or None}
                 for s in seats],
            )
            connection.execute(
                insert(HandRow),
                [{"token": h.token, "table_id": table_id, "hand": h.hand, "seats": list(h.seats),
                  "role": h.role, "creator": h.creator, "account_id": h.account}
                 for h in hands],
            )
            if actions:
                connection.execute(
                    insert(ActionRow),
                    [{"table_id": table_id, "seq": a.seq, "action": a.action,
                      "player": a.player, "client_key": a.client_key,
                      "created_at": a.at or now}
                     for a in actions],
                )

    def append(
        self,
        table_id: str,
        actions: Sequence[ActionData],
        finished: bool,
        to_act: int | None = None,
        deadline: float | None = None,
        end: GameEnd | None = None,
    ) -> None:
        """Store ``actions`` in one transaction, or raise :class:`ConflictError` and store none.

        ``to_act`` is who acts after them (``None``: not known; checked at the next start);
        ``end`` how the game ended, when they end it (stored with them, :attr:`on_end`)."""
        try:
            self.append_many([(table_id, actions, finished, to_act, deadline, end)])
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
                "created_at": a.at or now,
            }
            for table_id, actions, _finished, _to_act, _deadline, _end in batches
            for a in actions
        ]
        with self.engine.begin() as connection:
            connection.execute(insert(ActionRow), rows)
            for table_id, actions, done, to_act, deadline, end in batches:
                connection.execute(
                    update(TableRow)
                    .where(TableRow.id == table_id)
                    .values(
                        finished=done,
                        to_act=None if done else to_act,
                        updated_at=now,
                        deadline_at=None if done else deadline,
                    )
                )
                if done and end is not None:
                    self._ended(connection, table_id, end, now)
                if self.shared and actions:
                    self._notify(connection, table_id, actions[-1].seq + 1)

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

    async def append_grouped(
        self,
        table_id: str,
        actions: Sequence[ActionData],
        finished: bool,
        to_act: int | None,
        deadline: float | None = None,
        end: GameEnd | None = None,
    ) -> None:
        """:meth:`append` from the event loop, batched with whatever else is waiting.

        Under load many tables commit at once; one transaction for all of them costs one
        commit and one hop to the store's thread instead of one each. The caller still returns
        only once its own rows are committed. If the batch is refused (a conflicting row), each
        submission is retried alone, so only the conflicting one fails.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._waiting.append(((table_id, actions, finished, to_act, deadline, end), future))
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

    def set_seat_names(self, table_id: str, names: dict[int, str | None]) -> None:
        """Store players' display names (already cleaned) for seats of ``table_id``."""
        with self.engine.begin() as connection:
            for seat, name in names.items():
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(name=name)
                )

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
            events = session.scalars(
                select(EventRow).where(EventRow.table_id == table_id).order_by(EventRow.seq)
            ).all()
            return TableData(
                id=row.id,
                game=row.game,
                params=dict(row.params),
                seed=row.seed,
                finished=row.finished,
                rematch_of=row.rematch_of,
                rematch_id=row.rematch_id,
                seats=tuple(SeatData(s.seat, s.kind, s.agent, s.name, s.account_id,
                                     bool(s.bot)) for s in seats),
                hands=tuple(
                    HandData(h.token, h.hand, tuple(h.seats), h.role, h.creator, h.account_id)
                    for h in hands
                ),
                actions=tuple(
                    ActionData(a.seq, a.action, a.player, a.client_key, a.created_at)
                    for a in actions
                ),
                events=tuple(
                    EventData(e.seq, e.at, e.kind, e.seat, dict(e.data), e.created_at)
                    for e in events
                ),
                listed=bool(row.listed),
                clock=dict(row.clock) if row.clock else None,
                archived=bool(row.archived),
                created_at=row.created_at,
                to_act=row.to_act,
                created_by=row.created_by,
                rules_version=row.rules_version or 1,
                rated=bool(row.rated),
            )

    def table_of_token(self, token: str) -> str | None:
        with Session(self.engine) as session:
            return session.scalar(select(HandRow.table_id).where(HandRow.token == token))

    def open_table_ids(self) -> list[str]:
        with Session(self.engine) as session:
            return list(
                session.scalars(select(TableRow.id).where(TableRow.finished.is_(False))).all()
            )

    def actions_since(self, table_id: str, seq: int) -> list[ActionData]:
        """The table's stored actions from move ``seq`` on (to catch a cached table up)."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(ActionRow)
                .where(ActionRow.table_id == table_id, ActionRow.seq >= seq)
                .order_by(ActionRow.seq)
            ).all()
            return [ActionData(a.seq, a.action, a.player, a.client_key, a.created_at)
                    for a in rows]

    def versions(self, table_ids: Sequence[str]) -> dict[str, int]:
        """Each table's version (its number of stored actions), for the periodic catch-up."""
        if not table_ids:
            return {}
        with Session(self.engine) as session:
            query = (
                select(ActionRow.table_id, func.max(ActionRow.seq))
                .where(ActionRow.table_id.in_(list(table_ids)))
                .group_by(ActionRow.table_id)
            )
            return {table_id: int(top) + 1 for table_id, top in session.execute(query)}

    def event_counts(self, table_ids: Sequence[str]) -> dict[str, int]:
        """Each table's number of stored events (for the periodic catch-up)."""
        if not table_ids:
            return {}
        with Session(self.engine) as session:
            query = (
                select(EventRow.table_id, func.count())
                .where(EventRow.table_id.in_(list(table_ids)))
                .group_by(EventRow.table_id)
            )
            return {table_id: int(count) for table_id, count in session.execute(query)}

    def rematch_of(self, table_id: str) -> str | None:
        with Session(self.engine) as session:
            return session.scalar(select(TableRow.rematch_id).where(TableRow.id == table_id))

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


    # -- events, seats, the lobby, chat, undo, archiving (issue 18) -------------------------
    def add_event(
        self,
        table_id: str,
        event: EventData,
        *,
        finished: bool | None = None,
        to_act: int | None = None,
        deadline: float | None = None,
        seats: Sequence[SeatData] = (),
        hands: Sequence[HandData] = (),
        end: GameEnd | None = None,
    ) -> None:
        """Store a table event, with what it changes (the result, a seat, a new hand, and
        with ``end`` what a game's end stores, :attr:`on_end`), in one transaction;
        :class:`ConflictError` if that event number is taken (another process)."""
        now = event.created_at or time.time()
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(EventRow), [{
                    "table_id": table_id, "seq": event.seq, "at": event.at, "kind": event.kind,
                    "seat": event.seat, "data": event.data, "created_at": now,
                }])
                values: dict[str, Any] = {"updated_at": now, "deadline_at": deadline}
                if finished is not None:
                    values["finished"] = finished
                    values["to_act"] = None if finished else to_act
                connection.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
                for seat in seats:
                    connection.execute(
                        update(SeatRow)
                        .where(SeatRow.table_id == table_id, SeatRow.seat == seat.seat)
                        .values(kind=seat.kind, agent=seat.agent)
                    )
                if hands:
                    connection.execute(insert(HandRow), [
                        {"token": h.token, "table_id": table_id, "hand": h.hand,
                         "seats": list(h.seats), "role": h.role, "creator": h.creator,
                         "account_id": h.account}
                        for h in hands
                    ])
                if finished and end is not None:
                    self._ended(connection, table_id, end, now)
                if self.shared:
                    self._notify(connection, table_id, -1 - event.seq)
        except IntegrityError as exc:
            raise ConflictError(str(exc.orig)) from None

    def events_since(self, table_id: str, seq: int) -> list[EventData]:
        with Session(self.engine) as session:
            rows = session.scalars(
                select(EventRow)
                .where(EventRow.table_id == table_id, EventRow.seq >= seq)
                .order_by(EventRow.seq)
            ).all()
            return [EventData(e.seq, e.at, e.kind, e.seat, dict(e.data), e.created_at)
                    for e in rows]

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
                found.append([d for d in (self.load(i) for i in ids[:per_page]) if d])
        return found[0], found[1], more

    def take_seat(
        self,
        table_id: str,
        seat: int,
        kind: str,
        event: EventData,
        token: str | None = None,
        account: int | None = None,
    ) -> tuple[EventData, HandData | None] | None:
        """Give a free (``open``) seat to someone, with its event (``join`` or ``fill``) and,
        for a person, a new hand holding ``token``, all in ONE transaction: either the seat
        is taken and its link exists, or nothing changed. ``None`` if the seat was taken
        first. A signed-in player's ``account`` holds the seat and the link, under the name
        the event carries (issue 29).

        The event's number and the hand's are the table's next ones, read inside the
        transaction; when another process takes another seat at the same moment one of the
        two transactions is refused by the database (the same number), rolled back whole,
        and tried again with the next number. Returns the event and hand as stored."""
        agent = event.data.get("agent")
        values: dict[str, Any] = {"kind": kind, "agent": agent}
        if account is not None:
            values.update(account_id=account, name=event.data.get("name"))
        for _attempt in range(SEAT_ATTEMPTS):
            try:
                with self.engine.begin() as connection:
                    taken = connection.execute(
                        update(SeatRow)
                        .where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                               SeatRow.kind == "open")
                        .values(**values)
                    )
                    if not taken.rowcount:
                        return None
                    seq = int(connection.execute(
                        select(func.coalesce(func.max(EventRow.seq) + 1, 0))
                        .where(EventRow.table_id == table_id)
                    ).scalar_one())
                    stored = EventData(seq, event.at, event.kind, seat, event.data,
                                       event.created_at)
                    connection.execute(insert(EventRow), [{
                        "table_id": table_id, "seq": seq, "at": stored.at,
                        "kind": stored.kind, "seat": seat, "data": stored.data,
                        "created_at": stored.created_at,
                    }])
                    hand = None
                    if token is not None:
                        number = int(connection.execute(
                            select(func.coalesce(func.max(HandRow.hand) + 1, 0))
                            .where(HandRow.table_id == table_id)
                        ).scalar_one())
                        hand = HandData(token, number, (seat,), "joined", False, account)
                        connection.execute(insert(HandRow), [{
                            "token": token, "table_id": table_id, "hand": number,
                            "seats": [seat], "role": hand.role, "creator": False,
                            "account_id": account,
                        }])
                    connection.execute(update(TableRow).where(TableRow.id == table_id)
                                       .values(updated_at=stored.created_at))
                    if self.shared:
                        self._notify(connection, table_id, -1 - seq)
                    return stored, hand
            except IntegrityError:
                continue  # another seat taken at the same moment: the next numbers
        raise ConflictError(f"table {table_id}: seat {seat} could not be stored")

    def add_chat(self, table_id: str, channel: str, seat: int | None, name: str,
                 text_: str, at: float) -> int:
        with self.engine.begin() as connection:
            result = connection.execute(insert(ChatRow).values(
                table_id=table_id, channel=channel, seat=seat, name=name, text=text_,
                created_at=at,
            ))
            key = result.inserted_primary_key
            return int(key[0]) if key else 0

    def chat(self, table_id: str, channel: str, limit: int) -> list[dict[str, Any]]:
        with Session(self.engine) as session:
            rows = session.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id, ChatRow.channel == channel)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
            return [{"id": r.id, "seat": r.seat, "name": r.name, "text": r.text,
                     "at": r.created_at} for r in reversed(rows)]

    def take_back(self, table_id: str, undo: int, from_seq: int, event: EventData,
                  to_act: int | None) -> None:
        """Move the actions from ``from_seq`` on to the taken-back table (kept, never
        deleted) and store the undo event, in one transaction."""
        with self.engine.begin() as connection:
            rows = connection.execute(
                select(ActionRow).where(ActionRow.table_id == table_id,
                                        ActionRow.seq >= from_seq)
            ).all()
            if rows:
                connection.execute(insert(TakenBackRow), [
                    {"table_id": table_id, "undo": undo, "seq": r.seq, "action": r.action,
                     "player": r.player, "client_key": r.client_key, "created_at": r.created_at}
                    for r in rows
                ])
            connection.execute(
                delete(ActionRow).where(
                    ActionRow.table_id == table_id, ActionRow.seq >= from_seq
                )
            )
            connection.execute(insert(EventRow), [{
                "table_id": table_id, "seq": event.seq, "at": event.at, "kind": event.kind,
                "seat": event.seat, "data": event.data, "created_at": event.created_at,
            }])
            connection.execute(update(TableRow).where(TableRow.id == table_id).values(
                to_act=to_act, updated_at=event.created_at, finished=False))
            if self.shared:
                self._notify(connection, table_id, -1 - event.seq)

    def restart(
        self,
        table_id: str,
        params: dict[str, Any],
        seed: int,
        seats: Sequence[SeatData],
        hands: Sequence[HandData],
        actions: Sequence[ActionData],
        event: EventData,
        to_act: int | None,
        deadline: float | None,
    ) -> None:
        """Start an open table early with the players seated: its game's player count, seats
        and hands renumbered, the deal drawn again from the fresh secret ``seed`` (the old deal
        is kept as taken back, undo number -1), and a ``start`` event, in one transaction."""
        now = event.created_at
        with self.engine.begin() as connection:
            old = connection.execute(
                select(ActionRow).where(ActionRow.table_id == table_id)
            ).all()
            if old:
                connection.execute(insert(TakenBackRow), [
                    {"table_id": table_id, "undo": -1, "seq": r.seq, "action": r.action,
                     "player": r.player, "client_key": r.client_key, "created_at": r.created_at}
                    for r in old
                ])
            connection.execute(delete(ActionRow).where(ActionRow.table_id == table_id))
            connection.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            connection.execute(insert(SeatRow), [
                {"table_id": table_id, "seat": s.seat, "kind": s.kind, "agent": s.agent,
                 "name": s.name, "account_id": s.account, "bot": s.bot or None}
                for s in seats
            ])
            for hand in hands:
                connection.execute(
                    update(HandRow).where(HandRow.token == hand.token)
                    .values(seats=list(hand.seats))
                )
            if actions:
                connection.execute(insert(ActionRow), [
                    {"table_id": table_id, "seq": a.seq, "action": a.action, "player": a.player,
                     "client_key": a.client_key, "created_at": a.at or now} for a in actions
                ])
            connection.execute(insert(EventRow), [{
                "table_id": table_id, "seq": event.seq, "at": event.at, "kind": event.kind,
                "seat": event.seat, "data": event.data, "created_at": now,
            }])
            connection.execute(update(TableRow).where(TableRow.id == table_id).values(
                params=params, seed=seed, to_act=to_act, updated_at=now, deadline_at=deadline))
            if self.shared:
                self._notify(connection, table_id, -1 - event.seq)

    def taken_back(self, table_id: str) -> list[tuple[int, int, int]]:
        """``(undo, seq, action)`` of every action taken back at a table."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(TakenBackRow).where(TakenBackRow.table_id == table_id)
                .order_by(TakenBackRow.undo, TakenBackRow.seq)
            ).all()
            return [(r.undo, r.seq, r.action) for r in rows]

    def set_deadline(self, table_id: str, deadline: float | None) -> None:
        """Write when the running turn's time is up (``None``: no deadline), for the scan."""
        with self.engine.begin() as connection:
            connection.execute(
                update(TableRow).where(TableRow.id == table_id).values(deadline_at=deadline)
            )

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
