"""The analysis board's API (``POST /api/analyse/clobber``) on a real server process: known
positions and their answers checked against the solver and the rules, bad input refused in
the error style of the server, the time limit, the rate limit, cancelling, and the worker's
hard deadline."""

from __future__ import annotations

import asyncio
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

import parlour
from parlour.analysis import cgt_value, solve
from parlour.analysis.cgt import name, position_value
from parlour.analysis.proved import key
from parlour.server.ai import AIRunner, AITimeout

from .helpers import FOR_TESTS, TIMEOUT, ServerProcess

API = "/api/analyse/clobber"
DOCUMENTED = {"b2c2", "b2b1", "d2d1", "d2c2", "a1a2", "a1b1", "c1c2", "c1b1"}
"""docs/analysis.md: the winning moves of ``xoxo/oxox o``."""
SIX_BY_SEVEN = parlour.load_game("clobber", size="6x7").new_initial_state().position()
"""A start nobody has solved (neither the opening book nor the hunt's records know it)."""


def analyse(server: ServerProcess, position: str) -> dict:
    response = server.post(API, {"position": position})
    assert response.status_code == 200, response.text
    return response.json()


def state_of(position: str):
    return parlour.load_game("clobber", position=position).new_initial_state()


def check_line(answer: dict) -> None:
    """The principal line is a legal game from the position, alternating, each step's position
    the one the rules give; a complete line ends the game with the winner's last move."""
    state = state_of(answer["position"])
    for step in answer["line"]:
        assert step["player"] == "ox"[state.to_move]
        state.apply_action(state.string_to_action(step["move"]))
        assert step["position"] == state.position()
    if answer["line_complete"]:
        assert state.is_terminal()
        assert "ox"[1 - state.to_move] == answer["winner"]  # the last mover wins (C5)
    # the winner's moves in the line are winning moves (the first one: of the position)
    if answer["line"] and answer["winner"] == answer["to_move"]:
        assert answer["line"][0]["move"] in answer["winning_moves"]


def test_the_documented_position_every_winning_move_its_region_and_line(server: ServerProcess):
    answer = analyse(server, "xoxo/oxox o")
    assert answer["solved"] is True
    assert answer["winner"] == "o" and answer["to_move"] == "o"
    assert set(answer["winning_moves"]) == DOCUMENTED
    assert answer["summary"] == "White (o) to move wins, with 8 winning moves."
    # one region of eight stones, worth * (first player wins): docs/analysis.md, "Values"
    assert answer["regions"] == [{
        "squares": ["a2", "b2", "c2", "d2", "a1", "b1", "c1", "d1"], "stones": 8,
        "outcome": "N", "outcome_text": "whoever moves first in it wins", "value": "*",
        "cgsuite": "*", "value_note": None,
    }]
    assert answer["value"] == answer["value_cgsuite"] == "*"
    check_line(answer)
    assert answer["line_complete"] is True
    assert answer["time_limit"] == 5.0 and answer["nodes"] >= 1


@pytest.mark.parametrize("position", [
    "xo../..ox/oxxo x",          # two regions
    "oxo/xox o",                 # 2x3 start: a second-player win
    "xxo./.... x",               # up (Black wins whoever starts)
    "oxoxox/xoxoxo/oxoxox o",    # 3x6 start: one region of 18 stones, no value
    "x.o. o",                    # nobody can move: the side to move has lost
])
def test_answers_agree_with_the_solver_move_by_move(server: ServerProcess, position: str):
    answer = analyse(server, position)
    state = state_of(position)
    mover = "ox"[state.to_move]
    # a move is listed exactly when the position it leaves is lost for the opponent
    expected = {
        state.action_to_string(a) for a in state.legal_actions()
        if solve(state.child(a)).winner == mover
    }
    assert set(answer["winning_moves"]) == expected
    assert answer["winner"] == (mover if expected else "xo"[state.to_move])
    check_line(answer)
    # the regions cover the stones that can still move, each one once
    squares = [s for region in answer["regions"] for s in region["squares"]]
    assert len(squares) == len(set(squares))
    for region in answer["regions"]:
        assert region["stones"] == len(region["squares"])
        assert region["outcome"] in ("N", "P", "o", "x")
    if all(r["value"] for r in answer["regions"]):
        assert answer["value"] == name(position_value(state))
        assert answer["value_cgsuite"] == cgt_value(state)


