"""The shape of a tournament's answers (``/api/tournaments``, the tournament's page), each a
:class:`TypedDict` as in :mod:`parlour.server.messages.schemas`, whose reasons hold here too."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired

from typing_extensions import TypedDict

from parlour.server.messages.schemas import ClockJSON, Params


class TournamentSummary(TypedDict):
    """A tournament's own fields, as the API and the lobby show them."""

    id: str
    name: str
    game: str
    game_title: str
    params: Params
    settings: list[str]
    players_per_table: int
    format: str
    rounds: int | None
    round: int
    clock: ClockJSON | None
    clock_label: str | None
    rated: bool
    status: str
    starts_at: float | None
    started_at: float | None
    finished_at: float | None
    cancelled: str | None
    created_by: str
    players: int
    max_players: int
    grace: float
    url: str


class Entrant(TypedDict):
    player: str
    bot: bool
    seed: int | None
    rating: int | None


class TournamentGame(TypedDict):
    round: int
    board: int
    table: str
    players: list[str]
    points: list[float] | None
    forfeits: list[str]
    over: bool
    watch: str


class PlayedRound(TypedDict):
    round: int
    byes: list[str]
    games: list[TournamentGame]


class Results(TypedDict):
    """The standings (each row's tiebreak is named by the format: ``buchholz``, ``sb``...),
    the games and the rounds played."""

    standings: list[Mapping[str, object]]
    games: list[TournamentGame]
    rounds_played: list[PlayedRound]
    tiebreak: str


class YourTable(TypedDict):
    round: int
    table: str
    url: str
    over: bool


class YourPart(TypedDict):
    """What the signed-in reader may do in the tournament, and their tables."""

    joined: bool
    creator: bool
    can_join: bool
    can_start: bool
    tables: list[YourTable]


class RatingPoint(TypedDict):
    round: int
    rating: float
    rd: float
    at: float


class Tournament(TournamentSummary, Results):
    """``GET /api/tournaments/ID``: the tournament, its results and entrants."""

    entrants: list[Entrant]
    you: NotRequired[YourPart]
    ratings: NotRequired[dict[str, list[RatingPoint]]]


class Membership(TypedDict):
    """Joining or leaving: whether the account is in, and how many players are."""

    joined: bool
    players: NotRequired[int]


TournamentListing = dict[str, list[TournamentSummary]]
"""``GET /api/tournaments``: ``upcoming``, ``running`` and ``finished`` tournaments."""
