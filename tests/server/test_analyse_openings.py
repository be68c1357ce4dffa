"""The analysis board's opening book and estimate on a real server process: a position of
the opening book is answered from it, with no search; a position outside it first gets the
``hard`` agent's estimate (``/api/analyse/clobber/estimate``), then the exact solve, whose
progress (``/api/analyse/clobber/progress``) grows while it runs."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

import parlour
from parlour.analysis import openings, proved

from .helpers import FOR_TESTS, TIMEOUT, ServerProcess

API = "/api/analyse/clobber"
FIRST = API + "/estimate"


def start(size: str):
    return parlour.load_game("clobber", size=size).new_initial_state()


def state_of(position: str):
    return parlour.load_game("clobber", position=position).new_initial_state()


def post(server: ServerProcess, path: str, position: str) -> dict:
    response = server.post(path, {"position": position})
    assert response.status_code == 200, response.text
    return response.json()


def test_the_5x6_start_and_its_first_moves_come_from_the_book(server: ServerProcess):
    before = server.get("/healthz").json()["analyses"]
    five = start("5x6")
    for path in (FIRST, API):  # the page's first request, and the solve itself
        answer = post(server, path, five.position())
        assert answer["solved"] is True and answer["book"] is True and answer["nodes"] == 0
        assert answer["winner"] == "x" and answer["winning_moves"] == []  # 5x6 is P
        assert answer["complete"] is True and answer["proved_by"] == []
        assert answer["summary"] == ("White (o) to move loses against perfect play: Black (x) "
                                     "wins whatever White (o) plays.")
    after = five.child(five.legal_actions()[0])
    answer = post(server, FIRST, after.position())
    assert answer["book"] is True and answer["winner"] == "x" and answer["winning_moves"]
    for move in answer["winning_moves"]:  # each into a position the book holds lost
        below = proved.key(after.child(after.string_to_action(move)))
        assert openings.shipped().entries[below or ""][0] is False
    counts = server.get("/healthz").json()["analyses"]
    assert counts["from_book"] == before["from_book"] + 3
    assert counts["solved"] == before["solved"] + 3


def test_a_small_position_is_searched_at_once_even_on_the_first_request(server: ServerProcess):
    answer = post(server, FIRST, "xoxo/oxox o")
    assert answer["solved"] is True and answer["book"] is False and answer["nodes"] > 0
    assert answer["line_complete"] is True and len(answer["winning_moves"]) == 8


def test_outside_the_book_an_estimate_then_the_solve_with_its_progress(tmp_path: Path):
    server = ServerProcess(tmp_path / "estimate.db",
                           limits=FOR_TESTS + ",analysis_seconds=4").start()
    try:
        six_by_seven = start("6x7")
        assert openings.lookup(six_by_seven) is None
        first = post(server, FIRST, six_by_seven.position())
        assert first["solved"] is False and "winner" not in first
        guess = first["estimate"]
        assert guess["player"] == "o" and 0.0 <= guess["win_chance"] <= 1.0
        action = six_by_seven.string_to_action(guess["move"])  # a legal move of the position
        assert guess["position"] == six_by_seven.child(action).position()
        assert guess["iterations"] > 0 and guess["visits"] > 0
        assert server.get(API + "/progress").json() == {"running": False, "nodes": None,
                                                         "seconds": None}
        with ThreadPoolExecutor(1) as pool:
            solving = pool.submit(httpx.post, server.base + API,
                                  json={"position": six_by_seven.position()}, timeout=TIMEOUT)
            seen = None
            deadline = time.monotonic() + TIMEOUT
            while not solving.done():
                assert time.monotonic() < deadline, "the solve neither reported nor ended"
                progress = server.get(API + "/progress").json()
                if progress["nodes"]:
                    seen = progress
                time.sleep(0.1)
            answer = solving.result().json()
        # the solve reported how far it had got while it ran, then gave up without a guess
        assert seen is not None and seen["running"] is True and seen["nodes"] > 0
        assert answer["solved"] is False and answer["nodes"] >= seen["nodes"]
        assert answer["message"].startswith("Not solved within 4 s (")
        counts = server.get("/healthz").json()["analyses"]
        assert counts["estimated"] == 1 and counts["unsolved"] == 1
        assert server.get(API + "/progress").json()["running"] is False
    finally:
        server.stop()


def test_the_first_request_is_checked_as_the_solve_is(server: ServerProcess):
    before = server.get("/healthz").json()["analyses"]
    response = server.post(FIRST, {"position": "xoqo/oxox o"})
    assert response.status_code == 400 and response.json()["code"] == "bad_position"
    response = server.post(FIRST, {"position": "xo o", "seconds": 99})
    assert response.status_code == 400 and response.json()["code"] == "malformed"
    assert server.get("/healthz").json()["analyses"] == before
