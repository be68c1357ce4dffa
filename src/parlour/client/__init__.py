"""A client of a parlour server's Bot API, for ``parlour bot`` and a researcher's own loop.

- :class:`BotClient` (:mod:`.api`): the HTTP calls and the newline-delimited JSON streams of
  the Bot API (docs/bots.md), with a ``bot:play`` token;
- :func:`seat_player` (:mod:`.players`): an agent spec (``random``, ``hard``,
  ``mcts:iterations=400``, ``my.module:MyAgent``) as something that chooses a move from the
  seat's state messages;
- :class:`BotRunner` (:mod:`.runner`): accepts the challenges it can play, plays every game
  at once, reconnects with backoff and resumes games, stops cleanly.

The client knows no game: it reads the legal moves and the view the server sends, and asks
the game (``Game.state_from_view``) for a state an agent can search.
"""

from parlour.client.api import BotClient, RequestRefused
from parlour.client.players import SeatPlayer, player_games, seat_player
from parlour.client.runner import BotRunner

__all__ = ["BotClient", "BotRunner", "RequestRefused", "SeatPlayer", "player_games",
           "seat_player"]
