"""A table's changes outside its moves, each in one transaction: a table event with what it
changes, a free seat taken (with its hand), an undo (the actions kept as taken back) and an
early start (seats, hands and the deal again)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.server.persistence.records import (
    ActionData,
    ConflictError,
    EventData,
    GameEnd,
    HandData,
    SeatData,
)
from parlour.server.persistence.repository import Repository
from parlour.server.persistence.rows import (
    ActionRow,
    EventRow,
    HandRow,
    SeatRow,
    TableRow,
    TakenBackRow,
)

SEAT_ATTEMPTS = 8
"""Tries of a seat's transaction when other seats of the table are taken at the same moment."""


class SeatsRepo(Repository):
    """Events, seats and hands changed, and actions taken back."""

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
                connection.execute(insert(EventRow), [self._event_row(table_id, event, now)])
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
                    connection.execute(insert(EventRow), [
                        self._event_row(table_id, stored, stored.created_at)])
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
            connection.execute(insert(EventRow), [
                self._event_row(table_id, event, event.created_at)])
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
            connection.execute(insert(EventRow), [self._event_row(table_id, event, now)])
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
