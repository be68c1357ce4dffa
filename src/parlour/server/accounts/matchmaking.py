""""Play someone now": a queue in the database that pairs people of similar rating, whichever
server process each of them asked.

A pool is a game at two players with one time control, rated (accounts) or casual (guests, and
accounts who ask). Each waiting person has a ticket (a random secret; its hash is the row's
key) and shows they are still there by asking how it goes at least every
:data:`STALE_SECONDS`; a page that goes away leaves the queue at once (``DELETE``) or when its
ticket goes stale. Every process runs :meth:`Matchmaker.run`: every :data:`PAIR_SECONDS` it
takes each pool's longest waiter and pairs them with the nearest rating within their window,
which widens the longer either has waited (:func:`window`). The two rows are claimed by one
conditional ``UPDATE`` each, so two processes never pair the same person twice; the table is
then created like any other and both tickets learn their seat link.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from parlour.core import game_class, load_game
from parlour.i18n import Message, text_of
from parlour.server.accounts.models import QueueRow
from parlour.server.accounts.ratings import pool_of
from parlour.server.accounts.sessions import digest
from parlour.server.limits import Limits
from parlour.server.messages.queue import QueueStatus, Ticket
from parlour.server.messages.schemas import Params
from parlour.server.periodic import every
from parlour.server.persistence.store import Store

log = logging.getLogger("parlour.server")

TIME_CONTROLS: dict[str, tuple[str, dict[str, float]]] = {
    "3+2": ("3 minutes + 2 seconds a move", {"initial": 180, "increment": 2}),
    "10+5": ("10 minutes + 5 seconds a move", {"initial": 600, "increment": 5}),
    "1d": ("a day a move", {"per_move": 86400}),
}
"""The time controls "Play someone now" offers (a pool each)."""
PAIR_SECONDS = 1.0
"""How often each process looks for pairs."""
STALE_SECONDS = 10.0
"""A ticket not asked about for this long has left the queue (the page polls every 1.5 s)."""
PAIRED_KEPT = 120.0
"""A paired ticket keeps its seat link this long for a page that asks again."""
WINDOW_START = 100.0
WINDOW_GROWTH = 10.0
WINDOW_MAX = 700.0
"""The rating window: +-100 at first, 10 more each second waited, +-700 at most (after a
minute); two people are paired when they are within the wider of their two windows."""
MAX_WAITING = 10_000
"""Entries in the whole queue at once (beyond, "try again in a moment")."""

Pairer = Callable[[str, Params, list[tuple[int | None, str]], dict[str, float], bool],
                  Awaitable[tuple[str, list[str]]]]
"""Creates the table for a pair: ``(game, params, players, clock, rated)`` to the table's id
and the players' seat links."""


class QueueError(ValueError):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def window(waited: float) -> float:
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * max(0.0, waited))


def pool_key(game: str, control: str, rated: bool) -> str:
    return f"{pool_of(game, 2)}|{control}|{'rated' if rated else 'casual'}"


@dataclass(frozen=True)
class Entry:
    ticket_hash: str
    pool: str
    account: int | None
    name: str
    rating: float
    joined_at: float


def pick_pairs(entries: list[Entry], now: float) -> list[tuple[Entry, Entry]]:
    """Pairs in one pool: the longest waiter first, with the nearest rating in the window.

    >>> e = lambda n, r, t: Entry(n, "p", None, n, r, t)
    >>> [(a.name, b.name) for a, b in pick_pairs([e("a", 1500, 0), e("b", 1900, 1),
    ...                                           e("c", 1550, 2)], now=3)]
    [('a', 'c')]
    """
    left = sorted(entries, key=lambda x: x.joined_at)
    pairs = []
    while len(left) >= 2:
        first = left.pop(0)
        near = sorted(
            (x for x in left if x.account is None or x.account != first.account),
            key=lambda x: abs(x.rating - first.rating))
        match = next((x for x in near if abs(x.rating - first.rating) <= max(
            window(now - first.joined_at), window(now - x.joined_at))), None)
        if match is not None:
            left.remove(match)
            pairs.append((first, match))
    return pairs


