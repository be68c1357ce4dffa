"""The web application: pages, a small JSON API and the websockets of the live tables.

Routes (``TOKEN`` is a hand's secret token, ``TABLE`` a table id):

- ``/`` the lobby; ``/play/TOKEN`` a seat's table page; ``/watch/TABLE`` a spectator's;
  ``/rules/GAME`` the rules and ``/learn/GAME`` the tutorials (:mod:`parlour.server.learn`).
- ``GET /api/games``, ``POST /api/games/GAME/check``, ``POST /api/tables`` (create),
  ``GET /api/play/TOKEN`` (state), ``POST /api/play/TOKEN/act``, ``.../replay``,
  ``.../record``, ``POST .../rematch``; the same read routes under ``/api/watch/TABLE``.
- ``/ws/play/TOKEN`` and ``/ws/watch/TABLE``: live updates, and actions (seats only).
- ``/analyse/clobber`` the analysis board, ``POST /api/analyse/clobber`` its answers
  (:mod:`parlour.server.analyse`).

Every reply about a game comes from :mod:`parlour.server.views` via the table's message
builder, so it is cut to the asker's view (G-3).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from parlour.agents import agent_names, agents_for
from parlour.core import ParlourError, game_class, list_games, load_game
from parlour.server import learn
from parlour.server.ai import AIRunner, is_web_agent
from parlour.server.analyse import AnalysisRefused, Analyst, check_position, position_message
from parlour.server.clocks import ClockConfig
from parlour.server.config import default_db_url, hold_sqlite_lock, normalise_db_url
from parlour.server.limits import Limits, client_key
from parlour.server.names import seat_display_name
from parlour.server.protocol import (
    ActMessage,
    ChatMessage,
    PingMessage,
    ProtocolError,
    ReclaimMessage,
    ResignMessage,
    UndoMessage,
    error,
    parse_message,
)
from parlour.server.rules import rules_html
from parlour.server.security import Guard, install_redaction
from parlour.server.steward import SeatError
from parlour.server.store import HandData, Store
from parlour.server.tables import SEAT_CHOICES, Connection, CreateError, Hub, QuotaError, Table
from parlour.server.views import HIDDEN_PARAMS, is_public, record_document, replay_steps

log = logging.getLogger("parlour.server")
STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = Limits().body_bytes
GC_THRESHOLDS = (10_000, 20, 50)
ParamValue = bool | int | float | str | None


class SeatChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["me", "invite", "hotseat", "ai", "open"]
    agent: Annotated[str, Field(max_length=64)] | None = None
    name: Annotated[str, Field(max_length=200)] | None = None
    """A player's display name (cleaned and cut to ``names.MAX_NAME`` by the server)."""


class SeatName(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, Field(max_length=200)]
    seat: int | None = None


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


class FillSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int
    agent: Annotated[str, Field(max_length=64)]


LOBBY_PAGE = 20
"""Tables per page of the public lobby listing."""


class CheckParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    params: dict[Annotated[str, Field(max_length=64)], ParamValue] = Field(default_factory=dict)


def _clean_params(params: dict[str, ParamValue]) -> dict[str, Any]:
    """Blank form fields mean "the default"."""
    return {k: v for k, v in params.items() if v is not None and v != ""}


def _listing(data: Any) -> dict[str, Any]:
    """One table of the public lobby, as anyone may see it (no tokens, no hidden parameter)."""
    game = game_class(data.game)
    params = {k: v for k, v in data.params.items() if k not in HIDDEN_PARAMS}
    joined = {e.seat for e in data.events if e.kind in ("join", "fill")}
    config = ClockConfig.parse(data.clock) if data.clock else None
    return {
        "table": data.id,
        "game": data.game,
        "title": game.game_type.long_name,
        "params": params,
        "seats": [
            {"seat": s.seat, "free": s.kind == "open", "kind": s.kind, "agent": s.agent,
             "joined": s.seat in joined}
            for s in data.seats
        ],
        "clock": None if config is None else config.describe(),
        "moves": len(data.actions),
        "to_act": data.to_act,
        "created_at": data.created_at,
        "watch": f"/watch/{data.id}",
    }


