""""Play someone now" on a real server: two guests paired into one casual table, two accounts
into a rated one, the window of ratings, leaving, stale tickets, and the refusals (issue 29)."""

from __future__ import annotations

import hashlib
import sqlite3
import time

import httpx

from .helpers import TIMEOUT, ServerProcess, account


def _queued(server: ServerProcess, ticket_hash: str) -> bool:
    with sqlite3.connect(server.db_path) as db:
        return db.execute("SELECT 1 FROM parlour_queue WHERE ticket_hash = ?",
                          (ticket_hash,)).fetchone() is not None


def _guest(server: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=server.base, timeout=TIMEOUT)


def wait_paired(browser: httpx.Client, ticket: str, seconds: float = 15) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = browser.get(f"/api/queue/{ticket}").json()
        if status["status"] == "paired":
            return status
        time.sleep(0.3)
    raise AssertionError(f"not paired: {status}")


def test_two_guests_are_paired_into_one_casual_table(server):
    a, b = _guest(server), _guest(server)
    first = a.post("/api/queue", json={"game": "stomple", "clock": "3+2", "name": "Ann"}).json()
    waiting = a.get(f"/api/queue/{first['ticket']}").json()
    assert waiting["status"] == "waiting" and waiting["window"] >= 100
    second = b.post("/api/queue", json={"game": "stomple", "clock": "3+2", "name": "Ben"}).json()
    seats = [wait_paired(a, first["ticket"]), wait_paired(b, second["ticket"])]
    assert seats[0]["table"] == seats[1]["table"] and seats[0]["url"] != seats[1]["url"]
    state = server.get(f"/api/play/{seats[0]['url'].rsplit('/', 1)[-1]}").json()
    assert not state["rated"] and sorted(s["name"] for s in state["seats"]) == ["Ann", "Ben"]
    assert state["clock"]["initial"] == 180 and state["clock"]["increment"] == 2
    assert state["num_players"] == 2


def test_two_accounts_are_paired_into_a_rated_table(server):
    a, b = account(server, "queue-a"), account(server, "queue-b")
    tickets = [x.post("/api/queue", json={"game": "clobber", "clock": "1d", "rated": True}
                      ).json()["ticket"] for x in (a, b)]
    seats = [wait_paired(x, t) for x, t in zip((a, b), tickets, strict=True)]
    state = server.get(f"/api/play/{seats[0]['url'].rsplit('/', 1)[-1]}").json()
    assert state["rated"] and {s["name"] for s in state["seats"]} == {"queue-a", "queue-b"}
    assert all(s["account"] for s in state["seats"])
    assert state["clock"]["per_move"] == 86400
    # the seat is the account's: it is in "Your games" on any device
    assert any(g["table"] == seats[0]["table"] for g in a.get("/api/me/games").json()["games"])


def test_what_the_queue_refuses_and_leaving_it(server):
    guest = _guest(server)
    refused = guest.post("/api/queue", json={"game": "clobber", "clock": "3+2", "rated": True})
    assert refused.status_code == 401
    assert guest.post("/api/queue", json={"game": "clobber", "clock": "7+7"}).status_code == 400
    assert guest.post("/api/queue", json={"game": "chess", "clock": "3+2"}).status_code == 400
    ticket = guest.post("/api/queue", json={"game": "gobblestones", "clock": "3+2"}).json()[
        "ticket"]
    assert guest.delete(f"/api/queue/{ticket}").json() == {"left": True}
    assert guest.get(f"/api/queue/{ticket}").status_code == 404
    assert guest.get("/api/queue/not-a-ticket").status_code == 404


def test_a_page_that_stops_asking_leaves_the_queue(server):
    guest = _guest(server)
    ticket = guest.post("/api/queue", json={"game": "stomp-the-plank", "clock": "10+5"}).json()[
        "ticket"]
    # STALE_SECONDS (10) without asking, then the next pairing round takes it out: watched in
    # the database, which (unlike asking) does not count as the page still being there
    stored = hashlib.sha256(ticket.encode()).hexdigest()
    deadline = time.monotonic() + 10 + TIMEOUT
    while _queued(server, stored):
        assert time.monotonic() < deadline, "a stale ticket stayed in the queue"
        time.sleep(0.5)
    assert guest.get(f"/api/queue/{ticket}").status_code == 404


def test_one_client_waits_in_a_few_queues_at_most(tmp_path):
    proc = ServerProcess(tmp_path / "queue.db", limits="queue_per_client=2").start()
    try:
        guest = _guest(proc)
        answers = [guest.post("/api/queue", json={"game": g, "clock": "3+2"}).status_code
                   for g in ("clobber", "stomple", "gobblestones")]
        assert answers == [201, 201, 429]
    finally:
        proc.stop()
