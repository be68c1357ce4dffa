"""A table's replay and downloadable record for one viewer (seat or spectator), built off the
event loop from that viewer's views (G-3, :mod:`parlour.server.messages.views`)."""

from __future__ import annotations

import asyncio
import json

from fastapi.responses import Response

from parlour.server.messages.schemas import JSONValue, Replay
from parlour.server.messages.views import is_public, record_document, replay_steps
from parlour.server.names import seat_display_name
from parlour.server.tables.table import Table


async def replay(table: Table, viewer: int | None) -> Replay:
    history, notes = table.state.history(), list(table.notes)
    ended = table.outcome is not None  # resigned or lost on time: G-5 turns everything up
    steps = await asyncio.to_thread(replay_steps, table.game, history, notes, viewer, ended)
    return {"table": table.id, "game": table.game.name, "viewer": viewer, "steps": steps}


async def record(table: Table, viewer: int | None) -> Response:
    state, notes = table.state.clone(), list(table.notes)
    metadata: dict[str, JSONValue] = {"table": table.id, "site": "parlour serve"}
    if any(s.bot for s in table.seats):  # issue 31: a record says which players were programs
        metadata["bots"] = [s.seat for s in table.seats if s.bot]
    players = [
        seat_display_name(s.kind, s.agent, s.name) or f"Player {s.seat + 1}"
        for s in table.seats
    ]
    document = await asyncio.to_thread(
        record_document, state, notes, viewer, metadata, players, table.outcome
    )
    text = document if isinstance(document, str) else json.dumps(document, indent=1)
    if is_public(table.game):
        suffix = "record"
    else:
        suffix = f"seat{viewer}" if viewer is not None else "spectator"
    name = f"{table.game.name}-{table.id}-{suffix}.json"
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
