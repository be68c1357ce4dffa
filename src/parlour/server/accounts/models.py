"""The account rows, on the store's declarative ``Base``; the schema revisions
(:mod:`parlour.server.persistence.migrations`) create them, and a change to them is a new revision.

Secrets are never stored as they are: a password as its Argon2id hash, a session id, an
unsubscribe or confirmation token and a matchmaking ticket as their SHA-256 (they are long
random strings: a fast hash is enough, and what a database leak gives away opens nothing).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.persistence.rows import Base


class AccountRow(Base):
    """A player who signed up. ``username_key`` is the name folded for comparison (unique
    ignoring case); a deleted account keeps its row, without name, secrets or address, so that
    the games it played still point somewhere (shown as "deleted player")."""

    __tablename__ = "parlour_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str | None] = mapped_column(String(20), nullable=True)
    username_key: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    handle: Mapped[bytes] = mapped_column(LargeBinary(64))
    """The WebAuthn user handle: random, so that a passkey names no account number."""
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    """A program's account (issue 31): marked on profiles and leaderboards."""
    created_at: Mapped[float] = mapped_column(Float)
    deleted_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    email_confirmed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    notify_email: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    """Send an e-mail when a correspondence game waits for this player (confirmed address)."""
    mail_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The hash of the token in the confirmation and unsubscribe links."""
    language: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The language the player last read parlour in (the header's choice or the browser's):
    the language of the e-mails sent to them. ``None`` until their first page as signed in."""


class SessionRow(Base):
    """A signed-in browser: the hash of its session id. Signing out deletes the row, so the
    cookie stops working on every process at once."""

    __tablename__ = "parlour_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    created_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class SignInFailureRow(Base):
    """Failed sign-ins in a row for one key (an address's hash, or a username's), shared by
    every process: the next attempt waits a delay that grows with them. An attempt is counted
    here before its password is checked, with the attempts being checked at once
    (``in_flight``, since ``flight_at``), so guesses sent together are counted together."""

    __tablename__ = "parlour_sign_in_failures"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last_at: Mapped[float] = mapped_column(Float)
    in_flight: Mapped[int | None] = mapped_column(Integer, nullable=True)
    flight_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class RateBucketRow(Base):
    """A token bucket every process shares (sign-ups and sign-ins per address): its tokens
    as of ``at``; it refills with time, so a full one may be forgotten."""

    __tablename__ = "parlour_rate_buckets"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float, index=True)


class PasskeyRow(Base):
    """A WebAuthn credential registered by an account."""

    __tablename__ = "parlour_passkeys"

    credential_id: Mapped[str] = mapped_column(String(1400), primary_key=True)  # base64url
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary(2048))
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class CeremonyRow(Base):
    """A WebAuthn challenge waiting for its answer (registration or sign-in), kept in the
    database so that the answer may reach any process; used once, and only for a few minutes."""

    __tablename__ = "parlour_webauthn_challenges"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary(64))
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    purpose: Mapped[str] = mapped_column(String(16))  # "register" or "sign_in"
    expires_at: Mapped[float] = mapped_column(Float, index=True)
    client: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The hashed address that asked for it (open prompts are capped per address)."""


class RatingRow(Base):
    """An account's Glicko-2 rating in one pool (a game, and its player count where it has a
    choice: ``stomple`` for two players, ``stomple-3p`` for three)."""

    __tablename__ = "parlour_ratings"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pool: Mapped[str] = mapped_column(String(80), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingChangeRow(Base):
    """One seat's rating change from one rated game. The primary key ``(table_id, seat)``
    makes the database refuse a second update of the same game, whichever process tries."""

    __tablename__ = "parlour_rating_changes"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    pool: Mapped[str] = mapped_column(String(80))
    before: Mapped[float] = mapped_column(Float)
    before_rd: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    after_rd: Mapped[float] = mapped_column(Float)
    after_volatility: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float, index=True)


class ResultRow(Base):
    """How each seat of a finished game placed (every table, rated or not), stored with the
    game's end: profiles count games and wins from these."""

    __tablename__ = "parlour_results"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    outcome: Mapped[str] = mapped_column(String(8))  # "win", "draw" or "loss"
    game_return: Mapped[float] = mapped_column(Float)
    created_at: Mapped[float] = mapped_column(Float)


class QueueRow(Base):
    """Someone waiting in "Play someone now": a pool (game, time control, rated or not), their
    rating, when they last showed they are still there, and once paired, the table."""

    __tablename__ = "parlour_queue"
    __table_args__ = (UniqueConstraint("account_id", "pool"),)

    ticket_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    pool: Mapped[str] = mapped_column(String(120), index=True)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    client: Mapped[str] = mapped_column(String(64), index=True)
    name: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float] = mapped_column(Float)
    joined_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float, index=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat_url: Mapped[str | None] = mapped_column(String(120), nullable=True)
    details: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class MailRow(Base):
    """A turn e-mail sent (or being sent): the key ``(table_id, version, account_id)`` lets
    one process only send it."""

    __tablename__ = "parlour_mail_sent"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    sent_at: Mapped[float] = mapped_column(Float, index=True)


class MailQuotaRow(Base):
    """When the last confirmation e-mails went for one key (``account:ID``, or ``to:`` and
    the hash of the address written to), shared by every process: the row is locked while a
    request counts and adds one, so two processes cannot both take the last place."""

    __tablename__ = "parlour_mail_quotas"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    sent: Mapped[list[float]] = mapped_column(JSON)
    last_at: Mapped[float] = mapped_column(Float, index=True)


class SettingRow(Base):
    """A server-wide value every process shares (the key of the unsubscribe links)."""

    __tablename__ = "parlour_settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))
