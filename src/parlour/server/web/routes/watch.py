"""A spectator's API: ``/api/watch/TABLE`` (the state), its replay and record."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from parlour.server.messages.schemas import Replay, StateMessage
from parlour.server.web.deps import TableDep
from parlour.server.web.routes import documents

router = APIRouter(prefix="/api/watch", tags=["spectators"])


@router.get("/{table_id}")
async def watch_state(table: TableDep) -> StateMessage:
    return table.message(None)


@router.get("/{table_id}/replay")
async def watch_replay(table: TableDep) -> Replay:
    return await documents.replay(table, None)


@router.get("/{table_id}/record")
async def watch_record(table: TableDep) -> Response:
    return await documents.record(table, None)
