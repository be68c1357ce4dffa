"""The web table's routes, one router per concern (FastAPI's "bigger applications" layout).

- :mod:`.pages`: the HTML pages (lobby, table, rules, analysis board);
- :mod:`.health`: ``/readyz`` and ``/healthz`` for load balancers and operators;
- :mod:`.lobby`: the games, creating tables, the public lobby, taking a free seat;
- :mod:`.play`: a seat link's API (``/api/play/TOKEN/...``);
- :mod:`.watch`: a spectator's (``/api/watch/TABLE/...``);
- :mod:`.analysis`: the Clobber analysis board's answers;
- :mod:`.learn`: "Learn to play", the tutorials' page and their engine-checked steps;
- :mod:`.puzzles`: the puzzle page, the next puzzle and the answers' verdicts and ratings;
- :mod:`.sockets`: the live tables' websockets;
- :mod:`.accounts`: signing up, in and out, the account's own changes and games;
- :mod:`.players`: profiles, leaderboards and a game's rating changes;
- :mod:`.queue`: "Play someone now";
- :mod:`.mail`: the turn e-mails' address, confirmation and unsubscribing;
- :mod:`.tokens`: bot accounts and personal API tokens;
- :mod:`.challenges`: challenging a player by name, and answering;
- :mod:`.bot`: the Bot API's streams, moves and resignations;
- :mod:`.tournaments`: round robins and Swiss events, and their page;
- :mod:`.puzzles`: the puzzle pages, the next puzzle and answers checked along the solver's line.
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
