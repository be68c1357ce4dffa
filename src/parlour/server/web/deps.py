"""What the routes need from a request, as FastAPI dependencies: a seat link's table and hand,
a table by id, the signed-in account, the client's key, and a checked JSON body (the services
themselves, the hub among them, are :mod:`parlour.server.web.services`')."""

from __future__ import annotations

from typing import Annotated, TypeVar

from fastapi import Depends, HTTPException, Request
from pydantic import BaseModel, ValidationError
from starlette.requests import HTTPConnection

from parlour.core import RulesVersionError
from parlour.i18n import Message, text_of
from parlour.server.accounts.accounts import Account
from parlour.server.accounts.sessions import session_id
from parlour.server.limits import Limits, client_key
from parlour.server.messages.protocol import ActMessage
from parlour.server.messages.validation import refused
from parlour.server.persistence.records import HandData
from parlour.server.tables.moves import Submission
from parlour.server.tables.table import Table
from parlour.server.web.services import accounts_of, hub_of

MAX_BODY_BYTES = Limits().body_bytes
M = TypeVar("M", bound=BaseModel)


async def seat_link(request: Request, token: str) -> tuple[Table, HandData]:
    """The table and hand a seat link (``/play/TOKEN``) opens; 404 for a link nobody holds,
    409 for a table stored under another version of its game's rules."""
    try:
        found = await hub_of(request).find_token(token)
    except RulesVersionError as exc:
        raise HTTPException(409, text_of(exc)) from None
    if found is None:
        raise HTTPException(404, Message("no seat has this link: check it was copied whole"))
    return found


SeatLink = Annotated[tuple[Table, HandData], Depends(seat_link)]
"""A seat link as a page opens it (a link preview fetches the page too: nobody arrives)."""


async def seat_in_use(request: Request, token: str) -> tuple[Table, HandData]:
    """A seat link its holder uses through the seat's API: an invited player doing so has
    arrived (:meth:`parlour.server.tables.seats.Seats.arrive`)."""
    found = await seat_link(request, token)
    await hub_of(request).seats.arrive(*found)
    return found


SeatInUse = Annotated[tuple[Table, HandData], Depends(seat_in_use)]


async def table_by_id(request: Request, table_id: str) -> Table:
    try:
        table = await hub_of(request).table(table_id) if len(table_id) <= 32 else None
    except RulesVersionError as exc:
        raise HTTPException(409, text_of(exc)) from None
    if table is None:
        raise HTTPException(404, Message("no table {table!r}", table=table_id))
    return table


TableDep = Annotated[Table, Depends(table_by_id)]


def client_of(request: HTTPConnection) -> str:
    """The client's address, hashed as the per-client limits know it."""
    return client_key(request.client.host if request.client else None)


async def json_body(request: Request, model: type[M]) -> M:
    """The request's JSON body checked against ``model``: 413 when too large, 400 with the
    first problem otherwise."""
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise HTTPException(413, Message("request body over {n} bytes", n=MAX_BODY_BYTES))
    try:
        return model.model_validate_json(body or b"{}")
    except ValidationError as exc:
        raise HTTPException(400, refused(exc, "body")) from None


def not_held(seat: int) -> str:
    """A seat the link does not hold, named as people count seats and as the API does."""
    return f'this link does not hold seat {seat + 1} ("seat": {seat})'


def viewer_of(table: Table, hand: HandData | None, seat: int | None) -> int | None:
    """Whose view a request sees: the asked seat (one the link holds), else the link's focus."""
    if hand is None:
        return None
    if seat is None:
        return table.focus(hand)
    if seat not in hand.seats:
        raise HTTPException(403, not_held(seat))
    return seat


def acting_seat(table: Table, hand: HandData, seat: int | None) -> int:
    """The seat a link acts for (``seat``, or the one it focuses on); 403 if it holds none."""
    if not hand.seats:
        raise HTTPException(403, Message("this link holds no seat"))
    chosen = table.focus(hand) if seat is None else seat
    if chosen is None or chosen not in hand.seats:
        raise HTTPException(403, not_held(hand.seats[0] if chosen is None else chosen))
    return chosen




def submission_of(hand: HandData, message: ActMessage) -> Submission:
    """An ``act`` message from a seat link, as the mover takes it (the client id scoped to
    the hand, so that a resend is recognised and two hands' ids never collide)."""
    return Submission(hand.seats, message.steps, f"{hand.hand}:{message.client_id}",
                      message.client_id, message.at, message.partial, message.preview)


# -- accounts (issue 29) -------------------------------------------------------------------------
async def account_of(request: HTTPConnection) -> Account | None:
    """The signed-in account of a request (its session cookie, looked up hashed), or ``None``
    for a guest."""
    return await accounts_of(request).by_session(session_id(request))


async def signed_in(request: HTTPConnection) -> Account:
    """The signed-in account; 401 for a guest."""
    account = await account_of(request)
    if account is None:
        raise HTTPException(401, Message("sign in first: this needs an account"))
    return account


MaybeAccount = Annotated[Account | None, Depends(account_of)]
SignedIn = Annotated[Account, Depends(signed_in)]


def player_of(account: Account | None) -> tuple[int, str] | None:
    """An account as the table parts know a player: its id and username."""
    return None if account is None else (account.id, account.username)
