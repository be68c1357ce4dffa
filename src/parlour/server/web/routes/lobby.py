"""The lobby's API: the games on offer, checking options, creating tables, the public list of
open tables, and taking a free seat."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from parlour.agents import agent_names, agents_for, plays_configuration
from parlour.analysis import GAMES as ANALYSED_GAMES
from parlour.analysis.puzzles import GAMES as PUZZLE_GAMES
from parlour.core import ParlourError, game_class, list_games, load_game
from parlour.core.presentation import card_words, parameter_words
from parlour.games.wording import refusal_text
from parlour.i18n import Message, text_of
from parlour.server.ai import is_web_agent
from parlour.server.messages.schemas import LobbyPage, LobbyTable, Params, SeatTaken, TableCreated
from parlour.server.messages.views import HIDDEN_PARAMS
from parlour.server.names import computer_name
from parlour.server.persistence.records import TableData
from parlour.server.tables.clocks import ClockConfig
from parlour.server.tables.creation import SEAT_CHOICES, CreateError, QuotaError
from parlour.server.tables.seats import SeatError
from parlour.server.web.deps import MaybeAccount, TableDep, client_of, json_body, player_of
from parlour.server.web.routes.pages import rules_or_404
from parlour.server.web.services import HubDep

router = APIRouter(prefix="/api", tags=["lobby"])
ParamValue = bool | int | float | str | None
LOBBY_PAGE = 20
"""Tables per page of the public lobby listing."""


class SeatChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["me", "invite", "hotseat", "ai", "open"]
    agent: Annotated[str, Field(max_length=64)] | None = None
    name: Annotated[str, Field(max_length=200)] | None = None
    """A player's display name (cleaned and cut to ``names.MAX_NAME`` by the server)."""


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(min_length=1, max_length=64)]
    params: dict[Annotated[str, Field(max_length=64)], ParamValue] = Field(default_factory=dict)
    seats: list[SeatChoice] | None = Field(default=None, max_length=16)
    open: bool = False
    """List the table's free seats in the public lobby (anyone may take one)."""
    clock: dict[Annotated[str, Field(max_length=16)], float] | None = Field(
        default=None, max_length=3
    )
    """``{"per_move": s}`` or ``{"initial": s, "increment": s}``; none by default."""
    rated: bool = False
    """Change the players' ratings at the end (accounts only, with a clock, no position)."""


class CheckParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    params: dict[Annotated[str, Field(max_length=64)], ParamValue] = Field(default_factory=dict)


def clean_params(params: dict[str, ParamValue]) -> Params:
    """Blank form fields mean "the default"."""
    return {k: v for k, v in params.items() if v is not None and v != ""}


def listing(data: TableData) -> LobbyTable:
    """One table of the public lobby, as anyone may see it (no tokens, no hidden parameter;
    ``custom_start`` says that it starts from a set-up position instead of the game's own)."""
    game = game_class(data.game)
    params = {k: v for k, v in data.params.items() if k not in HIDDEN_PARAMS}
    joined = {e.seat for e in data.events if e.kind in ("join", "fill")}
    config = ClockConfig.parse(data.clock) if data.clock else None
    return {
        "table": data.id,
        "game": data.game,
        "title": game.game_type.long_name,
        "params": params,
        "custom_start": any(k in data.params for k in HIDDEN_PARAMS),
        "seats": [
            {"seat": s.seat, "free": s.kind == "open", "kind": s.kind, "agent": s.agent,
             "joined": s.seat in joined}
            for s in data.seats
        ],
        "clock": None if config is None else config.describe(),
        "rated": data.rated,
        "moves": len(data.actions),
        "to_act": data.to_act,
        "created_at": data.created_at,
        "watch": f"/watch/{data.id}",
    }


