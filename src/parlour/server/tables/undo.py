"""Taking a turn back, by agreement (a takebacker, as lichess calls it).

Undo needs the opponent's consent, exists only in two-player games of perfect information
without a clock, and never crosses a chance event; the actions taken back are kept in the
database (``parlour_taken_back``), so nothing stored is ever lost. A request is news, not a
change: it is shown, not stored; an accepted one is stored with the actions it takes back, and
the table is rebuilt from the database.
"""

from __future__ import annotations

import time

from parlour.core import CHANCE_PLAYER
from parlour.i18n import Message
from parlour.server.messages.protocol import error
from parlour.server.messages.schemas import ErrorMessage, UndoReply, UndoRequest
from parlour.server.messages.views import is_public
from parlour.server.persistence.records import EventData
from parlour.server.persistence.store import Store
from parlour.server.tables.events import EventKind
from parlour.server.tables.table import ARCHIVED, Table
from parlour.server.tables.unit import Changes, TableWork


def undo_refusal(table: Table) -> str | None:
    """Why undo is not offered here, or ``None``."""
    if table.archived:
        return ARCHIVED
    if table.game.num_players() != 2 or not is_public(table.game):
        return Message("undo is offered in two-player games of perfect information only")
    if table.clock is not None:
        return Message("undo is not offered at a table with a clock")
    if table.over:
        return Message("the game is over")
    return None


def last_turn_start(table: Table, seat: int) -> int | None:
    """The first move number of ``seat``'s last turn, if nothing since is chance."""
    notes = table.notes
    index = len(notes) - 1
    while index >= 0 and notes[index].player != seat:
        if notes[index].player == CHANCE_PLAYER:
            return None
        index -= 1
    if index < 0:
        return None
    while index > 0 and notes[index - 1].player == seat:
        index -= 1
    if any(n.player == CHANCE_PLAYER for n in notes[index:]):
        return None
    return notes[index].seq


class Takebacker:
    """Undo requests and their answers."""

    def __init__(self, store: Store, changes: Changes, reload: TableWork) -> None:
        self.store = store
        self.changes = changes
        self.reload = reload

    async def undo(self, table: Table, seat: int, answer: str) -> UndoReply | ErrorMessage:
        reason = undo_refusal(table)
        if reason is not None:
            return error("archived" if table.archived else "undo_refused", reason)
        async with self.changes.at(table) as unit:
            request = table.undo_request
            if answer == "ask":
                start = last_turn_start(table, seat)
                if start is None:
                    return error("undo_refused", Message("there is no move of yours to take back"))
                table.undo_request = {"by": seat, "from": start, "version": table.version}
                unit.show()
                return {"type": "undo", "state": "asked"}
            if request is None or request["by"] == seat:
                return error("undo_refused",
                             Message("there is no request of your opponent's to answer"))
            table.undo_request = None
            if answer == "decline" or request["version"] != table.version:
                table.notice(Message("The request to take a move back was declined")
                             if answer == "decline" else Message("The table moved on: no undo"))
                unit.show()
                return {"type": "undo", "state": "declined"}
            await self._take_back(table, request)
        await self.reload(table)
        return {"type": "undo", "state": "accepted"}

    async def _take_back(self, table: Table, request: UndoRequest) -> None:
        undo_no = sum(1 for e in table.events if e.kind == EventKind.UNDO)
        event = EventData(len(table.events), request["from"], EventKind.UNDO, request["by"],
                          {"from": request["from"], "to": table.version}, time.time())
        await self.store.run(lambda: self.store.take_back(
            table.id, undo_no, request["from"], event, request["by"]))
