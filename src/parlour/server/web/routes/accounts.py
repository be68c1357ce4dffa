"""Accounts' API: signing up, in and out (everywhere too), who is signed in, changing the
password, deleting the account, and the games that follow it ("Your games").

Every answer is JSON; refusals are ``{"detail": reason}`` with the status the docs name: 400 a
name or password the policy refuses, 401 a wrong password or unknown user (the same body for
both), 409 a name taken, 429 too many attempts (with ``Retry-After``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from parlour import i18n
from parlour.i18n import Message, text_of
from parlour.server.accounts.accounts import (
    Account,
    Accounts,
    SignInRefused,
    Taken,
    TooManyAttempts,
)
from parlour.server.accounts.passkeys import PasskeyError
from parlour.server.accounts.passwords import MAX_PASSWORD, MAX_USERNAME, PolicyError
from parlour.server.accounts.sessions import clear_cookie, session_id, set_cookie
from parlour.server.messages.accounts import AccountAnswer, GamesJoined, MyGames
from parlour.server.web.deps import MaybeAccount, SignedIn, client_of, json_body
from parlour.server.web.services import (
    AccountsDep,
    HubDep,
    PasskeysDep,
    SecureCookies,
    TokensDep,
)

router = APIRouter(prefix="/api", tags=["accounts"])
Password = Annotated[str, Field(max_length=MAX_PASSWORD * 2)]


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: Annotated[str, Field(max_length=64)]
    password: Password


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid")
    current: Password
    new: Password


class PasswordOnly(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: Password


class GuestLinks(BaseModel):
    model_config = ConfigDict(extra="forbid")
    links: list[Annotated[str, Field(max_length=200)]] = Field(max_length=20)


def _signed_in(request: Request, accounts: Accounts, secure: bool, account: Account, secret: str,
               status: int = 200) -> Response:
    """The account, with the session cookie of a new session (``Secure`` when ``secure``)."""
    response = JSONResponse({"account": account.public()}, status_code=status)
    set_cookie(response, request, secret, accounts.limits.session_days, secure)
    return response


def _refused(exc: TooManyAttempts) -> HTTPException:
    """A sign-in or sign-up refused before any hashing: 429 (503 when every client's hashes
    fill the queue), with the seconds to wait."""
    return HTTPException(exc.status, text_of(exc), headers={"Retry-After": str(exc.wait)})


@router.post("/accounts", status_code=201)
async def sign_up(request: Request, accounts: AccountsDep, secure: SecureCookies) -> Response:
    body = await json_body(request, Credentials)
    if len(body.username) > MAX_USERNAME:
        raise HTTPException(400, Message(
            "a username is at most {max_username} characters long",
            max_username=MAX_USERNAME))
    try:
        account, secret = await accounts.sign_up(body.username, body.password,
                                                             client_of(request))
    except TooManyAttempts as exc:
        raise _refused(exc) from None
    except PolicyError as exc:
        raise HTTPException(400, text_of(exc)) from None
    except Taken as exc:
        raise HTTPException(409, text_of(exc)) from None
    return _signed_in(request, accounts, secure, account, secret, 201)


@router.post("/session")
async def sign_in(request: Request, accounts: AccountsDep, secure: SecureCookies) -> Response:
    body = await json_body(request, Credentials)
    try:
        account, secret = await accounts.sign_in(
            body.username, body.password, client_of(request))
    except SignInRefused:
        raise HTTPException(401, SignInRefused.MESSAGE) from None
    except TooManyAttempts as exc:
        raise _refused(exc) from None
    return _signed_in(request, accounts, secure, account, secret)


@router.delete("/session")
async def sign_out(request: Request, accounts: AccountsDep, secure: SecureCookies) -> Response:
    """Sign this browser out (its session ends on every process); fine for a guest too."""
    secret = session_id(request)
    if secret:
        await accounts.sign_out(secret)
    response = JSONResponse({"signed_out": True})
    clear_cookie(response, request, secure)
    return response


@router.delete("/sessions")
async def sign_out_everywhere(request: Request, account: SignedIn, accounts: AccountsDep,
                              secure: SecureCookies) -> Response:
    ended = await accounts.sign_out_everywhere(account.id)
    response = JSONResponse({"signed_out": True, "sessions": ended})
    clear_cookie(response, request, secure)
    return response


@router.get("/me")
async def me(account: SignedIn) -> AccountAnswer:
    return {"account": account.public()}


@router.post("/me/password")
async def change_password(request: Request, account: SignedIn, accounts: AccountsDep,
                          secure: SecureCookies) -> Response:
    """A new password (the current one asked again); every other session ends."""
    body = await json_body(request, NewPassword)
    try:
        secret = await accounts.change_password(
            account, body.current, body.new, client_of(request))
    except SignInRefused:
        raise HTTPException(401, Message("that is not your current password")) from None
    except TooManyAttempts as exc:
        raise _refused(exc) from None
    except PolicyError as exc:
        raise HTTPException(400, text_of(exc)) from None
    return _signed_in(request, accounts, secure, account, secret)


@router.post("/me/delete")
async def delete_account(request: Request, account: SignedIn, hub: HubDep, accounts: AccountsDep,
                         secure: SecureCookies, tokens: TokensDep) -> Response:
    """Delete the account for good (the password asked again); its games stay."""
    body = await json_body(request, PasswordOnly)
    try:
        tables = await accounts.delete(account, body.password, client_of(request))
    except SignInRefused:
        raise HTTPException(401, Message("that is not your password")) from None
    except TooManyAttempts as exc:
        raise _refused(exc) from None
    # its API tokens go with it (issue 31)
    await tokens.store.run(tokens.remove_all, account.id)
    for table_id in tables:  # the tables loaded here show "deleted player" at once
        loaded = hub.registry.tables.get(table_id)
        if loaded is not None:
            await hub.reload(loaded)
    response = JSONResponse({"deleted": True})
    clear_cookie(response, request, secure)
    return response


@router.get("/me/games")
async def my_games(request: Request, account: SignedIn, accounts: AccountsDep) -> MyGames:
    """The account's games, newest first, each with whether it waits for this player."""
    games = await accounts.games(account)
    return {"games": games, "waiting": sum(g["your_turn"] for g in games)}


