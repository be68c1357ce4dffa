"""Running tournaments: every server process looks every :data:`TICK` seconds at the running
ones and moves each on, so a tournament carries on whichever process is up, and after a
restart from what the database holds.

For each tournament, in order:

1. an open one whose ``starts_at`` has come starts (:meth:`Tournaments.start`);
2. the round being played has its tables made (all of them together, with the ids the pairing
   stored: a table made already, by another process or before a crash, is found by its id);
3. a player who has not made their first move of a game ``grace`` seconds after their turn
   came (and the round began) forfeits it: they resign it, through the table's own path, so
   that the result and the rating change are stored like any resignation; a player whose
   account was deleted forfeits each of their games at once (issue 62), without a rating
   change (:mod:`parlour.server.accounts.ratings`);
4. when every game of the round has ended, the next round is paired (one process only: the
   round's row is the claim), or after the last the tournament is finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.server.accounts.models import AccountRow
from parlour.server.names import DELETED
from parlour.server.periodic import every
from parlour.server.tables.hub import Hub
from parlour.server.tournaments.models import PairingRow, RoundRow, TournamentRow
from parlour.server.tournaments.pairing import Pairing, Round, round_robin, swiss
from parlour.server.tournaments.service import (
    FINISHED,
    OPEN,
    RUNNING,
    Tournaments,
    round_inputs,
    store_round,
)
from parlour.server.tournaments.standings import SWISS, bye_points

log = logging.getLogger("parlour.server")

TICK = 1.0
"""Seconds between two looks at the running tournaments (each process)."""


class Runner:
    """Moves every running tournament on (one per server process)."""

    def __init__(self, tournaments: Tournaments, hub: Hub) -> None:
        self.tournaments = tournaments
        self.store = tournaments.store
        self.hub = hub
        self.forfeited = 0

    async def run(self) -> None:
        await every(TICK, self.tick, "running the tournaments")

    async def tick(self) -> None:
        now = time.time()
        for tid in await self.store.run(self._due, now):
            if await self.store.run(self.tournaments.start, tid, None):
                log.info("tournament %s started at its start time", tid)
        for tid in await self.store.run(self._running):
            try:
                await self.advance(tid)
            except asyncio.CancelledError:
                raise
            except Exception:  # one tournament's trouble never holds up the others
                log.exception("tournament %s could not move on (tried again next tick)", tid)

    def _due(self, now: float) -> list[str]:
        with Session(self.store.engine) as session:
            return list(session.scalars(select(TournamentRow.id).where(
                TournamentRow.status == OPEN, TournamentRow.starts_at <= now)))

    def _running(self) -> list[str]:
        with Session(self.store.engine) as session:
            return list(session.scalars(select(TournamentRow.id).where(
                TournamentRow.status == RUNNING)))

    async def advance(self, tid: str) -> None:
        """Move one running tournament on (any process, any number of times)."""
        await self._make_tables(tid)
        await self._forfeit_no_shows(tid)
        await self._next_round(tid)
        await self._make_tables(tid)

    # -- tables ------------------------------------------------------------------------------
    async def _make_tables(self, tid: str) -> None:
        for spec in await self.store.run(self._unmade, tid):
            # made already (another process, or before a crash): the id is taken
            with contextlib.suppress(IntegrityError):
                await self.hub.maker.create_paired(
                    spec["game"], spec["params"], spec["players"], spec["clock"],
                    spec["rated"], bots=spec["bots"], table_id=spec["table"])
            await self.store.run(self._made, spec["table"])

    def _unmade(self, tid: str) -> list[dict[str, Any]]:
        with Session(self.store.engine) as session:
            row = session.get(TournamentRow, tid)
            if row is None or row.status != RUNNING:
                return []
            pairings = list(session.scalars(select(PairingRow).where(
                PairingRow.tournament_id == tid, PairingRow.round == row.round,
                PairingRow.made.is_(False)).order_by(PairingRow.board)))
            ids = {a for p in pairings for a in p.players}
            accounts = session.execute(select(AccountRow.id, AccountRow.username, AccountRow.bot)
                                       .where(AccountRow.id.in_(ids))).tuples().all()
            names = {a: name for a, name, _bot in accounts}
            bots = {a for a, _name, bot in accounts if bot}
            return [{"game": row.game, "params": row.params, "clock": row.clock,
                     "rated": row.rated, "table": p.table_id,
                     "players": [(a, names.get(a) or DELETED) for a in p.players],
                     "bots": bots & set(p.players)}
                    for p in pairings]

    def _made(self, table_id: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(update(PairingRow).where(PairingRow.table_id == table_id)
                               .values(made=True))

    # -- no-shows ----------------------------------------------------------------------------
    async def _forfeit_no_shows(self, tid: str) -> None:
        for table_id, seat, account in await self.store.run(self._no_shows, tid, time.time()):
            table = await self.hub.table(table_id)
            if table is None:
                continue
            reply = await self.hub.finisher.resign(table, seat)
            if reply.get("type") == "resigned":
                self.forfeited += 1
                await self.store.run(self._mark_forfeit, table_id, account)
                log.info("tournament %s: seat %d of table %s forfeits (no show)", tid,
                         seat + 1, table_id)

    def _no_shows(self, tid: str, now: float) -> list[tuple[str, int, int]]:
        """Seats whose player has not moved once in their game although their turn has
        lasted the grace time (counted from the later of the round's start and the last
        move), and at once the seats of deleted accounts."""
        with Session(self.store.engine) as session:
            row = session.get(TournamentRow, tid)
            began = session.get(RoundRow, (tid, row.round)) if row is not None else None
            if row is None or began is None:
                return []
            pairings = list(session.scalars(select(PairingRow).where(
                PairingRow.tournament_id == tid, PairingRow.round == row.round,
                PairingRow.made.is_(True), PairingRow.ended_at.is_(None))))
            gone = set(session.scalars(select(AccountRow.id).where(
                AccountRow.id.in_({a for p in pairings for a in p.players}),
                AccountRow.deleted_at.is_not(None))))
            out = []
            for p in pairings:
                table = self.store.players.summary(session, p.table_id)
                if table is None or table.finished:
                    continue
                out += [(p.table_id, seat, a) for seat, a in enumerate(p.players)
                        if a in gone and a not in p.forfeits]
                if now < began.started_at + row.grace or table.to_act is None \
                        or not 0 <= table.to_act < len(p.players) \
                        or p.players[table.to_act] in gone:
                    continue
                seat = table.to_act
                moved = self.store.players.moves_by(session, p.table_id, seat)
                last = self.store.players.last_move_at(session, p.table_id)
                if not moved and now >= max(began.started_at, last or 0.0) + row.grace \
                        and seat < len(p.players) and p.players[seat] not in p.forfeits:
                    out.append((p.table_id, seat, p.players[seat]))
            return out

    def _mark_forfeit(self, table_id: str, account: int) -> None:
        with Session(self.store.engine) as session, session.begin():
            p = session.scalar(select(PairingRow).where(PairingRow.table_id == table_id))
            if p is not None and account not in p.forfeits:
                p.forfeits = [*p.forfeits, account]

    # -- rounds --------------------------------------------------------------------------------
    async def _next_round(self, tid: str) -> None:
        """Finish the tournament after its last round, or pair the next round once every game
        of this one has ended: the pairing is worked out off the database's thread (a large
        Swiss can take a moment) and stored only if no other process stored it meanwhile."""
        due = await self.store.run(self._round_due, tid)
        if due is None:
            return
        after, fmt, k, players, rounds = due
        if fmt == SWISS:
            pairing = await asyncio.to_thread(swiss, players, rounds, k, bye_points(fmt))
        else:
            pairing = round_robin(players, after + 1, rounds, k)
        if await self.store.run(self._store_round, tid, after, pairing):
            log.info("tournament %s: round %d paired", tid, after + 1)

    def _round_due(self, tid: str) -> tuple[int, str, int, list[int], list[Round]] | None:
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            row = session.get(TournamentRow, tid)
            if row is None or row.status != RUNNING:
                return None
            if row.round:
                waiting = session.scalar(select(func.count()).select_from(PairingRow).where(
                    PairingRow.tournament_id == tid, PairingRow.round == row.round,
                    PairingRow.ended_at.is_(None))) or 0
                if waiting:
                    return None
            if row.round >= row.rounds:
                session.execute(update(TournamentRow).where(
                    TournamentRow.id == tid, TournamentRow.status == RUNNING).values(
                    status=FINISHED, finished_at=now))
                log.info("tournament %s finished after %d rounds", tid, row.round)
                return None
            players, rounds = round_inputs(session, row)
            return row.round, row.format, row.players_per_table, players, rounds

    def _store_round(self, tid: str, after: int, pairing: Pairing) -> bool:
        with Session(self.store.engine) as session, session.begin():
            return store_round(session, tid, after, pairing, time.time())
