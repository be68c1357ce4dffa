"""The kinds of things that happen at a table outside the game's rules, as typed values.

A table event is stored as a row (:class:`parlour.server.persistence.rows.EventRow`, its
``kind`` a string) before anyone is told, and replayed when a table is rebuilt. The kinds are
enums whose values are the stored strings, so a row read back compares equal to its kind and old
databases read as they always did.
"""

from __future__ import annotations

import enum


class EventKind(enum.StrEnum):
    """What an event does (see :func:`parlour.server.tables.replay.apply_event`)."""

    JOIN = "join"
    """Someone took a free seat of an open table from the lobby."""
    FILL = "fill"
    """The creator gave a free seat to a computer player."""
    START = "start"
    """The creator started an open table early with the players seated: a new deal."""
    TIMEOUT = "timeout"
    """The running turn's time ran out (what followed: :class:`AfterTimeout`)."""
    TAKEOVER = "takeover"
    """The computer holds a seat after time-outs in a row, until its owner claims it."""
    RECLAIM = "reclaim"
    """The owner of a seat the computer held took it back."""
    RESIGN = "resign"
    """A player gave up."""
    UNDO = "undo"
    """Both players agreed to take a turn back."""
    ARRIVE = "arrive"
    """An invited player opened their seat's link for the first time (a websocket or the
    seat's API): the game waits, no move and no clock, until every invited seat has arrived."""
    EXPIRE = "expire"
    """An invitation nobody took in time (``Limits.invitation_seconds``): the game never
    started and ends with no result."""


HISTORY_CHANGES = frozenset({EventKind.UNDO, EventKind.JOIN, EventKind.FILL, EventKind.START})
"""Events after which a table is rebuilt from the database rather than caught up in place:
they change the seats, the hands or the history itself."""


class AfterTimeout(enum.StrEnum):
    """What a time-out decided (stored as the event's ``then``)."""

    LOST = "lost"
    """Two players: the seat loses on time."""
    COMPUTER = "computer"
    """More players: the computer plays this turn for the seat."""
    TRUST = "trust"
    """A bluff decision with its own short limit: the player trusts the play."""


class Ending(enum.StrEnum):
    """Why a table decided a game over the game's own result (``result.reason``)."""

    TIME = "time"
    RESIGNATION = "resignation"
    EXPIRED = "expired"
    """An invited seat was never taken: the game did not start (no winner, nothing rated)."""