def game_catalogue() -> list[dict[str, Any]]:
    """What the lobby offers: every game, its parameters (with the game's label and help for
    each, in the reader's language; ``doc`` is the engine's text) and seat range, the AIs, and
    the card's words from the game's presentation (``blurb``, ``length``, ``options``: the page
    holds no game's words), with ``analysis``, the analysis board's address where there is
    one. A parameter's ``set_up`` says it sets up a position: a tournament or a rated table
    refuses it, so their forms leave it out."""
    games = []
    for name in list_games():
        cls = game_class(name)
        kind = cls.game_type
        params = [
            {
                "name": key,
                "label": parameter_words(name, key)[0],
                "help": parameter_words(name, key)[1],
                "default": spec.default,
                "kind": spec.kind.__name__,
                "doc": spec.doc,
                "choices": list(spec.choices) if spec.choices else None,
                "set_up": key in HIDDEN_PARAMS,
            }
            for key, spec in cls.parameters.items()
        ]
        games.append(
            {
                "name": name,
                "title": kind.long_name,
                "min_players": kind.min_num_players,
                "max_players": kind.max_num_players,
                "default_players": load_game(name).num_players(),
                "information": kind.information.value,
                "params": params,
                "agents": [a for a in agents_for(name)
                           if plays_configuration(a, load_game(name))],
                "puzzles": name in PUZZLE_GAMES,
                "analysis": f"/analyse/{name}" if name in ANALYSED_GAMES else None,
                **card_words(name),
            }
        )
    return games


@router.get("/games")
async def games() -> dict[str, Any]:
    agents = [name for name in agent_names() if is_web_agent(name)]
    return {"games": game_catalogue(), "agents": agents, "seat_kinds": SEAT_CHOICES,
            "agent_names": {a: computer_name(a) for a in agents}}


@router.post("/games/{game}/check")
async def check(request: Request, game: str) -> dict[str, Any]:
    body = await json_body(request, CheckParams)
    try:
        configured = load_game(game, **clean_params(body.params))
    except ParlourError as exc:
        return {"ok": False, "error": refusal_text(exc)}
    return {"ok": True, "num_players": configured.num_players(), "game": str(configured)}


@router.get("/rules/{game}")
async def rules(game: str) -> dict[str, str]:
    return {"game": game, "html": rules_or_404(game)}


@router.post("/tables", status_code=201)
async def create(request: Request, hub: HubDep, account: MaybeAccount) -> TableCreated:
    body = await json_body(request, CreateTable)
    if body.rated and account is None:
        raise HTTPException(401, Message("sign in to play rated games: ratings belong to accounts"))
    kinds = [(s.kind, s.agent) for s in body.seats] if body.seats is not None else None
    names = [s.name for s in body.seats] if body.seats is not None else None
    try:
        table = await hub.maker.create(
            body.game, clean_params(body.params), kinds, client_of(request), names=names,
            listed=body.open, clock=body.clock, creator=player_of(account), rated=body.rated,
        )
    except CreateError as exc:
        raise HTTPException(400, text_of(exc)) from None
    except QuotaError as exc:
        raise HTTPException(
            429, text_of(exc), headers={"Retry-After": str(exc.retry_after)}
        ) from None
    creator = table.hands[0]
    return {
        "table": table.id,
        "game": table.game.name,
        "url": f"/play/{creator.token}",
        "seats": list(creator.seats),
        "rated": table.rated,
        "watch": f"/watch/{table.id}",
        "invites": [
            {"seats": list(h.seats), "url": f"/play/{h.token}"}
            for h in table.hands
            if h.role == "invite"
        ],
    }


@router.get("/tables")
async def lobby_tables(hub: HubDep, page: int = 0) -> LobbyPage:
    """The public lobby: open tables with free seats, and open tables being played (to
    watch), newest first, ``LOBBY_PAGE`` a page. Private tables never appear."""
    if not 0 <= page <= 10_000:
        raise HTTPException(400, Message("page is 0 to 10000"))
    free, playing, more = await hub.store.run(hub.store.lobby, page, LOBBY_PAGE)
    return {
        "open": [listing(t) for t in free],
        "playing": [listing(t) for t in playing],
        "page": page,
        "next": page + 1 if more else None,
    }


@router.post("/tables/{table_id}/seats/{seat}")
async def take_seat(table: TableDep, hub: HubDep, seat: int,
                    account: MaybeAccount) -> SeatTaken:
    """Take a free seat of an open table: you get a seat link of your own (your account's,
    when signed in; a rated table's seats are for accounts only)."""
    if not table.listed:
        raise HTTPException(404, Message("this table has no seats on offer"))
    if table.rated and account is None:
        raise HTTPException(401, Message("sign in to take a seat at a rated table"))
    try:
        hand = await hub.seats.take(table, seat, *(player_of(account) or (None, None)))
    except SeatError as exc:
        raise HTTPException(409, text_of(exc)) from None
    return {"url": f"/play/{hand.token}", "seat": seat, "table": table.id}
