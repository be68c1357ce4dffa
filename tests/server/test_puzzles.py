"""Puzzles over HTTP against a real server process: the next puzzle, answers checked along the
solver's line, guests' ratings worked out from what they send, accounts' stored once per
puzzle, and hostile answers refused with nothing rated."""

from __future__ import annotations

import re
from dataclasses import replace

import httpx
import pytest

import parlour
from parlour.analysis.puzzles import NEAREST, Puzzle, rate_attempt, shipped
from parlour.ratings import NEW_RATING, NEW_RD, NEW_VOLATILITY
from parlour.server.web.routes.puzzles import MAX_MOVES, MAX_SEEN

from .helpers import ServerProcess, account

RULING_ID = re.compile(r"\[[A-Z]-?\d+\]|\b[CSPBG]-?\d{1,2}\b")


def _long() -> Puzzle:
    """A shipped puzzle of three moves to find (two solver replies)."""
    return next(p for p in shipped() if len(p.line) == 5)


def _wrong_move(puzzle: Puzzle, at: int = 0) -> str:
    """A legal move after the line's first ``at`` plies that is not the line's next (it loses:
    the solver proved it)."""
    state = parlour.load_game("clobber", position=puzzle.position).new_initial_state()
    for move in puzzle.line[:at]:
        state.apply_action(state.string_to_action(move))
    right = state.string_to_action(puzzle.line[at])
    return state.action_to_string(next(a for a in state.legal_actions() if a != right))


def _answer(server: ServerProcess, puzzle: Puzzle, moves: list, client: httpx.Client | None = None,
            **extra) -> httpx.Response:
    path = f"/api/puzzles/clobber/{puzzle.id}/answer"
    body = {"moves": moves, **extra}
    return client.post(path, json=body) if client else server.post(path, body)


def test_the_page_and_the_next_puzzle(server: ServerProcess):
    assert "puzzles.js" in server.get("/puzzles/clobber").text
    puzzle = _long()
    assert server.get(f"/puzzles/clobber/{puzzle.id}").status_code == 200
    assert server.get("/puzzles/stomple").status_code == 404
    assert server.get("/puzzles/clobber/0000000000").status_code == 404
    assert server.get("/api/puzzles/chess/next").status_code == 404
    found = server.get("/api/puzzles/clobber/next", params={"rating": 1800}).json()
    ratings = sorted(p.rating for p in shipped())
    assert min(abs(found["rating"] - r) for r in ratings) < 1  # one of the shipped
    assert found["colour"] in ("White", "Black") and found["legal"]
    assert "line" not in found and "solution" not in found  # nothing to find is given away
    assert found["you"] == {"account": False}
    lobby = server.get("/api/games").json()["games"]
    assert [g["name"] for g in lobby if g["puzzles"]] == ["clobber"]


def test_the_next_puzzle_is_near_the_rating_and_unseen(server: ServerProcess):
    first = server.get("/api/puzzles/clobber/next", params={"rating": 900}).json()
    # the server's rule: nearest first, ties by id (885 and 915 are both 15 away from 900)
    near = sorted(shipped(), key=lambda p: (abs(p.rating - 900), p.id))[:NEAREST]
    assert first["id"] in {p.id for p in near}
    seen = ",".join(p.id for p in near)
    other = server.get("/api/puzzles/clobber/next", params={"rating": 900, "seen": seen}).json()
    assert other["id"] not in seen


def test_a_puzzle_solved_move_by_move(server: ServerProcess):
    puzzle = _long()
    start = server.get(f"/api/puzzles/clobber/{puzzle.id}").json()
    assert start["moves_to_find"] == 3
    one = _answer(server, puzzle, [puzzle.line[0]]).json()
    assert one["status"] == "going" and one["reply"] == puzzle.line[1]
    assert one["played"] == list(puzzle.line[:2]) and "solution" not in one and "you" not in one
    assert one["last"] is not None and one["legal"]  # the solver's reply is on the board
    by_id = [next(m["a"] for m in one["legal"] if m["s"] == puzzle.line[2])]  # action ids too
    two = _answer(server, puzzle, [puzzle.line[0], by_id[0]]).json()
    assert two["status"] == "going" and two["reply"] == puzzle.line[3]
    guest = {"rating": 1600.0, "rd": 120.0, "volatility": 0.06}
    done = _answer(server, puzzle, list(puzzle.line[::2]), rating=guest).json()
    assert done["status"] == "solved" and done["legal"] == []
    assert done["solution"] == list(puzzle.line) and done["found"] == 5
    now = start["puzzle_rating"]  # the puzzle's rating as it stands (accounts move it)
    (rating, rd, vol), _ = rate_attempt((1600.0, 120.0, 0.06), replace(
        puzzle, rating=now["rating"], rd=now["rd"], volatility=now["volatility"]), True)
    assert done["you"] == pytest.approx({"account": False, "rating": rating, "rd": rd,
                                         "volatility": vol, "change": rating - 1600.0,
                                         "rated": True})
    assert done["you"]["change"] > 0


