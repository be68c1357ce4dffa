"""The records the rest of the server reads and hands to the store: plain frozen dataclasses
copied out of the rows (:mod:`parlour.server.persistence.rows`), so that no session or row
object leaves the persistence group."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

NOTIFY_CHANNEL = "parlour_tables"
"""The PostgreSQL channel on which every stored action is announced (``table_id:version``)."""


@dataclass(frozen=True)
class SeatData:
    seat: int
    kind: str
    agent: str | None
    name: str | None = None
    account: int | None = None
    """The account holding the seat (its name is then the account's username)."""
    bot: bool = False
    """That account is a bot's (issue 31): a program plays the seat through the Bot API."""


@dataclass(frozen=True)
class HandData:
    token: str
    hand: int
    seats: tuple[int, ...]
    role: str
    creator: bool
    account: int | None = None
    """The account this link belongs to ("Your games" follows it to any device)."""


@dataclass(frozen=True)
class ActionData:
    seq: int
    action: int
    player: int
    client_key: str | None
    at: float = 0.0
    """When it was stored (seconds since the epoch): the clocks are computed from these."""


@dataclass(frozen=True)
class EventData:
    seq: int
    at: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    created_at: float = 0.0


@dataclass(frozen=True)
class TableData:
    id: str
    game: str
    params: dict[str, Any]
    seed: int
    finished: bool
    rematch_of: str | None
    rematch_id: str | None
    seats: tuple[SeatData, ...]
    hands: tuple[HandData, ...]
    actions: tuple[ActionData, ...]
    events: tuple[EventData, ...] = ()
    listed: bool = False
    clock: dict[str, Any] | None = None
    archived: bool = False
    created_at: float = 0.0
    to_act: int | None = None
    created_by: str | None = None
    """The creating client's address hash (the per-client quota and fair thinking)."""
    rules_version: int = 1
    """The version of the game's rules the table is played under (``Game.rules_version``)."""
    rated: bool = False


@dataclass(frozen=True)
class GameEnd:
    """How a game ended, for the work stored in the same transaction as its end (results and
    ratings, :attr:`Store.on_end`): each seat's return and points, and who resigned."""

    returns: tuple[float, ...]
    scores: tuple[float, ...]
    resigned: tuple[int, ...] = ()


EndHook = Callable[[Any, str, GameEnd, float], None]
"""Work stored with a game's end: ``(connection, table id, how it ended, when)``, run inside
the transaction that marks the table finished (an exception there stores nothing)."""

Batch = tuple[str, Sequence[ActionData], bool, int | None, float | None, GameEnd | None]
"""One table's submission: table id, its new actions, finished, who is to act after them, the
deadline of the turn that starts (``None``: no clock), and how the game ended if it did."""


SEAT_ATTEMPTS = 8
"""Tries of a seat's transaction when other seats of the table are taken at the same moment."""


class ConflictError(Exception):
    """The database refused a write: that move number or that submission is already stored."""


@dataclass(frozen=True)
class TableSummary:
    """A table as the lists of a player's games read it (no seats, hands or moves)."""

    id: str
    game: str
    params: dict[str, Any]
    finished: bool
    archived: bool
    to_act: int | None
    rated: bool
    unrated: str | None
    clock: dict[str, Any] | None
    listed: bool
    created_at: float
    updated_at: float | None
