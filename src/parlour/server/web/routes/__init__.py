"""The web table's routes, one router per concern (FastAPI's "bigger applications" layout).

Each router carries its path prefix and its OpenAPI tag, and each route names the services it
uses in its signature (``hub: HubDep``, :mod:`parlour.server.web.services`), so a route reads
no state of the app itself. A router that serves a page beside its API (``/learn/GAME`` and
``/api/learn/GAME``) has no prefix. The address each answers is unchanged by the prefixes.

- :mod:`.pages` (no prefix): the HTML pages (lobby, table, rules, analysis board);
- :mod:`.health` (no prefix): ``/readyz`` and ``/healthz`` for load balancers and operators;
- :mod:`.lobby` (``/api``): the games, creating tables, the public lobby, taking a free seat;
- :mod:`.play` (``/api/play``): a seat link's API (``/api/play/TOKEN/...``);
- :mod:`.watch` (``/api/watch``): a spectator's (``/api/watch/TABLE/...``);
- :mod:`.analysis` (``/api/analyse``): the analysis board's answers;
- :mod:`.learn` (no prefix): "Learn to play", the tutorials' page and their engine-checked
  steps;
- :mod:`.puzzles` (no prefix): the puzzle pages, the next puzzle and answers checked along the
  solver's line, and their ratings;
- :mod:`.sockets` (``/ws``): the live tables' websockets;
- :mod:`.accounts` (``/api``): signing up, in and out, the account's own changes and games;
- :mod:`.players` (``/api``): profiles, leaderboards and a game's rating changes;
- :mod:`.queue` (``/api/queue``): "Play someone now";
- :mod:`.mail` (no prefix): the turn e-mails' address, confirmation and unsubscribing;
- :mod:`.tokens` (``/api``): bot accounts and personal API tokens;
- :mod:`.challenges` (``/api/challenges``): challenging a player by name, and answering;
- :mod:`.bot` (``/api/bot``): the Bot API's streams, moves and resignations;
- :mod:`.tournaments` (no prefix): round robins and Swiss events, and their page.
"""

from parlour.server.web.routes import (
    accounts,
    analysis,
    bot,
    challenges,
    health,
    learn,
    lobby,
    mail,
    pages,
    play,
    players,
    puzzles,
    queue,
    sockets,
    tokens,
    tournaments,
    watch,
)

ROUTERS = (pages.router, health.router, lobby.router, play.router, watch.router,
           analysis.router, learn.router, sockets.router, accounts.router, players.router,
           queue.router, mail.router, tokens.router, challenges.router, bot.router,
           tournaments.router, puzzles.router)

__all__ = ["ROUTERS"]
