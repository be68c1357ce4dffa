"""Puzzles mined from finished games by two server processes on one PostgreSQL: one process
holds the miner's lease, the game is mined once and its puzzle added once, and an answer on
either process moves the puzzle's one rating, which both then serve."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from parlour.analysis.puzzles import puzzle_id
from parlour.server.persistence.devdb import throwaway_cluster
from parlour.server.persistence.store import Store
from parlour.server.study.puzzle_mining import LEASE

from .helpers import TIMEOUT, ServerProcess, account
from .test_puzzle_mining import LINE, MINING, OPENING, POSITION, _play


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[ServerProcess], str]]:
    folder = tmp_path_factory.mktemp("puzzles-pg")
    with throwaway_cluster() as url:
        processes = [ServerProcess(folder / f"{n}.db", db_url=url, limits=MINING,
                                   log_path=folder / f"{n}.log").start() for n in "ab"]
        yield processes, url
        for process in processes:
            process.stop()


def _rows(url: str, sql: str, *args: object) -> list[tuple]:
    store = Store(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with store.engine.connect() as connection:
            return [tuple(r) for r in connection.exec_driver_sql(sql, args).all()]
    finally:
        store.close()


def test_two_processes_mine_a_game_once_and_share_the_puzzles_rating(two):
    (a, b), url = two
    host = account(a, "pg-miner-host")
    done = _play(a, host, OPENING + LINE, to_the_end=True, friend=True)
    deadline = time.monotonic() + 4 * TIMEOUT
    while not _rows(url, "SELECT 1 FROM parlour_puzzle_mined WHERE table_id = %s",
                    done["table"]):
        assert time.monotonic() < deadline, "the game was not mined"
        time.sleep(0.5)
    assert len(_rows(url, "SELECT owner FROM parlour_claims WHERE table_id = %s", LEASE)) == 1
    pid = puzzle_id(POSITION)
    assert _rows(url, "SELECT table_id, ply FROM parlour_puzzles WHERE id = %s", pid) == [
        (done["table"], len(OPENING))]
    # the shipped set was stocked once, although both processes started on the database
    shipped = _rows(url, "SELECT count(*), count(DISTINCT id) FROM parlour_puzzles")[0]
    assert shipped[0] == shipped[1] > 1000

    before = a.get(f"/api/puzzles/clobber/{pid}").json()["puzzle_rating"]
    solver = account(b, "pg-miner-solver")
    answer = solver.post(f"/api/puzzles/clobber/{pid}/answer", json={"moves": LINE[::2]}).json()
    assert answer["status"] == "solved" and answer["puzzle_rating"]["change"] < 0
    on_a = a.get(f"/api/puzzles/clobber/{pid}").json()["puzzle_rating"]
    assert on_a["rating"] == pytest.approx(answer["puzzle_rating"]["rating"])
    assert on_a["rating"] < before["rating"] and on_a["attempts"] == 1
    assert a.get("/api/players/pg-miner-solver").json()["puzzles"]["clobber"]["solved"] == 1