def test_a_wrong_move_fails_and_shows_the_winning_one(server: ServerProcess):
    puzzle = _long()
    late = _answer(server, puzzle, [puzzle.line[0], puzzle.line[2], _wrong_move(puzzle, 4)]).json()
    assert late["status"] == "failed" and late["found"] == 4 and late["legal"] == []
    assert late["solution"][4] == puzzle.line[4] and late["played"][:4] == list(puzzle.line[:4])
    miss = _answer(server, puzzle, [_wrong_move(puzzle)]).json()  # a new guest's rating
    assert miss["status"] == "failed" and miss["found"] == 0
    assert miss["solution"][miss["found"]] == puzzle.line[0]
    assert miss["you"]["rating"] < NEW_RATING and miss["you"]["rated"]
    after = _answer(server, puzzle, [_wrong_move(puzzle), puzzle.line[0]])
    assert after.status_code == 400 and "over" in after.json()["detail"]


def test_hostile_answers_are_refused(server: ServerProcess):
    puzzle = _long()
    illegal = _answer(server, puzzle, ["a1a1"])
    assert illegal.status_code == 400
    detail = illegal.json()["detail"]
    assert detail.startswith("move 1: ") and detail.endswith(")") and not RULING_ID.search(detail)
    assert _answer(server, puzzle, [10**9]).status_code == 400
    assert _answer(server, puzzle, ["x" * 201]).status_code == 400
    assert _answer(server, puzzle, [puzzle.line[0]] * (MAX_MOVES + 1)).status_code == 400
    assert _answer(server, puzzle, [], rating={"rating": 1e9}).status_code == 400
    assert _answer(server, puzzle, [], rating={"rating": 1500, "rd": 1}).status_code == 400
    assert _answer(server, puzzle, [], cheat=True).status_code == 400
    bad = server.post(f"/api/puzzles/clobber/{puzzle.id}/answer", None,
                      content=b"{not json", headers={"content-type": "application/json"})
    assert bad.status_code == 400
    assert server.post("/api/puzzles/clobber/" + "f" * 40 + "/answer", {"moves": []}
                       ).status_code == 404
    too_many = ",".join(["abcdef0123"] * (MAX_SEEN * 2))
    assert server.get("/api/puzzles/clobber/next", params={"seen": too_many}).status_code == 422
    assert server.get("/api/puzzles/clobber/next", params={"rating": -5}).status_code == 422
    start = _answer(server, puzzle, []).json()  # no move yet: the start, nothing rated
    assert start["status"] == "going" and "you" not in start


def test_a_refusal_reads_in_the_readers_language(server: ServerProcess):
    """The reason a move is refused is in the reader's language inside the puzzle's own words
    ("move 1: ..."), as the rest of the puzzle page (issue 65)."""
    puzzle = _long()
    french = server.post(f"/api/puzzles/clobber/{puzzle.id}/answer", {"moves": ["a1a1"]},
                         headers={"Accept-Language": "fr-FR"})
    assert french.status_code == 400
    detail = french.json()["detail"]
    assert detail.endswith(": jouer un coup)") and "moving" not in detail, detail
    english = _answer(server, puzzle, ["a1a1"]).json()["detail"]
    assert english.startswith("move 1: ") and english.endswith("(Clobber: moving)"), english


def test_an_accounts_rating_moves_once_per_puzzle(server: ServerProcess):
    browser = account(server, "puzzler")
    mine = browser.get("/api/puzzles/clobber/next").json()
    assert mine["you"] == {"account": True, "rating": NEW_RATING, "rd": NEW_RD,
                           "volatility": NEW_VOLATILITY, "attempts": 0, "solved": 0}
    rated = mine["puzzle_rating"]  # the puzzle's own rating as it stands (attempts move it)
    puzzle = replace(next(p for p in shipped() if p.id == mine["id"]), rating=rated["rating"],
                     rd=rated["rd"], volatility=rated["volatility"])
    solved = _answer(server, puzzle, list(puzzle.line[::2]), browser,
                     rating={"rating": 3000}).json()  # an account's own rating, not the body's
    (rating, rd, _), theirs = rate_attempt((NEW_RATING, NEW_RD, NEW_VOLATILITY), puzzle, True)
    assert solved["you"]["rated"] and solved["you"]["rating"] == pytest.approx(rating)
    assert solved["puzzle_rating"]["rating"] == pytest.approx(theirs[0])  # the puzzle's moved
    again = _answer(server, puzzle, [_wrong_move(puzzle)], browser).json()
    assert again["status"] == "failed" and not again["you"]["rated"]
    assert again["you"]["rating"] == pytest.approx(rating) and again["you"]["change"] == 0
    summary = browser.get(f"/api/puzzles/clobber/{puzzle.id}").json()["you"]
    assert (summary["attempts"], summary["solved"]) == (1, 1)
    assert summary["rd"] == pytest.approx(rd)
    for _ in range(5):  # a finished puzzle is not offered again
        assert browser.get("/api/puzzles/clobber/next").json()["id"] != puzzle.id
