"""The shape of the ratings' answers (a player's profile, a leaderboard, a rated game's
changes), each a :class:`TypedDict` as in :mod:`parlour.server.messages.schemas`."""

from __future__ import annotations

from collections.abc import Mapping

from typing_extensions import TypedDict


class RatingChange(TypedDict):
    seat: int
    username: str | None
    pool: str
    before: int
    after: int
    change: int
    rd: int
    shown: str


class TableRatings(TypedDict):
    """``GET /api/tables/TABLE/ratings``: one change per seat, or why the game was unrated."""

    changes: list[RatingChange]
    unrated: str | None


class PoolRating(TypedDict):
    rating: float
    rd: float
    volatility: float
    games: int
    wins: int
    draws: int
    losses: int
    provisional: bool
    shown: str
    game: str
    players: int
    title: str


class Totals(TypedDict):
    games: int
    wins: int
    draws: int
    losses: int


class RatingPoint(TypedDict):
    at: float
    rating: float
    rd: float


class RecentPlayer(TypedDict):
    name: str
    account: bool
    bot: bool
    you: bool


class RecentGame(TypedDict):
    table: str
    game: str
    title: str
    rated: bool
    finished: bool
    outcome: str | None
    change: int | None
    players: list[RecentPlayer]
    watch: str
    at: float


class Profile(TypedDict):
    username: str | None
    bot: bool
    created_at: float
    ratings: dict[str, PoolRating]
    totals: Totals
    history: dict[str, list[RatingPoint]]
    games: list[RecentGame]


class PlayerPage(Profile):
    """``GET /api/players/NAME``: the profile and the puzzle ratings per game."""

    puzzles: Mapping[str, Mapping[str, object]]


class LeaderboardEntry(TypedDict):
    username: str | None
    bot: bool
    rating: float
    rd: float
    games: int
    low: int
    high: int
    shown: str


class Leaderboard(TypedDict):
    """``GET /api/leaderboard/POOL``: established ratings first, provisional ones apart."""

    pool: str
    game: str
    players_per_game: int
    title: str
    bots: bool
    players: list[LeaderboardEntry]
    provisional: list[LeaderboardEntry]


class Pool(TypedDict):
    pool: str
    title: str
    players: int


class Pools(TypedDict):
    """``GET /api/leaderboard``: the pools that have rated players."""

    pools: list[Pool]
