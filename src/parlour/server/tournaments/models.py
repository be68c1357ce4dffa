"""A tournament's rows, on the store's declarative ``Base`` (created by the schema revisions,
:mod:`parlour.server.persistence.migrations`).

Everything a tournament is lives here, so that any server process runs it and a restart loses
nothing: the event, its players, and each round's pairings. A round's row is inserted once
(its primary key refuses a second process pairing the same round), with its games' table ids
chosen before the tables exist, so that creating a table again after a crash finds it made.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from parlour.server.messages.schemas import ClockJSON, Params
from parlour.server.persistence.rows import Base


class TournamentRow(Base):
    __tablename__ = "parlour_tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[Params] = mapped_column(JSON)
    players_per_table: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int] = mapped_column(Integer)
    clock: Mapped[ClockJSON | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    grace: Mapped[float] = mapped_column(Float)
    """Seconds a player may leave their first turn unplayed before forfeiting the game."""
    max_players: Mapped[int] = mapped_column(Integer)
    created_by: Mapped[int] = mapped_column(Integer, index=True)
    created_at: Mapped[float] = mapped_column(Float)
    starts_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open, running, finished
    round: Mapped[int] = mapped_column(Integer, default=0)
    """The round being played (0 before the start)."""
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    cancelled: Mapped[str | None] = mapped_column(String(120), nullable=True)
    """Why a tournament ended without being played (too few players at its start)."""


class EntrantRow(Base):
    """A player in a tournament; ``seed`` (0 the best rated at the start) orders the pairings."""

    __tablename__ = "parlour_tournament_players"

    tournament_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True, index=True)
    joined_at: Mapped[float] = mapped_column(Float)
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)


class RoundRow(Base):
    __tablename__ = "parlour_tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    byes: Mapped[list[int]] = mapped_column(JSON)
    started_at: Mapped[float] = mapped_column(Float)


class PairingRow(Base):
    """One table of a round: its players (account ids) in seat order, the table's id (chosen
    when the round is paired), and once it ends, each seat's points and who forfeited."""

    __tablename__ = "parlour_tournament_games"

    tournament_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), unique=True)
    players: Mapped[list[int]] = mapped_column(JSON)
    made: Mapped[bool] = mapped_column(Boolean, default=False)
    """The table exists (created by whichever process paired the round, or after a crash)."""
    points: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    """Each seat's points, set with ``ended_at`` in the transaction that ends the game."""
    forfeits: Mapped[list[int]] = mapped_column(JSON, default=list)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
