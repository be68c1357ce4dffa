"""The Bot API (issue 31, docs/bots.md): ``GET /api/bot/stream`` (the account's events),
``GET /api/bot/game/{id}/stream`` (one game as the bot's seat sees it), and
``POST /api/bot/game/{id}/move`` and ``/resign``. Every route takes a ``bot:play`` token of a
bot account (:func:`parlour.server.auth.bot_caller`); streams are newline-delimited JSON."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator

from parlour.i18n import text_of
from parlour.server.auth import bot_caller
from parlour.server.botapi import BotAPI, BotError
from parlour.server.deps import client_of, hub_of, json_body
from parlour.server.moves import Submission

router = APIRouter()
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


def bots_of(request: Request) -> BotAPI:
    bots: BotAPI = request.app.state.botapi
    return bots


def _stream(lines: Any) -> StreamingResponse:
    return StreamingResponse(lines, media_type=NDJSON, headers={"Cache-Control": "no-store",
                                                                "X-Accel-Buffering": "no"})


@router.get("/api/bot/stream")
async def events(request: Request) -> StreamingResponse:
    account = await bot_caller(request)
    try:
        return _stream(await bots_of(request).events(account))
    except BotError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None


@router.get("/api/bot/game/{table_id}/stream")
async def game(request: Request, table_id: str) -> StreamingResponse:
    account = await bot_caller(request)
    try:
        return _stream(await bots_of(request).game(account, table_id, client_of(request)))
    except BotError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None


@router.post("/api/bot/game/{table_id}/move")
async def move(request: Request, table_id: str) -> JSONResponse:
    """One move in the game's notation; the answer is the mover's (``ack``, or ``error``
    naming the rule a refused move breaks)."""
    account = await bot_caller(request)
    body = await json_body(request, Move)
    try:
        table, hand = await bots_of(request).seat_of(account, table_id)
    except BotError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None
    submission = Submission(hand.seats, [body.step()], f"{hand.hand}:bot:{secrets.token_hex(8)}",
                            None, body.at, partial=True)
    reply = await hub_of(request).mover.submit(table, submission)
    status = 200
    if reply["type"] == "error":
        status = 400 if reply["code"] in REFUSED_MOVE else 409
    return JSONResponse(reply, status_code=status)


@router.post("/api/bot/game/{table_id}/resign")
async def resign(request: Request, table_id: str) -> JSONResponse:
    account = await bot_caller(request)
    try:
        table, hand = await bots_of(request).seat_of(account, table_id)
    except BotError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None
    reply: dict[str, Any] = await hub_of(request).finisher.resign(table, hand.seats[0])
    return JSONResponse(reply, status_code=409 if reply["type"] == "error" else 200)
