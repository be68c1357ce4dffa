"""The pages: the lobby, a seat's table, a spectator's, the rules, the analysis board."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse

from parlour.core import list_games
from parlour.server import rules
from parlour.server.deps import SeatLink, TableDep

STATIC = Path(__file__).resolve().parent.parent / "static"
router = APIRouter(include_in_schema=False)


@router.get("/")
async def lobby() -> FileResponse:
    return FileResponse(STATIC / "lobby.html")


@router.get("/play/{token}")
async def play_page(found: SeatLink) -> FileResponse:
    return FileResponse(STATIC / "table.html")


@router.get("/watch/{table_id}")
async def watch_page(table: TableDep) -> FileResponse:
    return FileResponse(STATIC / "table.html")


def rules_or_404(game: str) -> str:
    """The rules of ``game`` as HTML, or 404 (an unknown game, or none shipped)."""
    if game not in list_games():
        raise HTTPException(404, f"no game {game!r}; games: {', '.join(list_games())}")
    html = rules.rules_html(game)
    if html is None:
        raise HTTPException(404, f"no rules text shipped for {game}")
    return html


@router.get("/rules/{game}")
async def rules_page(game: str) -> HTMLResponse:
    return HTMLResponse(rules.rules_page(game, rules_or_404(game)))


@router.get("/account")
async def account_page() -> FileResponse:
    return FileResponse(STATIC / "account.html")


@router.get("/players/{username}")
async def player_page(username: str) -> FileResponse:
    return FileResponse(STATIC / "player.html")


@router.get("/leaderboard")
@router.get("/leaderboard/{pool}")
async def leaderboard_page(pool: str | None = None) -> FileResponse:
    return FileResponse(STATIC / "leaderboard.html")


@router.get("/analyse/clobber")
async def analysis_page() -> FileResponse:
    return FileResponse(STATIC / "analyse.html")


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")
