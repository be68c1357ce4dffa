"""Players in public: profiles (``/api/players/NAME``), leaderboards
(``/api/leaderboard/POOL``) and what a rated game changed (``/api/tables/TABLE/ratings``)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request

from parlour.i18n import Message
from parlour.server.accounts.passwords import MAX_USERNAME, username_key
from parlour.server.accounts.ratings import parse_pool
from parlour.server.messages.ratings import Leaderboard, PlayerPage, Pools, TableRatings
from parlour.server.web.services import PuzzleRatingsDep, RatingsDep

router = APIRouter(prefix="/api", tags=["players"])


@router.get("/players/{username}")
async def profile(request: Request, username: str, ratings: RatingsDep,
                  puzzles: PuzzleRatingsDep) -> PlayerPage:
    """A player's ratings per pool, games and wins, last games and rating history, and their
    puzzle ratings (``puzzles``: per game, the rating and the puzzles tried and solved)."""
    key = username_key(username)
    found = (await ratings.store.run(ratings.profile, key)
             if len(username) <= MAX_USERNAME else None)
    if found is None:
        raise HTTPException(404, Message("no player {username!r}", username=username))
    return {**found, "puzzles": await puzzles.store.run(puzzles.profile, key)}


@router.get("/leaderboard")
async def pools(request: Request, ratings: RatingsDep) -> Pools:
    """The rating pools that have rated players."""
    return {"pools": await ratings.store.run(ratings.pools)}


@router.get("/leaderboard/{pool}")
async def leaderboard(request: Request, pool: str, ratings: RatingsDep,
                      bots: bool = False) -> Leaderboard:
    """The top players of a pool (a game, with ``-3p`` etc. for more players), established
    ratings first and provisional ones apart; people, or with ``?bots=true`` the bots (each
    their own leaderboard)."""
    try:
        parse_pool(pool[:80])
    except ValueError:
        raise HTTPException(404, Message(
            "no rating pool {pool!r}: a game's name, with -3p, -4p... for more players",
            pool=pool[:80])) from None
    return await ratings.store.run(ratings.leaderboard, pool, bots)


@router.get("/tables/{table_id}/ratings")
async def table_ratings(request: Request, table_id: str, ratings: RatingsDep) -> TableRatings:
    """The rating changes a finished rated game made (empty for any other table), or
    ``unrated``: why a rated game's end changed no rating."""
    if len(table_id) > 32:
        raise HTTPException(404, Message("no such table"))
    return await ratings.store.run(ratings.table_changes, table_id)
