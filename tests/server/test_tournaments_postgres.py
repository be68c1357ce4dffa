"""A tournament run by two server processes on one PostgreSQL (issue 31): both look after the
running tournaments at once, the players' clients are split between them, and each round is
still paired once, each table made once, every game counted once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from parlour.server.persistence.devdb import throwaway_cluster
from parlour.server.persistence.store import Store

from .helpers import ServerProcess, account
from .test_tournaments import RandomPlayer


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[ServerProcess], str]]:
    folder = tmp_path_factory.mktemp("tournaments-pg")
    with throwaway_cluster() as url:
        processes = [ServerProcess(folder / f"{n}.db", db_url=url,
                                   log_path=folder / f"{n}.log").start() for n in "ab"]
        yield processes, url
        for process in processes:
            process.stop()


def _count(url: str, sql: str, *args: object) -> int:
    store = Store(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with store.engine.connect() as connection:
            return int(connection.exec_driver_sql(sql, args).scalar_one())
    finally:
        store.close()


def test_a_swiss_on_two_processes_pairs_each_round_once(two):
    (a, b), url = two
    servers = [a, b, a, b]
    browsers = [account(s, f"pg-sw{i}") for i, s in enumerate(servers)]
    tid = browsers[0].post("/api/tournaments", json={
        "game": "clobber", "params": {"size": "3x4"}, "format": "swiss", "rounds": 3,
        "rated": True, "clock": {"per_move": 600}}).json()["id"]
    for browser in browsers:
        assert browser.post(f"/api/tournaments/{tid}/join").status_code == 200
    assert browsers[1].post(f"/api/tournaments/{tid}/start").status_code == 403
    assert browsers[0].post(f"/api/tournaments/{tid}/start").json() == {"started": True}
    players = [RandomPlayer(s.base, br, tid, seed)
               for seed, (s, br) in enumerate(zip(servers, browsers, strict=True))]
    for p in players:
        p.start()
    for p in players:
        p.join(timeout=300)
        assert p.error is None, repr(p.error)
    on_a, on_b = (s.get(f"/api/tournaments/{tid}").json() for s in (a, b))
    assert on_a["status"] == on_b["status"] == "finished"
    assert on_a["standings"] == on_b["standings"] and on_a["games"] == on_b["games"]
    assert len(on_a["games"]) == 6 and sum(s["points"] for s in on_a["standings"]) == 6.0
    tables = [g["table"] for g in on_a["games"]]
    assert _count(url, "SELECT count(*) FROM parlour_tournament_rounds WHERE tournament_id = %s",
                  tid) == 3
    for table in tables:  # made once, rated once
        assert _count(url, "SELECT count(*) FROM parlour_tables WHERE id = %s", table) == 1
        assert _count(url, "SELECT count(*) FROM parlour_rating_changes WHERE table_id = %s",
                      table) == 2
    # the tournament's tables are its players' only tables: none made twice under other ids
    assert _count(url, "SELECT count(*) FROM parlour_seats WHERE account_id IN (SELECT id FROM "
                  "parlour_accounts WHERE username LIKE 'pg-sw%%')") == 12
