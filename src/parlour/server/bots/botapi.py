"""The Bot API's streams (issue 31, docs/bots.md): what a bot hears, as newline-delimited JSON.

- :meth:`BotAPI.events`: the account's event stream: ``challenge`` (received, waiting),
  ``challengeGone`` (cancelled, declined or lapsed), ``gameStart`` (every unfinished game at
  connection, then each new one) and ``gameFinish``.
- :meth:`BotAPI.game`: one game as the bot's seat sees it. The stream joins the table's
  listeners as the seat's own connection
  (:class:`~parlour.server.messages.outgoing.Connection` with the seat's hand), so every
  ``state`` line is the message a web seat of that hand receives, built by the same
  :meth:`Table.message` from ``state.view(seat)`` (G-3): never more than the seat may see. A
  first ``gameFull`` line names the players with their ratings.

An empty line goes out every :data:`KEEPALIVE_SECONDS` when nothing else did, so both sides
notice a dead connection.

Each stream holds a place among its account's streams of its kind (``bot_streams_per_account``
event streams, ``bot_game_streams_per_account`` game streams), whatever its transport (NDJSON
or websocket): taken when the stream is asked for, before anything is answered (checked and
counted in one step, so simultaneous requests cannot race past the limit), and given back by
:meth:`Stream.close` when the transport is done with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from parlour.server.accounts.accounts import Account
from parlour.server.accounts.challenges import Challenges
from parlour.server.accounts.models import AccountRow, ResultRow
from parlour.server.accounts.ratings import Ratings, pool_of, shown
from parlour.server.bots.resends import ResentMoves
from parlour.server.messages.outgoing import Connection
from parlour.server.messages.schemas import BotGame, BotPlayer, Outgoing
from parlour.server.persistence.records import TableSummary
from parlour.server.persistence.store import Store
from parlour.server.tables.hub import Hub
from parlour.server.tables.table import Table

KEEPALIVE_SECONDS = 7.0
"""An empty line after this long without another."""
POLL_SECONDS = 2.0
"""How often an event stream looks in the database for what another process changed, when
several share it (PostgreSQL); this process's own changes wake it at once."""


def line(message: Outgoing) -> str:
    return json.dumps(message, separators=(",", ":")) + "\n"


class BotError(ValueError):
    """A Bot API request that cannot be served (``status``: the HTTP answer)."""

    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Stream:
    """A stream's lines and its place in its account's count. The transport calls
    :meth:`close` when it is done, whether or not the lines were ever read (a generator never
    started runs no ``finally``): the lines are closed and the place given back, once."""

    lines: AsyncIterator[str]
    give_back: Callable[[], None]
    closed: bool = field(default=False)

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            aclose = getattr(self.lines, "aclose", None)  # an async generator's ``finally``
            if aclose is not None:
                with contextlib.suppress(Exception):
                    await aclose()
        finally:
            self.give_back()


