"""The shape of the matchmaking queue's answers (``/api/queue``), each a :class:`TypedDict` as
in :mod:`parlour.server.messages.schemas`."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from parlour.server.messages.schemas import ClockJSON


class TimeControlChoice(TypedDict):
    key: str
    label: str | None
    clock: ClockJSON


class TimeControls(TypedDict):
    """``GET /api/queue``: the time controls, each in the reader's words."""

    clocks: list[TimeControlChoice]


class Ticket(TypedDict):
    """``POST /api/queue``: the place in the queue (its ticket is the caller's only key)."""

    ticket: str
    pool: str
    label: str


class Paired(TypedDict):
    status: Literal["paired"]
    url: str
    table: str | None


class Waiting(TypedDict):
    status: Literal["waiting"]
    waited: float
    window: int
    waiting: int


QueueStatus = Paired | Waiting
"""``GET /api/queue/TICKET``: paired (the seat link), or still waiting."""


class Left(TypedDict):
    left: bool
