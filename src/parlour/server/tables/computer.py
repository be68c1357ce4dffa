"""The computer players at the tables: whose turn it is, thinking off the event loop, and
storing the move like anyone's.

A table has at most one computer move in flight (its ``ai_task``). The move is claimed first
(several processes: one thinks, :class:`~parlour.server.tables.cluster.Cluster`), computed in a
worker (:class:`~parlour.server.ai.AIRunner`, under a deadline) from the state any program using the
library would hand an agent, then submitted through :class:`~parlour.server.tables.moves.Mover` as a
seat's move is. An agent that fails or runs out of time is replaced, for that move, by a random
legal one, and the table is told.
"""

from __future__ import annotations

import asyncio
import logging

from parlour.i18n import Message
from parlour.server import metrics
from parlour.server.ai import AIFailure, AIRunner, fallback_action, move_seed
from parlour.server.fairness import JobClass
from parlour.server.messages.schemas import MoveReply
from parlour.server.persistence.records import SeatData
from parlour.server.tables.cluster import Cluster
from parlour.server.tables.moves import Mover, Submission
from parlour.server.tables.table import Table

log = logging.getLogger("parlour.server")

COVER_AGENT = "medium"
"""The computer that plays a turn for a player whose time ran out."""


def computer_seat(table: Table) -> SeatData | None:
    """The computer seat to act: an AI seat, or a player's seat the computer plays for them
    (their time ran out, or it holds the seat until they come back)."""
    if table.over or not table.started or table.archived:
        return None
    player = table.state.current_player()
    if player < 0:
        return None
    if player in table.covered or player in table.taken_over:
        return SeatData(player, "ai", COVER_AGENT)
    return table.seats[player] if table.seats[player].kind == "ai" else None


def paused(table: Table) -> bool:
    """A table where only computers play waits while nobody watches it: its moves would cost
    the server's thinking for no one (it goes on when someone opens it)."""
    return not table.has_people and not table.connections


class Computer:
    """Wakes the computer seat whose turn it is, one move in flight per table."""

    def __init__(self, ai: AIRunner, mover: Mover, cluster: Cluster, delay: float = 0.0) -> None:
        self.ai = ai
        self.mover = mover
        self.cluster = cluster
        self.delay = delay
        """Seconds the computer waits before it thinks (so a person sees their move land)."""

    def wake(self, table: Table) -> None:
        """Start the computer's turns at ``table`` if a computer seat is to act (and someone
        watches, at a table where only computers play)."""
        if table.ai_task is not None and not table.ai_task.done():
            return
        if computer_seat(table) is None or paused(table):
            return
        table.ai_task = asyncio.create_task(self._turns(table))

    async def _turns(self, table: Table) -> None:
        while (seat := computer_seat(table)) is not None and not paused(table):
            version = table.version
            if not await self.cluster.claim(table, version):
                return  # another process is on it (the claim expires if that one dies)
            keeper = asyncio.create_task(self.cluster.keep_claim(table, version))
            try:
                await self._move(table, seat, version)
            finally:
                keeper.cancel()
            if table.version == version:
                return  # nothing was stored (the database refused): leave it to the janitor

    async def _move(self, table: Table, seat: SeatData, version: int) -> None:
        """Think, then store, one computer move for ``seat`` at ``version``."""
        if self.delay:
            await asyncio.sleep(self.delay)
        seed = move_seed(table.seed, version)
        if table.version != version:
            return
        history = tuple(table.state.history())
        job_class = JobClass.INTERACTIVE if table.has_people else JobClass.BACKGROUND
        try:
            with metrics.ai_wait():
                action = await self.ai.choose(
                    table.game.name, table.params_json(), history, seat.agent, seed,
                    client=table.created_by or table.id, job_class=job_class,
                )
        except AIFailure as failure:
            log.warning("table %s: AI %s %s; playing at random", table.id, seat.agent,
                        failure.reason)
            if table.version != version:
                return
            action = fallback_action(table.state.legal_actions(), seed)
            table.notice(Message("{name} {reason} and played a random legal move instead",
                                 name=table.seat_name(seat.seat), reason=failure.reason))
        reply = await self._submit(table, seat, action, version)
        if reply["type"] == "error" and reply["code"] == "illegal":
            log.error("table %s: AI %s chose an illegal action", table.id, seat.agent)
            action = fallback_action(table.state.legal_actions(), seed)
            table.notice(Message("{name} chose a move the rules forbid and played a random legal "
                                 "move instead", name=table.seat_name(seat.seat)))
            reply = await self._submit(table, seat, action, version)
        if reply["type"] == "error" and reply["code"] in ("storage", "conflict"):
            log.error("table %s: AI move not stored (%s); AI paused", table.id, reply["code"])

    async def _submit(self, table: Table, seat: SeatData, action: int, version: int) -> MoveReply:
        submission = Submission((seat.seat,), [action], f"ai:{version}", at=version,
                                partial=True)
        return await self.mover.submit(table, submission)