def test_region_values_and_outcomes(server: ServerProcess):
    up = analyse(server, "xxo./.... x")
    assert up["regions"][0]["value"] == "↑" and up["regions"][0]["outcome"] == "x"
    assert up["regions"][0]["cgsuite"] == "^" and up["value_cgsuite"] == "^"
    assert up["regions"][0]["outcome_text"] == "Black (x) wins it, whoever starts"
    two = analyse(server, "xo../..ox/oxxo x")
    assert [len(r["squares"]) for r in two["regions"]] == [2, 6]
    assert two["regions"][0]["value"] == "*"
    # a region too big for its value still gets its outcome class, solved alone
    big = analyse(server, "oxoxox/xoxoxo/oxoxox o")
    assert big["regions"][0]["value"] is None and big["regions"][0]["cgsuite"] is None
    assert big["value"] is None and big["value_cgsuite"] is None
    assert big["regions"][0]["value_note"] == "not worked out (over 10 stones)"
    assert big["regions"][0]["outcome"] == "P"  # 3x6 is a second-player win either way
    over = analyse(server, "x.o. o")
    assert over["regions"] == [] and over["winning_moves"] == [] and over["winner"] == "x"
    assert over["summary"] == "White (o) has no move left: Black (x) has won."


def test_the_largest_board_the_game_allows(server: ServerProcess):
    # 99 x 26 (C1) with a few stones: the size is the game's, the work is bounded by the stones
    ranks = ["." * 26] * 99
    ranks[0] = "xo" + "." * 24
    ranks[98] = "." * 23 + "xxo"
    answer = analyse(server, "/".join(ranks) + " x")
    assert answer["winner"] == "x" and answer["winning_moves"] == ["a99b99"]  # ↑ + * : take the *
    assert sorted(r["value"] for r in answer["regions"]) == ["*", "↑"]
    assert sorted(r["cgsuite"] for r in answer["regions"]) == ["*", "^"]
    assert answer["value_cgsuite"] == "^*"
    assert answer["value"] == name(position_value(state_of(answer["position"])))
    check_line(answer)


def test_6x6_from_the_start_is_answered_from_the_shipped_proof(server: ServerProcess):
    # searching 6x6 takes tens of CPU hours against the 5 s limit: this answer comes from
    # record first:2 (the position after b6b5, lost for Black), with no search
    start = parlour.load_game("clobber", size="6x6").new_initial_state().position()
    answer = analyse(server, start)
    assert answer["solved"] is True and answer["to_move"] == "o" and answer["winner"] == "o"
    assert answer["proved_by"] == ["first:2"] and answer["nodes"] == 0
    assert "b6b5" in answer["winning_moves"] and answer["complete"] is False
    assert answer["summary"] == "White (o) to move wins."
    state = state_of(start)
    for move in answer["winning_moves"]:  # b6b5 and its turned copies, each into first:2
        assert is_first_2(state.child(state.string_to_action(move)).position())
    check_line(answer)
    assert answer["regions"][0]["stones"] == 36 and answer["regions"][0]["value"] is None
    # the records decide the board with either side first (the colours mirror): N
    assert answer["regions"][0]["outcome"] == "N"
    # a searched answer says it was searched: nothing is proved by a record
    small = analyse(server, "xoxo/oxox o")
    assert small["proved_by"] == [] and small["complete"] is True


def is_first_2(position: str) -> bool:
    """The position is first:2's, turned or mirrored, which its shipped record says Black
    (to move) loses."""
    record = json.loads((Path(__file__).resolve().parents[2] / "bench" / "clobber_hunt_records"
                         / "first-2.json").read_text(encoding="utf-8"))
    assert record["winner"] == "o" and record["position"].endswith(" x")
    return key(state_of(position)) == key(state_of(record["position"]))


