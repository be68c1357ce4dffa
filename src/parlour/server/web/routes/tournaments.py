"""Tournaments: creating one, joining, leaving and starting it, reading it back, the lobby's
list, and the page ``/tournaments/ID`` (docs/tournaments.md)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from parlour.i18n import Message
from parlour.server.messages.schemas import ClockJSON, Params
from parlour.server.messages.tournaments import Membership, Tournament, TournamentListing
from parlour.server.tournaments.service import (
    DEFAULT_GRACE,
    NAME_LENGTH,
    Spec,
)
from parlour.server.web import templating
from parlour.server.web.auth import caller
from parlour.server.web.deps import MaybeAccount, SignedIn, json_body
from parlour.server.web.services import TournamentRunnerDep, TournamentsDep

router = APIRouter(tags=["tournaments"])
log = logging.getLogger("parlour.server")
ID_LENGTH = 16


class NewTournament(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(min_length=1, max_length=64)]
    params: Annotated[Params, Field(max_length=16)] = {}
    format: Annotated[str, Field(max_length=16)]
    rounds: int | None = None
    clock: ClockJSON | None = None
    rated: bool = False
    starts_at: datetime | None = None
    """An ISO 8601 time (UTC when it names no zone) or seconds since 1970."""
    name: Annotated[str, Field(max_length=NAME_LENGTH * 4)] | None = None
    max_players: int | None = None
    grace: float = DEFAULT_GRACE


def _id(tournament_id: str) -> str:
    if len(tournament_id) > ID_LENGTH:
        raise HTTPException(404, Message("no such tournament"))
    return tournament_id


@router.post("/api/tournaments", status_code=201)
async def create(request: Request, account: SignedIn, tournaments: TournamentsDep) -> dict[str,
                 Any]:
    body = await json_body(request, NewTournament)
    starts = body.starts_at
    if starts is not None and starts.tzinfo is None:
        starts = starts.replace(tzinfo=UTC)
    spec = Spec(body.game, body.params, body.format, body.rounds, body.clock, body.rated,
                None if starts is None else starts.timestamp(), body.name,
                body.max_players, body.grace)
    tid = await tournaments.create(spec, account.id)
    return {"id": tid, "url": f"/tournaments/{tid}"}


@router.get("/api/tournaments")
async def listing(request: Request, tournaments: TournamentsDep) -> TournamentListing:
    """Upcoming (open), running and recently finished tournaments, for the lobby."""
    return await tournaments.listing()


@router.get("/api/tournaments/{tournament_id}")
async def read(request: Request, tournament_id: str, account: MaybeAccount,
               tournaments: TournamentsDep) -> Tournament:
    found = await tournaments.read(_id(tournament_id),
                                               None if account is None else account.id)
    if found is None:
        raise HTTPException(404, Message("no such tournament"))
    return found


@router.post("/api/tournaments/{tournament_id}/join")
async def join(request: Request, tournament_id: str, tournaments: TournamentsDep) -> Membership:
    account = await caller(request, "bot:play")  # a person's session, or a bot's token
    return await tournaments.join(_id(tournament_id), account.id)


@router.post("/api/tournaments/{tournament_id}/leave")
async def leave(request: Request, tournament_id: str, tournaments: TournamentsDep) -> Membership:
    account = await caller(request, "bot:play")  # a person's session, or a bot's token
    return await tournaments.leave(_id(tournament_id), account.id)


@router.post("/api/tournaments/{tournament_id}/start")
async def start(request: Request, tournament_id: str, account: SignedIn,
                tournaments: TournamentsDep, runner: TournamentRunnerDep) -> dict[str, Any]:
    await tournaments.store.run(tournaments.start, _id(tournament_id), account.id)
    try:  # round 1 now; if this fails, the runner makes it on its next look
        await runner.advance(tournament_id)
    except Exception:
        log.exception("tournament %s: round 1 not made at its start", tournament_id)
    return {"started": True}


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
async def page(tournament_id: str) -> HTMLResponse:
    return templating.page("tournament.html")
