"""The tables' own rows: a table made with its seats, hands and first actions, its moves
stored (one transaction per submission, or several tables' in one group commit), and the
reads that rebuild it (its record, what it stored since a version, the versions of many)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.server.persistence.records import (
    ActionData,
    Batch,
    ConflictError,
    EventData,
    GameEnd,
    HandData,
    SeatData,
    TableData,
)
from parlour.server.persistence.repository import Repository
from parlour.server.persistence.rows import ActionRow, EventRow, HandRow, SeatRow, TableRow

_Row = TypeVar("_Row", ActionRow, EventRow)
_Record = TypeVar("_Record")


def action_of(row: ActionRow) -> ActionData:
    return ActionData(row.seq, row.action, row.player, row.client_key, row.created_at)


def event_of(row: EventRow) -> EventData:
    return EventData(row.seq, row.at, row.kind, row.seat, dict(row.data), row.created_at)


class TablesRepo(Repository):
    """Tables, their seats, hands, actions and events as stored and read back."""

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
                actions=tuple(action_of(a) for a in actions),
                events=tuple(event_of(e) for e in events),
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

    def _since(self, row: type[_Row], table_id: str, seq: int,
               record: Callable[[_Row], _Record]) -> list[_Record]:
        """A table's stored actions or events (``row``) from number ``seq`` on, in order."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(row).where(row.table_id == table_id, row.seq >= seq).order_by(row.seq)
            ).all()
            return [record(r) for r in rows]

    def actions_since(self, table_id: str, seq: int) -> list[ActionData]:
        """The table's stored actions from move ``seq`` on (to catch a cached table up)."""
        return self._since(ActionRow, table_id, seq, action_of)

    def events_since(self, table_id: str, seq: int) -> list[EventData]:
        """The table's stored events from event ``seq`` on (to catch a cached table up)."""
        return self._since(EventRow, table_id, seq, event_of)

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

    def set_to_act(self, table_id: str, to_act: int | None) -> None:
        """Record who is to act (for a table stored before the column existed)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(TableRow).where(TableRow.id == table_id).values(to_act=to_act)
            )

    def set_deadline(self, table_id: str, deadline: float | None) -> None:
        """Write when the running turn's time is up (``None``: no deadline), for the scan."""
        with self.engine.begin() as connection:
            connection.execute(
                update(TableRow).where(TableRow.id == table_id).values(deadline_at=deadline)
            )
