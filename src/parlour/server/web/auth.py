"""Who is asking, for the routes programs use: a personal API token (``Authorization: Bearer``,
:mod:`parlour.server.bots.tokens`) or, for people, the session cookie.

A bad token is refused ``401`` with ``WWW-Authenticate: Bearer error="invalid_token"``, a
token without the scope a route needs ``403`` (``error="insufficient_scope"``, naming it), a
token over its own rate ``429`` with ``Retry-After``; the reasons are in the ``detail``.
"""

from __future__ import annotations

from fastapi import HTTPException
from starlette.requests import HTTPConnection

from parlour.i18n import Message
from parlour.server.accounts.accounts import Account
from parlour.server.bots.tokens import Bearer
from parlour.server.web.deps import account_of
from parlour.server.web.services import tokens_of


def bearer_secret(request: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer`` header, if the request sent one."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    kind, _sep, secret = header.partition(" ")
    if kind.lower() != "bearer" or not secret.strip():
        raise _refused(401, Message("send the token as Authorization: Bearer TOKEN"),
                       "invalid_request")
    return secret.strip()


def _refused(status: int, detail: str, code: str, scope: str | None = None) -> HTTPException:
    challenge = f'Bearer error="{code}"' + (f', scope="{scope}"' if scope else "")
    return HTTPException(status, detail, headers={"WWW-Authenticate": challenge})


async def bearer(request: HTTPConnection, scope: str) -> Bearer | None:
    """The token's account if the request sent one holding ``scope``; ``None`` for none."""
    secret = bearer_secret(request)
    if secret is None:
        return None
    tokens = tokens_of(request)
    found = await tokens.store.run(tokens.check, secret)
    if found is None:
        raise _refused(401, Message("that token is not valid: it was revoked, mistyped, or its "
                                    "account deleted"), "invalid_token")
    if scope not in found.scopes:
        raise _refused(403, Message("this token lacks the {scope} scope: make a token with it on "
                                    "the account page", scope=scope), "insufficient_scope", scope)
    if not tokens.rate.allow(found.token_id):
        wait = tokens.rate.retry_after(found.token_id)
        raise HTTPException(429, Message("too many requests with this token: try again in {n} s",
                                         n=wait), headers={"Retry-After": str(wait)})
    return found


async def caller(request: HTTPConnection, scope: str) -> Account:
    """The account behind a request: its token (holding ``scope``), else its session; 401."""
    found = await bearer(request, scope)
    if found is not None:
        return found.account
    account = await account_of(request)
    if account is None:
        raise _refused(401, Message("sign in, or send a token as Authorization: Bearer TOKEN"),
                       "invalid_token")
    return account


async def bot_caller(request: HTTPConnection) -> Account:
    """A bot account through a ``bot:play`` token (the Bot API takes nothing else)."""
    found = await bearer(request, "bot:play")
    if found is None:
        raise _refused(401, Message(
            "the Bot API needs a bot:play token as Authorization: Bearer TOKEN"), "invalid_token")
    if not found.account.bot:
        raise _refused(403, Message("only a bot account plays through the Bot API"),
                       "insufficient_scope", "bot:play")
    return found.account