def game_catalogue() -> list[dict[str, Any]]:
    """What the lobby offers: every game, its parameters and seat range, and the AIs."""
    games = []
    for name in list_games():
        cls = game_class(name)
        kind = cls.game_type
        params = [
            {
                "name": key,
                "default": spec.default,
                "kind": spec.kind.__name__,
                "doc": spec.doc,
                "choices": list(spec.choices) if spec.choices else None,
            }
            for key, spec in cls.parameters.items()
        ]
        default_players = load_game(name).num_players()
        games.append(
            {
                "name": name,
                "title": kind.long_name,
                "min_players": kind.min_num_players,
                "max_players": kind.max_num_players,
                "default_players": default_players,
                "information": kind.information.value,
                "params": params,
                "agents": agents_for(name),
            }
        )
    return games


async def _json_body(request: Request, model: type[BaseModel]) -> Any:
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise HTTPException(413, f"request body over {MAX_BODY_BYTES} bytes")
    try:
        return model.model_validate_json(body or b"{}")
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        raise HTTPException(400, f"{where}: {first['msg']}") from None


def create_app(
    db_url: str | None = None,
    *,
    ai_mode: str = "process",
    ai_delay: float = 0.3,
    ai_deadline: float | None = None,
    synchronous: str = "NORMAL",
    limits: Limits | None = None,
    allowed_origins: tuple[str, ...] = (),
    extra_agents: tuple[str, ...] = (),
    archive_after: float | None = None,
) -> FastAPI:
    """Build the app. ``db_url`` defaults to SQLite in the user's data directory; ``limits``
    to :meth:`Limits.from_env`; ``allowed_origins`` adds sites (besides the server's own) whose
    pages may call this server."""
    url = normalise_db_url(db_url) if db_url else default_db_url()
    limits = limits or Limits.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        install_redaction()  # after the server configured its loggers
        lock = hold_sqlite_lock(url)  # raises DatabaseInUse: the process stops with the reason
        store = Store(url, synchronous=synchronous)
        runner = AIRunner(ai_mode) if ai_deadline is None else AIRunner(
            ai_mode, deadline=ai_deadline
        )
        hub = Hub(store, runner, ai_delay=ai_delay, limits=limits, extra_agents=extra_agents)
        hub.archive_after = archive_after
        await hub.start()
        log.info("parlour server ready; tables waiting for a computer player resume now")
        # Latency: a full garbage collection walks every long-lived object (the libraries,
        # the loaded tables) and stalled moves by 100 ms and more under load. Freeze what
        # startup made, and collect the young generation less often.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        app.state.hub = hub
        app.state.analyst = Analyst(limits)
        app.state.draining = False
        try:
            yield
        finally:
            app.state.draining = True
            app.state.analyst.close()
            await hub.close()
            store.close()
            if lock is not None:
                lock.close()

    app = FastAPI(title="parlour", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.add_middleware(Guard, limits=limits, allowed_origins=allowed_origins)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(learn.router)  # /learn/GAME, /api/learn/..., /rules/GAME

    def hub_of(request: Request | WebSocket) -> Hub:
        return request.app.state.hub

    async def by_token(request: Request, token: str) -> tuple[Table, HandData]:
        found = await hub_of(request).find_token(token)
        if found is None:
            raise HTTPException(404, "no seat has this link: check it was copied whole")
        return found

    async def by_table(request: Request, table_id: str) -> Table:
        table = await hub_of(request).table(table_id) if len(table_id) <= 32 else None
        if table is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return table

    # -- pages ----------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "lobby.html")

    @app.get("/play/{token}", include_in_schema=False)
    async def play_page(request: Request, token: str) -> FileResponse:
        await by_token(request, token)
        return FileResponse(STATIC / "table.html")

    @app.get("/watch/{table_id}", include_in_schema=False)
    async def watch_page(request: Request, table_id: str) -> FileResponse:
        await by_table(request, table_id)
        return FileResponse(STATIC / "table.html")

    def _rules_or_404(game: str) -> str:
        if game not in list_games():
            raise HTTPException(404, f"no game {game!r}; games: {', '.join(list_games())}")
        html = rules_html(game)
        if html is None:
            raise HTTPException(404, f"no rules text shipped for {game}")
        return html

    @app.get("/analyse/clobber", include_in_schema=False)
    async def analysis_page() -> FileResponse:
        return FileResponse(STATIC / "analyse.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/readyz", include_in_schema=False)
    async def ready(request: Request) -> JSONResponse:
        """For a load balancer: 200 when this process can take players (its database answers,
        its start-up resume is done, it listens for other processes' moves and is not
        shutting down), else 503 with the reason."""
        hub = hub_of(request)
        reasons = []
        if getattr(request.app.state, "draining", False):
            reasons.append("shutting down")
        if not hub.ready:
            reasons.append("resuming tables")
        if hub.listener is not None and not hub.listener.connected.is_set():
            reasons.append("not listening for other processes' moves")
        try:
            await hub.store.run(hub.store.ping)
        except Exception:
            reasons.append("database unreachable")
        body = {"ready": not reasons, "reasons": reasons, "process": hub.owner}
        return JSONResponse(body, status_code=503 if reasons else 200)

    @app.get("/healthz", include_in_schema=False)
    async def health(request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        stats = hub.ai.stats
        analyses = request.app.state.analyst.stats
        return {
            "status": "ok",
            "tables_loaded": len(hub.tables),
            "resumed": hub.resumed,
            "ai": {"moves": stats.moves, "timeouts": stats.timeouts, "failures": stats.failures},
            "analyses": dataclasses.asdict(analyses),
        }

    # -- lobby API ------------------------------------------------------------------------
    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        agents = [name for name in agent_names() if is_web_agent(name)]
        return {"games": game_catalogue(), "agents": agents, "seat_kinds": SEAT_CHOICES}

    @app.post("/api/games/{game}/check")
    async def check(request: Request, game: str) -> dict[str, Any]:
        body = await _json_body(request, CheckParams)
        try:
            configured = load_game(game, **_clean_params(body.params))
        except ParlourError as exc:
            return {"ok": False, "error": str(exc)}
        return {"ok": True, "num_players": configured.num_players(), "game": str(configured)}

    @app.get("/api/rules/{game}")
    async def rules(game: str) -> dict[str, str]:
        return {"game": game, "html": _rules_or_404(game)}

    @app.post("/api/tables", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        body = await _json_body(request, CreateTable)
        kinds = [(s.kind, s.agent) for s in body.seats] if body.seats is not None else None
        names = [s.name for s in body.seats] if body.seats is not None else None
        client = client_key(request.client.host if request.client else None)
        try:
            table = await hub_of(request).create(
                body.game, _clean_params(body.params), kinds, client, names=names,
                listed=body.open, clock=body.clock,
            )
        except CreateError as exc:
            raise HTTPException(400, str(exc)) from None
        except QuotaError as exc:
            raise HTTPException(
                429, str(exc), headers={"Retry-After": str(exc.retry_after)}
            ) from None
        creator = table.hands[0]
        return {
            "table": table.id,
            "game": table.game.name,
            "url": f"/play/{creator.token}",
            "seats": list(creator.seats),
            "watch": f"/watch/{table.id}",
            "invites": [
                {"seats": list(h.seats), "url": f"/play/{h.token}"}
                for h in table.hands
                if h.role == "invite"
            ],
        }

    @app.get("/api/tables")
    async def lobby_tables(request: Request, page: int = 0) -> dict[str, Any]:
        """The public lobby: open tables with free seats, and open tables being played (to
        watch), newest first, ``LOBBY_PAGE`` a page. Private tables never appear."""
        if not 0 <= page <= 10_000:
            raise HTTPException(400, "page is 0 to 10000")
        store = hub_of(request).store
        free, playing, more = await store.run(store.lobby, page, LOBBY_PAGE)
        return {
            "open": [_listing(t) for t in free],
            "playing": [_listing(t) for t in playing],
            "page": page,
            "next": page + 1 if more else None,
        }

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def take_seat(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        """Take a free seat of an open table: you get a seat link of your own."""
        table = await by_table(request, table_id)
        if not table.listed:
            raise HTTPException(404, "this table has no seats on offer")
        try:
            hand = await hub_of(request).steward.take_seat(table, seat)
        except SeatError as exc:
            raise HTTPException(409, str(exc)) from None
        return {"url": f"/play/{hand.token}", "seat": seat, "table": table.id}

    # -- the analysis board -----------------------------------------------------------------
    @app.post("/api/analyse/clobber")
    async def analyse_clobber(request: Request) -> JSONResponse:
        """Who wins a Clobber position, every winning move, its regions and a principal line,
        solved in a worker process under ``analysis_seconds`` (see ``docs/web.md``)."""
        analyst: Analyst = request.app.state.analyst
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
            analyst.admit(client_key(request.client.host if request.client else None))
            answer = await analyst.answer(position, request.is_disconnected)
        except AnalysisRefused as exc:
            headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
            return JSONResponse(error(exc.code, exc.message, detail=exc.message),
                                status_code=exc.status, headers=headers)
        return JSONResponse(answer)

    @app.get("/api/analyse/clobber/start")
    async def analyse_start(request: Request, rows: int = 5, columns: int = 6) -> JSONResponse:
        """The start position of a board (the analysis board's "Start position"; the rule of
        the start, C2, lives in the game) and the limits the page tells its users."""
        analyst: Analyst = request.app.state.analyst
        try:
            game = load_game("clobber", rows=rows, columns=columns)
        except ParlourError as exc:
            message = position_message(str(exc))
            return JSONResponse(error("bad_position", message, detail=message), status_code=400)
        return JSONResponse({
            "position": game.new_initial_state().position(),
            "time_limit": analyst.seconds,
            "max_stones": analyst.limits.analysis_stones,
        })

    # -- a seat's API ---------------------------------------------------------------------
    def _viewer(table: Table, hand: HandData | None, seat: int | None) -> int | None:
        if hand is None:
            return None
        if seat is None:
            return table.focus(hand)
        if seat not in hand.seats:
            raise HTTPException(403, f"this link does not hold seat {seat}")
        return seat

    @app.get("/api/play/{token}")
    async def play_state(request: Request, token: str, seat: int | None = None) -> dict[str, Any]:
        table, hand = await by_token(request, token)
        return table.message(hand, _viewer(table, hand, seat))

    @app.post("/api/play/{token}/act")
    async def play_act(request: Request, token: str) -> JSONResponse:
        table, hand = await by_token(request, token)
        body = await request.body()
        try:
            message = parse_message(body)
        except ProtocolError as exc:
            return JSONResponse(error(exc.code, exc.message), status_code=400)
        if not isinstance(message, ActMessage):
            return JSONResponse(error("malformed", "send an act message here"), status_code=400)
        reply = await _act(hub_of(request), table, hand, message, None)
        return JSONResponse(reply, status_code=409 if reply["type"] == "error" else 200)

    @app.post("/api/play/{token}/name")
    async def play_name(request: Request, token: str) -> dict[str, Any]:
        """Set the display name of this link's seat (``seat`` picks one of a hot-seat's)."""
        table, hand = await by_token(request, token)
        body = await _json_body(request, SeatName)
        if body.seat is None and len(hand.seats) != 1:
            raise HTTPException(400, "this link holds several seats: say which one to name")
        seat = hand.seats[0] if body.seat is None else body.seat
        if seat not in hand.seats:
            raise HTTPException(403, f"this link does not hold seat {seat + 1}")
        await hub_of(request).rename(table, {seat: body.name})
        return {"seat": seat, "name": table.seats[seat].name}

    @app.get("/api/play/{token}/replay")
    async def play_replay(request: Request, token: str, seat: int | None = None) -> dict[str, Any]:
        table, hand = await by_token(request, token)
        return await _replay(table, _viewer(table, hand, seat))

    @app.get("/api/play/{token}/record")
    async def play_record(request: Request, token: str, seat: int | None = None) -> Response:
        table, hand = await by_token(request, token)
        return await _record(table, _viewer(table, hand, seat))

    @app.post("/api/play/{token}/rematch")
    async def play_rematch(request: Request, token: str) -> dict[str, Any]:
        table, hand = await by_token(request, token)
        if not table.state.is_terminal():
            raise HTTPException(409, "a rematch is offered once the game is over")
        await hub_of(request).rematch(table)
        return {"url": f"/play/{table.rematch_tokens[hand.hand]}", "table": table.rematch_id}

    @app.post("/api/play/{token}/fill")
    async def play_fill(request: Request, token: str) -> dict[str, Any]:
        """The creator fills a free seat with a computer player."""
        table, hand = await by_token(request, token)
        if not hand.creator:
            raise HTTPException(403, "only the table's creator fills seats")
        body = await _json_body(request, FillSeat)
        try:
            await hub_of(request).steward.fill_seat(table, body.seat, body.agent)
        except SeatError as exc:
            raise HTTPException(409, str(exc)) from None
        return {"seat": body.seat, "agent": body.agent}

    @app.post("/api/play/{token}/start")
    async def play_start(request: Request, token: str) -> dict[str, Any]:
        """The creator starts an open table early with the players seated so far."""
        table, hand = await by_token(request, token)
        if not hand.creator:
            raise HTTPException(403, "only the table's creator starts it early")
        try:
            await hub_of(request).steward.start_early(table)
        except SeatError as exc:
            raise HTTPException(409, str(exc)) from None
        now_held = table.hand_by_token(token)
        return {"players": table.game.num_players(),
                "seats": list(now_held.seats) if now_held else []}

    @app.post("/api/play/{token}/resign")
    async def play_resign(request: Request, token: str, seat: int | None = None) -> JSONResponse:
        table, hand = await by_token(request, token)
        reply = await hub_of(request).steward.resign(table, _seat_of(table, hand, seat))
        return JSONResponse(reply, status_code=409 if reply["type"] == "error" else 200)

    def _seat_of(table: Table, hand: HandData, seat: int | None) -> int:
        if not hand.seats:
            raise HTTPException(403, "this link holds no seat")
        chosen = table.focus(hand) if seat is None else seat
        if chosen not in hand.seats:
            raise HTTPException(403, f"this link does not hold seat {seat}")
        return int(chosen)

    # -- a spectator's API ----------------------------------------------------------------
    @app.get("/api/watch/{table_id}")
    async def watch_state(request: Request, table_id: str) -> dict[str, Any]:
        return (await by_table(request, table_id)).message(None)

    @app.get("/api/watch/{table_id}/replay")
    async def watch_replay(request: Request, table_id: str) -> dict[str, Any]:
        return await _replay(await by_table(request, table_id), None)

    @app.get("/api/watch/{table_id}/record")
    async def watch_record(request: Request, table_id: str) -> Response:
        return await _record(await by_table(request, table_id), None)

    async def _replay(table: Table, viewer: int | None) -> dict[str, Any]:
        history, notes = table.state.history(), list(table.notes)
        steps = await asyncio.to_thread(replay_steps, table.game, history, notes, viewer)
        return {"table": table.id, "game": table.game.name, "viewer": viewer, "steps": steps}

    async def _record(table: Table, viewer: int | None) -> Response:
        state, notes = table.state.clone(), list(table.notes)
        metadata = {"table": table.id, "site": "parlour serve"}
        players = [
            seat_display_name(s.kind, s.agent, s.name) or f"Player {s.seat + 1}"
            for s in table.seats
        ]
        document = await asyncio.to_thread(
            record_document, state, notes, viewer, metadata, players
        )
        text = document if isinstance(document, str) else json.dumps(document, indent=1)
        if is_public(table.game):
            suffix = "record"
        else:
            suffix = f"seat{viewer}" if viewer is not None else "spectator"
        name = f"{table.game.name}-{table.id}-{suffix}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    # -- websockets -----------------------------------------------------------------------
    @app.websocket("/ws/play/{token}")
    async def ws_play(websocket: WebSocket, token: str) -> None:
        await websocket.accept()
        found = await hub_of(websocket).find_token(token)
        if found is None:
            await websocket.send_json(error("unknown_seat", "no seat has this link"))
            await websocket.close(code=4404)
            return
        await _serve(websocket, *found)

    @app.websocket("/ws/watch/{table_id}")
    async def ws_watch(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = await hub_of(websocket).table(table_id) if len(table_id) <= 32 else None
        if table is None:
            await websocket.send_json(error("unknown_table", f"no table {table_id!r}"))
            await websocket.close(code=4404)
            return
        await _serve(websocket, table, None)

    async def _serve(websocket: WebSocket, table: Table, hand: HandData | None) -> None:
        hub = hub_of(websocket)
        if not hub.can_join(table, hand):
            await websocket.send_json(
                error("table_full", "this table has as many spectators as it can take")
            )
            await websocket.close(code=4429)
            return
        conn = Connection(hand, hub.limits)
        writer = asyncio.create_task(_pump(websocket, conn))
        hub.join(table, conn)
        await hub.steward.chat_history(table, conn)
        try:
            while not conn.closed:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                data = frame.get("text")
                if data is None:
                    data = frame.get("bytes") or b""
                try:
                    message = parse_message(data)
                except ProtocolError as exc:
                    message = None
                    problem = error(exc.code, exc.message)
                if not conn.rate.allow("messages"):
                    conn.refused += 1
                    ref = getattr(message, "client_id", None)
                    conn.send(error("rate_limited", "too many messages: slow down",
                                    client_id=ref))
                    if conn.refused > 4 * hub.limits.messages_burst:
                        break  # a client that ignores the warnings is let go
                    continue
                if message is None:
                    conn.send(problem)
                    continue
                if isinstance(message, PingMessage):
                    conn.send({"type": "pong", "nonce": message.nonce, "version": table.version})
                elif isinstance(message, ChatMessage):
                    refused = await hub.steward.chat(table, conn, message.text)
                    if refused is not None:
                        conn.send(refused)
                elif isinstance(message, ResignMessage | ReclaimMessage | UndoMessage):
                    conn.send(await _table_action(hub, table, hand, message))
                elif isinstance(message, ActMessage):
                    if hand is None:
                        conn.send(
                            error(
                                "spectator",
                                "a spectator's link cannot make moves",
                                client_id=message.client_id,
                            )
                        )
                        continue
                    await _act(hub, table, hand, message, conn)
                else:
                    conn.send(table.message(hand))
        except WebSocketDisconnect:
            pass
        finally:
            hub.leave(table, conn)
            with contextlib.suppress(Exception):
                await writer

    async def _table_action(
        hub: Hub, table: Table, hand: HandData | None,
        message: ResignMessage | ReclaimMessage | UndoMessage,
    ) -> dict[str, Any]:
        if hand is None or not hand.seats:
            return error("spectator", "a spectator's link holds no seat")
        seat = table.focus(hand)
        assert seat is not None
        if isinstance(message, ResignMessage):
            return await hub.steward.resign(table, seat)
        if isinstance(message, ReclaimMessage):
            for held in hand.seats:
                if held in table.taken_over:
                    return await hub.steward.reclaim(table, held)
            return error("not_taken", "your seat is yours already")
        return await hub.steward.undo(table, seat, message.answer)

    async def _pump(websocket: WebSocket, conn: Connection) -> None:
        """Send a connection's queued messages in order; stop when it closes."""
        try:
            while (message := await conn.queue.get()) is not None:
                await websocket.send_text(json.dumps(message, separators=(",", ":")))
        except Exception:  # the client went away
            conn.closed = True
        finally:
            if websocket.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    async def _act(
        hub: Hub, table: Table, hand: HandData, message: ActMessage, conn: Connection | None
    ) -> dict[str, Any]:
        return await hub.submit(
            table,
            hand.seats,
            message.steps,
            f"{hand.hand}:{message.client_id}",
            client_id=message.client_id,
            at=message.at,
            partial=message.partial,
            preview=message.preview,
            origin=conn,
        )

    return app
