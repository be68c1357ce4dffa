""""Play someone now": joining the queue, asking how it goes (the page does so every 1.5 s,
which also says it is still there), and leaving it. The ticket is the waiter's secret."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from parlour.i18n import Message, text_of
from parlour.server.accounts.matchmaking import TIME_CONTROLS, QueueError
from parlour.server.messages.queue import Left, QueueStatus, Ticket, TimeControls
from parlour.server.names import NameRefused, person_name
from parlour.server.tables.clocks import clock_label
from parlour.server.web.deps import MaybeAccount, client_of, json_body, player_of
from parlour.server.web.services import MatchmakerDep

router = APIRouter(prefix="/api/queue", tags=["matchmaking"])


class JoinQueue(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(min_length=1, max_length=64)]
    clock: Annotated[str, Field(max_length=8)]
    rated: bool = False
    name: Annotated[str, Field(max_length=200)] | None = None
    """A guest's display name (an account plays under its username)."""


@router.get("")
async def controls() -> TimeControls:
    """The time controls, each in the reader's words as a table's clock says it ("3 min + 2 s"):
    the lobby cards' one Clock choice, and the tournament and challenge forms', offer these."""
    return {"clocks": [{"key": k, "label": clock_label(clock), "clock": clock}
                       for k, (_label, clock) in TIME_CONTROLS.items()]}


@router.post("", status_code=201)
async def join(request: Request, account: MaybeAccount, matchmaker: MatchmakerDep) -> Ticket:
    body = await json_body(request, JoinQueue)
    if account is not None and account.bot:
        raise HTTPException(403, Message("a bot plays through the Bot API: challenge it, or let "
                                         "it challenge others (docs/bots.md)"))
    try:
        name = person_name(body.name) or "Guest"
    except NameRefused as exc:
        raise HTTPException(400, text_of(exc)) from None
    try:
        return await matchmaker.join(
            body.game, body.clock, body.rated, player_of(account), name, client_of(request))
    except QueueError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None


@router.get("/{ticket}")
async def status(request: Request, ticket: str, matchmaker: MatchmakerDep) -> QueueStatus:
    found = await matchmaker.status(ticket[:64])
    if found is None:
        raise HTTPException(404, Message("this place in the queue has gone: join again"))
    return found


@router.delete("/{ticket}")
async def leave(request: Request, ticket: str, matchmaker: MatchmakerDep) -> Left:
    return {"left": await matchmaker.leave(ticket[:64])}
