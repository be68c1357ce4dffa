"""The Clobber analysis board's answers (:mod:`parlour.server.analyse`)."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request

from parlour.core import ParlourError, load_game
from parlour.server.analyse import (
    GAME,
    AnalysisRefused,
    Analyst,
    check_position,
    position_message,
)
from parlour.server.deps import client_of
from parlour.server.language import LocalisedJSON
from parlour.server.protocol import error

router = APIRouter()


def analyst_of(request: Request) -> Analyst:
    analyst: Analyst = request.app.state.analyst
    return analyst


@router.post("/api/analyse/clobber")
async def analyse_clobber(request: Request) -> LocalisedJSON:
    """Who wins a Clobber position, every winning move, its regions and a principal line,
    solved in a worker process under ``analysis_seconds`` (see ``docs/web.md``)."""
    return await _answer(request, "solve")


@router.post("/api/analyse/clobber/estimate")
async def estimate_clobber(request: Request) -> LocalisedJSON:
    """The first answer for a position: the opening book's at once when it knows the
    position (``solved``), else the ``hard`` agent's search's estimate, in about a second,
    shown while the page asks for the exact solve (see ``docs/web.md``)."""
    return await _answer(request, "estimate")


@router.get("/api/analyse/clobber/progress")
async def analysis_progress(request: Request) -> LocalisedJSON:
    """How far this client's running solve has got (positions searched, seconds)."""
    return LocalisedJSON(analyst_of(request).progress_of(client_of(request)))


async def _answer(request: Request, kind: str) -> LocalisedJSON:
    analyst = analyst_of(request)
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


@router.get("/api/analyse/clobber/start")
async def analyse_start(request: Request, rows: int = 5, columns: int = 6) -> LocalisedJSON:
    """The start position of a board (the analysis board's "Start position"; the rule of
    the start, C2, lives in the game) and the limits the page tells its users."""
    analyst = analyst_of(request)
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
