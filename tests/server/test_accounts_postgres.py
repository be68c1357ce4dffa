"""Accounts and ratings across two server processes on one PostgreSQL (issue 29): a session
made on one process works on the other and ends on both; a rated game whose end is raced on
the two processes (the winning move sent to one, the same player's resignation to the other,
at once) is rated exactly once, as the ending that was stored."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

from parlour import load_game
from parlour.ratings import NEW_RATING, NEW_RD, NEW_VOLATILITY, rate_game
from parlour.server.persistence.devdb import throwaway_cluster
from parlour.server.persistence.store import Store

from .helpers import PASSWORD, ServerProcess, account


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with throwaway_cluster() as url:
        yield url


@pytest.fixture(scope="module")
def two(postgres_url: str, tmp_path_factory: pytest.TempPathFactory
        ) -> Iterator[list[ServerProcess]]:
    folder = tmp_path_factory.mktemp("accounts-pg")
    processes = [ServerProcess(folder / f"{n}.db", db_url=postgres_url,
                               log_path=folder / f"{n}.log").start() for n in "ab"]
    yield processes
    for process in processes:
        process.stop()


def test_a_session_works_and_ends_on_every_process(two):
    a, b = two
    browser = account(a, "everywhere")
    cookie = browser.cookies["parlour_session"]
    other = b.get("/api/me", headers={"cookie": f"parlour_session={cookie}"})
    assert other.json()["account"]["username"] == "everywhere"
    assert b.post("/api/session", {"username": "EVERYWHERE",
                                   "password": PASSWORD}).status_code == 200
    assert b.post("/api/accounts", {"username": "Everywhere",
                                    "password": PASSWORD}).status_code == 409
    assert browser.delete("/api/session").status_code == 200  # signed out on process a
    assert b.get("/api/me", headers={"cookie": f"parlour_session={cookie}"}).status_code == 401


def _rows(url: str, table_id: str) -> list[tuple[int, float, float]]:
    store = Store(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with store.engine.connect() as connection:
            return [tuple(r) for r in connection.exec_driver_sql(
                "SELECT seat, before, after FROM parlour_rating_changes WHERE table_id = %s "
                "ORDER BY seat", (table_id,))]
    finally:
        store.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_raced_end_is_rated_exactly_once(two, postgres_url: str, seed: int):
    a, b = two
    white, black = account(a, f"race-w{seed}"), account(b, f"race-b{seed}")
    table = white.post("/api/tables", json={"game": "clobber", "params": {"size": "3x4"},
                                            "open": True, "rated": True,
                                            "clock": {"per_move": 600}}).json()
    links = [table["url"], black.post(f"/api/tables/{table['table']}/seats/1").json()["url"]]
    state = load_game("clobber", size="3x4").new_initial_state()
    rng = random.Random(seed)
    with a.client(links[0]) as w_on_a, b.client(links[1]) as b_on_b, \
            b.client(links[0]) as w_on_b, a.client(links[1]) as b_on_a:
        on_a, on_b = [w_on_a, b_on_a], [w_on_b, b_on_b]
        while True:
            seat, version = state.current_player(), state.move_number()
            legal = state.legal_actions()
            final = [x for x in legal if _ends(state, x)]
            if final:
                break
            action = rng.choice(legal)
            mover = (on_a if version % 2 else on_b)[seat]
            mover.wait_state(lambda m, v=version: m["version"] == v)
            assert mover.act([action], at=version)["type"] == "ack"
            state.apply_action(action)
        # the winning move through one process, the same player resigning through the other
        movers = [on_a[seat], on_b[seat]]
        for client in movers:
            client.wait_state(lambda m, v=version: m["version"] == v)
        replies: dict[str, dict] = {}
        start = threading.Barrier(2)

        def move() -> None:
            start.wait()
            replies["move"] = movers[0].act([final[0]], at=version)

        def resign() -> None:
            start.wait()
            movers[1].send({"type": "resign"})

        threads = [threading.Thread(target=move), threading.Thread(target=resign)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        ends = [c.wait_state(lambda m: m.get("terminal"), timeout=60) for c in (w_on_a, b_on_b)]
    results = {tuple(e["result"]["returns"]) for e in ends}
    assert len(results) == 1, "both processes show the same ending"
    returns = results.pop()
    won_by_move = returns[seat] > 0
    print(f"seed {seed}: the {'move' if won_by_move else 'resignation'} was stored")
    assert won_by_move == (replies["move"]["type"] == "ack")
    rows = _rows(postgres_url, table["table"])
    assert len(rows) == 2  # exactly once
    expected = rate_game([(NEW_RATING, NEW_RD, NEW_VOLATILITY)] * 2, list(returns))
    assert [round(after) for _s, _b, after in rows] == [round(r) for r, _, _ in expected]
    for process in (a, b):
        profile = process.get(f"/api/players/race-w{seed}").json()["ratings"]["clobber"]
        assert profile["games"] == 1


def _ends(state, action: int) -> bool:
    after = state.clone()
    after.apply_action(action)
    return after.is_terminal()


def test_the_queue_pairs_people_who_asked_different_processes(two):
    from .test_matchmaking import wait_paired

    a, b = two
    on_a, on_b = account(a, "queue-on-a"), account(b, "queue-on-b")
    tickets = [browser.post("/api/queue", json={"game": "clobber", "clock": "10+5",
                                                "rated": True}).json()["ticket"]
               for browser in (on_a, on_b)]
    seats = [wait_paired(on_a, tickets[0]), wait_paired(on_b, tickets[1])]
    assert seats[0]["table"] == seats[1]["table"]
    state = b.get(f"/api/play/{seats[0]['url'].rsplit('/', 1)[-1]}").json()
    assert state["rated"] and {s["name"] for s in state["seats"]} == {"queue-on-a", "queue-on-b"}
