"""Puzzles from the server's own finished games, against a real server with the mining on: a
Clobber game played to its end on the server becomes a puzzle whose winning move the solver
proves (and refutes every other), linked to the game's replay; a game still being played is
never read; an account's answer moves the puzzle's own rating (Glicko-2, stored); the
profile shows the player's puzzle rating; ``parlour puzzles clobber --generate N --from-db``
makes the same puzzle from the database."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

import parlour
from parlour.analysis.puzzles import Puzzle, load, puzzle_id, rate_attempt, shipped
from parlour.analysis.solver import ClobberSolver
from parlour.cli import app as cli_app

from .helpers import FOR_TESTS, TIMEOUT, ServerProcess, account

# A 4x5 game whose 8th position (after OPENING) has exactly one winning move for Black, which
# the solver proves; the rest of LINE is that puzzle's line (the replies the most stubborn).
OPENING = ["e3d3", "b3c3", "d2c2", "c4b4", "c1d1", "c3c2", "d4e4"]
POSITION = "xx..o/o..o./xox.x/ox.oo x"
LINE = ["a2b2", "a3a4", "e2e1", "a1b1", "b2b1"]
MINING = FOR_TESTS.replace("puzzle_mining_seconds_per_hour=0",
                           "puzzle_mining_seconds_per_hour=300")


@pytest.fixture(scope="module")
def mining(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("mining") / "parlour.db",
                         limits=MINING).start()
    yield proc
    proc.stop()


def _act(server: ServerProcess, url: str, move: str | int, n: int) -> None:
    token = url.rsplit("/", 1)[1]
    reply = server.post(f"/api/play/{token}/act",
                        {"type": "act", "client_id": f"m{n}-{time.monotonic_ns()}",
                         "steps": [move]})
    assert reply.status_code == 200 and reply.json()["type"] == "ack", reply.text


def _play(server: ServerProcess, browser: httpx.Client, moves: list[str], to_the_end: bool,
          friend: bool = False) -> dict:
    """A 4x5 table made by a signed-in player, hot-seat (a private table) or with an invited
    friend (the host's seat is their account's: the game is on their profile, public),
    ``moves`` played, then (``to_the_end``) each side's first legal move until it is over."""
    seats = [{"kind": "me"}, {"kind": "invite"}] if friend else [{"kind": "hotseat"}] * 2
    made = browser.post("/api/tables", json={"game": "clobber", "params": {"size": "4x5"},
                                             "seats": seats})
    assert made.status_code == 201, made.text
    table = made.json()
    if friend:
        server.arrive(table)  # the friend opens the link: the game starts
    hands = {0: table["url"], 1: table["invites"][0]["url"] if friend else table["url"]}
    n = 0
    while True:
        state = server.get("/api/play/" + table["url"].rsplit("/", 1)[1]).json()
        if state["terminal"] or (n >= len(moves) and not to_the_end):
            return table
        hand = hands[state["to_act"]]
        legal = server.get("/api/play/" + hand.rsplit("/", 1)[1]).json()["legal"]
        _act(server, hand, moves[n] if n < len(moves) else legal[0]["a"], n)
        n += 1


def _rows(db: Path, query: str, *args: object) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute(query, args).fetchall()


def _wait_mined(server: ServerProcess, table_id: str) -> None:
    deadline = time.monotonic() + 4 * TIMEOUT
    while time.monotonic() < deadline:
        if _rows(server.db_path, "SELECT 1 FROM parlour_puzzle_mined WHERE table_id = ?",
                 table_id):
            return
        time.sleep(0.5)
    raise AssertionError(f"table {table_id} was not mined: "
                         f"{server.log_path.read_text()[-2000:]}")


def test_the_position_has_one_winning_move():
    """The known position: the solver proves LINE's first move is the only one that wins."""
    state = parlour.load_game("clobber", position=POSITION).new_initial_state()
    solution = ClobberSolver(state.get_game()).solve(state, all_moves=True)
    assert solution.winning_actions == (state.string_to_action(LINE[0]),)
    replay = parlour.load_game("clobber", size="4x5").new_initial_state()
    for move in OPENING:
        replay.apply_action(replay.string_to_action(move))
    assert replay.position() == POSITION
    assert puzzle_id(POSITION) not in {p.id for p in shipped()}  # a new puzzle, not a shipped one


