"""E-mail: the account's address and choice, the confirmation link, and unsubscribing."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from parlour.i18n import Message, text_of
from parlour.server.accounts.mail import Mailer, MailError
from parlour.server.deps import SignedIn, json_body

router = APIRouter()


class MailChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: Annotated[str, Field(max_length=254)] | None = None
    notify: bool = False


def mailer_of(request: Request) -> Mailer:
    mailer: Mailer = request.app.state.mailer
    return mailer


def _page(title: str, text: str) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width, "
        "initial-scale=1'><link rel=stylesheet href=/static/parlour.css>"
        f"<title>parlour: {title}</title><main class=rules-page><h1>{title}</h1><p>{text}</p>"
        "<p><a href=/>Back to the lobby</a> · <a href=/account>Your account</a></p></main>")


@router.post("/api/me/email")
async def set_email(request: Request, account: SignedIn) -> dict[str, Any]:
    body = await json_body(request, MailChoice)
    try:
        message = await mailer_of(request).set_address(account.id, account.username,
                                                       body.email or None, body.notify)
    except MailError as exc:
        raise HTTPException(exc.status, text_of(exc)) from None
    return {"message": message}


@router.get("/confirm-email/{token}", include_in_schema=False)
async def confirm(request: Request, token: str) -> HTMLResponse:
    mailer = mailer_of(request)
    if not await mailer.store.run(mailer.confirm, token):
        return _page("Link expired", "This confirmation link has been used or replaced.")
    return _page("Address confirmed",
                 "parlour will e-mail you when a correspondence game waits for you (if you "
                 "asked for it on your account page).")


@router.get("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe(request: Request, token: str) -> HTMLResponse:
    mailer = mailer_of(request)
    if not await mailer.store.run(mailer.unsubscribe, token):
        raise HTTPException(404, Message("this unsubscribe link is not one of ours"))
    return _page("Unsubscribed", "No more turn e-mails. You can turn them on again on your "
                                 "account page.")
