"""The schema of the tables the server keeps: one class per table (``...Row``) on the shared
declarative :class:`Base`, on which the other groups' own rows sit too.

Only the repositories (``tables_repo``, ``lobby_repo``, ``chat_repo``, ``claims_repo``) query these
rows; the rest of the server reads the records of :mod:`parlour.server.persistence.records`
through :class:`parlour.server.persistence.store.Store`.

The primary key ``(table_id, seq)`` of the actions makes the database itself refuse a second
action for a move number that is already taken, and the unique ``(table_id, client_key)``
refuses a resent submission, so both guarantees hold even if two writers race.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "parlour_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)  # secret: drives the chance events
    created_at: Mapped[float] = mapped_column(Float)
    finished: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Added after the first release (migration 0001): who is to act after the last
    # stored action (a seat, -1 for chance, NULL when finished), so that a server starting
    # up wakes only the tables that wait for a computer or a chance event; when the table
    # last changed; and a hash of the creating client's address, for the per-client quota.
    to_act: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    updated_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_by: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # Open tables, clocks and archiving (issue 18), also in revision 0001.
    listed: Mapped[bool | None] = mapped_column(Boolean, nullable=True, index=True)
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    archived: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # The version of the game's rules the table is played under (issue 27); tables stored
    # before versions existed read as version 1.
    rules_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Accounts (issue 29): a rated table changes its players' ratings when it ends.
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # Why a rated table's end changed no rating (issue 62: ``unplayed``, ``pair``,
    # ``deleted``, ``guest``), set in the transaction that ends it; NULL when it rated.
    unrated: Mapped[str | None] = mapped_column(String(16), nullable=True)


class SeatRow(Base):
    __tablename__ = "parlour_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # "human" or "ai"
    agent: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)  # the player's name
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account that holds the seat (issue 29), if its player was signed in."""
    bot: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    """The seat's account is a bot account (issue 31): shown as such at the table."""


class HandRow(Base):
    """A credential: one unguessable token that may act for one or more seats (hot-seat)."""

    __tablename__ = "parlour_hands"
    __table_args__ = (UniqueConstraint("table_id", "hand"),)

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), index=True)
    hand: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[int]] = mapped_column(JSON)
    role: Mapped[str] = mapped_column(String(16))  # "invite", "me" or "hotseat"
    creator: Mapped[bool] = mapped_column(Boolean, default=False)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account whose "Your games" lists this link (issue 29)."""


class ActionRow(Base):
    __tablename__ = "parlour_actions"
    __table_args__ = (UniqueConstraint("table_id", "client_key"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)  # -1 for chance
    client_key: Mapped[str | None] = mapped_column(String(160), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class EventRow(Base):
    """Something that happens at a table outside the game's rules, stored like an action
    (before anyone is told, and replayed when the table is rebuilt): a seat taken from the
    lobby, a time-out, a resignation, the computer taking a seat over or giving it back, an
    undo. ``at`` is the table's version when it happened."""

    __tablename__ = "parlour_events"

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)


class ChatRow(Base):
    """One chat message: plain text, on the players' or the spectators' channel."""

    __tablename__ = "parlour_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(String(2000))
    created_at: Mapped[float] = mapped_column(Float)


class TakenBackRow(Base):
    """An action taken back by an undo both players agreed to: kept, never deleted."""

    __tablename__ = "parlour_taken_back"

    table_id: Mapped[str] = mapped_column(ForeignKey("parlour_tables.id"), primary_key=True)
    undo: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)
    client_key: Mapped[str | None] = mapped_column(String(160), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class ClaimRow(Base):
    """Work that must happen exactly once, claimed by one server process until it expires:
    a computer player's move (or a pending chance event) at one move number of one table."""

    __tablename__ = "parlour_claims"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(96))
    version: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float)
