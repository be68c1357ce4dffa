"""The database behind the server, as one facade: the rest of the server calls a
:class:`Store` and reads the records of :mod:`parlour.server.persistence.records`; each
method is one of the repositories' (tables, seats and events, the lobby, chat, claims), which
alone hold the SQL over the rows of :mod:`parlour.server.persistence.rows`.

The server writes an action, and commits, *before* it acknowledges it or shows it to anyone;
after a crash the tables are rebuilt by replaying the stored rows (every game replays exactly
from its actions, G-1).

All repository methods are synchronous (SQLAlchemy 2); the app calls them through
:meth:`Store.run`, which runs them on the store's own thread(s), off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.exc import IntegrityError

from parlour.server import metrics
from parlour.server.persistence.chat_repo import ChatRepo
from parlour.server.persistence.claims_repo import ClaimsRepo
from parlour.server.persistence.config import secure_sqlite_file
from parlour.server.persistence.lobby_repo import LobbyRepo
from parlour.server.persistence.players_repo import PlayersRepo
from parlour.server.persistence.records import (
    NOTIFY_CHANNEL,
    ActionData,
    Batch,
    ConflictError,
    EndHook,
    EventData,
    GameEnd,
    HandData,
    SeatData,
    TableData,
)
from parlour.server.persistence.seats_repo import SEAT_ATTEMPTS, SeatsRepo
from parlour.server.persistence.tables_repo import TablesRepo

__all__ = [
    "NOTIFY_CHANNEL",
    "SEAT_ATTEMPTS",
    "ActionData",
    "Batch",
    "ConflictError",
    "EndHook",
    "EventData",
    "GameEnd",
    "HandData",
    "SeatData",
    "Store",
    "TableData",
]

T = TypeVar("T")


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
        self.on_end: list[EndHook] = []
        """Run in the transaction that ends a game (the accounts' results and ratings)."""
        self._waiting: list[tuple[Batch, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        engine, shared, on_end = self.engine, self.shared, self.on_end
        self.tables = TablesRepo(engine, shared=shared, on_end=on_end)
        self.seats = SeatsRepo(engine, shared=shared, on_end=on_end)
        self.lobby_tables = LobbyRepo(self.tables)
        self.chats = ChatRepo(engine, shared=shared, on_end=on_end)
        self.claims = ClaimsRepo(engine, shared=shared, on_end=on_end)
        self.players = PlayersRepo(engine, shared=shared, on_end=on_end)
        """The other groups' queries over the table rows by player, in their transactions."""
        # the facade: each method is its repository's
        tables, seats, lobby, chats, claims = (self.tables, self.seats, self.lobby_tables,
                                               self.chats, self.claims)
        self.create_table = tables.create_table
        self.append = tables.append
        self.append_many = tables.append_many
        self.set_rematch = tables.set_rematch
        self.set_seat_names = tables.set_seat_names
        self.load = tables.load
        self.table_of_token = tables.table_of_token
        self.open_table_ids = tables.open_table_ids
        self.actions_since = tables.actions_since
        self.events_since = tables.events_since
        self.versions = tables.versions
        self.event_counts = tables.event_counts
        self.rematch_of = tables.rematch_of
        self.set_to_act = tables.set_to_act
        self.set_deadline = tables.set_deadline
        self.add_event = seats.add_event
        self.take_seat = seats.take_seat
        self.take_back = seats.take_back
        self.restart = seats.restart
        self.taken_back = seats.taken_back
        self.lobby = lobby.lobby
        self.waiting_table_ids = lobby.waiting_table_ids
        self.open_tables_created_by = lobby.open_tables_created_by
        self.expired_deadline_ids = lobby.expired_deadline_ids
        self.archive_idle = lobby.archive_idle
        self.add_chat = chats.add_chat
        self.chat = chats.chat
        self.claim = claims.claim
        self.release = claims.release
        self.unclaimed_waiting_ids = claims.unclaimed_waiting_ids
        self.ping = claims.ping

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store method on the store's thread, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._executor,
                                                                metrics.db_call(fn), *args)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.engine.dispose()

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