class BotAPI:
    """The streams and what they look up."""

    def __init__(self, hub: Hub, challenges: Challenges, ratings: Ratings) -> None:
        self.hub = hub
        self.store: Store = hub.store
        self.challenges = challenges
        self.ratings = ratings
        self.streams: Counter[tuple[str, int]] = Counter()
        """Open streams per kind (``events``, ``games``) and account, in this process."""
        limits = hub.limits
        self.resent = ResentMoves(limits.bot_move_answers, limits.bot_move_answer_seconds)
        """The answers of stored moves, for their resends (:mod:`parlour.server.bots.resends`)."""
        hub.changes.after_each(self._after_change)

    def _hold(self, kind: str, account: Account) -> Callable[[], None]:
        """A place among the account's open streams of ``kind`` (and the function that gives
        it back), or :class:`BotError` 429. No ``await`` between the check and the count: the
        count is taken atomically."""
        limits = self.hub.limits
        cap, what = ((limits.bot_streams_per_account, "event") if kind == "events"
                     else (limits.bot_game_streams_per_account, "game"))
        key = (kind, account.id)
        if self.streams[key] >= cap:
            raise BotError(f"a bot holds at most {cap} {what} streams at once (websockets and "
                           "HTTP streams together): close one first", 429)
        self.streams[key] += 1

        def give_back() -> None:
            self.streams[key] -= 1
            if self.streams[key] <= 0:
                del self.streams[key]

        return give_back

    def _after_change(self, table: Table) -> None:
        """A game of a bot that ended (or started) here wakes that bot's event stream."""
        if table.over and any(s.bot for s in table.seats):
            self.challenges.wakeups.wake(*(s.account for s in table.seats
                                           if s.account is not None))

    # -- the account's events ----------------------------------------------------------------
    async def events(self, account: Account) -> Stream:
        """The account's event stream, until the client goes away."""
        give_back = self._hold("events", account)
        return Stream(self._events(account), give_back)

    async def _events(self, account: Account) -> AsyncIterator[str]:
        wake = self.challenges.wakeups.listen(account.id)
        announced: dict[str, BotGame] = {}
        challenges: set[str] = set()
        # this process's own changes wake the stream; another's are found by looking again
        poll = POLL_SECONDS if self.store.shared else KEEPALIVE_SECONDS
        quiet_since = time.monotonic()
        try:
            while True:
                wake.clear()
                for text in await self._news(account, announced, challenges):
                    quiet_since = time.monotonic()
                    yield text
                if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                    quiet_since = time.monotonic()
                    yield "\n"
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), poll)
        finally:
            self.challenges.wakeups.forget(account.id, wake)

    async def _news(self, account: Account, announced: dict[str, BotGame],
                    challenges: set[str]) -> list[str]:
        out: list[str] = []
        waiting = [c for c in await self.challenges.waiting(account) if c["direction"] == "in"]
        for challenge in waiting:
            if challenge["id"] not in challenges:
                out.append(line({"type": "challenge", "challenge": challenge}))
        for gone in challenges - {c["id"] for c in waiting}:
            found = await self.challenges.describe(account, gone)
            if found["status"] != "accepted":
                out.append(line({"type": "challengeGone", "challenge": found}))
        challenges.clear()
        challenges.update(c["id"] for c in waiting)
        games, ended = await self.store.run(self._games, account.id, list(announced))
        for game in games:
            if game["id"] not in announced:
                announced[game["id"]] = game
                out.append(line({"type": "gameStart", "game": game}))
        for table_id, outcome in ended.items():
            game = announced.pop(table_id)
            out.append(line({"type": "gameFinish", "game": {**game, "outcome": outcome}}))
        return out

    def _games(self, account_id: int, announced: list[str]
               ) -> tuple[list[BotGame], dict[str, str | None]]:
        """The account's unfinished games, and of those ``announced``, the ones that ended
        (with the account's outcome: ``win``, ``draw``, ``loss``, or ``None`` for a game
        archived unfinished)."""
        with Session(self.store.engine) as session:
            rows = self.store.players.unfinished_seats(session, account_id, 200)
            games = [self._game(session, row, seat, account_id) for row, seat in rows]
            running = {g["id"] for g in games}
            ended: dict[str, str | None] = {}
            for table_id in announced:
                if table_id in running:
                    continue
                ended[table_id] = session.scalar(select(ResultRow.outcome).where(
                    ResultRow.table_id == table_id, ResultRow.account_id == account_id))
            return games, ended

    def _game(self, session: Session, row: TableSummary, seat: int, account_id: int
              ) -> BotGame:
        return {"id": row.id, "game": row.game, "params": dict(row.params), "seat": seat,
                "rated": bool(row.rated), "clock": row.clock,
                "players": self._players(session, row.id, row.game)}

    def _players(self, session: Session, table_id: str, game: str) -> list[BotPlayer]:
        """Each seat's player: name, whether a bot, and rating in the game's pool."""
        held = [seat for _table, seat in self.store.players.seats_of(session, [table_id])]
        ids = {seat.account for seat in held if seat.account is not None}
        accounts = {a.id: a for a in session.scalars(
            select(AccountRow).where(AccountRow.id.in_(ids))).all()} if ids else {}
        seats = [(seat, accounts.get(seat.account) if seat.account is not None else None)
                 for seat in held]
        players = []
        pool = pool_of(game, len(seats))
        for seat, owner in seats:
            entry: BotPlayer = {"seat": seat.seat, "name": seat.name,
                                     "bot": bool(owner.bot) if owner is not None else False,
                                     "rating": None}
            if owner is not None:
                rating, rd = self.ratings.rating_of(owner.id, pool)
                entry["rating"] = round(rating)
                entry["rd"] = round(rd)
                entry["shown"] = shown(rating, rd)
            players.append(entry)
        return players

    # -- one game ----------------------------------------------------------------------------
    async def seat_of(self, account: Account, table_id: str) -> tuple[Table, Any]:
        """The table and the bot's own hand at it; :class:`BotError` if it has none."""
        table = await self.hub.table(table_id) if len(table_id) <= 32 else None
        hand = None if table is None else next(
            (h for h in table.hands if h.account == account.id and h.seats), None)
        if table is None or hand is None:
            raise BotError(f"you have no seat at a table {table_id[:32]!r}")
        return table, hand

    async def game(self, account: Account, table_id: str, client: str) -> Stream:
        """One game's stream for the bot's seat; the place is taken first, and given back if
        the bot has no seat there."""
        give_back = self._hold("games", account)
        try:
            table, hand = await self.seat_of(account, table_id)
            players = await self.store.run(self._players_of, table)
        except BaseException:
            give_back()
            raise
        return Stream(self._game_lines(table, hand, players, client), give_back)

    def _players_of(self, table: Table) -> list[BotPlayer]:
        with Session(self.store.engine) as session:
            return self._players(session, table.id, table.game.name)

    async def _game_lines(self, table: Table, hand: Any, players: list[BotPlayer],
                          client: str) -> AsyncIterator[str]:
        yield line({"type": "gameFull", "id": table.id, "game": table.game.name,
                    "seat": hand.seats[0], "rated": table.rated, "players": players})
        conn = Connection(hand, self.hub.limits, client, self.hub.outbox)
        self.hub.presence.join(table, conn)
        try:
            while True:
                try:
                    text = await asyncio.wait_for(conn.next(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield "\n"
                    continue
                if text is None:
                    return  # dropped: the client did not read (it may connect again)
                yield text + "\n"
                if table.over and conn.waiting_bytes == 0:
                    return
        finally:
            self.hub.presence.leave(table, conn)


