"""The Bot API (issue 31, docs/bots.md): ``GET /api/bot/stream`` (the account's events),
``GET /api/bot/game/{id}/stream`` (one game as the bot's seat sees it), and
``POST /api/bot/game/{id}/move`` and ``/resign``. Every route takes a ``bot:play`` token of a
bot account (:func:`parlour.server.web.auth.bot_caller`); streams are newline-delimited JSON.

The same two streams are also websockets, ``/api/bot/ws`` and ``/api/bot/game/{id}/ws`` (the
token in the upgrade's ``Authorization`` header): one source of lines (:class:`BotAPI`'s
producers, with their limits), two transports. A websocket carries each line as one text
message and leaves out the keep-alive lines (the websocket's own pings keep it alive); a
refusal is one ``{"type": "error", "status", "message"}`` message, then the close code
``4000 + status``."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request, WebSocket
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.websockets import WebSocketDisconnect

from parlour.i18n import Message, text_of
from parlour.server.bots.botapi import BotError, Stream
from parlour.server.bots.resends import IDEMPOTENCY_KEY_CHARS, KeyReused, resend_of
from parlour.server.messages.protocol import error
from parlour.server.messages.schemas import MoveReply
from parlour.server.tables.hub import Hub
from parlour.server.tables.moves import Submission
from parlour.server.web.auth import bot_caller
from parlour.server.web.deps import client_of, json_body
from parlour.server.web.language import LocalisedJSON
from parlour.server.web.services import BotAPIDep, HubDep

router = APIRouter(prefix="/api/bot", tags=["Bot API"])
NDJSON = "application/x-ndjson"
REFUSED_MOVE = frozenset({"illegal", "notation", "turn_over"})
"""Refusals of the move itself (400); the others are about the table's moment (409)."""


class Move(BaseModel):
    """A move: ``action`` in the game's notation, or ``id``, an action id of the state's
    ``legal`` list (the integer the game's API uses); exactly one of them."""

    model_config = ConfigDict(extra="forbid")
    action: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    id: Annotated[int, Field(ge=0, lt=2**31)] | None = None
    at: int | None = None
    """The move number the bot saw (optional): a move for an older one is refused."""

    @model_validator(mode="after")
    def _one(self) -> Move:
        if (self.action is None) == (self.id is None):
            raise ValueError('send the move as "action" (its notation) or "id", not both')
        return self

    def step(self) -> int | str:
        return self.id if self.id is not None else str(self.action)


