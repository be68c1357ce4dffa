"""The pages: the lobby, a seat's table, a spectator's, the rules, the analysis board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from babel.lists import format_list
from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse

from parlour import i18n
from parlour.core import game_class, list_games
from parlour.i18n import Message
from parlour.server.web import rules
from parlour.server.web.deps import SeatLink, TableDep
from parlour.server.web.language import js_catalog
from parlour.server.web.templating import page

STATIC = Path(__file__).resolve().parents[2] / "static"
router = APIRouter(tags=["pages"], include_in_schema=False)


@router.get("/")
async def lobby() -> HTMLResponse:
    """The lobby, its title naming the registered games in the reader's language's list form
    (the template names none)."""
    titles = [game_class(name).game_type.long_name for name in list_games()]
    return page("lobby.html", games=format_list(titles, locale=i18n.current()))


@router.get("/play/{token}")
async def play_page(found: SeatLink) -> HTMLResponse:
    return page("table.html")


@router.get("/watch/{table_id}")
async def watch_page(table: TableDep) -> HTMLResponse:
    return page("table.html")


def rules_or_404(game: str) -> str:
    """The rules of ``game`` as HTML, or 404 (an unknown game, or none shipped)."""
    if game not in list_games():
        raise HTTPException(404, Message("no game {game}; games: {games}", game=repr(game),
                                         games=", ".join(list_games())))
    html = rules.rules_html(game)
    if html is None:
        raise HTTPException(404, Message("no rules text shipped for {game}", game=game))
    return html


@router.get("/rules/{game}")
async def rules_page(game: str) -> HTMLResponse:
    return HTMLResponse(rules.rules_page(game, rules_or_404(game)))


@router.get("/account")
async def account_page() -> HTMLResponse:
    return page("account.html")


@router.get("/players/{username}")
async def player_page(username: str) -> HTMLResponse:
    return page("player.html")


@router.get("/leaderboard")
@router.get("/leaderboard/{pool}")
async def leaderboard_page(pool: str | None = None) -> HTMLResponse:
    return page("leaderboard.html")


@router.get("/analyse/clobber")
async def analysis_page() -> HTMLResponse:
    return page("analyse.html")


@router.get("/i18n/{language}.json")
async def catalog(language: str) -> JSONResponse:
    """The translations the pages' JavaScript reads (``{}`` for English), cached a day."""
    body: dict[str, Any] = js_catalog(language)
    return JSONResponse(body, headers={"Cache-Control": "public, max-age=86400"})


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")