def test_a_finished_game_becomes_a_puzzle_and_its_rating_moves(mining: ServerProcess):
    host = account(mining, "miner-host")
    going = _play(mining, host, OPENING, to_the_end=False)  # still being played: never read
    done = _play(mining, host, OPENING + LINE, to_the_end=True, friend=True)
    _wait_mined(mining, done["table"])
    made = _rows(mining.db_path, "SELECT id, position, line, ply FROM parlour_puzzles "
                 "WHERE table_id = ?", done["table"])
    assert (puzzle_id(POSITION), POSITION, f"{LINE}".replace("'", '"'), len(OPENING)) in made
    assert _rows(mining.db_path, "SELECT 1 FROM parlour_puzzle_mined WHERE table_id = ?",
                 going["table"]) == []
    assert _rows(mining.db_path, "SELECT 1 FROM parlour_puzzles WHERE table_id = ?",
                 going["table"]) == []

    pid = puzzle_id(POSITION)
    about = mining.get(f"/api/puzzles/clobber/{pid}").json()
    assert about["source"]["kind"] == "server" and about["source"]["ply"] == len(OPENING)
    assert about["source"]["replay"] == f"/watch/{done['table']}"  # an account's game: public
    assert "line" not in about and "solution" not in about
    assert 800 <= about["rating"] <= 2400 and about["puzzle_rating"]["attempts"] == 0
    assert mining.get(about["source"]["replay"]).status_code == 200
    # the solver proves the served puzzle's first move wins and every other loses
    state = parlour.load_game("clobber", position=POSITION).new_initial_state()
    assert {m["s"] for m in about["legal"]} == {state.action_to_string(a)
                                                 for a in state.legal_actions()}
    solution = ClobberSolver(state.get_game()).solve(state, all_moves=True)
    assert [state.action_to_string(a) for a in solution.winning_actions] == [LINE[0]]

    # an account solves it: its rating and the puzzle's move, as one Glicko-2 game
    solver = account(mining, "miner-solver")
    before = about["puzzle_rating"]
    answer = solver.post(f"/api/puzzles/clobber/{pid}/answer",
                         json={"moves": LINE[::2]}).json()
    assert answer["status"] == "solved" and answer["you"]["rated"]
    player = (1500.0, 350.0, 0.06)
    puzzle = Puzzle(
        id=pid, position=POSITION, line=tuple(LINE), rating=before["rating"], rd=before["rd"],
        volatility=before["volatility"])
    mine, theirs = rate_attempt(player, puzzle, solved=True)
    assert answer["you"]["rating"] == pytest.approx(mine[0])
    assert answer["puzzle_rating"]["rating"] == pytest.approx(theirs[0])
    assert answer["puzzle_rating"]["change"] < 0  # solved: the puzzle lost
    after = mining.get(f"/api/puzzles/clobber/{pid}").json()["puzzle_rating"]
    assert after["rating"] == pytest.approx(theirs[0]) and after["rd"] < before["rd"]
    assert (after["attempts"], after["solved"]) == (1, 1)
    assert about["source"]["replay"] is not None

    # a guest's answer moves nothing (a browser can send any rating, any number of times)
    guest = mining.post(f"/api/puzzles/clobber/{pid}/answer", {"moves": ["a2a3"]}).json()
    assert guest["status"] == "failed" and guest["puzzle_rating"] is None
    assert mining.get(f"/api/puzzles/clobber/{pid}").json()["puzzle_rating"] == after

    # the profile shows the puzzle rating next to the game ratings
    profile = mining.get("/api/players/miner-solver").json()
    assert profile["puzzles"]["clobber"]["rating"] == pytest.approx(mine[0], abs=0.1)
    assert (profile["puzzles"]["clobber"]["attempts"],
            profile["puzzles"]["clobber"]["solved"]) == (1, 1)
    assert mining.get("/api/players/miner-host").json()["puzzles"] == {}

    # the command line makes the same puzzle from the database
    out = mining.db_path.with_name("from-db.jsonl")
    result = CliRunner().invoke(cli_app, [
        "puzzles", "clobber", "--generate", "1", "--from-db", f"sqlite:///{mining.db_path}",
        "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert [p.position for p in load(out)] == [POSITION]
    assert load(out)[0].line == tuple(LINE)