class Matchmaker:
    def __init__(self, store: Store, limits: Limits, rating_of: Callable[[int, str], tuple[
            float, float]], pair: Pairer) -> None:
        self.store = store
        self.limits = limits
        self.rating_of = rating_of
        self.pair = pair
        self.paired = 0

    # -- people joining, asking, leaving -------------------------------------------------------
    async def join(self, game: str, control: str, rated: bool, account: tuple[int, str] | None,
                   guest_name: str, client: str) -> Ticket:
        if control not in TIME_CONTROLS:
            raise QueueError(Message("choose a time control: {controls}",
                                     controls=", ".join(TIME_CONTROLS)))
        try:
            kind = game_class(game).game_type
        except ValueError as exc:
            raise QueueError(text_of(exc)) from None
        if kind.min_num_players > 2:
            raise QueueError(Message("{long_name} is not played by two", long_name=kind.long_name))
        if rated and account is None:
            raise QueueError(Message(
                "sign in to play rated games: ratings belong to accounts"), 401)
        ticket = secrets.token_urlsafe(24)
        pool = pool_key(game, control, rated)
        rating = (await self.store.run(self.rating_of, account[0], pool_of(game, 2)))[0] \
            if account else 1500.0
        name = account[1] if account else guest_name
        await self.store.run(self._insert, ticket, pool, account, name, rating, client)
        return {"ticket": ticket, "pool": pool, "label": TIME_CONTROLS[control][0]}

    def _insert(self, ticket: str, pool: str, account: tuple[int, str] | None, name: str,
                rating: float, client: str) -> None:
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            total = session.scalar(select(func.count()).select_from(QueueRow)) or 0
            mine = session.scalar(select(func.count()).select_from(QueueRow).where(
                QueueRow.client == client, QueueRow.table_id.is_(None))) or 0
            if total >= MAX_WAITING:
                raise QueueError(Message("the queue is full: try again in a moment"), 503)
            if mine >= self.limits.queue_per_client:
                raise QueueError(Message(
                    "you are waiting in {mine} queues already: leave one first",
                    mine=mine),
                                 429)
            if account is not None:  # one place per pool: a second tab takes the first's
                session.execute(delete(QueueRow).where(QueueRow.account_id == account[0],
                                                       QueueRow.pool == pool))
            session.add(QueueRow(ticket_hash=digest(ticket), pool=pool,
                                 account_id=None if account is None else account[0],
                                 client=client, name=name[:64], rating=rating, joined_at=now,
                                 seen_at=now))

    async def status(self, ticket: str) -> QueueStatus | None:
        return await self.store.run(self._status, digest(ticket))

    def _status(self, ticket_hash: str) -> QueueStatus | None:
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            row = session.get(QueueRow, ticket_hash)
            if row is None:
                return None
            if row.seat_url:
                return {"status": "paired", "url": row.seat_url, "table": row.table_id}
            row.seen_at = now
            waiting = session.scalar(select(func.count()).select_from(QueueRow).where(
                QueueRow.pool == row.pool, QueueRow.table_id.is_(None))) or 0
            waited = now - row.joined_at
            return {"status": "waiting", "waited": round(waited, 1),
                    "window": round(window(waited)), "waiting": int(waiting)}

    async def leave(self, ticket: str) -> bool:
        return await self.store.run(self._leave, digest(ticket))

    def _leave(self, ticket_hash: str) -> bool:
        with self.store.engine.begin() as connection:
            return bool(connection.execute(delete(QueueRow).where(
                QueueRow.ticket_hash == ticket_hash, QueueRow.table_id.is_(None))).rowcount)

    # -- pairing (every process) ---------------------------------------------------------------
    async def run(self) -> None:
        await every(PAIR_SECONDS, self.pair_once, "matchmaking")

    async def pair_once(self) -> int:
        entries = await self.store.run(self._waiting)
        pools: dict[str, list[Entry]] = {}
        for entry in entries:
            pools.setdefault(entry.pool, []).append(entry)
        made = 0
        now = time.time()
        for pool, waiting in pools.items():
            for first, second in pick_pairs(waiting, now):
                marker = f"~{secrets.token_hex(8)}"
                if not await self.store.run(self._claim, first, second, marker):
                    continue  # another process paired one of them first
                try:
                    table_id, links = await self._create(pool, first, second)
                except Exception:
                    log.exception("creating a paired table failed")
                    await self.store.run(self._release, marker)
                    continue
                await self.store.run(self._deliver, table_id, first, second, links)
                made += 1
        self.paired += made
        return made

    def _waiting(self) -> list[Entry]:
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            session.execute(delete(QueueRow).where(QueueRow.table_id.is_(None),
                                                   QueueRow.seen_at < now - STALE_SECONDS))
            session.execute(delete(QueueRow).where(QueueRow.table_id.is_not(None),
                                                   QueueRow.seen_at < now - PAIRED_KEPT))
            rows = session.scalars(select(QueueRow).where(QueueRow.table_id.is_(None))).all()
            return [Entry(r.ticket_hash, r.pool, r.account_id, r.name, r.rating, r.joined_at)
                    for r in rows]

    def _claim(self, first: Entry, second: Entry, marker: str) -> bool:
        """Both rows, or neither: one conditional update each, in one transaction."""
        with Session(self.store.engine) as session, session.begin():
            for entry in (first, second):
                result = session.execute(update(QueueRow).where(
                    QueueRow.ticket_hash == entry.ticket_hash, QueueRow.table_id.is_(None)
                ).values(table_id=marker))
                claimed = getattr(result, "rowcount", 0)
                if not claimed:
                    session.rollback()
                    return False
        return True

    def _release(self, marker: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(update(QueueRow).where(QueueRow.table_id == marker)
                               .values(table_id=None))

    async def _create(self, pool: str, first: Entry, second: Entry
                      ) -> tuple[str, list[str]]:
        game_pool, control, rated = pool.split("|")
        game = game_pool  # pool_of(game, 2) is the game's own name
        params = {"players": 2} if "players" in game_class(game).parameters and (
            load_game(game).num_players() != 2) else {}
        pair = [first, second]
        random.shuffle(pair)  # who starts is drawn
        players = [(e.account, e.name) for e in pair]
        table_id, links = await self.pair(game, params, players, TIME_CONTROLS[control][1],
                                          rated == "rated")
        return table_id, [links[pair.index(first)], links[pair.index(second)]]

    def _deliver(self, table_id: str, first: Entry, second: Entry, links: list[str]) -> None:
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            for entry, link in zip((first, second), links, strict=True):
                session.execute(update(QueueRow).where(
                    QueueRow.ticket_hash == entry.ticket_hash).values(
                    table_id=table_id, seat_url=link, seen_at=now))
