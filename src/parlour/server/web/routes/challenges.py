"""Challenges (issue 31, docs/bots.md): ``POST /api/challenges``, ``GET /api/challenges``
(those waiting, sent and received), ``GET /api/challenges/{id}``, and
``POST /api/challenges/{id}/accept`` and ``/decline``. People use their session, bots a
``bot:play`` token."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from parlour.server.accounts.accounts import Account
from parlour.server.accounts.challenges import Challenges
from parlour.server.web.auth import caller
from parlour.server.web.deps import json_body

router = APIRouter()


class NewChallenge(BaseModel):
    model_config = ConfigDict(extra="forbid")
    opponent: Annotated[str, Field(min_length=1, max_length=64)]
    game: Annotated[str, Field(min_length=1, max_length=64)]
    params: dict[str, Any] = Field(default_factory=dict, max_length=16)
    rated: bool = False
    clock: dict[str, Any] | None = None


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, Field(max_length=200)] | None = None


def challenges_of(request: Request) -> Challenges:
    challenges: Challenges = request.app.state.challenges
    return challenges


async def _who(request: Request) -> Account:
    return await caller(request, "bot:play")


@router.post("/api/challenges", status_code=201)
async def challenge(request: Request) -> dict[str, Any]:
    account = await _who(request)
    body = await json_body(request, NewChallenge)
    return await challenges_of(request).send(account, body.opponent, body.game,
                                             body.params, body.rated, body.clock)


@router.get("/api/challenges")
async def waiting(request: Request) -> dict[str, Any]:
    account = await _who(request)
    return {"challenges": await challenges_of(request).waiting(account)}


@router.get("/api/challenges/{challenge_id}")
async def one(request: Request, challenge_id: str) -> dict[str, Any]:
    account = await _who(request)
    return await challenges_of(request).describe(account, challenge_id)


@router.post("/api/challenges/{challenge_id}/accept")
async def accept(request: Request, challenge_id: str) -> dict[str, Any]:
    account = await _who(request)
    return await challenges_of(request).accept(account, challenge_id)


@router.post("/api/challenges/{challenge_id}/decline")
async def decline(request: Request, challenge_id: str) -> dict[str, Any]:
    account = await _who(request)
    body = await json_body(request, Answer)
    return await challenges_of(request).decline(account, challenge_id, body.reason)
