"""The web application: pages, a small JSON API and the websockets of the live tables.

Routes (``TOKEN`` is a hand's secret token, ``TABLE`` a table id), each group in its router
(:mod:`parlour.server.web.routes`):

- ``/`` the lobby; ``/play/TOKEN`` a seat's table page; ``/watch/TABLE`` a spectator's;
  ``/rules/GAME`` the rules for people, ``/learn/GAME`` the tutorials.
- ``GET /api/games``, ``POST /api/games/GAME/check``, ``POST /api/tables`` (create),
  ``GET /api/play/TOKEN`` (state), ``POST /api/play/TOKEN/act``, ``.../replay``,
  ``.../record``, ``POST .../rematch``; the same read routes under ``/api/watch/TABLE``.
- ``/ws/play/TOKEN`` and ``/ws/watch/TABLE``: live updates, and actions (seats only).
- ``/analyse/clobber`` the analysis board, ``POST /api/analyse/clobber`` its answers
  (:mod:`parlour.server.study.analyse`).

Every reply about a game comes from :mod:`parlour.server.messages.views` via the table's message
builder, so it is cut to the asker's view (G-3).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from parlour import i18n
from parlour.analysis.puzzles import GAMES as PUZZLE_GAMES
from parlour.analysis.puzzles import shipped as shipped_puzzles
from parlour.server.accounts.accounts import Accounts
from parlour.server.accounts.challenges import Challenges
from parlour.server.accounts.mail import Mailer
from parlour.server.accounts.matchmaking import Matchmaker
from parlour.server.accounts.passkeys import Passkeys
from parlour.server.accounts.ratings import Ratings
from parlour.server.ai import AIRunner
from parlour.server.bots.botapi import BotAPI
from parlour.server.bots.tokens import Tokens
from parlour.server.limits import Limits
from parlour.server.persistence.config import default_db_url, hold_sqlite_lock, normalise_db_url
from parlour.server.persistence.store import Store
from parlour.server.refusals import Refusal
from parlour.server.study.analyse import Analyst
from parlour.server.study.puzzle_mining import Miner
from parlour.server.study.puzzles import PuzzleBook, PuzzleRatings
from parlour.server.tables.hub import Hub
from parlour.server.tournaments.runner import Runner
from parlour.server.tournaments.service import Tournaments
from parlour.server.web.language import Language, LocalisedJSON, localised_replies
from parlour.server.web.logs import RequestIds
from parlour.server.web.metrics import Metrics, Settings
from parlour.server.web.routes import ROUTERS
from parlour.server.web.routes.pages import STATIC
from parlour.server.web.security import LOOPBACK_HOSTS, Guard, install_redaction
from parlour.server.web.services import STATE_KEY, Services

log = logging.getLogger("parlour.server")
GC_THRESHOLDS = (10_000, 20, 50)


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
    allowed_hosts: frozenset[str] = LOOPBACK_HOSTS,
    secure_cookies: bool = False,
    smtp: str | None = None,
    public_url: str = "http://127.0.0.1:8000",
    metrics: Settings | None = None,
    upgrade: bool = False,
) -> FastAPI:
    """Build the app. ``db_url`` defaults to SQLite in the user's data directory; ``limits``
    to :meth:`Limits.from_env`; ``allowed_origins`` adds sites (besides the server's own) whose
    pages may call this server; ``allowed_hosts`` are the names it is served as
    (:func:`parlour.server.web.security.served_hosts`); ``secure_cookies`` marks the session
    cookie ``Secure`` even when the server is reached over plain HTTP (behind a TLS proxy);
    ``smtp`` the mail server of the turn e-mails (none: no e-mail), ``public_url`` how links
    in them start; ``metrics`` whether ``/metrics`` is served and to whom
    (:mod:`parlour.server.web.metrics`; default: on, to this machine); ``upgrade`` lets an older
    schema be upgraded (:mod:`.migrations`)."""
    url = normalise_db_url(db_url) if db_url else default_db_url()
    limits = limits or Limits.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Services]]:
        install_redaction()  # after the server configured its loggers
        lock = hold_sqlite_lock(url)  # raises DatabaseInUse: the process stops with the reason
        store = Store(url, synchronous=synchronous, upgrade=upgrade)
        runner = AIRunner(ai_mode) if ai_deadline is None else AIRunner(
            ai_mode, deadline=ai_deadline
        )
        hub = Hub(store, runner, ai_delay=ai_delay, limits=limits, extra_agents=extra_agents,
                  archive_after=archive_after)
        accounts = Accounts(store, limits)
        passkeys = Passkeys(store, limits, accounts.throttle)
        ratings = Ratings(store, limits.rated_pair_games_per_day)
        puzzle_ratings = PuzzleRatings(store)
        book = PuzzleBook(store)
        for game in PUZZLE_GAMES:  # the shipped set, once (a row kept keeps its rating)
            await store.run(book.stock, game, shipped_puzzles())
        matchmaker = Matchmaker(store, limits, ratings.rating_of, hub.maker.create_paired)
        tokens = Tokens(store, limits)
        challenges = Challenges(store, limits, hub.maker.create_paired)
        botapi = BotAPI(hub, challenges, ratings)
        tournaments = Tournaments(store, ratings.rating_of)
        accounts.on_delete += [challenges.withdraw, tournaments.withdraw]
        rounds = Runner(tournaments, hub)
        await hub.start()
        hub.spawn(matchmaker.run())
        hub.spawn(rounds.run())
        miner = Miner(store, book, limits, hub.cluster.owner)
        hub.spawn(miner.run())
        mailer = Mailer(store, limits, smtp, public_url)
        hub.changes.after_each(lambda table: mailer.after_change(table, hub.spawn))
        log.info("parlour server ready; tables waiting for a computer player resume now")
        _freeze_startup_garbage()
        services = Services(
            hub=hub, accounts=accounts, passkeys=passkeys, ratings=ratings,
            puzzle_ratings=puzzle_ratings, puzzle_book=book, matchmaker=matchmaker,
            tokens=tokens, challenges=challenges, botapi=botapi, tournaments=tournaments,
            tournament_runner=rounds, puzzle_miner=miner, mailer=mailer,
            analyst=Analyst(limits), secure_cookies=secure_cookies)
        try:
            yield {STATE_KEY: services}  # every request's state (parlour.server.web.services)
        finally:
            services.draining = True
            services.analyst.close()
            accounts.close()
            await hub.close()
            store.close()
            if lock is not None:
                lock.close()

    app = FastAPI(title="parlour", lifespan=lifespan, docs_url="/api/docs", redoc_url=None,
                  default_response_class=LocalisedJSON)
    app.add_middleware(Language)
    app.add_middleware(Metrics, settings=metrics)  # inside the guard: its checks apply
    app.add_middleware(Guard, limits=limits, allowed_origins=allowed_origins,
                       allowed_hosts=allowed_hosts)
    app.add_middleware(RequestIds)  # outermost: every log line of a request has its id
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    for router in ROUTERS:
        app.include_router(localised_replies(router))
    app.add_exception_handler(HTTPException, _localised_error)
    app.add_exception_handler(Refusal, _refusal)
    return app


async def _refusal(request: Request, exc: Exception) -> JSONResponse:
    """A service's refusal, answered as its HTTP error (one place for every route)."""
    assert isinstance(exc, Refusal)
    return await _localised_error(request, exc.as_http())


async def _localised_error(request: Request, exc: Exception) -> JSONResponse:
    """An HTTP error's ``detail`` in the asker's language (FastAPI's own handler otherwise)."""
    assert isinstance(exc, HTTPException)
    return JSONResponse({"detail": i18n.localise(exc.detail)}, status_code=exc.status_code,
                        headers=exc.headers)


def _freeze_startup_garbage() -> None:
    """Latency: a full garbage collection walks every long-lived object (the libraries, the
    loaded tables) and stalled moves by 100 ms and more under load. Freeze what startup made,
    and collect the young generation less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
