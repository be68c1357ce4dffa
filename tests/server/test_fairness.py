"""The fair queue that decides which job thinks next (parlour.server.fairness), one rule a test.

No server here: the queue is plain asyncio, driven step by step.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from parlour.server.fairness import FairQueue, JobClass

PERSON, ALONE = JobClass.INTERACTIVE, JobClass.BACKGROUND


def _run(body):
    """Run ``body`` on an event loop of its own, in a thread: the browser tests' Playwright
    keeps a loop running in the main thread for the whole session."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, body()).result()


def test_a_free_worker_takes_a_job_at_once():
    async def body():
        queue = FairQueue(2)
        ticket = queue.join("a", PERSON)
        assert ticket.ready.done()
        queue.done(ticket)
        assert queue.busy == 0
    _run(body)


def test_one_client_never_holds_every_worker():
    """Two workers: a client's second job waits even with a worker free, so another
    client's job always finds one."""
    async def body():
        queue = FairQueue(2)
        first, second = queue.join("a", PERSON), queue.join("a", PERSON)
        assert first.ready.done() and not second.ready.done()
        other = queue.join("b", PERSON)
        assert other.ready.done()
        queue.done(first)
        assert second.ready.done()
    _run(body)


def test_clients_take_turns_however_many_jobs_one_queued():
    async def body():
        queue = FairQueue(2, per_client=1)
        running = queue.join("x", PERSON)
        holder = queue.join("y", PERSON)
        waiting_a = [queue.join("a", PERSON) for _ in range(5)]
        waiting_b = queue.join("b", PERSON)
        assert running.ready.done() and holder.ready.done()
        queue.done(running)  # a's first job goes (a came first)...
        assert waiting_a[0].ready.done() and not waiting_b.ready.done()
        queue.done(holder)  # ...then b's, not a's second
        assert waiting_b.ready.done() and not waiting_a[1].ready.done()
    _run(body)


def test_a_person_waiting_goes_before_tables_where_only_computers_play():
    async def body():
        queue = FairQueue(2, per_client=2, background_share=2)
        busy = [queue.join("z", PERSON), queue.join("z", PERSON)]
        background = queue.join("a", ALONE)
        person = queue.join("b", PERSON)
        queue.done(busy[0])
        assert person.ready.done() and not background.ready.done()
    _run(body)


def test_background_jobs_never_take_the_last_worker():
    async def body():
        queue = FairQueue(2, per_client=2)
        first, second = queue.join("a", ALONE), queue.join("a", ALONE)
        assert first.ready.done() and not second.ready.done()
        assert queue.join("b", PERSON).ready.done()  # the worker kept for people
    _run(body)


def test_a_job_that_gives_up_waiting_leaves_its_place():
    async def body():
        queue = FairQueue(1)
        running = queue.join("a", PERSON)
        gone = queue.join("b", PERSON)
        after = queue.join("c", PERSON)
        queue.leave(gone)
        queue.done(running)
        assert gone.ready.cancelled() and after.ready.done()
        assert queue.waiting() == 0
    _run(body)
