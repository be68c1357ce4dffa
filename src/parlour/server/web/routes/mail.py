"""E-mail: the account's address and choice, the confirmation link, and unsubscribing."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from parlour.i18n import N_, Message, gettext, text_of
from parlour.server.accounts.mail import MailError
from parlour.server.web.deps import SignedIn, json_body
from parlour.server.web.services import MailerDep
from parlour.server.web.templating import page

router = APIRouter(tags=["e-mail"])


class MailChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: Annotated[str, Field(max_length=254)] | None = None
    notify: bool = False


def _page(title: str, text: str) -> HTMLResponse:
    """A short page that says what a mail's link did, in the reader's language."""
    return page("notice.html", title=gettext(title), text=gettext(text))


@router.post("/api/me/email")
async def set_email(request: Request, account: SignedIn, mailer: MailerDep) -> dict[str, Any]:
    body = await json_body(request, MailChoice)
    try:
        message = await mailer.set_address(account.id, account.username,
                                                       body.email or None, body.notify)
    except MailError as exc:
        headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
        raise HTTPException(exc.status, text_of(exc), headers=headers) from None
    return {"message": message}


@router.get("/confirm-email/{token}", include_in_schema=False)
async def confirm(request: Request, token: str, mailer: MailerDep) -> HTMLResponse:
    if not await mailer.store.run(mailer.confirm, token):
        return _page(N_("Link expired"), N_("This confirmation link has been used or replaced."))
    return _page(N_("Address confirmed"),
                 N_("parlour will e-mail you when a correspondence game waits for you (if you "
                    "asked for it on your account page)."))


@router.get("/unsubscribe/{token}", include_in_schema=False)
async def unsubscribe(request: Request, token: str, mailer: MailerDep) -> HTMLResponse:
    if not await mailer.store.run(mailer.unsubscribe, token):
        raise HTTPException(404, Message("this unsubscribe link is not one of ours"))
    return _page(N_("Unsubscribed"), N_("No more turn e-mails. You can turn them on again on "
                                        "your account page."))
