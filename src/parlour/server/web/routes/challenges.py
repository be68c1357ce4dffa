"""Challenges (issue 31, docs/bots.md): ``POST /api/challenges``, ``GET /api/challenges``
(those waiting, sent and received), ``GET /api/challenges/{id}``, and
``POST /api/challenges/{id}/accept`` and ``/decline``. People use their session, bots a
``bot:play`` token."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from parlour.server.accounts.accounts import Account
from parlour.server.messages.schemas import Challenge, Challenges, ClockJSON, Params
from parlour.server.web.auth import caller
from parlour.server.web.deps import json_body
from parlour.server.web.services import ChallengesDep

router = APIRouter(prefix="/api/challenges", tags=["challenges"])


class NewChallenge(BaseModel):
    model_config = ConfigDict(extra="forbid")
    opponent: Annotated[str, Field(min_length=1, max_length=64)]
    game: Annotated[str, Field(min_length=1, max_length=64)]
    params: Params = Field(default_factory=dict, max_length=16)
    rated: bool = False
    clock: ClockJSON | None = None


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, Field(max_length=200)] | None = None


async def _who(request: Request) -> Account:
    return await caller(request, "bot:play")


@router.post("", status_code=201)
async def challenge(request: Request, challenges: ChallengesDep) -> Challenge:
    account = await _who(request)
    body = await json_body(request, NewChallenge)
    return await challenges.send(account, body.opponent, body.game,
                                             body.params, body.rated, body.clock)


@router.get("")
async def waiting(request: Request, challenges: ChallengesDep) -> Challenges:
    account = await _who(request)
    return {"challenges": await challenges.waiting(account)}


@router.get("/{challenge_id}")
async def one(request: Request, challenge_id: str, challenges: ChallengesDep) -> Challenge:
    account = await _who(request)
    return await challenges.describe(account, challenge_id)


@router.post("/{challenge_id}/accept")
async def accept(request: Request, challenge_id: str, challenges: ChallengesDep) -> Challenge:
    account = await _who(request)
    return await challenges.accept(account, challenge_id)


@router.post("/{challenge_id}/decline")
async def decline(request: Request, challenge_id: str, challenges: ChallengesDep) -> Challenge:
    account = await _who(request)
    body = await json_body(request, Answer)
    return await challenges.decline(account, challenge_id, body.reason)
