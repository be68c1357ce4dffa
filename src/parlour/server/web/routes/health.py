"""Health: ``/readyz`` for a load balancer, ``/healthz`` for an operator's counters."""

from __future__ import annotations

import dataclasses
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from parlour.server.web.services import ServicesDep

router = APIRouter(tags=["health"], include_in_schema=False)


@router.get("/readyz")
async def ready(services: ServicesDep) -> JSONResponse:
    """200 when this process can take players (its database answers, its start-up resume is
    done, it listens for other processes' moves and is not shutting down), else 503 with the
    reason."""
    hub, reasons = services.hub, []
    if services.draining:
        reasons.append("shutting down")
    if not hub.ready:
        reasons.append("resuming tables")
    if not hub.cluster.listening:
        reasons.append("not listening for other processes' moves")
    try:
        await hub.store.run(hub.store.ping)
    except Exception:
        reasons.append("database unreachable")
    body = {"ready": not reasons, "reasons": reasons, "process": hub.cluster.owner}
    return JSONResponse(body, status_code=503 if reasons else 200)


@router.get("/healthz")
async def health(services: ServicesDep) -> dict[str, Any]:
    hub = services.hub
    stats = hub.ai.stats
    analyses = services.analyst.stats
    return {
        "status": "ok",
        "tables_loaded": len(hub.registry.tables),
        "resumed": hub.resumed,
        "ai": {"moves": stats.moves, "timeouts": stats.timeouts, "failures": stats.failures},
        "analyses": dataclasses.asdict(analyses),
    }
