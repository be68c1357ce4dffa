"""The live tables' websockets: ``/ws/play/TOKEN`` (a seat) and ``/ws/watch/TABLE`` (a
spectator).

Each socket joins its table's listeners and gets its own state at once, then its chat history.
Messages it sends are checked (:func:`parlour.server.messages.protocol.parse_message`), rate-limited
per connection, and dispatched by type through :data:`HANDLERS`; what goes out is queued per
connection and written by one task, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel
from starlette.websockets import WebSocketDisconnect, WebSocketState

from parlour.core import RulesVersionError
from parlour.i18n import Message, localise, text_of
from parlour.server.limits import client_key
from parlour.server.messages.outgoing import Connection
from parlour.server.messages.protocol import (
    ActMessage,
    ChatMessage,
    PingMessage,
    ProtocolError,
    ReclaimMessage,
    ResignMessage,
    StateRequest,
    UndoMessage,
    error,
    parse_message,
)
from parlour.server.persistence.records import HandData
from parlour.server.tables.hub import Hub
from parlour.server.tables.table import Table
from parlour.server.web.deps import submission_of
from parlour.server.web.services import HubDep

router = APIRouter(prefix="/ws", tags=["live tables"])


@dataclass(frozen=True)
class Session:
    """One websocket at one table: whose hand it speaks for (``None``: a spectator)."""

    hub: Hub
    table: Table
    hand: HandData | None
    conn: Connection

    def seat(self) -> int | None:
        """The seat this socket acts for (``None``: it holds none)."""
        if self.hand is None or not self.hand.seats:
            return None
        return self.table.focus(self.hand)


Handler = Callable[[Session, Any], Awaitable[None]]


async def _ping(session: Session, message: PingMessage) -> None:
    session.conn.send({"type": "pong", "nonce": message.nonce,
                       "version": session.table.version})


async def _state(session: Session, message: StateRequest) -> None:
    session.conn.send(session.table.message(session.hand))


async def _chat(session: Session, message: ChatMessage) -> None:
    refused = await session.hub.chat.say(session.table, session.conn, message.text)
    if refused is not None:
        session.conn.send(refused)


async def _act(session: Session, message: ActMessage) -> None:
    if session.hand is None:
        session.conn.send(error("spectator", Message("a spectator's link cannot make moves"),
                                client_id=message.client_id))
        return
    await session.hub.mover.submit(session.table, submission_of(session.hand, message),
                                   origin=session.conn)


def _seat_or_refusal(session: Session) -> int | None:
    seat = session.seat()
    if seat is None:
        session.conn.send(error("spectator", Message("a spectator's link holds no seat")))
    return seat


async def _resign(session: Session, message: ResignMessage) -> None:
    if (seat := _seat_or_refusal(session)) is not None:
        session.conn.send(await session.hub.finisher.resign(session.table, seat))


async def _reclaim(session: Session, message: ReclaimMessage) -> None:
    if _seat_or_refusal(session) is None:
        return
    assert session.hand is not None
    for held in session.hand.seats:
        if held in session.table.taken_over:
            session.conn.send(await session.hub.finisher.reclaim(session.table, held))
            return
    session.conn.send(error("not_taken", Message("your seat is yours already")))


async def _undo(session: Session, message: UndoMessage) -> None:
    if (seat := _seat_or_refusal(session)) is not None:
        session.conn.send(await session.hub.takebacker.undo(session.table, seat,
                                                            message.answer))


HANDLERS: dict[type[BaseModel], Handler] = {
    PingMessage: _ping,
    StateRequest: _state,
    ChatMessage: _chat,
    ActMessage: _act,
    ResignMessage: _resign,
    ReclaimMessage: _reclaim,
    UndoMessage: _undo,
}
"""What each kind of client message does."""


@router.websocket("/play/{token}")
async def ws_play(websocket: WebSocket, token: str, hub: HubDep) -> None:
    await websocket.accept()
    try:
        found = await hub.find_token(token)
    except RulesVersionError as exc:
        await _refuse(websocket, "rules_version", text_of(exc), 4409)
        return
    if found is None:
        await websocket.send_json(localise(error("unknown_seat", Message("no seat has this link"))))
        await websocket.close(code=4404)
        return
    await hub.seats.arrive(*found)  # an invited player connecting is here
    await _serve(websocket, hub, *found)


@router.websocket("/watch/{table_id}")
async def ws_watch(websocket: WebSocket, table_id: str, hub: HubDep) -> None:
    await websocket.accept()
    try:
        table = await hub.table(table_id) if len(table_id) <= 32 else None
    except RulesVersionError as exc:
        await _refuse(websocket, "rules_version", text_of(exc), 4409)
        return
    if table is None:
        await websocket.send_json(localise(error(
            "unknown_table", Message("no table {table}", table=repr(table_id)))))
        await websocket.close(code=4404)
        return
    await _serve(websocket, hub, table, None)


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    await websocket.send_json(localise(error(code, message)))
    await websocket.close(code=close)


async def _serve(websocket: WebSocket, hub: Hub, table: Table, hand: HandData | None) -> None:
    if not hub.presence.can_join(table, hand):
        await websocket.send_json(localise(
            error("table_full", Message("this table has as many spectators as it can take"))
        ))
        await websocket.close(code=4429)
        return
    conn = Connection(hand, hub.limits, client_key(websocket.client.host
                                                    if websocket.client else None), hub.outbox)
    session = Session(hub, table, hand, conn)
    writer = asyncio.create_task(_pump(websocket, conn))
    hub.presence.join(table, conn)
    await hub.chat.history(table, conn)
    try:
        await _receive(websocket, session)
    except WebSocketDisconnect:
        pass
    finally:
        hub.presence.leave(table, conn)
        with contextlib.suppress(Exception):
            await writer


async def _receive(websocket: WebSocket, session: Session) -> None:
    """Read the client's messages until it goes away (or is let go for flooding)."""
    conn, limits = session.conn, session.hub.limits
    while not conn.closed:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
        data = frame.get("text")
        if data is None:
            data = frame.get("bytes") or b""
        message: BaseModel | None
        try:
            message = parse_message(data)
        except ProtocolError as exc:
            message = None
            problem = error(exc.code, exc.message)
        if not conn.rate.allow("messages"):
            conn.refused += 1
            ref = getattr(message, "client_id", None)
            conn.send(error("rate_limited", Message("too many messages: slow down"), client_id=ref))
            if conn.refused > 4 * limits.messages_burst:
                return  # a client that ignores the warnings is let go
            continue
        if message is None:
            conn.send(problem)
            continue
        await HANDLERS[type(message)](session, message)


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Send a connection's queued messages in order; stop when it closes."""
    try:
        while (text := await conn.next()) is not None:
            await websocket.send_text(text)
    except Exception:  # the client went away
        conn.closed = True
    finally:
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()