class HeldStream(StreamingResponse):
    """A :class:`Stream` as NDJSON: however the response ends (the lines ran out, the client
    went away, an error), the stream is closed and its place in the account's count given
    back."""

    def __init__(self, stream: Stream) -> None:
        super().__init__(stream.lines, media_type=NDJSON,
                         headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        self.stream = stream

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.stream.close()


@router.get("/stream")
async def events(request: Request, bots: BotAPIDep) -> StreamingResponse:
    account = await bot_caller(request)
    try:
        return HeldStream(await bots.events(account))
    except BotError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None


@router.get("/game/{table_id}/stream")
async def game(request: Request, table_id: str, bots: BotAPIDep) -> StreamingResponse:
    account = await bot_caller(request)
    try:
        return HeldStream(await bots.game(account, table_id, client_of(request)))
    except BotError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None


@router.post("/game/{table_id}/move")
async def move(request: Request, table_id: str, bots: BotAPIDep, hub: HubDep) -> Response:
    """One move in the game's notation; the answer is the mover's (``ack``, or ``error``
    naming the rule a refused move breaks). Sent again with the same ``Idempotency-Key``
    header (or the same ``at`` and move), a stored move is answered as it was the first time
    and not played twice (:mod:`parlour.server.bots.resends`)."""
    account = await bot_caller(request)
    body = await json_body(request, Move)
    key = idempotency_key(request)
    try:
        table, hand = await bots.seat_of(account, table_id)
    except BotError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None
    resend = resend_of(account.id, table_id, hand.hand, body.model_dump(), key)
    if resend is None:
        return (await _play(hub, table, hand, body,
                            f"{hand.hand}:bot:{secrets.token_hex(8)}"))[1]
    resent = bots.resent
    async with resent.one_at_a_time(resend):
        try:
            answer = resent.recall(resend, table.acks)
        except KeyReused:
            return LocalisedJSON(error("idempotency_key_reused", Message(
                "this Idempotency-Key came with another move: send each new move with a new "
                "key")), status_code=422)
        if answer is not None:
            return Response(answer.body, status_code=answer.status, media_type="application/json")
        reply, response = await _play(hub, table, hand, body, resend.client_key)
        resent.remember(resend, response.status_code, reply, bytes(response.body))
        return response


def idempotency_key(request: Request) -> str | None:
    """The move's ``Idempotency-Key`` header, if it has one (at most
    :data:`~parlour.server.bots.resends.IDEMPOTENCY_KEY_CHARS` characters)."""
    key = request.headers.get("idempotency-key")
    if key is None:
        return None
    if not 0 < len(key.strip()) <= IDEMPOTENCY_KEY_CHARS:
        raise HTTPException(400, Message(
            "the Idempotency-Key header is 1 to {n} characters", n=IDEMPOTENCY_KEY_CHARS))
    return key.strip()


async def _play(hub: Hub, table: Any, hand: Any, body: Move, client_key: str
                ) -> tuple[MoveReply, JSONResponse]:
    """Submit the move under ``client_key``: the mover's reply, and the answer it makes."""
    submission = Submission(hand.seats, [body.step()], client_key, None, body.at, partial=True)
    reply = await hub.mover.submit(table, submission)
    status = 200
    if reply["type"] == "error":
        status = 400 if reply["code"] in REFUSED_MOVE else 409
    return reply, JSONResponse(reply, status_code=status)


@router.post("/game/{table_id}/resign")
async def resign(request: Request, table_id: str, bots: BotAPIDep, hub: HubDep) -> JSONResponse:
    account = await bot_caller(request)
    try:
        table, hand = await bots.seat_of(account, table_id)
    except BotError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None
    reply = await hub.finisher.resign(table, hand.seats[0])
    return JSONResponse(reply, status_code=409 if reply["type"] == "error" else 200)


# -- the same streams as websockets ----------------------------------------------------------------
async def _ws_stream(websocket: WebSocket,
                     open_stream: Callable[[Any], Awaitable[Stream]]) -> None:
    """Serve ``open_stream(account)``'s lines on ``websocket``: one message a line, until the
    lines end or the client goes away (then the producer is stopped, its counts let go)."""
    await websocket.accept()
    try:
        account = await bot_caller(websocket)
        stream = await open_stream(account)
    except (HTTPException, BotError) as exc:
        status = exc.status_code if isinstance(exc, HTTPException) else exc.status
        message = exc.detail if isinstance(exc, HTTPException) else str(exc)
        await websocket.send_json({"type": "error", "status": status, "message": message})
        await websocket.close(code=4000 + status)
        return

    async def pump() -> None:
        async for text in stream.lines:
            if text.strip():  # the keep-alive lines: the websocket pings instead
                await websocket.send_text(text.rstrip("\n"))

    async def listen() -> None:  # what the client sends is ignored; its leaving is not
        with contextlib.suppress(WebSocketDisconnect):
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass

    sender, reader = asyncio.create_task(pump()), asyncio.create_task(listen())
    try:
        await asyncio.wait({sender, reader}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sender, reader):
            task.cancel()
        for task in (sender, reader):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await stream.close()  # the producer's ``finally`` runs, the place is given back
    if sender.done() and not sender.cancelled() and sender.exception() is None:
        with contextlib.suppress(Exception):
            await websocket.close(code=1000)  # the stream ended (the game is over)


@router.websocket("/ws")
async def events_ws(websocket: WebSocket, bots: BotAPIDep) -> None:
    """``GET /api/bot/stream``'s events on a websocket."""
    await _ws_stream(websocket, bots.events)


@router.websocket("/game/{table_id}/ws")
async def game_ws(websocket: WebSocket, table_id: str, bots: BotAPIDep) -> None:
    """``GET /api/bot/game/{id}/stream``'s lines on a websocket."""

    async def stream(account: Any) -> Stream:
        return await bots.game(account, table_id, client_of(websocket))

    await _ws_stream(websocket, stream)
