"""The Clobber analysis board's answers (:mod:`parlour.server.study.analyse`)."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request

from parlour.core import ParlourError, load_game
from parlour.server.messages.protocol import error
from parlour.server.study.analyse import (
    GAME,
    AnalysisRefused,
    Analyst,
    check_position,
    position_message,
)
from parlour.server.web.deps import client_of
from parlour.server.web.language import LocalisedJSON
from parlour.server.web.services import AnalystDep

router = APIRouter(prefix="/api/analyse", tags=["analysis board"])


@router.post("/clobber")
async def analyse_clobber(request: Request, analyst: AnalystDep) -> LocalisedJSON:
    """Who wins a Clobber position, every winning move, its regions and a principal line,
    solved in a worker process under ``analysis_seconds`` (see ``docs/web.md``)."""
    return await _answer(request, analyst, "solve")


@router.post("/clobber/estimate")
async def estimate_clobber(request: Request, analyst: AnalystDep) -> LocalisedJSON:
    """The first answer for a position: the opening book's at once when it knows the
    position (``solved``), else the ``hard`` agent's search's estimate, in about a second,
    shown while the page asks for the exact solve (see ``docs/web.md``)."""
    return await _answer(request, analyst, "estimate")


@router.get("/clobber/progress")
async def analysis_progress(request: Request, analyst: AnalystDep) -> LocalisedJSON:
    """How far this client's running solve has got (positions searched, seconds)."""
    return LocalisedJSON(analyst.progress_of(client_of(request)))


async def _answer(request: Request, analyst: Analyst, kind: str) -> LocalisedJSON:
    try:
        try:
            body = json.loads(await request.body() or b"null")
        except (ValueError, RecursionError):
            raise AnalysisRefused("malformed", "The body is not JSON: send "
                                  '{"position": "<position text>"}') from None
        if not isinstance(body, dict) or set(body) != {"position"}:
            raise AnalysisRefused("malformed", 'Send {"position": "<position text>"}, '
                                  "nothing else")
        position = check_position(body["position"], analyst.limits.analysis_stones)
        client = client_of(request)
        analyst.admit(client)
        answer = await analyst.answer(position, request.is_disconnected, client, kind)
    except AnalysisRefused as exc:
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        return LocalisedJSON(error(exc.code, exc.message, detail=exc.message),
                            status_code=exc.status, headers=headers)
    return LocalisedJSON(answer)


@router.get("/clobber/start")
async def analyse_start(analyst: AnalystDep, rows: int = 5, columns: int = 6) -> LocalisedJSON:
    """The start position of a board (the analysis board's "Start position"; the rule of
    the start, C2, lives in the game) and the limits the page tells its users."""
    try:
        game = load_game(GAME, rows=rows, columns=columns)
    except ParlourError as exc:
        message = position_message(str(exc))
        return LocalisedJSON(error("bad_position", message, detail=message), status_code=400)
    return LocalisedJSON({
        "position": game.new_initial_state().position(),
        "time_limit": analyst.seconds,
        "max_stones": analyst.limits.analysis_stones,
    })
