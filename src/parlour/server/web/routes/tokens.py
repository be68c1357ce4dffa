"""Bot accounts and personal API tokens (issue 31, docs/bots.md): ``POST /api/account/bot``,
``POST/GET /api/tokens``, ``DELETE /api/tokens/{id}``, and ``GET /api/account/games`` (a
``tables:read`` token, or the session).

Tokens are made and revoked by a signed-in person only (the session cookie): a token cannot
make another token."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from parlour.i18n import Message, text_of
from parlour.server.bots.bots import BotError, make_bot
from parlour.server.bots.tokens import SCOPES, TokenError
from parlour.server.messages.accounts import AccountAnswer, MyGames
from parlour.server.messages.tokens import NewToken as NewTokenAnswer
from parlour.server.messages.tokens import Revoked, TokenList
from parlour.server.web.auth import caller
from parlour.server.web.deps import SignedIn, json_body
from parlour.server.web.services import AccountsDep, TokensDep

router = APIRouter(prefix="/api", tags=["bots and tokens"])


class NewToken(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=200)]
    scopes: list[Annotated[str, Field(max_length=32)]] = Field(max_length=len(SCOPES))


@router.post("/account/bot")
async def become_bot(request: Request, account: SignedIn, accounts: AccountsDep) -> AccountAnswer:
    """Make the signed-in account a bot account, for good (only before it has played)."""
    store = accounts.store
    try:
        bot = await store.run(make_bot, store, account)
    except BotError as exc:
        raise HTTPException(409, text_of(exc)) from None
    return {"account": bot.public()}


@router.post("/tokens", status_code=201)
async def new_token(request: Request, account: SignedIn, tokens: TokensDep) -> NewTokenAnswer:
    """A new token: its secret is in this answer only (``token``), never shown again."""
    body = await json_body(request, NewToken)
    try:
        public, secret = await tokens.store.run(tokens.create, account, body.name, body.scopes)
    except TokenError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None
    return {**public, "token": secret}


@router.get("/tokens")
async def list_tokens(request: Request, account: SignedIn, tokens: TokensDep) -> TokenList:
    return {"tokens": await tokens.store.run(tokens.listed, account),
            "scopes": SCOPES}


@router.delete("/tokens/{token_id}")
async def revoke_token(request: Request, account: SignedIn, token_id: str,
                       tokens: TokensDep) -> Revoked:
    if not await tokens.store.run(tokens.revoke, account, token_id):
        raise HTTPException(404, Message("no such token"))
    return {"revoked": True}


@router.get("/account/games")
async def account_games(request: Request, accounts: AccountsDep) -> MyGames:
    """The account's games ("Your games"), for a ``tables:read`` token or the session."""
    account = await caller(request, "tables:read")
    games = await accounts.games(account)
    return {"games": games, "waiting": sum(g["your_turn"] for g in games)}
