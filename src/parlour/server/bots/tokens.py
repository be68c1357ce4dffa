"""Personal API tokens: what a program sends as ``Authorization: Bearer ...`` instead of a
session cookie (issue 31, docs/bots.md).

A token is made on request by a signed-in account (``POST /api/tokens``), shown once, and
stored as its SHA-256 only, like a session id: a copy of the database opens nothing. Each token
carries scopes, checked by every route that takes tokens:

- ``bot:play``: play as a bot (the Bot API, challenges); only a bot account may hold it;
- ``tables:read``: read the account's own games (``GET /api/account/games``).

A token may be revoked on the account page (``DELETE /api/tokens/{id}``) and stops working on
every process at once (every request looks its hash up). Each token has its own request rate
(:attr:`Limits.token_requests_per_second`), over the per-address limits of every client.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from sqlalchemy import JSON, Float, Integer, String, delete, func, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from parlour.i18n import Message
from parlour.server.accounts.accounts import Account, account_from_row
from parlour.server.accounts.models import AccountRow
from parlour.server.accounts.sessions import digest
from parlour.server.limits import Limits, RateLimiter
from parlour.server.messages.tokens import TokenInfo
from parlour.server.persistence.rows import Base
from parlour.server.persistence.store import Store

PREFIX = "plr_"
"""How every token starts (so a leaked one is recognisable, as GitHub's are)."""
MAX_TOKEN = 80
"""A token is 47 characters; a longer header is not looked up."""
SCOPES = {
    "bot:play": "play games as a bot: the Bot API and challenges (bot accounts only)",
    "tables:read": "read your own games",
}
USED_EVERY = 60.0
"""A token's "last used" is written at most this often (one write a minute, not a request)."""


class TokenRow(Base):
    """A personal API token: its public id, the hash of its secret, its account and scopes."""

    __tablename__ = "parlour_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    """Public: names the token in lists and in ``DELETE /api/tokens/{id}``."""
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    name: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[list[str]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class TokenError(ValueError):
    """A token that cannot be made as asked (the message says why; ``status`` the answer)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Bearer:
    """Who a token speaks for: the account, the token's id and its scopes."""

    account: Account
    token_id: str
    scopes: frozenset[str]


class Tokens:
    """Making, listing, revoking and checking personal API tokens."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.rate = RateLimiter(limits.token_requests_burst, limits.token_requests_per_second,
                                limits.rate_keys)

    def create(self, account: Account, name: str, scopes: list[str]) -> tuple[TokenInfo, str]:
        """A new token for ``account``: its public description and the secret (shown once)."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= 64:
            raise TokenError(Message("name the token (1 to 64 characters): what will use it?"))
        unknown = sorted(set(scopes) - set(SCOPES))
        if unknown or not scopes:
            scopes_ = ", ".join(sorted(SCOPES))
            raise TokenError(Message("a token's scopes are some of {scopes}, not {unknown}",
                                     scopes=scopes_, unknown=", ".join(unknown)) if unknown
                             else Message("a token's scopes are some of {scopes}", scopes=scopes_))
        if "bot:play" in scopes and not account.bot:
            raise TokenError(Message("only a bot account may hold a bot:play token: make this "
                                     "account a bot first (POST /api/account/bot)"), 403)
        secret = PREFIX + secrets.token_urlsafe(32)
        now = time.time()
        row = TokenRow(id=secrets.token_hex(6), secret_hash=digest(secret),
                       account_id=account.id, name=name, scopes=sorted(set(scopes)),
                       created_at=now)
        with Session(self.store.engine, expire_on_commit=False) as session, session.begin():
            held = session.scalar(select(func.count()).select_from(TokenRow)
                                  .where(TokenRow.account_id == account.id)) or 0
            if held >= self.limits.tokens_per_account:
                raise TokenError(Message(
                    "an account holds at most {n} tokens: revoke one you no longer use",
                    n=self.limits.tokens_per_account), 409)
            session.add(row)
        return _public(row), secret

    def listed(self, account: Account) -> list[TokenInfo]:
        with Session(self.store.engine) as session:
            rows = session.scalars(select(TokenRow).where(TokenRow.account_id == account.id)
                                   .order_by(TokenRow.created_at.desc())).all()
            return [_public(r) for r in rows]

    def revoke(self, account: Account, token_id: str) -> bool:
        with Session(self.store.engine) as session, session.begin():
            gone = session.execute(delete(TokenRow).where(
                TokenRow.id == token_id[:16], TokenRow.account_id == account.id))
            return bool(gone.rowcount)  # type: ignore[attr-defined]

    def check(self, secret: str) -> Bearer | None:
        """The account and scopes of a token's secret, or ``None`` (unknown, revoked, or its
        account deleted)."""
        if not secret.startswith(PREFIX) or len(secret) > MAX_TOKEN:
            return None
        now = time.time()
        with Session(self.store.engine) as session:
            row = session.scalar(select(TokenRow).where(TokenRow.secret_hash == digest(secret)))
            if row is None:
                return None
            account = session.get(AccountRow, row.account_id)
            if account is None or account.deleted_at is not None or account.username is None:
                return None
            found = Bearer(account_from_row(account), row.id, frozenset(row.scopes))
            if row.used_at is None or now - row.used_at > USED_EVERY:
                session.execute(update(TokenRow).where(TokenRow.id == row.id)
                                .values(used_at=now))
                session.commit()
            return found

    def remove_all(self, account_id: int) -> None:
        """Every token of an account (it was deleted)."""
        with Session(self.store.engine) as session, session.begin():
            session.execute(delete(TokenRow).where(TokenRow.account_id == account_id))


def _public(row: TokenRow) -> TokenInfo:
    return {"id": row.id, "name": row.name, "scopes": list(row.scopes),
            "created_at": row.created_at, "used_at": row.used_at}
