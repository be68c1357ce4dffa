"""A seat link's API: ``/api/play/TOKEN`` (the seat's state) and what the seat may do over
HTTP (act, name itself, replay, record, rematch, and for the creator fill and start)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from parlour.i18n import Message, text_of
from parlour.server.messages.protocol import ActMessage, ProtocolError, error, parse_message
from parlour.server.messages.schemas import (
    Rematch,
    Replay,
    SeatFilled,
    SeatNamed,
    StartedEarly,
    StateMessage,
)
from parlour.server.names import NameRefused
from parlour.server.tables.seats import SeatError
from parlour.server.web.deps import (
    SeatInUse,
    acting_seat,
    json_body,
    not_held,
    submission_of,
    viewer_of,
)
from parlour.server.web.language import LocalisedJSON
from parlour.server.web.routes import documents
from parlour.server.web.services import HubDep

router = APIRouter(prefix="/api/play", tags=["seats"])


class SeatName(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=200)]
    seat: int | None = None


class FillSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int
    agent: Annotated[str, Field(max_length=64)]


@router.get("/{token}")
async def play_state(found: SeatInUse, seat: int | None = None) -> StateMessage:
    table, hand = found
    return table.message(hand, viewer_of(table, hand, seat))


@router.post("/{token}/act")
async def play_act(request: Request, found: SeatInUse, hub: HubDep) -> LocalisedJSON:
    table, hand = found
    try:
        message = parse_message(await request.body())
    except ProtocolError as exc:
        return LocalisedJSON(error(exc.code, exc.message), status_code=400)
    if not isinstance(message, ActMessage):
        return LocalisedJSON(error("malformed", "send an act message here"), status_code=400)
    reply = await hub.mover.submit(table, submission_of(hand, message))
    return LocalisedJSON(reply, status_code=409 if reply["type"] == "error" else 200)


@router.post("/{token}/name")
async def play_name(request: Request, found: SeatInUse, hub: HubDep) -> SeatNamed:
    """Set the display name of this link's seat (``seat`` picks one of a hot-seat's)."""
    table, hand = found
    body = await json_body(request, SeatName)
    if body.seat is None and len(hand.seats) != 1:
        raise HTTPException(400, Message("this link holds several seats: say which one to name"))
    seat = hand.seats[0] if body.seat is None else body.seat
    if seat not in hand.seats:
        raise HTTPException(403, not_held(seat))
    try:
        await hub.seats.rename(table, {seat: body.name})
    except NameRefused as exc:
        raise HTTPException(400, text_of(exc)) from None
    except SeatError as exc:
        raise HTTPException(409, text_of(exc)) from None
    return {"seat": seat, "name": table.seats[seat].name}


@router.get("/{token}/replay")
async def play_replay(found: SeatInUse, seat: int | None = None) -> Replay:
    table, hand = found
    return await documents.replay(table, viewer_of(table, hand, seat))


@router.get("/{token}/record")
async def play_record(found: SeatInUse, seat: int | None = None) -> Response:
    table, hand = found
    return await documents.record(table, viewer_of(table, hand, seat))


@router.post("/{token}/rematch")
async def play_rematch(found: SeatInUse, hub: HubDep) -> Rematch:
    table, hand = found
    if not table.over:  # the rules ended it, or the table did (a resignation, a loss on time)
        raise HTTPException(409, Message("a rematch is offered once the game is over"))
    await hub.maker.rematch(table)
    return {"url": f"/play/{table.rematch_tokens[hand.hand]}", "table": table.rematch_id}


@router.post("/{token}/fill")
async def play_fill(request: Request, found: SeatInUse, hub: HubDep) -> SeatFilled:
    """The creator fills a free seat with a computer player."""
    table, hand = found
    if not hand.creator:
        raise HTTPException(403, Message("only the table's creator fills seats"))
    body = await json_body(request, FillSeat)
    try:
        await hub.seats.fill(table, body.seat, body.agent)
    except SeatError as exc:
        raise HTTPException(409, text_of(exc)) from None
    return {"seat": body.seat, "agent": body.agent}


@router.post("/{token}/start")
async def play_start(token: str, found: SeatInUse, hub: HubDep) -> StartedEarly:
    """The creator starts an open table early with the players seated so far."""
    table, hand = found
    if not hand.creator:
        raise HTTPException(403, Message("only the table's creator starts it early"))
    try:
        await hub.seats.start_early(table)
    except SeatError as exc:
        raise HTTPException(409, text_of(exc)) from None
    now_held = table.hand_by_token(token)
    return {"players": table.game.num_players(),
            "seats": list(now_held.seats) if now_held else []}


@router.post("/{token}/resign")
async def play_resign(found: SeatInUse, hub: HubDep, seat: int | None = None) -> LocalisedJSON:
    table, hand = found
    reply = await hub.finisher.resign(table, acting_seat(table, hand, seat))
    return LocalisedJSON(reply, status_code=409 if reply["type"] == "error" else 200)
