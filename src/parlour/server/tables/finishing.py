"""Giving up and coming back: a resignation, and a seat taken back from the computer.

Resigning loses a two-player game. With more players the computer takes the seat for the rest
of the game (for every game alike, Stomple included: a seat that simply stops stomping would end
rounds early for reasons the rules do not know). A seat the computer holds after time-outs is
the owner's again when they claim it; a resigned seat stays with the computer.
"""

from __future__ import annotations

from parlour.i18n import Message
from parlour.server.messages.protocol import error
from parlour.server.messages.schemas import ErrorMessage, Reclaimed, Resigned
from parlour.server.tables.events import EventKind
from parlour.server.tables.table import ARCHIVED, Table
from parlour.server.tables.unit import Changes


class Finisher:
    """Resignations and reclaimed seats, each a unit of work."""

    def __init__(self, changes: Changes) -> None:
        self.changes = changes

    async def resign(self, table: Table, seat: int) -> Resigned | ErrorMessage:
        async with self.changes.at(table) as unit:
            if table.archived:
                return error("archived", ARCHIVED)
            if table.over:
                return error("game_over", Message("the game is over already"))
            if not table.started:
                return error("waiting", Message("the game has not started: leave the seat instead"))
            if seat in table.resigned:
                return error("resigned", Message("you have resigned already"))
            await unit.record(EventKind.RESIGN, seat)
        return {"type": "resigned", "seat": seat}

    async def reclaim(self, table: Table, seat: int) -> Reclaimed | ErrorMessage:
        async with self.changes.at(table) as unit:
            if table.archived:
                return error("archived", ARCHIVED)
            if seat in table.resigned:
                return error("resigned", Message("a resigned seat stays with the computer"))
            if seat not in table.taken_over:
                return error("not_taken", Message("your seat is yours already"))
            await unit.record(EventKind.RECLAIM, seat)
        return {"type": "reclaimed", "seat": seat}