def refused(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["type"] == "error" and body["code"] == code
    assert body["detail"] == body["message"]
    return body["message"]


def test_bad_requests_are_refused_with_a_reason(server: ServerProcess):
    before = server.get("/healthz").json()["analyses"]
    post = server.post
    not_json = httpx.post(server.base + API, content=b"{position", timeout=30,
                          headers={"content-type": "application/json"})
    assert "not JSON" in refused(not_json, 400, "malformed")
    refused(post(API, {"pos": "xo o"}), 400, "malformed")
    refused(post(API, {"position": "xo o", "seconds": 100}), 400, "malformed")
    refused(post(API, {"position": 5}), 400, "malformed")
    refused(post(API, ["xo o"]), 400, "malformed")
    # the game reads the position; the rule it breaks is named at the end in a player's words
    assert refused(post(API, {"position": "xoqo/oxox o"}), 400, "bad_position") == (
        "Cannot read the position 'xoqo/oxox o': unknown square marks ['q'] (Clobber: positions)"
    )
    assert refused(post(API, {"position": "xo/x o"}), 400, "bad_position").endswith(
        "(Clobber: positions)")
    assert refused(post(API, {"position": "xoxo"}), 400, "bad_position").endswith(
        "(Clobber: positions)")
    assert refused(post(API, {"position": "xo/ox w"}), 400, "bad_position").endswith(
        "(Clobber: positions)")
    # bounded: the game's largest board, the stones, the text, the body
    tall = "/".join(["x"] * 100) + " o"
    assert refused(post(API, {"position": tall}), 400, "bad_position") == (
        "A board is 1x2 up to 99x26, not 100x1 (Clobber: the board)"
    )
    full = "/".join(["xo" * 4 + "x"] * 9) + " o"  # 81 stones
    assert "at most 80 stones, not 81" in refused(post(API, {"position": full}), 400,
                                                  "too_large")
    refused(post(API, {"position": "x" * 3001 + " o"}), 400, "too_large")
    refused(post(API, {"position": "x" * 20_000}), 413, "too_large")
    # nothing reached a worker
    assert server.get("/healthz").json()["analyses"] == before


def test_the_page_and_its_start_positions(server: ServerProcess):
    page = server.get("/analyse/clobber")
    assert page.status_code == 200 and "analyse.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    start = server.get("/api/analyse/clobber/start", params={"rows": 2, "columns": 3}).json()
    expected = parlour.load_game("clobber", rows=2, columns=3).new_initial_state().position()
    assert start == {"position": expected, "time_limit": 5.0, "max_stones": 80}
    too_big = server.get("/api/analyse/clobber/start", params={"rows": 100, "columns": 3})
    assert refused(too_big, 400, "bad_position").endswith("(Clobber: the board)")


def test_time_limit_and_rate_limit(tmp_path: Path):
    # (a later name=value wins: four analyses at once, then hardly any more)
    limits = FOR_TESTS + ",analysis_seconds=0.5,analyses_burst=4,analyses_per_minute=0.01"
    server = ServerProcess(tmp_path / "analyse.db", limits=limits).start()
    try:
        # 6x7 from the start is open (the opening book has 5x6's): no answer is guessed
        slow = analyse(server, SIX_BY_SEVEN)
        assert slow["solved"] is False and "winner" not in slow
        assert slow["message"].startswith("Not solved within 0.5 s (")
        assert slow["nodes"] > 0 and slow["time_limit"] == 0.5
        for _ in range(3):
            assert analyse(server, "xo o")["winning_moves"] == ["b1a1"]
        limited = server.post(API, {"position": "xo o"})
        assert "Too many analyses" in refused(limited, 429, "rate_limited")
        assert int(limited.headers["retry-after"]) >= 1
        counts = server.get("/healthz").json()["analyses"]
        assert counts == {"solved": 3, "from_book": 0, "estimated": 0, "unsolved": 1,
                          "killed": 0, "cancelled": 0}
    finally:
        server.stop()


def test_a_client_that_leaves_has_its_worker_stopped(tmp_path: Path):
    server = ServerProcess(tmp_path / "cancel.db", limits=FOR_TESTS + ",analysis_seconds=60")
    server.start()
    try:
        analyse(server, "xo o")  # the worker is up
        with pytest.raises(httpx.TimeoutException):
            httpx.post(server.base + API, json={"position": SIX_BY_SEVEN}, timeout=1.5)
        deadline = time.monotonic() + TIMEOUT
        while server.get("/healthz").json()["analyses"]["cancelled"] == 0:
            assert time.monotonic() < deadline, "the server did not notice the client leave"
            time.sleep(0.2)
        # one worker: had the 60 s solve gone on, this would wait for it past the timeout
        response = httpx.post(server.base + API, json={"position": "xoxo/oxox o"}, timeout=30)
        assert response.json()["winner"] == "o"
    finally:
        server.stop()


def test_a_job_past_its_deadline_is_killed_with_its_worker():
    async def run() -> None:
        runner = AIRunner("process", workers=1, deadline=0.5, job=time.sleep)
        try:
            with pytest.raises(AITimeout):
                await runner.run(30)
            assert runner.stats.timeouts == 1
            assert await runner.run(0) is None  # a fresh worker takes the next job
        finally:
            runner.close()

    run_in_own_loop(run())


def test_a_worker_is_replaced_after_its_number_of_jobs():
    async def run() -> list[int]:
        runner = AIRunner("process", workers=1, max_jobs=2, job=os.getpid)
        try:
            return [await runner.run() for _ in range(5)]
        finally:
            runner.close()

    pids = run_in_own_loop(run())
    assert pids[0] == pids[1] != pids[2] == pids[3] != pids[4]


def run_in_own_loop(coroutine: Any) -> Any:
    """Run ``coroutine`` on a fresh event loop in a thread of its own: a browser test's
    session (Playwright's sync API) may keep a loop running on this thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
