"""Sharing the workers that think (computer players, the analysis board) fairly between clients.

One client must not be able to make everyone else wait: six computer-against-computer tables
on the largest board, or eight analyses in flight, once queued ahead of everyone in arrival
order, held every other client's computer move for half a minute (issue 28). So a job waiting
for a worker is served by

1. **class**: jobs for a person waiting at the table (``INTERACTIVE``) before jobs nobody waits
   for (``BACKGROUND``: a table where only computers play); background jobs may hold at most
   ``background_share`` of the workers at once, so a person's job always finds one free or
   next free;
2. **client**: within a class, clients take turns (round robin), each with at most
   ``per_client`` jobs in flight (one fewer than the workers), however many it queued, so
   another client's job finds a worker free or next free;
3. **arrival**: one client's jobs in the order they came.

The queue only decides who goes next; :class:`parlour.server.ai.AIRunner` owns the workers.
"""

from __future__ import annotations

import asyncio
import enum
from collections import OrderedDict, deque
from collections.abc import Hashable


class JobClass(enum.IntEnum):
    """How soon a job is served (lower first)."""

    INTERACTIVE = 0
    """A person waits for it: a computer's move at a table with people, an analysis."""
    BACKGROUND = 1
    """Nobody waits for it: a move at a table where only computers play."""


class Ticket:
    """One job's place in the queue: set done when it may run."""

    __slots__ = ("client", "job_class", "ready")

    def __init__(self, client: Hashable, job_class: JobClass) -> None:
        self.client = client
        self.job_class = job_class
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()


class FairQueue:
    """Who runs next when a worker is free (see the module's docstring)."""

    def __init__(self, workers: int, *, per_client: int | None = None,
                 background_share: int | None = None) -> None:
        self.workers = workers
        self.per_client = max(1, workers - 1 if per_client is None else per_client)
        self.background_share = max(1, workers - 1 if background_share is None
                                    else background_share)
        self._waiting: dict[JobClass, OrderedDict[Hashable, deque[Ticket]]] = {
            c: OrderedDict() for c in JobClass
        }
        self.running: dict[Hashable, int] = {}
        self.running_background = 0

    @property
    def busy(self) -> int:
        return sum(self.running.values())

    def waiting(self) -> int:
        return sum(len(q) for by_client in self._waiting.values() for q in by_client.values())

    def join(self, client: Hashable, job_class: JobClass) -> Ticket:
        """Queue a job; await ``ticket.ready``, then call :meth:`done` when it ends."""
        ticket = Ticket(client, job_class)
        self._waiting[job_class].setdefault(client, deque()).append(ticket)
        self.dispatch()
        return ticket

    def leave(self, ticket: Ticket) -> None:
        """A job gives up its place (its caller was cancelled): running or waiting."""
        if ticket.ready.done() and not ticket.ready.cancelled():
            self.done(ticket)
            return
        ticket.ready.cancel()
        queue = self._waiting[ticket.job_class].get(ticket.client)
        if queue is not None and ticket in queue:
            queue.remove(ticket)
            if not queue:
                del self._waiting[ticket.job_class][ticket.client]

    def done(self, ticket: Ticket) -> None:
        """A job that ran has ended: its worker is free for the next one."""
        left = self.running.get(ticket.client, 0) - 1
        if left > 0:
            self.running[ticket.client] = left
        else:
            self.running.pop(ticket.client, None)
        if ticket.job_class == JobClass.BACKGROUND:
            self.running_background -= 1
        self.dispatch()

    def dispatch(self) -> None:
        """Start waiting jobs while there are free workers and jobs allowed to take them."""
        while self.busy < self.workers:
            ticket = self._next()
            if ticket is None:
                return
            self.running[ticket.client] = self.running.get(ticket.client, 0) + 1
            if ticket.job_class == JobClass.BACKGROUND:
                self.running_background += 1
            ticket.ready.set_result(None)

    def _next(self) -> Ticket | None:
        for job_class in JobClass:
            if (job_class == JobClass.BACKGROUND
                    and self.running_background >= self.background_share):
                continue
            by_client = self._waiting[job_class]
            for client in list(by_client):
                if self.running.get(client, 0) >= self.per_client:
                    continue  # it has its share in flight: the others go first
                queue = by_client.pop(client)
                ticket = queue.popleft()
                if queue:
                    by_client[client] = queue  # back of the line: the others go first
                if ticket.ready.cancelled():
                    continue
                return ticket
        return None