@router.post("/me/games")
async def join_games(request: Request, account: SignedIn, accounts: AccountsDep) -> GamesJoined:
    """Seat links this browser played as a guest (``/play/TOKEN``) join the account."""
    body = await json_body(request, GuestLinks)
    tokens = [link.rstrip("/").rsplit("/", 1)[-1] for link in body.links]
    return {"joined": await accounts.join_games(account, tokens)}


@router.get("/whoami")
async def whoami(request: Request, account: MaybeAccount, accounts: AccountsDep) -> AccountAnswer:
    """The signed-in account, or ``null`` for a guest (for pages: never 401). Every page asks
    it, so this is where the account's language is kept (the language its e-mails are in)."""
    if account is not None:
        await accounts.remember_language(account, i18n.current())
    return {"account": None if account is None else account.public()}


# -- passkeys ------------------------------------------------------------------------------------
class PasskeyAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ceremony: Annotated[str, Field(max_length=64)]
    credential: dict[str, Any]


def relying_party(request: Request) -> tuple[str, str]:
    """The WebAuthn relying party of a request: the host name it reached (without the port),
    and the origin the browser must report (the page's own: the Guard has checked that an
    Origin names this host)."""
    host = request.headers.get("host", "")[:255]
    origin = f"{'https' if request.url.scheme in ('https', 'wss') else 'http'}://{host}"
    return host.rsplit(":", 1)[0] if not host.endswith("]") else host, origin


def _passkey_call(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except PasskeyError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None


@router.post("/me/passkeys/options")
async def passkey_options(request: Request, account: SignedIn, keys: PasskeysDep) -> dict[str, Any]:
    rp_id, _origin = relying_party(request)
    return await keys.store.run(_passkey_call, keys.register_options, account, rp_id,
                                client_of(request))


@router.post("/me/passkeys", status_code=201)
async def passkey_register(request: Request, account: SignedIn, keys: PasskeysDep) -> dict[str,
                           Any]:
    body = await json_body(request, PasskeyAnswer)
    rp_id, origin = relying_party(request)
    return await keys.store.run(_passkey_call, keys.register, account, body.ceremony,
                                body.credential, rp_id, origin)


@router.get("/me/passkeys")
async def passkey_list(request: Request, account: SignedIn, keys: PasskeysDep) -> dict[str, Any]:
    return {"passkeys": await keys.store.run(keys.listed, account)}


@router.delete("/me/passkeys/{credential_id}")
async def passkey_remove(request: Request, account: SignedIn, credential_id: str,
                         keys: PasskeysDep) -> dict[str, Any]:
    if not await keys.store.run(keys.remove, account, credential_id[:1400]):
        raise HTTPException(404, Message("no such passkey"))
    return {"removed": True}


@router.post("/session/passkey/options")
async def passkey_sign_in_options(request: Request, keys: PasskeysDep) -> dict[str, Any]:
    rp_id, _origin = relying_party(request)
    return await keys.store.run(_passkey_call, keys.sign_in_options, rp_id,
                                client_of(request))


@router.post("/session/passkey")
async def passkey_sign_in(request: Request, accounts: AccountsDep, keys: PasskeysDep,
                          secure: SecureCookies) -> Response:
    body = await json_body(request, PasskeyAnswer)
    rp_id, origin = relying_party(request)
    account_id = await keys.store.run(_passkey_call, keys.sign_in, body.ceremony,
                                      body.credential, rp_id, origin, client_of(request))
    account, secret = await accounts.begin(account_id)
    return _signed_in(request, accounts, secure, account, secret)
